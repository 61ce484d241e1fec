//! The move language's parts of the variant YAML as written: a
//! placement's `flank:` and `groups:`, a kind's `custody:`, and `ends:`.
//!
//! Changes when the language gains a part or a key (see [`super::raw`] for
//! the rest of the YAML).

use schemars::JsonSchema;
use serde::Deserialize;

use super::raw::Param;
use super::Value;

/// A placement's `flank:`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawFlank {
    /// The direction set of the lines (default `all`).
    #[serde(default)]
    pub(super) lines: Option<String>,
    /// A placement that flanks nothing is illegal (default true).
    #[serde(default)]
    pub(super) needed: Option<bool>,
}

/// A placement's `groups:`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawGroups {
    /// The direction set joining a group (default `orthogonal`).
    #[serde(default)]
    pub(super) lines: Option<String>,
    /// A placement that leaves its own group without liberties removes it
    /// (true) or is illegal (false, the default).
    #[serde(default)]
    pub(super) suicide: Option<Param<bool>>,
    /// `none`, `simple` or `superko` (the default).
    #[serde(default)]
    pub(super) ko: Option<String>,
}

/// A kind's `custody:`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCustody {
    /// The direction set of the lines (default `orthogonal`).
    #[serde(default)]
    pub(super) lines: Option<String>,
    /// How many enemies in a row are taken: a number, or `any` (one or
    /// more); default 1.
    #[serde(default)]
    pub(super) run: Option<Value>,
    /// Only enemies of these kinds are taken (default: any kind).
    #[serde(default)]
    pub(super) kinds: Option<Vec<String>>,
    /// Only the mover's pieces of these kinds close a custody (default:
    /// any of the mover's pieces).
    #[serde(default)]
    pub(super) partners: Option<Vec<String>>,
    /// Zones whose empty cells close a custody too (`<player>_<zone>` per
    /// player).
    #[serde(default)]
    pub(super) hostile: Option<Vec<String>>,
    /// Enemies taken only when enclosed on every side.
    #[serde(default)]
    pub(super) enclose: Option<RawEnclose>,
}

/// A custody's `enclose:`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawEnclose {
    /// The enemy kinds taken only when enclosed.
    pub(super) kinds: Vec<String>,
    /// Only while the enemy stands in this zone (its owner's cells of it).
    #[serde(default)]
    pub(super) within: Option<String>,
}

/// `blast`: what a capture removes besides its victim.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawBlast {
    /// How far the blast reaches from the landing cell, in king steps
    /// (1 to 3; default 1).
    #[serde(default)]
    pub(super) radius: Option<u8>,
    /// Kinds the blast leaves standing around the landing cell (the victim
    /// and the capturer are removed whatever their kind).
    #[serde(default)]
    pub(super) spared: Vec<String>,
}

/// One line of `strike:`: the conditions on the two pieces (all that are
/// given must hold) and the result.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawStrikeLine {
    /// The attacker is of one of these kinds.
    #[serde(default)]
    pub(super) attacker: Option<Vec<String>>,
    /// The defender is of one of these kinds.
    #[serde(default)]
    pub(super) defender: Option<Vec<String>>,
    /// The attacker has this attribute (its kind's `attrs:` or its own), not
    /// `false`.
    #[serde(default)]
    pub(super) attacker_has: Option<String>,
    /// The defender has this attribute, not `false`.
    #[serde(default)]
    pub(super) defender_has: Option<String>,
    /// The attacker's rank against the defender's: `higher`, `lower`,
    /// `equal`, `not_lower` or `not_higher`.
    #[serde(default)]
    pub(super) rank: Option<String>,
    /// `attacker` (the defender is removed and the attacker moves in),
    /// `defender` (the attacker is removed), `both` (both are removed) or
    /// `none` (nothing happens).
    pub(super) result: String,
}

