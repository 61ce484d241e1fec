//! The board's occupancy as masks of the first 128 cells, kept up to date
//! as pieces arrive, leave and change owner, and the cells that have
//! terrain, kept as terrain changes (derived data: equality ignores it),
//! so that boards of at most 64 cells are read as one 64-bit mask and
//! boards of at most 128 as one 128-bit mask.

use super::GameState;
use crate::geometry::Cell;
use crate::state::{KindId, PlayerId};

/// Cell `c`'s bit in [`GameState::occupied_wide`] (none beyond the 128th).
#[inline]
pub(super) fn cell_bit(c: Cell) -> u128 {
    // The word and the bit in it, without a 128-bit shift.
    let bit = 1u64.wrapping_shl(c as u32) as u128;
    match c / 64 {
        0 => bit,
        1 => bit << 64,
        _ => 0,
    }
}

/// Player `p`'s mask among masks by owner (none: 0).
#[inline]
pub(super) fn owned_in(owned: &[u128], p: usize) -> u128 {
    owned.get(p).copied().unwrap_or(0)
}

impl GameState {
    /// The occupied cells among the first 64 (bit `c` for cell `c`), kept
    /// up to date as pieces arrive and leave: for boards of at most 64
    /// cells, the occupancy as one mask.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.occupied as u64
    }

    /// The occupied cells among the first 128, kept up to date like
    /// [`GameState::occupied`]: for boards of at most 128 cells, the
    /// occupancy as one mask.
    #[inline]
    pub fn occupied_wide(&self) -> u128 {
        self.occupied
    }

    /// [`GameState::occupied_wide`] computed from the board itself.
    pub fn compute_occupied(&self) -> u128 {
        (self.board.iter().enumerate())
            .filter(|(_, slot)| slot.is_some())
            .fold(0, |m, (c, _)| m | cell_bit(c as Cell))
    }

    /// The cells among [`GameState::occupied`] that show a piece of
    /// `player`'s, kept up to date with it.
    #[inline]
    pub fn owned_by(&self, player: PlayerId) -> u64 {
        owned_in(&self.owned, player as usize) as u64
    }

    /// The cells among [`GameState::occupied_wide`] that show a piece of
    /// `player`'s.
    #[inline]
    pub fn owned_by_wide(&self, player: PlayerId) -> u128 {
        owned_in(&self.owned, player as usize)
    }

    /// The masks of [`GameState::owned_by_wide`], by owner, computed from
    /// the board itself.
    pub(super) fn compute_owned(&self) -> Vec<u128> {
        self.masks_by(|p| p.owner as usize)
    }

    /// Per value of `key` (a piece's owner, its kind), the cells among the
    /// first 128 that show such a piece, from the board itself.
    fn masks_by(&self, key: impl Fn(&super::Piece) -> usize) -> Vec<u128> {
        let mut masks = Vec::new();
        for (c, slot) in self.board.iter().enumerate().take(128) {
            if let Some(id) = slot {
                let k = key(&self.pieces[*id as usize]);
                if masks.len() <= k {
                    masks.resize(k + 1, 0);
                }
                masks[k] |= cell_bit(c as Cell);
            }
        }
        masks
    }

    /// The cells among [`GameState::occupied_wide`] that show a piece of
    /// `kind`, kept up to date with it; `None` where kinds are not tracked
    /// ([`GameState::track_kinds`]).
    #[inline]
    pub fn kind_cells_wide(&self, kind: KindId) -> Option<u128> {
        (!self.kinds_untracked).then(|| owned_in(&self.kinds_at, kind as usize))
    }

    /// Whether [`GameState::kind_cells_wide`] is kept (it is unless turned
    /// off: a variant that never asks spares its upkeep).
    pub fn track_kinds(&mut self, on: bool) {
        self.kinds_untracked = !on;
        self.kinds_at = self.compute_kinds_at();
    }

    /// The masks of [`GameState::kind_cells_wide`], by kind, computed
    /// from the board itself (none where kinds are not tracked).
    pub(super) fn compute_kinds_at(&self) -> Vec<u128> {
        match self.kinds_untracked {
            true => Vec::new(),
            false => self.masks_by(|p| p.kind as usize),
        }
    }

    /// The piece shown on `c` changes from kind `old` to `new`.
    #[inline(always)]
    pub(super) fn kind_changes(&mut self, c: Cell, old: KindId, new: KindId) {
        self.kind_at(old, c, false);
        self.kind_at(new, c, true);
    }

    /// Cell `c` shows a piece of `kind` (`on`), or no longer does.
    #[inline(always)]
    pub(super) fn kind_at(&mut self, kind: KindId, c: Cell, on: bool) {
        let bit = cell_bit(c);
        if self.kinds_untracked || bit == 0 {
            return;
        }
        let i = kind as usize;
        if self.kinds_at.len() <= i {
            self.kinds_at.resize(i + 1, 0);
        }
        match on {
            true => self.kinds_at[i] |= bit,
            false => self.kinds_at[i] &= !bit,
        }
    }

    /// Player `owner`'s mask, made on first use.
    #[inline(always)]
    pub(super) fn owned_mut(&mut self, owner: PlayerId) -> &mut u128 {
        let i = owner as usize;
        if self.owned.len() <= i {
            self.owned.resize(i + 1, 0);
        }
        &mut self.owned[i]
    }

    /// Each cell's terrain bits.
    #[inline]
    pub fn terrain(&self) -> &[u32] {
        &self.terrain
    }

    /// The cells among the first 128 whose terrain is not empty, kept up
    /// to date as terrain changes: blocked cells are found among them
    /// without reading every cell's terrain.
    #[inline]
    pub fn terrained(&self) -> u128 {
        self.terrained
    }

    /// [`GameState::terrained`] computed from the terrain itself.
    pub(super) fn compute_terrained(&self) -> u128 {
        (self.terrain.iter().enumerate())
            .filter(|(_, t)| **t != 0)
            .fold(0, |m, (c, _)| m | cell_bit(c as Cell))
    }

    /// Sets cell `c`'s terrain bits (a cell off the board is ignored).
    pub fn set_cell_terrain(&mut self, c: Cell, bits: u32) {
        if let Some(t) = self.terrain.get_mut(c as usize) {
            *t = bits;
            if bits == 0 {
                self.terrained &= !cell_bit(c);
            } else {
                self.terrained |= cell_bit(c);
            }
        }
    }

    /// Replaces every cell's terrain (one value per cell of the board).
    pub fn set_terrain(&mut self, terrain: Vec<u32>) {
        self.terrain = terrain;
        self.terrained = self.compute_terrained();
    }

    /// Recomputes the board's key and occupancy from the board.
    pub(super) fn rekey(&mut self) {
        self.board_key = self.compute_board_key();
        self.occupied = self.compute_occupied();
        self.owned = self.compute_owned();
        self.kinds_at = self.compute_kinds_at();
        self.terrained = self.compute_terrained();
    }

    /// Whether the masks match the board and the terrain they are kept
    /// from (part of [`GameState::check_consistency`]).
    pub(super) fn check_masks(&self) -> Result<(), String> {
        if self.occupied != self.compute_occupied() {
            return Err("the occupied cells' mask does not match the board".into());
        }
        if self.terrained != self.compute_terrained() {
            return Err("the mask of cells with terrain does not match the terrain".into());
        }
        if (0..self.owned.len().max(self.players as usize))
            .any(|p| self.owned_by_wide(p as PlayerId) != owned_in(&self.compute_owned(), p))
        {
            return Err("a player's cells' mask does not match the board".into());
        }
        let kinds = self.compute_kinds_at();
        if (0..self.kinds_at.len().max(kinds.len()))
            .any(|k| owned_in(&self.kinds_at, k) != owned_in(&kinds, k))
        {
            return Err("a kind's cells' mask does not match the board".into());
        }
        Ok(())
    }
}
