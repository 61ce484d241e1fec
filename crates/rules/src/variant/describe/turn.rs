//! The turn section: the players and their order, who starts, phases, the
//! turn's budget of actions, passing, draw offers, the back-and-forth
//! limit and how moves are written.
//!
//! Changes when the vocabulary of declared turn flow grows, or its
//! wording changes.

use super::text::{join, number, player};
use super::Ctx;
use crate::variant::flow::First;
use crate::variant::forms::{Form, PassWhen};
use crate::variant::NotationStyle;

/// The turn section.
pub(super) fn section(cx: &Ctx) -> String {
    let v = cx.v;
    let names: Vec<String> = (0..v.players.len()).map(|p| player(v, p)).collect();
    let mut out = format!(
        "## Turns\n\n{} players: {}. ",
        capital_number(names.len()),
        join(&names, "and")
    );
    out += &match v.first {
        First::Seat(p) => format!("The first turn goes to {}", player(v, p as usize)),
        First::Random => "Who plays first is drawn at random when the game starts".into(),
    };
    out += if names.len() > 2 {
        ", and turns go round in that order.\n"
    } else {
        ", then turns alternate.\n"
    };
    let mut s: Vec<String> = Vec::new();
    if let Some(n) = v.turn_actions {
        s.push(format!(
            "A turn allows up to {} counted actions (see Actions).",
            number(n.into())
        ));
    }
    match v.pass {
        Some(PassWhen::Stuck) => s.push(
            "A player who has no other legal action passes (`pass`); passing is allowed only then."
                .into(),
        ),
        Some(PassWhen::Always) => s.push("A player may pass (`pass`) on any turn.".into()),
        None => {}
    }
    if v.draw_offers {
        s.push("A player may offer a draw (`offer-draw`, which does not end their turn); the opponent accepts with `accept-draw`, and any other action declines.".into());
    }
    if let Some(n) = v.repetition_limit {
        s.push(format!("A player may not move one piece back and forth between the same two squares more than {} times in a row; moving another piece, or a strike, starts the count again.", number(n.into())));
    }
    if !s.is_empty() {
        out += &format!("\n{}\n", s.join(" "));
    }
    out += &phases(cx);
    if v.kinds.iter().any(|k| k.is_mobile()) {
        out += &notation(cx);
    }
    out
}

fn capital_number(n: usize) -> String {
    super::text::capital(&number(n as u64))
}

/// The phases, in order, with their rounds, order and actions.
fn phases(cx: &Ctx) -> String {
    let v = cx.v;
    if v.phases.is_empty() {
        return String::new();
    }
    let mut out = String::from("\nThe game goes through these phases, in order:\n\n");
    for (i, p) in v.phases.iter().enumerate() {
        let mut s: Vec<String> = Vec::new();
        s.push(match p.rounds {
            Some(n) => format!(
                "ends after {} round{} (each player one turn)",
                number(n.into()),
                if n == 1 { "" } else { "s" }
            ),
            None if i + 1 == v.phases.len() => {
                "lasts to the end of the game, unless a rule ends it".into()
            }
            None => "ends when a rule of the script ends it".into(),
        });
        if p.reverse {
            s.push("turns go the other way round, the last player first".into());
        }
        if let Some(a) = &p.actions {
            let names: Vec<String> = a
                .iter()
                .filter_map(|&i| v.actions.get(i as usize))
                .map(|a| format!("`{}`", a.name))
                .collect();
            s.push(format!("it offers {}", join(&names, "and")));
        }
        out += &format!("{}. `{}`: {}.\n", i + 1, p.name, s.join("; "));
    }
    out
}

/// How moves are written.
fn notation(cx: &Ctx) -> String {
    let n = &cx.v.notation;
    let forms = cx.v.kinds.iter().flat_map(|k| &k.forms);
    let places = forms.clone().any(|f| matches!(f, Form::Place(_)));
    let jumps = forms
        .clone()
        .any(|f| matches!(f, Form::Jump(j) if j.repeat));
    let steps = cx.v.kinds.iter().any(|k| !k.moves.is_empty());
    let mut ways: Vec<String> = Vec::new();
    if steps || (jumps && !places) {
        ways.push("a move from and to (`a2-a3`)".into());
    }
    if jumps {
        ways.push("a jump sequence with every landing square (`c3xe5xg7`)".into());
    }
    if places {
        ways.push("a placement by the new piece's cell (`d3`)".into());
    }
    if cx.v.pass.is_some() {
        ways.push("a pass as `pass`".into());
    }
    let mut out = String::from("\nMoves are written ");
    out += &match n.style {
        NotationStyle::Coordinates => format!("by their cells: {}.", ways.join("; ")),
        NotationStyle::LetterCaptures => "with the kind's letter and the destination (the origin only when needed; pieces without a letter by origin and destination), each captured square after the capture mark".into(),
        NotationStyle::San => "in standard algebraic notation: the kind's letter and the destination, the origin's file or rank only when needed".into(),
    };
    if n.style != NotationStyle::Coordinates {
        out += &format!(
            " (capture `{}`, check `{}`, mate `{}`); the coordinate form (`a2-a3`) is read too.",
            n.capture_mark, n.check, n.mate
        );
    }
    if !n.named_moves.is_empty() {
        let names: Vec<String> = n
            .named_moves
            .iter()
            .map(|m| format!("`{}`", m.name))
            .collect();
        out += &format!(" Named moves: {}.", join(&names, "and"));
    }
    out + "\n"
}
