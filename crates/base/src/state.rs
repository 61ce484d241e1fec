//! Game state: plain, cloneable Rust data. Lua keeps nothing between calls, so
//! everything a rule needs to remember lives here.

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub use crate::attrs::Attrs;
pub use crate::counters::{CounterId, CounterNames, Counters};
pub use crate::flow::{Item, Window};
use crate::geometry::Cell;
pub use crate::limits::MAX_PIECES;
use crate::positions::PositionHashes;
pub use touched::Touched;
use touched::TOUCHED_CELLS;

#[path = "cell_counters.rs"]
mod cell_counters;
pub use cell_counters::CellCounters;
#[path = "stacks.rs"]
mod stacks;
use stacks::same_stack;
#[path = "copy.rs"]
mod copy;
#[path = "occupancy.rs"]
mod occupancy;
#[path = "piece_attrs.rs"]
mod piece_attrs;
#[path = "touched.rs"]
mod touched;
use occupancy::cell_bit;

pub type PlayerId = u8;
pub type PieceId = u16;
pub type KindId = u16;

/// A set of players as a bit mask (bit `p` for player `p`).
pub type PlayerSet = u8;

/// Where a piece is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Loc {
    /// On a board cell.
    Cell(Cell),
    /// In an ordered container (a captured pile, a boat, a hand).
    Container(u16),
    /// Carried by another piece.
    Carried(PieceId),
}

/// One piece: plain copyable data (its rule-set attributes live beside
/// it, in [`GameState::attrs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub kind: KindId,
    pub owner: PlayerId,
    pub loc: Loc,
    /// Players who know this piece's kind (the owner always does).
    pub known_by: PlayerSet,
    /// Whether the piece has ever moved (public knowledge).
    pub moved: bool,
}

/// An ordered container of pieces (a captured pile, a boat, a hand).
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Container {
    pub name: String,
    pub owner: Option<PlayerId>,
    pub pieces: Vec<PieceId>,
    /// Items that are not pieces (tiles, cards), the top or front first.
    pub items: Vec<Item>,
}

/// A fact attached to a cell (a tile's face, an item lying there), with the
/// set of players who know it (0: nobody, e.g. a face-down tile's content).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Mark {
    pub value: String,
    pub known_by: PlayerSet,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Outcome {
    /// Winning players; empty for a draw.
    pub winners: Vec<PlayerId>,
    pub reason: String,
}

/// The name of the container where captured pieces go (one per owner).
pub const CAPTURED: &str = "captured";

/// A decision a player must take before play goes on (a pending choice).
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Choice {
    pub player: PlayerId,
    /// Why the choice is asked (passed back to the rules with the answer).
    pub reason: String,
    /// The options, as short text labels.
    pub options: Vec<String>,
    /// The piece a host-made choice is about (a promotion); `None` for the
    /// choices rules push, which `rules.on_choice` answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub piece: Option<PieceId>,
    /// Everyone may see the question, the options and the answer (the
    /// variant declares it, e.g. `g:choose(p, reason, options, true)`);
    /// else others see only who must choose.
    #[serde(default, skip_serializing_if = "is_false")]
    pub public: bool,
    /// The rules function that takes the answer (`rules.<handler>(g,
    /// player, option, data)`); `None`: `rules.on_choice`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handler: Option<String>,
    /// Plain values handed back to the handler with the answer (never shown
    /// to players).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub data: Vec<(String, Plain)>,
    /// The turn passes after the answer (unless its handler calls
    /// `g:continue_turn()`), as it did after the action that asked the
    /// choice; `false`: the answer keeps the turn with the player to move
    /// (a choice inside a turn of several actions, or one `rules.setup`
    /// asks, as in every position written before this field). Read for
    /// the choices rules ask only: a promotion is the host's, and the turn
    /// passes after it as after the move.
    #[serde(default, skip_serializing_if = "is_false")]
    pub passes_turn: bool,
}

/// A plain value a choice or a window carries for its handler: a boolean,
/// an integer, a string, or a list or a map (string keys) of plain values.
/// The Lua bridge bounds how deep and how big one may be.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
pub enum Plain {
    Bool(bool),
    Int(i64),
    Text(String),
    List(Vec<Plain>),
    Map(BTreeMap<String, Plain>),
}

