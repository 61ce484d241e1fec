//! The variant YAML as written: the serde structs a file deserializes into.
//!
//! Changes when the YAML schema gains, renames or drops a field. Every field
//! is optional so that a variant may `extend` another and state only what
//! differs; what is required, and what the values mean, is checked in
//! [`super::validate`] after merging. The turn flow's and the declared
//! actions' structs are in [`super::raw_flow`], re-exported here.
//!
//! The same structs give `sandtable schema` its JSON Schema (schemars): a
//! field's doc comment is its description there (`tests/schema.rs` wants
//! one on every key), a `Spanned<T>` field says `#[schemars(with = "T")]`,
//! and `schema/variant.schema.json` is regenerated with `cargo run --
//! schema --output schema/variant.schema.json` after a change.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_saphyr::Spanned;

pub(super) use super::raw_flow::*;
pub(super) use super::raw_forms::RawFreeze;
use super::raw_rules::RawRules;
use super::{NotationStyle, Value};

pub(super) use super::raw_forms::{RawCustody, RawEnd, RawFlank, RawGroups, RawTally, RawWhen};
pub(super) use super::raw_sight::RawSight;

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
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawVariant {
    /// The base variant this file is laid over: a bundled name or a path
    /// relative to this file.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub(super) extends: Option<Spanned<String>>,
    /// The variant's name, as shown to players.
    #[serde(default)]
    pub(super) name: Option<String>,
    /// A sentence or two on the game.
    #[serde(default)]
    pub(super) description: Option<String>,
    /// The Luau script with the rules the YAML cannot say: a path relative
    /// to this file (`../scripts/NAME.lua`).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub(super) script: Option<Spanned<String>>,
    /// The players' names, in turn order (the first moves first unless
    /// `turn.first` says otherwise).
    #[serde(default)]
    pub(super) players: Option<Vec<String>>,
    /// With an int option named `players`, the game is played by the first
    /// `players` of the list; at least this many.
    #[serde(default)]
    pub(super) min_players: Option<u8>,
    /// Pieces' kinds are hidden from the other players until revealed.
    #[serde(default)]
    pub(super) hidden_identities: Option<bool>,
    /// Each player's colour on the board, by player name, as a CSS hex
    /// colour (`"#c0392b"` or `"#c03"`). A player not named here is drawn
    /// in the colour its name says (red, blue, white, black...) or, for
    /// other names, one of a palette by seat; letters on a piece are dark
    /// or light, whichever contrasts more with its colour.
    #[serde(default)]
    pub(super) colours: Option<IndexMap<String, String>>,
    /// The board: size, terrain, blocking terrain and named zones.
    #[serde(default)]
    pub(super) board: RawBoard,
    /// An option set to `~` (null) removes the base variant's option; set
    /// to a plain value, it sets the default of the base's option.
    #[serde(default)]
    #[schemars(with = "IndexMap<String, Option<RawOption>>")]
    pub(super) options: IndexMap<String, Option<Spanned<RawOption>>>,
    /// A kind set to `~` (null) removes that kind of the base variant.
    #[serde(default)]
    #[schemars(with = "IndexMap<String, Option<RawPiece>>")]
    pub(super) pieces: IndexMap<String, Option<Spanned<RawPiece>>>,
    /// Where each player sets up (instead of `start`).
    #[serde(default)]
    pub(super) setup: RawSetup,
    /// The starting position as a FEN-like line (instead of set-up zones).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub(super) start: Option<Spanned<String>>,
    /// How moves are written (`coordinates`, `letter_captures` or `san`).
    #[serde(default)]
    pub(super) notation: Option<RawNotation>,
    /// Built-in rules the host runs, grouped by purpose: `ends` (no moves,
    /// repetition, no progress, a cap, a checked win, draw offers),
    /// `bookkeeping` (what the host counts and keeps), `visibility`,
    /// `display` and `script` (when the script's hooks are asked).
    #[serde(default)]
    pub(super) rules: RawRules,
    /// The turn's budget of declared actions.
    #[serde(default)]
    pub(super) turn: Option<RawTurn>,
    /// Declared actions, by name (variants/README.md, "Declaring actions");
    /// a child's list replaces its base's.
    #[serde(default)]
    #[schemars(with = "Option<IndexMap<String, RawAction>>")]
    pub(super) actions: Option<IndexMap<String, Spanned<RawAction>>>,
    /// Named cell queries (`g:query`): a source and conditions as an
    /// action parameter's (merged name by name over the base's).
    #[serde(default)]
    #[schemars(with = "IndexMap<String, RawActionParam>")]
    pub(super) queries: IndexMap<String, Spanned<RawActionParam>>,
    /// Kinds of things that lie on cells (tile faces, cards), each with
    /// its attributes (merged name by name over the base's).
    #[serde(default)]
    #[schemars(with = "IndexMap<String, IndexMap<String, Value>>")]
    pub(super) tokens: IndexMap<String, Spanned<IndexMap<String, Value>>>,
    /// The phases of the game, in order.
    #[serde(default)]
    #[schemars(with = "Option<Vec<RawPhase>>")]
    pub(super) phases: Option<Spanned<Vec<RawPhase>>>,
    /// Reaction windows, by name.
    #[serde(default)]
    #[schemars(with = "Option<IndexMap<String, RawReaction>>")]
    pub(super) reactions: Option<IndexMap<String, Spanned<RawReaction>>>,
    /// Containers of items, by name.
    #[serde(default)]
    #[schemars(with = "Option<IndexMap<String, RawContainer>>")]
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
    #[schemars(with = "Option<String>")]
    pub(super) pass: Option<Spanned<String>>,
    /// Declared ends of the game, checked after every action.
    #[serde(default)]
    #[schemars(with = "Option<Vec<RawEnd>>")]
    pub(super) ends: Option<Vec<Spanned<RawEnd>>>,
    /// Dice rolled from the game's seeded generator at the start of every
    /// turn (public chance), used by `race` moves.
    #[serde(default)]
    #[schemars(with = "Option<super::raw_forms::RawDice>")]
    pub(super) dice: Option<Spanned<super::raw_forms::RawDice>>,
    /// Hands: each player's pieces waiting to be placed (`place: hand`);
    /// captured pieces change side and go to their captor's hand.
    #[serde(default)]
    #[schemars(with = "Option<super::raw_forms::RawHands>")]
    pub(super) hands: Option<Spanned<super::raw_forms::RawHands>>,
    /// A capture blasts: the capturer and every piece within `radius` of
    /// the landing cell (but the `spared` kinds) are removed with its
    /// victim.
    #[serde(default)]
    #[schemars(with = "Option<super::raw_forms::RawBlast>")]
    pub(super) blast: Option<Spanned<super::raw_forms::RawBlast>>,
    /// How a strike (a move onto an enemy piece, in a game where pieces
    /// fight) ends: the first line that fits the two pieces decides, read
    /// in order; none fits: the attacker wins. A script's `rules.strike`
    /// decides instead where it is defined.
    #[serde(default)]
    #[schemars(with = "Option<Vec<super::raw_forms::RawStrikeLine>>")]
    pub(super) strike: Option<Vec<Spanned<super::raw_forms::RawStrikeLine>>>,
    /// Fog of war: what each player's pieces see; a cell outside a
    /// player's sight shows them nothing (no piece, no mark). Absent:
    /// every cell is seen.
    #[serde(default)]
    pub(super) sight: Option<RawSight>,
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

/// A kind's `royal:`: `true`/`false`, or `checked` or `captured`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub(super) enum RawRoyal {
    /// `true`: checked (as `checked`); `false`: not royal.
    Flag(bool),
    /// `checked` or `captured`.
    Word(String),
}

