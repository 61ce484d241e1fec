//! The variant loader: YAML → raw spec (serde) → validated [`Variant`].
//!
//! Every error names the YAML file, line and column: syntax errors come from
//! serde-saphyr, and errors found after parsing (an unknown piece kind, a
//! square off the board, an unknown option) point at the offending value.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde::Deserialize;
use serde_saphyr::Spanned;

use crate::base::geometry::{Board, Cell};
use crate::base::state::{KindId, PlayerId};

/// One problem found while loading a variant, with its place in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub file: String,
    pub line: u64,
    pub column: u64,
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.column, self.message
        )
    }
}

/// All problems found while loading a variant.
#[derive(Clone, Debug)]
pub struct LoadError(pub Vec<Diagnostic>);

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LoadError {}

/// A value of a variant option (a named house rule).
#[derive(Clone, Debug, PartialEq, Deserialize, serde::Serialize)]
#[serde(untagged)]
pub enum Value {
    Bool(bool),
    Int(i64),
    Str(String),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Str(s) => write!(f, "{s}"),
        }
    }
}

impl Value {
    /// Parses option text given on a command line, typed like `like`.
    pub fn parse_like(text: &str, like: &Value) -> Result<Value, String> {
        match like {
            Value::Bool(_) => match text {
                "true" | "on" | "yes" | "1" => Ok(Value::Bool(true)),
                "false" | "off" | "no" | "0" => Ok(Value::Bool(false)),
                _ => Err(format!("expected true or false, found `{text}`")),
            },
            Value::Int(_) => text
                .parse()
                .map(Value::Int)
                .map_err(|_| format!("expected an integer, found `{text}`")),
            Value::Str(_) => Ok(Value::Str(text.to_string())),
        }
    }
    fn type_name(&self) -> &'static str {
        match self {
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Str(_) => "a string",
        }
    }
}

// ---------------------------------------------------------------- raw spec

/// A literal, or `$name` naming one of the variant's options.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
enum Param<T> {
    Lit(T),
    Opt(String),
}

/// One YAML file of a variant. Every field is optional so that a variant may
/// `extend` another and state only what differs; required fields are checked
/// after merging.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVariant {
    #[serde(default)]
    extends: Option<Spanned<String>>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    script: Option<Spanned<String>>,
    #[serde(default)]
    players: Option<Vec<String>>,
    /// With an int option named `players`, the game is played by the first
    /// `players` of the list; at least this many.
    #[serde(default)]
    min_players: Option<u8>,
    #[serde(default)]
    hidden_identities: Option<bool>,
    #[serde(default)]
    board: RawBoard,
    /// An option set to `~` (null) removes the base variant's option.
    #[serde(default)]
    options: IndexMap<String, Option<RawOption>>,
    /// A kind set to `~` (null) removes that kind of the base variant.
    #[serde(default)]
    pieces: IndexMap<String, Option<Spanned<RawPiece>>>,
    #[serde(default)]
    setup: RawSetup,
    /// The starting position as a FEN-like line (instead of set-up zones).
    #[serde(default)]
    start: Option<Spanned<String>>,
    #[serde(default)]
    notation: Option<RawNotation>,
    #[serde(default)]
    rules: RawRules,
}

