//! Many bot games and their statistics: `sandtable simulate`.
//!
//! Game `i` of a run is played from `game_seed(base, i)` whatever machine,
//! thread or shard plays it, so shards merge into exactly the results of an
//! unsharded run. Statistics are computed from the games sorted by index.

use std::collections::BTreeMap;
use std::io::IsTerminal;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::agent::{agent_action, AgentSpec};
use crate::base::state::PlayerId;
use crate::compare::{compare, Diff};
use crate::engine::Engine;

/// The seed of game `index` of a run with seed `base` (SplitMix64).
pub fn game_seed(base: u64, index: u64) -> u64 {
    let mut z = base
        .wrapping_add(index.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One finished game.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameResult {
    pub index: u64,
    pub seed: u64,
    /// Winning seats (player indices); empty for a draw.
    pub winners: Vec<PlayerId>,
    /// How the game ended: the outcome's reason (`red captured the flag`).
    pub ending: String,
    pub plies: u32,
    /// Per seat: search iterations and the seconds they took.
    #[serde(default)]
    pub search: Vec<(u64, f64)>,
}

/// Equal games: the same result and the same search iterations (the
/// seconds they took are not part of a game).
impl PartialEq for GameResult {
    fn eq(&self, o: &Self) -> bool {
        let iterations = |g: &GameResult| g.search.iter().map(|s| s.0).collect::<Vec<_>>();
        self.index == o.index
            && self.seed == o.seed
            && self.winners == o.winners
            && self.ending == o.ending
            && self.plies == o.plies
            && iterations(self) == iterations(o)
    }
}

/// What a run plays: a variant under one set of options.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Arm {
    /// Option overrides, `NAME=VALUE`.
    pub options: Vec<String>,
    pub games: Vec<GameResult>,
}

/// A run (or a shard of one): enough to merge and to report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunFile {
    pub variant: String,
    pub players: Vec<String>,
    pub seats: Vec<String>,
    pub seed: u64,
    /// Games of the whole run (all shards).
    pub games: u64,
    /// `I/N` when this file holds one shard, else absent.
    pub shard: Option<(u64, u64)>,
    /// The option a `--sweep` varies, one arm per value (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sweep: Option<String>,
    pub arms: Vec<Arm>,
}

/// The settings of a run.
pub struct Config {
    pub variant: String,
    pub base_options: Vec<(String, String)>,
    /// A second option set to compare with, when given.
    pub compare: Option<Vec<(String, String)>>,
    /// One arm per value of this option instead (`--sweep NAME=a,b,c`).
    pub sweep: Option<(String, Vec<String>)>,
    pub seats: Vec<AgentSpec>,
    pub games: u64,
    pub seed: u64,
    pub shard: Option<(u64, u64)>,
    pub threads: Option<usize>,
    pub progress: bool,
    /// Keep each game's moves for the sink (`--games-out-moves`).
    pub moves: bool,
}

/// Parses `I/N` (0 <= I < N).
pub fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let bad = || format!("`{text}`: expected a shard as I/N with 0 <= I < N, e.g. 0/4");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (u64, u64) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

/// Parses `mcts:200,random` into one spec per seat of the variant (one
/// spec alone is used for every seat).
pub fn parse_seats(text: &str, players: usize) -> Result<Vec<AgentSpec>, String> {
    let specs = text
        .split(',')
        .map(AgentSpec::parse)
        .collect::<Result<Vec<_>, _>>()?;
    match specs.len() {
        1 => Ok(vec![specs[0].clone(); players]),
        n if n == players => Ok(specs),
        n => Err(format!(
            "--seats lists {n} agents but the variant has {players} players"
        )),
    }
}

pub(crate) fn pairs_text(p: &[(String, String)]) -> Vec<String> {
    p.iter().map(|(k, v)| format!("{k}={v}")).collect()
}

/// Plays one game between agents; `engine` is loaded with the arm's options.
pub fn play_game(engine: &Engine, seats: &[AgentSpec], base: u64, index: u64) -> GameResult {
    play_game_moves(engine, seats, base, index, false).0
}