/// Where the turn in progress stands (host bookkeeping of declared
/// actions; reset when the turn passes).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct TurnSteps {
    /// Actions taken that count against the turn's budget.
    #[serde(default)]
    pub actions: u8,
    /// Declared action kinds taken this turn (bit per kind).
    #[serde(default)]
    pub taken: u64,
    /// The action part of the turn is over (a purchase closed it, or a
    /// rule did): only actions that do not count remain.
    #[serde(default)]
    pub closed: bool,
    /// A rule ended the phase (`g:end_phase`): the next turn starts the
    /// next phase.
    #[serde(default, skip_serializing_if = "is_false")]
    pub end_phase: bool,
    /// Facts the rules noted about this turn (`g:note_turn`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl TurnSteps {
    pub fn is_fresh(&self) -> bool {
        *self == TurnSteps::default()
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A seed nobody can guess: 64 bits from the operating system's generator.
/// Games started without `--seed` use it (see README, "Seeds").
pub fn secret_seed() -> u64 {
    use rand::TryRngCore;
    rand::rngs::OsRng
        .try_next_u64()
        .unwrap_or_else(|_| rand::random())
}

/// The ChaCha stream of a seed's key that deals hidden setups: one per
/// player for the host's random setups ([`setup_rng`]), and one for a
/// script's `rules.setup`. Stream 0 is the public chance of the game
/// (`GameState::rng`); no stream's output tells anything of another's.
const SETUP_STREAM: u64 = 0x5e70_0000;

/// The generator that deals `player`'s hidden setup from `seed`.
pub fn setup_rng(seed: u64, player: PlayerId) -> ChaCha8Rng {
    let mut r = ChaCha8Rng::seed_from_u64(seed);
    r.set_stream(SETUP_STREAM + 1 + player as u64);
    r
}

/// The generator a script's `rules.setup` draws from (tiles, values dealt
/// at the start): a stream apart from the game's public chance.
pub fn script_setup_rng(seed: u64) -> ChaCha8Rng {
    let mut r = ChaCha8Rng::seed_from_u64(seed);
    r.set_stream(SETUP_STREAM);
    r
}

/// The last move of a player, for the back-and-forth (repetition) limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Shuttle {
    pub piece: Option<PieceId>,
    pub from: Cell,
    pub to: Cell,
    pub count: u32,
}

/// A fixed 64-bit mix (SplitMix64's finaliser): stable across builds,
/// unlike the standard hasher, so recorded position hashes keep their
/// meaning.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// What a piece of `kind` owned by `owner` standing on `cell` adds (by
/// XOR) to [`GameState::board_key`] (Zobrist hashing without a table).
#[inline]
pub fn cell_key(cell: Cell, kind: KindId, owner: PlayerId) -> u64 {
    mix64((cell as u64) << 32 | (kind as u64) << 8 | owner as u64)
}