/// How actions are written (see [`Notation`]).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNotation {
    #[serde(default)]
    style: Option<NotationStyle>,
    #[serde(default)]
    capture_mark: Option<String>,
    #[serde(default)]
    check: Option<String>,
    #[serde(default)]
    mate: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBoard {
    #[serde(default)]
    files: Option<u8>,
    #[serde(default)]
    ranks: Option<u8>,
    #[serde(default)]
    terrain: IndexMap<String, Vec<Spanned<String>>>,
    #[serde(default)]
    blocking: Option<Vec<Spanned<String>>>,
    #[serde(default)]
    zones: IndexMap<String, Vec<Spanned<String>>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOption {
    default: Value,
    #[serde(default)]
    doc: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPiece {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    symbol: Option<String>,
    #[serde(default)]
    code: Option<char>,
    #[serde(default)]
    rank: Option<i64>,
    #[serde(default)]
    count: Option<u32>,
    #[serde(default)]
    moves: Option<Vec<Spanned<RawMove>>>,
    /// The letter that names the kind in move notation (none: from-to).
    #[serde(default)]
    letter: Option<String>,
    /// Royal: a move that leaves such a piece capturable is illegal, and a
    /// player who cannot move while it is attacked is checkmated.
    #[serde(default)]
    royal: Option<bool>,
    /// Promotion: ending a move in a zone, the owner chooses a new kind.
    #[serde(default)]
    promote: Option<RawPromote>,
    /// Merged key by key with the base kind's attributes.
    #[serde(default)]
    attrs: IndexMap<String, Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMove {
    #[serde(default)]
    step: Option<String>,
    #[serde(default)]
    slide: Option<String>,
    #[serde(default)]
    path: Option<String>,
    #[serde(default)]
    steps: Option<u8>,
    #[serde(default)]
    max: Option<u8>,
    #[serde(default)]
    strike_at_range: Option<Param<bool>>,
    #[serde(default)]
    reveal_beyond: Option<u8>,
    /// What the move may end on: `empty`, `enemy` or `any` (the default).
    #[serde(default)]
    onto: Option<String>,
    /// Only these enemy kinds may be struck (default: any).
    #[serde(default)]
    onto_kinds: Option<Vec<String>>,
    /// A slide may jump enemy pieces (`enemy`), each followed by an empty cell.
    #[serde(default)]
    jump: Option<String>,
    /// Only these enemy kinds may be jumped (default: any).
    #[serde(default)]
    jump_kinds: Option<Vec<String>>,
    /// At most this many jumps in one slide.
    #[serde(default)]
    max_jumps: Option<Param<i64>>,
    /// Only from the cells of this zone (`<player>_<zone>` when the board has
    /// one for the mover, else `<zone>`).
    #[serde(default)]
    from_zone: Option<String>,
}

/// A kind that changes when it ends a move in a zone.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPromote {
    /// `<player>_<zone>` when the board has one, else `<zone>`.
    zone: String,
    /// The kinds the owner chooses from.
    to: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSetup {
    #[serde(default)]
    zones: IndexMap<String, Spanned<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRules {
    #[serde(default)]
    repetition_limit: Option<Spanned<Param<i64>>>,
    #[serde(default)]
    no_moves: Option<NoMoves>,
    #[serde(default)]
    max_plies: Option<u32>,
    #[serde(default)]
    draw_offers: Option<bool>,
    #[serde(default)]
    strike_reveals: Option<bool>,
    /// Piece attributes everyone sees (items carried, markers on pieces).
    #[serde(default)]
    public_attrs: Option<Vec<String>>,
    /// Symbols drawn for cell marks by value (`down: "#"`).
    #[serde(default)]
    mark_symbols: Option<IndexMap<String, String>>,
    /// The game is drawn when the same position occurs this many times.
    #[serde(default)]
    repetition_draw: Option<u32>,
    /// Counters that are part of a position for `repetition_draw`.
    #[serde(default)]
    repetition_counters: Vec<String>,
    /// `rules.extra_moves` is asked only while one of these (global)
    /// counters is not 0 (none listed: always).
    #[serde(default)]
    extra_moves_when: Vec<String>,
    /// A draw after so many plies without a capture or a move of certain
    /// kinds (the fifty-move rule), counted by the host.
    #[serde(default)]
    no_progress: Option<Spanned<RawNoProgress>>,
    /// A global counter the host adds one to each time the turn comes back
    /// round to the first player (a move number).
    #[serde(default)]
    move_number: Option<String>,
    /// When set, `rules.after_action` is called after a move only if one of
    /// these clauses holds (other actions always call it).
    #[serde(default)]
    after_action_when: Option<Spanned<Vec<RawAfterActionWhen>>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNoProgress {
    plies: u32,
    counter: String,
    #[serde(default)]
    reset_kinds: Vec<String>,
    #[serde(default)]
    reason: Option<String>,
}

/// One clause of `after_action_when`: every condition given must hold.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAfterActionWhen {
    /// The moving piece is of one of these kinds.
    #[serde(default)]
    kinds: Vec<String>,
    /// The move starts or ends on one of these cells.
    #[serde(default)]
    cells: Vec<String>,
    /// The move starts in this zone of the mover (`pawn_start` names
    /// `white_pawn_start`, ... as in `from_zone`).
    #[serde(default)]
    from_zone: Option<String>,
    /// One of these global counters is not 0 before the move.
    #[serde(default)]
    counters: Vec<String>,
}

/// Which file (index into the chain, base first) last set each item, so that
/// errors found after merging name the right file.
#[derive(Default)]
struct Origins(std::collections::HashMap<String, usize>);

impl Origins {
    fn mark(&mut self, raw: &RawVariant, file: usize) {
        let mut set = |k: String| {
            self.0.insert(k, file);
        };
        if raw.script.is_some() {
            set("script".into());
        }
        for k in raw.board.terrain.keys() {
            set(format!("terrain.{k}"));
        }
        if raw.board.blocking.is_some() {
            set("blocking".into());
        }
        for k in raw.board.zones.keys() {
            set(format!("zones.{k}"));
        }
        for k in raw.options.keys() {
            set(format!("options.{k}"));
        }
        for (k, p) in &raw.pieces {
            if let Some(p) = p {
                set(format!("pieces.{k}"));
                if p.value.moves.is_some() {
                    set(format!("pieces.{k}.moves"));
                }
            }
        }
        for k in raw.setup.zones.keys() {
            set(format!("setup.{k}"));
        }
        if raw.rules.repetition_limit.is_some() {
            set("rules.repetition_limit".into());
        }
        if raw.start.is_some() {
            set("start".into());
        }
    }

    fn get(&self, key: &str) -> usize {
        self.0.get(key).copied().unwrap_or(0)
    }
}

/// Lays `child` over `base` (see the README: scalars and lists replace, maps
/// merge by key, piece kinds merge field by field, `~` removes a kind).
fn merge(mut base: RawVariant, child: RawVariant) -> RawVariant {
    base.extends = child.extends;
    base.name = child.name.or(base.name);
    base.description = child.description.or(base.description);
    base.script = child.script.or(base.script);
    base.players = child.players.or(base.players);
    base.min_players = child.min_players.or(base.min_players);
    base.hidden_identities = child.hidden_identities.or(base.hidden_identities);
    base.board.files = child.board.files.or(base.board.files);
    base.board.ranks = child.board.ranks.or(base.board.ranks);
    base.board.terrain.extend(child.board.terrain);
    base.board.blocking = child.board.blocking.or(base.board.blocking);
    base.board.zones.extend(child.board.zones);
    for (k, o) in child.options {
        match o {
            Some(o) => {
                base.options.insert(k, Some(o));
            }
            None => {
                base.options.shift_remove(&k);
            }
        }
    }
    for (k, p) in child.pieces {
        match p {
            None => {
                base.pieces.shift_remove(&k);
            }
            Some(p) => {
                let merged = match base.pieces.get_mut(&k).and_then(Option::take) {
                    Some(b) => {
                        let (b, c) = (b.value, p.value);
                        let mut attrs = b.attrs;
                        attrs.extend(c.attrs);
                        Spanned {
                            value: RawPiece {
                                name: c.name.or(b.name),
                                symbol: c.symbol.or(b.symbol),
                                code: c.code.or(b.code),
                                rank: c.rank.or(b.rank),
                                count: c.count.or(b.count),
                                moves: c.moves.or(b.moves),
                                letter: c.letter.or(b.letter),
                                royal: c.royal.or(b.royal),
                                promote: c.promote.or(b.promote),
                                attrs,
                            },
                            referenced: p.referenced,
                            defined: p.defined,
                        }
                    }
                    None => p,
                };
                base.pieces.insert(k, Some(merged));
            }
        }
    }
    base.setup.zones.extend(child.setup.zones);
    base.start = child.start.or(base.start);
    base.notation = child.notation.or(base.notation);
    base.rules.repetition_limit = child.rules.repetition_limit.or(base.rules.repetition_limit);
    base.rules.no_moves = child.rules.no_moves.or(base.rules.no_moves);
    base.rules.max_plies = child.rules.max_plies.or(base.rules.max_plies);
    base.rules.draw_offers = child.rules.draw_offers.or(base.rules.draw_offers);
    base.rules.strike_reveals = child.rules.strike_reveals.or(base.rules.strike_reveals);
    base.rules.public_attrs = child.rules.public_attrs.or(base.rules.public_attrs);
    base.rules.mark_symbols = child.rules.mark_symbols.or(base.rules.mark_symbols);
    base.rules.repetition_draw = child.rules.repetition_draw.or(base.rules.repetition_draw);
    if !child.rules.repetition_counters.is_empty() {
        base.rules.repetition_counters = child.rules.repetition_counters;
    }
    if !child.rules.extra_moves_when.is_empty() {
        base.rules.extra_moves_when = child.rules.extra_moves_when;
    }
    base.rules.no_progress = child.rules.no_progress.or(base.rules.no_progress);
    base.rules.move_number = child.rules.move_number.or(base.rules.move_number);
    base.rules.after_action_when = child
        .rules
        .after_action_when
        .or(base.rules.after_action_when);
    base
}

// ---------------------------------------------------------------- validated

/// What happens to a player who has no legal action on their turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoMoves {
    /// The player loses (with two players, the other wins).
    Lose,
    /// The game is drawn.
    Draw,
    /// The turn passes to the next player.
    Pass,
    /// The player loses if another player can still move; if nobody can,
    /// the game is drawn.
    LoseUnlessAllStuck,
}

/// What a move may end on.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    /// An empty cell.
    pub empty: bool,
    /// A cell holding an enemy piece (a strike or a capture by displacement).
    pub enemy: bool,
    /// When set, only enemies of these kinds.
    pub enemy_kinds: Option<Vec<KindId>>,
    /// The directions are relative to the mover (see
    /// [`crate::base::geometry::Directions::relative`]).
    pub relative: bool,
    /// When set, the move is only made from these cells (one list per player).
    pub from_zone: Option<Vec<Vec<Cell>>>,
}

impl Target {
    pub const ANY: Target = Target {
        empty: true,
        enemy: true,
        enemy_kinds: None,
        relative: false,
        from_zone: None,
    };
    /// Whether an enemy of `kind` may be struck.
    pub fn strikes(&self, kind: KindId) -> bool {
        self.enemy && self.enemy_kinds.as_ref().is_none_or(|k| k.contains(&kind))
    }
}

/// Jumping over enemy pieces during a slide (each jumped piece must be
/// followed by an empty cell, so two adjacent pieces are never jumped).
#[derive(Clone, Debug, PartialEq)]
pub struct Jump {
    /// When set, only enemies of these kinds may be jumped.
    pub kinds: Option<Vec<KindId>>,
    pub max: u8,
}

/// A movement pattern, generated natively by the host.
#[derive(Clone, Debug, PartialEq)]
pub enum MovePattern {
    /// One step in any of the directions.
    Step {
        deltas: Vec<(i8, i8)>,
        target: Target,
    },
    /// Any number of empty squares in a straight line (up to `max`).
    /// A strike is allowed from an adjacent square, or at the end of a longer
    /// slide when `strike_at_range` is set. A slide longer than
    /// `reveal_beyond` reveals the piece's kind to everyone.
    Slide {
        deltas: Vec<(i8, i8)>,
        max: u8,
        strike_at_range: bool,
        reveal_beyond: Option<u8>,
        target: Target,
        jump: Option<Jump>,
    },
    /// Up to `steps` single steps through empty squares, turning freely; the
    /// last square may hold an enemy.
    Path {
        deltas: Vec<(i8, i8)>,
        steps: u8,
        target: Target,
    },
}

/// A kind of piece.
#[derive(Clone, Debug)]
pub struct Kind {
    pub name: String,
    pub display: String,
    pub symbol: String,
    pub code: Option<char>,
    pub rank: i64,
    pub count: u32,
    pub moves: Vec<MovePattern>,
    pub attrs: Vec<(String, Value)>,
    /// The letter naming the kind in move notation, if any.
    pub letter: Option<String>,
    pub royal: bool,
    pub promote: Option<Promote>,
}

/// Promotion of a kind (see the YAML `promote:`).
#[derive(Clone, Debug)]
pub struct Promote {
    /// The promotion cells of each player.
    pub zone: Vec<Vec<Cell>>,
    pub to: Vec<KindId>,
}

impl Kind {
    pub fn is_mobile(&self) -> bool {
        !self.moves.is_empty()
    }
}

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
    /// The no-progress draw (`rules.no_progress`).
    pub no_progress: Option<NoProgress>,
    /// The move-number counter (`rules.move_number`).
    pub move_number: Option<String>,
    /// When `rules.after_action` is called after a move: when one of these
    /// clauses holds (`rules.after_action_when`); `None`: always.
    pub after_action_when: Option<Vec<AfterActionWhen>>,
}

/// A draw after `plies` plies without a capture or a move of one of
/// `reset_kinds`, counted in the global counter `counter`.
#[derive(Clone, Debug)]
pub struct NoProgress {
    pub plies: u32,
    pub counter: String,
    pub reset_kinds: Vec<KindId>,
    pub reason: String,
}

/// A clause of the moves after which `rules.after_action` is called: each
/// condition that is not empty must hold.
#[derive(Clone, Debug, Default)]
pub struct AfterActionWhen {
    pub kinds: Vec<KindId>,
    pub cells: Vec<Cell>,
    /// Per player, the cells the move must start on.
    pub from_zone: Option<Vec<Vec<Cell>>>,
    pub counters: Vec<String>,
}

impl AfterActionWhen {
    /// Whether a move of a `kind` piece of `player` from `from` to `to`
    /// meets this clause, with `counter` reading global counters.
    pub fn holds(
        &self,
        kind: KindId,
        player: PlayerId,
        from: Cell,
        to: Cell,
        counter: impl Fn(&str) -> i64,
    ) -> bool {
        (self.kinds.is_empty() || self.kinds.contains(&kind))
            && (self.cells.is_empty() || self.cells.contains(&from) || self.cells.contains(&to))
            && self
                .from_zone
                .as_ref()
                .is_none_or(|z| z.get(player as usize).is_some_and(|z| z.contains(&from)))
            && (self.counters.is_empty() || self.counters.iter().any(|c| counter(c) != 0))
    }
}

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

/// Names a file the way messages print it: relative to the working directory
/// when it lies below it.
pub fn display_path(path: &Path) -> String {
    if let Ok(cwd) = std::env::current_dir() {
        if let Ok(rel) = path.strip_prefix(&cwd) {
            return rel.display().to_string();
        }
    }
    path.display().to_string()
}

/// Finds a variant by bundled name or path.
pub fn resolve_variant_path(name_or_path: &str) -> Result<PathBuf, String> {
    let p = Path::new(name_or_path);
    if p.is_file() {
        return Ok(p.to_path_buf());
    }
    let file = if name_or_path.ends_with(".yaml") {
        name_or_path.to_string()
    } else {
        format!("{name_or_path}.yaml")
    };
    for dir in [
        PathBuf::from("variants"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("variants"),
    ] {
        let candidate = dir.join(&file);
        if candidate.is_file() {
            return Ok(candidate);
        }
    }
    Err(format!(
        "no variant `{name_or_path}`: not a file, and not bundled (try one of: {})",
        bundled_variants().join(", ")
    ))
}

/// The names of the bundled variants.
pub fn bundled_variants() -> Vec<String> {
    let mut names = Vec::new();
    for dir in [
        PathBuf::from("variants"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("variants"),
    ] {
        if let Ok(rd) = std::fs::read_dir(&dir) {
            for e in rd.flatten() {
                let p = e.path();
                if p.extension().is_some_and(|x| x == "yaml") {
                    if let Some(s) = p.file_stem().and_then(|s| s.to_str()) {
                        if !names.iter().any(|n| n == s) {
                            names.push(s.to_string());
                        }
                    }
                }
            }
        }
    }
    names.sort();
    names
}

struct Ctx<'a> {
    files: Vec<String>,
    origins: Origins,
    /// The file the current item came from (set before checking it).
    file: usize,
    diags: Vec<Diagnostic>,
    options: &'a [OptionSpec],
}

impl Ctx<'_> {
    /// Checks the next items as coming from wherever `key` was last set.
    fn from(&mut self, key: &str) {
        self.file = self.origins.get(key);
    }

    fn err_top(&mut self, message: impl Into<String>) {
        self.diags.push(Diagnostic {
            file: self.files.last().cloned().unwrap_or_default(),
            line: 1,
            column: 1,
            message: message.into(),
        });
    }

    fn err_at(&mut self, loc: serde_saphyr::Location, message: impl Into<String>) {
        self.diags.push(Diagnostic {
            file: self.files[self.file].clone(),
            line: loc.line().max(1),
            column: loc.column().max(1),
            message: message.into(),
        });
    }

    fn resolve<T: Clone>(
        &mut self,
        p: &Param<T>,
        loc: serde_saphyr::Location,
        pick: impl Fn(&Value) -> Option<T>,
        want: &str,
    ) -> Option<T> {
        match p {
            Param::Lit(v) => Some(v.clone()),
            Param::Opt(name) => {
                let Some(stripped) = name.strip_prefix('$') else {
                    self.err_at(loc, format!("expected {want} or `$option`, found `{name}`"));
                    return None;
                };
                match self.options.iter().find(|o| o.name == stripped) {
                    Some(o) => match pick(&o.value) {
                        Some(v) => Some(v),
                        None => {
                            let t = o.value.type_name();
                            self.err_at(
                                loc,
                                format!("option `{stripped}` is {t}, expected {want}"),
                            );
                            None
                        }
                    },
                    None => {
                        let known: Vec<_> = self.options.iter().map(|o| o.name.as_str()).collect();
                        self.err_at(
                            loc,
                            format!(
                                "unknown option `{stripped}` (declared options: {})",
                                known.join(", ")
                            ),
                        );
                        None
                    }
                }
            }
        }
    }
}

impl Variant {
    /// Loads a variant from a bundled name or a path, applying option overrides
    /// given as `name=value` pairs. A variant that `extends` another is laid
    /// over it (recursively).
    pub fn load(name_or_path: &str, overrides: &[(String, String)]) -> Result<Variant, LoadError> {
        let path = resolve_variant_path(name_or_path).map_err(|m| {
            LoadError(vec![Diagnostic {
                file: name_or_path.to_string(),
                line: 1,
                column: 1,
                message: m,
            }])
        })?;
        let text = read_text(&path)?;
        Variant::from_str(&text, &path, overrides)
    }

    /// Parses and validates variant YAML text; `path` is used for messages and
    /// to find the script and the base variant.
    pub fn from_str(
        text: &str,
        path: &Path,
        overrides: &[(String, String)],
    ) -> Result<Variant, LoadError> {
        // The chain of files, child first.
        let mut chain: Vec<(PathBuf, RawVariant)> =
            vec![(path.to_path_buf(), parse_raw(text, path)?)];
        while let Some(ext) = chain.last().and_then(|(_, r)| r.extends.as_ref()) {
            let (from, loc) = (chain.last().unwrap().0.clone(), ext.referenced);
            let err = |m: String| {
                LoadError(vec![Diagnostic {
                    file: display_path(&from),
                    line: loc.line().max(1),
                    column: loc.column().max(1),
                    message: m,
                }])
            };
            if chain.len() > 8 {
                return Err(err("`extends` chain is longer than 8 (a cycle?)".into()));
            }
            let beside = from.parent().unwrap_or(Path::new(".")).join(format!(
                "{}{}",
                ext.value,
                if ext.value.ends_with(".yaml") {
                    ""
                } else {
                    ".yaml"
                }
            ));
            let base_path = if beside.is_file() {
                beside
            } else {
                resolve_variant_path(&ext.value).map_err(|m| err(format!("extends: {m}")))?
            };
            let base_path = base_path.canonicalize().unwrap_or(base_path);
            if chain
                .iter()
                .any(|(p, _)| p.canonicalize().ok().as_ref() == Some(&base_path))
            {
                return Err(err(format!("`extends: {}` makes a cycle", ext.value)));
            }
            let text = read_text(&base_path)?;
            let raw = parse_raw(&text, &base_path)?;
            chain.push((base_path, raw));
        }
        chain.reverse();
        let mut origins = Origins::default();
        let mut scripts = Vec::new();
        let mut files = Vec::new();
        let mut merged = RawVariant::default();
        let mut script_errors = Vec::new();
        for (i, (p, raw)) in chain.into_iter().enumerate() {
            origins.mark(&raw, i);
            if let Some(sc) = &raw.script {
                let sp = p.parent().unwrap_or(Path::new(".")).join(&sc.value);
                let sp = sp.canonicalize().unwrap_or(sp);
                if !sp.is_file() {
                    script_errors.push(Diagnostic {
                        file: display_path(&p),
                        line: sc.referenced.line().max(1),
                        column: sc.referenced.column().max(1),
                        message: format!("script `{}` not found", sc.value),
                    });
                }
                if !scripts.iter().any(|(q, _): &(PathBuf, String)| q == &sp) {
                    let shown = display_path(&sp);
                    scripts.push((sp, shown));
                }
            }
            files.push(p);
            merged = merge(merged, raw);
        }
        if !script_errors.is_empty() {
            return Err(LoadError(script_errors));
        }
        validate(merged, origins, files, scripts, overrides)
    }

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

    pub fn kind_index(&self, name: &str) -> Option<usize> {
        self.kinds.iter().position(|k| k.name == name)
    }

    pub fn player_index(&self, name: &str) -> Option<usize> {
        self.players
            .iter()
            .position(|p| p.eq_ignore_ascii_case(name))
    }

    /// The option values that differ from their defaults, as `name=value`.
    pub fn option_overrides(&self) -> Vec<(String, String)> {
        self.options
            .iter()
            .filter(|o| o.value != o.default)
            .map(|o| (o.name.clone(), o.value.to_string()))
            .collect()
    }

    /// The option values as a map (for records and positions).
    pub fn option_map(&self) -> BTreeMap<String, Value> {
        self.options
            .iter()
            .map(|o| (o.name.clone(), o.value.clone()))
            .collect()
    }
}

fn read_text(path: &Path) -> Result<String, LoadError> {
    std::fs::read_to_string(path).map_err(|e| {
        LoadError(vec![Diagnostic {
            file: display_path(path),
            line: 1,
            column: 1,
            message: format!("cannot read: {e}"),
        }])
    })
}

fn parse_raw(text: &str, path: &Path) -> Result<RawVariant, LoadError> {
    serde_saphyr::from_str(text).map_err(|e| {
        let (line, column) = e
            .location()
            .map(|l| (l.line().max(1), l.column().max(1)))
            .unwrap_or((1, 1));
        let msg = e.without_snippet().to_string();
        let msg = msg.lines().next().unwrap_or("").trim().to_string();
        LoadError(vec![Diagnostic {
            file: display_path(path),
            line,
            column,
            message: strip_location_suffix(&msg),
        }])
    })
}

fn strip_location_suffix(msg: &str) -> String {
    // serde-saphyr appends " at line L column C"; we print it in front instead.
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

/// A zone per player: `<player>_<zone>` where the board has it, else `<zone>`.
fn player_zones(board: &Board, players: &[String], zone: &str) -> Option<Vec<Vec<Cell>>> {
    let zones: Vec<Option<Vec<Cell>>> = players
        .iter()
        .map(|p| {
            board
                .zone(&format!("{p}_{zone}"))
                .or_else(|| board.zone(zone))
                .map(<[Cell]>::to_vec)
        })
        .collect();
    zones.into_iter().collect()
}

fn parse_deltas(board: &Board, name: &str) -> Option<Vec<(i8, i8)>> {
    board.directions(name).map(|d| d.deltas.clone())
}

fn validate(
    raw: RawVariant,
    origins: Origins,
    files: Vec<PathBuf>,
    scripts: Vec<(PathBuf, String)>,
    overrides: &[(String, String)],
) -> Result<Variant, LoadError> {
    // Options first: everything else may refer to them.
    let mut options: Vec<OptionSpec> = raw
        .options
        .iter()
        .filter_map(|(name, o)| o.as_ref().map(|o| (name, o)))
        .map(|(name, o)| OptionSpec {
            name: name.clone(),
            default: o.default.clone(),
            value: o.default.clone(),
            doc: o.doc.clone(),
        })
        .collect();
    let mut override_errors = Vec::new();
    for (k, v) in overrides {
        match options.iter_mut().find(|o| &o.name == k) {
            Some(o) => match Value::parse_like(v, &o.default) {
                Ok(val) => o.value = val,
                Err(e) => override_errors.push(format!("option `{k}`: {e}")),
            },
            None => {
                let known: Vec<_> = raw.options.keys().cloned().collect();
                override_errors.push(format!(
                    "unknown option `{k}` (this variant has: {})",
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                ))
            }
        }
    }
    let shown: Vec<String> = files.iter().map(|p| display_path(p)).collect();
    let mut cx = Ctx {
        file: shown.len() - 1,
        files: shown,
        origins,
        diags: override_errors
            .into_iter()
            .map(|m| Diagnostic {
                file: "--option".into(),
                line: 1,
                column: 1,
                message: m,
            })
            .collect(),
        options: &options,
    };

    let name = raw.name.clone().unwrap_or_else(|| {
        cx.err_top("missing field `name`");
        String::new()
    });
    let mut players = raw.players.clone().unwrap_or_default();
    if players.is_empty() || players.len() > 8 {
        cx.err_top(format!(
            "`players` must name 1 to 8 players, found {}",
            players.len()
        ));
    }
    // A variant for a varying number of players: the int option `players`
    // keeps the first N of the list.
    if let Some(Value::Int(n)) = options
        .iter()
        .find(|o| o.name == "players")
        .map(|o| &o.value)
    {
        let min = raw.min_players.unwrap_or(players.len() as u8) as i64;
        if *n < min.max(1) || *n > players.len() as i64 {
            cx.diags.push(Diagnostic {
                file: "--option".into(),
                line: 1,
                column: 1,
                message: format!(
                    "option `players`: this variant is for {} to {} players, not {n}",
                    min.max(1),
                    players.len()
                ),
            });
        } else {
            players.truncate(*n as usize);
        }
    }

    // Board.
    let (files_n, ranks_n) = (raw.board.files.unwrap_or(0), raw.board.ranks.unwrap_or(0));
    if files_n == 0 || files_n > 26 || ranks_n == 0 || ranks_n > 99 {
        cx.err_top("board: `files` must be 1..=26 and `ranks` 1..=99");
        return Err(LoadError(cx.diags));
    }
    let mut board = Board::new(files_n, ranks_n);
    if raw.board.terrain.len() > 32 {
        cx.from("terrain");
        cx.err_top("board: at most 32 terrain tags");
    }
    for (i, (tag, cells)) in raw.board.terrain.iter().enumerate().take(32) {
        cx.from(&format!("terrain.{tag}"));
        board.terrain_names.push(tag.clone());
        for c in cells {
            match board.parse_cells(&c.value) {
                Ok(list) => {
                    for cell in list {
                        board.terrain[cell as usize] |= 1 << i;
                    }
                }
                Err(e) => cx.err_at(c.referenced, format!("terrain `{tag}`: {e}")),
            }
        }
    }
    cx.from("blocking");
    for b in raw.board.blocking.iter().flatten() {
        match board.terrain_bit(&b.value) {
            Some(bit) => board.blocking |= bit,
            None => cx.err_at(
                b.referenced,
                format!(
                    "`{}` is not a terrain tag of this board (tags: {})",
                    b.value,
                    board.terrain_names.join(", ")
                ),
            ),
        }
    }
    for (zone, cells) in &raw.board.zones {
        cx.from(&format!("zones.{zone}"));
        let mut list = Vec::new();
        for c in cells {
            match board.parse_cells(&c.value) {
                Ok(l) => list.extend(l),
                Err(e) => cx.err_at(c.referenced, format!("zone `{zone}`: {e}")),
            }
        }
        board.zones.push((zone.clone(), list));
    }

    // Pieces.
    let kind_names: Vec<&String> = raw
        .pieces
        .iter()
        .filter(|(_, p)| p.is_some())
        .map(|(k, _)| k)
        .collect();
    let mut kinds = Vec::new();
    for (name, p) in &raw.pieces {
        let Some(p) = p else { continue };
        cx.from(&format!("pieces.{name}"));
        let loc = p.referenced;
        let p = &p.value;
        let symbol = match &p.symbol {
            Some(sym) if !sym.is_empty() && sym.chars().count() <= 3 => sym.clone(),
            _ => {
                cx.err_at(
                    loc,
                    format!("piece `{name}`: `symbol` must be 1 to 3 characters"),
                );
                String::new()
            }
        };
        cx.from(&format!("pieces.{name}.moves"));
        let mut moves = Vec::new();
        for m in p.moves.iter().flatten() {
            let mloc = m.referenced;
            let m = &m.value;
            let forms = [&m.step, &m.slide, &m.path]
                .iter()
                .filter(|x| x.is_some())
                .count();
            if forms != 1 {
                cx.err_at(
                    mloc,
                    format!("piece `{name}`: a move needs exactly one of `step`, `slide`, `path`"),
                );
                continue;
            }
            let dir_name = m
                .step
                .as_ref()
                .or(m.slide.as_ref())
                .or(m.path.as_ref())
                .unwrap();
            let Some(deltas) = parse_deltas(&board, dir_name) else {
                let known: Vec<_> = board.directions.iter().map(|d| d.name.as_str()).collect();
                cx.err_at(
                    mloc,
                    format!(
                        "piece `{name}`: unknown direction set `{dir_name}` (expected one of: {})",
                        known.join(", ")
                    ),
                );
                continue;
            };
            let mut kind_list = |list: &Option<Vec<String>>, what: &str| -> Option<Vec<KindId>> {
                let list = list.as_ref()?;
                let mut ids = Vec::new();
                for k in list {
                    match kind_names.iter().position(|n| *n == k) {
                        Some(i) => ids.push(i as KindId),
                        None => cx.err_at(
                            mloc,
                            format!("piece `{name}`: `{what}` names `{k}`, which is no piece kind"),
                        ),
                    }
                }
                Some(ids)
            };
            let enemy_kinds = kind_list(&m.onto_kinds, "onto_kinds");
            let jump_kinds = kind_list(&m.jump_kinds, "jump_kinds");
            let (empty, enemy) = match m.onto.as_deref() {
                None | Some("any") => (true, true),
                Some("empty") => (true, false),
                Some("enemy") => (false, true),
                Some(other) => {
                    cx.err_at(
                        mloc,
                        format!("piece `{name}`: `onto: {other}`: expected empty, enemy or any"),
                    );
                    (true, true)
                }
            };
            let from_zone = m.from_zone.as_ref().and_then(|z| {
                let zones = player_zones(&board, &players, z);
                if zones.is_none() {
                    cx.err_at(
                        mloc,
                        format!("piece `{name}`: `from_zone: {z}` names no zone"),
                    );
                }
                zones
            });
            let target = Target {
                empty,
                enemy,
                enemy_kinds,
                relative: board.directions(dir_name).is_some_and(|d| d.relative),
                from_zone,
            };
            if m.step.is_some() {
                moves.push(MovePattern::Step { deltas, target });
            } else if m.slide.is_some() {
                let jump = match m.jump.as_deref() {
                    None => None,
                    Some("enemy") => {
                        let max = match &m.max_jumps {
                            None => Some(u8::MAX as i64),
                            Some(pv) => cx.resolve(
                                pv,
                                mloc,
                                |v| match v {
                                    Value::Int(i) => Some(*i),
                                    _ => None,
                                },
                                "an integer",
                            ),
                        };
                        Some(Jump {
                            kinds: jump_kinds,
                            max: max.unwrap_or(0).clamp(0, 255) as u8,
                        })
                    }
                    Some(other) => {
                        cx.err_at(
                            mloc,
                            format!("piece `{name}`: `jump: {other}`: expected `enemy`"),
                        );
                        None
                    }
                };
                let strike_at_range = match &m.strike_at_range {
                    None => false,
                    Some(pv) => cx
                        .resolve(
                            pv,
                            mloc,
                            |v| match v {
                                Value::Bool(b) => Some(*b),
                                _ => None,
                            },
                            "a boolean",
                        )
                        .unwrap_or(false),
                };
                moves.push(MovePattern::Slide {
                    deltas,
                    max: m.max.unwrap_or(u8::MAX),
                    strike_at_range,
                    reveal_beyond: m.reveal_beyond,
                    target,
                    jump,
                });
            } else {
                let steps = m.steps.unwrap_or(1);
                moves.push(MovePattern::Path {
                    deltas,
                    steps,
                    target,
                });
            }
        }
        kinds.push(Kind {
            name: name.clone(),
            display: p.name.clone().unwrap_or_else(|| name.clone()),
            symbol,
            code: p.code,
            rank: p.rank.unwrap_or(0),
            count: p.count.unwrap_or(1),
            moves,
            attrs: p
                .attrs
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            letter: p.letter.clone(),
            royal: p.royal.unwrap_or(false),
            promote: p.promote.as_ref().and_then(|pr| {
                let zone = player_zones(&board, &players, &pr.zone);
                if zone.is_none() {
                    cx.err_at(
                        loc,
                        format!("piece `{name}`: `promote.zone: {}` names no zone", pr.zone),
                    );
                }
                let mut to = Vec::new();
                for k in &pr.to {
                    match kind_names.iter().position(|n| *n == k) {
                        Some(i) => to.push(i as KindId),
                        None => cx.err_at(
                            loc,
                            format!(
                                "piece `{name}`: `promote.to` names `{k}`, which is no piece kind"
                            ),
                        ),
                    }
                }
                zone.map(|zone| Promote { zone, to })
            }),
        });
    }

    // Setup zones per player.
    let mut setup_zones = vec![Vec::new(); players.len()];
    for (player, zone) in &raw.setup.zones {
        cx.from(&format!("setup.{player}"));
        let Some(pi) = players.iter().position(|p| p == player) else {
            if raw.players.iter().flatten().any(|p| p == player) {
                continue; // a seat left out by the `players` option
            }
            cx.err_at(
                zone.referenced,
                format!(
                    "setup: `{player}` is not a player (players: {})",
                    players.join(", ")
                ),
            );
            continue;
        };
        match board.zone(&zone.value) {
            Some(cells) => {
                let army: u32 = kinds.iter().map(|k| k.count).sum();
                let free = cells
                    .iter()
                    .filter(|&&c| board.terrain[c as usize] & board.blocking == 0)
                    .count();
                if (army as usize) > free {
                    cx.err_at(
                        zone.referenced,
                        format!(
                            "setup: zone `{}` has {free} usable cells for an army of {army}",
                            zone.value
                        ),
                    );
                }
                setup_zones[pi] = cells.to_vec();
            }
            None => cx.err_at(
                zone.referenced,
                format!("setup: unknown zone `{}`", zone.value),
            ),
        }
    }

    cx.from("rules.repetition_limit");
    let repetition_limit = raw.rules.repetition_limit.as_ref().and_then(|s| {
        cx.resolve(
            &s.value,
            s.referenced,
            |v| match v {
                Value::Int(i) => Some(*i),
                _ => None,
            },
            "an integer",
        )
        .and_then(|n| if n > 0 { Some(n as u32) } else { None })
    });

    if !cx.diags.is_empty() {
        return Err(LoadError(cx.diags));
    }
    let start_at = raw.start.as_ref().map(|st| {
        (
            cx.files[cx.origins.get("start")].clone(),
            st.referenced.line().max(1),
            st.referenced.column().max(1),
        )
    });
    let kind_id =
        |cx: &mut Ctx, loc, what: &str, k: &String| match kinds.iter().position(|x| x.name == *k) {
            Some(i) => Some(i as KindId),
            None => {
                cx.err_at(loc, format!("{what} names `{k}`, which is no piece kind"));
                None
            }
        };
    let no_progress = raw.rules.no_progress.as_ref().map(|np| {
        let loc = np.referenced;
        let v = &np.value;
        NoProgress {
            plies: v.plies,
            counter: v.counter.clone(),
            reset_kinds: v
                .reset_kinds
                .iter()
                .filter_map(|k| kind_id(&mut cx, loc, "`rules.no_progress.reset_kinds`", k))
                .collect(),
            reason: v
                .reason
                .clone()
                .unwrap_or_else(|| format!("{} plies without a capture", v.plies)),
        }
    });
    let after_action_when = raw.rules.after_action_when.as_ref().map(|w| {
        let loc = w.referenced;
        w.value
            .iter()
            .map(|v| AfterActionWhen {
                kinds: v
                    .kinds
                    .iter()
                    .filter_map(|k| kind_id(&mut cx, loc, "`rules.after_action_when.kinds`", k))
                    .collect(),
                cells: v
                    .cells
                    .iter()
                    .filter_map(|c| match board.parse_cells(c) {
                        Ok(cells) => Some(cells),
                        Err(e) => {
                            cx.err_at(loc, format!("`rules.after_action_when.cells`: {e}"));
                            None
                        }
                    })
                    .flatten()
                    .collect(),
                from_zone: v.from_zone.as_ref().and_then(|z| {
                    let zone = player_zones(&board, &players, z);
                    if zone.is_none() {
                        cx.err_at(
                            loc,
                            format!("`rules.after_action_when.from_zone: {z}` names no zone"),
                        );
                    }
                    zone
                }),
                counters: v.counters.clone(),
            })
            .collect()
    });
    if !cx.diags.is_empty() {
        return Err(LoadError(cx.diags));
    }
    let path = files.last().cloned().unwrap_or_default();
    Ok(Variant {
        name,
        description: raw.description.unwrap_or_default(),
        path,
        scripts,
        files,
        players,
        hidden_identities: raw.hidden_identities.unwrap_or(false),
        board,
        options,
        kinds,
        setup_zones,
        repetition_limit,
        no_moves: raw.rules.no_moves.unwrap_or(NoMoves::Lose),
        max_plies: raw.rules.max_plies.unwrap_or(10_000),
        draw_offers: raw.rules.draw_offers.unwrap_or(false),
        strike_reveals: raw.rules.strike_reveals.unwrap_or(false),
        repetition_draw: raw.rules.repetition_draw.filter(|&n| n > 0),
        repetition_counters: raw.rules.repetition_counters.clone(),
        extra_moves_when: raw.rules.extra_moves_when.clone(),
        no_progress,
        move_number: raw.rules.move_number.clone(),
        after_action_when,
        start_at,
        start: raw.start.map(|s| s.value),
        notation: {
            let n = raw.notation.unwrap_or_default();
            let d = Notation::default();
            Notation {
                style: n.style.unwrap_or(d.style),
                capture_mark: n.capture_mark.unwrap_or(d.capture_mark),
                check: n.check.unwrap_or(d.check),
                mate: n.mate.unwrap_or(d.mate),
            }
        },
        public_attrs: raw.rules.public_attrs.clone().unwrap_or_default(),
        mark_symbols: raw
            .rules
            .mark_symbols
            .clone()
            .unwrap_or_default()
            .into_iter()
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINI: &str = "name: Mini\nplayers: [a, b]\nboard: { files: 3, ranks: 3 }\noptions:\n  n: { default: 2 }\npieces:\n  man: { symbol: M, moves: [{ step: orthogonal }] }\nrules:\n  repetition_limit: $n\n";

    fn load(text: &str, o: &[(&str, &str)]) -> Result<Variant, LoadError> {
        let o: Vec<(String, String)> = o
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        Variant::from_str(text, Path::new("mini.yaml"), &o)
    }

    #[test]
    fn options_resolve_and_override() {
        assert_eq!(load(MINI, &[]).unwrap().repetition_limit, Some(2));
        assert_eq!(load(MINI, &[("n", "4")]).unwrap().repetition_limit, Some(4));
        let e = load(MINI, &[("n", "many")]).unwrap_err().to_string();
        assert!(e.contains("expected an integer"), "{e}");
        let e = load(MINI, &[("m", "1")]).unwrap_err().to_string();
        assert!(e.contains("unknown option `m`"), "{e}");
    }

    #[test]
    fn errors_carry_line_and_column() {
        let e = load(&MINI.replace("symbol: M", "symbol: M, speed: 3"), &[]).unwrap_err();
        assert_eq!(e.0[0].file, "mini.yaml");
        assert_eq!(e.0[0].line, 7);
        assert!(e.0[0].message.contains("unknown field `speed`"), "{}", e);
        let e = load(
            &MINI.replace("name: Mini\n", "name: Mini\nname: Again\n"),
            &[],
        )
        .unwrap_err();
        assert!(e.to_string().to_lowercase().contains("duplicate"), "{e}");
        let e = load(&MINI.replace("$n", "$nope"), &[]).unwrap_err();
        assert_eq!(
            (
                e.0[0].line,
                e.0[0].message.contains("unknown option `nope`")
            ),
            (9, true),
            "{e}"
        );
    }
}
