//! The command line: `sandtable [repl|check|perft|apply|bench|play] ...`.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;

use clap::{Parser, Subcommand};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use std::sync::{Arc, Mutex};

use crate::base::state::{GameState, PlayerId};
use crate::engine::Engine;
use crate::front::clock::Clock;
use crate::front::session::{parse_pairs, Flow, Session};
use crate::record::view::Viewer;
use crate::record::{read_yaml, to_yaml, Position};

/// The variant the REPL opens when none is named: the one written in
/// `variants/default`, else the first bundled variant.
pub fn default_variant() -> String {
    for dir in [
        std::path::PathBuf::from("variants"),
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("variants"),
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
            | Cmd::Perft { options, .. }
            | Cmd::Apply { options, .. }
            | Cmd::Bench { options, .. }
            | Cmd::Serve { options, .. }
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
    Bench {
        variant: String,
        #[arg(long, default_value_t = 100)]
        playouts: u32,
        /// Instead: time `reload` (re-read the files, replay a game of N actions)
        #[arg(long)]
        reload: Option<u32>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long = "option", short = 'o')]
        options: Vec<String>,
    },
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
    Serve {
        variant: String,
        #[arg(long, default_value_t = 7878)]
        port: u16,
        /// Address to listen on (0.0.0.0: every interface)
        #[arg(long, default_value = "0.0.0.0")]
        bind: String,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long = "option", short = 'o')]
        options: Vec<String>,
        #[arg(long)]
        clock: Option<String>,
        /// PLAYER=human (this terminal), PLAYER=AGENT (random, mcts:200: the host plays), or PLAYER=remote (default)
        #[arg(long = "seat")]
        seats: Vec<String>,
        /// Where the game record is saved when the game ends or the host stops
        #[arg(long, default_value = "game.yaml")]
        save: PathBuf,
    },
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
    },
    /// Play many bot games and print statistics; `simulate merge FILES...`
    /// combines shard files
    Simulate {
        /// VARIANT, or `merge` followed by shard files
        #[arg(required = true)]
        args: Vec<String>,
        #[arg(long, default_value_t = 100)]
        games: u64,
        /// Agents per seat in player order, e.g. `mcts:200,random` (one agent: every seat)
        #[arg(long, default_value = "random")]
        seats: String,
        /// Base seed; game I is played from a seed derived from it and I
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long = "option", short = 'o')]
        options: Vec<String>,
        /// Also play every game with these options changed (NAME=VALUE, repeatable) and compare
        #[arg(long = "compare")]
        compare: Vec<String>,
        /// Play only shard I of N (0 <= I < N) and write its results to --out
        #[arg(long)]
        shard: Option<String>,
        /// Where a shard writes its results (default shard-I-of-N.json)
        #[arg(long)]
        out: Option<PathBuf>,
        /// Print the statistics as JSON (to stdout, or to FILE)
        #[arg(long, num_args = 0..=1, default_missing_value = "-")]
        json: Option<String>,
        /// Worker threads (default: all cores)
        #[arg(long)]
        threads: Option<usize>,
        /// No progress bar
        #[arg(long, short = 'q')]
        quiet: bool,
    },
    /// Play a game in the terminal: `--PLAYER human|random|AGENT` for each seat
    Play {
        variant: String,
        #[arg(long, default_value_t = 1)]
        seed: u64,
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
                    "error: --players goes with repl, check, perft, apply, bench, serve or play"
                );
                return 2;
            }
        }
    }
    let result = match cli.command {
        None => repl(&default_variant(), None, &[], None),
        Some(Cmd::Repl {
            variant,
            seed,
            clock,
            options,
        }) => match parse_pairs(&options) {
            Ok(o) => repl(
                &variant.unwrap_or_else(default_variant),
                seed,
                &o,
                clock.as_deref(),
            ),
            Err(e) => Err(e),
        },
        Some(Cmd::Check { variants, options }) => return check(&variants, &options),
        Some(Cmd::Serve {
            variant,
            port,
            bind,
            seed,
            options,
            clock,
            seats,
            save,
        }) => serve(
            &variant,
            &format!("{bind}:{port}"),
            seed,
            &options,
            clock.as_deref(),
            &seats,
            save,
        ),
        Some(Cmd::Join {
            address,
            name,
            seat,
            token,
            spectate,
        }) => crate::front::net::join(&address, &name, seat.as_deref(), token.as_deref(), spectate),
        Some(Cmd::Replay {
            args,
            position,
            as_player,
            options,
        }) => match args.as_slice() {
            [file] => replay(std::path::Path::new(file), as_player.as_deref()),
            [variant, file] => {
                replay_movetext(variant, file, position, as_player.as_deref(), &options)
            }
            _ => Err("usage: replay [VARIANT] FILE".into()),
        },
        Some(Cmd::Render {
            variant,
            position,
            record,
            ply,
            seed,
            as_player,
            out,
        }) => render(
            &variant,
            position,
            record,
            ply,
            seed,
            as_player.as_deref(),
            &out,
        ),
        Some(Cmd::Perft {
            variant,
            position,
            seed,
            depth,
            options,
        }) => perft(&variant, position, seed, depth, &options),
        Some(Cmd::Apply {
            variant,
            position,
            seed,
            as_player,
            save,
            options,
            actions,
        }) => apply(
            &variant, position, seed, as_player, save, &options, &actions,
        ),
        Some(Cmd::Bench {
            variant,
            playouts,
            reload: Some(n),
            seed,
            options,
        }) => {
            let _ = playouts;
            bench_reload(&variant, n, seed, &options)
        }
        Some(Cmd::Bench {
            variant,
            playouts,
            reload: None,
            seed,
            options,
        }) => bench(&variant, playouts, seed, &options),
        Some(Cmd::Play {
            variant,
            seed,
            clock,
            options,
            seats,
        }) => play(&variant, seed, clock.as_deref(), &options, &seats),
        Some(Cmd::Simulate {
            args,
            games,
            seats,
            seed,
            options,
            compare,
            shard,
            out,
            json,
            threads,
            quiet,
        }) => simulate(SimulateArgs {
            args,
            games,
            seats,
            seed,
            options,
            compare,
            shard,
            out,
            json,
            threads,
            quiet,
        }),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

fn check(variants: &[String], options: &[String]) -> i32 {
    let overrides = match parse_pairs(options) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let mut bad = false;
    for v in variants {
        match Engine::load(v, &overrides) {
            Ok(e) => println!("{}: ok ({})", v, e.variant.name),
            Err(err) => {
                bad = true;
                for d in err.0 {
                    println!("{d}");
                }
            }
        }
    }
    i32::from(bad)
}

/// Loads the engine and the starting state: from a position file (whose
/// variant must match) or a new seeded game.
fn start(
    variant: &str,
    position: Option<PathBuf>,
    seed: u64,
    options: &[String],
) -> Result<(Engine, GameState), String> {
    let mut overrides = parse_pairs(options)?;
    match position {
        Some(path)
            if !path.is_file() && path.to_string_lossy().contains('/') && {
                let t = path.to_string_lossy();
                !t.ends_with(".yaml") && !t.ends_with(".yml")
            } =>
        {
            // A FEN-like line rather than a file.
            let engine = Engine::load(variant, &overrides).map_err(|e| e.to_string())?;
            let state = engine
                .parse_fen(&path.to_string_lossy(), seed)
                .map_err(|e| format!("--position: {e}"))?;
            Ok((engine, state))
        }
        Some(path) => {
            let pos: Position = read_yaml(&path)?;
            for (k, v) in &pos.options {
                if !overrides.iter().any(|(o, _)| o == k) {
                    overrides.push((k.clone(), v.to_string()));
                }
            }
            let engine = Engine::load(variant, &overrides).map_err(|e| e.to_string())?;
            let state = engine
                .from_position(&pos)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            Ok((engine, state))
        }
        None => {
            let engine = Engine::load(variant, &overrides).map_err(|e| e.to_string())?;
            let state = engine.new_game(seed, &[]);
            Ok((engine, state))
        }
    }
}

fn perft(
    variant: &str,
    position: Option<PathBuf>,
    seed: u64,
    depth: u32,
    options: &[String],
) -> Result<(), String> {
    let (engine, state) = start(variant, position, seed, options)?;
    for d in 1..=depth {
        let t = Instant::now();
        let n = engine.perft(&state, d).map_err(|e| e.to_string())?;
        println!("perft {d} {n}  ({:.3} s)", t.elapsed().as_secs_f64());
    }
    Ok(())
}

fn apply(
    variant: &str,
    position: Option<PathBuf>,
    seed: u64,
    as_player: Option<String>,
    save: Option<PathBuf>,
    options: &[String],
    actions: &[String],
) -> Result<(), String> {
    let (engine, mut state) = start(variant, position, seed, options)?;
    let viewer = engine.viewer_or(as_player.as_deref(), Viewer::Omniscient)?;
    let last = play_texts(&engine, &mut state, actions, |i, text, after, events| {
        println!("{}. {text}", i + 1);
        for line in engine.event_lines(after, events, viewer) {
            println!("   {line}");
        }
    })?;
    print!("{}", engine.render(&engine.view(&state, viewer), last));
    if let Some(path) = save {
        let text = to_yaml(&engine.to_position(&state))?;
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("saved position to {}", path.display());
    }
    Ok(())
}

fn bench(variant: &str, playouts: u32, seed: u64, options: &[String]) -> Result<(), String> {
    let overrides = parse_pairs(options)?;
    let engine = Engine::load(variant, &overrides).map_err(|e| e.to_string())?;
    let t = Instant::now();
    let mut plies: u64 = 0;
    let mut reasons: std::collections::BTreeMap<String, u32> = Default::default();
    let mut wins = vec![0u32; engine.variant.players.len()];
    let mut draws = 0;
    for i in 0..playouts {
        let game_seed = seed.wrapping_mul(1_000_003).wrapping_add(i as u64);
        let mut state = engine.new_game(game_seed, &[]);
        let mut rng = ChaCha8Rng::seed_from_u64(game_seed);
        plies += engine
            .random_playout(&mut state, &mut rng, u32::MAX)
            .map_err(|e| format!("playout {i}: {e}"))? as u64;
        match &state.outcome {
            Some(o) => {
                let kind = o.reason.split(':').next().unwrap_or("").to_string();
                let kind = if kind.contains("flag") {
                    "flag captured".to_string()
                } else if kind.contains("cannot move") {
                    "no legal action".to_string()
                } else {
                    kind
                };
                *reasons.entry(kind).or_default() += 1;
                match o.winners.as_slice() {
                    [w] => wins[*w as usize] += 1,
                    _ => draws += 1,
                }
            }
            None => *reasons.entry("unfinished".into()).or_default() += 1,
        }
    }
    let secs = t.elapsed().as_secs_f64().max(1e-9);
    println!(
        "variant: {}  playouts: {playouts}  seed: {seed}",
        engine.variant.name
    );
    let w: Vec<String> = wins
        .iter()
        .enumerate()
        .map(|(p, n)| format!("{} {n}", engine.player_name(p as PlayerId)))
        .collect();
    println!("wins: {}  draws: {draws}", w.join(", "));
    println!(
        "endings: {}",
        reasons
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!(
        "plies: {plies}  mean length: {:.1}  time: {secs:.3} s",
        plies as f64 / playouts.max(1) as f64
    );
    println!(
        "playouts/s: {:.1}  plies/s: {:.0}",
        playouts as f64 / secs,
        plies as f64 / secs
    );
    Ok(())
}

fn serve(
    variant: &str,
    addr: &str,
    seed: u64,
    options: &[String],
    clock: Option<&str>,
    seats: &[String],
    save: PathBuf,
) -> Result<(), String> {
    let overrides = parse_pairs(options)?;
    let mut session = Session::new(variant, &overrides, seed)?;
    session.set_clock(clock)?;
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
    let server =
        crate::front::net::Server::start_with_agents(session, addr, local, Some(save.clone()))?;
    println!(
        "hosting on {} — others run: sandtable join HOST:{} --name NAME",
        server.addr,
        server.addr.port()
    );
    println!(
        "type `say TEXT` to chat{}, `quit` to stop",
        if human.is_some() {
            ", or an action to play"
        } else {
            ""
        }
    );
    let rx = server.local_client("host", human);
    std::thread::spawn(move || {
        for l in rx {
            if !crate::front::net::print_host_line(l.trim()) {
                break;
            }
        }
    });
    let stdin = std::io::stdin();
    for l in stdin.lock().lines() {
        let l = l.map_err(|e| e.to_string())?;
        let l = l.trim();
        if l == "quit" {
            break;
        } else if let Some(t) = l.strip_prefix("say ") {
            server.chat("host", t);
        } else if let Some(p) = human {
            if let Err(e) = server.act_local(p, l) {
                println!("error: {e}");
            }
        } else if !l.is_empty() {
            println!("this terminal plays no seat (use --seat PLAYER=human)");
        }
    }
    server.stop("the host stopped");
    println!("record saved to {}", save.display());
    std::thread::sleep(std::time::Duration::from_millis(200));
    Ok(())
}

fn replay(file: &std::path::Path, as_player: Option<&str>) -> Result<(), String> {
    let rec: crate::record::Record = read_yaml(file)?;
    let overrides = crate::record::overrides(&rec.options);
    let engine = Engine::load(&rec.variant, &overrides).map_err(|e| e.to_string())?;
    let viewer = engine.viewer_or(as_player, Viewer::Omniscient)?;
    let (state, last) = replay_record(&engine, &rec, usize::MAX, |i, text, after, events| {
        println!("{}. {text}", i + 1);
        for l in engine.event_lines(after, events, viewer) {
            println!("   {l}");
        }
    })
    .map_err(|e| format!("{}: {e}", file.display()))?;
    print!("{}", engine.render(&engine.view(&state, viewer), last));
    let outcome = state.outcome.as_ref().map(|o| engine.outcome_text(o));
    match (&outcome, &rec.result) {
        (Some(o), Some(r)) if o != r => {
            return Err(format!("the record says `{r}` but the replay ends `{o}`"))
        }
        (Some(o), _) => println!("outcome: {o}"),
        (None, _) => println!(
            "outcome: still playing ({} to act)",
            engine.player_name(engine.acting_player(&state).unwrap_or(0))
        ),
    }
    Ok(())
}

fn replay_movetext(
    variant: &str,
    file: &str,
    position: Option<PathBuf>,
    as_player: Option<&str>,
    options: &[String],
) -> Result<(), String> {
    let path = std::path::Path::new(file);
    let text = std::fs::read_to_string(path).map_err(|e| format!("{file}: {e}"))?;
    if crate::record::parse_yaml::<crate::record::Record>(&text, file).is_ok() {
        return replay(path, as_player);
    }
    let (engine, mut state) = start(variant, position, 1, options)?;
    let viewer = engine.viewer_or(as_player, Viewer::Omniscient)?;
    let mut last = None;
    engine
        .play_movetext(&mut state, &text, |m, after| {
            let note = if m.written == m.engine_text {
                String::new()
            } else {
                format!("   (written {})", m.written)
            };
            println!("{} {}{note}", m.number, m.engine_text);
            for l in engine.event_lines(after, &m.events, viewer) {
                println!("   {l}");
            }
            if let crate::engine::Action::Move { from, to } = m.action {
                last = Some((from, to));
            }
        })
        .map_err(|e| format!("{file}: {e}"))?;
    print!("{}", engine.render(&engine.view(&state, viewer), last));
    println!("outcome: {}", engine.status_text(&state));
    Ok(())
}

/// Plays a record's first `upto` actions from its start, calling `each`
/// with the index, the text, the state after and the events of each action.
fn replay_record(
    engine: &Engine,
    rec: &crate::record::Record,
    upto: usize,
    each: impl FnMut(usize, &str, &GameState, &[crate::engine::Event]),
) -> Result<(GameState, Option<(u16, u16)>), String> {
    let mut state = engine.from_position(&rec.start)?;
    let upto = upto.min(rec.actions.len());
    let last = play_texts(engine, &mut state, &rec.actions[..upto], each)?;
    Ok((state, last))
}

/// Plays actions given as text, in order, calling `each` with the index,
/// the canonical text, the state after and the events of each; stops at the first
/// that fails, naming it. Returns the cells of the last move.
fn play_texts(
    engine: &Engine,
    state: &mut GameState,
    actions: &[String],
    mut each: impl FnMut(usize, &str, &GameState, &[crate::engine::Event]),
) -> Result<Option<(u16, u16)>, String> {
    let mut last = None;
    for (i, text) in actions.iter().enumerate() {
        let action = engine
            .parse_action(state, text)
            .map_err(|e| format!("action {} (`{text}`): {e}", i + 1))?;
        let canonical = engine.action_text(state, &action);
        let events = engine
            .apply(state, &action)
            .map_err(|e| format!("action {} (`{text}`): {e}", i + 1))?;
        if let crate::engine::Action::Move { from, to } = action {
            last = Some((from, to));
        }
        each(i, &canonical, state, &events);
    }
    Ok(last)
}

fn render(
    variant: &str,
    position: Option<PathBuf>,
    record: Option<PathBuf>,
    ply: Option<usize>,
    seed: u64,
    as_player: Option<&str>,
    out: &std::path::Path,
) -> Result<(), String> {
    let (engine, state, last) = match record {
        Some(path) => {
            let rec: crate::record::Record = read_yaml(&path)?;
            let overrides = crate::record::overrides(&rec.options);
            let engine = Engine::load(variant, &overrides).map_err(|e| e.to_string())?;
            let (state, last) =
                replay_record(&engine, &rec, ply.unwrap_or(usize::MAX), |_, _, _, _| {})
                    .map_err(|e| format!("{}: {e}", path.display()))?;
            (engine, state, last)
        }
        None => {
            let (engine, state) = start(variant, position, seed, &[])?;
            (engine, state, None)
        }
    };
    let viewer = engine.viewer_or(as_player, Viewer::Omniscient)?;
    std::fs::write(out, engine.render_svg(&engine.view(&state, viewer), last))
        .map_err(|e| format!("{}: {e}", out.display()))?;
    println!("wrote {}", out.display());
    Ok(())
}

fn bench_reload(variant: &str, actions: u32, seed: u64, options: &[String]) -> Result<(), String> {
    let overrides = parse_pairs(options)?;
    let mut session = Session::new(variant, &overrides, seed)?;
    // A game of `actions` actions (restarted with another seed if one ends early).
    let mut game_seed = seed;
    while (session.history.len() as u32) < actions {
        let (out, _) = session.execute("random")?;
        if out.is_empty() || session.state.outcome.is_some() {
            game_seed += 1;
            session.execute(&format!("new --seed {game_seed}"))?;
        }
    }
    let runs = 20;
    let t = Instant::now();
    for _ in 0..runs {
        let report = session.reload()?;
        if !matches!(report, crate::front::session::ReloadReport::Same { .. }) {
            return Err(format!(
                "the replay diverged: {}",
                session.report_text(&report)
            ));
        }
    }
    let ms = t.elapsed().as_secs_f64() * 1000.0 / runs as f64;
    println!(
        "variant: {}  actions: {actions}  runs: {runs}",
        session.engine.variant.name
    );
    println!("reload+replay ms: {ms:.2}");
    Ok(())
}

/// The lines of standard input, with the line editor when it is a terminal.
pub fn repl(
    variant: &str,
    seed: Option<u64>,
    overrides: &[(String, String)],
    clock: Option<&str>,
) -> Result<(), String> {
    let seed = seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(1)
    });
    let mut session = Session::new(variant, overrides, seed)?;
    session.set_clock(clock)?;
    let interactive = std::io::stdin().is_terminal();
    session.color = std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let session = Arc::new(Mutex::new(session));
    let mut watcher: Option<crate::front::watch::Watch> = None;
    if interactive {
        {
            let s = lock(&session);
            println!(
                "sandtable — {} (seed {seed}). Type `help` for commands, an action such as a4-a5 to play it.",
                s.engine.variant.name
            );
            println!("{}", s.board(s.viewer));
        }
        let mut rl: rustyline::Editor<ReplHelper, rustyline::history::DefaultHistory> =
            rustyline::Editor::new().map_err(|e| e.to_string())?;
        rl.set_helper(Some(ReplHelper {
            commands: crate::front::session::command_names(),
            words: Default::default(),
        }));
        let history = std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".sandtable_history"));
        if let Some(h) = &history {
            let _ = rl.load_history(h);
        }
        loop {
            let prompt = {
                let s = lock(&session);
                if let Some(h) = rl.helper() {
                    h.refresh(&s);
                }
                let clock = s
                    .clock_text()
                    .map(|c| format!("[{c}] "))
                    .unwrap_or_default();
                match s.engine.acting_player(&s.state) {
                    Some(p) => format!("{clock}{}> ", s.engine.player_name(p)),
                    None => "over> ".to_string(),
                }
            };
            match rl.readline(&prompt) {
                Ok(line) => {
                    let _ = rl.add_history_entry(line.as_str());
                    let result = lock(&session).execute(&line);
                    match result {
                        Ok((out, flow)) => {
                            if !out.is_empty() {
                                println!("{out}");
                            }
                            match flow {
                                Flow::Quit => break,
                                Flow::Watch(on) => {
                                    watcher = None;
                                    if on {
                                        let mut printer = rl
                                            .create_external_printer()
                                            .map_err(|e| e.to_string())?;
                                        watcher = Some(start_watch(&session, move |msg| {
                                            use rustyline::ExternalPrinter;
                                            let _ = printer.print(msg);
                                        })?);
                                    }
                                }
                                Flow::Continue => {}
                            }
                        }
                        Err(e) => println!("error: {e}"),
                    }
                }
                Err(rustyline::error::ReadlineError::Interrupted) => continue,
                Err(_) => break,
            }
        }
        drop(watcher);
        if let Some(h) = &history {
            let _ = rl.save_history(h);
        }
        Ok(())
    } else {
        // Scripted: one command per line, no line editor; errors are printed
        // and reading goes on, but the exit code reports them.
        let stdin = std::io::stdin();
        let mut failed = false;
        for line in stdin.lock().lines() {
            let line = line.map_err(|e| e.to_string())?;
            let result = lock(&session).execute(&line);
            match result {
                Ok((out, flow)) => {
                    if !out.is_empty() {
                        println!("{out}");
                    }
                    match flow {
                        Flow::Quit => break,
                        Flow::Watch(on) => {
                            watcher = None;
                            if on {
                                watcher = Some(start_watch(&session, |msg| println!("{msg}"))?);
                            }
                        }
                        Flow::Continue => {}
                    }
                }
                Err(e) => {
                    failed = true;
                    println!("error: {e}");
                }
            }
        }
        drop(watcher);
        if failed {
            Err("some commands failed".into())
        } else {
            Ok(())
        }
    }
}

