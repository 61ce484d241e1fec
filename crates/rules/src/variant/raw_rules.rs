//! `rules:` as written: what the host runs for every game of a variant,
//! grouped by purpose (ends, bookkeeping, visibility, display, script
//! gates), and the structs of the keys that have parts.
//!
//! Changes when a built-in rule gains a key or moves between groups (see
//! [`super::raw`] for the rest of the YAML).

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_saphyr::Spanned;

use super::raw::Param;
use super::NoMoves;

/// Which group of `rules:` each of its keys belongs to (before the groups,
/// these keys stood directly under `rules:`; a file that still writes them
/// so is told where each went). Held equal to the structs by a test.
pub(super) const RULES_GROUPS: &[(&str, &[&str])] = &[
    (
        "ends",
        &[
            "no_moves",
            "max_plies",
            "draw_offers",
            "repetition_draw",
            "no_progress",
            "win_when",
        ],
    ),
    (
        "bookkeeping",
        &[
            "repetition_limit",
            "repetition_counters",
            "move_number",
            "joint_moves",
            "passing",
        ],
    ),
    (
        "visibility",
        &[
            "strike_reveals",
            "followable_when_hidden_again",
            "public_attrs",
        ],
    ),
    ("display", &["mark_symbols"]),
    (
        "script",
        &["after_action_when", "extra_moves_when", "captures_when"],
    ),
];

/// `rules:`, grouped by purpose.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRules {
    /// What ends a game whatever its moves: a player with no action, a cap on
    /// plies, repetition, no progress, a win the host checks, agreed draws (the
    /// move language's own ends are the top-level `ends:`).
    #[serde(default)]
    pub(super) ends: RawRuleEnds,
    /// What the host counts and keeps for the rules: positions for repetition,
    /// a move number, moves of two pieces under rights, a passed cell, a
    /// limit on moving back and forth.
    #[serde(default)]
    pub(super) bookkeeping: RawBookkeeping,
    /// Who is shown what beyond the pieces' own visibility.
    #[serde(default)]
    pub(super) visibility: RawVisibility,
    /// How the board is drawn.
    #[serde(default)]
    pub(super) display: RawDisplay,
    /// When the host asks the script's hooks (script gates: a call to the
    /// script costs thousands of instructions, so the host can skip it).
    #[serde(default)]
    pub(super) script: RawScriptGates,
}

/// `rules.ends`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRuleEnds {
    /// What happens to a player with no legal action: `lose`, `draw`, `pass` or
    /// `lose_unless_all_stuck`.
    #[serde(default)]
    pub(super) no_moves: Option<NoMoves>,
    /// A safety cap: the game is drawn after this many plies.
    #[serde(default)]
    pub(super) max_plies: Option<u32>,
    /// Players may offer and accept draws.
    #[serde(default)]
    pub(super) draw_offers: Option<bool>,
    /// The game is drawn when the same position occurs this many times (a
    /// whole number, or `$option`; 0: no such draw).
    #[serde(default)]
    #[schemars(with = "Option<Param<i64>>")]
    pub(super) repetition_draw: Option<Spanned<Param<i64>>>,
    /// A draw after so many plies without a capture or a move of certain
    /// kinds (the fifty-move rule), counted by the host.
    #[serde(default)]
    #[schemars(with = "Option<RawNoProgress>")]
    pub(super) no_progress: Option<Spanned<RawNoProgress>>,
    /// A win the host checks after every rules call (`holds_attr`,
    /// `alone`), instead of a script's check after every action.
    #[serde(default)]
    #[schemars(with = "Option<RawWinWhen>")]
    pub(super) win_when: Option<Spanned<RawWinWhen>>,
}

/// `rules.bookkeeping`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawBookkeeping {
    /// A piece may not move back and forth between the same two cells more than
    /// this many times in a row.
    #[serde(default)]
    #[schemars(with = "Option<Param<i64>>")]
    pub(super) repetition_limit: Option<Spanned<Param<i64>>>,
    /// Counters that are part of a position for `repetition_draw`.
    #[serde(default)]
    pub(super) repetition_counters: Vec<String>,
    /// A global counter the host adds one to each time the turn comes back
    /// round to the first player (a move number).
    #[serde(default)]
    pub(super) move_number: Option<String>,
    /// Declared moves of two pieces at once under rights kept in a counter.
    #[serde(default)]
    #[schemars(with = "Option<RawJointMoves>")]
    pub(super) joint_moves: Option<Spanned<RawJointMoves>>,
    /// A long straight move that leaves the cell it crossed open to
    /// capture for one ply.
    #[serde(default)]
    #[schemars(with = "Option<RawPassing>")]
    pub(super) passing: Option<Spanned<RawPassing>>,
}

