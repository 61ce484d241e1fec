//! The vocabulary of play: what an action is ([`Action`]), what applying one
//! reports ([`Event`]) and why one is refused ([`ActionError`]).

use std::fmt;

use crate::base::effect::Effect;
use crate::base::geometry::Cell;
use crate::base::state::{Outcome, PieceId, PlayerId};

/// An action as data. Its canonical text form (see [`Engine::action_text`])
/// parses back with [`Engine::parse_action`].
///
/// [`Engine::action_text`]: super::Engine::action_text
/// [`Engine::parse_action`]: super::Engine::parse_action
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// A piece goes from one cell to another: a move, or a strike when the
    /// target holds an enemy. Text: `a4-a5`.
    Move { from: Cell, to: Cell },
    /// The answer to the first pending choice: the index of the option.
    /// Text: the option's label.
    Choose { index: u16 },
    /// Offer a draw (the turn goes on). Text: `offer-draw`.
    OfferDraw,
    /// Accept the opponent's standing draw offer. Text: `accept-draw`.
    AcceptDraw,
    /// One of the actions the rules script lists (`rules.actions`), by index
    /// in that list. Text: its label.
    Scripted { index: u16 },
    /// A declared action (`actions:` in the variant): the declaration's
    /// number and its parameters' cells (unused ones 0). Text: from the
    /// declaration's `text`.
    Declared { kind: u8, a: Cell, b: Cell },
    /// Decline to react in the open reaction window. Text: `pass`.
    Pass,
}

impl Action {
    /// Actions that are about the game rather than in it (draw offers):
    /// random agents leave them alone.
    pub fn is_social(&self) -> bool {
        matches!(self, Action::OfferDraw | Action::AcceptDraw)
    }
}

/// The counter that holds a standing draw offer (the offering player + 1).
pub(super) const DRAW_OFFER: &str = "draw_offer";

/// Something that happened while an action was applied.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    Moved {
        piece: PieceId,
        from: Cell,
        to: Cell,
    },
    Struck {
        attacker: PieceId,
        defender: PieceId,
        from: Cell,
        to: Cell,
        result: String,
    },
    Effect(Effect),
    Chose {
        player: PlayerId,
        label: String,
        /// The choice was public: everyone sees the answer.
        public: bool,
    },
    Ended(Outcome),
}

/// Why an action was refused. The state is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionError {
    /// The text is not an action of this game.
    Parse(String),
    /// The action is not legal here, and why.
    Illegal(String),
    /// A rule script failed (the message names the script line).
    Script(String),
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ActionError::Parse(m) => write!(f, "cannot read action: {m}"),
            ActionError::Illegal(m) => write!(f, "illegal: {m}"),
            ActionError::Script(m) => write!(f, "rule error: {m}"),
        }
    }
}

impl std::error::Error for ActionError {}