/// `words:`: event labels and choice questions in the variant's language.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawWords {
    /// Event labels, by event name.
    #[serde(default)]
    pub(super) events: IndexMap<String, String>,
    /// Choice questions, by reason.
    #[serde(default)]
    pub(super) questions: IndexMap<String, String>,
}

/// One of `counters:`: what the host needs to know of a counter.
#[derive(Debug, Default, Deserialize, JsonSchema)]
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

/// How actions are written (docs/variant-format.md, "Notation").
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawNotation {
    /// The notation style (default `coordinates`).
    #[serde(default)]
    pub(super) style: Option<NotationStyle>,
    /// Written before a capture's destination (`san`) or before each captured
    /// cell (`letter_captures`).
    #[serde(default)]
    pub(super) capture_mark: Option<String>,
    /// The check mark (`+`); accepted and ignored on input.
    #[serde(default)]
    pub(super) check: Option<String>,
    /// The mate mark (`#`); accepted and ignored on input.
    #[serde(default)]
    pub(super) mate: Option<String>,
    /// Written before a promotion's new kind (`e8=Q`).
    #[serde(default)]
    pub(super) promotion_mark: Option<String>,
    /// Moves written by a name (`NAME: { kind: KIND, moves: [e1-g1, e8-g8] }`).
    #[serde(default)]
    #[schemars(with = "IndexMap<String, RawNamedMove>")]
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
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawNumbering {
    /// A cell of the colour that is numbered (`a1`).
    pub(super) colour_of: String,
    /// The player as whom the board is seen when counting.
    pub(super) seen_by: String,
}

/// One of `notation.records`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRecordName {
    /// The format's name of the game (PGN `Variant`, SGF `GM`, PDN `GameType`).
    pub(super) game: String,
    /// Properties or tags of the format read into and written from options.
    #[serde(default)]
    pub(super) options: IndexMap<String, String>,
}

