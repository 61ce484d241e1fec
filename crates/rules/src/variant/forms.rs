//! The move language's parts beyond step, slide and path, as validated:
//! placing a piece from the supply ([`PlaceForm`]: where it may go, falling
//! down a column, flanking and flipping, capturing groups without
//! liberties), jump sequences ([`JumpForm`]), capture by custody
//! ([`Custody`]), the declared pass
//! ([`PassWhen`]) and declared ends of the game ([`End`]).
//!
//! Changes when the language gains a part. The engine compiles these into
//! its listing, applying and text (`engine::lang`).

use crate::base::state::KindId;

/// What a cell a move lands on, or a piece it jumps over, must hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holds {
    Empty,
    Enemy,
    Own,
    /// Any piece.
    Piece,
    /// Anything, or nothing.
    Any,
}

/// The public counter of how many pieces of kind `kind` (its key) a player
/// has placed from a finite supply.
pub fn placed_counter(kind: &str) -> String {
    format!("{kind}_placed")
}

/// A kind's placement (`place: supply`): a new piece of the kind from the
/// mover's supply (unlimited, or `supply` pieces) onto an empty cell.
#[derive(Clone, Debug, PartialEq)]
pub struct PlaceForm {
    /// The piece falls this way to the last empty cell before a piece or
    /// the edge (`falls: down`); a placement is then named by the cell
    /// where it lands, and only such cells are legal.
    pub falls: Option<(i8, i8)>,
    /// Flank and flip (`flank:`).
    pub flank: Option<Flank>,
    /// Capture of groups without liberties (`groups:`).
    pub groups: Option<Groups>,
    /// Only cells of this zone (one list per player), when set.
    pub zone: Option<Vec<Vec<crate::base::geometry::Cell>>>,
    /// How many pieces of the kind each player places in all (`supply:`;
    /// none: unlimited). How many a player has placed is a public counter
    /// of the state, `<kind>_placed`.
    pub supply: Option<u16>,
    /// Never onto these cells (one list per player), when set (`outside:`).
    pub outside: Option<Vec<Vec<crate::base::geometry::Cell>>>,
    /// A drop (`place: hand`): one of the mover's pieces of the kind in
    /// hand goes onto the cell, instead of a new piece.
    pub from_hand: bool,
    /// Never into a file holding one of the mover's pieces of these kinds
    /// (`not_in_file_with:`).
    pub not_in_file_with: Vec<KindId>,
    /// Never a placement that checkmates at once (`no_mate:`).
    pub no_mate: bool,
}

/// The name of each player's container of pieces in hand.
pub const HAND: &str = "hand";

/// The variant's `hands:`: pieces in hand are placed by `place: hand`;
/// with `captures`, a captured piece changes owner and goes to its
/// captor's hand, as its kind's `demotes_to` when it has one.
#[derive(Clone, Debug, PartialEq)]
pub struct Hands {
    pub captures: bool,
}

/// `flank: { lines: all, needed: true }`: every unbroken line of enemy
/// pieces from the placed piece that ends on one of the mover's pieces
/// changes owner; with `needed`, a placement that flanks nothing is
/// illegal.
#[derive(Clone, Debug, PartialEq)]
pub struct Flank {
    pub lines: Vec<(i8, i8)>,
    pub needed: bool,
}

/// `groups: { lines: orthogonal, suicide: false, ko: superko }`: pieces
/// joined along `lines` form groups; a group's liberties are the empty
/// cells next to it. After a placement, enemy groups without liberties are
/// removed, then the mover's own (or, without `suicide`, the placement is
/// illegal).
#[derive(Clone, Debug, PartialEq)]
pub struct Groups {
    pub lines: Vec<(i8, i8)>,
    pub suicide: bool,
    pub ko: Ko,
}

/// Which repeated positions a placement may not make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ko {
    /// None: any position may repeat.
    None,
    /// The position before the opponent's last action may not come back.
    Simple,
    /// No earlier board position may come back (positional superko).
    Superko,
}

/// A jump (`jump: diagonal, over: enemy`): the piece leaps over the
/// adjacent cell to the one beyond; `repeat` goes on jumping with the same
/// piece as long as it can (the move is the whole sequence, named by every
/// landing cell), `capture` removes the jumped pieces.
#[derive(Clone, Debug, PartialEq)]
pub struct JumpForm {
    pub deltas: Vec<(i8, i8)>,
    /// The deltas are the first player's; others mirror the rank.
    pub relative: bool,
    pub over: Holds,
    pub over_kinds: Option<Vec<KindId>>,
    pub onto: Holds,
    pub capture: bool,
    pub repeat: bool,
    /// When a move of a compulsory form exists, only those are legal.
    pub compulsory: bool,
    /// Of the compulsory moves, only the sequences that jump the most
    /// pieces are legal (the rule applies to all compulsory moves once a
    /// form declares it).
    pub longest: bool,
}

/// A race along a track by the dice (`race: [a2:l2, l1:a1]`): a move
/// takes one piece of the mover as far along the mover's track as one of
/// the dice says. A lone enemy piece where it lands is hit: it goes to its
/// owner's `bar` cell, from which that player must enter pieces (a die of
/// `n` onto the track's `n`-th cell) before any other move. Two or more
/// enemy pieces block a cell. Once all of a player's pieces stand on the
/// last `home` cells of the track, they may move off it onto the `off`
/// cell: by the exact number, or by a larger one from the piece furthest
/// back. A turn uses as many of the dice as it can, else the larger.
#[derive(Clone, Debug, PartialEq)]
pub struct RaceForm {
    /// Per player, the track's cells in the order a piece travels (the
    /// first player's as declared; the others' mirrored in rank).
    pub track: Vec<Vec<crate::base::geometry::Cell>>,
    /// Per player, the cell where its hit pieces wait to enter.
    pub bar: Vec<crate::base::geometry::Cell>,
    /// Per player, the cell its pieces are borne off to.
    pub off: Vec<crate::base::geometry::Cell>,
    /// How many last cells of the track are home (bearing off starts when
    /// all the player's pieces are there).
    pub home: u8,
}

