//! Where the listing's moves go ([`MoveSink`]), and perft's last ply
//! counted rather than listed: the moves of a piece that need no
//! self-check test arrive as one mask of target cells, which a
//! [`LeafCounter`] counts with a population count, only looking one by
//! one at those that may promote. The counts are the ones the listing
//! gives (`tests/perft/` holds them to the published figures, and
//! `tests/listing.rs` to the list).
//!
//! Changes when what the last ply of a perft counts changes.

use crate::apply::{PROMOTES_ENTERING, PROMOTES_LEAVING};
use crate::base::geometry::Cell;
use crate::base::state::GameState;
use crate::rules::lua::RuleHook;
use crate::{Action, ActionError, Engine};

/// What the listing hands its legal moves to.
pub(super) trait MoveSink {
    /// One legal move; `true` stops the listing.
    fn one(&mut self, a: Action) -> bool;

    /// The moves from `from` to every cell of `to_cells` (bits of cell
    /// numbers), all legal; `true` stops the listing.
    fn all_of(&mut self, from: Cell, mut to_cells: u64) -> bool {
        while to_cells != 0 {
            let to = to_cells.trailing_zeros() as Cell;
            to_cells &= to_cells - 1;
            if self.one(Action::Move { from, to }) {
                return true;
            }
        }
        false
    }
}

impl<F: FnMut(Action) -> bool> MoveSink for F {
    #[inline]
    fn one(&mut self, a: Action) -> bool {
        self(a)
    }
}

/// Counts the leaves below moves as perft's last ply does: one a move, or
/// a promotion's every choice for a move onto (or from) a promotion cell.
struct LeafCounter<'a> {
    e: &'a Engine,
    s: &'a GameState,
    leaves: u64,
}

impl LeafCounter<'_> {
    #[inline]
    fn flags(&self, c: Cell) -> u8 {
        self.e
            .promotion_cells()
            .get(c as usize)
            .copied()
            .unwrap_or(0)
    }
}

impl MoveSink for LeafCounter<'_> {
    #[inline]
    fn one(&mut self, a: Action) -> bool {
        self.leaves += match a {
            Action::Move { from, to }
                if self.flags(to) & PROMOTES_ENTERING != 0
                    || self.flags(from) & PROMOTES_LEAVING != 0 =>
            {
                self.e.promotion_options(self.s, &a)
            }
            _ => 1,
        };
        false
    }

    #[inline]
    fn all_of(&mut self, from: Cell, to_cells: u64) -> bool {
        let (entering, leaving) = self.e.promotion_masks();
        if self.flags(from) & PROMOTES_LEAVING != 0 || leaving {
            return self.one_by_one(from, to_cells);
        }
        self.leaves += (to_cells & !entering).count_ones() as u64;
        self.one_by_one(from, to_cells & entering)
    }
}

impl LeafCounter<'_> {
    #[inline]
    fn one_by_one(&mut self, from: Cell, mut to_cells: u64) -> bool {
        while to_cells != 0 {
            let to = to_cells.trailing_zeros() as Cell;
            to_cells &= to_cells - 1;
            self.one(Action::Move { from, to });
        }
        false
    }
}

impl Engine {
    /// Whether the last ply of a perft may be counted without listing it
    /// ([`Engine::count_leaves`]): the moves are the pieces' own and the
    /// host's (no move language, script filter, scripted or declared
    /// actions, draw offers), and only native promotions follow a move;
    /// not under [`crate::Exhaustive`], whose perft lists.
    pub(super) fn counts_leaves(&self) -> bool {
        !self.lang.on
            && !self.rules.has(RuleHook::Filter)
            && !self.rules.has(RuleHook::Actions)
            && !self.rules.has(RuleHook::OnChoice)
            && !self.rules.has(RuleHook::AfterAction)
            && self.variant.actions.is_empty()
            && !self.variant.draw_offers
            && self.shortcuts
    }

    /// The leaves one ply below `s` as perft counts them (the legal
    /// moves, and each promotion's choices), when they can be counted
    /// without a list: `None` when a choice or a reaction window is open,
    /// or an extra move (a joint or passing move, a script's extra move)
    /// is among the moves, whose list is then needed (it may repeat a
    /// piece's own move). Only where [`Engine::counts_leaves`].
    pub(super) fn count_leaves(&self, s: &GameState) -> Result<Option<u64>, ActionError> {
        if s.outcome.is_some() {
            return Ok(Some(0));
        }
        if !s.pending.is_empty() || !s.windows.is_empty() {
            return Ok(None);
        }
        let p = s.to_move;
        let frozen = self.frozen_cells(s, p)?;
        let mut counter = LeafCounter {
            e: self,
            s,
            leaves: 0,
        };
        let extras = self.visit_moves(s, p, &frozen, true, &mut counter)?;
        Ok((!extras).then_some(counter.leaves))
    }
}
