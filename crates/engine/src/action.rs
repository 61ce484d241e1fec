//! The vocabulary of play: what an action is ([`Action`]), what applying one
//! reports ([`Event`]) and why one is refused ([`ActionError`]).

use std::fmt;

use crate::base::effect::{Effect, Strike};
use crate::base::geometry::Cell;
use crate::base::state::{KindId, Outcome, PieceId, PlayerId};

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
    /// A new piece of a kind placed from the mover's supply (the move
    /// language's `place`). Text: the cell (`d3`), or the kind's letter
    /// and the cell (`S@d3`) when several kinds are placed.
    Place { kind: KindId, at: Cell },
    /// A jump sequence of the piece on `from` (the move language's
    /// `jump`): the kind's `form`-th form, and each jump's direction.
    /// Text: the start and every landing, `d6xb4xd2`.
    Jumps {
        from: Cell,
        form: u8,
        path: JumpPath,
    },
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
    /// Decline to react in the open reaction window, or pass the turn
    /// where the variant lets a player pass (`pass:`). Text: `pass`.
    Pass,
}

/// The directions of a jump sequence: each jump's 1 + its direction's
/// index in the form, four bits each, the first jump in the high bits of
/// the first byte, 0 after the last. Two sequences with the same ends are
/// two paths.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct JumpPath([u8; 6]);

impl JumpPath {
    /// The most jumps a path holds.
    pub const MAX: usize = 12;

    pub fn len(&self) -> usize {
        (0..Self::MAX).take_while(|&i| self.get(i) != 0).count()
    }

    pub fn is_empty(&self) -> bool {
        self.0[0] == 0
    }

    /// The `i`-th jump's 1 + direction index (0: none).
    fn get(&self, i: usize) -> u8 {
        let b = self.0[i / 2];
        if i.is_multiple_of(2) {
            b >> 4
        } else {
            b & 0xf
        }
    }

    /// The direction indices, in order.
    pub fn directions(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.len()).map(|i| self.get(i) as usize - 1)
    }

    /// This path with one more jump in direction `dir` (at most 14), or
    /// `None` when it is full.
    pub fn then(&self, dir: usize) -> Option<JumpPath> {
        let i = self.len();
        if i >= Self::MAX || dir >= 15 {
            return None;
        }
        let mut p = *self;
        let v = dir as u8 + 1;
        if i.is_multiple_of(2) {
            p.0[i / 2] |= v << 4;
        } else {
            p.0[i / 2] |= v;
        }
        Some(p)
    }
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
        result: Strike,
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
    /// The text names more than one legal action (the message lists them).
    Ambiguous(String),
    /// The action is not legal here, and why.
    Illegal(String),
    /// A rule script failed (the message names the script line).
    Script(String),
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ActionError::Parse(m) | ActionError::Ambiguous(m) => {
                write!(f, "cannot read action: {m}")
            }
            ActionError::Illegal(m) => write!(f, "illegal: {m}"),
            ActionError::Script(m) => write!(f, "rule error: {m}"),
        }
    }
}

impl std::error::Error for ActionError {}