fn lock(session: &Arc<Mutex<Session>>) -> std::sync::MutexGuard<'_, Session> {
    session
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Watches the session's variant files; on a save, reloads and reports.
fn start_watch(
    session: &Arc<Mutex<Session>>,
    mut say: impl FnMut(String) + Send + 'static,
) -> Result<crate::front::watch::Watch, String> {
    let files = lock(session).watched_files();
    let target = session.clone();
    crate::front::watch::Watch::start(&files, move || {
        let mut s = lock(&target);
        let msg = match s.reload() {
            Ok(report) => format!("files changed: {}", s.report_text(&report)),
            Err(e) => format!("files changed, the old rules stay: {e}"),
        };
        say(msg);
    })
}

/// Completion for the REPL: command names first, then the words that fit
/// the position (legal actions, viewers, variants, options).
struct ReplHelper {
    commands: Vec<String>,
    words: std::cell::RefCell<Vec<String>>,
}

impl ReplHelper {
    fn refresh(&self, session: &Session) {
        let e = &session.engine;
        let mut w: Vec<String> = e
            .legal_actions(&session.state)
            .iter()
            .map(|a| e.action_text(&session.state, a))
            .collect();
        w.extend(e.variant.players.iter().cloned());
        w.extend(e.variant.kinds.iter().map(|k| k.name.clone()));
        w.extend(["all".to_string(), "public".to_string()]);
        w.extend(crate::rules::variant::bundled_variants());
        w.extend(e.variant.options.iter().map(|o| format!("{}=", o.name)));
        *self.words.borrow_mut() = w;
    }
}

