//! The command line's syntax: its commands and arguments (clap `Cli` and
//! `Cmd`), and which file runs each.
//!
//! `check`, `rules`, `positions` (perft, apply, render), `replay`, `bench`, `serve`,
//! `simulate`, `play`, `web`, and `repl` (with its line editor's helper in
//! `editor`).

mod bench;
pub(crate) mod check;
mod editor;
mod play;
mod play_setup;
mod positions;
mod repl;
mod replay;
mod rules;
mod serve;
mod simulate;
mod web;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::session::parse_pairs;

pub use repl::repl;
pub use replay::replay_text;
pub use serve::ServeArgs;
pub use simulate::SimulateArgs;
pub use web::WebArgs;

/// The variant the REPL opens when none is named: the one written in
/// `variants/default`, else the first bundled variant.
pub fn default_variant() -> String {
    for dir in [
        std::path::PathBuf::from("variants"),
        crate::base::bundled::variants(),
    ] {
        if let Ok(text) = std::fs::read_to_string(dir.join("default")) {
            let name = text.trim();
            if !name.is_empty() {
                return name.to_string();
            }
        }
    }
    crate::rules::variant::bundled_variants()
        .into_iter()
        .next()
        .unwrap_or_default()
}

#[derive(Parser, Debug)]
#[command(
    name = "sandtable",
    version,
    about = "A scripting-driven rules sandbox for board games"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Cmd>,
    /// Number of players, for variants with an int option `players`
    /// (the same as `-o players=N`)
    #[arg(long, global = true)]
    pub players: Option<u8>,
}

impl Cmd {
    /// The option list of a command that takes `-o NAME=VALUE`.
    fn options_mut(&mut self) -> Option<&mut Vec<String>> {
        match self {
            Cmd::Repl { options, .. }
            | Cmd::Check { options, .. }
            | Cmd::Rules { options, .. }
            | Cmd::Perft { options, .. }
            | Cmd::Apply { options, .. }
            | Cmd::Bench(bench::BenchArgs { options, .. })
            | Cmd::Serve(ServeArgs { options, .. })
            | Cmd::Web(WebArgs { options, .. })
            | Cmd::Simulate(SimulateArgs { options, .. })
            | Cmd::Play { options, .. } => Some(options),
            _ => None,
        }
    }
}

