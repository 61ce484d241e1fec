//! Positions and game records as YAML files.
//!
//! A position may be partial (a few pieces), so rule tests stay short:
//!
//! ```yaml
//! variant: my_variant
//! to_move: red
//! pieces:
//!   - { at: b2, owner: red, kind: runner }
//!   - { at: b7, owner: blue, kind: mine, known_by: [blue] }
//! ```
//!
//! A record is a starting position plus the actions played, in text form.

use std::collections::BTreeMap;
use std::path::Path;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::base::geometry::Cell;
use crate::base::limits::{read_user_file, MAX_CONTAINERS};
use crate::base::state::{
    Attrs, Choice, GameState, Loc, Outcome, Piece, PieceId, PlayerId, Shuttle, TurnSteps,
};
use crate::engine::Engine;
use crate::flow_pos::FlowPos;
use crate::rules::variant::Value;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PiecePos {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<PieceId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    pub owner: String,
    pub kind: String,
    /// Who knows the kind; default: the owner only (or everyone when the
    /// variant's identities are not hidden).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub known_by: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub moved: bool,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub attrs: BTreeMap<String, i64>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContainerPos {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    #[serde(default)]
    pub pieces: Vec<PiecePos>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CounterPos {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    pub value: i64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShuttlePos {
    pub player: String,
    pub piece: PieceId,
    pub from: String,
    pub to: String,
    pub count: u32,
}

/// A fact on a cell (see `GameState::marks`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MarkPos {
    pub cell: String,
    pub name: String,
    pub value: String,
    /// Who knows it (empty: nobody).
    #[serde(default)]
    pub known_by: Vec<String>,
}

/// A counter on a cell.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CellCounterPos {
    pub name: String,
    pub cell: String,
    pub value: i64,
}

/// A position file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Position {
    pub variant: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, Value>,
    #[serde(default)]
    pub seed: u64,
    /// How far the seeded generator has run (words drawn).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rng_position: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_move: Option<String>,
    #[serde(default)]
    pub ply: u32,
    #[serde(default)]
    pub pieces: Vec<PiecePos>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub containers: Vec<ContainerPos>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub counters: Vec<CounterPos>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub repetition: Vec<ShuttlePos>,
    /// Hashes of the positions since the last capture (`repetition_draw`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub positions: Vec<u64>,
    /// The boards' keys a ko rule remembers (`groups.ko`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub boards: Vec<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending: Vec<Choice>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub eliminated: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    /// The terrain of every cell by tag, when it differs from the board's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terrain: Option<BTreeMap<String, Vec<String>>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<MarkPos>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cell_counters: Vec<CellCounterPos>,
    /// The turn stays with the player to move after the current action.
    #[serde(default, skip_serializing_if = "is_false")]
    pub hold_turn: bool,
    /// Where the turn in progress stands (declared actions).
    #[serde(default, skip_serializing_if = "TurnSteps::is_fresh")]
    pub steps: TurnSteps,
    /// Container items, reaction windows, the phase.
    #[serde(default, skip_serializing_if = "FlowPos::is_empty")]
    pub flow: FlowPos,
    /// The dice left to use this turn (`6,5`), in a variant with dice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dice: Option<String>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A game record: the start, and the actions played from it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    pub variant: String,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, Value>,
    pub start: Position,
    #[serde(default)]
    pub actions: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
}

/// A record for one player's eyes: the start as that player saw it, and each
/// action with only the effects that player could see.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerRecord {
    pub variant: String,
    pub viewer: String,
    pub start: crate::view::View,
    #[serde(default)]
    pub actions: Vec<SeenAction>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeenAction {
    pub action: String,
    pub events: Vec<String>,
}

/// Option values of a file as `name=value` overrides for loading a variant.
pub fn overrides(options: &BTreeMap<String, Value>) -> Vec<(String, String)> {
    options
        .iter()
        .map(|(k, v)| (k.clone(), v.to_string()))
        .collect()
}

