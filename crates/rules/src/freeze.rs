//! Declared freezing (a kind's `freezes:`): which pieces of a player cannot
//! move because an enemy freezer stands next to them, computed natively
//! from the kinds' declarations (see [`Freeze`]).
//!
//! Changes when what a declared freeze can say changes.

use crate::base::geometry::{Board, Cell};
use crate::base::state::{GameState, Loc, PlayerId};
use crate::variant::{Freeze, Kind};

/// Whether any kind declares a freeze.
pub fn declares_freeze(kinds: &[Kind]) -> bool {
    kinds.iter().any(|k| k.freezes.is_some())
}

/// Appends the cells of `player`'s pieces that a declared freeze holds, in
/// cell order without repeats (nothing when no kind declares one).
pub fn frozen_by_declaration(
    kinds: &[Kind],
    board: &Board,
    s: &GameState,
    player: PlayerId,
    out: &mut Vec<Cell>,
) {
    let start = out.len();
    for freezer in &s.pieces {
        let (Loc::Cell(at), Some(f)) = (freezer.loc, &kinds[freezer.kind as usize].freezes) else {
            continue;
        };
        if freezer.owner == player {
            continue;
        }
        let (af, ar) = board.coords(at);
        for &(df, dr) in &f.near {
            let Some(c) = board.cell(af + df as i32, ar + dr as i32) else {
                continue;
            };
            let Some(id) = s.board()[c as usize] else {
                continue;
            };
            let victim = &s.pieces[id as usize];
            if victim.owner == player
                && f.kinds.as_ref().is_none_or(|k| k.contains(&victim.kind))
                && !neutralized(f, board, s, at, c, player)
            {
                out.push(c);
            }
        }
    }
    out[start..].sort_unstable();
    let mut kept = start;
    for i in start..out.len() {
        if kept == start || out[kept - 1] != out[i] {
            out[kept] = out[i];
            kept += 1;
        }
    }
    out.truncate(kept);
}

/// Whether the freezer on `at` is kept from freezing `player`'s piece on
/// `victim` by another piece of `player` of an `unless_beside` kind next to it.
fn neutralized(
    f: &Freeze,
    board: &Board,
    s: &GameState,
    at: Cell,
    victim: Cell,
    player: PlayerId,
) -> bool {
    !f.unless_beside.is_empty()
        && f.near.iter().any(|&d| {
            board.offset(at, d).is_some_and(|m| {
                m != victim
                    && s.board()[m as usize].is_some_and(|id| {
                        let p = &s.pieces[id as usize];
                        p.owner == player && f.unless_beside.contains(&p.kind)
                    })
            })
        })
}