#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// Open the REPL on a variant (default: the one named in variants/default)
    Repl {
        variant: Option<String>,
        #[arg(long)]
        seed: Option<u64>,
        /// Time each player: `15m`, or `15m+5s` with an increment per action
        #[arg(long)]
        clock: Option<String>,
        /// Set an option: NAME=VALUE (repeatable)
        #[arg(long = "option", short = 'o')]
        options: Vec<String>,
    },
    /// Validate variants: exit 0, or print `path:line:col: message` per problem and exit 1
    Check {
        #[arg(required = true)]
        variants: Vec<String>,
        #[arg(long = "option", short = 'o')]
        options: Vec<String>,
        /// Also print advice that is no problem (such as the bots scoring
        /// positions by material when the script has no `rules.evaluate`)
        #[arg(long)]
        notes: bool,
    },
    /// Print the variant's rules in Markdown, generated from its declarations
    Rules {
        variant: String,
        #[arg(long = "option", short = 'o')]
        options: Vec<String>,
    },
    /// Count the nodes of the legal-action tree at each depth from 1 to N
    Perft {
        variant: String,
        #[arg(long)]
        position: Option<PathBuf>,
        /// Seed of the random setups when no position is given
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long)]
        depth: u32,
        #[arg(long = "option", short = 'o')]
        options: Vec<String>,
    },
    /// Apply actions in order; print the events and the resulting position
    Apply {
        variant: String,
        #[arg(long)]
        position: Option<PathBuf>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Show events and the board as this player sees them
        #[arg(long = "as")]
        as_player: Option<String>,
        /// Write the resulting position to this YAML file
        #[arg(long)]
        save: Option<PathBuf>,
        #[arg(long = "option", short = 'o')]
        options: Vec<String>,
        actions: Vec<String>,
    },
    /// Random playouts to the end; prints `playouts/s: X  plies/s: Y` last
    /// (or, with --reload or --search, times a reload or an agent's search)
    Bench(bench::BenchArgs),
    /// Replay a game: check every action, print what happened and the outcome
    ///
    /// `replay RECORD.yaml` replays a record saved by the REPL; `replay
    /// VARIANT FILE` also reads plain movetext in the variant's notation
    /// (`1.h2h5 f7f5 2.a2a5 ...`), checking that the captures each move
    /// writes are exactly those the engine makes.
    Replay {
        /// `[VARIANT] FILE`
        #[arg(num_args = 1..=2, required = true, value_name = "[VARIANT] FILE")]
        args: Vec<String>,
        /// Movetext only: the starting position (FEN or a position file)
        #[arg(long)]
        position: Option<PathBuf>,
        /// Show events and the board as this player saw them
        #[arg(long = "as")]
        as_player: Option<String>,
        #[arg(long = "option", short = 'o')]
        options: Vec<String>,
    },
    /// Draw a position as SVG, as one viewer sees it
    Render {
        variant: String,
        #[arg(long)]
        position: Option<PathBuf>,
        /// A record to replay, up to --ply
        #[arg(long)]
        record: Option<PathBuf>,
        #[arg(long)]
        ply: Option<usize>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long = "as")]
        as_player: Option<String>,
        #[arg(short = 'o', long = "out")]
        out: PathBuf,
    },
    /// Host a game over TCP: others `join` it; this terminal may play a seat
    Serve(ServeArgs),
    /// Serve one session to a browser: the board, clicks for moves, history,
    /// live reload and a console for every REPL command
    Web(WebArgs),
    /// Join a hosted game: `join HOST:PORT --name NAME`
    Join {
        address: String,
        #[arg(long)]
        name: String,
        /// Ask for a seat by player name (default: the first free one)
        #[arg(long)]
        seat: Option<String>,
        /// Take back a seat after a disconnect
        #[arg(long)]
        token: Option<String>,
        /// Watch as a spectator (public information only)
        #[arg(long)]
        spectate: bool,
        /// Your army, submitted when the host asks: setup letters, FILE,
        /// FILE:LINE (a line of a Gravon collection) or random; add
        /// ` --back-first` inside the quotes for strings that start at the
        /// back row. Without it, arrange it when asked.
        #[arg(long)]
        setup: Option<String>,
    },
    /// Print the JSON Schema of the variant YAML (for editors'
    /// yaml-language-server); the repository keeps it in
    /// schema/variant.schema.json
    Schema {
        /// Write it to this file instead of standard output
        #[arg(long)]
        output: Option<PathBuf>,
    },
    /// Play many bot games and print statistics; `simulate merge FILES...`
    /// combines shard files
    Simulate(SimulateArgs),
    /// Play a game in the terminal: `--PLAYER human|random|AGENT` for each seat
    Play {
        variant: String,
        /// Seed of the setups and chance (default: a secret one from the OS)
        #[arg(long)]
        seed: Option<u64>,
        /// Time each player: `15m`, or `15m+5s` with an increment per action
        #[arg(long)]
        clock: Option<String>,
        #[arg(long = "option", short = 'o')]
        options: Vec<String>,
        /// Seats, as `--red human --blue random` (player names of the variant)
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        seats: Vec<String>,
    },
}

