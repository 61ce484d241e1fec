//! The variant YAML's turn flow and declared actions as written (`turn:`,
//! `phases:`, `reactions:`, `containers:`, `actions:`): serde structs, kept
//! apart from [`super::raw`] (which re-exports them) for its length.
//!
//! Changes when one of these sections gains, renames or drops a field; what
//! a new field needs for the schema is said in [`super::raw`].

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_saphyr::Spanned;

use super::raw::Param;
use super::schema::OPTION_REF;
use super::Value;

/// `turn:` how many counted actions a turn allows.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTurn {
    /// How many counted actions a turn allows.
    #[serde(default)]
    pub(super) actions: Option<u8>,
    /// Who plays first: a player, `random`, or `$option`.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub(super) first: Option<Spanned<String>>,
}

/// One phase as written (`phases:` is a list).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPhase {
    /// The phase's name (`g:phase()` in scripts).
    #[schemars(with = "String")]
    pub(super) name: Spanned<String>,
    /// The declared actions this phase offers (default: every action that is
    /// not a reaction).
    #[serde(default)]
    #[schemars(with = "Option<Vec<String>>")]
    pub(super) actions: Option<Vec<Spanned<String>>>,
    /// The phase ends after this many rounds (default: when a rule calls
    /// `g:end_phase()`; the last phase lasts the rest of the game).
    #[serde(default)]
    pub(super) rounds: Option<u16>,
    /// `clockwise` (the default) or `reverse`: starts with the player before
    /// the first and goes counter-clockwise.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub(super) order: Option<Spanned<String>>,
}

/// One reaction window as written.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawReaction {
    /// The window opens by itself after these declared actions (else a rule
    /// opens it with `g:open_window`).
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub(super) after: Vec<Spanned<String>>,
    /// Who is asked: `others` (the default) or `all` (the player whose turn it
    /// is asked last).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub(super) who: Option<Spanned<String>>,
    /// `able` (the default): only players who can take one of `actions`;
    /// `everyone`.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub(super) ask: Option<Spanned<String>>,
    /// `next` (the default) or, with `who: all`, `mover`: the player whose turn
    /// it is asked first.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub(super) from: Option<Spanned<String>>,
    /// The declared actions a reacting player may take, besides `pass`.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub(super) actions: Vec<Spanned<String>>,
    /// The function of the script's `rules` table called when everyone asked
    /// has passed.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub(super) on_pass: Option<Spanned<String>>,
    /// `close` (the default): a reaction closes the window; `next`: the others
    /// are still asked.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub(super) after_react: Option<Spanned<String>>,
}

/// One container of items as written.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawContainer {
    /// Each player has one of their own (else one shared container).
    #[serde(default)]
    pub(super) per_player: Option<bool>,
    /// `queue` (the default: draws from the front), `stack` (shuffled at the
    /// start, draws from the top) or `bag` (draws a random item).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub(super) order: Option<Spanned<String>>,
    /// Who sees the faces: `nobody` (the default), `owner` or `all`.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub(super) contents: Option<Spanned<String>>,
    /// Who sees how many items it holds: `all` (the default), `owner` or
    /// `nobody`.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub(super) count: Option<Spanned<String>>,
    /// The items it holds when the game starts.
    #[serde(default)]
    pub(super) items: RawItems,
}

/// A container's starting items: a map of faces to counts (each a number
/// or `$option`), or `$option` naming a text option that holds a whole
/// mix (`face:count,face:count`, a face alone counting one).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub(super) enum RawItems {
    Map(IndexMap<String, Param<u32>>),
    Opt(#[schemars(regex(pattern = OPTION_REF))] String),
}

impl Default for RawItems {
    fn default() -> Self {
        RawItems::Map(IndexMap::new())
    }
}

