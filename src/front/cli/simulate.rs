//! `simulate`: the options of a run of bot games, its shards and its report.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::base::limits::write_user_file;
use crate::engine::Engine;
use crate::front::session::parse_pairs;

// The arguments of `simulate` (its help is the doc of `Cmd::Simulate`).
#[derive(clap::Args, Debug)]
pub struct SimulateArgs {
    /// VARIANT, or `merge` followed by shard files
    #[arg(required = true)]
    pub args: Vec<String>,
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// Agents per seat in player order, e.g. `mcts:200,random` (one agent: every seat)
    #[arg(long, default_value = "random")]
    pub seats: String,
    /// Base seed; game I is played from a seed derived from it and I
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long = "option", short = 'o')]
    pub options: Vec<String>,
    /// Also play every game with these options changed (NAME=VALUE, repeatable) and compare
    #[arg(long = "compare")]
    pub compare: Vec<String>,
    /// Play only shard I of N (0 <= I < N) and write its results to --out
    #[arg(long)]
    pub shard: Option<String>,
    /// Where a shard writes its results (default shard-I-of-N.json)
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print the statistics as JSON (to stdout, or to FILE)
    #[arg(long, num_args = 0..=1, default_missing_value = "-")]
    pub json: Option<String>,
    /// Worker threads (default: all cores)
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress bar
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

pub(super) fn simulate(a: SimulateArgs) -> Result<(), String> {
    use crate::play::simulate as sim;
    let emit = |run: &sim::RunFile| -> Result<(), String> {
        match a.json.as_deref() {
            Some(dest) => {
                let text =
                    serde_json::to_string_pretty(&sim::report(run)).map_err(|e| e.to_string())?;
                if dest == "-" {
                    println!("{text}");
                } else {
                    write_user_file(Path::new(dest), dest, text + "\n")?;
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
                let text = crate::base::limits::read_user_file(std::path::Path::new(f), f)?;
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
        write_user_file(&path, &path.display().to_string(), text + "\n")?;
        eprintln!("shard {i}/{n}: results written to {}", path.display());
    }
    emit(&run)?;
    if !a.quiet {
        eprintln!("wall time: {:.1}s", start.elapsed().as_secs_f64());
    }
    Ok(())
}
