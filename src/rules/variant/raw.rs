//! The variant YAML as written: the serde structs a file deserializes into.
//!
//! Changes when the YAML schema gains, renames or drops a field. Every field
//! is optional so that a variant may `extend` another and state only what
//! differs; what is required, and what the values mean, is checked in
//! [`super::validate`] after merging.

use indexmap::IndexMap;
use serde::Deserialize;
use serde_saphyr::Spanned;

use super::{NoMoves, NotationStyle, Value};

/// A literal, or `$name` naming one of the variant's options.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub(super) enum Param<T> {
    Lit(T),
    Opt(String),
}

/// One YAML file of a variant. Every field is optional so that a variant may
/// `extend` another and state only what differs; required fields are checked
/// after merging.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawVariant {
    #[serde(default)]
    pub(super) extends: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) name: Option<String>,
    #[serde(default)]
    pub(super) description: Option<String>,
    #[serde(default)]
    pub(super) script: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) players: Option<Vec<String>>,
    /// With an int option named `players`, the game is played by the first
    /// `players` of the list; at least this many.
    #[serde(default)]
    pub(super) min_players: Option<u8>,
    #[serde(default)]
    pub(super) hidden_identities: Option<bool>,
    #[serde(default)]
    pub(super) board: RawBoard,
    /// An option set to `~` (null) removes the base variant's option.
    #[serde(default)]
    pub(super) options: IndexMap<String, Option<RawOption>>,
    /// A kind set to `~` (null) removes that kind of the base variant.
    #[serde(default)]
    pub(super) pieces: IndexMap<String, Option<Spanned<RawPiece>>>,
    #[serde(default)]
    pub(super) setup: RawSetup,
    /// The starting position as a FEN-like line (instead of set-up zones).
    #[serde(default)]
    pub(super) start: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) notation: Option<RawNotation>,
    #[serde(default)]
    pub(super) rules: RawRules,
    /// The turn's budget of declared actions.
    #[serde(default)]
    pub(super) turn: Option<RawTurn>,
    /// Declared actions (see [`ActionDecl`](super::ActionDecl)); a child's
    /// list replaces its base's.
    #[serde(default)]
    pub(super) actions: Option<IndexMap<String, Spanned<RawAction>>>,
    /// The variant's own words (merged key by key over the base's).
    #[serde(default)]
    pub(super) words: RawWords,
    /// Declared counters (merged name by name over the base's).
    #[serde(default)]
    pub(super) counters: IndexMap<String, RawCounter>,
    /// The order in which the kinds are shown (`pieces`, captured piles):
    /// as the last file that lists them declares them (set by the merge;
    /// empty: the order of `pieces`).
    #[serde(skip)]
    pub(super) piece_order: Vec<String>,
}

/// `turn:` how many counted actions a turn allows.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTurn {
    #[serde(default)]
    pub(super) actions: Option<u8>,
}

/// One declared action as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawAction {
    #[serde(default)]
    pub(super) text: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) params: IndexMap<String, Spanned<RawActionParam>>,
    #[serde(default)]
    pub(super) cost: Option<RawCost>,
    #[serde(default)]
    pub(super) needs: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) counts: Option<bool>,
    #[serde(default)]
    pub(super) once: Option<bool>,
    #[serde(default)]
    pub(super) closes: Option<Param<bool>>,
    #[serde(default)]
    pub(super) ends_turn: Option<bool>,
    #[serde(default)]
    pub(super) perform: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) legal: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) moves: Option<bool>,
}

/// An action parameter: where its values come from and what they must be.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawActionParam {
    pub(super) from: Spanned<String>,
    #[serde(default, rename = "where")]
    pub(super) filters: Vec<Spanned<String>>,
    #[serde(default, rename = "else")]
    pub(super) fallback: Option<Spanned<String>>,
}

/// What an action costs: an amount of one of the player's counters.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCost {
    pub(super) counter: String,
    pub(super) amount: i64,
}

