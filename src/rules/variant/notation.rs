//! Move notation settings: how a variant's moves are written.
//!
//! Changes when a notation style or mark is added.

use serde::Deserialize;

/// How moves are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NotationStyle {
    /// `a4-a5`: origin and destination.
    #[default]
    Coordinates,
    /// A kind's letter and the destination (`Wb6`, the origin added only when
    /// ambiguous); kinds without a letter by origin and destination
    /// (`h2h5`); each captured cell after `capture_mark` (`e4e5:d5:f5`).
    LetterCaptures,
}

/// The variant's move notation.
#[derive(Clone, Debug, PartialEq)]
pub struct Notation {
    pub style: NotationStyle,
    pub capture_mark: String,
    pub check: String,
    pub mate: String,
}

impl Default for Notation {
    fn default() -> Self {
        Notation {
            style: NotationStyle::Coordinates,
            capture_mark: ":".into(),
            check: "+".into(),
            mate: "#".into(),
        }
    }
}
