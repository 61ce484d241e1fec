//! `web`: one session served to a browser (the page itself is in
//! `front::web`).

use std::sync::Arc;

use crate::front::session::{parse_pairs, Session};
use crate::front::web::{desk::DeskSite, WebServer};

// The arguments of `web` (its help is the doc of `Cmd::Web`).
#[derive(clap::Args, Debug)]
pub struct WebArgs {
    /// A bundled variant name or a YAML path (default: the one named in variants/default)
    pub variant: Option<String>,
    /// Port to serve on (0: any free port)
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on (the page runs any REPL command, files
    /// included: keep it on this machine unless you mean it)
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: String,
    /// Seed of the setups and chance (default: a secret one from the OS)
    #[arg(long)]
    pub seed: Option<u64>,
    /// Time each player: `15m`, or `15m+5s`
    #[arg(long)]
    pub clock: Option<String>,
    /// Set an option: NAME=VALUE (repeatable)
    #[arg(long = "option", short = 'o')]
    pub options: Vec<String>,
    /// A further name the page may be reached by (`myhost.lan`), besides IP
    /// addresses and localhost: requests and sockets naming any other host
    /// are refused, against DNS rebinding (repeatable)
    #[arg(long = "allow-origin", value_name = "NAME")]
    pub allow_origin: Vec<String>,
}

pub(super) fn web(args: WebArgs) -> Result<(), String> {
    let variant = args.variant.unwrap_or_else(super::default_variant);
    let overrides = parse_pairs(&args.options)?;
    let seed = args.seed.unwrap_or_else(crate::base::state::secret_seed);
    let mut session = Session::new(&variant, &overrides, seed)?;
    session.set_clock(args.clock.as_deref())?;
    let name = session.engine.variant.name.clone();
    let server = WebServer::start(
        &format!("{}:{}", args.bind, args.port),
        Arc::new(DeskSite::new(session)),
        &args.allow_origin,
    )?;
    println!("serving {name} at http://{}/ (Ctrl-C stops)", server.addr);
    use std::io::Write;
    let _ = std::io::stdout().flush();
    loop {
        std::thread::park();
    }
}