/// The whole state of a game in progress (cloned in copy.rs, whose
/// `clone_from` reuses the target's buffers).
#[derive(Debug)]
pub struct GameState {
    pub pieces: Vec<Piece>,
    /// Each piece's attributes set by rules, by piece id; shorter than
    /// `pieces` when the last pieces have none (empty in a game without
    /// attributes). Read with [`GameState::attrs`].
    piece_attrs: Vec<Attrs>,
    /// The piece on each cell: changed only by the methods that keep
    /// `board_key` and `occupied` with it (read it with [`GameState::board`]).
    board: Vec<Option<PieceId>>,
    /// Terrain bits of each cell (terrain can change during play; read it
    /// with [`GameState::terrain`], change it with
    /// [`GameState::set_terrain`], which keep `terrained` with it).
    terrain: Vec<u32>,
    pub containers: Vec<Container>,
    /// Counters, global (`None`) or per player.
    pub counters: Counters,
    pub players: u8,
    pub to_move: PlayerId,
    /// Players out of the game (they are skipped in turn order).
    pub eliminated: PlayerSet,
    pub ply: u32,
    pub pending: Vec<Choice>,
    pub shuttles: Vec<Shuttle>,
    /// Hashes of the positions since the last capture (`repetition_draw`).
    pub positions: PositionHashes,
    /// The board's key after every action so far, the start first, when
    /// a rule forbids repeating a board (`groups.ko`): in the order played
    /// for a simple ko, sorted and each once for superko.
    pub boards: Vec<u64>,
    pub outcome: Option<Outcome>,
    pub seed: u64,
    pub rng: ChaCha8Rng,
    /// Facts on cells, by (cell, name), each with its own visibility.
    pub marks: crate::marks::Marks,
    /// Counters per cell (public), by (name, cell).
    pub cell_counters: CellCounters,
    /// The dice values the player to move has still to use (public).
    pub dice: crate::dice::Dice,
    /// How many pieces stand on each cell, when the variant stacks pieces
    /// (empty otherwise): the board holds one of them, the others say the
    /// same cell. Changed only by the methods that move pieces.
    stacks: Vec<u8>,
    /// Set by a rule during an action to keep the turn with the same player
    /// (a turn of several actions); cleared when the action ends.
    hold_turn: bool,
    /// Where the turn in progress stands (declared actions).
    pub steps: TurnSteps,
    /// Open reaction windows, the innermost last.
    pub windows: Vec<Window>,
    /// The phase of the game (index in the variant's `phases`) and how
    /// many turns have begun in it.
    pub phase: u8,
    pub phase_turns: u16,
    /// The player who played first (`turn.first`; phases start from them).
    pub first_player: PlayerId,
    /// The cells changed since a consumer last looked (not part of the
    /// position: equality ignores it).
    touched: Touched,
    /// The board's key: the XOR of [`cell_key`] over the occupied cells,
    /// kept up to date by the methods that change `board` or a piece's
    /// kind (derived data: equality ignores it; see
    /// [`GameState::board_key`]).
    board_key: u64,
    /// The occupied cells among the first 128, bit `c` for cell `c`, kept
    /// with `board_key` (derived data: equality ignores it; see
    /// [`GameState::occupied`]).
    occupied: u128,
    /// Per owner, the cells among `occupied` that show a piece of theirs
    /// (derived data like `occupied`; see [`GameState::owned_by`]).
    owned: Vec<u128>,
    /// Per kind, the cells among `occupied` that show a piece of it
    /// (derived data like `occupied`; see [`GameState::kind_cells_wide`]),
    /// unless `kinds_untracked`.
    kinds_at: Vec<u128>,
    /// Whether `kinds_at` is left empty ([`GameState::track_kinds`]).
    kinds_untracked: bool,
    /// The cells among the first 128 whose terrain is not empty (derived
    /// data like `occupied`; see [`GameState::terrained`]).
    terrained: u128,
}

impl Default for GameState {
    fn default() -> Self {
        GameState::empty(0, 2, 0)
    }
}

impl PartialEq for GameState {
    fn eq(&self, o: &Self) -> bool {
        self.pieces == o.pieces
            && self.same_attrs(o)
            && self.board == o.board
            && self.terrain == o.terrain
            && self.containers == o.containers
            && self.counters == o.counters
            && self.players == o.players
            && self.to_move == o.to_move
            && self.eliminated == o.eliminated
            && self.ply == o.ply
            && self.pending == o.pending
            && self.shuttles == o.shuttles
            && self.positions == o.positions
            && self.boards == o.boards
            && self.outcome == o.outcome
            && self.seed == o.seed
            && self.rng.get_word_pos() == o.rng.get_word_pos()
            && self.marks == o.marks
            && self.cell_counters == o.cell_counters
            && self.dice == o.dice
            && self.stacks == o.stacks
            && self.hold_turn == o.hold_turn
            && self.steps == o.steps
            && self.windows == o.windows
            && self.phase == o.phase
            && self.phase_turns == o.phase_turns
            && self.first_player == o.first_player
    }
}

impl GameState {
    /// An empty board of `cells` cells for `players` players.
    pub fn empty(cells: usize, players: u8, seed: u64) -> GameState {
        GameState {
            pieces: Vec::new(),
            piece_attrs: Vec::new(),
            board: vec![None; cells],
            terrain: vec![0; cells],
            containers: Vec::new(),
            counters: Counters::default(),
            players,
            to_move: 0,
            eliminated: 0,
            ply: 0,
            pending: Vec::new(),
            shuttles: vec![Shuttle::default(); players as usize],
            positions: PositionHashes::default(),
            boards: Vec::new(),
            outcome: None,
            seed,
            rng: ChaCha8Rng::seed_from_u64(seed),
            marks: crate::marks::Marks::new(),
            cell_counters: CellCounters::default(),
            dice: Default::default(),
            stacks: Vec::new(),
            hold_turn: false,
            steps: TurnSteps::default(),
            windows: Vec::new(),
            phase: 0,
            phase_turns: 0,
            first_player: 0,
            touched: Touched::default(),
            board_key: 0,
            occupied: 0,
            owned: Vec::new(),
            kinds_at: Vec::new(),
            kinds_untracked: false,
            terrained: 0,
        }
    }

    /// Whether a rule has asked, during the action in progress, to keep
    /// the turn with the same player (cleared when the action ends).
    pub fn holds_turn(&self) -> bool {
        self.hold_turn
    }

