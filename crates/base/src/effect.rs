//! Effects: what a rule did to the state, as data the engine reports in its
//! events and views describe.

use crate::geometry::Cell;
use crate::state::{PieceId, PlayerSet};

/// Who a strike removes, as `rules.strike` answers it (`"attacker"`: the
/// striker wins, `"defender"`, `"both"`, `"none"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strike {
    /// The striker wins: the defender is removed (and the striker moves in).
    AttackerWins,
    /// The defender wins: the striker is removed.
    DefenderWins,
    /// Both are removed.
    BothRemoved,
    /// Nothing happens.
    NoEffect,
}

impl Strike {
    /// The answers a script may give, for error messages.
    pub const ANSWERS: &'static str = "\"attacker\", \"defender\", \"both\" or \"none\"";

    /// The strike a script's answer names.
    pub fn parse(answer: &str) -> Option<Strike> {
        Some(match answer {
            "attacker" => Strike::AttackerWins,
            "defender" => Strike::DefenderWins,
            "both" => Strike::BothRemoved,
            "none" => Strike::NoEffect,
            _ => return None,
        })
    }

    /// The answer a script gives for it.
    pub fn as_str(self) -> &'static str {
        match self {
            Strike::AttackerWins => "attacker",
            Strike::DefenderWins => "defender",
            Strike::BothRemoved => "both",
            Strike::NoEffect => "none",
        }
    }

    /// Whether it removes the striker.
    pub fn removes_attacker(self) -> bool {
        matches!(self, Strike::DefenderWins | Strike::BothRemoved)
    }

    /// Whether it removes the defender.
    pub fn removes_defender(self) -> bool {
        matches!(self, Strike::AttackerWins | Strike::BothRemoved)
    }

    /// The pieces it removes: of `attacker` and `defender`, the losers.
    pub fn removed(self, attacker: PieceId, defender: PieceId) -> impl Iterator<Item = PieceId> {
        [
            (attacker, self.removes_attacker()),
            (defender, self.removes_defender()),
        ]
        .into_iter()
        .filter_map(|(p, gone)| gone.then_some(p))
    }
}

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
        owner: crate::state::PlayerId,
    },
    Note(String),
}