/// One declared action as written.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawAction {
    /// How the action is written, with its parameters in braces
    /// (`{from}~{to}`); default: the name and the parameters' cells.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub(super) text: Option<Spanned<String>>,
    /// At most two parameters (cells), each with a source and conditions.
    #[serde(default)]
    #[schemars(with = "IndexMap<String, RawActionParam>")]
    pub(super) params: IndexMap<String, Spanned<RawActionParam>>,
    /// What the action costs the player.
    #[serde(default)]
    pub(super) cost: Option<RawCost>,
    /// A container of the player's that must not be empty.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub(super) needs: Option<Spanned<String>>,
    /// Counts against `turn.actions` (default true).
    #[serde(default)]
    pub(super) counts: Option<bool>,
    /// At most once a turn.
    #[serde(default)]
    pub(super) once: Option<bool>,
    /// No counted action after it this turn: true, false, `$option` or
    /// `!$option`.
    #[serde(default)]
    #[schemars(schema_with = "super::schema::closes_schema")]
    pub(super) closes: Option<Param<bool>>,
    /// The turn passes after it (else the player acts again).
    #[serde(default)]
    pub(super) ends_turn: Option<bool>,
    /// The function of the script's `rules` table that carries the action out.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub(super) perform: Option<Spanned<String>>,
    /// The function of the script's `rules` table asked whether the action is
    /// legal.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub(super) legal: Option<Spanned<String>>,
    /// `perform` is called only when one of these conditions holds on a
    /// parameter's cell.
    #[serde(default)]
    #[schemars(with = "Option<RawPerformIf>")]
    pub(super) perform_if: Option<Spanned<RawPerformIf>>,
    /// The first parameter's piece moves to the second parameter's cell.
    #[serde(default)]
    pub(super) moves: Option<bool>,
    /// The front piece of the player's `needs` container is placed on the
    /// parameter's cell (natively, before `perform`).
    #[serde(default)]
    pub(super) places: Option<bool>,
    /// What the action does natively, in order, after `moves` and `places`
    /// and before `perform`: each item one effect on a parameter's cell
    /// (`flip`, `capture`, `send`, `add`).
    #[serde(default)]
    #[schemars(with = "Vec<RawDoes>")]
    pub(super) does: Vec<Spanned<RawDoes>>,
    /// After the action, the player picks a cell of a named query.
    #[serde(default)]
    #[schemars(with = "Option<RawActionChoose>")]
    pub(super) choose: Option<Spanned<RawActionChoose>>,
    /// A boolean or a boolean option: when false, the variant has no such
    /// action (true if absent).
    #[serde(default)]
    pub(super) enabled: Option<Param<bool>>,
}

/// One item of `actions.<name>.does`: exactly one of `flip`, `capture`,
/// `send` (with `to`) or `add` (with `counter` and `at`), each naming a
/// parameter of the action.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawDoes {
    /// The piece on this parameter's cell becomes the mover's (a flip).
    #[serde(default)]
    pub(super) flip: Option<String>,
    /// The piece on this parameter's cell is captured.
    #[serde(default)]
    pub(super) capture: Option<String>,
    /// The piece on this parameter's cell goes to the mover's container
    /// named by `to`.
    #[serde(default)]
    pub(super) send: Option<String>,
    /// With `send`: the container (the mover's own of that name).
    #[serde(default)]
    pub(super) to: Option<String>,
    /// Adds this amount (a negative one removes) to the cell counter
    /// `counter` of the `at` parameter's cell.
    #[serde(default)]
    pub(super) add: Option<i64>,
    /// With `add`: the cell counter's name.
    #[serde(default)]
    pub(super) counter: Option<String>,
    /// With `add`: the parameter whose cell it is.
    #[serde(default)]
    pub(super) at: Option<String>,
    /// Sows the cell counter `counter` of this parameter's cell: lifted,
    /// then one dropped on each following cell of the mover's `circuit`.
    #[serde(default)]
    pub(super) sow: Option<String>,
    /// With `sow`: the zone whose cells, in the order written, are the
    /// circuit (`<player>_<zone>` per player, else the zone for all).
    #[serde(default)]
    pub(super) circuit: Option<String>,
    /// With `sow`: the lifted cell is passed over when the circuit comes
    /// round to it (default false).
    #[serde(default)]
    pub(super) skip_origin: Option<bool>,
    /// With `sow`: a zone; the last drop in the mover's cells of it keeps
    /// the turn with the mover.
    #[serde(default)]
    pub(super) again: Option<String>,
    /// With `sow`: a zone whose first cell (the mover's) receives what is
    /// taken.
    #[serde(default)]
    pub(super) store: Option<String>,
    /// With `sow`: a per-player counter that receives what is taken
    /// (instead of a `store` cell).
    #[serde(default)]
    pub(super) score: Option<String>,
    /// With `sow`: a zone; the last drop in an empty cell of the mover's
    /// there takes it and the opposite cell's counts (same file, rank
    /// mirrored) when that cell has some.
    #[serde(default)]
    pub(super) opposite: Option<String>,
    /// With `sow`: the counts the last cell may hold to be taken
    /// (`[2, 3]`), when it is another player's cell of `within`.
    #[serde(default)]
    pub(super) take: Option<Vec<i64>>,
    /// With `take`: the cells before the last one along the circuit are
    /// taken too, while each is another player's cell of `within` and
    /// holds a count of the set.
    #[serde(default)]
    pub(super) back: Option<bool>,
    /// With `take`: the zone (its other players' cells) where counts are
    /// taken.
    #[serde(default)]
    pub(super) within: Option<String>,
    /// With `take`: nothing is taken when it would take every count the
    /// other players have in `within` (the sowing stands).
    #[serde(default)]
    pub(super) not_all: Option<bool>,
}

