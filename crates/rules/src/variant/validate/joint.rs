//! `rules.bookkeeping.joint_moves` and `rules.bookkeeping.passing`: the players, kinds, cells and
//! direction they name, each problem placed at its entry.
//!
//! Changes when those declarations gain a field.

use serde_saphyr::Location;

use super::Ctx;
use crate::base::geometry::{Board, Cell};
use crate::base::state::{KindId, PlayerId};
use crate::variant::raw_rules::{RawJointMove, RawRules};
use crate::variant::{JointMove, JointMoves, Kind, Passing};

/// `rules.bookkeeping.joint_moves`, each move checked.
pub(super) fn joint_moves(
    rules: &RawRules,
    board: &Board,
    players: &[String],
    kinds: &[Kind],
    cx: &mut Ctx,
) -> Option<JointMoves> {
    let raw = rules.bookkeeping.joint_moves.as_ref()?;
    cx.from("rules.bookkeeping.joint_moves");
    let moves = raw
        .value
        .moves
        .iter()
        .filter_map(|m| joint_move(&m.value, m.referenced, board, players, kinds, cx))
        .collect();
    Some(JointMoves {
        counter: raw.value.counter.clone(),
        moves,
    })
}

/// One entry of `rules.bookkeeping.joint_moves.moves`.
fn joint_move(
    m: &RawJointMove,
    loc: Location,
    board: &Board,
    players: &[String],
    kinds: &[Kind],
    cx: &mut Ctx,
) -> Option<JointMove> {
    let what = "`rules.bookkeeping.joint_moves`";
    let player = player_id(players, cx, loc, what, &m.player);
    let piece = kind_id(kinds, cx, loc, what, &m.piece);
    let partner = kind_id(kinds, cx, loc, what, &m.partner);
    let mut cell = |c: &String| one_cell(board, cx, loc, what, c);
    let (from, to) = (cell(&m.from), cell(&m.to));
    let (partner_from, partner_to) = (cell(&m.partner_from), cell(&m.partner_to));
    let empty = cells(board, cx, loc, what, &m.empty);
    let safe = cells(board, cx, loc, what, &m.safe);
    if m.right <= 0 || m.right.count_ones() != 1 {
        cx.err_at(
            loc,
            format!(
                "{what}: `right: {}` is not a single bit (1, 2, 4, ...)",
                m.right
            ),
        );
        return None;
    }
    Some(JointMove {
        player: player?,
        right: m.right,
        piece: piece?,
        from: from?,
        to: to?,
        partner: partner?,
        partner_from: partner_from?,
        partner_to: partner_to?,
        empty: empty?,
        safe: safe?,
    })
}

/// `rules.bookkeeping.passing`: its kinds and its direction (one step, per player).
pub(super) fn passing(
    rules: &RawRules,
    board: &Board,
    players: &[String],
    kinds: &[Kind],
    cx: &mut Ctx,
) -> Option<Passing> {
    let raw = rules.bookkeeping.passing.as_ref()?;
    cx.from("rules.bookkeeping.passing");
    let (v, loc) = (&raw.value, raw.referenced);
    let what = "`rules.bookkeeping.passing.kinds`";
    let ks: Vec<KindId> = v
        .kinds
        .iter()
        .filter_map(|k| kind_id(kinds, cx, loc, what, k))
        .collect();
    let Some(dir) = board
        .directions(&v.direction)
        .filter(|d| d.deltas.len() == 1)
    else {
        cx.err_at(
            loc,
            format!(
                "`rules.bookkeeping.passing.direction: {}` names no direction of a single step (say `forward`)",
                v.direction
            ),
        );
        return None;
    };
    let (df, dr) = dir.deltas[0];
    let step = (0..players.len())
        .map(|p| (df, if dir.relative && p % 2 == 1 { -dr } else { dr }))
        .collect();
    Some(Passing {
        counter: v.counter.clone(),
        kinds: ks,
        step,
    })
}

fn player_id(
    players: &[String],
    cx: &mut Ctx,
    loc: Location,
    what: &str,
    p: &str,
) -> Option<PlayerId> {
    let found = players.iter().position(|x| x == p);
    if found.is_none() {
        cx.err_at(loc, format!("{what} names `{p}`, which is no player"));
    }
    found.map(|i| i as PlayerId)
}

fn kind_id(kinds: &[Kind], cx: &mut Ctx, loc: Location, what: &str, k: &str) -> Option<KindId> {
    let found = kinds.iter().position(|x| x.name == k);
    if found.is_none() {
        cx.err_at(loc, format!("{what} names `{k}`, which is no piece kind"));
    }
    found.map(|i| i as KindId)
}

fn one_cell(board: &Board, cx: &mut Ctx, loc: Location, what: &str, c: &str) -> Option<Cell> {
    let found = board.parse_cell(c);
    if found.is_none() {
        cx.err_at(
            loc,
            format!("{what}: `{c}` is no cell of the {board} board"),
        );
    }
    found
}

fn cells(
    board: &Board,
    cx: &mut Ctx,
    loc: Location,
    what: &str,
    list: &[String],
) -> Option<Vec<Cell>> {
    let mut out = Vec::new();
    let mut ok = true;
    for c in list {
        match board.parse_cells(c) {
            Ok(v) => out.extend(v),
            Err(e) => {
                cx.err_at(loc, format!("{what}: {e}"));
                ok = false;
            }
        }
    }
    ok.then_some(out)
}