    /// Keep (or release) the turn with the same player when the action
    /// in progress ends.
    pub fn set_hold_turn(&mut self, hold: bool) {
        self.hold_turn = hold;
    }

    /// The cells changed since the last call, or `None` for
    /// "everything" (see [`Touched::take`]); the log starts empty again.
    pub fn take_touched(&mut self) -> Option<([Cell; TOUCHED_CELLS], usize)> {
        self.touched.take()
    }

    /// Count every cell as changed (a consumer rereads the whole board).
    pub fn touch_everything(&mut self) {
        self.touched.everything();
    }

    pub fn all_players(&self) -> PlayerSet {
        if self.players >= 8 {
            0xff
        } else {
            (1u8 << self.players) - 1
        }
    }

    pub fn piece_at(&self, cell: Cell) -> Option<PieceId> {
        self.board.get(cell as usize).copied().flatten()
    }

    pub fn cell_of(&self, id: PieceId) -> Option<Cell> {
        match self.pieces.get(id as usize)?.loc {
            Loc::Cell(c) => Some(c),
            _ => None,
        }
    }

    /// The id the next piece added gets, or why there is none: a game holds
    /// at most [`MAX_PIECES`] pieces, and an id never wraps.
    fn next_piece_id(&self) -> Result<PieceId, String> {
        if self.pieces.len() >= MAX_PIECES {
            return Err(format!(
                "cannot add a piece: a game holds at most {MAX_PIECES} pieces"
            ));
        }
        Ok(self.pieces.len() as PieceId)
    }

    /// Adds a piece on a cell; the owner knows it, and so does everyone when
    /// `public` is set. Fails when the game already holds [`MAX_PIECES`].
    pub fn add_piece(
        &mut self,
        kind: KindId,
        owner: PlayerId,
        cell: Cell,
        public: bool,
    ) -> Result<PieceId, String> {
        let id = self.next_piece_id()?;
        let known_by = if public {
            self.all_players()
        } else {
            1 << owner
        };
        if let Some(top) = self.stack_top(cell) {
            let t = &self.pieces[top as usize];
            if (t.kind, t.owner) != (kind, owner) || self.stacks[cell as usize] == u8::MAX {
                return Err(format!(
                    "cell {cell} holds pieces of another kind or owner (or {} already)",
                    u8::MAX
                ));
            }
        }
        self.pieces.push(Piece {
            kind,
            owner,
            loc: Loc::Cell(cell),
            known_by,
            moved: false,
        });
        if self.stack_onto(cell) {
            return Ok(id);
        }
        self.board[cell as usize] = Some(id);
        self.board_key ^= cell_key(cell, kind, owner);
        self.occupied |= cell_bit(cell);
        *self.owned_mut(owner) |= cell_bit(cell);
        self.kind_at(kind, cell, true);
        self.touched.cell(cell);
        Ok(id)
    }

    /// The container named `name` belonging to `owner`, created on demand.
    pub fn container_id(&mut self, name: &str, owner: Option<PlayerId>) -> u16 {
        if let Some(i) = self
            .containers
            .iter()
            .position(|c| c.name == name && c.owner == owner)
        {
            return i as u16;
        }
        self.containers.push(Container {
            name: name.to_string(),
            owner,
            pieces: Vec::new(),
            items: Vec::new(),
        });
        (self.containers.len() - 1) as u16
    }

    /// Takes a piece off wherever it is (board cell or container).
    #[inline]
    fn detach(&mut self, id: PieceId) {
        match self.pieces[id as usize].loc {
            Loc::Cell(c) if !self.stacks.is_empty() && self.stacks[c as usize] > 1 => {
                // Another piece of the stack is shown in its place.
                self.stacks[c as usize] -= 1;
                self.touched.cell(c);
                if self.board[c as usize] == Some(id) {
                    let other = (self.pieces.iter().enumerate())
                        .position(|(i, p)| i != id as usize && p.loc == Loc::Cell(c));
                    self.board[c as usize] = other.map(|i| i as PieceId);
                }
            }
            Loc::Cell(c) => {
                if let Some(n) = self.stacks.get_mut(c as usize) {
                    *n = 0;
                }
                if self.board[c as usize] == Some(id) {
                    self.board[c as usize] = None;
                    let p = self.pieces[id as usize];
                    self.board_key ^= cell_key(c, p.kind, p.owner);
                    self.occupied &= !cell_bit(c);
                    *self.owned_mut(p.owner) &= !cell_bit(c);
                    self.kind_at(p.kind, c, false);
                    self.touched.cell(c);
                }
            }
            Loc::Container(k) => self.containers[k as usize].pieces.retain(|&p| p != id),
            Loc::Carried(_) => {}
        }
    }