/// The variant's `dice:`: `count` dice of `faces` faces are rolled, from
/// the game's seeded generator, when each turn begins; when they all show
/// one value, each is played `doubles` times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiceDecl {
    pub count: u8,
    pub faces: u8,
    pub doubles: u8,
}

/// A kind's move of the language, beside its steps, slides and paths.
#[derive(Clone, Debug, PartialEq)]
pub enum Form {
    Place(PlaceForm),
    Jump(JumpForm),
    Race(RaceForm),
}

/// Capture by custody (`custody:` of a kind): after a piece of the kind
/// lands (by any move or placement), a run of enemy pieces next to it
/// along one of `lines` is taken when the cell beyond the run closes it:
/// one of the mover's pieces (of `partners`, when given), or an empty
/// hostile cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Custody {
    pub lines: Vec<(i8, i8)>,
    /// The run's length: exactly this many (`run: 2`), or any run of one
    /// or more (`None`, `run: any`).
    pub run: Option<u8>,
    /// Only enemies of these kinds are taken (a run holding another kind
    /// takes nothing).
    pub kinds: Option<Vec<KindId>>,
    /// Only the mover's pieces of these kinds close a custody.
    pub partners: Option<Vec<KindId>>,
    /// The cells that close a custody while empty, per mover.
    pub hostile: Vec<Vec<crate::base::geometry::Cell>>,
    /// Pieces that must be enclosed on every side instead.
    pub enclose: Option<Enclose>,
}

/// `enclose:` of a custody: an enemy of `kinds` (standing in its owner's
/// cells of `within`, when given) next to the landing cell is taken only
/// when every neighbour along the custody's lines closes it (the mover's
/// partners, or empty hostile cells; the board's edge does not).
#[derive(Clone, Debug, PartialEq)]
pub struct Enclose {
    pub kinds: Vec<KindId>,
    pub within: Option<Vec<Vec<crate::base::geometry::Cell>>>,
}

/// A blast (`blast`): a capture removes, besides its victim, the
/// capturer and every piece within `radius` king steps of the landing cell
/// whose kind is not `spared`. What it removes counts as captured (for
/// royal safety and for the ends).
#[derive(Clone, Debug, PartialEq)]
pub struct Blast {
    pub radius: u8,
    pub spared: Vec<KindId>,
}

/// The most jumps one sequence may make (a jump sequence's text and
/// identity hold each landing; longer ones stop here).
pub const MAX_JUMPS: usize = 12;

/// When a player may pass (`pass:`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassWhen {
    /// Only when no other action is legal.
    Stuck,
    /// At any turn.
    Always,
}

/// Who wins when a declared end comes.
#[derive(Clone, Debug, PartialEq)]
pub enum Winner {
    /// The player who made the last action.
    Mover,
    /// The player whose counter reached the value (`counter:` ends).
    Holder,
    /// The player with the most pieces on the board (a draw when tied).
    MostPieces,
    /// The higher area score (pieces, plus empty regions that touch
    /// only one player's pieces), `bonus` added to the last
    /// player's (a draw when equal).
    Area { bonus: f64, lines: Vec<(i8, i8)> },
    /// Nobody: a draw.
    Draw,
    /// The highest tally (a draw when tied): each player's sum of the
    /// cell counter `cells` over their cells of `zone`, plus their own
    /// counter `counter`.
    Tally {
        cells: Option<String>,
        zone: Vec<Vec<crate::base::geometry::Cell>>,
        counter: Option<String>,
    },
}

/// When a declared end comes (`ends:`).
#[derive(Clone, Debug, PartialEq)]
pub enum EndWhen {
    /// The last piece placed or moved stands in `n` of its owner's pieces
    /// in a row along one of `lines` (each line once, not its opposite).
    InARow { n: u8, lines: Vec<(i8, i8)> },
    /// No player can make an action other than passing.
    NobodyMoves,
    /// Some player could make no action other than passing, were it
    /// their turn (checked after every action).
    AnyoneStuck,
    /// This many passes in a row.
    Passes(u8),
    /// The piece just placed or moved stands in its owner's cells of a
    /// zone (and is of one of `kinds`, when given).
    Reaches {
        zone: Vec<Vec<crate::base::geometry::Cell>>,
        kinds: Option<Vec<KindId>>,
    },
    /// The action captured a piece of one of these kinds.
    Captures(Vec<KindId>),
    /// A player other than the mover (with `everyone`, every player in
    /// the game) has at most this many pieces on the board (of `kinds`,
    /// when given).
    Left {
        most: u16,
        kinds: Option<Vec<KindId>>,
        everyone: bool,
    },
    /// A counter reaches a value: a player's own counter of the name (that
    /// player is the holder), or the global one (the mover is).
    Counter { name: String, at_least: i64 },
    /// The mover has borne off this many pieces (a race's `off` cell);
    /// with `scores`, the reason gives the points won: 2 when the loser
    /// has borne off none, 3 when a piece of theirs is also still on
    /// their bar or in the winner's home, else 1.
    BorneOff { n: u16, scores: bool },
}

/// One declared end: when it comes, who wins, and the reason given.
#[derive(Clone, Debug, PartialEq)]
pub struct End {
    pub when: EndWhen,
    pub winner: Winner,
    pub reason: String,
}
