use clap::Parser;

fn main() {
    let cli = sandtable::cli::Cli::parse();
    std::process::exit(sandtable::cli::run(cli));
}
