//! The `rules:` settings that need checking: `repetition_limit` (maybe an
//! option), `no_progress`, `after_action_when` (which name kinds, cells
//! and zones) and `win_when`. The plain settings are copied as they are by
//! [`super::validate`].
//!
//! Changes when a turn or game-end setting gains something to check.

use serde_saphyr::{Location, Spanned};

use super::{player_zones, Ctx};
use crate::base::cell_set::CellSet;
use crate::base::geometry::{Board, Cell};
use crate::base::state::KindId;
use crate::variant::raw::{Param, RawVariant};
use crate::variant::raw_rules::{RawAfterActionWhen, RawRules};
use crate::variant::WinWhen;
use crate::variant::{AfterActionWhen, Kind, NoProgress, Value};

/// `rules.bookkeeping.repetition_limit`: a positive integer or an int option; 0 or
/// less means none.
pub(super) fn repetition_limit(rules: &RawRules, cx: &mut Ctx) -> Option<u32> {
    cx.from("rules.bookkeeping.repetition_limit");
    count_or_none(rules.bookkeeping.repetition_limit.as_ref(), cx)
}

/// `rules.ends.repetition_draw`: a positive integer or an int option; 0 or
/// less means none.
pub(super) fn repetition_draw(rules: &RawRules, cx: &mut Ctx) -> Option<u32> {
    cx.from("rules.ends.repetition_draw");
    count_or_none(rules.ends.repetition_draw.as_ref(), cx)
}

/// A count that may be an int option: `None` when absent, 0 or less.
fn count_or_none(s: Option<&Spanned<Param<i64>>>, cx: &mut Ctx) -> Option<u32> {
    s.and_then(|s| {
        cx.resolve(
            &s.value,
            s.referenced,
            |v| match v {
                Value::Int(i) => Some(*i),
                _ => None,
            },
            "an integer",
        )
        .and_then(|n| (n > 0).then(|| n.min(u32::MAX.into()) as u32))
    })
}

/// The id of the kind named `k` (`what` names the field in messages).
fn kind_id(kinds: &[Kind], cx: &mut Ctx, loc: Location, what: &str, k: &String) -> Option<KindId> {
    match kinds.iter().position(|x| x.name == *k) {
        Some(i) => Some(i as KindId),
        None => {
            cx.err_at(loc, format!("{what} names `{k}`, which is no piece kind"));
            None
        }
    }
}

/// `rules.ends.no_progress`: the fifty-move rule and its like.
pub(super) fn no_progress(rules: &RawRules, kinds: &[Kind], cx: &mut Ctx) -> Option<NoProgress> {
    rules.ends.no_progress.as_ref().and_then(|np| {
        let loc = np.referenced;
        let v = &np.value;
        let whole = |v: &Value| match v {
            Value::Int(i) => Some(*i),
            _ => None,
        };
        let plies = cx.resolve(&v.plies, loc, whole, "a whole number of plies")?;
        let Ok(plies @ 1..) = u32::try_from(plies) else {
            cx.err_at(
                loc,
                format!(
                    "`rules.ends.no_progress.plies: {plies}`: expected a number of plies from 1"
                ),
            );
            return None;
        };
        Some(NoProgress {
            plies,
            counter: v.counter.clone(),
            reset_kinds: v
                .reset_kinds
                .iter()
                .filter_map(|k| kind_id(kinds, cx, loc, "`rules.ends.no_progress.reset_kinds`", k))
                .collect(),
            reason: v
                .reason
                .clone()
                .unwrap_or_else(|| no_progress_reason(plies, kinds, &v.reset_kinds)),
        })
    })
}

