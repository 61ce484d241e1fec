//! `bench`: what is timed (random playouts, or a reload and replay) and how
//! the figures are printed.

use std::time::Instant;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::base::state::PlayerId;
use crate::engine::Engine;
use crate::play::agent::{agent_action, AgentSpec};
use crate::session::{parse_pairs, Session};

// The arguments of `bench` (its help is the doc of `Cmd::Bench`).
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    variant: String,
    #[arg(long, default_value_t = 100)]
    playouts: u32,
    /// Instead: time `reload` (re-read the files, replay a game of N actions)
    #[arg(long)]
    reload: Option<u32>,
    /// Instead: time an agent's search (`mcts:200`), one decision at each
    /// of --positions positions reached by seeded random plies
    #[arg(long, conflicts_with = "reload")]
    search: Option<String>,
    /// With --search: how many positions
    #[arg(long, default_value_t = 20, requires = "search")]
    positions: u32,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long = "option", short = 'o')]
    pub options: Vec<String>,
}

pub(super) fn run(a: BenchArgs) -> Result<(), String> {
    let (v, seed, o) = (&a.variant, a.seed, &a.options);
    match (a.reload, a.search) {
        (Some(n), _) => bench_reload(v, n, seed, o),
        (None, Some(spec)) => bench_search(v, &spec, a.positions, seed, o),
        (None, None) => bench(v, a.playouts, seed, o),
    }
}

fn bench(variant: &str, playouts: u32, seed: u64, options: &[String]) -> Result<(), String> {
    let overrides = parse_pairs(options)?;
    let engine = Engine::load(variant, &overrides).map_err(|e| e.to_string())?;
    let t = Instant::now();
    let mut plies: u64 = 0;
    let mut reasons: std::collections::BTreeMap<String, u32> = Default::default();
    let mut wins = vec![0u32; engine.variant.players.len()];
    let mut draws = 0;
    let start_bytes = engine.new_game(seed, &[]).clone_bytes();
    let mut end_bytes = 0;
    for i in 0..playouts {
        let game_seed = seed.wrapping_mul(1_000_003).wrapping_add(i as u64);
        let mut state = engine.new_game(game_seed, &[]);
        let mut rng = ChaCha8Rng::seed_from_u64(game_seed);
        plies += engine
            .random_playout(&mut state, &mut rng, u32::MAX)
            .map_err(|e| format!("playout {i}: {e}"))? as u64;
        end_bytes = end_bytes.max(state.clone_bytes());
        match &state.outcome {
            Some(o) => {
                // The reason's first part (`blue cannot move: ...`).
                let kind = o.reason.split(':').next().unwrap_or("").to_string();
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
    println!("state: {start_bytes} bytes at the start, at most {end_bytes} at an end");
    println!(
        "playouts/s: {:.1}  plies/s: {:.0}",
        playouts as f64 / secs,
        plies as f64 / secs
    );
    Ok(())
}

/// `bench --search SPEC`: one decision of the agent at each of `positions`
/// positions, reached from seeded starts by seeded random plies (0 to 79,
/// the same positions for every build), timing only the search; a digest
/// of the actions chosen tells whether two builds decide alike.
fn bench_search(
    variant: &str,
    spec: &str,
    positions: u32,
    seed: u64,
    options: &[String],
) -> Result<(), String> {
    let overrides = parse_pairs(options)?;
    let engine = Engine::load(variant, &overrides).map_err(|e| e.to_string())?;
    let spec = AgentSpec::parse(spec)?;
    let (mut iterations, mut secs, mut decided) = (0u64, 0.0f64, 0u32);
    let mut digest = 0xcbf2_9ce4_8422_2325u64;
    for i in 0..positions {
        let game_seed = seed.wrapping_mul(1_000_003).wrapping_add(i as u64);
        let mut state = engine.new_game(game_seed, &[]);
        let mut rng = ChaCha8Rng::seed_from_u64(game_seed);
        engine
            .random_playout(&mut state, &mut rng, (i * 37) % 80)
            .map_err(|e| format!("position {i}: {e}"))?;
        if state.outcome.is_some() {
            continue;
        }
        let mut agent = spec.build(game_seed);
        let chosen =
            agent_action(&engine, &mut *agent, &state).map_err(|e| format!("position {i}: {e}"))?;
        // FNV-1a over the decisions' notation: two builds that choose
        // alike print the same digest.
        for b in format!("{chosen:?};").bytes() {
            digest = (digest ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
        let (n, t) = agent.searched();
        iterations += n;
        secs += t;
        decided += 1;
    }
    // A start whose random plies ended the game has no decision to time:
    // said, so that the count agrees with --positions.
    let ended = positions - decided;
    let skipped = match ended {
        0 => String::new(),
        1 => " (1 game had ended before its search: skipped)".into(),
        n => format!(" ({n} games had ended before their search: skipped)"),
    };
    println!(
        "variant: {}  agent: {}  positions: {decided} of {positions}{skipped}  seed: {seed}",
        engine.variant.name,
        spec.text()
    );
    println!("iterations: {iterations}  search time: {secs:.3} s  decisions: {digest:016x}");
    println!(
        "search iterations/s: {:.0}",
        iterations as f64 / secs.max(1e-9)
    );
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
        if !matches!(report, crate::session::ReloadReport::Same { .. }) {
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
