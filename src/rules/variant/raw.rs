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

pub(super) use super::raw_forms::{RawCustody, RawEnd, RawFlank, RawGroups};

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
    /// An option set to `~` (null) removes the base variant's option; set
    /// to a plain value, it sets the default of the base's option.
    #[serde(default)]
    pub(super) options: IndexMap<String, Option<Spanned<RawOption>>>,
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
    /// Named cell queries (`g:query`): a source and conditions as an
    /// action parameter's (merged name by name over the base's).
    #[serde(default)]
    pub(super) queries: IndexMap<String, Spanned<RawActionParam>>,
    /// Kinds of things that lie on cells (tile faces, cards), each with
    /// its attributes (merged name by name over the base's).
    #[serde(default)]
    pub(super) tokens: IndexMap<String, Spanned<IndexMap<String, Value>>>,
    /// The phases of the game, in order.
    #[serde(default)]
    pub(super) phases: Option<Vec<RawPhase>>,
    /// Reaction windows, by name.
    #[serde(default)]
    pub(super) reactions: Option<IndexMap<String, Spanned<RawReaction>>>,
    /// Containers of items, by name.
    #[serde(default)]
    pub(super) containers: Option<IndexMap<String, Spanned<RawContainer>>>,
    /// The variant's own words (merged key by key over the base's).
    #[serde(default)]
    pub(super) words: RawWords,
    /// Declared counters (merged name by name over the base's).
    #[serde(default)]
    pub(super) counters: IndexMap<String, RawCounter>,
    /// When a player may pass: `stuck` (only when nothing else is legal)
    /// or `always`.
    #[serde(default)]
    pub(super) pass: Option<Spanned<String>>,
    /// Declared ends of the game, checked after every action.
    #[serde(default)]
    pub(super) ends: Option<Vec<Spanned<RawEnd>>>,
    /// The order in which the kinds are shown (`pieces`, captured piles):
    /// as the last file that lists them declares them (set by the merge;
    /// empty: the order of `pieces`).
    #[serde(skip)]
    pub(super) piece_order: Vec<String>,
    /// Options and kinds a file of the chain removed with `~` (set by the
    /// merge), so that a later file naming one is told so.
    #[serde(skip)]
    pub(super) removed: Vec<String>,
}

/// `turn:` how many counted actions a turn allows.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTurn {
    #[serde(default)]
    pub(super) actions: Option<u8>,
    /// Who plays first: a player, `random`, or `$option`.
    #[serde(default)]
    pub(super) first: Option<Spanned<String>>,
}

/// One phase as written (`phases:` is a list).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPhase {
    pub(super) name: Spanned<String>,
    #[serde(default)]
    pub(super) actions: Option<Vec<Spanned<String>>>,
    #[serde(default)]
    pub(super) rounds: Option<u16>,
    #[serde(default)]
    pub(super) order: Option<Spanned<String>>,
}

/// One reaction window as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawReaction {
    #[serde(default)]
    pub(super) after: Vec<Spanned<String>>,
    #[serde(default)]
    pub(super) who: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) ask: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) from: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) actions: Vec<Spanned<String>>,
    #[serde(default)]
    pub(super) on_pass: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) after_react: Option<Spanned<String>>,
}

/// One container of items as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawContainer {
    #[serde(default)]
    pub(super) per_player: Option<bool>,
    #[serde(default)]
    pub(super) order: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) contents: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) count: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) items: RawItems,
}

/// A container's starting items: a map of faces to counts (each a number
/// or `$option`), or `$option` naming a text option that holds a whole
/// mix (`face:count,face:count`, a face alone counting one).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(super) enum RawItems {
    Map(IndexMap<String, Param<u32>>),
    Opt(String),
}

impl Default for RawItems {
    fn default() -> Self {
        RawItems::Map(IndexMap::new())
    }
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
    pub(super) perform_if: Option<Spanned<RawPerformIf>>,
    #[serde(default)]
    pub(super) moves: Option<bool>,
    /// The front piece of the player's `needs` container is placed on the
    /// parameter's cell (natively, before `perform`).
    #[serde(default)]
    pub(super) places: Option<bool>,
    /// After the action, the player picks a cell of a named query.
    #[serde(default)]
    pub(super) choose: Option<Spanned<RawActionChoose>>,
    /// A boolean or a boolean option: when false, the variant has no such
    /// action (true if absent).
    #[serde(default)]
    pub(super) enabled: Option<Param<bool>>,
}

