//! Declared sight, validated: for each kind what a piece of it sees, and
//! the cells each player always sees. The host computes a player's sight
//! from it (`crates/engine/src/sight.rs`); views show nothing of a cell outside.

use crate::base::geometry::Cell;

/// What one kind's pieces see.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KindSight {
    /// The cell the piece stands on.
    pub occupied: bool,
    /// The targets of its moves (and the cells its captures take on).
    pub moves: bool,
    /// Cells within this many king steps.
    pub radius: u8,
    /// Deltas of the lines of sight, blocked by pieces and blocking terrain.
    pub lines: Vec<(i8, i8)>,
    /// Cells along each line (0: to the edge).
    pub range: u8,
}

/// The variant's `sight:`: present only in a variant with fog of war.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sight {
    /// By kind id.
    pub kinds: Vec<KindSight>,
    /// By player: the cells always seen (`zones:`).
    pub zones: Vec<Vec<Cell>>,
    /// The passed cell is seen by whoever could take on it (`passed:`).
    pub passed: bool,
}

impl Sight {
    /// Whether any kind sees along its moves (the host then lists them).
    pub fn uses_moves(&self) -> bool {
        self.kinds.iter().any(|k| k.moves)
    }
}