impl rustyline::completion::Completer for ReplHelper {
    type Candidate = String;
    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &rustyline::Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        let start = line[..pos]
            .rfind(char::is_whitespace)
            .map(|i| i + 1)
            .unwrap_or(0);
        let word = &line[start..pos];
        let first = line[..start].trim().is_empty();
        let mut out: Vec<String> = Vec::new();
        if first {
            out.extend(
                self.commands
                    .iter()
                    .filter(|c| c.starts_with(word))
                    .cloned(),
            );
        }
        out.extend(
            self.words
                .borrow()
                .iter()
                .filter(|c| c.starts_with(word))
                .cloned(),
        );
        out.dedup();
        Ok((start, out))
    }
}

impl rustyline::hint::Hinter for ReplHelper {
    type Hint = String;
    /// Hints the rest of the only command or action that starts with the
    /// word typed so far.
    fn hint(&self, line: &str, pos: usize, _: &rustyline::Context<'_>) -> Option<String> {
        if pos < line.len() || line.is_empty() || line.contains(' ') {
            return None;
        }
        let words = self.words.borrow();
        let mut hits = self
            .commands
            .iter()
            .chain(words.iter())
            .filter(|w| w.starts_with(line) && w.len() > line.len());
        let first = hits.next()?;
        hits.next()
            .is_none()
            .then(|| first[line.len()..].to_string())
    }
}
impl rustyline::highlight::Highlighter for ReplHelper {
    fn highlight_hint<'h>(&self, hint: &'h str) -> std::borrow::Cow<'h, str> {
        std::borrow::Cow::Owned(format!("\x1b[2m{hint}\x1b[0m"))
    }
}
impl rustyline::validate::Validator for ReplHelper {
    /// A Lua line (`= ...` or `lua ...`) goes on to the next line until the
    /// block is complete.
    fn validate(
        &self,
        ctx: &mut rustyline::validate::ValidationContext<'_>,
    ) -> rustyline::Result<rustyline::validate::ValidationResult> {
        use rustyline::validate::ValidationResult;
        let input = ctx.input();
        let trimmed = input.trim_start();
        let trimmed = trimmed
            .strip_prefix("=!")
            .or_else(|| trimmed.strip_prefix("lua! "))
            .unwrap_or(trimmed);
        let code = match trimmed.strip_prefix('=') {
            Some(c) => c,
            None if !std::ptr::eq(trimmed, input.trim_start()) => trimmed,
            None => match trimmed.strip_prefix("lua ") {
                Some(c) => c,
                None => return Ok(ValidationResult::Valid(None)),
            },
        };
        Ok(if crate::rules::lua::is_incomplete(code) {
            ValidationResult::Incomplete
        } else {
            ValidationResult::Valid(None)
        })
    }
}
impl rustyline::Helper for ReplHelper {}

