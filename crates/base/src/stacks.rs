//! Stacks: several pieces of one owner and kind on one cell (a variant's
//! `board.stacks`). The board shows one of them; the count per cell is a
//! plain array beside it. A child of `state`, whose fields it keeps.

use super::{GameState, PieceId};
use crate::geometry::Cell;

/// Whether two pieces may stand in one stack: one kind, one owner.
pub(super) fn same_stack(a: &super::Piece, b: &super::Piece) -> bool {
    a.kind == b.kind && a.owner == b.owner
}

impl GameState {
    /// The stacks' counts agree with where the pieces are.
    pub(super) fn check_stacks(&self) -> Result<(), String> {
        if self.stacks.is_empty() {
            return Ok(());
        }
        let mut counts = vec![0u8; self.board.len()];
        for p in &self.pieces {
            if let super::Loc::Cell(c) = p.loc {
                counts[c as usize] = counts[c as usize].saturating_add(1);
            }
        }
        if counts != self.stacks {
            return Err("the stacks' counts do not match the pieces".into());
        }
        Ok(())
    }

    /// Whether pieces stack here (several of one owner and kind on a cell).
    pub fn stacks_pieces(&self) -> bool {
        !self.stacks.is_empty()
    }

    /// Lets pieces stack on cells (a variant's `board.stacks`); the counts
    /// are taken from where the pieces are.
    pub fn enable_stacks(&mut self) {
        let mut counts = vec![0u8; self.board.len()];
        for p in &self.pieces {
            if let super::Loc::Cell(c) = p.loc {
                counts[c as usize] = counts[c as usize].saturating_add(1);
            }
        }
        self.stacks = counts;
    }

    /// Makes `id`, one of the pieces of the stack on `cell`, the one the
    /// board shows (a position read from a file names it first).
    pub fn show_on_stack(&mut self, cell: Cell, id: PieceId) -> Result<(), String> {
        let on_cell = self
            .pieces
            .get(id as usize)
            .is_some_and(|p| p.loc == super::Loc::Cell(cell));
        match self.board.get(cell as usize) {
            Some(Some(_)) if on_cell => {
                self.board[cell as usize] = Some(id);
                Ok(())
            }
            _ => Err(format!("piece {id} is not on cell {cell}")),
        }
    }

    /// How many pieces stand on a cell (0 or 1 where nothing stacks).
    #[inline]
    pub fn count_at(&self, cell: Cell) -> u8 {
        match self.stacks.get(cell as usize) {
            Some(&n) => n,
            None => self.piece_at(cell).is_some() as u8,
        }
    }

    /// The piece the board shows on a cell that stacks, when it has one.
    pub(super) fn stack_top(&self, cell: Cell) -> Option<PieceId> {
        if self.stacks.is_empty() {
            return None;
        }
        self.piece_at(cell)
    }

    /// When the cell already shows a piece and pieces stack: counts one
    /// more there (the caller has set the piece's location) and says so.
    pub(super) fn stack_onto(&mut self, cell: Cell) -> bool {
        if self.stacks.is_empty() {
            return false;
        }
        let n = &mut self.stacks[cell as usize];
        *n = n.saturating_add(1);
        if self.board[cell as usize].is_some() {
            self.touched.cell(cell);
            return true;
        }
        false
    }
}