/// `actions.<name>.choose`: a choice of a cell of a named query that the
/// host asks after the action, instead of calling `perform`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawActionChoose {
    pub(super) query: String,
    pub(super) question: String,
    pub(super) handler: String,
    #[serde(default)]
    pub(super) public: bool,
    #[serde(default)]
    pub(super) only_with_pieces: bool,
}

/// When an action's `perform` is called: only if one of `any` holds on
/// the cell of parameter `param` (after a `moves` action has moved).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPerformIf {
    pub(super) param: Spanned<String>,
    pub(super) any: Vec<Spanned<String>>,
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
    #[serde(default)]
    pub(super) prefer: Vec<Spanned<String>>,
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
    /// Moves written by a name (`NAME: { kind: KIND, moves: [e1-g1, e8-g8] }`).
    #[serde(default)]
    pub(super) named_moves: IndexMap<String, Spanned<RawNamedMove>>,
    /// Squares numbered 1, 2, ... for records that number them (PDN):
    /// `{ colour_of: a1, seen_by: white }`.
    #[serde(default)]
    pub(super) numbering: Option<RawNumbering>,
    /// What record formats call this game (`pgn: { game: Standard }`,
    /// `sgf: { game: "1", options: { KM: komi } }`, `pdn: { game: "21" }`).
    #[serde(default)]
    pub(super) records: IndexMap<String, RawRecordName>,
}

/// `notation.numbering`: the cells of `colour_of`'s colour, counted row by
/// row from the far left corner of the board as `seen_by` sees it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawNumbering {
    pub(super) colour_of: String,
    pub(super) seen_by: String,
}

/// One of `notation.records`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRecordName {
    /// The format's name of the game (PGN `Variant`, SGF `GM`, PDN `GameType`).
    pub(super) game: String,
    /// Properties or tags of the format read into and written from options.
    #[serde(default)]
    pub(super) options: IndexMap<String, String>,
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

/// An option as written: `name: { default: V, doc: "..." }` declares it;
/// in a child variant, `name: V` sets the default of an option its base
/// declares (`only_default`).
#[derive(Debug)]
pub(super) struct RawOption {
    pub(super) default: Value,
    pub(super) doc: String,
    pub(super) only_default: bool,
}

/// The declaring form, `{ default, doc }`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOptionDecl {
    default: Value,
    #[serde(default)]
    doc: String,
}

