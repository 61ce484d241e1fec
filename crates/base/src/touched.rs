//! The log of cells changed since a consumer last looked (see
//! [`Touched`]). A child of `state`.

use crate::geometry::Cell;

/// How many changed cells [`Touched`] lists before it gives up listing.
pub(super) const TOUCHED_CELLS: usize = 8;

/// The cells whose piece changed (a piece arrived or left, or its kind
/// changed) since the log was last cleared, for consumers that keep
/// something up to date from ply to ply (the move sampler); or "everything"
/// when they cannot be listed (too many, terrain changed, a fresh state).
/// Every change of `board`, a piece's kind or `terrain` goes through
/// [`GameState`](crate::state::GameState)'s methods, which keep it.
#[derive(Clone, Copy, Debug)]
pub struct Touched {
    cells: [Cell; TOUCHED_CELLS],
    len: u8,
    all: bool,
}

impl Default for Touched {
    fn default() -> Self {
        Touched {
            cells: [0; TOUCHED_CELLS],
            len: 0,
            all: true,
        }
    }
}

impl Touched {
    /// Notes a changed cell.
    #[inline]
    pub fn cell(&mut self, c: Cell) {
        if self.all {
            return;
        }
        if (self.len as usize) < TOUCHED_CELLS {
            self.cells[self.len as usize] = c;
            self.len += 1;
        } else {
            self.all = true;
        }
    }

    /// Notes a change that cannot be listed by cell.
    pub fn everything(&mut self) {
        self.all = true;
    }

    /// The changed cells, or `None` for "everything"; the log starts empty
    /// again.
    pub fn take(&mut self) -> Option<([Cell; TOUCHED_CELLS], usize)> {
        let out = (!self.all).then_some((self.cells, self.len as usize));
        self.all = false;
        self.len = 0;
        out
    }
}
