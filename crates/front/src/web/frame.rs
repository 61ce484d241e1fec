//! What a page is sent to draw: a frame of the session at some ply as its
//! viewer sees it (the SVG board, the legal moves split into clicks and
//! buttons, the log, history and reload report), and the same board parts
//! added to the host's `state` messages for play by URL. Everything here is
//! built from one viewer's view, its event lines and its legal actions.

use crate::record::view::Views;
use crate::render::Svg;
use serde_json::{json, Value};

use crate::engine::{Action, Engine};
use crate::record::view::{choice_prompt, View, Viewer};
use crate::session::Session;

/// The longest log a frame carries (the newest entries).
const MAX_LOG: usize = 500;

/// Legal action texts as the page plays them: moves (`from`, `to`, `text`:
/// the page lights up `to` when `from` is selected), placements (`at`,
/// `text`: a click on that cell plays it; a placement that names its kind,
/// `K@e4`, also has `kind` and `kind_name`, and where several kinds may go
/// the page asks which first, from a palette; two placements on one cell
/// that name no kind stay buttons), jump sequences (`path`: the start and
/// every landing, `text`: the page lights up each next landing, or the
/// last when only one sequence ends there) and buttons (everything else:
/// choices, scripted actions, passes, draw offers), each with its text.
pub struct Clicks {
    pub moves: Vec<Value>,
    pub places: Vec<Value>,
    pub jumps: Vec<Value>,
    pub buttons: Vec<String>,
}

/// Sorts legal action texts into [`Clicks`], by their canonical shapes:
/// `a4-a5`, `d3` or `S@d3`, `d6xb4xd2`. While a choice is pending
/// (`choosing`), its answers stay buttons, even those that name a cell.
pub fn split_legal(engine: &Engine, texts: &[String], choosing: bool) -> Clicks {
    let board = &engine.variant.board;
    let mut c = Clicks {
        moves: Vec::new(),
        places: Vec::new(),
        jumps: Vec::new(),
        buttons: Vec::new(),
    };
    let place_at = |t: &str| {
        let cell = t.split_once('@').map_or(t, |(kind, cell)| {
            if kind.is_empty() || kind.contains(char::is_whitespace) {
                ""
            } else {
                cell
            }
        });
        board.parse_cell(cell)
    };
    let mut places: Vec<(u16, &String)> = Vec::new();
    for t in texts {
        let step = t
            .split_once('-')
            .and_then(|(a, b)| Some((board.parse_cell(a)?, board.parse_cell(b)?)));
        let path: Option<Vec<u16>> = t
            .contains('x')
            .then(|| t.split('x').map(|p| board.parse_cell(p)).collect())
            .flatten();
        if let Some((a, b)) = step {
            c.moves.push(json!({
                "from": board.cell_name(a),
                "to": board.cell_name(b),
                "text": t,
            }));
        } else if let Some(at) = place_at(t).filter(|_| !choosing) {
            places.push((at, t));
        } else if let Some(path) = path.filter(|p| p.len() >= 2 && !choosing) {
            let names: Vec<String> = path.iter().map(|&x| board.cell_name(x)).collect();
            c.jumps.push(json!({ "path": names, "text": t }));
        } else {
            c.buttons.push(t.clone());
        }
    }
    for &(at, t) in &places {
        let shared = places.iter().filter(|(b, _)| *b == at).count() > 1;
        match (t.split_once('@'), shared) {
            (None, false) => c
                .places
                .push(json!({ "at": board.cell_name(at), "text": t })),
            (Some((kind, _)), _) => c.places.push(json!({
                "at": board.cell_name(at),
                "text": t,
                "kind": kind,
                "kind_name": kind_name(engine, kind),
            })),
            (None, true) => c.buttons.push(t.clone()),
        }
    }
    c
}

/// The name of the kind a placement's text names (`K@e4`: its letter, or
/// the kind's name), for the page's palette.
fn kind_name(engine: &Engine, named: &str) -> String {
    engine
        .variant
        .kinds
        .iter()
        .find(|k| k.letter.as_deref() == Some(named) || k.name == named)
        .map_or_else(|| named.to_string(), |k| k.display.clone())
}

/// The one direction every falling placement of the variant falls in
/// (`falls: down`), if there is one.
fn fall_direction(engine: &Engine) -> Option<(i8, i8)> {
    let mut dirs = engine
        .variant
        .kinds
        .iter()
        .flat_map(|k| &k.forms)
        .filter_map(|f| match f {
            crate::rules::variant::forms::Form::Place(p) => Some(p.falls),
            _ => None,
        });
    let first = dirs.next()??;
    dirs.all(|d| d == Some(first)).then_some(first)
}

