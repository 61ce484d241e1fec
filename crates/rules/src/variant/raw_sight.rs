//! `sight:` as written: what a player's pieces see, for a variant where a
//! player does not know where the other players' pieces stand (fog of war).
//!
//! Changes when a sight declaration gains or loses a key; the validated
//! form is [`super::sight`].

use schemars::JsonSchema;
use serde::Deserialize;

/// `sight:` at the top of a variant (every kind's default), or a kind's
/// own `sight:` (the keys it gives replace the variant's for that kind).
/// A cell is seen by a player when any of their pieces sees it, or when it
/// lies in one of `zones`; a cell outside shows them nothing.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSight {
    /// The cell the piece stands on (default true).
    #[serde(default)]
    pub(super) occupied: Option<bool>,
    /// The cells the piece could move to by its declared moves, joint and
    /// passing moves, whether or not the move would be legal (targets,
    /// captures included, and the cell a passing capture takes on).
    #[serde(default)]
    pub(super) moves: Option<bool>,
    /// The cells within this many king steps of the piece (default 0).
    #[serde(default)]
    pub(super) radius: Option<u8>,
    /// A direction set (`orthogonal`, `all`, ...) along which the piece
    /// sees, up to and including the first piece or blocking terrain.
    #[serde(default)]
    pub(super) lines: Option<String>,
    /// With `lines`, how many cells along each line (default: to the edge).
    #[serde(default)]
    pub(super) range: Option<u8>,
    /// Variant level only: the cell a piece has just passed
    /// (`rules.bookkeeping.passing`) is seen, with the cell behind it, by each piece
    /// of the passing kinds that could take on it, whoever passed it (both
    /// sides see a passing capture that could be made).
    #[serde(default)]
    pub(super) passed: Option<bool>,
    /// Variant level only: zones every player always sees (a zone's name,
    /// or `NAME` for each player's `<player>_NAME`).
    #[serde(default)]
    pub(super) zones: Option<Vec<String>>,
}
