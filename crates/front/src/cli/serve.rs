//! `serve`: what the host's terminal does while it hosts a network game (the
//! network play itself is in `front::net`).

use std::path::PathBuf;

use super::repl::StdinLines;
use crate::session::{parse_pairs, Session};

// The arguments of `serve` (its help is the doc of `Cmd::Serve`).
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    #[arg(required_unless_present = "resume")]
    pub variant: Option<String>,
    #[arg(long, default_value_t = 7878)]
    pub port: u16,
    /// Address to listen on (0.0.0.0: every interface)
    #[arg(long, default_value = "0.0.0.0")]
    pub bind: String,
    /// Seed of the setups and chance (default: a secret one from the OS)
    #[arg(long)]
    pub seed: Option<u64>,
    #[arg(long = "option", short = 'o')]
    pub options: Vec<String>,
    #[arg(long)]
    pub clock: Option<String>,
    /// PLAYER=human (this terminal), PLAYER=AGENT (random, mcts:200: the host plays), or PLAYER=remote (default)
    #[arg(long = "seat")]
    pub seats: Vec<String>,
    /// Journal the game to FILE as it goes (each action written and synced before anyone hears of it), to go on with --resume FILE after a crash; `replay FILE` reads it. Default: kept nowhere
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Continue the hosted game of a journal (its variant, options, seed, seats, clocks and moves); players take their seats back with their tokens
    #[arg(long, value_name = "FILE", conflicts_with_all = ["variant", "seed", "options", "clock", "seats", "save", "deal", "away"])]
    pub resume: Option<PathBuf>,
    /// Deal every army from the seed instead of letting each player set up
    #[arg(long)]
    pub deal: bool,
    /// What the clocks do while a player is away: pause or run
    #[arg(long, default_value = "pause")]
    pub away: crate::net::AwayPolicy,
    /// The most connections open at once
    #[arg(long, default_value_t = 400)]
    pub max_connections: usize,
    /// The most spectators at once (fewer if the connections cannot also hold every seat)
    #[arg(long, default_value_t = 256)]
    pub max_spectators: usize,
    /// The most spectators from one address at once (a browser counts by its own address)
    #[arg(long, default_value_t = 16)]
    pub spectators_per_address: usize,
    /// Also let browsers join, at http://HOST:PORT/ (default port 8080)
    #[arg(long, num_args = 0..=1, default_missing_value = "8080", value_name = "PORT")]
    pub web: Option<u16>,
    /// A further name the web page may be reached by (`table.lan`,
    /// `https://game.example` behind a proxy), besides IP addresses and
    /// localhost (repeatable)
    #[arg(long = "allow-origin", value_name = "NAME")]
    pub allow_origin: Vec<String>,
}

pub(super) fn serve(args: ServeArgs) -> Result<(), String> {
    let ServeArgs {
        variant,
        port,
        bind,
        seed,
        options,
        clock,
        seats,
        save,
        deal,
        away,
        max_connections,
        max_spectators,
        spectators_per_address,
        web,
        allow_origin,
        resume,
    } = args;
    let addr = format!("{bind}:{port}");
    let limits = crate::net::Limits {
        max_connections,
        max_spectators,
        spectators_per_address,
        ..Default::default()
    };
    let (server, human, save) = match (resume, variant) {
        (Some(file), _) => {
            let (server, human) = crate::net::Server::resume(&file, &addr, limits)?;
            if let Some(note) = &server.note {
                eprintln!("warning: {note}");
            }
            (server, human, Some(file))
        }
        (None, Some(variant)) => {
            let (server, human) = start(
                &variant, &options, seed, clock, &seats, &save, deal, away, limits, &addr,
            )?;
            (server, human, save)
        }
        (None, None) => return Err("serve: name a variant, or --resume FILE".into()),
    };
    let (variant, overrides) = server.with_session(|s| {
        let (v, o) = s.variant_arg();
        (v.to_string(), o.to_vec())
    });
    println!(
        "hosting on {} — others run: sandtable join HOST:{} --name NAME",
        server.addr,
        server.addr.port()
    );
    match &save {
        Some(f) => println!("journaling the game to {}", f.display()),
        None => println!("the game is kept nowhere (--save FILE journals it)"),
    }
    println!(
        "type `say TEXT` to chat{}, `quit` to stop",
        if human.is_some() {
            ", or an action to play"
        } else {
            ""
        }
    );
    let _site = match web {
        Some(port) => Some(start_web(
            &bind,
            port,
            &server,
            &variant,
            &overrides,
            &allow_origin,
        )?),
        None => None,
    };
    run_terminal(&server, human)?;
    server.stop("the host stopped");
    if let Some(f) = &save {
        println!("the game is in {}", f.display());
    }
    std::thread::sleep(std::time::Duration::from_millis(200));
    Ok(())
}

