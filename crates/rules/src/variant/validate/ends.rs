//! The game's `ends:`: when each end comes (n in a row, a zone reached,
//! passes, nobody or anyone unable to move, captures, pieces left, a
//! counter, pieces borne off) and who wins then, each problem at the
//! end's line and column.
//!
//! Changes when the language gains an end or a winner.

use serde_saphyr::{Location, Spanned};

use super::Ctx;
use crate::base::geometry::Board;
use crate::variant::forms::{End, EndWhen, Winner};
use crate::variant::raw::{RawEnd, RawVariant};
use crate::variant::{Kind, Value};

/// The game's `ends:`.
pub(super) fn ends(
    raw: &RawVariant,
    board: &Board,
    players: &[String],
    kinds: &[Kind],
    cx: &mut Ctx,
) -> Vec<End> {
    let Some(list) = &raw.ends else {
        return Vec::new();
    };
    cx.from("ends");
    let mut out = Vec::new();
    for e in list {
        out.extend(end(e, board, players, kinds, cx));
    }
    out
}

/// When one of `ends:` comes, and the reason it gives by default.
fn end_when(
    e: &RawEnd,
    loc: Location,
    board: &Board,
    players: &[String],
    kinds: &[Kind],
    cx: &mut Ctx,
) -> Option<(EndWhen, String)> {
    let conditions = [
        e.in_a_row.is_some(),
        e.nobody_moves.is_some(),
        e.anyone_stuck.is_some(),
        e.passes.is_some(),
        e.reaches.is_some(),
        e.captures.is_some(),
        e.left.is_some(),
        e.counter.is_some(),
        e.borne_off.is_some(),
    ]
    .iter()
    .filter(|x| **x)
    .count();
    if conditions != 1 {
        cx.err_at(
            loc,
            "an end needs exactly one of `in_a_row: N`, `nobody_moves: true`, `anyone_stuck: true`, `passes: N`, `reaches: ZONE`, `captures: [KINDS]`, `left: N`, `counter: NAME`, `borne_off: N`",
        );
        return None;
    }
    if (e.mobile.is_some() || e.players.is_some()) && e.left.is_none() {
        cx.err_at(loc, "`mobile` and `players` go with `left`");
        return None;
    }
    if e.kinds.is_some() && e.reaches.is_none() && e.left.is_none() {
        cx.err_at(loc, "`kinds` goes with `reaches` or `left`");
        return None;
    }
    if e.scores.is_some() && e.borne_off.is_none() {
        cx.err_at(loc, "`scores` goes with `borne_off`");
        return None;
    }
    if let Some(n) = e.borne_off {
        return super::race::borne_off_end(n, e.scores, loc, kinds, cx);
    }
    if e.captures.is_some() || e.left.is_some() || e.counter.is_some() || e.at_least.is_some() {
        return count_end(e, loc, kinds, cx);
    }
    Some(if let Some(zone) = &e.reaches {
        reaches(e, zone, loc, (board, players, kinds), cx)?
    } else if let Some(n) = e.in_a_row {
        in_a_row(e, n, loc, board, cx)?
    } else if let Some(n) = e.passes {
        if n == 0 {
            cx.err_at(loc, "`passes: 0`: expected at least 1");
            return None;
        }
        (EndWhen::Passes(n), format!("{n} passes in a row"))
    } else if let Some(stuck) = e.anyone_stuck {
        if !stuck {
            cx.err_at(loc, "`anyone_stuck` must be `true`");
            return None;
        }
        (EndWhen::AnyoneStuck, "a player unable to move".to_string())
    } else {
        if e.nobody_moves != Some(true) {
            cx.err_at(loc, "`nobody_moves` must be `true`");
            return None;
        }
        (EndWhen::NobodyMoves, "nobody can move".to_string())
    })
}