    /// Moves a piece to an empty cell, or onto a stack of its own kind and
    /// owner where pieces stack.
    #[inline]
    pub fn place(&mut self, id: PieceId, cell: Cell) {
        self.detach(id);
        self.pieces[id as usize].loc = Loc::Cell(cell);
        if self.stack_onto(cell) {
            return;
        }
        let p = self.pieces[id as usize];
        self.board_key ^= cell_key(cell, p.kind, p.owner);
        self.board[cell as usize] = Some(id);
        self.occupied |= cell_bit(cell);
        *self.owned_mut(p.owner) |= cell_bit(cell);
        self.kind_at(p.kind, cell, true);
        self.touched.cell(cell);
    }

    /// Changes a piece's kind.
    #[inline]
    pub fn set_kind(&mut self, id: PieceId, kind: KindId) {
        let p = &mut self.pieces[id as usize];
        if p.kind != kind {
            let old = p.kind;
            p.kind = kind;
            if let Loc::Cell(c) = p.loc {
                if self.board[c as usize] == Some(id) {
                    self.board_key ^= cell_key(c, old, p.owner) ^ cell_key(c, kind, p.owner);
                    self.kind_changes(c, old, kind);
                }
                self.touched.cell(c);
            }
        }
    }

    /// Changes a piece's owner (a flipped piece); the new owner knows it.
    pub fn set_owner(&mut self, id: PieceId, owner: PlayerId) {
        let p = &mut self.pieces[id as usize];
        if p.owner != owner {
            let old = p.owner;
            p.owner = owner;
            p.known_by |= 1 << owner;
            let (loc, kind) = (p.loc, p.kind);
            if let Loc::Cell(c) = loc {
                if self.board[c as usize] == Some(id) {
                    self.board_key ^= cell_key(c, kind, old) ^ cell_key(c, kind, owner);
                    *self.owned_mut(old) &= !cell_bit(c);
                    *self.owned_mut(owner) |= cell_bit(c);
                }
                self.touched.cell(c);
            }
        }
    }

    /// Puts a piece at the back of a container.
    pub fn send_to(&mut self, id: PieceId, container: u16) {
        self.detach(id);
        self.pieces[id as usize].loc = Loc::Container(container);
        self.containers[container as usize].pieces.push(id);
    }

    /// Puts a piece at the front of a container.
    pub fn send_to_front(&mut self, id: PieceId, container: u16) {
        self.detach(id);
        self.pieces[id as usize].loc = Loc::Container(container);
        self.containers[container as usize].pieces.insert(0, id);
    }

    /// Adds a piece at the back of a container. Fails when the game
    /// already holds [`MAX_PIECES`].
    pub fn add_piece_to(
        &mut self,
        kind: KindId,
        owner: PlayerId,
        container: u16,
        known_by: PlayerSet,
    ) -> Result<PieceId, String> {
        let id = self.next_piece_id()?;
        self.pieces.push(Piece {
            kind,
            owner,
            loc: Loc::Container(container),
            known_by: known_by | (1 << owner),
            moved: false,
        });
        self.containers[container as usize].pieces.push(id);
        Ok(id)
    }

    /// Removes a piece from the board: it goes to its owner's `captured` pile.
    pub fn capture(&mut self, id: PieceId) {
        let owner = self.pieces[id as usize].owner;
        let k = self.container_id(CAPTURED, Some(owner));
        self.send_to(id, k);
    }

    pub fn reveal(&mut self, id: PieceId, to: PlayerSet) {
        self.pieces[id as usize].known_by |= to;
    }

    pub fn knows(&self, player: PlayerId, id: PieceId) -> bool {
        self.pieces[id as usize].known_by & (1 << player) != 0
    }

    pub fn counter(&self, name: &str, player: Option<PlayerId>) -> i64 {
        self.counters.get(name, player).unwrap_or(0)
    }

    pub fn set_counter(&mut self, name: &str, player: Option<PlayerId>, value: i64) {
        self.counters.set(name, player, value);
    }

    /// [`GameState::counter`] by number.
    #[inline]
    pub fn counter_id(&self, id: &CounterId, player: Option<PlayerId>) -> i64 {
        self.counters.get_id(id, player).unwrap_or(0)
    }