/// Gives each placement of a falling piece the empty cells it falls
/// through (`line`): a click on any of them plays it, as a disc dropped
/// into its column.
fn add_fall_lines(engine: &Engine, view: &View, places: &mut [Value]) {
    let Some((dx, dy)) = fall_direction(engine) else {
        return;
    };
    let board = &engine.variant.board;
    for p in places {
        let Some(mut at) = p["at"].as_str().and_then(|a| board.parse_cell(a)) else {
            continue;
        };
        let mut line = Vec::new();
        while let Some(up) = board.offset(at, (-dx, -dy)) {
            if view.cells.get(up as usize).is_none_or(|c| c.is_some()) {
                break;
            }
            line.push(board.cell_name(up));
            at = up;
        }
        p["line"] = json!(line);
    }
}

/// The board parts of a frame: the SVG, clickable moves, placements and
/// jump sequences, buttons and the question of a pending choice.
pub fn board_parts(
    engine: &Engine,
    view: &View,
    last: Option<(u16, u16)>,
    legal: &[String],
) -> Value {
    let mut c = split_legal(engine, legal, view.pending.is_some());
    add_fall_lines(engine, view, &mut c.places);
    // Declared containers whose count this viewer may not know.
    let uncounted: Vec<&str> = view
        .containers
        .iter()
        .filter(|c| c.items.is_none() && engine.variant.containers.iter().any(|d| d.name == c.name))
        .map(|c| c.name.as_str())
        .collect();
    json!({
        "uncounted": uncounted,
        "svg": Svg::new(engine).render_svg(view, last),
        "moves": c.moves,
        "places": c.places,
        "jumps": c.jumps,
        "buttons": c.buttons,
        "question": view
            .pending
            .as_ref()
            .map(|c| choice_prompt(&engine.variant.words, c)),
    })
}

fn merge(into: &mut Value, from: Value) {
    if let (Some(a), Value::Object(b)) = (into.as_object_mut(), from) {
        a.extend(b);
    }
}

/// What the relay remembers of one browser's connection: its seat (from
/// `welcome`) and the view of its previous `state`.
pub struct Relayed {
    pub seat: Viewer,
    pub previous: Option<View>,
}

impl Default for Relayed {
    fn default() -> Relayed {
        Relayed {
            seat: Viewer::Public,
            previous: None,
        }
    }
}

/// Adds the board parts to a host `state` message (play by URL), with the
/// last move guessed from the seat's previous view, and the seat's empty
/// board (`svg`) to a `setup_request`. Other messages pass unchanged.
pub fn augment(engine: &Engine, line: &str, seen: &mut Relayed) -> String {
    let Ok(mut msg) = serde_json::from_str::<Value>(line) else {
        return line.to_string();
    };
    match msg.get("type").and_then(Value::as_str) {
        Some("welcome") => {
            let seat = msg.get("seat").and_then(Value::as_str);
            seen.seat = seat
                .and_then(|s| Views::new(engine).parse_viewer(s))
                .unwrap_or(Viewer::Public);
            return line.to_string();
        }
        Some("setup_request") => {
            let view = Views::new(engine).view(&engine.empty_state(0), seen.seat);
            merge(
                &mut msg,
                json!({ "svg": Svg::new(engine).render_svg(&view, None) }),
            );
            return msg.to_string();
        }
        Some("state") => {}
        _ => return line.to_string(),
    }
    let Some(view) = msg
        .get("view")
        .and_then(|v| serde_json::from_value::<View>(v.clone()).ok())
    else {
        return line.to_string();
    };
    let legal: Vec<String> = msg
        .get("legal")
        .and_then(|l| serde_json::from_value(l.clone()).ok())
        .unwrap_or_default();
    let last = seen.previous.as_ref().and_then(|p| last_move(p, &view));
    merge(&mut msg, board_parts(engine, &view, last, &legal));
    seen.previous = Some(view);
    msg.to_string()
}