/// Reads YAML of type `T`, naming the file, line and column on error.
pub fn read_yaml<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, String> {
    let shown = crate::rules::variant::display_path(path);
    let text = read_user_file(path, &shown)?;
    parse_yaml(&text, &shown)
}

pub fn parse_yaml<T: serde::de::DeserializeOwned>(text: &str, shown: &str) -> Result<T, String> {
    serde_saphyr::from_str(text).map_err(|e| {
        let (l, c, msg) = crate::rules::variant::yaml_error(&e);
        format!("{shown}:{l}:{c}: {msg}")
    })
}

pub fn to_yaml<T: Serialize>(value: &T) -> Result<String, String> {
    serde_saphyr::to_string(value).map_err(|e| e.to_string())
}

/// Position files (the saved `Position` form of a state) read and written
/// for one engine: `Positions::new(&engine).to_position(&s)`.
#[derive(Clone, Copy)]
pub struct Positions<'e> {
    pub engine: &'e Engine,
}

impl<'e> Positions<'e> {
    pub fn new(engine: &'e Engine) -> Self {
        Positions { engine }
    }

    pub(super) fn players_of(&self, set: u8) -> Vec<String> {
        (0..self.engine.variant.players.len() as PlayerId)
            .filter(|p| set & (1 << p) != 0)
            .map(|p| self.engine.player_name(p).to_string())
            .collect()
    }

    pub(super) fn player_set(&self, names: &[String]) -> Result<u8, String> {
        let mut set = 0;
        for n in names {
            set |= 1 << self.engine.player_id(n)?;
        }
        Ok(set)
    }

    fn piece_pos(&self, s: &GameState, id: PieceId) -> PiecePos {
        let p = &s.pieces[id as usize];
        let default_known = if self.engine.variant.hidden_identities {
            1 << p.owner
        } else {
            s.all_players()
        };
        PiecePos {
            id: Some(id),
            at: match p.loc {
                Loc::Cell(c) => Some(self.engine.variant.board.cell_name(c)),
                _ => None,
            },
            owner: self.engine.player_name(p.owner).to_string(),
            kind: self.engine.variant.kinds[p.kind as usize].name.clone(),
            known_by: (p.known_by != default_known).then(|| self.players_of(p.known_by)),
            moved: p.moved,
            attrs: s.attrs(id).iter().cloned().collect(),
        }
    }

    /// The position of a state, as saved to a file.
    pub fn to_position(&self, s: &GameState) -> Position {
        let b = &self.engine.variant.board;
        let pieces = self.board_pieces(s);
        let containers = s
            .containers
            .iter()
            .map(|c| ContainerPos {
                name: c.name.clone(),
                owner: c.owner.map(|o| self.engine.player_name(o).to_string()),
                pieces: c.pieces.iter().map(|&id| self.piece_pos(s, id)).collect(),
            })
            .collect();
        let counters = s
            .counters
            .iter()
            .map(|(name, p, v)| CounterPos {
                name: name.to_string(),
                player: p.map(|p| self.engine.player_name(p).to_string()),
                value: v,
            })
            .collect();
        let repetition = s
            .shuttles
            .iter()
            .enumerate()
            .filter_map(|(p, sh)| {
                sh.piece.map(|piece| ShuttlePos {
                    player: self.engine.player_name(p as PlayerId).to_string(),
                    piece,
                    from: b.cell_name(sh.from),
                    to: b.cell_name(sh.to),
                    count: sh.count,
                })
            })
            .collect();
        Position {
            variant: self.engine.variant.id(),
            options: self
                .engine
                .variant
                .options
                .iter()
                .filter(|o| o.value != o.default)
                .map(|o| (o.name.clone(), o.value.clone()))
                .collect(),
            seed: s.seed,
            rng_position: s.rng.get_word_pos() as u64,
            to_move: Some(self.engine.player_name(s.to_move).to_string()),
            ply: s.ply,
            pieces,
            containers,
            counters,
            repetition,
            positions: s.positions.as_slice().to_vec(),
            boards: s.boards.clone(),
            pending: s.pending.clone(),
            eliminated: self.players_of(s.eliminated),
            outcome: s.outcome.clone(),
            terrain: (s.terrain() != b.terrain).then(|| {
                b.terrain_names
                    .iter()
                    .enumerate()
                    .map(|(i, tag)| {
                        let cells = (0..s.terrain().len())
                            .filter(|&c| s.terrain()[c] & (1 << i) != 0)
                            .map(|c| b.cell_name(c as crate::base::geometry::Cell))
                            .collect();
                        (tag.clone(), cells)
                    })
                    .collect()
            }),
            marks: s
                .marks
                .iter()
                .map(|((c, n), m)| MarkPos {
                    cell: b.cell_name(*c),
                    name: n.clone(),
                    value: m.value.clone(),
                    known_by: self.players_of(m.known_by),
                })
                .collect(),
            cell_counters: s
                .cell_counters
                .iter()
                .map(|(n, c, v)| CellCounterPos {
                    name: n.to_string(),
                    cell: b.cell_name(c),
                    value: v,
                })
                .collect(),
            hold_turn: s.holds_turn(),
            steps: s.steps.clone(),
            flow: self.flow_pos(s),
            dice: self.engine.variant.dice.as_ref().map(|_| s.dice.text()),
        }
    }