/// [`play_game`], also giving the actions' texts in order when `keep_moves`.
pub fn play_game_moves(
    engine: &Engine,
    seats: &[AgentSpec],
    base: u64,
    index: u64,
    keep_moves: bool,
) -> (GameResult, Option<Vec<String>>) {
    let mut moves = keep_moves.then(Vec::new);
    let seed = game_seed(base, index);
    let mut state = engine.new_game(seed, &[]);
    let mut agents: Vec<_> = seats
        .iter()
        .enumerate()
        .map(|(i, a)| a.build(game_seed(seed, 1 + i as u64)))
        .collect();
    let mut stuck = None;
    while let Some(p) = engine.acting_player(&state) {
        let Some(agent) = agents.get_mut(p as usize) else {
            stuck = Some("no agent for a seat");
            break;
        };
        let a = match agent_action(engine, agent.as_mut(), &state) {
            Ok(Some(a)) => a,
            Ok(None) => {
                stuck = Some("no action");
                break;
            }
            Err(_) => {
                stuck = Some("rule error");
                break;
            }
        };
        if let Some(m) = &mut moves {
            m.push(engine.action_text(&state, &a));
        }
        if engine.apply(&mut state, &a).is_err() {
            stuck = Some("rule error");
            break;
        }
    }
    let (winners, ending) = match (&state.outcome, stuck) {
        (Some(o), _) => (o.winners.clone(), ending_of(&o.reason)),
        (None, why) => (Vec::new(), why.unwrap_or("unfinished").to_string()),
    };
    let game = GameResult {
        index,
        seed,
        winners,
        ending,
        plies: state.ply,
        search: agents.iter().map(|a| a.searched()).collect(),
    };
    (game, moves)
}

/// How a game ended: the outcome's reason as the rules gave it (player
/// names kept, so who did what is not lost), without a leading `draw:`.
pub fn ending_of(reason: &str) -> String {
    let t = reason.trim();
    match t.strip_prefix("draw:") {
        Some(rest) if !rest.trim().is_empty() => rest.trim().to_string(),
        _ => t.to_string(),
    }
}

/// Games of a run of `games` that a shard `(I, N)` plays: those whose
/// index is I modulo N (all of them without a shard).
fn shard_games(games: u64, shard: Option<(u64, u64)>) -> u64 {
    match shard {
        None => games,
        Some((i, n)) => games.saturating_sub(i).div_ceil(n),
    }
}

/// Worker threads a run may ask for.
pub const THREADS_MAX: usize = 1024;

/// Games played at once: a batch's jobs and results are what a run holds
/// beyond the games it has finished.
const BATCH: u64 = 4096;

/// Positions `0..count` in batches of at most [`BATCH`].
fn batches(count: u64) -> impl Iterator<Item = std::ops::Range<u64>> {
    (0..count.div_ceil(BATCH)).map(move |b| b * BATCH..((b + 1) * BATCH).min(count))
}

/// `base` with `changes` set (each replacing the base's value).
fn with_options(base: &[(String, String)], changes: &[(String, String)]) -> Vec<(String, String)> {
    let mut b = base.to_vec();
    for (k, v) in changes {
        b.retain(|(k2, _)| k2 != k);
        b.push((k.clone(), v.clone()));
    }
    b
}

/// The option sets of a run's arms, in order: the base (and the compared
/// set), or one per value of a sweep.
pub fn option_sets(cfg: &Config) -> Vec<Vec<(String, String)>> {
    if let Some((name, values)) = &cfg.sweep {
        return values
            .iter()
            .map(|v| with_options(&cfg.base_options, &[(name.clone(), v.clone())]))
            .collect();
    }
    let mut sets = vec![cfg.base_options.clone()];
    if let Some(c) = &cfg.compare {
        sets.push(with_options(&cfg.base_options, c));
    }
    sets
}