/// Starts a new hosted game.
#[allow(clippy::too_many_arguments)]
fn start(
    variant: &str,
    options: &[String],
    seed: Option<u64>,
    clock: Option<String>,
    seats: &[String],
    save: &Option<PathBuf>,
    deal: bool,
    away: crate::net::AwayPolicy,
    limits: crate::net::Limits,
    addr: &str,
) -> Result<(crate::net::Server, Option<crate::record::view::PlayerId>), String> {
    let overrides = parse_pairs(options)?;
    let seed = seed.unwrap_or_else(crate::base::state::secret_seed);
    let mut session = Session::new(variant, &overrides, seed)?;
    session.set_clock(clock.as_deref())?;
    let n = session.engine.variant.players.len();
    let mut local = vec![None; n];
    let mut human = None;
    for (player, kind) in parse_pairs(seats)? {
        let p = session.engine.player_id(&player)?;
        match kind.as_str() {
            "human" => human = Some(p),
            "remote" => {}
            other => {
                let spec = crate::play::agent::AgentSpec::parse(other)
                    .map_err(|e| format!("{e}; or human, remote"))?;
                local[p as usize] = Some(spec);
            }
        }
    }
    let opts = crate::net::HostOptions {
        save: save.clone(),
        agents: local,
        setup_phase: !deal,
        away,
        terminal: human,
        limits,
    };
    let server = crate::net::Server::start_with(session, addr, opts)?;
    Ok((server, human))
}

/// The host's terminal: prints what the host sends it, reads chat, and
/// plays its seat's moves, until `quit` or the end of input.
fn run_terminal(
    server: &crate::net::Server,
    human: Option<crate::record::view::PlayerId>,
) -> Result<(), String> {
    let rx = server.local_client("host", human);
    std::thread::spawn(move || {
        let mut st = crate::net::ClientState {
            welcomed: true,
            ..Default::default()
        };
        for l in rx {
            if crate::net::print_host_line(l.trim(), &mut st) != crate::net::Printed::Go {
                break;
            }
        }
    });
    let mut input = StdinLines::new();
    while let Some(l) = input.next_line()? {
        let l = l.trim();
        if l == "quit" {
            break;
        } else if let Some(t) = l.strip_prefix("say ") {
            server.chat("host", t);
        } else if let (Some(spec), Some(p)) = (l.strip_prefix("setup "), human) {
            let (spec, back_first) = match spec.trim().strip_suffix("--back-first") {
                Some(s) => (s.trim(), true),
                None => (spec.trim(), false),
            };
            let done = crate::placement::read_spec(spec)
                .and_then(|text| server.setup_local(p, &text, back_first));
            if let Err(e) = done {
                println!("error: {e}");
            }
        } else if let Some(p) = human {
            if let Err(e) = server.act_local(p, l) {
                println!("error: {e}");
            }
        } else if !l.is_empty() {
            println!("this terminal plays no seat (use --seat PLAYER=human)");
        }
    }
    Ok(())
}

/// Serves play by URL beside the host (`--web`) and says where.
fn start_web(
    bind: &str,
    port: u16,
    server: &crate::net::Server,
    variant: &str,
    overrides: &[(String, String)],
    allow: &[String],
) -> Result<crate::web::WebServer, String> {
    let site = crate::web::relay::start(
        bind,
        port,
        server.addr,
        server.relayed(),
        variant,
        overrides,
        allow,
    )?;
    let mut at = site.addr;
    let lan = at.ip().is_unspecified();
    if lan {
        at.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
    }
    let others = if lan {
        " (others: this machine's LAN address)"
    } else {
        ""
    };
    println!("browsers join at http://{at}/{others}");
    Ok(site)
}
