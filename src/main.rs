use clap::Parser;

fn main() {
    let cli = sandtable::front::cli::Cli::parse();
    std::process::exit(sandtable::front::cli::run(cli));
}