/// Loads the variant under every arm's options and checks the seats: what
/// [`run`] would refuse, refused before anything is played or written.
pub fn check(cfg: &Config) -> Result<Vec<String>, String> {
    if cfg.sweep.is_some() && cfg.compare.is_some() {
        return Err("--sweep and --compare cannot be used together".into());
    }
    if let Some((name, _)) = &cfg.sweep {
        if cfg.base_options.iter().any(|(k, _)| k == name) {
            return Err(format!("--sweep and --option both set `{name}`"));
        }
    }
    let sets = option_sets(cfg);
    let engines = sets
        .iter()
        .map(|o| Engine::load(&cfg.variant, o).map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    let players = engines[0].variant.players.clone();
    if cfg.seats.len() != players.len() {
        return Err(format!(
            "{} seats given for {} players",
            cfg.seats.len(),
            players.len()
        ));
    }
    if cfg.threads.is_some_and(|t| t > THREADS_MAX) {
        return Err(format!("--threads is at most {THREADS_MAX}"));
    }
    Ok(players)
}

/// Where a run sends each game as it finishes: the arm's number, the
/// game, and its moves when the run keeps them. Games come in index order
/// (and arm order within an index) whatever the threads.
pub type Sink<'a> = dyn FnMut(usize, &GameResult, Option<&[String]>) -> Result<(), String> + 'a;

/// Plays a run (or this process's shard of it).
pub fn run(cfg: &Config) -> Result<RunFile, String> {
    run_into(cfg, &mut |_, _, _| Ok(()))
}

/// [`run`], handing each finished game to `sink` batch by batch.
pub fn run_into(cfg: &Config, sink: &mut Sink) -> Result<RunFile, String> {
    let players = check(cfg)?;
    let option_sets = option_sets(cfg);
    let (first, step) = cfg.shard.unwrap_or((0, 1));
    let count = shard_games(cfg.games, cfg.shard);
    let bar = if cfg.progress && std::io::stderr().is_terminal() {
        let b = indicatif::ProgressBar::new(count.saturating_mul(option_sets.len() as u64));
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40}] {pos}/{len} games (eta {eta})",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        b
    } else {
        indicatif::ProgressBar::hidden()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.threads.unwrap_or(0))
        .build()
        .map_err(|e| e.to_string())?;
    let variant = cfg.variant.clone();
    let mut arms: Vec<Arm> = option_sets
        .iter()
        .map(|o| Arm {
            options: pairs_text(o),
            games: Vec::new(),
        })
        .collect();
    // In batches: what a run keeps grows with the games it has played,
    // never with the number asked for.
    for batch in batches(count) {
        let jobs: Vec<(usize, u64)> = (0..option_sets.len())
            .flat_map(|arm| batch.clone().map(move |j| (arm, first + j * step)))
            .collect();
        type Played = (GameResult, Option<Vec<String>>);
        let results: Vec<Result<(usize, Played), String>> = pool.install(|| {
            jobs.par_iter()
                .map_init(
                    || -> Result<Vec<Engine>, String> {
                        option_sets
                            .iter()
                            .map(|o| Engine::load(&variant, o).map_err(|e| e.to_string()))
                            .collect()
                    },
                    |engines, &(arm, i)| {
                        let engines = engines.as_ref().map_err(|e| e.clone())?;
                        let r = play_game_moves(&engines[arm], &cfg.seats, cfg.seed, i, cfg.moves);
                        bar.inc(1);
                        Ok((arm, r))
                    },
                )
                .collect()
        });
        let results = results.into_iter().collect::<Result<Vec<_>, _>>()?;
        // Jobs are arm by arm; the sink gets them game by game.
        let per_arm = batch.end - batch.start;
        for j in 0..per_arm as usize {
            for arm in 0..option_sets.len() {
                let (_, (g, moves)) = &results[arm * per_arm as usize + j];
                sink(arm, g, moves.as_deref())?;
            }
        }
        for (arm, (g, _)) in results {
            arms[arm].games.push(g);
        }
    }
    bar.finish_and_clear();
    for a in &mut arms {
        a.games.sort_by_key(|g| g.index);
    }
    Ok(RunFile {
        variant: cfg.variant.clone(),
        players,
        seats: cfg.seats.iter().map(|s| s.text()).collect(),
        seed: cfg.seed,
        games: cfg.games,
        shard: cfg.shard,
        sweep: cfg.sweep.as_ref().map(|(name, _)| name.clone()),
        arms,
    })
}

