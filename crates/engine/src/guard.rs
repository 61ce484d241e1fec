//! The self-check test's [`Guard`]: what it knows of one position (the
//! royal cells, the board as masks, the royal piece's lines or the
//! constraints of `legal.rs`) and the buffers it keeps between positions,
//! lent from a pool of one per thread. `check.rs` fills it and tests moves
//! with it.
//!
//! Changes when what the self-check test keeps about a position changes.

use crate::base::geometry::Cell;
use crate::base::state::PieceId;
use crate::bits::CellMask;
use crate::legal::{Constraints, Need};
use crate::ActionError;

/// The lines from the royal pieces, per cell (see [`Guard::rays`]).
#[derive(Clone, Debug)]
pub(super) enum Rays {
    /// The row of the engine's table for the one royal piece's cell
    /// ([`royal_lines`](super::legal::royal_lines)), at this offset.
    Row(usize),
    /// Built for this position (several royal pieces).
    Built(Vec<u32>),
}

/// See [`Engine::guard`](super::Engine::guard).
#[derive(Clone, Debug, Default)]
pub(crate) struct Guard {
    pub(super) native: bool,
    /// The board's occupied cells and those whose terrain blocks, as
    /// masks, when check is native and the attack table has masks.
    pub(super) masks: Option<(CellMask, CellMask)>,
    pub(super) royals: Vec<Cell>,
    /// Whether `constraints` hold what the single royal piece asks of the
    /// others' moves (movement is plain, `legal.rs`); `rays` are then not
    /// needed.
    pub(super) legal: bool,
    /// Their buffers, kept between positions (boxed: a guard moves).
    pub(super) constraints: Option<Box<Constraints>>,
    /// Per cell: bit `i` when it lies on line `i` (of the slide lines) from
    /// a royal piece; [`ROYAL_CELL`](super::legal::ROYAL_CELL) on a royal piece. `None`: test every
    /// move in full.
    pub(super) rays: Option<Rays>,
    /// A copy of the board to try moves on (native check).
    pub(super) scratch: Vec<Option<PieceId>>,
    /// With `rays`: the cells where an enemy could capture the (single)
    /// royal piece once it has left its cell; made for its first move.
    pub(super) reach: Option<Option<Vec<bool>>>,
    /// Scripted check (`rules.check_cells`): the cells that can matter.
    pub(super) relevant: Option<Vec<bool>>,
    /// Whether an enemy piece stands on one of them (then what a move
    /// captures has to be asked).
    pub(super) enemy_relevant: bool,
    /// An empty buffer for `reach`'s map.
    pub(super) spare_map: Vec<bool>,
    /// Made by [`Engine::prepare_draws`](super::Engine::prepare_draws) to test each move on the masks.
    pub(super) draws: bool,
    /// How many moves of the royal piece were tested (counting from 1,
    /// or from 0 in a guard for random draws: [`Engine::prepare_draws`](super::Engine::prepare_draws)).
    pub(super) royal_moves: u8,
    /// The first error of a query hook asked while testing moves.
    pub(super) error: Option<ActionError>,
    /// An empty buffer for `rays` when they are built.
    pub(super) spare_rays: Vec<u32>,
}

impl Guard {
    /// The guard emptied for another position, its buffers kept.
    pub(super) fn reset(&mut self) {
        self.royals.clear();
        self.scratch.clear();
        if let Some(Rays::Built(mut rays)) = self.rays.take() {
            rays.clear();
            self.spare_rays = rays;
        }
        if let Some(Some(mut map)) = self.reach.take() {
            map.clear();
            self.spare_map = map;
        }
        self.masks = None;
        self.draws = false;
        self.legal = false;
        self.relevant = None;
        self.enemy_relevant = false;
        self.royal_moves = 1;
        self.error = None;
    }

    /// What the moves of the piece on `from` need: [`Need::Each`] unless
    /// the position's constraints are known.
    #[inline]
    pub(crate) fn need(&self, from: Cell) -> Need {
        match (&self.constraints, self.legal) {
            (Some(c), true) => c.need(from),
            _ => Need::Each,
        }
    }

    /// The error of a query hook that failed while moves were tested (they
    /// were then forbidden), if any.
    pub(crate) fn result(&mut self) -> Result<(), ActionError> {
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

thread_local! {
    /// The guard [`Engine::guard`](super::Engine::guard) lends, with its buffers (one per
    /// thread, so that the check test allocates nothing).
    pub(super) static GUARD_POOL: std::cell::Cell<Option<Box<Guard>>> = const { std::cell::Cell::new(None) };
}

/// Gives a guard lent by [`Engine::guard`](super::Engine::guard) back to the thread's pool (one
/// dropped instead is only not reused).
pub(crate) fn return_guard(g: Box<Guard>) {
    GUARD_POOL.with(|p| p.set(Some(g)));
}