/// `rules.visibility`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawVisibility {
    /// Both pieces of a strike are shown to every player before `rules.strike`
    /// is asked.
    #[serde(default)]
    pub(super) strike_reveals: Option<bool>,
    /// The physical game lets a player follow a piece whose identity was
    /// shown to them and is hidden again (else the host refuses it).
    #[serde(default)]
    pub(super) followable_when_hidden_again: Option<bool>,
    /// Piece attributes everyone sees (items carried, markers on pieces).
    #[serde(default)]
    pub(super) public_attrs: Option<Vec<String>>,
}

/// `rules.display`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawDisplay {
    /// Symbols drawn for cell marks by value (`down: "#"`).
    #[serde(default)]
    pub(super) mark_symbols: Option<IndexMap<String, String>>,
}

/// `rules.script`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawScriptGates {
    /// When set, `rules.after_action` is called after a move only if one of
    /// these clauses holds (other actions always call it).
    #[serde(default)]
    #[schemars(with = "Option<Vec<RawAfterActionWhen>>")]
    pub(super) after_action_when: Option<Spanned<Vec<RawAfterActionWhen>>>,
    /// `rules.extra_moves` is asked only while one of these (global)
    /// counters is not 0 (none listed: always).
    #[serde(default)]
    pub(super) extra_moves_when: Vec<String>,
    /// When set, `rules.captures` is asked about a move only if one of
    /// these clauses holds (the same clauses as `after_action_when`, but
    /// `captures`): a move that holds none captures only what it lands on.
    #[serde(default)]
    #[schemars(with = "Option<Vec<RawAfterActionWhen>>")]
    pub(super) captures_when: Option<Spanned<Vec<RawAfterActionWhen>>>,
}

/// `rules.ends.win_when`: every condition given must hold for one player.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
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

/// `rules.bookkeeping.joint_moves`: the counter of rights and the moves.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawJointMoves {
    /// The counter whose bits hold the moves' rights.
    pub(super) counter: String,
    /// The joint moves.
    #[schemars(with = "Vec<RawJointMove>")]
    pub(super) moves: Vec<Spanned<RawJointMove>>,
}

/// One joint move: the mover and its partner, each from a cell to a cell.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawJointMove {
    /// The player who may make it.
    pub(super) player: String,
    /// The bit of the counter that holds this move's right.
    pub(super) right: i64,
    /// The mover's kind.
    pub(super) piece: String,
    /// The mover's cell.
    pub(super) from: String,
    /// Where the mover goes.
    pub(super) to: String,
    /// The partner's kind.
    pub(super) partner: String,
    /// The partner's cell.
    pub(super) partner_from: String,
    /// Where the partner goes.
    pub(super) partner_to: String,
    /// Cells that must be empty.
    #[serde(default)]
    pub(super) empty: Vec<String>,
    /// Cells where the mover must not be capturable (standing there).
    #[serde(default)]
    pub(super) safe: Vec<String>,
}

/// `rules.bookkeeping.passing`: which kinds pass, along which direction, and the
/// counter that holds 1 + the passed cell.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPassing {
    /// The global counter that holds 1 + the passed cell (0: none).
    pub(super) counter: String,
    /// The kinds that pass (and may be taken in passing).
    pub(super) kinds: Vec<String>,
    /// The direction set of the long move (per player: `forward`).
    pub(super) direction: String,
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RawNoProgress {
    /// The game is drawn after this many plies without progress (a whole
    /// number from 1, or `$option`).
    #[schemars(with = "Param<i64>")]
    pub(super) plies: Param<i64>,
    /// The global counter the host keeps the count in.
    pub(super) counter: String,
    /// A move of one of these kinds resets the count (as a capture does).
    #[serde(default)]
    pub(super) reset_kinds: Vec<String>,
    /// The outcome's reason.
    #[serde(default)]
    pub(super) reason: Option<String>,
}

/// One clause of `after_action_when`: every condition given must hold.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
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
