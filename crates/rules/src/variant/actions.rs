//! Declared actions: what a variant's `actions:` section means once
//! checked — each action's parameters (where their values come from, what
//! they must be), its text, its cost and how it counts against the turn.
//!
//! Changes when the vocabulary of declared actions grows.

use crate::base::geometry::Cell;
use crate::base::state::KindId;

/// One declared action kind (`actions.<name>` in the YAML).
#[derive(Clone, Debug)]
pub struct ActionDecl {
    pub name: String,
    /// The action's text: literal parts and parameters (by index).
    pub text: Vec<TextPart>,
    pub params: Vec<ParamDecl>,
    /// A per-player counter and the amount the action costs (the player
    /// must have that much; the host takes it before `perform`).
    pub cost: Option<(String, i64)>,
    /// A container of the player's that must not be empty.
    pub needs: Option<String>,
    /// Counts against the turn's budget (`turn.actions`).
    pub counts: bool,
    /// At most once per turn.
    pub once: bool,
    /// Taking it closes the action part of the turn (no counted action after).
    pub closes: bool,
    /// The piece on the first parameter's cell moves to the second's
    /// (natively, before `perform`).
    pub moves: bool,
    /// The front piece of the player's `needs` container is placed on the
    /// only parameter's cell (natively, before `perform`).
    pub places: bool,
    /// What it does natively, in order (`does:`), after `moves` and
    /// `places` and before `perform`.
    pub does: Vec<Does>,
    /// A cell the player picks after the action (`choose`).
    pub choose: Option<ActionChoose>,
    /// Taking it ends the turn (after `perform`).
    pub ends_turn: bool,
    /// The `rules` function that performs it: `rules.<perform>(g, args)`.
    pub perform: Option<String>,
    /// `perform` is called only when one of these conditions holds on
    /// this parameter's cell (`perform_if`); always when `None`.
    pub perform_if: Option<(usize, Vec<Filter>)>,
    /// A `rules` function that may refuse a listed action:
    /// `rules.<legal>(g, args)` answers whether it is legal.
    pub legal: Option<String>,
    /// Where the action was declared (file, line, column), for messages.
    pub at: (String, u64, u64),
}

/// One native effect of a declared action on a parameter's cell (by the
/// parameter's index).
#[derive(Clone, Debug, PartialEq)]
pub enum Does {
    /// The piece there becomes the mover's.
    Flip(usize),
    /// The piece there is captured.
    Capture(usize),
    /// The piece there goes to the mover's container of that name.
    Send(usize, String),
    /// The cell's counter of that name gains the amount (may be negative).
    Add(usize, String, i64),
    /// The cell's counter is lifted and sown along a circuit (`sow:`).
    Sow(Box<Sow>),
}

/// A player's cells of a zone, by player (`<player>_<zone>`, else the
/// zone itself for every player).
pub type PerPlayer = Vec<Vec<Cell>>;

/// `does: [{ sow: PARAM, ... }]`: the cell counter on the parameter's
/// cell is lifted and dropped one by one on the cells after it along the
/// mover's circuit; then what the last cell holds may take counts into the
/// mover's store, and landing in the mover's `again` cells keeps the turn.
#[derive(Clone, Debug, PartialEq)]
pub struct Sow {
    /// The parameter whose cell is lifted.
    pub from: usize,
    /// The cell counter sown.
    pub counter: String,
    /// Each player's circuit, in sowing order (from any cell of it, the
    /// next one follows, the last wraps round to the first).
    pub circuit: PerPlayer,
    /// The lifted cell is passed over when the circuit comes round to it.
    pub skip_origin: bool,
    /// The last count landing in one of the mover's cells here keeps the
    /// turn with the mover.
    pub again: Option<PerPlayer>,
    /// Where taken counts go.
    pub store: Option<Store>,
    /// The last count landing in an empty cell of the mover's here (now
    /// holding 1) takes it and the opposite cell's counts, when that cell
    /// has any (the opposite: same file, rank mirrored).
    pub opposite: Option<PerPlayer>,
    /// The last cell's count in a set takes it (and the cells before it
    /// while they hold), in another player's cells of a zone.
    pub take: Option<Take>,
}

/// Where a sowing's taken counts go.
#[derive(Clone, Debug, PartialEq)]
pub enum Store {
    /// Onto the first cell of the mover's zone (a store drawn on the
    /// board).
    Cell(PerPlayer),
    /// Into the mover's counter of that name.
    Counter(String),
}

/// A sowing's capture by count (`take:`).
#[derive(Clone, Debug, PartialEq)]
pub struct Take {
    /// The counts that are taken.
    pub counts: Vec<i64>,
    /// Going back along the circuit, each earlier cell is taken too while
    /// it is in `within` and holds a count of the set.
    pub back: bool,
    /// Only other players' cells of this zone are taken.
    pub within: PerPlayer,
    /// No capture when it would take every count the other players have
    /// in `within` (the move stands, nothing is taken).
    pub not_all: bool,
}

/// `actions.<name>.choose`: after the action, the player picks a cell of
/// the named query (option labels: cell names, sorted); the answer goes to
/// `rules.<handler>(g, player, cell, {})`, at once when there is only one
/// cell. `perform` is called instead when there is none (or, with
/// `only_with_pieces`, when the player has no piece on the board).
#[derive(Clone, Debug)]
pub struct ActionChoose {
    pub query: String,
    pub question: String,
    pub handler: String,
    pub public: bool,
    pub only_with_pieces: bool,
}

/// A piece of an action's text.
#[derive(Clone, Debug, PartialEq)]
pub enum TextPart {
    Lit(String),
    Param(usize),
}

