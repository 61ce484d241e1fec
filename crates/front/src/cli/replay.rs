//! `replay`: how a saved record or movetext is played again and checked.

use crate::record::game::Positions;
use crate::record::movetext::Movetext;
use crate::record::view::Views;
use std::path::PathBuf;

use super::positions::start;
use crate::base::state::GameState;
use crate::engine::Engine;
use crate::record::exchange::{import_text, Format};
use crate::record::view::Viewer;

pub(super) fn replay(file: &std::path::Path, as_player: Option<&str>) -> Result<(), String> {
    if let Some(format) = Format::of_path(file) {
        return replay_exchange(file, None, format, as_player);
    }
    let (rec, note) = crate::record::read_record_noted(file)?;
    if let Some(note) = &note {
        eprintln!("warning: {note}");
    }
    let rec = match rec {
        crate::record::RecordFile::Whole(rec) => rec,
        crate::record::RecordFile::Seen(rec) => {
            // One player's record: shown as that player saw the game.
            if as_player.is_some_and(|v| v != rec.viewer) {
                return Err(format!(
                    "{}: this is {}'s record; it cannot be shown as another viewer",
                    file.display(),
                    rec.viewer
                ));
            }
            let engine = Engine::load(&rec.variant, &[]).map_err(|e| e.to_string())?;
            print!("{}", rec.text(&engine));
            return Ok(());
        }
    };
    print!(
        "{}",
        replay_text(&rec, as_player).map_err(|e| format!("{}: {e}", file.display()))?
    );
    Ok(())
}

/// `replay [VARIANT] FILE.pgn` (or `.sgf`, `.pdn`): every game of the
/// file replayed and checked, the variant from the tags unless given.
fn replay_exchange(
    file: &std::path::Path,
    variant: Option<&str>,
    format: Format,
    as_player: Option<&str>,
) -> Result<(), String> {
    let shown = crate::rules::variant::display_path(file);
    let text = crate::base::limits::read_user_file(file, &shown)?;
    let games = import_text(&text, &shown, format, variant)?;
    for (i, g) in games.iter().enumerate() {
        if games.len() > 1 {
            println!("game {} of {}:", i + 1, games.len());
        }
        for (k, v) in &g.notes.tags {
            println!("[{k} \"{v}\"]");
        }
        print!(
            "{}",
            replay_text(&g.record, as_player).map_err(|e| format!("{shown}: {e}"))?
        );
    }
    Ok(())
}

/// What `replay RECORD --as VIEWER` prints: each action as the viewer may
/// see it (another player's hidden answer is `(choice)`), its events for
/// the viewer, the last board and the outcome.
pub fn replay_text(rec: &crate::record::Record, as_player: Option<&str>) -> Result<String, String> {
    use std::fmt::Write;
    let overrides = crate::record::overrides(&rec.options);
    let engine = Engine::load(&rec.variant, &overrides).map_err(|e| e.to_string())?;
    let viewer = Views::new(&engine).viewer_or(as_player, Viewer::Omniscient)?;
    let mut out = String::new();
    let (state, last) = replay_record(
        &engine,
        rec,
        usize::MAX,
        viewer,
        |i, text, after, events| {
            let _ = writeln!(out, "{}. {text}", i + 1);
            for l in Views::new(&engine).event_lines(after, events, viewer) {
                let _ = writeln!(out, "   {l}");
            }
        },
    )?;
    out.push_str(&Views::new(&engine).render(&Views::new(&engine).view(&state, viewer), last));
    let outcome = state
        .outcome
        .as_ref()
        .map(|o| Views::new(&engine).outcome_text(o));
    match (&outcome, &rec.result) {
        (Some(o), Some(r)) if o != r => {
            return Err(format!("the record says `{r}` but the replay ends `{o}`"))
        }
        (Some(o), _) => {
            let _ = writeln!(out, "outcome: {o}");
        }
        (None, _) => {
            let _ = writeln!(
                out,
                "outcome: still playing ({} to act)",
                engine.player_name(engine.acting_player(&state).unwrap_or(0))
            );
        }
    }
    Ok(out)
}

pub(super) fn replay_movetext(
    variant: &str,
    file: &str,
    position: Option<PathBuf>,
    as_player: Option<&str>,
    options: &[String],
) -> Result<(), String> {
    let path = std::path::Path::new(file);
    if let Some(format) = Format::of_path(path) {
        return replay_exchange(path, Some(variant), format, as_player);
    }
    let text = crate::base::limits::read_user_file(path, file)?;
    if crate::record::parse_yaml::<crate::record::Record>(&text, file).is_ok()
        || crate::record::parse_yaml::<crate::record::PlayerRecord>(&text, file).is_ok()
    {
        return replay(path, as_player);
    }
    let (engine, mut state) = start(variant, position, 1, options)?;
    let viewer = Views::new(&engine).viewer_or(as_player, Viewer::Omniscient)?;
    let mut last = None;
    Movetext::new(&engine)
        .play(&mut state, &text, |m, after| {
            let note = if m.written == m.engine_text {
                String::new()
            } else {
                format!("   (written {})", m.written)
            };
            println!("{} {}{note}", m.number, m.engine_text);
            for l in Views::new(&engine).event_lines(after, &m.events, viewer) {
                println!("   {l}");
            }
            if let crate::engine::Action::Move { from, to } = m.action {
                last = Some((from, to));
            }
        })
        .map_err(|e| format!("{file}: {e}"))?;
    print!(
        "{}",
        Views::new(&engine).render(&Views::new(&engine).view(&state, viewer), last)
    );
    println!("outcome: {}", Movetext::new(&engine).status_text(&state));
    Ok(())
}

/// Plays a record's first `upto` actions from its start, calling `each`
/// with the index, the text as `viewer` may see it, the state after and
/// the events of each action.
pub(super) fn replay_record(
    engine: &Engine,
    rec: &crate::record::Record,
    upto: usize,
    viewer: Viewer,
    each: impl FnMut(usize, &str, &GameState, &[crate::engine::Event]),
) -> Result<(GameState, Option<(u16, u16)>), String> {
    let mut state = Positions::new(engine).from_position(&rec.start)?;
    let upto = upto.min(rec.actions.len());
    let last = play_texts(engine, &mut state, &rec.actions[..upto], viewer, each)?;
    Ok((state, last))
}

/// Plays actions given as text, in order, calling `each` with the index,
/// the canonical text as `viewer` may see it, the state after and the
/// events of each; stops at the first that fails, naming it. Returns the
/// cells of the last move.
pub(super) fn play_texts(
    engine: &Engine,
    state: &mut GameState,
    actions: &[String],
    viewer: Viewer,
    mut each: impl FnMut(usize, &str, &GameState, &[crate::engine::Event]),
) -> Result<Option<(u16, u16)>, String> {
    let mut last = None;
    for (i, text) in actions.iter().enumerate() {
        let action = engine
            .parse_action(state, text)
            .map_err(|e| format!("action {} (`{text}`): {e}", i + 1))?;
        let canonical = Views::new(engine).action_text_for(state, &action, viewer);
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
