//! `perft`, `apply` and `render`: how one position is read from the command
//! line (a file, a FEN-like line or a seed) and counted, played on or drawn.

use crate::record::game::Positions;
use crate::record::view::Views;
use crate::render::Svg;
use std::path::PathBuf;
use std::time::Instant;

use super::replay::{play_texts, replay_record};
use crate::base::state::GameState;
use crate::base::write::write_user_file;
use crate::engine::Engine;
use crate::record::view::Viewer;
use crate::record::{read_yaml, to_yaml, Position};
use crate::session::parse_pairs;

/// Loads the engine and the starting state: from a position file (whose
/// variant must match) or a new seeded game.
pub(super) fn start(
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
            let state = Positions::new(&engine)
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

/// The deepest perft: each level is a frame of the search, and no tree is
/// counted to this depth in a lifetime anyway.
const PERFT_DEPTH_MAX: u32 = 64;

pub(super) fn perft(
    variant: &str,
    position: Option<PathBuf>,
    seed: u64,
    depth: u32,
    options: &[String],
) -> Result<(), String> {
    if depth > PERFT_DEPTH_MAX {
        return Err(format!(
            "--depth is at most {PERFT_DEPTH_MAX} (perft counts every line to that depth)"
        ));
    }
    let (engine, state) = start(variant, position, seed, options)?;
    let t = Instant::now();
    let counts = engine
        .perft_levels(&state, depth)
        .map_err(|e| e.to_string())?;
    let secs = t.elapsed().as_secs_f64();
    for (d, n) in counts.iter().enumerate() {
        println!("perft {} {n}", d + 1);
    }
    if let Some(n) = counts.last() {
        println!(
            "{:.3} s for every depth in one walk ({:.1} M leaves/s at depth {depth})",
            secs,
            *n as f64 / secs.max(1e-9) / 1e6
        );
    }
    Ok(())
}

pub(super) fn apply(
    variant: &str,
    position: Option<PathBuf>,
    seed: u64,
    as_player: Option<String>,
    save: Option<PathBuf>,
    options: &[String],
    actions: &[String],
) -> Result<(), String> {
    let (engine, mut state) = start(variant, position, seed, options)?;
    let viewer = Views::new(&engine).viewer_or(as_player.as_deref(), Viewer::Omniscient)?;
    let last = play_texts(
        &engine,
        &mut state,
        actions,
        viewer,
        |i, text, after, events| {
            println!("{}. {text}", i + 1);
            for line in Views::new(&engine).event_lines(after, events, viewer) {
                println!("   {line}");
            }
        },
    )?;
    print!(
        "{}",
        Views::new(&engine).render(&Views::new(&engine).view(&state, viewer), last)
    );
    if let Some(path) = save {
        let mut pos = Positions::new(&engine).to_position(&state);
        pos.variant = crate::record::variant_ref(&engine.variant.path, &engine.variant.id(), &path);
        let text = to_yaml(&pos)?;
        write_user_file(&path, &path.display().to_string(), text)?;
        println!("saved position to {}", path.display());
    }
    Ok(())
}

pub(super) fn render(
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
            let (state, last) = replay_record(
                &engine,
                &rec,
                ply.unwrap_or(usize::MAX),
                Viewer::Omniscient,
                |_, _, _, _| {},
            )
            .map_err(|e| format!("{}: {e}", path.display()))?;
            (engine, state, last)
        }
        None => {
            let (engine, state) = start(variant, position, seed, &[])?;
            (engine, state, None)
        }
    };
    let viewer = Views::new(&engine).viewer_or(as_player, Viewer::Omniscient)?;
    write_user_file(
        out,
        &out.display().to_string(),
        Svg::new(&engine).render_svg(&Views::new(&engine).view(&state, viewer), last),
    )?;
    println!("wrote {}", out.display());
    Ok(())
}
