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

use crate::geometry::{Board, Cell};

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

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVariant {
    name: String,
    #[serde(default)]
    description: String,
    script: Option<Spanned<String>>,
    players: Vec<String>,
    #[serde(default)]
    hidden_identities: bool,
    board: RawBoard,
    #[serde(default)]
    options: IndexMap<String, RawOption>,
    pieces: IndexMap<String, Spanned<RawPiece>>,
    #[serde(default)]
    setup: Option<RawSetup>,
    #[serde(default)]
    rules: RawRules,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBoard {
    files: u8,
    ranks: u8,
    #[serde(default)]
    terrain: IndexMap<String, Vec<Spanned<String>>>,
    #[serde(default)]
    blocking: Vec<Spanned<String>>,
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

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPiece {
    #[serde(default)]
    name: Option<String>,
    symbol: String,
    #[serde(default)]
    code: Option<char>,
    #[serde(default)]
    rank: i64,
    #[serde(default = "one")]
    count: u32,
    #[serde(default)]
    moves: Vec<Spanned<RawMove>>,
    #[serde(default)]
    attrs: IndexMap<String, Value>,
}

fn one() -> u32 {
    1
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
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSetup {
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
}

/// A movement pattern, generated natively by the host.
#[derive(Clone, Debug, PartialEq)]
pub enum MovePattern {
    /// One step in any of the directions.
    Step { deltas: Vec<(i8, i8)> },
    /// Any number of empty squares in a straight line (up to `max`).
    /// A strike is allowed from an adjacent square, or at the end of a longer
    /// slide when `strike_at_range` is set. A slide longer than
    /// `reveal_beyond` reveals the piece's kind to everyone.
    Slide {
        deltas: Vec<(i8, i8)>,
        max: u8,
        strike_at_range: bool,
        reveal_beyond: Option<u8>,
    },
    /// Up to `steps` single steps through empty squares, turning freely; the
    /// last square may hold an enemy.
    Path { deltas: Vec<(i8, i8)>, steps: u8 },
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
    /// The Lua script, if any, and how to name it in messages.
    pub script: Option<(PathBuf, String)>,
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
    file: String,
    diags: Vec<Diagnostic>,
    options: &'a [OptionSpec],
}

impl Ctx<'_> {
    fn err_at(&mut self, loc: serde_saphyr::Location, message: impl Into<String>) {
        self.diags.push(Diagnostic {
            file: self.file.clone(),
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
    /// given as `name=value` pairs.
    pub fn load(name_or_path: &str, overrides: &[(String, String)]) -> Result<Variant, LoadError> {
        let path = resolve_variant_path(name_or_path).map_err(|m| {
            LoadError(vec![Diagnostic {
                file: name_or_path.to_string(),
                line: 1,
                column: 1,
                message: m,
            }])
        })?;
        let text = std::fs::read_to_string(&path).map_err(|e| {
            LoadError(vec![Diagnostic {
                file: display_path(&path),
                line: 1,
                column: 1,
                message: format!("cannot read: {e}"),
            }])
        })?;
        Variant::from_str(&text, &path, overrides)
    }

    /// Parses and validates variant YAML text; `path` is used for messages and
    /// to find the script.
    pub fn from_str(
        text: &str,
        path: &Path,
        overrides: &[(String, String)],
    ) -> Result<Variant, LoadError> {
        let file = display_path(path);
        let raw: RawVariant = serde_saphyr::from_str(text).map_err(|e| {
            let (line, column) = e
                .location()
                .map(|l| (l.line().max(1), l.column().max(1)))
                .unwrap_or((1, 1));
            let msg = e.without_snippet().to_string();
            let msg = msg.lines().next().unwrap_or("").trim().to_string();
            LoadError(vec![Diagnostic {
                file: file.clone(),
                line,
                column,
                message: strip_location_suffix(&msg),
            }])
        })?;
        validate(raw, path, file, overrides)
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

fn strip_location_suffix(msg: &str) -> String {
    // serde-saphyr appends " at line L column C"; we print it in front instead.
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

fn parse_deltas(board: &Board, name: &str) -> Option<Vec<(i8, i8)>> {
    board.directions(name).map(|d| d.deltas.clone())
}

fn validate(
    raw: RawVariant,
    path: &Path,
    file: String,
    overrides: &[(String, String)],
) -> Result<Variant, LoadError> {
    // Options first: everything else may refer to them.
    let mut options: Vec<OptionSpec> = raw
        .options
        .iter()
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
    let mut cx = Ctx {
        file: file.clone(),
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

    if raw.players.is_empty() || raw.players.len() > 8 {
        cx.diags.push(Diagnostic {
            file: file.clone(),
            line: 1,
            column: 1,
            message: format!(
                "`players` must name 1 to 8 players, found {}",
                raw.players.len()
            ),
        });
    }

    // Board.
    let mut board = Board::new(raw.board.files, raw.board.ranks);
    if raw.board.files == 0 || raw.board.files > 26 || raw.board.ranks == 0 || raw.board.ranks > 99
    {
        cx.diags.push(Diagnostic {
            file: file.clone(),
            line: 1,
            column: 1,
            message: "board: files must be 1..=26 and ranks 1..=99".into(),
        });
        return Err(LoadError(cx.diags));
    }
    for (i, (tag, cells)) in raw.board.terrain.iter().enumerate() {
        if i >= 32 {
            break;
        }
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
    for b in &raw.board.blocking {
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
    let mut kinds = Vec::new();
    for (name, p) in &raw.pieces {
        let loc = p.referenced;
        let p = &p.value;
        let mut moves = Vec::new();
        for m in &p.moves {
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
            if m.step.is_some() {
                moves.push(MovePattern::Step { deltas });
            } else if m.slide.is_some() {
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
                });
            } else {
                let steps = m.steps.unwrap_or(1);
                moves.push(MovePattern::Path { deltas, steps });
            }
        }
        if p.symbol.is_empty() || p.symbol.chars().count() > 3 {
            cx.err_at(
                loc,
                format!("piece `{name}`: `symbol` must be 1 to 3 characters"),
            );
        }
        kinds.push(Kind {
            name: name.clone(),
            display: p.name.clone().unwrap_or_else(|| name.clone()),
            symbol: p.symbol.clone(),
            code: p.code,
            rank: p.rank,
            count: p.count,
            moves,
            attrs: p
                .attrs
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        });
    }

    // Setup zones per player.
    let mut setup_zones = vec![Vec::new(); raw.players.len()];
    if let Some(setup) = &raw.setup {
        for (player, zone) in &setup.zones {
            let Some(pi) = raw.players.iter().position(|p| p == player) else {
                cx.err_at(
                    zone.referenced,
                    format!(
                        "setup: `{player}` is not a player (players: {})",
                        raw.players.join(", ")
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
    }

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

    // Script path, relative to the YAML file.
    let script = raw.script.as_ref().map(|s| {
        let base = path.parent().unwrap_or(Path::new("."));
        let p = base.join(&s.value);
        let p = p.canonicalize().unwrap_or(p);
        if !p.is_file() {
            cx.err_at(s.referenced, format!("script `{}` not found", s.value));
        }
        let shown = display_path(&p);
        (p, shown)
    });

    if !cx.diags.is_empty() {
        return Err(LoadError(cx.diags));
    }
    let _ = &mut options;
    Ok(Variant {
        name: raw.name,
        description: raw.description,
        path: path.to_path_buf(),
        script,
        players: raw.players,
        hidden_identities: raw.hidden_identities,
        board,
        options,
        kinds,
        setup_zones,
        repetition_limit,
        no_moves: raw.rules.no_moves.unwrap_or(NoMoves::Lose),
        max_plies: raw.rules.max_plies.unwrap_or(10_000),
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