/// `words:`: event labels and choice questions in the variant's language.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawWords {
    #[serde(default)]
    pub(super) events: IndexMap<String, String>,
    #[serde(default)]
    pub(super) questions: IndexMap<String, String>,
}

/// One of `counters:`: what the host needs to know of a counter.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCounter {
    /// Bookkeeping for the rules only: never shown to anyone (views, the
    /// REPL, the web page, network state, per-viewer records).
    #[serde(default)]
    pub(super) internal: bool,
    /// What the counter holds (for designers reading the YAML).
    #[serde(default)]
    #[allow(dead_code)]
    pub(super) doc: Option<String>,
}

/// How actions are written (see [`Notation`](super::Notation)).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawNotation {
    #[serde(default)]
    pub(super) style: Option<NotationStyle>,
    #[serde(default)]
    pub(super) capture_mark: Option<String>,
    #[serde(default)]
    pub(super) check: Option<String>,
    #[serde(default)]
    pub(super) mate: Option<String>,
    #[serde(default)]
    pub(super) promotion_mark: Option<String>,
    /// Moves written by a name (`O-O: { kind: king, moves: [e1-g1, e8-g8] }`).
    #[serde(default)]
    pub(super) named_moves: IndexMap<String, Spanned<RawNamedMove>>,
}

