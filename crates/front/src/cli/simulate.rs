//! `simulate`: the options of a run of bot games, its shards and its report.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::base::limits::io_words;
use crate::base::write::write_user_file;
use crate::engine::Engine;
use crate::play::games_out::GameLines;
use crate::session::parse_pairs;

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
    /// Write one JSON line per game to FILE as games finish (index order)
    #[arg(long, value_name = "FILE")]
    pub games_out: Option<PathBuf>,
    /// With --games-out: each line also lists the game's moves
    #[arg(long, requires = "games_out")]
    pub games_out_moves: bool,
    /// Write the results as charts: FILE.html (self-contained page) or FILE.svg
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// One arm per value of an option instead of one: NAME=a,b,c
    #[arg(long, value_name = "NAME=a,b,c")]
    pub sweep: Option<String>,
    /// Worker threads (default: all cores)
    #[arg(long)]
    pub threads: Option<usize>,
    /// No progress bar
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Parses `NAME=a,b,c`: an option and two or more distinct values.
pub fn parse_sweep(text: &str) -> Result<(String, Vec<String>), String> {
    let bad = |why: &str| format!("--sweep `{text}`: {why} (expected NAME=a,b,c)");
    let (name, values) = text
        .split_once('=')
        .ok_or_else(|| bad("no `=` after the option's name"))?;
    let name = name.trim();
    if name.is_empty() {
        return Err(bad("no option name"));
    }
    let values: Vec<String> = values.split(',').map(|v| v.trim().to_string()).collect();
    if values.iter().any(String::is_empty) {
        return Err(bad("an empty value"));
    }
    if values.len() < 2 {
        return Err(bad("a sweep needs two values or more"));
    }
    if let Some(v) = values
        .iter()
        .enumerate()
        .find_map(|(i, v)| values[..i].contains(v).then_some(v))
    {
        return Err(bad(&format!("the value `{v}` is given twice")));
    }
    Ok((name.to_string(), values))
}

/// What `--report` writes, from the file's extension.
#[derive(Clone, Copy)]
enum ReportKind {
    Html,
    Svg,
}

fn report_kind(path: &Path) -> Result<ReportKind, String> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("html" | "htm") => Ok(ReportKind::Html),
        Some("svg") => Ok(ReportKind::Svg),
        _ => Err(format!(
            "--report {}: name a .html or .svg file",
            path.display()
        )),
    }
}

/// The error of a file that cannot be written.
fn cannot_write(path: &Path) -> impl Fn(std::io::Error) -> String {
    let shown = path.display().to_string();
    move |e| format!("{shown}: cannot write: {}", io_words(&e))
}

/// Refuses a folder where a file is to be written.
fn not_a_folder(path: &Path) -> Result<(), String> {
    if std::fs::metadata(path).is_ok_and(|m| m.is_dir()) {
        return Err(format!("{}: cannot write: a folder", path.display()));
    }
    Ok(())
}

/// Fails now, before any game is played, if `path` cannot be written; an
/// existing file is left as it is, a new one is not left behind.
fn check_writable(path: &Path) -> Result<(), String> {
    not_a_folder(path)?;
    // The report replaces a file whole: never a device or a pipe, nor
    // through a link.
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return Err(format!(
            "{}: cannot write: not a regular file",
            path.display()
        ));
    }
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(format!(
            "{}: cannot write: it is a symbolic link, and sandtable never writes through one (name the file itself)",
            path.display()
        ));
    }
    use std::os::unix::fs::OpenOptionsExt;
    if path.exists() {
        std::fs::OpenOptions::new()
            .append(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(path)
            .map_err(cannot_write(path))?;
    } else {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(cannot_write(path))?;
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

fn write_report(
    path: &Path,
    kind: ReportKind,
    run: &crate::play::simulate::RunFile,
) -> Result<(), String> {
    let text = match kind {
        ReportKind::Html => crate::report::html(run),
        ReportKind::Svg => crate::report::svg(run),
    };
    write_user_file(path, &path.display().to_string(), text)
}

/// Opens `--games-out` for writing (created or emptied; a link at its
/// name is refused, never followed).
fn open_games_out(path: &Path) -> Result<std::io::BufWriter<std::fs::File>, String> {
    not_a_folder(path)?;
    crate::base::write::create_stream(
        path,
        &path.display().to_string(),
        crate::base::write::Access::Shared,
    )
    .map(std::io::BufWriter::new)
}

/// `simulate merge FILES...`: the run the shard files are parts of, its
/// games' lines and its report written when asked.
fn merge_files(
    a: &SimulateArgs,
    report: Option<(&Path, ReportKind)>,
) -> Result<crate::play::simulate::RunFile, String> {
    use crate::play::simulate as sim;
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
    if a.games_out_moves {
        return Err("--games-out-moves: shard files keep no moves".into());
    }
    if a.sweep.is_some() {
        return Err("--sweep is a setting of the run, not of merge".into());
    }
    let run = sim::merge(&files)?;
    if let Some((path, _)) = report {
        check_writable(path)?;
    }
    if let Some(path) = &a.games_out {
        let mut lines = GameLines::of_run(open_games_out(path)?, &run);
        lines
            .write_run(&run)
            .and_then(|()| lines.flush())
            .map_err(cannot_write(path))?;
    }
    if let Some((path, kind)) = report {
        write_report(path, kind, &run)?;
    }
    Ok(run)
}

pub(super) fn simulate(a: SimulateArgs) -> Result<(), String> {
    use crate::play::simulate as sim;
    let report = a
        .report
        .as_deref()
        .map(|p| report_kind(p).map(|k| (p, k)))
        .transpose()?;
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
        let run = merge_files(&a, report)?;
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
    let sweep = a.sweep.as_deref().map(parse_sweep).transpose()?;
    let engine = Engine::load(&a.args[0], &base_options).map_err(|e| e.to_string())?;
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
        sweep,
        moves: a.games_out_moves,
    };
    // Everything that can be refused is refused before the first game.
    let players = sim::check(&cfg)?;
    if let Some((path, _)) = report {
        check_writable(path)?;
    }
    let mut lines = match &a.games_out {
        Some(path) => Some(GameLines::new(open_games_out(path)?, &cfg, &players)),
        None => None,
    };
    let start = Instant::now();
    let run = match (&mut lines, &a.games_out) {
        (Some(lines), Some(path)) => {
            let e = cannot_write(path);
            let run = sim::run_into(&cfg, &mut |arm, g, moves| {
                lines.write(arm, g, moves).map_err(&e)
            })?;
            lines.flush().map_err(&e)?;
            run
        }
        _ => sim::run(&cfg)?,
    };
    if let Some((path, kind)) = report {
        write_report(path, kind, &run)?;
    }
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