/// The outcome's reason when `no_progress` gives none: the plies and what
/// resets the count (`100 plies without a capture or a move of a Pawn`).
fn no_progress_reason(plies: u32, kinds: &[Kind], reset: &[String]) -> String {
    let names: Vec<&str> = reset
        .iter()
        .filter_map(|k| kinds.iter().find(|x| x.name == *k))
        .map(|k| k.display.as_str())
        .collect();
    match names.split_last() {
        None => format!("{plies} plies without a capture"),
        Some((last, [])) => format!("{plies} plies without a capture or a move of a {last}"),
        Some((last, rest)) => format!(
            "{plies} plies without a capture or a move of a {} or {last}",
            rest.join(", ")
        ),
    }
}

/// `rules.script.after_action_when`: the clauses under which `rules.after_action`
/// is called after a move.
pub(super) fn after_action_when(
    rules: &RawRules,
    board: &Board,
    players: &[String],
    kinds: &[Kind],
    cx: &mut Ctx,
) -> Option<Vec<AfterActionWhen>> {
    let w = rules.script.after_action_when.as_ref()?;
    Some(clauses(w, "after_action_when", board, players, kinds, cx))
}

/// `rules.script.captures_when`: the clauses under which `rules.captures`
/// is asked about a move; `captures: true` cannot be one (what a move
/// captures is the hook's answer).
pub(super) fn captures_when(
    rules: &RawRules,
    board: &Board,
    players: &[String],
    kinds: &[Kind],
    cx: &mut Ctx,
) -> Option<Vec<AfterActionWhen>> {
    let w = rules.script.captures_when.as_ref()?;
    if w.value.iter().any(|v| v.captures) {
        cx.err_at(
            w.referenced,
            "`rules.script.captures_when` cannot hold `captures: true`: what a move captures is `rules.captures`'s answer",
        );
    }
    Some(clauses(w, "captures_when", board, players, kinds, cx))
}

/// The enabled clauses of the list `field` of `rules.script`.
fn clauses(
    w: &Spanned<Vec<RawAfterActionWhen>>,
    field: &str,
    board: &Board,
    players: &[String],
    kinds: &[Kind],
    cx: &mut Ctx,
) -> Vec<AfterActionWhen> {
    let loc = w.referenced;
    let mut out = Vec::new();
    for v in &w.value {
        if enabled(v, loc, cx) {
            out.push(clause(v, field, loc, board, players, kinds, cx));
        }
    }
    out
}

/// A clause's `enabled` (a boolean or a boolean option; true if absent).
fn enabled(v: &RawAfterActionWhen, loc: Location, cx: &mut Ctx) -> bool {
    cx.enabled(v.enabled.as_ref(), loc)
}

/// A per-player zone of a clause (`from_zone`, `to_zone`).
fn clause_zone(
    zone: Option<&String>,
    (list, field): (&str, &str),
    board: &Board,
    players: &[String],
    loc: Location,
    cx: &mut Ctx,
) -> Option<Vec<CellSet>> {
    zone.and_then(|z| {
        let cells =
            player_zones(board, players, z).map(|per| per.iter().map(|c| CellSet::of(c)).collect());
        if cells.is_none() {
            cx.err_at(
                loc,
                format!("`rules.script.{list}.{field}: {z}` names no zone"),
            );
        }
        cells
    })
}

/// One clause of the list `list` of `rules.script` (all placed at the
/// list's `loc`).
#[allow(clippy::too_many_arguments)]
fn clause(
    v: &RawAfterActionWhen,
    list: &str,
    loc: Location,
    board: &Board,
    players: &[String],
    kinds: &[Kind],
    cx: &mut Ctx,
) -> AfterActionWhen {
    AfterActionWhen {
        kinds: v
            .kinds
            .iter()
            .filter_map(|k| {
                let what = format!("`rules.script.{list}.kinds`");
                kind_id(kinds, cx, loc, &what, k)
            })
            .collect(),
        cells: CellSet::of(
            &v.cells
                .iter()
                .filter_map(|c| match board.parse_cells(c) {
                    Ok(cells) => Some(cells),
                    Err(e) => {
                        cx.err_at(loc, format!("`rules.script.{list}.cells`: {e}"));
                        None
                    }
                })
                .flatten()
                .collect::<Vec<Cell>>(),
        ),
        from_zone: clause_zone(
            v.from_zone.as_ref(),
            (list, "from_zone"),
            board,
            players,
            loc,
            cx,
        ),
        to_zone: clause_zone(
            v.to_zone.as_ref(),
            (list, "to_zone"),
            board,
            players,
            loc,
            cx,
        ),
        counters: v.counters.clone(),
        captures: v.captures,
    }
}