    /// The pieces on the board in cell order: a stack's shown piece first,
    /// then the rest of it by id.
    fn board_pieces(&self, s: &GameState) -> Vec<PiecePos> {
        s.board()
            .iter()
            .enumerate()
            .filter_map(|(c, top)| top.map(|t| (c, t)))
            .flat_map(|(c, top)| {
                let rest = s.pieces.iter().enumerate().filter(move |(id, p)| {
                    s.stacks_pieces() && p.loc == Loc::Cell(c as Cell) && *id != top as usize
                });
                std::iter::once(top).chain(rest.map(|(id, _)| id as PieceId))
            })
            .map(|id| self.piece_pos(s, id))
            .collect()
    }

    /// Builds a state from a position (checked against this variant).
    pub fn from_position(&self, pos: &Position) -> Result<GameState, String> {
        let mut s = self.engine.empty_state(pos.seed);
        self.read_cells(pos, &mut s)?;
        s.set_hold_turn(pos.hold_turn);
        s.steps = pos.steps.clone();
        s.rng = ChaCha8Rng::seed_from_u64(pos.seed);
        s.rng.set_word_pos(pos.rng_position as u128);
        s.ply = pos.ply;
        if let Some(t) = &pos.to_move {
            s.to_move = self.engine.player_id(t)?;
        }
        self.read_pieces(pos, &mut s)?;
        if let (Some(text), Some(d)) = (&pos.dice, &self.engine.variant.dice) {
            s.dice =
                crate::engine::notation::read_dice(text, d).map_err(|e| format!("dice: {e}"))?;
        }
        self.read_bookkeeping(pos, &mut s)?;
        self.read_flow(&pos.flow, &mut s)?;
        s.check_consistency()?;
        self.engine.judge_loaded(&mut s)?;
        Ok(s)
    }

    /// A position's terrain, marks and cell counters.
    fn read_cells(&self, pos: &Position, s: &mut GameState) -> Result<(), String> {
        let b = &self.engine.variant.board;
        if let Some(t) = &pos.terrain {
            let mut terrain = vec![0; b.cell_count()];
            for (tag, cells) in t {
                let bit = b.terrain_bit(tag).ok_or_else(|| {
                    format!("terrain: `{tag}` is not a terrain tag of this board")
                })?;
                for c in cells {
                    let cell = b
                        .parse_cell(c)
                        .ok_or_else(|| format!("terrain: `{c}` is not a cell of the {b} board"))?;
                    terrain[cell as usize] |= bit;
                }
            }
            s.set_terrain(terrain);
        }
        for m in &pos.marks {
            let cell = b
                .parse_cell(&m.cell)
                .ok_or_else(|| format!("marks: `{}` is not a cell of the {b} board", m.cell))?;
            s.marks.insert(
                (cell, m.name.clone()),
                crate::base::state::Mark {
                    value: m.value.clone(),
                    known_by: self.player_set(&m.known_by)?,
                },
            );
        }
        for c in &pos.cell_counters {
            let cell = b.parse_cell(&c.cell).ok_or_else(|| {
                format!("cell_counters: `{}` is not a cell of the {b} board", c.cell)
            })?;
            s.set_cell_counter(&c.name, cell, c.value);
        }
        Ok(())
    }

