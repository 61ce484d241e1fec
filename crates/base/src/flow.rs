//! Turn-flow state beside the pieces: open reaction windows (players asked
//! out of turn, in order) and the items of containers (tiles in a bag,
//! cards in a stack), each item with the set of players who know it.
//!
//! Plain data: a window or an item is a few bytes, cloned with the state.

use crate::state::{Plain, PlayerId, PlayerSet};

/// An open reaction window: the players still to be asked, in order (the
/// first is asked now), and what the rules handed to it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Window {
    /// The declaration's number (`reactions:` in the variant).
    pub kind: u8,
    /// Players still to be asked, the one asked now first.
    pub asked: Vec<PlayerId>,
    /// Whether the turn stays with the player to move once the window
    /// closes (set when the action that opened it ends).
    pub hold: bool,
    /// Set while the action that opened it runs.
    pub fresh: bool,
    /// Plain values for the window's handlers (`g:window()`).
    pub data: Vec<(String, Plain)>,
}

/// One item in a container (a tile, a card): its face and who knows it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Item {
    pub value: String,
    pub known_by: PlayerSet,
}