/// One of `ends:`: a condition key, who wins and the reason.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawEnd {
    /// The last piece placed or moved makes this many in a row.
    #[serde(default)]
    pub(super) in_a_row: Option<u8>,
    /// The direction set of the rows (default `all`).
    #[serde(default)]
    pub(super) lines: Option<String>,
    /// Nobody can act but by passing.
    #[serde(default)]
    pub(super) nobody_moves: Option<bool>,
    /// This many passes in a row.
    #[serde(default)]
    pub(super) passes: Option<u8>,
    /// Some player could act only by passing, were it their turn
    /// (checked after every action).
    #[serde(default)]
    pub(super) anyone_stuck: Option<bool>,
    /// The piece just placed or moved stands in this zone
    /// (`<player>_<zone>` per player).
    #[serde(default)]
    pub(super) reaches: Option<String>,
    /// The action captured a piece of one of these kinds.
    #[serde(default)]
    pub(super) captures: Option<Vec<String>>,
    /// A player other than the mover has at most this many pieces left.
    #[serde(default)]
    pub(super) left: Option<u16>,
    /// With `left`, only pieces of kinds that have moves count.
    #[serde(default)]
    pub(super) mobile: Option<bool>,
    /// With `left`: `others` (some player other than the mover; the
    /// default) or `all` (every player in the game).
    #[serde(default)]
    pub(super) players: Option<String>,
    /// The mover has borne off this many pieces (a `race`'s `off` cell).
    #[serde(default)]
    pub(super) borne_off: Option<u16>,
    /// With `borne_off`, the reason gives the points won: 2 when the loser
    /// bore off none, 3 when one of theirs is also on their bar or in the
    /// winner's home, else 1.
    #[serde(default)]
    pub(super) scores: Option<bool>,
    /// A counter that ends the game when it reaches `at_least`.
    #[serde(default)]
    pub(super) counter: Option<String>,
    /// With `counter`, the value that ends the game.
    #[serde(default)]
    pub(super) at_least: Option<i64>,
    /// With `reaches` or `left`, only pieces of these kinds count.
    #[serde(default)]
    pub(super) kinds: Option<Vec<String>>,
    /// `mover`, `most_pieces`, `area` or `draw`.
    pub(super) winner: String,
    /// With `winner: tally`, what each player's tally adds up.
    #[serde(default)]
    pub(super) tally: Option<RawTally>,
    /// With `winner: area`, the points added to the last player's area.
    #[serde(default)]
    pub(super) bonus: Option<Param<f64>>,
    /// The outcome's reason (default: from the condition).
    #[serde(default)]
    pub(super) reason: Option<String>,
}

/// `ends[].tally`: what a player's tally adds up (`winner: tally`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTally {
    /// A cell counter, summed over the player's cells of `zone`.
    #[serde(default)]
    pub(super) cells: Option<String>,
    /// With `cells`: the zone (`<player>_<zone>` per player).
    #[serde(default)]
    pub(super) zone: Option<String>,
    /// The player's own counter of this name, added.
    #[serde(default)]
    pub(super) counter: Option<String>,
}

/// A move's `when:`: one condition on the mover.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawWhen {
    /// The mover has placed every piece of this kind's `supply`.
    #[serde(default)]
    pub(super) placed_all: Option<String>,
}

/// The variant's `hands:`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawHands {
    /// A captured piece changes owner and goes to its captor's hand (as
    /// its kind's `demotes_to`, when it has one); default true.
    #[serde(default)]
    pub(super) captures: Option<bool>,
}

/// A direction set of the variant's own (`board.directions`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawDirections {
    /// The `[file, rank]` offsets, as the first player sees them
    /// (`[[1, 2], [-1, 2]]`: a knight's two forward leaps).
    pub(super) deltas: Vec<(i8, i8)>,
    /// Each player's own forward (true, the default: mirrored in rank for
    /// the second player) or the board's (false).
    #[serde(default)]
    pub(super) relative: Option<bool>,
}

/// The variant's `dice:`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawDice {
    /// How many dice are rolled at the start of each turn (1 to 4).
    pub(super) count: u8,
    /// How many faces each die has, numbered from 1 (2 to 64).
    pub(super) faces: u8,
    /// When every die shows one value, each is played this many times
    /// (default 1; 2 plays a double twice).
    #[serde(default)]
    pub(super) doubles: Option<u8>,
}

/// A kind's freeze: which enemy pieces next to it cannot move.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawFreeze {
    /// Where "next to" is: a direction set (default `all`).
    #[serde(default)]
    pub(super) near: Option<String>,
    /// Only enemies of these kinds (default: every kind).
    #[serde(default)]
    pub(super) kinds: Option<Vec<String>>,
    /// It freezes nothing of a player while another piece of theirs, of
    /// one of these kinds, stands next to it.
    #[serde(default)]
    #[schemars(with = "Option<RawUnlessBeside>")]
    pub(super) unless_beside: Option<serde_saphyr::Spanned<RawUnlessBeside>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawUnlessBeside {
    /// The kinds whose presence beside the frozen piece lifts the freeze.
    pub(super) kinds: Vec<String>,
    /// A boolean or a boolean option (true if absent).
    #[serde(default)]
    pub(super) enabled: Option<Param<bool>>,
}