/// Combines shard files into the run they are parts of. Every shard must
/// come from the same run settings, and together hold each game once.
pub fn merge(files: &[RunFile]) -> Result<RunFile, String> {
    let first = files.first().ok_or("no files to merge")?;
    let mut out = first.clone();
    out.shard = None;
    for a in &mut out.arms {
        a.games.clear();
    }
    for f in files {
        if f.variant != first.variant
            || f.seats != first.seats
            || f.sweep != first.sweep
            || f.seed != first.seed
            || f.games != first.games
            || f.arms.len() != first.arms.len()
            || f.arms
                .iter()
                .zip(&first.arms)
                .any(|(a, b)| a.options != b.options)
        {
            return Err(
                "the files come from different runs (variant, seats, seed, games or options differ)"
                    .into(),
            );
        }
        for (o, a) in out.arms.iter_mut().zip(&f.arms) {
            o.games.extend(a.games.iter().cloned());
        }
    }
    for a in &mut out.arms {
        a.games.sort_by_key(|g| g.index);
        if let Some(w) = a.games.windows(2).find(|w| w[0].index == w[1].index) {
            return Err(format!("game {} appears in more than one file", w[0].index));
        }
    }
    let have = out.arms[0].games.len() as u64;
    if have != out.games {
        eprintln!(
            "warning: the files hold {have} of the run's {} games; the statistics cover those",
            out.games
        );
    }
    Ok(out)
}

// ------------------------------------------------------------- statistics

/// A proportion with its Wilson 95% interval.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rate {
    pub count: u64,
    pub rate: f64,
    pub ci95: (f64, f64),
}