    /// One piece of a position (`what` names it in messages).
    fn read_piece(
        &self,
        pp: &PiecePos,
        loc: Loc,
        what: &str,
        s: &GameState,
    ) -> Result<(Piece, Attrs), String> {
        let owner = self
            .engine
            .player_id(&pp.owner)
            .map_err(|e| format!("{what}: {e}"))?;
        let kind = self.engine.variant.kind_index(&pp.kind).ok_or_else(|| {
            let known: Vec<_> = self
                .engine
                .variant
                .kinds
                .iter()
                .map(|k| k.name.as_str())
                .collect();
            format!(
                "{what}: unknown piece kind `{}` (kinds: {})",
                pp.kind,
                known.join(", ")
            )
        })?;
        let known_by = match &pp.known_by {
            Some(list) => self.player_set(list).map_err(|e| format!("{what}: {e}"))? | (1 << owner),
            None if self.engine.variant.hidden_identities => 1 << owner,
            None => s.all_players(),
        };
        let piece = Piece {
            kind: kind as u16,
            owner,
            loc,
            known_by,
            moved: pp.moved,
        };
        Ok((
            piece,
            pp.attrs.iter().map(|(k, v)| (k.clone(), *v)).collect(),
        ))
    }

    /// A position's pieces, on the board and in containers, under the ids
    /// it gives (all or none) or numbered in order.
    fn read_pieces(&self, pos: &Position, s: &mut GameState) -> Result<(), String> {
        let b = &self.engine.variant.board;
        let total = pos.pieces.len() + pos.containers.iter().map(|c| c.pieces.len()).sum::<usize>();
        if total > crate::base::limits::MAX_PIECES || pos.containers.len() > MAX_CONTAINERS {
            return Err(format!(
                "pieces: {total} pieces in {} containers; a game holds at most {} pieces and {MAX_CONTAINERS} containers",
                pos.containers.len(),
                crate::base::limits::MAX_PIECES
            ));
        }
        let ids_given = pos
            .pieces
            .iter()
            .chain(pos.containers.iter().flat_map(|c| c.pieces.iter()))
            .all(|p| p.id.is_some());
        let mut slots: Vec<Option<(Piece, Attrs)>> = vec![None; total];
        let mut taken = vec![false; s.board().len()];
        let mut next_id = 0usize;
        let mut take_id = |pp: &PiecePos, what: &str| -> Result<PieceId, String> {
            let id = match pp.id {
                Some(id) if ids_given => id as usize,
                _ => next_id,
            };
            next_id += 1;
            if id >= total {
                return Err(format!(
                    "{what}: id {id} is out of range (there are {total} pieces)"
                ));
            }
            Ok(id as PieceId)
        };
        for (i, pp) in pos.pieces.iter().enumerate() {
            let what = format!("pieces[{i}]");
            let at = pp
                .at
                .as_deref()
                .ok_or_else(|| format!("{what}: a board piece needs `at`"))?;
            let cell = b
                .parse_cell(at)
                .ok_or_else(|| format!("{what}: `{at}` is not a cell of the {b} board"))?;
            if s.terrain()[cell as usize] & b.blocking != 0 {
                return Err(format!("{what}: {at} cannot hold a piece"));
            }
            if taken[cell as usize] && !s.stacks_pieces() {
                return Err(format!("{what}: {at} already holds a piece"));
            }
            let piece = self.read_piece(pp, Loc::Cell(cell), &what, s)?;
            let id = take_id(pp, &what)?;
            if slots[id as usize].is_some() {
                return Err(format!("{what}: id {id} is used twice"));
            }
            taken[cell as usize] = true;
            slots[id as usize] = Some(piece);
        }
        for (ci, c) in pos.containers.iter().enumerate() {
            let owner = c
                .owner
                .as_deref()
                .map(|o| self.engine.player_id(o))
                .transpose()?;
            let k = s.container_id(&c.name, owner);
            for (i, pp) in c.pieces.iter().enumerate() {
                let what = format!("containers[{ci}].pieces[{i}]");
                let piece = self.read_piece(pp, Loc::Container(k), &what, s)?;
                let id = take_id(pp, &what)?;
                if slots[id as usize].is_some() {
                    return Err(format!("{what}: id {id} is used twice"));
                }
                s.containers[k as usize].pieces.push(id);
                slots[id as usize] = Some(piece);
            }
        }
        let tops = first_listed_per_cell(&pos.pieces, b);
        let (pieces, attrs): (Vec<Piece>, Vec<Attrs>) = slots
            .into_iter()
            .map(|p| p.expect("every id filled"))
            .unzip();
        s.set_pieces(pieces)?;
        s.set_attrs(attrs);
        if s.stacks_pieces() && ids_given {
            for (cell, id) in tops {
                s.show_on_stack(cell, id)?;
            }
        }
        Ok(())
    }