/// An end by what was captured, is left, or was counted (`captures:`,
/// `left:`, `counter:`).
fn count_end(e: &RawEnd, loc: Location, kinds: &[Kind], cx: &mut Ctx) -> Option<(EndWhen, String)> {
    if e.at_least.is_some() != e.counter.is_some() {
        cx.err_at(loc, "`counter: NAME` and `at_least: N` go together");
        return None;
    }
    if let (Some(name), Some(n)) = (&e.counter, e.at_least) {
        return Some((
            EndWhen::Counter {
                name: name.clone(),
                at_least: n,
            },
            format!("{name} reaching {n}"),
        ));
    }
    let kind_ids = |names: &[String], cx: &mut Ctx| -> Option<Vec<crate::base::state::KindId>> {
        let mut ids = Vec::new();
        for k in names {
            match kinds.iter().position(|x| &x.name == k) {
                Some(i) => ids.push(i as crate::base::state::KindId),
                None => {
                    cx.err_at(loc, format!("`{k}` is no piece kind"));
                    return None;
                }
            }
        }
        Some(ids)
    };
    if let Some(names) = &e.captures {
        if names.is_empty() {
            cx.err_at(loc, "`captures: []`: name at least one kind");
            return None;
        }
        let ids = kind_ids(names, cx)?;
        return Some((
            EndWhen::Captures(ids),
            format!("the capture of a {}", names.join(" or ")),
        ));
    }
    if let Some(most) = e.left {
        let mut ids = match &e.kinds {
            Some(k) => Some(kind_ids(k, cx)?),
            None => None,
        };
        let mobile = e.mobile.unwrap_or(false);
        if mobile {
            let all: Vec<_> = (0..kinds.len() as crate::base::state::KindId).collect();
            let named = ids.unwrap_or(all);
            ids = Some(
                named
                    .into_iter()
                    .filter(|&k| kinds[k as usize].is_mobile())
                    .collect(),
            );
        }
        let everyone = match e.players.as_deref() {
            None | Some("others") => false,
            Some("all") => true,
            Some(w) => {
                cx.err_at(loc, format!("`players: {w}`: expected `others` (some player other than the mover) or `all` (every player)"));
                return None;
            }
        };
        let what = e
            .kinds
            .as_ref()
            .map_or("pieces".to_string(), |k| k.join(" or "));
        let what = if mobile {
            format!("movable {what}")
        } else {
            what
        };
        let who = if everyone { "every player" } else { "a player" };
        return Some((
            EndWhen::Left {
                most,
                kinds: ids,
                everyone,
            },
            format!("{who} left with at most {most} {what}"),
        ));
    }
    None
}

/// One of `ends:`.
fn end(
    e: &Spanned<RawEnd>,
    board: &Board,
    players: &[String],
    kinds: &[Kind],
    cx: &mut Ctx,
) -> Option<End> {
    let loc = e.referenced;
    let e = &e.value;
    let (when, reason) = end_when(e, loc, board, players, kinds, cx)?;
    if e.bonus.is_some() && e.winner != "area" {
        cx.err_at(loc, "`bonus` goes with `winner: area`");
        return None;
    }
    if e.tally.is_some() != (e.winner == "tally") {
        cx.err_at(
            loc,
            "`winner: tally` and `tally: { cells, zone, counter }` go together",
        );
        return None;
    }
    let winner = match e.winner.as_str() {
        "mover" => Winner::Mover,
        "holder" if e.counter.is_some() => Winner::Holder,
        "holder" => {
            cx.err_at(loc, "`winner: holder` goes with a `counter:` end");
            return None;
        }
        "most_pieces" => Winner::MostPieces,
        "draw" => Winner::Draw,
        "tally" => tally(e.tally.as_ref()?, loc, board, players, cx)?,
        "area" => {
            let bonus = match &e.bonus {
                None => Some(0.0),
                Some(p) => cx.resolve(p, loc, Value::as_f64, "a number"),
            };
            let bonus = bonus?;
            if !bonus.is_finite() || bonus.abs() > 1e6 {
                cx.err_at(
                    loc,
                    format!("`bonus: {bonus}`: expected a number of at most 1000000"),
                );
                return None;
            }
            Winner::Area {
                bonus,
                lines: board
                    .directions("orthogonal")
                    .map(|d| d.deltas.clone())
                    .unwrap_or_default(),
            }
        }
        other => {
            cx.err_at(
                loc,
                format!(
                    "`winner: {other}`: expected mover, most_pieces, area, draw, tally or holder"
                ),
            );
            return None;
        }
    };
    Some(End {
        when,
        winner,
        reason: e.reason.clone().unwrap_or(reason),
    })
}