#[derive(Clone, PartialEq, Eq)]
enum Seat {
    Human,
    Agent(crate::play::agent::AgentSpec),
}

fn play(
    variant: &str,
    seed: u64,
    clock: Option<&str>,
    options: &[String],
    seats: &[String],
) -> Result<(), String> {
    let mut overrides = parse_pairs(options)?;
    // `--players N` after the variant lands among the seats.
    let mut rest = Vec::new();
    let mut it = seats.iter();
    while let Some(flag) = it.next() {
        if flag == "--players" {
            let n = it.next().ok_or("`--players` needs a number")?;
            overrides.push(("players".into(), n.clone()));
        } else if let Some(n) = flag.strip_prefix("--players=") {
            overrides.push(("players".into(), n.to_string()));
        } else {
            rest.push(flag.clone());
        }
    }
    let engine = Engine::load(variant, &overrides).map_err(|e| e.to_string())?;
    let n = engine.variant.players.len();
    let mut kinds = vec![Seat::Human; n];
    let mut it = rest.iter();
    while let Some(flag) = it.next() {
        let name = flag
            .strip_prefix("--")
            .ok_or_else(|| format!("expected `--PLAYER human|random`, found `{flag}`"))?;
        let (name, value) = match name.split_once('=') {
            Some((a, b)) => (a.to_string(), b.to_string()),
            None => (
                name.to_string(),
                it.next()
                    .cloned()
                    .ok_or_else(|| format!("`--{name}` needs human or random"))?,
            ),
        };
        let p = engine.player_id(&name)?;
        kinds[p as usize] = match value.as_str() {
            "human" => Seat::Human,
            other => Seat::Agent(
                crate::play::agent::AgentSpec::parse(other)
                    .map_err(|e| format!("{e}; or human"))?,
            ),
        };
    }
    let humans: Vec<PlayerId> = (0..n as PlayerId)
        .filter(|&p| kinds[p as usize] == Seat::Human)
        .collect();
    let mut state = engine.new_game(seed, &[]);
    let mut agents: Vec<Option<Box<dyn crate::play::agent::Agent>>> = kinds
        .iter()
        .enumerate()
        .map(|(i, k)| match k {
            Seat::Human => None,
            Seat::Agent(spec) => Some(spec.build(seed.wrapping_add(7 + i as u64))),
        })
        .collect();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut last = None;
    let fixed_viewer = match humans.as_slice() {
        [] => Some(Viewer::Omniscient),
        [one] => Some(Viewer::Player(*one)),
        _ => None,
    };
    let mut clock = clock.map(|c| Clock::parse(c, n)).transpose()?;
    while let Some(p) = engine.acting_player(&state) {
        let viewer = fixed_viewer.unwrap_or(Viewer::Player(p));
        if let Some(c) = &mut clock {
            c.start(p);
        }
        let action = if let Some(agent) = agents[p as usize].as_mut() {
            // The agent sees only what its player knows.
            crate::play::agent::agent_action(&engine, agent.as_mut(), &state)
                .ok_or_else(|| format!("{} has no legal action", engine.player_name(p)))?
        } else {
            print!("{}", engine.render(&engine.view(&state, viewer), last));
            loop {
                print!("{}> ", engine.player_name(p));
                std::io::stdout().flush().ok();
                let Some(line) = lines.next() else {
                    println!();
                    return Ok(());
                };
                let line = line.map_err(|e| e.to_string())?;
                let line = line.trim();
                if line == "quit" || line == "resign" {
                    println!("{} leaves the game", engine.player_name(p));
                    return Ok(());
                }
                if line == "actions" {
                    let t: Vec<String> = engine
                        .legal_actions(&state)
                        .iter()
                        .map(|a| engine.action_text(&state, a))
                        .collect();
                    println!("{}", t.join(" "));
                    continue;
                }
                match engine.parse_action(&state, line) {
                    Ok(a) if engine.legal_actions(&state).contains(&a) => break a,
                    Ok(a) => println!("illegal: {}", engine.explain_illegal(&state, &a)),
                    Err(e) => println!("{e}  (type `actions` for the legal ones)"),
                }
            }
        };
        if let Some(c) = &mut clock {
            if let Some(flagged) = c.stop() {
                engine.lose_on_time(&mut state, flagged);
                println!("{} ran out of time", engine.player_name(flagged));
                break;
            }
            println!("clock: {}", c.display(&engine.variant.players));
        }
        let text = engine.action_text(&state, &action);
        let events = engine
            .apply(&mut state, &action)
            .map_err(|e| e.to_string())?;
        if let crate::engine::Action::Move { from, to } = action {
            last = Some((from, to));
        }
        println!("{} {}: {}", state.ply, engine.player_name(p), text);
        for l in engine.event_lines(&state, &events, viewer) {
            println!("   {l}");
        }
    }
    print!(
        "{}",
        engine.render(&engine.view(&state, Viewer::Omniscient), last)
    );
    Ok(())
}