/// `rules.ends.win_when`: at least one condition; an attribute name that is a
/// plain name; a reason whose only placeholder is `{player}`.
pub(super) fn win_when(rules: &RawRules, cx: &mut Ctx) -> Option<WinWhen> {
    let w = rules.ends.win_when.as_ref()?;
    let (loc, v) = (w.referenced, &w.value);
    if v.holds_attr.is_none() && !v.alone {
        cx.err_at(
            loc,
            "`rules.ends.win_when` needs a condition: `holds_attr: NAME`, `alone: true` or both",
        );
        return None;
    }
    if let Some(a) = &v.holds_attr {
        if a.is_empty() || !a.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            cx.err_at(
                loc,
                format!("`rules.ends.win_when.holds_attr: {a}` is not an attribute name (letters, digits, `_`)"),
            );
            return None;
        }
    }
    // The default reason completes "X wins (…)" as the declared ends' do.
    let reason = v
        .reason
        .clone()
        .unwrap_or_else(|| match (&v.holds_attr, v.alone) {
            (Some(a), true) => {
                format!("{{player}} holds `{a}` with only {{player}}'s pieces on the board")
            }
            (Some(a), false) => format!("{{player}} holds `{a}`"),
            (None, _) => "only {player}'s pieces are on the board".into(),
        });
    if reason.replace("{player}", "").contains(['{', '}']) {
        cx.err_at(
            loc,
            format!("`rules.ends.win_when.reason: {reason}`: the only placeholder is `{{player}}`"),
        );
        return None;
    }
    Some(WinWhen {
        holds_attr: v.holds_attr.clone(),
        alone: v.alone,
        reason,
    })
}

/// The farthest a blast reaches (`blast.radius`): bounded work per
/// capture.
const MAX_BLAST_RADIUS: u8 = 3;

/// `blast`: its radius and spared kinds, on a grid board, and never
/// with captured pieces going to a hand (a blasted piece is gone).
pub(super) fn blast(
    raw: &RawVariant,
    board: &Board,
    kinds: &[Kind],
    hands: Option<&crate::variant::forms::Hands>,
    cx: &mut Ctx,
) -> Option<crate::variant::forms::Blast> {
    let raw = raw.blast.as_ref()?;
    cx.from("blast");
    let (v, loc) = (&raw.value, raw.referenced);
    let radius = v.radius.unwrap_or(1);
    let mut ok = true;
    if !(1..=MAX_BLAST_RADIUS).contains(&radius) {
        cx.err_at(
            loc,
            format!("`blast.radius: {radius}`: expected 1 to {MAX_BLAST_RADIUS} (king steps from the landing cell)"),
        );
        ok = false;
    }
    if board.graph.is_some() || board.shape != crate::base::geometry::Shape::Square {
        cx.err_at(
            loc,
            "`blast` needs a square board of files and ranks (a blast's radius counts king steps)",
        );
        ok = false;
    }
    if hands.is_some_and(|h| h.captures) {
        cx.err_at(
            loc,
            "`blast` contradicts `hands: { captures: true }`: a blasted piece is gone, it goes to no hand",
        );
        ok = false;
    }
    let mut spared = Vec::new();
    for k in &v.spared {
        let id = kind_id(kinds, cx, loc, "`blast.spared`", k);
        match id {
            Some(id) if spared.contains(&id) => {
                cx.err_at(loc, format!("`blast.spared` names `{k}` twice"));
                ok = false;
            }
            Some(id) => spared.push(id),
            None => ok = false,
        }
    }
    ok.then_some(crate::variant::forms::Blast { radius, spared })
}