/// One parameter (or a named query): a cell drawn from `source`, kept when
/// every filter holds; when none is left, drawn from `fallback` instead;
/// then, when some pass every `prefer` condition, only those.
#[derive(Clone, Debug)]
pub struct ParamDecl {
    pub name: String,
    pub source: Source,
    pub filters: Vec<Filter>,
    pub fallback: Option<Source>,
    pub prefer: Vec<Filter>,
}

/// Where a parameter's cells come from (always in cell order, no repeats).
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// The cells of the player's pieces (`own_pieces`).
    OwnPieces,
    /// The orthogonal neighbours of an earlier parameter's cell
    /// (`next_to <param>`).
    NextTo(usize),
    /// The orthogonal neighbours of any of the player's pieces (`near_own`).
    NearOwn,
    /// Every cell (`cells`).
    Cells,
    /// The cells of a zone (`zone <name>`).
    Zone(Vec<Cell>),
    /// The player's cells of a zone (`own_zone <name>`: the zone
    /// `<player>_<name>`, else `<name>` for every player).
    OwnZone(Vec<Vec<Cell>>),
    /// The cells of the first of these zones that has a cell passing the
    /// conditions (`first_zone <name> <name> ...`).
    FirstZone(Vec<Vec<Cell>>),
    /// Cells reached by going from an earlier parameter's cell into
    /// orthogonally connected cells of a terrain and out of it again
    /// (`flood <param> through <terrain>`).
    Flood { from: usize, through: u32 },
    /// The first piece seen along each orthogonal line from the player's
    /// pieces (`sight`).
    Sight,
}

/// A condition on a candidate cell.
#[derive(Clone, Debug, PartialEq)]
pub enum Filter {
    /// No piece on it.
    Empty,
    /// Another player's piece on it.
    Enemy,
    /// The player's piece on it.
    Own,
    /// Not the player's piece (empty or enemy).
    NotOwn,
    /// Has (`true`) or lacks the terrain bit.
    Terrain(u32, bool),
    /// Has (`true`) or lacks the mark, with this value when given.
    Mark(String, Option<String>, bool),
    /// The piece on it has (`true`) the attribute other than 0, or there
    /// is no piece or its attribute is 0.
    Attr(String, bool),
    /// Has (`true`) or lacks a cell counter of this name other than 0.
    Counter(String, bool),
    /// Is (`true`) or is not in the player's cells of the zone of this name
    /// (`<player>_<name>` when the board has one, else `<name>`): per
    /// player, the cells.
    Zone(String, Vec<crate::base::cell_set::CellSet>, bool),
    /// The piece on it is (`true`) or is not of one of these kinds.
    Kind(Vec<KindId>, bool),
    /// The piece on it is (`true`) or is not one of the player's pieces
    /// that cannot move now (a declared freeze or `rules.frozen`).
    Frozen(bool),
    /// The condition does not hold (`{ not: empty }`; the conditions with
    /// a flag flip it instead).
    Not(Box<Filter>),
}

impl ParamDecl {
    /// Whether a condition of this parameter asks which pieces are frozen.
    pub fn uses_frozen(&self) -> bool {
        self.filters
            .iter()
            .chain(&self.prefer)
            .any(|f| matches!(f, Filter::Frozen(_)))
    }
}

impl ActionDecl {
    /// The text of the action with these parameter values.
    pub fn render(&self, args: &[String]) -> String {
        let mut out = String::new();
        for part in &self.text {
            match part {
                TextPart::Lit(s) => out.push_str(s),
                TextPart::Param(i) => out.push_str(args.get(*i).map_or("?", |s| s.as_str())),
            }
        }
        out
    }

    /// Reads the parameter values out of `text` when it has this action's
    /// shape (the literal parts in place); each value is a word of
    /// letters and digits.
    pub fn read(&self, text: &str) -> Option<Vec<String>> {
        let mut args = vec![String::new(); self.params.len()];
        let mut rest = text;
        for (k, part) in self.text.iter().enumerate() {
            match part {
                TextPart::Lit(s) => rest = rest.strip_prefix(s.as_str())?,
                TextPart::Param(i) => {
                    let end = match self.text.get(k + 1) {
                        Some(TextPart::Lit(next)) => rest.find(next.as_str())?,
                        _ => rest.len(),
                    };
                    let word = &rest[..end];
                    if word.is_empty() || !word.chars().all(|c| c.is_ascii_alphanumeric()) {
                        return None;
                    }
                    args[*i] = word.to_string();
                    rest = &rest[end..];
                }
            }
        }
        rest.is_empty().then_some(args)
    }
}

/// Splits a text template (`"{from}-{to}"`, `"flip {cell}"`) into parts;
/// `Err` names what is wrong.
pub fn parse_template(text: &str, params: &[String]) -> Result<Vec<TextPart>, String> {
    let mut parts = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        if open > 0 {
            parts.push(TextPart::Lit(rest[..open].to_string()));
        }
        let close = rest[open..]
            .find('}')
            .ok_or_else(|| format!("`{text}`: `{{` without `}}`"))?
            + open;
        let name = &rest[open + 1..close];
        let i = params.iter().position(|p| p == name).ok_or_else(|| {
            format!(
                "`{text}`: `{{{name}}}` is not a parameter (parameters: {})",
                params.join(", ")
            )
        })?;
        if matches!(parts.last(), Some(TextPart::Param(_))) {
            return Err(format!("`{text}`: two parameters need text between them"));
        }
        parts.push(TextPart::Param(i));
        rest = &rest[close + 1..];
    }
    if !rest.is_empty() {
        parts.push(TextPart::Lit(rest.to_string()));
    }
    for (i, p) in params.iter().enumerate() {
        if !parts.contains(&TextPart::Param(i)) {
            return Err(format!("`{text}` does not show the parameter `{p}`"));
        }
    }
    Ok(parts)
}