/// Runs the CLI; returns the process exit code.
pub fn run(mut cli: Cli) -> i32 {
    if let Some(n) = cli.players {
        match cli.command.as_mut().and_then(Cmd::options_mut) {
            Some(o) => o.push(format!("players={n}")),
            None => {
                eprintln!(
                    "error: --players goes with repl, check, rules, perft, apply, bench, serve, simulate or play"
                );
                return 2;
            }
        }
    }
    quiet_on_closed_output(cli.command.as_ref());
    let result = match cli.command {
        None => repl(&default_variant(), None, &[], None).map(|()| 0),
        Some(cmd) => dispatch(cmd),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", crate::base::limits::escape_controls(&e));
            1
        }
    }
}

/// A command whose standard output is a pipe closed early
/// (`sandtable check X | head -1`) ends quietly, as `cat` and `grep` do: the
/// signal SIGPIPE goes back to its default action, which Rust's runtime
/// sets aside (it ignores the signal, so a print fails and panics). The
/// network commands keep the runtime's setting: a peer that hangs up must
/// end its connection, never the host.
fn quiet_on_closed_output(cmd: Option<&Cmd>) {
    if matches!(cmd, Some(Cmd::Serve(_) | Cmd::Web(_) | Cmd::Join { .. })) {
        return;
    }
    #[cfg(unix)]
    // SAFETY: called once, before any thread is started; SIG_DFL is a
    // valid disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Runs a command; returns its exit code, or the error that makes it 1.
fn dispatch(cmd: Cmd) -> Result<i32, String> {
    let ran = match cmd {
        // `check` has exit codes of its own (2: bad options, 1: bad variants).
        Cmd::Check {
            variants,
            options,
            notes,
        } => return Ok(check::check(&variants, &options, notes)),
        Cmd::Rules { variant, options } => return rules::rules(&variant, &options),
        Cmd::Repl {
            variant,
            seed,
            clock,
            options,
        } => repl(
            &variant.unwrap_or_else(default_variant),
            seed,
            &parse_pairs(&options)?,
            clock.as_deref(),
        ),
        Cmd::Serve(args) => serve::serve(args),
        Cmd::Web(args) => web::web(args),
        Cmd::Join {
            address,
            name,
            seat,
            token,
            spectate,
            setup,
        } => crate::net::join(
            &address,
            &name,
            seat.as_deref(),
            token.as_deref(),
            spectate,
            setup.as_deref(),
        ),
        Cmd::Replay {
            args,
            position,
            as_player,
            options,
        } => match args.as_slice() {
            [file] => replay::replay(std::path::Path::new(file), as_player.as_deref()),
            [variant, file] => {
                replay::replay_movetext(variant, file, position, as_player.as_deref(), &options)
            }
            _ => Err("usage: replay [VARIANT] FILE".into()),
        },
        Cmd::Render {
            variant,
            position,
            record,
            ply,
            seed,
            as_player,
            out,
        } => positions::render(
            &variant,
            position,
            record,
            ply,
            seed,
            as_player.as_deref(),
            &out,
        ),
        Cmd::Perft {
            variant,
            position,
            seed,
            depth,
            options,
        } => positions::perft(&variant, position, seed, depth, &options),
        Cmd::Apply {
            variant,
            position,
            seed,
            as_player,
            save,
            options,
            actions,
        } => positions::apply(
            &variant, position, seed, as_player, save, &options, &actions,
        ),
        Cmd::Bench(args) => bench::run(args),
        Cmd::Play {
            variant,
            seed,
            clock,
            options,
            seats,
        } => play::play(
            &variant,
            seed.unwrap_or_else(crate::base::state::secret_seed),
            clock.as_deref(),
            &options,
            &seats,
        ),
        Cmd::Simulate(args) => simulate::simulate(args),
        Cmd::Schema { output } => schema(output),
    };
    ran.map(|()| 0)
}

/// `schema`: the variant YAML's JSON Schema, to a file or standard output.
fn schema(output: Option<PathBuf>) -> Result<(), String> {
    let text = crate::rules::variant::schema_json();
    match output {
        Some(path) => crate::base::write::write_user_file(&path, &path.display().to_string(), text),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}