/// `actions.<name>.choose`: a choice of a cell of a named query that the
/// host asks after the action, instead of calling `perform`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawActionChoose {
    /// The named query (`queries:`) whose cells are offered.
    pub(super) query: String,
    /// The question the player is asked.
    pub(super) question: String,
    /// The function of the script's `rules` table that takes the answer.
    pub(super) handler: String,
    /// Everyone sees the choice and its answer.
    #[serde(default)]
    pub(super) public: bool,
    /// Not asked when the player has no piece on the board.
    #[serde(default)]
    pub(super) only_with_pieces: bool,
}

/// When an action's `perform` is called: only if one of `any` holds on
/// the cell of parameter `param` (after a `moves` action has moved).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPerformIf {
    /// The parameter whose cell is looked at.
    #[schemars(with = "String")]
    pub(super) param: Spanned<String>,
    /// Conditions (as in `where`), one of which must hold.
    #[schemars(schema_with = "super::schema::conditions_schema")]
    pub(super) any: Vec<Spanned<Value>>,
}

/// An action parameter: where its values come from and what they must be.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawActionParam {
    /// Where the cells come from: `own_pieces`, `near_own`, `cells`,
    /// `sight`, `{ zone: NAME }`, `{ own_zone: NAME }`, `{ first_zone: [NAME, ...] }`, `{ next_to:
    /// PARAM }`, `{ flood: PARAM, through: TERRAIN }`.
    #[schemars(schema_with = "super::schema::source_schema")]
    pub(super) from: Spanned<Value>,
    /// Conditions every cell must pass (`empty`, `enemy`, `own`, `not_own`,
    /// `frozen`, `{ terrain: T }`, `{ zone: NAME }`, `{ mark: NAME }`, `{
    /// mark: { NAME: VALUE } }`, `{ attr: NAME }`, `{ counter: NAME }`, `{
    /// kind: KIND }`, `{ not: CONDITION }`).
    #[serde(default, rename = "where")]
    #[schemars(schema_with = "super::schema::conditions_schema")]
    pub(super) filters: Vec<Spanned<Value>>,
    /// A source used when `from` gives no cell that passes.
    #[serde(default, rename = "else")]
    #[schemars(schema_with = "super::schema::optional_source_schema")]
    pub(super) fallback: Option<Spanned<Value>>,
    /// When some cells pass these conditions, only those.
    #[serde(default)]
    #[schemars(schema_with = "super::schema::conditions_schema")]
    pub(super) prefer: Vec<Spanned<Value>>,
}

/// What an action costs: an amount of one of the player's counters.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCost {
    /// A per-player counter.
    pub(super) counter: String,
    /// How much is taken from it before `perform`.
    pub(super) amount: i64,
}