    /// [`GameState::set_counter`] by number.
    #[inline]
    pub fn set_counter_id(&mut self, id: &CounterId, player: Option<PlayerId>, value: i64) {
        self.counters.set_id(id, player, value);
    }

    /// The next player in turn order after `p` who is still in the game.
    pub fn next_player(&self, p: PlayerId) -> PlayerId {
        let n = self.players.max(1);
        let mut q = p;
        for _ in 0..n {
            q = (q + 1) % n;
            if self.eliminated & (1 << q) == 0 {
                return q;
            }
        }
        p
    }

    /// The previous player in turn order before `p` who is still in the
    /// game (a phase played counter-clockwise).
    pub fn previous_player(&self, p: PlayerId) -> PlayerId {
        let n = self.players.max(1);
        let mut q = p;
        for _ in 0..n {
            q = (q + n - 1) % n;
            if self.eliminated & (1 << q) == 0 {
                return q;
            }
        }
        p
    }

    /// The board's key (see [`cell_key`]), kept up to date as pieces move,
    /// arrive, leave and change kind: a position hash needs no walk over
    /// the board.
    #[inline]
    pub fn board_key(&self) -> u64 {
        self.board_key
    }

    /// The board's key computed from the board itself.
    pub fn compute_board_key(&self) -> u64 {
        let mut k = 0;
        for (c, slot) in self.board.iter().enumerate() {
            if let Some(id) = slot {
                let p = &self.pieces[*id as usize];
                k ^= cell_key(c as Cell, p.kind, p.owner);
            }
        }
        k
    }

    /// The piece on each cell, in cell order.
    #[inline]
    pub fn board(&self) -> &[Option<PieceId>] {
        &self.board
    }

    /// Puts `pieces` in the state in place of its own (a position read from
    /// a file): the board is rebuilt from where each piece says it is, and
    /// its key with it. The pieces in containers must already be listed by
    /// their containers. Fails, changing nothing, when a piece names a cell
    /// that is not on the board or two pieces name one cell.
    pub fn set_pieces(&mut self, pieces: Vec<Piece>) -> Result<(), String> {
        let mut board = vec![None; self.board.len()];
        for (id, p) in pieces.iter().enumerate() {
            if let Loc::Cell(c) = p.loc {
                let slot = board
                    .get_mut(c as usize)
                    .ok_or_else(|| format!("piece {id}: no cell {c} on the board"))?;
                match *slot {
                    Some(top)
                        if self.stacks.is_empty() || !same_stack(&pieces[top as usize], p) =>
                    {
                        return Err(format!("piece {id}: cell {c} already holds a piece"));
                    }
                    Some(_) => {}
                    None => *slot = Some(id as PieceId),
                }
            }
        }
        self.pieces = pieces;
        // Attributes stay with the ids (a caller that renumbers moves them).
        self.piece_attrs.truncate(self.pieces.len());
        self.board = board;
        if !self.stacks.is_empty() {
            self.enable_stacks();
        }
        self.rekey();
        self.touched.everything();
        Ok(())
    }

    /// Checks the state's internal consistency (board, locations and the
    /// board's key agree).
    pub fn check_consistency(&self) -> Result<(), String> {
        for (c, slot) in self.board.iter().enumerate() {
            if let Some(id) = slot {
                let p = self
                    .pieces
                    .get(*id as usize)
                    .ok_or(format!("cell {c} holds unknown piece {id}"))?;
                if p.loc != Loc::Cell(c as Cell) {
                    return Err(format!("cell {c} holds piece {id} located at {:?}", p.loc));
                }
            }
        }
        for (i, p) in self.pieces.iter().enumerate() {
            match p.loc {
                Loc::Cell(c) => {
                    let shown = self.board[c as usize];
                    let stacked = !self.stacks.is_empty()
                        && shown.is_some_and(|t| same_stack(&self.pieces[t as usize], p));
                    if shown != Some(i as PieceId) && !stacked {
                        return Err(format!("piece {i} says cell {c} but is not there"));
                    }
                }
                Loc::Container(k) => {
                    let n = self.containers[k as usize]
                        .pieces
                        .iter()
                        .filter(|&&x| x == i as PieceId)
                        .count();
                    if n != 1 {
                        return Err(format!("piece {i} is {n} times in container {k}"));
                    }
                }
                Loc::Carried(_) => {}
            }
        }
        self.check_stacks()?;
        if self.board_key != self.compute_board_key() {
            return Err("the board's key does not match the board".into());
        }
        self.check_masks()
    }
}