impl<'de> Deserialize<'de> for RawOption {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        fn plain<E>(default: Value) -> Result<RawOption, E> {
            Ok(RawOption {
                default,
                doc: String::new(),
                only_default: true,
            })
        }
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = RawOption;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an option `{ default: VALUE, doc: TEXT }`, or a value (the new default of an option the base variant declares)")
            }
            fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<RawOption, E> {
                plain(Value::Bool(v))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<RawOption, E> {
                plain(Value::Int(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<RawOption, E> {
                let v = i64::try_from(v).map_err(|_| E::custom("number too large"))?;
                plain(Value::Int(v))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<RawOption, E> {
                if !v.is_finite() {
                    return Err(E::custom("a decimal option must be a finite number"));
                }
                plain(Value::Num(v))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<RawOption, E> {
                plain(Value::Str(v.to_string()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<RawOption, A::Error> {
                let d =
                    RawOptionDecl::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(RawOption {
                    default: d.default,
                    doc: d.doc,
                    only_default: false,
                })
            }
        }
        d.deserialize_any(V)
    }
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
    /// The enemy pieces next to a piece of this kind cannot move.
    #[serde(default)]
    pub(super) freezes: Option<Spanned<RawFreeze>>,
    /// Enemy pieces this kind captures by custody when it lands.
    #[serde(default)]
    pub(super) custody: Option<Spanned<RawCustody>>,
    /// Terrain tags whose cells a piece of this kind may neither enter nor
    /// pass.
    #[serde(default)]
    pub(super) barred: Option<Spanned<Vec<String>>>,
    /// Terrain tags whose cells a piece of this kind may pass but not stop
    /// on.
    #[serde(default)]
    pub(super) no_stop: Option<Spanned<Vec<String>>>,
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
    /// A placement: a new piece from the mover's supply (`place: supply`).
    #[serde(default)]
    pub(super) place: Option<String>,
    /// A placement falls this way (a direction set of one direction).
    #[serde(default)]
    pub(super) falls: Option<String>,
    /// A placement flanks and flips enemy lines.
    #[serde(default)]
    pub(super) flank: Option<RawFlank>,
    /// A placement captures groups left without liberties.
    #[serde(default)]
    pub(super) groups: Option<RawGroups>,
    /// A placement only onto this zone's cells.
    #[serde(default)]
    pub(super) zone: Option<String>,
    /// What a jump leaps over: `enemy`, `own` or `piece`.
    #[serde(default)]
    pub(super) over: Option<String>,
    /// Only these kinds may be jumped over.
    #[serde(default)]
    pub(super) over_kinds: Option<Vec<String>>,
    /// What a jump does to what it leaps over: `jumped` removes it.
    #[serde(default)]
    pub(super) capture: Option<String>,
    /// A jump goes on jumping with the same piece while it can.
    #[serde(default)]
    pub(super) repeat: Option<bool>,
    /// When such a move exists, only such moves are legal.
    #[serde(default)]
    pub(super) compulsory: Option<bool>,
}

/// A kind's freeze: which enemy pieces next to it cannot move.
#[derive(Debug, Deserialize)]
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
    pub(super) unless_beside: Option<Spanned<RawUnlessBeside>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawUnlessBeside {
    pub(super) kinds: Vec<String>,
    /// A boolean or a boolean option (true if absent).
    #[serde(default)]
    pub(super) enabled: Option<Param<bool>>,
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
    /// Declared moves of two pieces at once under rights kept in a counter.
    #[serde(default)]
    pub(super) joint_moves: Option<Spanned<RawJointMoves>>,
    /// A long straight move that leaves the cell it crossed open to
    /// capture for one ply.
    #[serde(default)]
    pub(super) passing: Option<Spanned<RawPassing>>,
    /// A win the host checks after every rules call (`holds_attr`,
    /// `alone`), instead of a script's check after every action.
    #[serde(default)]
    pub(super) win_when: Option<Spanned<RawWinWhen>>,
}

/// `rules.win_when`: every condition given must hold for one player.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawWinWhen {
    /// One of the player's pieces on the board carries this attribute (not 0).
    #[serde(default)]
    pub(super) holds_attr: Option<String>,
    /// Every piece on the board is the player's.
    #[serde(default)]
    pub(super) alone: bool,
    /// The outcome's reason; `{player}` is the winner's name.
    #[serde(default)]
    pub(super) reason: Option<String>,
}

/// `rules.joint_moves`: the counter of rights and the moves.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawJointMoves {
    pub(super) counter: String,
    pub(super) moves: Vec<Spanned<RawJointMove>>,
}

/// One joint move: the mover and its partner, each from a cell to a cell.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawJointMove {
    pub(super) player: String,
    /// The bit of the counter that holds this move's right.
    pub(super) right: i64,
    pub(super) piece: String,
    pub(super) from: String,
    pub(super) to: String,
    pub(super) partner: String,
    pub(super) partner_from: String,
    pub(super) partner_to: String,
    /// Cells that must be empty.
    #[serde(default)]
    pub(super) empty: Vec<String>,
    /// Cells where the mover must not be capturable (standing there).
    #[serde(default)]
    pub(super) safe: Vec<String>,
}

/// `rules.passing`: which kinds pass, along which direction, and the
/// counter that holds 1 + the passed cell.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPassing {
    pub(super) counter: String,
    pub(super) kinds: Vec<String>,
    pub(super) direction: String,
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