/// `winner: tally`'s `tally:`: a cell counter over a zone, a counter, or
/// both.
fn tally(
    t: &crate::variant::raw::RawTally,
    loc: Location,
    board: &Board,
    players: &[String],
    cx: &mut Ctx,
) -> Option<Winner> {
    if t.cells.is_some() != t.zone.is_some() || (t.cells.is_none() && t.counter.is_none()) {
        cx.err_at(
            loc,
            "`tally` needs `cells: COUNTER` with `zone: ZONE`, `counter: NAME`, or both",
        );
        return None;
    }
    let zone = match &t.zone {
        Some(z) => match super::player_zones(board, players, z) {
            Some(cells) => cells,
            None => {
                cx.err_at(loc, format!("`tally.zone: {z}` names no zone of the board"));
                return None;
            }
        },
        None => Vec::new(),
    };
    Some(Winner::Tally {
        cells: t.cells.clone(),
        zone,
        counter: t.counter.clone(),
    })
}

/// `reaches: ZONE` (with `kinds:`): a piece that stands in its owner's
/// cells of the zone.
fn reaches(
    e: &RawEnd,
    zone: &str,
    loc: Location,
    (board, players, kinds): (&Board, &[String], &[Kind]),
    cx: &mut Ctx,
) -> Option<(EndWhen, String)> {
    let Some(cells) = super::player_zones(board, players, zone) else {
        cx.err_at(loc, format!("`reaches: {zone}` names no zone"));
        return None;
    };
    let mut ids = Vec::new();
    for k in e.kinds.iter().flatten() {
        match kinds.iter().position(|x| &x.name == k) {
            Some(i) => ids.push(i as crate::base::state::KindId),
            None => {
                cx.err_at(loc, format!("`kinds` names `{k}`, which is no piece kind"));
                return None;
            }
        }
    }
    Some((
        EndWhen::Reaches {
            zone: cells,
            kinds: e.kinds.as_ref().map(|_| ids),
        },
        format!("a piece reach {zone}"),
    ))
}

/// `in_a_row: N` along `lines:` (a line and its opposite are one).
fn in_a_row(
    e: &RawEnd,
    n: u8,
    loc: Location,
    board: &Board,
    cx: &mut Ctx,
) -> Option<(EndWhen, String)> {
    let lines = |cx: &mut Ctx| -> Option<Vec<(i8, i8)>> {
        let name = e.lines.as_deref().unwrap_or("all");
        match board.directions(name) {
            Some(d) if !d.relative => Some(d.deltas.clone()),
            _ => {
                cx.err_at(
                    loc,
                    format!("`lines: {name}`: expected a direction set that is the same for every player (`all`, `orthogonal`, `diagonal`)"),
                );
                None
            }
        }
    };
    if !(2..=32).contains(&n) {
        cx.err_at(loc, format!("`in_a_row: {n}`: expected 2 to 32"));
        return None;
    }
    let l = lines(cx)?;
    // A line and its opposite are one line.
    let mut halves: Vec<(i8, i8)> = Vec::new();
    for d in l {
        if !halves.contains(&d) && !halves.contains(&(-d.0, -d.1)) {
            halves.push(d);
        }
    }
    Some((
        EndWhen::InARow { n, lines: halves },
        format!("a line of {n} or more"),
    ))
}