    /// That a position's pending choices and outcome can go on or be shown:
    /// real players, choices with options (each one an action), and pieces
    /// that exist.
    fn check_ending(&self, pos: &Position, s: &GameState) -> Result<(), String> {
        let players = self.engine.variant.players.len();
        for c in &pos.pending {
            if c.player as usize >= players {
                return Err(format!("pending: no player {}", c.player));
            }
            if c.options.is_empty() || c.options.len() > u16::MAX as usize {
                return Err(format!(
                    "pending: a choice needs 1 to {} options, not {}",
                    u16::MAX,
                    c.options.len()
                ));
            }
            if c.piece.is_some_and(|id| id as usize >= s.pieces.len()) {
                return Err(format!("pending: no piece {}", c.piece.unwrap_or(0)));
            }
        }
        if let Some(o) = &pos.outcome {
            if let Some(w) = o.winners.iter().find(|&&w| w as usize >= players) {
                return Err(format!(
                    "outcome: no player {w} among the winners (players are 0 to {})",
                    players - 1
                ));
            }
        }
        Ok(())
    }

    /// A position's counters, repetition bookkeeping, pending choices,
    /// eliminated players and outcome.
    fn read_bookkeeping(&self, pos: &Position, s: &mut GameState) -> Result<(), String> {
        let b = &self.engine.variant.board;
        for c in &pos.counters {
            let p = c
                .player
                .as_deref()
                .map(|p| self.engine.player_id(p))
                .transpose()?;
            s.set_counter(&c.name, p, c.value);
        }
        for r in &pos.repetition {
            let p = self.engine.player_id(&r.player)?;
            let from = b
                .parse_cell(&r.from)
                .ok_or_else(|| format!("repetition: bad cell `{}`", r.from))?;
            let to = b
                .parse_cell(&r.to)
                .ok_or_else(|| format!("repetition: bad cell `{}`", r.to))?;
            s.shuttles[p as usize] = Shuttle {
                piece: Some(r.piece),
                from,
                to,
                count: r.count,
            };
        }
        self.check_ending(pos, s)?;
        s.positions = pos.positions.clone().into();
        s.boards = pos.boards.clone();
        s.pending = pos.pending.clone();
        s.eliminated = self.player_set(&pos.eliminated)?;
        s.outcome = pos.outcome.clone();
        Ok(())
    }
}

/// The first piece a position lists on each cell (with its id): the piece a
/// stack shows.
fn first_listed_per_cell(
    pieces: &[PiecePos],
    b: &crate::base::geometry::Board,
) -> Vec<(Cell, PieceId)> {
    let mut seen = std::collections::BTreeMap::new();
    for pp in pieces {
        if let (Some(cell), Some(id)) = (pp.at.as_deref().and_then(|a| b.parse_cell(a)), pp.id) {
            seen.entry(cell).or_insert(id as PieceId);
        }
    }
    seen.into_iter().collect()
}
