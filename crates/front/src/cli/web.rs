//! `web`: one session served to a browser (the page itself is in
//! `front::web`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::base::write::{Access, Held};
use crate::session::{parse_pairs, Session};
use crate::web::{desk::DeskSite, WebServer};

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
    /// Keep the session's record in FILE, replaced whole after every
    /// change, so that `--resume FILE` finds the game after the server
    /// stopped or died (default: kept nowhere)
    #[arg(long, value_name = "FILE", conflicts_with = "resume")]
    pub save: Option<PathBuf>,
    /// Go on with the session kept in FILE (by `--save FILE`), and keep it
    /// there
    #[arg(long, value_name = "FILE", conflicts_with_all = ["variant", "seed", "options"])]
    pub resume: Option<PathBuf>,
}

pub(super) fn web(args: WebArgs) -> Result<(), String> {
    // A session to go on with is held first: while another session keeps
    // it, nothing is read or changed.
    let mut keep = match &args.resume {
        Some(file) => Some(Held::take(
            file,
            &file.display().to_string(),
            Access::Shared,
            false,
        )?),
        None => None,
    };
    let mut session = match &args.resume {
        Some(file) => resumed(file)?,
        None => {
            let variant = args.variant.clone().unwrap_or_else(super::default_variant);
            let overrides = parse_pairs(&args.options)?;
            let seed = args.seed.unwrap_or_else(crate::base::state::secret_seed);
            Session::new(&variant, &overrides, seed)?
        }
    };
    session.set_clock(args.clock.as_deref())?;
    if let Some(file) = &args.save {
        let held = Held::take(file, &file.display().to_string(), Access::Shared, true)?;
        if !held.is_empty() {
            return Err(format!(
                "{} already holds something: `--resume {0}` goes on with the session kept there; or name another file",
                file.display()
            ));
        }
        keep = Some(held);
    }
    let name = session.engine.variant.name.clone();
    let mut site = DeskSite::new(session);
    let kept_in = keep.as_ref().map(|h| h.path().to_path_buf());
    if let Some(held) = keep {
        site = site.keep_in(held)?;
    }
    let server = WebServer::start(
        &format!("{}:{}", args.bind, args.port),
        Arc::new(site),
        &args.allow_origin,
    )?;
    match &kept_in {
        Some(file) => println!("keeping the session in {}", file.display()),
        None => println!("the session is kept nowhere (--save FILE keeps it)"),
    }
    println!("serving {name} at http://{}/ (Ctrl-C stops)", server.addr);
    use std::io::Write;
    let _ = std::io::stdout().flush();
    loop {
        std::thread::park();
    }
}

/// The session kept in `file` (a whole record), played again.
fn resumed(file: &Path) -> Result<Session, String> {
    let rec = match crate::record::read_record(file)? {
        crate::record::RecordFile::Whole(rec) => rec,
        crate::record::RecordFile::Seen(_) => {
            return Err(format!(
                "{}: one player's record: --resume needs the whole record that --save keeps",
                file.display()
            ))
        }
    };
    let overrides = crate::record::overrides(&rec.options);
    let mut session = Session::new(&rec.variant, &overrides, 0)?;
    session.load_record(&rec)?;
    Ok(session)
}
