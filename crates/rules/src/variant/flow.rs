//! Turn flow as declared (the `turn:`, `phases:`, `reactions:` and
//! `containers:` sections, checked): who plays first, the phases of the
//! game with their own order and actions, the reaction windows that open
//! out of turn, and the containers of items with their visibility.
//!
//! Changes when the vocabulary of declared turn flow grows.

use crate::base::state::PlayerId;

/// Who plays first (`turn.first`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum First {
    /// A fixed seat (the first player of `players` unless declared).
    Seat(PlayerId),
    /// Drawn with the game's seeded generator when the game starts.
    Random,
}

/// One phase of the game (`phases:`).
#[derive(Clone, Debug)]
pub struct Phase {
    pub name: String,
    /// The declared actions (by number) this phase offers; `None`: every
    /// action that is not a reaction.
    pub actions: Option<Vec<u8>>,
    /// The phase ends after this many rounds (each player one turn); `None`:
    /// when a rule calls `g:end_phase()` (or never, for the last phase).
    pub rounds: Option<u16>,
    /// Turns go counter-clockwise, the last player first.
    pub reverse: bool,
}

/// Who is asked in a reaction window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    /// Every player but the one whose turn it is.
    Others,
    /// Every player, the one whose turn it is last.
    All,
}

/// One declared reaction window (`reactions.<name>`).
#[derive(Clone, Debug)]
pub struct ReactionDecl {
    pub name: String,
    /// Declared actions after which the window opens by itself; empty: only
    /// when a rule opens it (`g:open_window`).
    pub after: Vec<u8>,
    pub who: Who,
    /// The player whose turn it is is asked first (`from: mover`; with
    /// `who: all`), else last.
    pub mover_first: bool,
    /// Ask only players who could take one of `actions` (else everyone).
    pub only_able: bool,
    /// The declared actions a reacting player may take (besides `pass`).
    pub actions: Vec<u8>,
    /// `rules.<on_pass>(g, data)` when everyone asked has passed.
    pub on_pass: Option<String>,
    /// After a reaction the others are still asked (else it closes).
    pub keep_asking: bool,
    pub at: (String, u64, u64),
}

/// How a container keeps its items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Unordered: a draw takes a random item (the game's generator); views
    /// show no positions.
    Bag,
    /// Shuffled when filled; draws take the top.
    Stack,
    /// In the order put in; draws take the front.
    Queue,
}

/// Who sees something of a container.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sees {
    Nobody,
    Owner,
    All,
}

/// One declared container of items (`containers.<name>`).
#[derive(Clone, Debug)]
pub struct ContainerDecl {
    pub name: String,
    /// One per player (else one shared).
    pub per_player: bool,
    pub order: Order,
    /// Who knows an item put in (besides those who already knew it).
    pub contents: Sees,
    /// Who sees how many items it holds.
    pub count: Sees,
    /// The items it holds when the game starts: (face, how many).
    pub items: Vec<(String, u32)>,
    pub at: (String, u64, u64),
}

impl Sees {
    /// Whether `viewer` (a player, or `None` for a spectator) sees it in a
    /// container of `owner`.
    pub fn lets(self, viewer: Option<PlayerId>, owner: Option<PlayerId>) -> bool {
        match self {
            Sees::All => true,
            Sees::Owner => viewer.is_some() && viewer == owner,
            Sees::Nobody => false,
        }
    }
}
