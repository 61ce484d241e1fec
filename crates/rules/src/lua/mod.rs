//! The Lua bridge's public face: the types the engine hands in and gets
//! back, over a sandboxed Luau state per loaded variant.
//!
//! Sandbox: only the `math`, `string`, `table`, `utf8`, `bit32` and `buffer`
//! libraries; no `io`, `os`, `debug`, `require`, `load`, `loadstring`,
//! `getfenv`/`setfenv`, `collectgarbage`, `newproxy`; globals and the `rules`
//! table are read-only once the script has loaded, so a script keeps no state
//! of its own between calls. Every hook call has an instruction budget
//! (counted by Luau's interrupt, which fires on calls and loop back-edges) and
//! the state has a memory limit. `math.random` draws from the game's seeded
//! generator.
//!
//! During a hook call the Lua state's call context points at the game state
//! (see [`CallCtx`]), so API functions read and change it directly; a hook
//! that may change it works on the engine's copy, which is discarded if the
//! hook fails, and a read-only question copies the state only if it writes.
//!
//! The parts, one reason to change each:
//! - `sandbox`: what makes the Luau state safe (libraries, globals, budget,
//!   memory);
//! - `context`: the call context the API works through, and converting
//!   Lua values to the game's;
//! - `prelude` (with `prelude.luau`): the tables rules receive;
//! - `api`: the `g` object, one file per area;
//! - `load`: making [`Rules`] from a variant's scripts;
//! - `hooks`: the hooks a script defines, and calling them;
//! - `repl`: evaluating typed Lua and printing its values;
//! - `errors`: turning Lua errors into messages and diagnostics.

mod api;
pub mod api_docs;
pub mod api_spec;
mod budget;
mod bytecode;
mod call;
mod context;
mod declared;
mod errors;
mod freeze;
mod hooks;
mod limits;
mod load;
mod prelude;
mod repl;
mod sandbox;

use mlua::{Function, Lua};

use crate::base::geometry::Cell;
use crate::base::state::{PieceId, PlayerId};
use crate::variant::Value;

pub use budget::ActionScope;
pub use context::{AttackedQuery, CallCtx};
pub use errors::{describe_error, script_diagnostic};
pub use hooks::RuleHook;
pub use limits::escape;
pub use repl::{is_incomplete, show_value};

/// Instruction budget per hook call, in interrupt ticks.
pub const DEFAULT_BUDGET: i64 = 2_000_000;
/// Instruction budget of one engine step's script calls together (see
/// [`ActionScope`]): one and a half calls' worth.
pub const ACTION_BUDGET: i64 = DEFAULT_BUDGET + DEFAULT_BUDGET / 2;
/// Memory limit of a variant's Lua state.
pub const DEFAULT_MEMORY: usize = 64 << 20;

/// What an action is, as `rules.after_action` and `rules.filter` name it
/// (`action.kind`, one of `ACTION_KINDS`, in the same order).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ActionKind {
    /// A piece from one cell to another (a step, a slide, a leap, a strike).
    #[default]
    Move,
    /// An answered choice.
    Choice,
    /// A declared action or one the script lists.
    Scripted,
    /// A draw offered or accepted.
    Draw,
    /// A jump sequence of the move language (`a1xc3xe5`).
    Jump,
    /// A piece placed from a supply or hand (the move language's `place`).
    Place,
    /// A pass (the turn, or a reaction declined).
    Pass,
}

/// The names of the [`ActionKind`]s, handed to the prelude once.
const ACTION_KINDS: [&str; 7] = [
    "move", "choice", "scripted", "draw", "jump", "place", "pass",
];

impl ActionKind {
    /// Every kind, in the order of `ACTION_KINDS`.
    pub const ALL: [ActionKind; 7] = [
        ActionKind::Move,
        ActionKind::Choice,
        ActionKind::Scripted,
        ActionKind::Draw,
        ActionKind::Jump,
        ActionKind::Place,
        ActionKind::Pass,
    ];

    /// The name scripts see.
    pub fn name(self) -> &'static str {
        ACTION_KINDS[self as usize]
    }

    /// What an action of this kind is, as `docs/lua-api.md` says it.
    pub fn what(self) -> &'static str {
        match self {
            ActionKind::Move => "a piece from one cell to another: a step, slide or leap, a strike",
            ActionKind::Choice => "an answered choice",
            ActionKind::Scripted => "a declared action, or one the script lists",
            ActionKind::Draw => "a draw offered or accepted",
            ActionKind::Jump => "a jump sequence of the move language",
            ActionKind::Place => "a piece placed from a supply or hand",
            ActionKind::Pass => "a pass: the turn, or a reaction declined",
        }
    }
}

/// An action as `rules.after_action` sees it, and a move (a step, slide
/// or leap, a jump sequence, a placement) as `rules.filter` is asked about
/// it: both tables are built from this by one builder, so they carry the
/// same fields.
#[derive(Clone, Debug, Default)]
pub struct ActionInfo {
    pub kind: ActionKind,
    /// The action's text; `None` for a move (the table builds `from-to`
    /// when the script asks for it).
    pub text: Option<String>,
    pub player: PlayerId,
    pub from: Option<Cell>,
    pub to: Option<Cell>,
    pub piece: Option<PieceId>,
    /// The acting piece's kind (before the action).
    pub piece_kind: Option<crate::base::state::KindId>,
    /// The cells the piece stands on along the way, from `from` to `to`
    /// (a jump sequence's every landing); empty: from and to (a placement:
    /// to), as the table then says.
    pub path: Vec<Cell>,
    /// How many pieces the action captured (after the action only).
    pub captured: usize,
    /// The cells of the pieces it captured (after the action only).
    pub captures: Vec<Cell>,
}

/// A kind as piece tables show it: rank, whether it moves, attributes.
pub type KindInfo = (i64, bool, Vec<(String, Value)>);

/// Static facts about a variant that scripts may read as globals.
#[derive(Clone, Debug, Default)]
pub struct Facts {
    pub kinds: Vec<String>,
    /// Per kind: its rank, whether it moves, and its attributes.
    pub kind_info: Vec<KindInfo>,
    /// Cell names in index order.
    pub cells: Vec<String>,
    pub players: Vec<String>,
    pub files: i64,
    pub ranks: i64,
    /// The variant's tokens: the script's read-only `tokens`.
    pub tokens: Vec<crate::variant::Token>,
}

/// A loaded rules script.
pub struct Rules {
    lua: Lua,
    budget_per_call: i64,
    script_name: String,
    script_names: Vec<String>,
    /// The hooks the script defined.
    hooks: hooks::Hooks,
    api: mlua::AnyUserData,
    /// Builds the action table and calls `rules.after_action`.
    after_action_caller: Function,
    /// Builds both piece tables and calls `rules.strike`.
    strike_caller: Function,
    /// The script's `rules` table (declared actions' and choices' functions).
    table: mlua::Table,
    /// Its functions as the scripts left them when they loaded.
    functions: std::collections::HashMap<String, Function>,
    /// The fast hooks' `cells` buffer, rewritten for each call (see
    /// `hooks::Rules::with_cells`).
    cells: hooks::SharedCells,
}