/// One of `notation.named_moves`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawNamedMove {
    pub(super) kind: String,
    /// `from-to` pairs (`e1-g1`).
    pub(super) moves: Vec<String>,
    #[serde(default)]
    pub(super) also: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawBoard {
    #[serde(default)]
    pub(super) files: Option<u8>,
    #[serde(default)]
    pub(super) ranks: Option<u8>,
    #[serde(default)]
    pub(super) terrain: IndexMap<String, Vec<Spanned<String>>>,
    #[serde(default)]
    pub(super) blocking: Option<Vec<Spanned<String>>>,
    #[serde(default)]
    pub(super) zones: IndexMap<String, Vec<Spanned<String>>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawOption {
    pub(super) default: Value,
    #[serde(default)]
    pub(super) doc: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPiece {
    #[serde(default)]
    pub(super) name: Option<String>,
    #[serde(default)]
    pub(super) symbol: Option<String>,
    #[serde(default)]
    pub(super) code: Option<char>,
    #[serde(default)]
    pub(super) rank: Option<i64>,
    #[serde(default)]
    pub(super) count: Option<u32>,
    #[serde(default)]
    pub(super) moves: Option<Vec<Spanned<RawMove>>>,
    /// The letter that names the kind in move notation (none: from-to).
    #[serde(default)]
    pub(super) letter: Option<String>,
    /// Royal: a move that leaves such a piece capturable is illegal, and a
    /// player who cannot move while it is attacked is checkmated.
    #[serde(default)]
    pub(super) royal: Option<bool>,
    /// Promotion: ending a move in a zone, the owner chooses a new kind.
    #[serde(default)]
    pub(super) promote: Option<RawPromote>,
    /// Merged key by key with the base kind's attributes.
    #[serde(default)]
    pub(super) attrs: IndexMap<String, Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawMove {
    #[serde(default)]
    pub(super) step: Option<String>,
    #[serde(default)]
    pub(super) slide: Option<String>,
    #[serde(default)]
    pub(super) path: Option<String>,
    #[serde(default)]
    pub(super) steps: Option<u8>,
    #[serde(default)]
    pub(super) max: Option<u8>,
    #[serde(default)]
    pub(super) strike_at_range: Option<Param<bool>>,
    #[serde(default)]
    pub(super) reveal_beyond: Option<u8>,
    /// What the move may end on: `empty`, `enemy` or `any` (the default).
    #[serde(default)]
    pub(super) onto: Option<String>,
    /// Only these enemy kinds may be struck (default: any).
    #[serde(default)]
    pub(super) onto_kinds: Option<Vec<String>>,
    /// A slide may jump enemy pieces (`enemy`), each followed by an empty cell.
    #[serde(default)]
    pub(super) jump: Option<String>,
    /// Only these enemy kinds may be jumped (default: any).
    #[serde(default)]
    pub(super) jump_kinds: Option<Vec<String>>,
    /// At most this many jumps in one slide.
    #[serde(default)]
    pub(super) max_jumps: Option<Param<i64>>,
    /// Only from the cells of this zone (`<player>_<zone>` when the board has
    /// one for the mover, else `<zone>`).
    #[serde(default)]
    pub(super) from_zone: Option<String>,
}

/// A kind that changes when it ends a move in a zone.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPromote {
    /// `<player>_<zone>` when the board has one, else `<zone>`.
    pub(super) zone: String,
    /// The kinds the owner chooses from.
    pub(super) to: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSetup {
    #[serde(default)]
    pub(super) zones: IndexMap<String, Spanned<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRules {
    #[serde(default)]
    pub(super) repetition_limit: Option<Spanned<Param<i64>>>,
    #[serde(default)]
    pub(super) no_moves: Option<NoMoves>,
    #[serde(default)]
    pub(super) max_plies: Option<u32>,
    #[serde(default)]
    pub(super) draw_offers: Option<bool>,
    #[serde(default)]
    pub(super) strike_reveals: Option<bool>,
    /// The physical game lets a player follow a piece whose identity was
    /// shown to them and is hidden again (else the host refuses it).
    #[serde(default)]
    pub(super) followable_when_hidden_again: Option<bool>,
    /// Piece attributes everyone sees (items carried, markers on pieces).
    #[serde(default)]
    pub(super) public_attrs: Option<Vec<String>>,
    /// Symbols drawn for cell marks by value (`down: "#"`).
    #[serde(default)]
    pub(super) mark_symbols: Option<IndexMap<String, String>>,
    /// The game is drawn when the same position occurs this many times.
    #[serde(default)]
    pub(super) repetition_draw: Option<u32>,
    /// Counters that are part of a position for `repetition_draw`.
    #[serde(default)]
    pub(super) repetition_counters: Vec<String>,
    /// `rules.extra_moves` is asked only while one of these (global)
    /// counters is not 0 (none listed: always).
    #[serde(default)]
    pub(super) extra_moves_when: Vec<String>,
    /// A draw after so many plies without a capture or a move of certain
    /// kinds (the fifty-move rule), counted by the host.
    #[serde(default)]
    pub(super) no_progress: Option<Spanned<RawNoProgress>>,
    /// A global counter the host adds one to each time the turn comes back
    /// round to the first player (a move number).
    #[serde(default)]
    pub(super) move_number: Option<String>,
    /// When set, `rules.after_action` is called after a move only if one of
    /// these clauses holds (other actions always call it).
    #[serde(default)]
    pub(super) after_action_when: Option<Spanned<Vec<RawAfterActionWhen>>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawNoProgress {
    pub(super) plies: u32,
    pub(super) counter: String,
    #[serde(default)]
    pub(super) reset_kinds: Vec<String>,
    #[serde(default)]
    pub(super) reason: Option<String>,
}

/// One clause of `after_action_when`: every condition given must hold.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawAfterActionWhen {
    /// The moving piece is of one of these kinds.
    #[serde(default)]
    pub(super) kinds: Vec<String>,
    /// The move starts or ends on one of these cells.
    #[serde(default)]
    pub(super) cells: Vec<String>,
    /// The move starts in this zone of the mover (`pawn_start` names
    /// `white_pawn_start`, ... as in `from_zone`).
    #[serde(default)]
    pub(super) from_zone: Option<String>,
    /// One of these global counters is not 0 before the move.
    #[serde(default)]
    pub(super) counters: Vec<String>,
    /// The move ends in this zone of the mover (named as in `from_zone`).
    #[serde(default)]
    pub(super) to_zone: Option<String>,
    /// The move captured a piece (either side's, a strike's loser too).
    #[serde(default)]
    pub(super) captures: bool,
    /// The clause counts only while this is true (`$option` or a boolean).
    #[serde(default)]
    pub(super) enabled: Option<Param<bool>>,
}