struct SimulateArgs {
    args: Vec<String>,
    games: u64,
    seats: String,
    seed: u64,
    options: Vec<String>,
    compare: Vec<String>,
    shard: Option<String>,
    out: Option<PathBuf>,
    json: Option<String>,
    threads: Option<usize>,
    quiet: bool,
}

fn simulate(a: SimulateArgs) -> Result<(), String> {
    use crate::play::simulate as sim;
    let emit = |run: &sim::RunFile| -> Result<(), String> {
        match a.json.as_deref() {
            Some(dest) => {
                let text =
                    serde_json::to_string_pretty(&sim::report(run)).map_err(|e| e.to_string())?;
                if dest == "-" {
                    println!("{text}");
                } else {
                    std::fs::write(dest, text + "\n")
                        .map_err(|e| format!("cannot write {dest}: {e}"))?;
                    print!("{}", sim::report_text(run));
                }
            }
            None => print!("{}", sim::report_text(run)),
        }
        Ok(())
    };
    if a.args[0] == "merge" {
        if a.args.len() < 2 {
            return Err("simulate merge needs shard files".into());
        }
        let files = a.args[1..]
            .iter()
            .map(|f| {
                let text =
                    std::fs::read_to_string(f).map_err(|e| format!("cannot read {f}: {e}"))?;
                serde_json::from_str::<sim::RunFile>(&text)
                    .map_err(|e| format!("{f}: not a simulate shard file: {e}"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let run = sim::merge(&files)?;
        return emit(&run);
    }
    if a.args.len() > 1 {
        return Err(format!(
            "simulate takes one variant, found {} (did you mean `simulate merge FILES...`?)",
            a.args.len()
        ));
    }
    if a.games == 0 {
        return Err("--games must be at least 1".into());
    }
    let base_options = parse_pairs(&a.options)?;
    let compare = if a.compare.is_empty() {
        None
    } else {
        Some(parse_pairs(&a.compare)?)
    };
    let engine = Engine::load(&a.args[0], &base_options).map_err(|e| e.to_string())?;
    if let Some(c) = &compare {
        let mut b = base_options.clone();
        b.extend(c.iter().cloned());
        Engine::load(&a.args[0], &b).map_err(|e| e.to_string())?;
    }
    let seats = crate::play::simulate::parse_seats(&a.seats, engine.variant.players.len())?;
    let shard = a.shard.as_deref().map(sim::parse_shard).transpose()?;
    let cfg = sim::Config {
        variant: a.args[0].clone(),
        base_options,
        compare,
        seats,
        games: a.games,
        seed: a.seed,
        shard,
        threads: a.threads,
        progress: !a.quiet,
    };
    let start = Instant::now();
    let run = sim::run(&cfg)?;
    if let Some((i, n)) = shard {
        let path = a
            .out
            .clone()
            .unwrap_or_else(|| PathBuf::from(format!("shard-{i}-of-{n}.json")));
        let text = serde_json::to_string(&run).map_err(|e| e.to_string())?;
        std::fs::write(&path, text + "\n")
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        eprintln!("shard {i}/{n}: results written to {}", path.display());
    }
    emit(&run)?;
    if !a.quiet {
        eprintln!("wall time: {:.1}s", start.elapsed().as_secs_f64());
    }
    Ok(())
}
