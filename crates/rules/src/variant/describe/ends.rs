//! How the game ends: the declared ends (`ends:`) and their winners, the
//! declared win, the no-move rule, checkmate, the no-progress and
//! repetition draws, and the plies cap.
//!
//! Changes when the host gains an ending rule, or one's wording changes.

use super::text::{self, join, kinds, number, player};
use super::Ctx;
use crate::variant::forms::{End, EndWhen, Winner};
use crate::variant::NoMoves;

/// Who wins a declared end.
fn winner(cx: &Ctx, w: &Winner) -> String {
    match w {
        Winner::Mover => "the player who made the last action wins".into(),
        Winner::Holder => {
            "the player whose counter it is wins (the mover, for a counter of the whole game)"
                .into()
        }
        Winner::MostPieces => {
            "the player with the most pieces on the board wins, or it is a draw when they are tied"
                .into()
        }
        Winner::Area { bonus, lines } => {
            let last = player(cx.v, cx.v.players.len().saturating_sub(1));
            let bonus = if *bonus == 0.0 {
                String::new()
            } else {
                format!(", {last} adding {bonus}")
            };
            format!(
                "the higher area score wins: a player's pieces plus the empty regions (joined {}) that touch only that player's pieces{bonus}; equal scores draw",
                text::directions(lines, false)
            )
        }
        Winner::Draw => "the game is drawn".into(),
        Winner::Tally { cells, counter, .. } => {
            let parts: Vec<String> = [
                cells
                    .as_ref()
                    .map(|c| format!("the {c} on their own cells")),
                counter.as_ref().map(|c| format!("their {c} counter")),
            ]
            .into_iter()
            .flatten()
            .collect();
            format!(
                "the player with the highest tally ({}) wins, or it is a draw when they are tied",
                parts.join(" plus ")
            )
        }
    }
}

/// One declared end as a sentence.
fn end(cx: &Ctx, e: &End) -> String {
    let v = cx.v;
    let when = match &e.when {
        EndWhen::InARow { n, lines } => format!(
            "When the piece just placed or moved stands in {} of its owner's pieces in a row ({})",
            number((*n).into()),
            text::lines(lines)
        ),
        EndWhen::NobodyMoves => "When no player can act but by passing".into(),
        EndWhen::AnyoneStuck => {
            "When, after an action, some player could act only by passing were it their turn".into()
        }
        EndWhen::Passes(n) => format!(
            "After {} pass{} in a row",
            number((*n).into()),
            if *n == 1 { "" } else { "es" }
        ),
        EndWhen::Captures(ks) => format!("When an action captures a {}", kinds(v, ks, "or")),
        EndWhen::Left {
            most,
            kinds: ks,
            everyone,
        } => format!(
            "When {} {} {} left on the board",
            if *everyone {
                "every player has"
            } else {
                "a player other than the mover has"
            },
            if *most == 0 {
                "no".to_string()
            } else {
                format!("at most {}", number((*most).into()))
            },
            ks.as_ref().map_or_else(
                || "pieces".to_string(),
                |k| format!("pieces of kind {}", kinds(v, k, "or"))
            )
        ),
        EndWhen::Counter { name, at_least } => {
            format!("When a player's counter `{name}` (or the game's) reaches {at_least}")
        }
        EndWhen::BorneOff { n, scores } => format!(
            "When the mover has borne off {} pieces{}",
            number((*n).into()),
            if *scores {
                " (the result gives the points won: 1; 2 when the loser has borne off none; 3 when the loser has also a piece on the bar or in the winner's home)"
            } else {
                ""
            }
        ),
        EndWhen::Reaches { zone, kinds: ks } => format!(
            "When a {} just placed or moved stands on {}",
            ks.as_ref()
                .map_or_else(|| "piece".to_string(), |k| kinds(v, k, "or")),
            text::zone(v, zone)
        ),
    };
    format!(
        "{when}, the game ends and {} (the result reads \"{}\").",
        winner(cx, &e.winner),
        e.reason
    )
}

/// What a player with no legal action meets.
fn no_moves(cx: &Ctx) -> String {
    let v = cx.v;
    let royal = v.kinds.iter().any(|k| k.royal);
    let who = "A player who has no legal action when their turn comes";
    let mut out = match v.no_moves {
        NoMoves::Lose if v.players.len() > 2 => {
            format!("{who} is out; the last player left wins.")
        }
        NoMoves::Lose => format!("{who} loses."),
        NoMoves::Draw if royal => format!(
            "{who}, while their royal piece could not be captured (stalemate), draws the game."
        ),
        NoMoves::Draw => format!("{who} draws the game."),
        NoMoves::Pass => {
            format!("{who} passes the turn; when no player can act, the game is drawn.")
        }
        NoMoves::LoseUnlessAllStuck => format!(
            "{who} loses if another player can still move; when nobody can, the game is drawn."
        ),
    };
    if royal {
        out += " A player who cannot act while their royal piece could be captured is checkmated and loses.";
    }
    out
}

/// The section.
pub(super) fn section(cx: &Ctx) -> String {
    let v = cx.v;
    let mut items: Vec<String> = Vec::new();
    for e in &v.ends {
        items.push(end(cx, e));
    }
    if let Some(w) = &v.win_when {
        let holds = w
            .holds_attr
            .as_ref()
            .map(|a| format!("one of their pieces on the board carries `{a}`"))
            .unwrap_or_default();
        let alone = if w.alone {
            "only their pieces are on the board"
        } else {
            ""
        };
        let cond: Vec<String> = [holds, alone.to_string()]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect();
        items.push(format!(
            "A player wins at once when {} (the result reads \"{}\").",
            join(&cond, "and"),
            w.reason_for("the winner")
        ));
    }
    if v.pass.is_none() {
        items.push(no_moves(cx));
    }
    if let Some(n) = &v.no_progress {
        let reset = if n.reset_kinds.is_empty() {
            String::new()
        } else {
            format!(" or a move of a {}", kinds(v, &n.reset_kinds, "or"))
        };
        items.push(format!(
            "The game is drawn after {} plies (single moves) without a capture{reset} (the result reads \"{}\").",
            n.plies, n.reason
        ));
    }
    if let Some(n) = v.repetition_draw {
        let with = if v.repetition_counters.is_empty() {
            String::new()
        } else {
            let c: Vec<String> = v
                .repetition_counters
                .iter()
                .map(|c| format!("`{c}`"))
                .collect();
            format!(" and the counters {}", join(&c, "and"))
        };
        items.push(format!(
            "The game is drawn when the same position (the board, the player to move{with}) occurs for the {} time.",
            ordinal(n)
        ));
    }
    if v.draw_offers {
        items.push("The players may agree to a draw (see Turns).".into());
    }
    if !v.scripts.is_empty() {
        items.push("The script's hooks (below) may end the game too.".into());
    }
    items.push(format!(
        "As a safety cap, a game that reaches {} plies is drawn.",
        v.max_plies
    ));
    let mut out = String::from("## How the game ends\n\n");
    for i in items {
        out += &format!("- {i}\n");
    }
    out
}

fn ordinal(n: u32) -> String {
    match n {
        1 => "first".into(),
        2 => "second".into(),
        3 => "third".into(),
        4 => "fourth".into(),
        5 => "fifth".into(),
        n => format!("{n}th"),
    }
}
