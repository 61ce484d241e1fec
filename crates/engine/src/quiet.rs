//! Quiet steps as masks: for a kind whose every declared move is one step
//! onto an empty cell (no zone, condition or terrain rule of its own), the
//! cells one step away from each cell, per player, as a 64-bit mask, so
//! that a piece's moves are one AND with the empty cells, in cell order as
//! the general scan lists them. Only on boards of at most 64 cells where no
//! terrain blocks; held equal to the general scan by
//! `tests/listing.rs` (through [`crate::Exhaustive`], which turns
//! it off).
//!
//! Changes when what counts as a quiet step changes.

use crate::base::state::{KindId, PlayerId};
use crate::rules::variant::{MovePattern, Variant};
use crate::tables::MoveTables;

/// Per kind (when every move of it is a quiet step), per player and cell,
/// the cells one step away.
#[derive(Clone, Debug)]
pub struct QuietSteps {
    cells: usize,
    /// Per kind: `None`, or the masks by `player * cells + cell`.
    kinds: Vec<Option<Vec<u64>>>,
    /// Every cell of the board.
    pub all: u64,
}

impl QuietSteps {
    /// The masks of the variant's kinds whose moves are all quiet steps;
    /// `None` when no kind's are, or the board is too large or has
    /// blocking terrain.
    pub fn new(v: &Variant, tables: &MoveTables) -> Option<QuietSteps> {
        let b = &v.board;
        let cells = b.cell_count();
        if cells > 64 || b.blocking != 0 {
            return None;
        }
        let players = v.players.len().max(1);
        let kinds: Vec<Option<Vec<u64>>> = v
            .kinds
            .iter()
            .enumerate()
            .map(|(k, kind)| {
                let quiet = !kind.moves.is_empty()
                    && kind.barred == 0
                    && kind.no_stop == 0
                    && kind.moves.iter().all(|m| match m {
                        MovePattern::Step { target, lame, .. } => {
                            target.empty
                                && !target.enemy
                                && !lame
                                && target.from_zone.is_none()
                                && target.to_zone.is_none()
                                && target.when.is_none()
                                && !target.conditioned()
                        }
                        _ => false,
                    });
                quiet.then(|| {
                    let mut masks = vec![0u64; players * cells];
                    for p in 0..players {
                        for c in 0..cells {
                            for pi in 0..kind.moves.len() {
                                for &d in tables.dirs(k, pi, p as PlayerId) {
                                    let to = tables.line(d)[c];
                                    if (to as usize) < cells {
                                        masks[p * cells + c] |= 1 << to;
                                    }
                                }
                            }
                        }
                    }
                    masks
                })
            })
            .collect();
        if kinds.iter().all(Option::is_none) {
            return None;
        }
        let all = if cells == 64 {
            u64::MAX
        } else {
            (1u64 << cells) - 1
        };
        Some(QuietSteps { cells, kinds, all })
    }

    /// Whether every move of `kind` is a quiet step.
    pub fn covers(&self, kind: usize) -> bool {
        self.kinds.get(kind).is_some_and(Option::is_some)
    }

    /// The cells one quiet step from `from` for a `kind` of player `p`,
    /// when every move of the kind is one.
    #[inline]
    pub fn of(&self, kind: KindId, p: PlayerId, from: usize) -> Option<u64> {
        let masks = self.kinds.get(kind as usize)?.as_ref()?;
        masks.get(p as usize * self.cells + from).copied()
    }
}
