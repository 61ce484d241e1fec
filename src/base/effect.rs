//! Effects: what a rule did to the state, as data the engine reports in its
//! events and views describe.

use crate::base::geometry::Cell;
use crate::base::state::{PieceId, PlayerSet};

/// Something a rule did, reported back to the engine.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    Revealed {
        piece: PieceId,
        to: PlayerSet,
    },
    Captured {
        piece: PieceId,
        cell: Option<Cell>,
    },
    Moved {
        piece: PieceId,
        from: Option<Cell>,
        to: Cell,
    },
    /// A piece changed owner (flanked and flipped).
    Flipped {
        piece: PieceId,
        cell: Cell,
        owner: crate::base::state::PlayerId,
    },
    Note(String),
}
