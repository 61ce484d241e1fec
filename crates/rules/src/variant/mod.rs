//! The validated variant: [`Variant`] and its small accessors.
//!
//! Changes when a variant gains or loses a validated property. The loader
//! goes YAML → raw spec (`raw`, serde) → merged over its base (`merge`)
//! → validated [`Variant`] (`validate`); `load` finds and reads the files.
//!
//! Every error names the YAML file, line and column: syntax errors come from
//! serde-saphyr, and errors found after parsing (an unknown piece kind, a
//! square off the board, an unknown option) point at the offending value.

use std::path::PathBuf;

use crate::base::geometry::{Board, Cell};

pub mod actions;
pub mod describe;
pub mod forms;
pub mod sight;
pub mod strike;

/// A kind of thing that lies on cells (a tile's face, a card): a name and
/// its attributes (`tokens.<name>` in the YAML).
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub name: String,
    pub attrs: Vec<(String, Value)>,
}
mod child;
mod diagnostic;
pub mod flow;
pub mod image;
mod joint;
mod kinds;
mod load;
mod merge;
mod notation;
mod raw;
mod raw_flow;
mod raw_forms;
mod raw_rules;
mod raw_sight;
mod schema;
mod turn;
mod validate;
mod value;
mod words;

pub use diagnostic::{Diagnostic, LoadError};
pub use joint::{JointMove, JointMoves, Passing};
pub use kinds::{lame_legs, Freeze, Jump, Kind, MovePattern, Promote, Target, When};
pub use load::{bundled_variants, display_path, resolve_variant_path, yaml_error};
pub use notation::{NamedMove, Notation, NotationStyle, Numbering, RecordName};
pub use schema::{schema_json, SCHEMA_PATH};
pub use turn::{AfterActionWhen, NoMoves, NoProgress, WinWhen};
pub use value::Value;
pub use words::Words;

/// A declared option with its default and its current value.
#[derive(Clone, Debug)]
pub struct OptionSpec {
    pub name: String,
    pub default: Value,
    pub value: Value,
    pub doc: String,
}