/// The move between two views of one seat: a piece (by id) that is on
/// another cell now, else a piece new on the board (a placement), else the
/// cell a piece left when it did not survive.
pub fn last_move(before: &View, after: &View) -> Option<(u16, u16)> {
    let where_is = |v: &View, id| {
        v.cells
            .iter()
            .position(|c| c.as_ref().is_some_and(|p| p.id == id))
            .map(|i| i as u16)
    };
    let mut left = None;
    for (i, c) in before.cells.iter().enumerate() {
        let Some(p) = c else { continue };
        match where_is(after, p.id) {
            Some(j) if j != i as u16 => return Some((i as u16, j)),
            None if after.cells[i].is_none() => left = Some((i as u16, i as u16)),
            _ => {}
        }
    }
    let placed = after.cells.iter().enumerate().find_map(|(i, c)| {
        let p = c.as_ref()?;
        where_is(before, p.id)
            .is_none()
            .then_some((i as u16, i as u16))
    });
    placed.or(left)
}

/// The legal actions `viewer` may click in `state`: a player's own, every
/// action for the omniscient designer, none for a spectator.
fn legal_for(
    engine: &Engine,
    state: &crate::base::state::GameState,
    viewer: Viewer,
) -> Vec<String> {
    let actions = match viewer {
        Viewer::Player(p) => engine.legal_actions_for(state, p),
        Viewer::Omniscient => engine.legal_actions(state),
        Viewer::Public => Vec::new(),
    };
    actions
        .iter()
        .map(|a| engine.action_text(state, a))
        .collect()
}

/// What the session page shows besides the session itself.
pub struct DeskExtras<'a> {
    /// The ply shown, when stepping through history (else the present).
    pub browse: Option<usize>,
    pub report: Option<&'a str>,
    pub watching: bool,
}

/// A frame of the session for its viewer (`sandtable web`).
pub fn desk_frame(s: &Session, extras: &DeskExtras) -> Value {
    let e = &s.engine;
    let viewer = s.viewer;
    let total = s.history.len();
    let at = extras.browse.filter(|&k| k < total);
    let shown = at.unwrap_or(total);
    let state = at.map(|k| &s.history[k].before).unwrap_or(&s.state);
    let last = shown
        .checked_sub(1)
        .and_then(|i| {
            let p = &s.history[i];
            e.parse_action(&p.before, &p.text).ok()
        })
        .and_then(|a| match a {
            Action::Move { from, to } => Some((from, to)),
            Action::Place { at, .. } => Some((at, at)),
            // The start and the last landing, the last cell of the text.
            Action::Jumps { from, .. } => {
                let text = &s.history[shown - 1].text;
                let to = text.rsplit('x').next()?;
                Some((from, e.variant.board.parse_cell(to)?))
            }
            _ => None,
        });
    let view = Views::new(e).view(state, viewer);
    let legal = if at.is_none() {
        legal_for(e, state, viewer)
    } else {
        Vec::new()
    };
    let mut frame = json!({
        "type": "frame",
        "variant": e.variant.name,
        "viewer": Views::new(e).viewer_name(viewer),
        "viewers": viewer_names(e),
        "ply": shown,
        "plies": total,
        "browsing": at.is_some(),
        "log": log(s, viewer, shown),
        "clock": s.clock_text(),
        "report": extras.report,
        "watching": extras.watching,
    });
    merge(&mut frame, board_parts(e, &view, last, &legal));
    if let Some(o) = frame.as_object_mut() {
        o.insert(
            "view".into(),
            serde_json::to_value(&view).unwrap_or(Value::Null),
        );
    }
    frame
}

fn viewer_names(e: &Engine) -> Vec<String> {
    let mut v = e.variant.players.clone();
    v.push("public".into());
    v.push("all".into());
    v
}