/// Wilson score interval at 95%.
pub fn wilson(k: u64, n: u64) -> Rate {
    if n == 0 {
        return Rate {
            count: 0,
            rate: 0.0,
            ci95: (0.0, 1.0),
        };
    }
    let z = 1.959_963_984_540_054;
    let (k, nf) = (k as f64, n as f64);
    let p = k / nf;
    let d = 1.0 + z * z / nf;
    let c = (p + z * z / (2.0 * nf)) / d;
    let h = z * (p * (1.0 - p) / nf + z * z / (4.0 * nf * nf)).sqrt() / d;
    Rate {
        count: k as u64,
        rate: p,
        ci95: ((c - h).max(0.0), (c + h).min(1.0)),
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatStats {
    pub player: String,
    pub agent: String,
    pub wins: Rate,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Length {
    pub mean: f64,
    pub sd: f64,
    pub min: u32,
    pub max: u32,
}

/// The statistics of one arm.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stats {
    pub options: Vec<String>,
    pub games: u64,
    pub seats: Vec<SeatStats>,
    pub draws: Rate,
    pub length: Length,
    /// Who won how: the games of each (winners, ending), winners first.
    pub endings: Vec<Ending>,
}

/// How many games ended one way with the same winners.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ending {
    /// The winning seats' names; empty for a draw (or a game that did not end).
    pub winners: Vec<String>,
    pub ending: String,
    pub games: u64,
}

impl Ending {
    /// `red won`, `red and blue won`, or `draw`.
    pub fn who(&self) -> String {
        if self.winners.is_empty() {
            "draw".into()
        } else {
            format!("{} won", self.winners.join(" and "))
        }
    }
}

pub fn stats(run: &RunFile, arm: &Arm) -> Stats {
    let n = arm.games.len() as u64;
    let seats = run
        .players
        .iter()
        .enumerate()
        .map(|(p, name)| SeatStats {
            player: name.clone(),
            agent: run.seats.get(p).cloned().unwrap_or_default(),
            wins: wilson(
                arm.games
                    .iter()
                    .filter(|g| g.winners.contains(&(p as PlayerId)))
                    .count() as u64,
                n,
            ),
        })
        .collect();
    let draws = wilson(
        arm.games.iter().filter(|g| g.winners.is_empty()).count() as u64,
        n,
    );
    let lens: Vec<f64> = arm.games.iter().map(|g| g.plies as f64).collect();
    let (mean, sd) = mean_sd(&lens);
    let mut counts: BTreeMap<(Vec<PlayerId>, String), u64> = BTreeMap::new();
    for g in &arm.games {
        *counts
            .entry((g.winners.clone(), g.ending.clone()))
            .or_insert(0) += 1;
    }
    // Wins in seat order, draws last.
    let mut counts: Vec<_> = counts.into_iter().collect();
    counts.sort_by_key(|((w, _), _)| w.is_empty());
    let endings = counts
        .into_iter()
        .map(|((winners, ending), games)| Ending {
            winners: winners
                .iter()
                .map(|&p| run.players.get(p as usize).cloned().unwrap_or_default())
                .collect(),
            ending,
            games,
        })
        .collect();
    Stats {
        options: arm.options.clone(),
        games: n,
        seats,
        draws,
        length: Length {
            mean,
            sd,
            min: arm.games.iter().map(|g| g.plies).min().unwrap_or(0),
            max: arm.games.iter().map(|g| g.plies).max().unwrap_or(0),
        },
        endings,
    }
}

pub(crate) fn mean_sd(x: &[f64]) -> (f64, f64) {
    if x.is_empty() {
        return (0.0, 0.0);
    }
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let var = if x.len() > 1 {
        x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    (mean, var.sqrt())
}

/// The machine-readable report (`--json`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub variant: String,
    pub seed: u64,
    pub games: u64,
    pub shard: Option<(u64, u64)>,
    /// The option a `--sweep` varies (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sweep: Option<String>,
    pub arms: Vec<Stats>,
    pub compare: Option<Vec<Diff>>,
}

pub fn report(run: &RunFile) -> Report {
    Report {
        variant: run.variant.clone(),
        seed: run.seed,
        games: run.games,
        shard: run.shard,
        sweep: run.sweep.clone(),
        arms: run.arms.iter().map(|a| stats(run, a)).collect(),
        compare: (run.arms.len() == 2).then(|| compare(run, &run.arms[0], &run.arms[1])),
    }
}

/// A rate as a percentage with one decimal: `45.0%`.
pub fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// An arm's options as shown: `rescues=2`, or `default options`.
pub fn options_label(o: &[String]) -> String {
    if o.is_empty() {
        "default options".into()
    } else {
        o.join(" ")
    }
}

/// Search speed per seat that searched: iterations per second of search.
fn search_line(out: &mut String, run: &RunFile, options: &[String]) {
    use std::fmt::Write;
    let Some(arm) = run.arms.iter().find(|a| a.options == options) else {
        return;
    };
    let mut parts = Vec::new();
    for (i, (p, agent)) in run.players.iter().zip(&run.seats).enumerate() {
        let (n, secs) = arm
            .games
            .iter()
            .filter_map(|g| g.search.get(i))
            .fold((0u64, 0.0f64), |(n, t), &(k, s)| (n + k, t + s));
        if n > 0 {
            parts.push(format!("{p} ({agent}) {:.0}", n as f64 / secs.max(1e-9)));
        }
    }
    if !parts.is_empty() {
        let _ = writeln!(out, "  search iterations/s: {}", parts.join(", "));
    }
}

/// What was run, in one line: games, seed, shard and seats.
pub fn settings_text(run: &RunFile, r: &Report) -> String {
    let shard = match run.shard {
        Some((i, n)) => format!(", shard {i}/{n}"),
        None => String::new(),
    };
    format!(
        "{} games per option set, seed {}{shard}; seats {}",
        r.arms.first().map_or(0, |a| a.games),
        run.seed,
        run.players
            .iter()
            .zip(&run.seats)
            .map(|(p, a)| format!("{p}={a}"))
            .collect::<Vec<_>>()
            .join(" ")
    )
}

/// The report as text.
pub fn report_text(run: &RunFile) -> String {
    use std::fmt::Write;
    let r = report(run);
    let mut out = String::new();
    let _ = writeln!(out, "{}: {}", run.variant, settings_text(run, &r));
    for s in &r.arms {
        let _ = writeln!(out, "\n[{}]", options_label(&s.options));
        let _ = writeln!(
            out,
            "  {:<12} {:<12} {:>6} {:>8}  95% CI (Wilson)",
            "seat", "agent", "wins", "rate"
        );
        for x in &s.seats {
            let _ = writeln!(
                out,
                "  {:<12} {:<12} {:>6} {:>8}  [{}, {}]",
                x.player,
                x.agent,
                x.wins.count,
                pct(x.wins.rate),
                pct(x.wins.ci95.0),
                pct(x.wins.ci95.1)
            );
        }
        let _ = writeln!(
            out,
            "  {:<12} {:<12} {:>6} {:>8}  [{}, {}]",
            "draws",
            "",
            s.draws.count,
            pct(s.draws.rate),
            pct(s.draws.ci95.0),
            pct(s.draws.ci95.1)
        );
        search_line(&mut out, run, &s.options);
        let _ = writeln!(
            out,
            "  length: mean {:.1} plies, sd {:.1}, min {}, max {}",
            s.length.mean, s.length.sd, s.length.min, s.length.max
        );
        let _ = writeln!(out, "  ended by:");
        for e in &s.endings {
            let _ = writeln!(out, "    {:>6}  {}: {}", e.games, e.who(), e.ending);
        }
    }
    if let Some(diffs) = &r.compare {
        let _ = writeln!(
            out,
            "\ncompare [{}] (A) with [{}] (B), same seeds:",
            options_label(&r.arms[0].options),
            options_label(&r.arms[1].options)
        );
        let _ = writeln!(
            out,
            "  {:<34} {:>9} {:>9} {:>10} {:>8}  ",
            "statistic", "A", "B", "B - A", "p"
        );
        for d in diffs {
            let is_len = d.name.starts_with("length");
            let f = |x: f64| if is_len { format!("{x:.1}") } else { pct(x) };
            let diff = if is_len {
                format!("{:+.1}", d.diff)
            } else {
                format!("{:+.1} pp", 100.0 * d.diff)
            };
            let _ = writeln!(
                out,
                "  {:<34} {:>9} {:>9} {:>10} {:>8.3}  {}",
                d.name,
                f(d.a),
                f(d.b),
                diff,
                d.p_value,
                if d.significant { "significant" } else { "" }
            );
        }
        let _ = writeln!(
            out,
            "  (games paired by seed; rates: exact McNemar test on the games whose outcome differs;\n   length: paired t-test; two-sided, significant at p < 0.05)"
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_of_many_games_is_played_in_bounded_batches() {
        // A billion games: nothing is sized by the number before play.
        let mut b = batches(1_000_000_000);
        assert_eq!(b.next(), Some(0..BATCH));
        assert_eq!(b.last().map(|r| r.end), Some(1_000_000_000));
        assert_eq!(shard_games(u64::MAX, None), u64::MAX);
        // The batches cover each game once, and a shard plays its games.
        for games in [1, 5, BATCH - 1, BATCH, BATCH + 1, 3 * BATCH + 7] {
            let all: Vec<u64> = batches(games).flatten().collect();
            assert_eq!(all, (0..games).collect::<Vec<_>>());
            for n in 1..5 {
                for i in 0..n {
                    let want = (0..games).filter(|g| g % n == i).count() as u64;
                    assert_eq!(shard_games(games, Some((i, n))), want, "{games} {i}/{n}");
                }
            }
        }
    }

    #[test]
    fn wilson_matches_known_values() {
        let r = wilson(50, 100);
        assert!((r.ci95.0 - 0.4038).abs() < 1e-3 && (r.ci95.1 - 0.5962).abs() < 1e-3);
        let r = wilson(0, 10);
        assert_eq!(r.ci95.0, 0.0);
        assert!((r.ci95.1 - 0.2775).abs() < 1e-3);
    }

    #[test]
    fn seeds_and_shards() {
        assert_ne!(game_seed(1, 0), game_seed(1, 1));
        assert_eq!(game_seed(7, 3), game_seed(7, 3));
        assert_eq!(parse_shard("1/4"), Ok((1, 4)));
        assert!(parse_shard("4/4").is_err() && parse_shard("x").is_err());
    }
}
