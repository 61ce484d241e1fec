//! Move notation settings: how a variant's moves are written.
//!
//! Changes when a notation style or mark is added.

use serde::Deserialize;

use crate::base::geometry::Cell;
use crate::base::state::{KindId, PlayerId};

/// How moves are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum NotationStyle {
    /// `a4-a5`: origin and destination.
    #[default]
    Coordinates,
    /// A kind's letter and the destination (`Wb6`, the origin added only when
    /// ambiguous); kinds without a letter by origin and destination
    /// (`h2h5`); each captured cell after `capture_mark` (`e4e5:d5:f5`).
    LetterCaptures,
    /// Standard algebraic notation: a kind's letter, the origin's file or
    /// rank (or both) only when another piece of that kind could go there
    /// too, `capture_mark` before the destination of a capture (`Nbxd7`);
    /// kinds without a letter by destination alone (`e4`), or by their
    /// file when capturing (`exd5`); a promotion after `promotion_mark`
    /// (`e8=Q`); `named_moves` by their name (`O-O`).
    San,
}

/// A move written by a name (e.g. `O-O` for a two-piece move): a piece of `kind` going
/// from one of `moves`' origins to its destination.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedMove {
    pub name: String,
    /// Other spellings read as this name (`0-0`).
    pub also: Vec<String>,
    pub kind: KindId,
    pub moves: Vec<(Cell, Cell)>,
}

/// The variant's move notation.
#[derive(Clone, Debug, PartialEq)]
pub struct Notation {
    pub style: NotationStyle,
    pub capture_mark: String,
    pub check: String,
    pub mate: String,
    /// Between a promoted move and the new kind's letter (`e8=Q`).
    pub promotion_mark: String,
    pub named_moves: Vec<NamedMove>,
    /// How records that number squares (PDN) number them.
    pub numbering: Option<Numbering>,
    /// What record formats call this game.
    pub records: Vec<RecordName>,
}

/// Squares numbered 1, 2, ...: the cells whose `file + rank` has the
/// parity `parity`, counted row by row from the far left corner of the
/// board as `seen_by` sees it (an odd-numbered player sits at the top).
#[derive(Clone, Debug, PartialEq)]
pub struct Numbering {
    pub parity: u8,
    pub seen_by: PlayerId,
}

/// A record format's name of the game: `format` (`pgn`, `sgf`, `pdn`),
/// its `game` (PGN's `Variant`, SGF's `GM`, PDN's `GameType`) and the
/// tags or properties read into options (`KM` → `komi`).
#[derive(Clone, Debug, PartialEq)]
pub struct RecordName {
    pub format: String,
    pub game: String,
    pub options: Vec<(String, String)>,
}

impl Notation {
    /// The named move a piece of `kind` going `from` → `to` is, if any.
    pub fn named(&self, kind: KindId, from: Cell, to: Cell) -> Option<&NamedMove> {
        self.named_moves
            .iter()
            .find(|n| n.kind == kind && n.moves.contains(&(from, to)))
    }

    /// What the record format `format` calls this game, if it is declared.
    pub fn record_name(&self, format: &str) -> Option<&RecordName> {
        self.records.iter().find(|r| r.format == format)
    }
}

impl Default for Notation {
    fn default() -> Self {
        Notation {
            style: NotationStyle::Coordinates,
            capture_mark: ":".into(),
            check: "+".into(),
            mate: "#".into(),
            promotion_mark: "=".into(),
            named_moves: Vec::new(),
            numbering: None,
            records: Vec::new(),
        }
    }
}