/// One of `notation.named_moves`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawNamedMove {
    /// The kind of the piece that makes the move.
    pub(super) kind: String,
    /// `from-to` pairs (`e1-g1`).
    pub(super) moves: Vec<String>,
    /// Other spellings read as this name (`0-0`).
    #[serde(default)]
    pub(super) also: Vec<String>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawBoard {
    /// The number of files (columns, `a`, `b`, ...).
    #[serde(default)]
    pub(super) files: Option<u8>,
    /// The number of ranks (rows, from 1).
    #[serde(default)]
    pub(super) ranks: Option<u8>,
    /// Terrain tags and their cells (`lake: [c5:d6, g5:h6]`).
    #[serde(default)]
    #[schemars(with = "IndexMap<String, Vec<String>>")]
    pub(super) terrain: IndexMap<String, Vec<Spanned<String>>>,
    /// Terrain tags no piece may enter or cross.
    #[serde(default)]
    #[schemars(with = "Option<Vec<String>>")]
    pub(super) blocking: Option<Vec<Spanned<String>>>,
    /// Named sets of cells (`red_home: [a1:j4]`).
    #[serde(default)]
    #[schemars(with = "IndexMap<String, Vec<String>>")]
    pub(super) zones: IndexMap<String, Vec<Spanned<String>>>,
    /// Cell counters at the start, by counter then zone: every cell of
    /// the zone starts with that value (`stones: { holes: 4 }`).
    #[serde(default)]
    #[schemars(with = "IndexMap<String, IndexMap<String, i64>>")]
    pub(super) counts: IndexMap<String, Spanned<IndexMap<String, i64>>>,
    /// Direction sets of the variant's own, by name, beside the built-in
    /// ones (`orthogonal`, `knight`, `forward`...).
    #[serde(default)]
    #[schemars(with = "IndexMap<String, super::raw_forms::RawDirections>")]
    pub(super) directions: IndexMap<String, Spanned<super::raw_forms::RawDirections>>,
    /// A graph board: the only cells on the board (`[a1, d1, g1, ...]`);
    /// `files` and `ranks` default to the box around them.
    #[serde(default)]
    #[schemars(with = "Option<Vec<String>>")]
    pub(super) points: Option<Spanned<Vec<Spanned<String>>>>,
    /// A graph board's lines, each its points in order along one direction
    /// (`[[a1, d1, g1], [a1, a4, a7]]`): a step goes to the next point of a
    /// line. Without lines, pieces move from cell to cell among the points.
    #[serde(default)]
    #[schemars(with = "Option<Vec<Vec<String>>>")]
    pub(super) lines: Option<Vec<Spanned<Vec<Spanned<String>>>>>,
    /// How the board is drawn: `square` (the default) or `hex` (each rank
    /// shifted half a cell from the one below; move with the `hex`
    /// directions).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub(super) shape: Option<Spanned<String>>,
    /// At most this many pieces of one owner and kind may stand on one
    /// cell (a stack, its count shown with the board); default 1.
    #[serde(default)]
    #[schemars(with = "Option<u8>")]
    pub(super) stacks: Option<Spanned<u8>>,
    /// With `shape: hex`, a hexagon of this many cells a side (`files` and
    /// `ranks` are `2 * size - 1`); without it, the whole rhombus.
    #[serde(default)]
    #[schemars(with = "Option<u8>")]
    pub(super) size: Option<Spanned<u8>>,
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
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawOptionDecl {
    /// The option's value unless a player sets it (`-o NAME=VALUE`).
    default: Value,
    /// What the option changes, for players.
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

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPiece {
    /// The kind's name, as shown.
    #[serde(default)]
    pub(super) name: Option<String>,
    /// Its symbol on a text board; a new kind in a child variant must have one.
    #[serde(default)]
    pub(super) symbol: Option<String>,
    /// One letter for the kind in setup strings and `start` (upper case for the
    /// first player).
    #[serde(default)]
    pub(super) code: Option<char>,
    /// A mark beside the code in positions, telling this kind from
    /// another of the same code: `+` before it (`+P`, as SFEN writes a
    /// promoted pawn) or `~` after it (`Q~`, as FEN dialects with drops write a
    /// queen that was a pawn).
    #[serde(default)]
    pub(super) code_mark: Option<char>,
    /// What a piece of this kind becomes when it is captured into a hand
    /// (a promoted kind going back to the kind it came from).
    #[serde(default)]
    pub(super) demotes_to: Option<String>,
    /// A number for the script's use (a rank that decides strikes, say).
    #[serde(default)]
    pub(super) rank: Option<i64>,
    /// How many of this kind each player has.
    #[serde(default)]
    pub(super) count: Option<u32>,
    /// How the kind moves: a list of declared moves (`step`, `slide`, `path`,
    /// `place`, jumps).
    #[serde(default)]
    #[schemars(with = "Option<Vec<RawMove>>")]
    pub(super) moves: Option<Vec<Spanned<RawMove>>>,
    /// The letter that names the kind in move notation (none: from-to).
    #[serde(default)]
    pub(super) letter: Option<String>,
    /// Royal: `true` (or `checked`): a move that leaves such a piece
    /// capturable is illegal, and a player who cannot move while it is
    /// attacked is checkmated; `captured`: no check rule, and the player
    /// who captures it wins.
    #[serde(default)]
    pub(super) royal: Option<RawRoyal>,
    /// A direction set: a move that leaves a piece of this royal kind and
    /// an enemy royal piece on one line along these directions, nothing
    /// between them, is illegal (the royal pieces may not face each other).
    #[serde(default)]
    pub(super) not_facing: Option<String>,
    /// Promotion: ending a move in a zone, the owner chooses a new kind.
    #[serde(default)]
    pub(super) promote: Option<RawPromote>,
    /// The enemy pieces next to a piece of this kind cannot move.
    #[serde(default)]
    #[schemars(with = "Option<RawFreeze>")]
    pub(super) freezes: Option<Spanned<RawFreeze>>,
    /// Enemy pieces this kind captures by custody when it lands.
    #[serde(default)]
    #[schemars(with = "Option<RawCustody>")]
    pub(super) custody: Option<Spanned<RawCustody>>,
    /// Terrain tags whose cells a piece of this kind may neither enter nor
    /// pass.
    #[serde(default)]
    #[schemars(with = "Option<Vec<String>>")]
    pub(super) barred: Option<Spanned<Vec<String>>>,
    /// Terrain tags whose cells a piece of this kind may pass but not stop
    /// on.
    #[serde(default)]
    #[schemars(with = "Option<Vec<String>>")]
    pub(super) no_stop: Option<Spanned<Vec<String>>>,
    /// The kind's picture on the board in a browser: an SVG file, its path
    /// relative to the file that names it (a child variant inherits its
    /// base's images and may replace one). Its shapes are filled with the
    /// owner's colour and outlined in the ink that contrasts with it; at most
    /// 64 KB, plain shapes only (no scripts, styles, events or links).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub(super) image: Option<Spanned<String>>,
    /// What a piece of this kind sees (the keys given replace the
    /// variant's `sight:` for this kind).
    #[serde(default)]
    pub(super) sight: Option<RawSight>,
    /// Merged key by key with the base kind's attributes.
    #[serde(default)]
    pub(super) attrs: IndexMap<String, Value>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawMove {
    /// One step in a direction set (`orthogonal`, `diagonal`, `all`, `knight`,
    /// `forward`, ...).
    #[serde(default)]
    pub(super) step: Option<String>,
    /// A line through empty cells in a direction set.
    #[serde(default)]
    pub(super) slide: Option<String>,
    /// Up to `steps` steps through empty cells, turning freely.
    #[serde(default)]
    pub(super) path: Option<String>,
    /// With `path`: at most this many steps.
    #[serde(default)]
    pub(super) steps: Option<u8>,
    /// With `slide`: at most this many cells.
    #[serde(default)]
    pub(super) max: Option<u8>,
    /// With `slide`: may strike an enemy at the end of the line (else only next
    /// to it).
    #[serde(default)]
    pub(super) strike_at_range: Option<Param<bool>>,
    /// The piece is revealed when it moves further than this many cells.
    #[serde(default)]
    pub(super) reveal_beyond: Option<u8>,
    /// What the move may end on: `empty`, `enemy` or `any` (the default).
    #[serde(default)]
    pub(super) onto: Option<String>,
    /// Only these enemy kinds may be struck (default: any).
    #[serde(default)]
    pub(super) onto_kinds: Option<Vec<String>>,
    /// A jump sequence: the directions of each jump (`diagonal`, ...).
    #[serde(default)]
    pub(super) jump: Option<String>,
    /// The old name of a slide's `over_kinds` (refused with that hint).
    #[serde(default)]
    #[schemars(skip)]
    pub(super) jump_kinds: Option<Vec<String>>,
    /// The old name of a slide's `max_over` (refused with that hint).
    #[serde(default)]
    #[schemars(skip)]
    pub(super) max_jumps: Option<Param<i64>>,
    /// With `over: enemy` on a slide: at most this many pieces leapt in
    /// one slide.
    #[serde(default)]
    pub(super) max_over: Option<Param<i64>>,
    /// Only from the cells of this zone (`<player>_<zone>` when the board has
    /// one for the mover, else `<zone>`).
    #[serde(default)]
    pub(super) from_zone: Option<String>,
    /// A step, slide or path only onto the cells of this zone
    /// (`<player>_<zone>` when the board has one for the mover, else
    /// `<zone>`): the piece is confined to it.
    #[serde(default)]
    pub(super) to_zone: Option<String>,
    /// A step, slide or path only onto a cell that passes every one of
    /// these conditions on the cell itself (`{ terrain: T }`, `{ mark:
    /// NAME }`, `{ mark: { NAME: VALUE } }`, `{ counter: NAME }`, `{ zone:
    /// NAME }`, `{ not: CONDITION }`); what may stand there is `onto`.
    #[serde(default, rename = "where")]
    #[schemars(schema_with = "super::schema::conditions_schema")]
    pub(super) landing: Vec<Spanned<Value>>,
    /// A slide or path only through cells that pass every one of these
    /// conditions (as in `where`), and a lame leap only past such cells:
    /// the move may still end on a cell that fails (its `where` decides),
    /// but goes no further.
    #[serde(default)]
    #[schemars(schema_with = "super::schema::conditions_schema")]
    pub(super) through: Vec<Spanned<Value>>,
    /// With `step`: a lame leap, blocked when a cell it passes holds a
    /// piece or blocking terrain (the cells of its straight steps first,
    /// then of its diagonal ones: `(1, 2)` passes `(0, 1)`, `(2, 2)`
    /// passes `(1, 1)`).
    #[serde(default)]
    pub(super) lame: Option<bool>,
    /// With `slide`: the slide passes exactly this many pieces (screens,
    /// of any owner) and may end only beyond the last of them, on the
    /// empty cells after it or on the first piece after it.
    #[serde(default)]
    pub(super) screens: Option<u8>,
    /// A placement: a new piece from the mover's supply (`place: supply`),
    /// or one of the mover's pieces in hand (`place: hand`, a drop).
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
    /// A placement never onto this zone's cells (a drop's last ranks).
    #[serde(default)]
    pub(super) outside: Option<String>,
    /// A placement never into a file that holds one of the mover's pieces
    /// of these kinds (two unpromoted pawns in a file).
    #[serde(default)]
    pub(super) not_in_file_with: Option<Vec<String>>,
    /// A placement that would checkmate at once is illegal.
    #[serde(default)]
    pub(super) no_mate: Option<bool>,
    /// A placement: how many pieces of the kind each player has to place
    /// in all (default: unlimited).
    #[serde(default)]
    pub(super) supply: Option<u16>,
    /// A step, slide or path only while this holds for the mover.
    #[serde(default)]
    pub(super) when: Option<RawWhen>,
    /// What a jump leaps over: `enemy`, `own` or `piece`. On a slide,
    /// `enemy`: the slide may leap enemy pieces, each followed by an empty
    /// cell, and captures them.
    #[serde(default)]
    pub(super) over: Option<String>,
    /// Only these kinds may be jumped (or leapt by a slide) over.
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
    /// With `compulsory`, only the sequences that jump the most pieces are
    /// legal.
    #[serde(default)]
    pub(super) longest: Option<bool>,
    /// A race by the dice along a track: the first player's cells in the
    /// order a piece travels, each a cell or a run along a rank or file
    /// (`[a2:l2, l1:a1]`); the other player's track is it mirrored in rank.
    #[serde(default)]
    pub(super) race: Option<Vec<String>>,
    /// With `race`: the first player's cell where hit pieces wait to enter.
    #[serde(default)]
    pub(super) bar: Option<String>,
    /// With `race`: the first player's cell pieces are borne off to.
    #[serde(default)]
    pub(super) off: Option<String>,
    /// With `race`: how many last cells of the track are home (where all of
    /// a player's pieces must be before bearing off).
    #[serde(default)]
    pub(super) home: Option<u8>,
}

/// A kind that changes when it ends a move in a zone.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPromote {
    /// `<player>_<zone>` when the board has one, else `<zone>`.
    pub(super) zone: String,
    /// The kinds the owner chooses from.
    pub(super) to: Vec<String>,
    /// The owner may also keep the kind (default false), unless the piece
    /// could never move again where it stands.
    #[serde(default)]
    pub(super) optional: Option<bool>,
    /// A move that starts in the zone promotes too, not only one that ends
    /// there (default false).
    #[serde(default)]
    pub(super) leaving: Option<bool>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSetup {
    /// Each player's setup zone (`red: red_home`).
    #[serde(default)]
    #[schemars(with = "IndexMap<String, String>")]
    pub(super) zones: IndexMap<String, Spanned<String>>,
}