/// The actions up to ply `upto` as `viewer` may see them, each with its
/// events; the newest [`MAX_LOG`].
fn log(s: &Session, viewer: Viewer, upto: usize) -> Vec<Value> {
    let e = &s.engine;
    let from = upto.saturating_sub(MAX_LOG);
    (from..upto)
        .map(|i| {
            let p = &s.history[i];
            let text = e
                .parse_action(&p.before, &p.text)
                .map(|a| Views::new(e).action_text_for(&p.before, &a, viewer))
                .unwrap_or_else(|_| p.text.clone());
            let after = s.history.get(i + 1).map(|n| &n.before).unwrap_or(&s.state);
            json!({
                "ply": i + 1,
                "text": text,
                "events": Views::new(e).event_lines(after, &p.events, viewer),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legal_texts_split_into_moves_and_buttons() {
        let s = Session::new("classic_stratego", &[], 1).unwrap();
        let texts = ["a4-a5", "offer-draw", "flip c3", "z9-a1"].map(String::from);
        let c = split_legal(&s.engine, &texts, false);
        assert_eq!(
            c.moves,
            vec![json!({"from": "a4", "to": "a5", "text": "a4-a5"})]
        );
        assert_eq!(c.buttons, vec!["offer-draw", "flip c3", "z9-a1"]);
    }

    #[test]
    fn placements_and_jump_sequences_are_clicks() {
        let s = Session::new("english_draughts", &[], 1).unwrap();
        let texts = [
            "d3", "S@e4", "K@f5", "Q@f5", "d6xb4xd2", "c3xe5", "pass", "x@a1", "z9xa1",
        ]
        .map(String::from);
        let c = split_legal(&s.engine, &texts, false);
        let kinded = |at: &str, kind: &str, name: &str| json!({"at": at, "text": format!("{kind}@{at}"), "kind": kind, "kind_name": name});
        assert_eq!(
            c.places,
            vec![
                json!({"at": "d3", "text": "d3"}),
                kinded("e4", "S", "S"),
                kinded("f5", "K", "K"),
                kinded("f5", "Q", "Q"),
                kinded("a1", "x", "x"),
            ]
        );
        assert_eq!(
            c.jumps,
            vec![
                json!({"path": ["d6", "b4", "d2"], "text": "d6xb4xd2"}),
                json!({"path": ["c3", "e5"], "text": "c3xe5"}),
            ]
        );
        // Two kinds placed on one cell: the palette says which.
        assert_eq!(c.buttons, vec!["pass", "z9xa1"]);
        assert!(c.moves.is_empty());
        // The answers of a pending choice are buttons, cells or not.
        let answers = ["e3", "d6xb4xd2", "none"].map(String::from);
        let c = split_legal(&s.engine, &answers, true);
        assert!(c.places.is_empty() && c.jumps.is_empty());
        assert_eq!(c.buttons, answers);
    }

    #[test]
    fn the_last_placement_and_jump_sequence_are_outlined() {
        let mut s = Session::new("connect_four", &[], 1).unwrap();
        let before = Views::new(&s.engine).view(&s.state, Viewer::Omniscient);
        s.execute("d1").unwrap();
        let after = Views::new(&s.engine).view(&s.state, Viewer::Omniscient);
        let d1 = s.engine.variant.board.parse_cell("d1").unwrap();
        assert_eq!(last_move(&before, &after), Some((d1, d1)));
        let extras = DeskExtras {
            browse: None,
            report: None,
            watching: false,
        };
        let svg = desk_frame(&s, &extras)["svg"].as_str().unwrap().to_string();
        assert!(svg.contains("#f39c12"), "the placed disc is outlined");
        let mut s = Session::new("english_draughts", &[], 1).unwrap();
        s.execute("position 8/4m1m1/8/2m5/1M6/8/8/8 black").unwrap();
        s.execute("b4xd6xf8").unwrap();
        let svg = desk_frame(&s, &extras)["svg"].as_str().unwrap().to_string();
        assert_eq!(svg.matches("#f39c12").count(), 2, "b4 and f8");
    }

    #[test]
    fn the_last_move_is_found_between_two_views() {
        let mut s = Session::new("classic_stratego", &[], 1).unwrap();
        let red = Viewer::Player(0);
        let before = Views::new(&s.engine).view(&s.state, red);
        s.execute("random").unwrap();
        let after = Views::new(&s.engine).view(&s.state, red);
        let text = &s.history[0].text;
        let (a, b) = last_move(&before, &after).expect("a move");
        let b_name = s.engine.variant.board.cell_name(b);
        assert_eq!(
            format!("{}-{}", s.engine.variant.board.cell_name(a), b_name),
            *text
        );
    }

    #[test]
    fn a_setup_request_gains_the_seats_empty_board() {
        let s = Session::new("classic_stratego", &[], 1).unwrap();
        let mut seen = Relayed::default();
        let welcome = r#"{"type":"welcome","version":2,"seat":"blue"}"#;
        assert_eq!(augment(&s.engine, welcome, &mut seen), welcome);
        assert_eq!(seen.seat, Viewer::Player(1));
        let req = r#"{"type":"setup_request","cells":["a7"],"army":[]}"#;
        let out: Value = serde_json::from_str(&augment(&s.engine, req, &mut seen)).unwrap();
        let svg = out["svg"].as_str().expect("an SVG");
        assert!(
            svg.contains("data-cell=\"a7\"") && !svg.contains("<g "),
            "{svg}"
        );
        let chat = r#"{"type":"presence","seat":"red","name":"a","here":false}"#;
        assert_eq!(augment(&s.engine, chat, &mut seen), chat);
    }
}
