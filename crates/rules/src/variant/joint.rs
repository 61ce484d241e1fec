//! Declared moves beyond one piece's pattern (the `rules:` keys
//! `joint_moves` and `passing`, as validated): two pieces moving at once
//! under a right kept in a counter, and a long straight move whose crossed
//! cell stays open to capture for one ply.
//!
//! Changes when these declarations gain a field.

use crate::base::geometry::Cell;
use crate::base::state::{KindId, PlayerId};

/// `rules.bookkeeping.joint_moves`: moves of two pieces at once, each open while its
/// bit of the global counter `counter` is set.
#[derive(Clone, Debug)]
pub struct JointMoves {
    pub counter: String,
    pub moves: Vec<JointMove>,
}

/// One joint move: `player`'s `piece` goes `from` → `to` and its `partner`
/// `partner_from` → `partner_to`, while the bit `right` of the counter is
/// set, the `empty` cells are empty and the mover could not be captured
/// standing on any of the `safe` cells (checked on `from` with the board as
/// it is, elsewhere with the mover moved there). A move that starts or ends
/// on `from` or `partner_from` clears the bit.
#[derive(Clone, Debug)]
pub struct JointMove {
    pub player: PlayerId,
    pub right: i64,
    pub piece: KindId,
    pub from: Cell,
    pub to: Cell,
    pub partner: KindId,
    pub partner_from: Cell,
    pub partner_to: Cell,
    pub empty: Vec<Cell>,
    pub safe: Vec<Cell>,
}

/// `rules.bookkeeping.passing`: a piece of one of `kinds` that moves straight along its
/// owner's `step` (per player) two or more cells leaves the cell before its
/// target passed: the global counter `counter` holds 1 + that cell for one
/// ply (0: none), set only when an enemy piece of one of `kinds` could move
/// onto it were the passer standing there; that move then takes the passer.
#[derive(Clone, Debug)]
pub struct Passing {
    pub counter: String,
    pub kinds: Vec<KindId>,
    /// Each player's step (file, rank delta) along the passing direction.
    pub step: Vec<(i8, i8)>,
}