/// A validated variant, with its options resolved.
#[derive(Clone, Debug)]
pub struct Variant {
    pub name: String,
    pub description: String,
    /// The YAML file it was loaded from.
    pub path: PathBuf,
    /// The Lua scripts, base variant first, and how to name them in messages.
    pub scripts: Vec<(PathBuf, String)>,
    /// The YAML files, base variant first (what `reload` must re-read).
    pub files: Vec<PathBuf>,
    pub players: Vec<String>,
    pub hidden_identities: bool,
    /// Colours declared for players (`colours:`): (player, `#rrggbb`).
    pub colours: Vec<(String, String)>,
    pub board: Board,
    pub options: Vec<OptionSpec>,
    pub kinds: Vec<Kind>,
    /// For each player, the zone where their army is set up.
    pub setup_zones: Vec<Vec<Cell>>,
    pub repetition_limit: Option<u32>,
    pub no_moves: NoMoves,
    /// A safety cap on game length (plies); the game is drawn when reached.
    pub max_plies: u32,
    /// Piece attributes shown to every viewer.
    pub public_attrs: Vec<String>,
    /// Symbols drawn for cell marks, by mark value.
    pub mark_symbols: Vec<(String, String)>,
    /// Whether players may offer and accept draws (`offer-draw`, `accept-draw`).
    pub draw_offers: bool,
    /// Whether a strike shows both pieces to every player before
    /// `rules.strike` resolves it.
    pub strike_reveals: bool,
    /// Whether a viewer may keep following a piece (by its id) after its
    /// identity, once shown to them, is hidden from them again
    /// (`rules.visibility.followable_when_hidden_again`). Off: the host refuses to
    /// hide a piece again from a viewer who knew it.
    pub followable_when_hidden_again: bool,
    /// Drawn when a position occurs this many times (board, player to move
    /// and `repetition_counters`).
    pub repetition_draw: Option<u32>,
    pub repetition_counters: Vec<String>,
    /// `rules.extra_moves` is asked only while one of these global counters
    /// is not 0 (empty: always).
    pub extra_moves_when: Vec<String>,
    /// The starting position (FEN-like), when the variant has one.
    pub start: Option<String>,
    /// Where `start` was written (file, line, column), for messages.
    pub start_at: Option<(String, u64, u64)>,
    pub notation: Notation,
    /// The no-progress draw (`rules.ends.no_progress`).
    pub no_progress: Option<NoProgress>,
    /// The move-number counter (`rules.bookkeeping.move_number`).
    pub move_number: Option<String>,
    /// When `rules.after_action` is called after a move: when one of these
    /// clauses holds (`rules.script.after_action_when`); `None`: always.
    pub after_action_when: Option<Vec<AfterActionWhen>>,
    /// `rules.captures` is asked only about the moves for which one of
    /// these clauses holds (`rules.script.captures_when`); `None`: all.
    pub captures_when: Option<Vec<AfterActionWhen>>,
    /// A win the host checks after every rules call (`rules.ends.win_when`).
    pub win_when: Option<WinWhen>,
    /// Two-piece moves under rights (`rules.bookkeeping.joint_moves`).
    pub joint_moves: Option<JointMoves>,
    /// Captures of a piece that passed a cell (`rules.bookkeeping.passing`).
    pub passing: Option<Passing>,
    /// What a capture blasts besides its victim (`blast`).
    pub blast: Option<forms::Blast>,
    /// How a strike ends, when declared (`strike:`; a script's
    /// `rules.strike` decides instead where it is defined).
    pub strike: Option<strike::StrikeTable>,
    /// When a player may pass (`pass:`); `None`: never, but by the
    /// no-move rule.
    pub pass: Option<forms::PassWhen>,
    /// Pieces in hand and where captured pieces go (`hands:`).
    pub hands: Option<forms::Hands>,
    /// Dice rolled at the start of every turn (`dice:`).
    pub dice: Option<forms::DiceDecl>,
    /// At most this many pieces of one owner and kind on a cell
    /// (`board.stacks`; 1: pieces do not stack).
    pub stacks: u8,
    /// Declared ends of the game (`ends:`), checked after every action.
    pub ends: Vec<forms::End>,
    /// Declared actions (`actions:`), listed by the host.
    pub actions: Vec<actions::ActionDecl>,
    /// How many counted actions a turn allows (`turn.actions`); `None`: no limit.
    pub turn_actions: Option<u8>,
    /// Named cell queries (`queries:`), answered by `g:query`.
    pub queries: Vec<actions::ParamDecl>,
    /// Kinds of things that lie on cells (`tokens:`), the script's `tokens`.
    pub tokens: Vec<Token>,
    /// Who plays first (`turn.first`).
    pub first: flow::First,
    /// The phases of the game (`phases:`), in order; empty: one phase.
    pub phases: Vec<flow::Phase>,
    /// Reaction windows (`reactions:`).
    pub reactions: Vec<flow::ReactionDecl>,
    /// Containers of items (`containers:`).
    pub containers: Vec<flow::ContainerDecl>,
    /// The variant's own words for events and choice questions.
    pub words: Words,
    /// Counters declared `internal` (`counters:`): rules bookkeeping that
    /// no view shows.
    pub internal_counters: Vec<String>,
    /// The kinds in the order the variant declares them (`pieces`, captured
    /// piles); for a child, the child's order.
    pub show_order: Vec<usize>,
    /// Fog of war (`sight:`): what each player's pieces see; `None`:
    /// every player sees every cell.
    pub sight: Option<sight::Sight>,
}

impl Variant {
    /// The variant's short name: its file name without `.yaml`.
    pub fn id(&self) -> String {
        self.path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("")
            .to_string()
    }

    pub fn option(&self, name: &str) -> Option<&Value> {
        self.options
            .iter()
            .find(|o| o.name == name)
            .map(|o| &o.value)
    }

    /// Whether a counter is rules bookkeeping, never shown (`internal`).
    pub fn is_internal_counter(&self, name: &str) -> bool {
        self.internal_counters.iter().any(|c| c == name)
    }

    pub fn kind_index(&self, name: &str) -> Option<usize> {
        self.kinds.iter().position(|k| k.name == name)
    }

    pub fn player_index(&self, name: &str) -> Option<usize> {
        self.players
            .iter()
            .position(|p| p.eq_ignore_ascii_case(name))
    }
}
