//! The turn engine: legal actions generated natively from declared movement,
//! actions applied transactionally with Lua hooks where the variant deviates,
//! turn order, pending choices, repetition bookkeeping and the outcome.

pub mod movegen;
pub mod sampler;
pub mod tables;

use std::fmt;
use std::sync::Arc;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::base::effect::Effect;
use crate::base::geometry::Cell;
use crate::base::state::{GameState, KindId, Outcome, PieceId, PlayerId, Shuttle};
use crate::engine::movegen::{
    attacked_except, attacked_on, capture_map, piece_moves_on, piece_targets, reaches, Moves,
};
use crate::engine::sampler::Sampler;
use crate::rules::lua::{ActionInfo, ActionKind, Rules};
use crate::rules::variant::{LoadError, MovePattern, NoMoves, Variant};

/// An action as data. Its canonical text form (see [`Engine::action_text`])
/// parses back with [`Engine::parse_action`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// A piece goes from one cell to another: a move, or a strike when the
    /// target holds an enemy. Text: `a4-a5`.
    Move { from: Cell, to: Cell },
    /// The answer to the first pending choice: the index of the option.
    /// Text: the option's label.
    Choose { index: u16 },
    /// Offer a draw (the turn goes on). Text: `offer-draw`.
    OfferDraw,
    /// Accept the opponent's standing draw offer. Text: `accept-draw`.
    AcceptDraw,
    /// One of the actions the rules script lists (`rules.actions`), by index
    /// in that list. Text: its label.
    Scripted { index: u16 },
}

impl Action {
    /// Actions that are about the game rather than in it (draw offers):
    /// random agents leave them alone.
    pub fn is_social(&self) -> bool {
        matches!(self, Action::OfferDraw | Action::AcceptDraw)
    }
}

const DRAW_OFFER: &str = "draw_offer";

/// Something that happened while an action was applied.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    Moved {
        piece: PieceId,
        from: Cell,
        to: Cell,
    },
    Struck {
        attacker: PieceId,
        defender: PieceId,
        from: Cell,
        to: Cell,
        result: String,
    },
    Effect(Effect),
    Chose {
        player: PlayerId,
        label: String,
    },
    Ended(Outcome),
}

/// Why an action was refused. The state is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionError {
    /// The text is not an action of this game.
    Parse(String),
    /// The action is not legal here, and why.
    Illegal(String),
    /// A rule script failed (the message names the script line).
    Script(String),
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ActionError::Parse(m) => write!(f, "cannot read action: {m}"),
            ActionError::Illegal(m) => write!(f, "illegal: {m}"),
            ActionError::Script(m) => write!(f, "rule error: {m}"),
        }
    }
}

impl std::error::Error for ActionError {}

/// How the turn rule learns whether the next player can move, and what the
/// caller gets back about that position.
enum Next<'a> {
    /// Only whether some legal action exists.
    Check,
    /// The full list of legal actions, filled in.
    List(&'a mut Vec<Action>),
    /// A uniformly random legal action, drawn by a sampler (synced first)
    /// with the generator, and kept for the caller to play next.
    Draw(&'a mut Sampler, &'a mut ChaCha8Rng, &'a mut Option<Action>),
}

/// A loaded variant with its rules: the immutable game definition.
pub struct Engine {
    pub variant: Arc<Variant>,
    /// The declared movement and its tables.
    pub moves: Arc<Moves>,
    pub rules: Rules,
    /// Whether any kind is royal (moves are then checked for self-check).
    has_royal: bool,
    /// Every slide direction of every kind (both mirrors of relative ones),
    /// or `None` when a kind has paths or jumping slides: vacating a cell
    /// off these lines from a royal piece cannot expose it.
    slide_lines: Option<Vec<(i8, i8)>>,
    /// Per slide line: the next cell along it from each cell (`Cell::MAX`
    /// off the board).
    line_next: Vec<Vec<Cell>>,
    /// Test every move for self-check, without the shortcuts (the lines
    /// from the royal piece, `rules.check_cells`): for tests that prove the
    /// shortcuts change nothing.
    exhaustive_check: bool,
}

impl Engine {
    /// Loads a variant by bundled name or path, with option overrides.
    pub fn load(name_or_path: &str, overrides: &[(String, String)]) -> Result<Engine, LoadError> {
        let variant = Variant::load(name_or_path, overrides)?;
        Engine::from_variant(variant)
    }

    pub fn from_variant(variant: Variant) -> Result<Engine, LoadError> {
        let rules = Rules::load(&variant)?;
        let mut slide_lines = Some(Vec::new());
        for pat in variant.kinds.iter().flat_map(|k| &k.moves) {
            match (pat, slide_lines.as_mut()) {
                (
                    MovePattern::Slide {
                        deltas, jump: None, ..
                    },
                    Some(lines),
                ) => {
                    for &(x, y) in deltas {
                        // Both ways up (relative directions flip for the
                        // second player), each line once.
                        for d in [(x, y), (x, -y)] {
                            if !lines.contains(&d) {
                                lines.push(d);
                            }
                        }
                    }
                }
                (MovePattern::Step { .. }, _) => {}
                _ => slide_lines = None,
            }
        }
        // For each slide line, the next cell along it from every cell.
        let line_next = slide_lines
            .as_deref()
            .unwrap_or(&[])
            .iter()
            .map(|&d| {
                (0..variant.board.cell_count() as Cell)
                    .map(|c| variant.board.offset(c, d).unwrap_or(Cell::MAX))
                    .collect()
            })
            .collect();
        let variant = Arc::new(variant);
        let moves = Arc::new(Moves::new(variant.clone()));
        let mut rules = rules;
        let asked = moves.clone();
        rules.set_attacked(Box::new(move |s, occupant, cell, by| {
            attacked_on(&asked, s, occupant, cell, by)
        }));
        let engine = Engine {
            exhaustive_check: false,
            line_next,
            slide_lines,
            has_royal: variant.kinds.iter().any(|k| k.royal),
            moves,
            variant,
            rules,
        };
        if let (Some(start), Some((file, line, column))) =
            (&engine.variant.start, &engine.variant.start_at)
        {
            if let Err(m) = engine.parse_fen(start, 0) {
                return Err(LoadError(vec![crate::rules::variant::Diagnostic {
                    file: file.clone(),
                    line: *line,
                    column: *column,
                    message: format!("start: {m}"),
                }]));
            }
        }
        Ok(engine)
    }

    pub fn player_name(&self, p: PlayerId) -> &str {
        self.variant
            .players
            .get(p as usize)
            .map(String::as_str)
            .unwrap_or("?")
    }

    /// An empty board (terrain laid, no pieces) with red to move.
    pub fn empty_state(&self, seed: u64) -> GameState {
        let v = &self.variant;
        let mut s = GameState::empty(v.board.cell_count(), v.players.len() as u8, seed);
        s.terrain = v.board.terrain.clone();
        s
    }

    /// The army of a player: kind ids in declaration order, each `count` times.
    pub fn army(&self) -> Vec<KindId> {
        let mut army = Vec::new();
        for (i, k) in self.variant.kinds.iter().enumerate() {
            for _ in 0..k.count {
                army.push(i as KindId);
            }
        }
        army
    }

    /// Cells of a player's setup zone, ordered from the front row (nearest the
    /// middle of the board) to the back, each row left to right as that player
    /// sees the board.
    pub fn setup_cells(&self, player: PlayerId) -> Vec<Cell> {
        let board = &self.variant.board;
        let zone = &self.variant.setup_zones[player as usize];
        let mid = (board.ranks as f64 - 1.0) / 2.0;
        let mean =
            zone.iter().map(|&c| board.coords(c).1 as f64).sum::<f64>() / zone.len().max(1) as f64;
        let faces_up = mean <= mid;
        let mut cells: Vec<Cell> = zone
            .iter()
            .copied()
            .filter(|&c| board.terrain[c as usize] & board.blocking == 0)
            .collect();
        cells.sort_by_key(|&c| {
            let (f, r) = board.coords(c);
            if faces_up {
                (-r, f)
            } else {
                (r, -f)
            }
        });
        cells
    }

    /// Parses a setup string (one kind code per cell of the setup zone, in
    /// [`Engine::setup_cells`] order; `A`, `.` or `_` for an empty cell).
    /// `back_first` reads the rows from the back row instead.
    pub fn parse_setup(
        &self,
        player: PlayerId,
        text: &str,
        back_first: bool,
    ) -> Result<Vec<(Cell, KindId)>, String> {
        let cells = self.setup_cells(player);
        let chars: Vec<char> = text.trim().chars().collect();
        if chars.len() != cells.len() {
            return Err(format!(
                "a setup for {} needs {} letters (one per cell of the setup zone), found {}",
                self.player_name(player),
                cells.len(),
                chars.len()
            ));
        }
        let files = self.variant.board.files as usize;
        let rows = chars.len() / files.max(1);
        let mut out = Vec::new();
        for (i, ch) in chars.iter().enumerate() {
            let idx = if back_first && rows * files == chars.len() {
                let (r, f) = (i / files, i % files);
                (rows - 1 - r) * files + f
            } else {
                i
            };
            if matches!(ch, 'A' | '.' | '_') {
                continue;
            }
            let kind = self
                .variant
                .kinds
                .iter()
                .position(|k| k.code == Some(*ch))
                .ok_or_else(|| format!("setup letter `{ch}` is no piece kind's code"))?;
            out.push((cells[idx], kind as KindId));
        }
        let mut diffs = Vec::new();
        for (k, kind) in self.variant.kinds.iter().enumerate() {
            let got = out.iter().filter(|x| x.1 as usize == k).count();
            if got != kind.count as usize {
                diffs.push(format!("{got} {} instead of {}", kind.display, kind.count));
            }
        }
        if !diffs.is_empty() {
            return Err(format!(
                "the setup for {} does not hold the army of this variant: {}",
                self.player_name(player),
                diffs.join(", ")
            ));
        }
        Ok(out)
    }

    /// A random legal setup for a player, drawn from `rng`.
    pub fn random_setup(&self, player: PlayerId, rng: &mut ChaCha8Rng) -> Vec<(Cell, KindId)> {
        let mut cells = self.setup_cells(player);
        cells.shuffle(rng);
        let mut army = self.army();
        army.shuffle(rng);
        cells.into_iter().zip(army).collect()
    }

    /// A new game: each player's setup given, or random from the seed.
    /// Pieces are numbered in board order, so an id tells nothing of a kind.
    pub fn new_game(&self, seed: u64, setups: &[Option<Vec<(Cell, KindId)>>]) -> GameState {
        if let Some(start) = &self.variant.start {
            // Checked when the variant loaded.
            if let Ok(s) = self.parse_fen(start, seed) {
                return s;
            }
        }
        let mut state = self.empty_state(seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5e7u64.rotate_left(40));
        let mut placed: Vec<(Cell, KindId, PlayerId)> = Vec::new();
        for p in 0..self.variant.players.len() as PlayerId {
            if self.variant.setup_zones[p as usize].is_empty() {
                continue;
            }
            let setup = match setups.get(p as usize).cloned().flatten() {
                Some(s) => s,
                None => self.random_setup(p, &mut rng),
            };
            placed.extend(setup.into_iter().map(|(c, k)| (c, k, p)));
        }
        placed.sort_by_key(|x| x.0);
        for (c, k, p) in placed {
            state.add_piece(k, p, c, !self.variant.hidden_identities);
        }
        if self.rules.has_setup() {
            let mut effects = Vec::new();
            if let Err(e) = self.rules.setup(&mut state, &self.variant, &mut effects) {
                state.outcome = Some(Outcome {
                    winners: vec![],
                    reason: format!("the setup failed: {e}"),
                });
                return state;
            }
        }
        // A first player who cannot move at all meets the no-move rule at once.
        if !self.has_legal_action(&state) {
            state.to_move = state.players.saturating_sub(1);
            self.advance_turn(&mut state, Next::Check);
        }
        state
    }

    /// The player who acts now: the one owing the first pending choice, else
    /// the player to move. `None` when the game is over.
    pub fn acting_player(&self, s: &GameState) -> Option<PlayerId> {
        if s.outcome.is_some() {
            None
        } else if let Some(c) = s.pending.first() {
            Some(c.player)
        } else {
            Some(s.to_move)
        }
    }

    /// All legal actions, sorted and unique.
    pub fn legal_actions(&self, s: &GameState) -> Vec<Action> {
        let mut out = Vec::with_capacity(64);
        self.legal_actions_into(s, &mut out);
        out
    }

    /// Like [`Engine::legal_actions`], reusing a buffer.
    pub fn legal_actions_into(&self, s: &GameState, out: &mut Vec<Action>) {
        out.clear();
        if s.outcome.is_some() {
            return;
        }
        if let Some(c) = s.pending.first() {
            out.extend((0..c.options.len() as u16).map(|index| Action::Choose { index }));
            return;
        }
        let p = s.to_move;
        let frozen = self.frozen_cells(s, p);
        // Cells in order, and each piece's targets sorted: the list comes out
        // sorted without sorting it whole.
        let mut targets = Vec::new();
        for (from, slot) in s.board.iter().enumerate() {
            let Some(id) = *slot else { continue };
            if s.pieces[id as usize].owner != p {
                continue;
            }
            let from = from as Cell;
            if frozen.contains(&from) {
                continue;
            }
            piece_targets(&self.moves, s, id, from, &mut targets);
            out.extend(targets.iter().map(|&to| Action::Move { from, to }));
        }
        let extras = self.extra_moves(s, p);
        if !extras.is_empty() {
            out.extend(
                extras
                    .iter()
                    .map(|&(from, to, _)| Action::Move { from, to }),
            );
            out.sort_unstable();
            out.dedup();
        }
        if let Some(banned) = self.banned_by_repetition(s) {
            if let Some(i) = out.iter().position(|a| *a == banned) {
                out.remove(i);
            }
        }
        if self.has_royal {
            let mut guard = self.guard(s, p, true);
            out.retain(|a| match *a {
                Action::Move { from, to } => {
                    let side = extras
                        .iter()
                        .find(|e| e.0 == from && e.1 == to)
                        .map_or(&[][..], |e| &e.2[..]);
                    self.guard_allows(&mut guard, s, p, from, to, side)
                }
                _ => true,
            });
        }
        if self.rules.has_filter() {
            self.apply_filter(s, out);
        }
        if self.rules.has_actions() {
            match self.rules.actions(s, &self.variant) {
                Ok(list) => {
                    out.extend((0..list.len() as u16).map(|index| Action::Scripted { index }))
                }
                Err(e) => eprintln!("rule error in rules.actions: {e}"),
            }
        }
        if self.variant.draw_offers && !out.is_empty() {
            match s.counter(DRAW_OFFER, None) {
                0 => out.push(Action::OfferDraw),
                n if n - 1 != p as i64 => out.push(Action::AcceptDraw),
                _ => {}
            }
        }
    }

    /// Whether random playouts may draw moves with a [`Sampler`] instead of
    /// listing them: the legal moves are the declared moves and the
    /// script's `extra_moves`, less the back-and-forth ban and moves that
    /// leave a royal piece capturable (no script lists or filters moves,
    /// nothing is frozen, no paths).
    pub fn samples_moves(&self) -> bool {
        !self.rules.has_filter()
            && !self.rules.has_actions()
            && !self.rules.has_frozen()
            && !self.moves.steps.has_path()
    }

    /// Whether some kind is royal (never left capturable).
    pub(crate) fn has_royal(&self) -> bool {
        self.has_royal
    }

    /// Removes the moves `rules.filter` forbids. A failing filter forbids
    /// nothing and is reported on stderr once per call (listing actions has
    /// no error path; applying re-checks through the same list).
    fn apply_filter(&self, s: &GameState, out: &mut Vec<Action>) {
        let moves: Vec<(Cell, Cell, PieceId)> = out
            .iter()
            .filter_map(|a| match *a {
                Action::Move { from, to } => s.piece_at(from).map(|p| (from, to, p)),
                _ => None,
            })
            .collect();
        match self.rules.filter(s, &self.variant, &moves) {
            Ok(mut drop) => {
                drop.sort_unstable();
                drop.dedup();
                for i in drop.into_iter().rev() {
                    if i >= 1 && i <= out.len() {
                        out.remove(i - 1);
                    }
                }
            }
            Err(e) => eprintln!("rule error in rules.filter: {e}"),
        }
    }

    /// The one move the back-and-forth limit forbids now, if any: the piece
    /// that shuttled `limit` times going back once more.
    pub(crate) fn banned_by_repetition(&self, s: &GameState) -> Option<Action> {
        let limit = self.variant.repetition_limit?;
        let sh = &s.shuttles[s.to_move as usize];
        let piece = sh.piece?;
        (sh.count >= limit && s.piece_at(sh.to) == Some(piece) && s.piece_at(sh.from).is_none())
            .then_some(Action::Move {
                from: sh.to,
                to: sh.from,
            })
    }

    /// The legal actions of one player (empty unless that player acts now).
    pub fn legal_actions_for(&self, s: &GameState, player: PlayerId) -> Vec<Action> {
        if self.acting_player(s) == Some(player) {
            self.legal_actions(s)
        } else {
            Vec::new()
        }
    }

    /// Whether the player to move has at least one legal action (stops early).
    pub fn has_legal_action(&self, s: &GameState) -> bool {
        if !s.pending.is_empty() {
            return true;
        }
        if self.rules.has_filter() || self.rules.has_actions() {
            return self.legal_actions(s).iter().any(|a| !a.is_social());
        }
        let p = s.to_move;
        let banned = self.banned_by_repetition(s);
        let frozen = self.frozen_cells(s, p);
        let mut guard = None;
        for (from, slot) in s.board.iter().enumerate() {
            let Some(id) = *slot else { continue };
            if s.pieces[id as usize].owner != p {
                continue;
            }
            let from = from as Cell;
            if frozen.contains(&from) {
                continue;
            }
            let mut found = false;
            self.piece_moves(s, id, from, &mut |to| {
                found |= banned != Some(Action::Move { from, to })
                    && !found
                    && (!self.has_royal || {
                        let g = guard.get_or_insert_with(|| self.guard(s, p, false));
                        self.guard_allows(g, s, p, from, to, &[])
                    });
            });
            if found {
                return true;
            }
        }
        self.extra_moves(s, p).iter().any(|(from, to, side)| {
            !frozen.contains(from)
                && banned
                    != Some(Action::Move {
                        from: *from,
                        to: *to,
                    })
                && (!self.has_royal || {
                    let g = guard.get_or_insert_with(|| self.guard(s, p, false));
                    self.guard_allows(g, s, p, *from, *to, side)
                })
        })
    }

    /// What the self-check test needs to know about a position, found once
    /// per position: the royal cells and, when check is native, no royal
    /// piece is attacked now and every slide is plain, the lines from the
    /// royal pieces (so that most moves need no test at all).
    /// Turns the self-check shortcuts off (`true`) or on (the default).
    pub fn set_exhaustive_check(&mut self, on: bool) {
        self.exhaustive_check = on;
    }

    pub(crate) fn guard(&self, s: &GameState, player: PlayerId, with_rays: bool) -> Guard {
        let with_rays = with_rays && !self.exhaustive_check;
        let native = self.native_check();
        let mut pool = GUARD_POOL.with(|p| p.take());
        let mut royals = std::mem::take(&mut pool.royals);
        royals.extend(s.board.iter().enumerate().filter_map(|(c, slot)| {
            let p = &s.pieces[(*slot)? as usize];
            (p.owner == player && self.variant.kinds[p.kind as usize].royal).then_some(c as Cell)
        }));
        let lines = self.slide_lines.as_deref().unwrap_or(&[]);
        let rays = (with_rays
            && native
            && self.slide_lines.is_some()
            && lines.len() < 32
            && !royals.iter().any(|&r| {
                (0..s.players).any(|q| {
                    q != player
                        && s.eliminated & (1 << q) == 0
                        && attacked_on(&self.moves, s, &s.board, r, q)
                })
            }))
        .then(|| {
            let mut rays = std::mem::take(&mut pool.rays);
            rays.resize(s.board.len(), 0);
            for &r in &royals {
                rays[r as usize] = ROYAL_CELL;
                for (i, next) in self.line_next.iter().enumerate() {
                    let mut c = next[r as usize];
                    while c != Cell::MAX {
                        rays[c as usize] |= 1 << i;
                        c = next[c as usize];
                    }
                }
            }
            rays
        });
        // Scripted check: the cells the rules say can matter.
        let relevant = (with_rays && !native && self.rules.has_check_cells())
            .then(|| match self.rules.check_cells(s, &self.variant, player) {
                Ok(list) => list,
                Err(e) => {
                    eprintln!("rule error in rules.check_cells: {e}");
                    None
                }
            })
            .flatten()
            .map(|list| {
                let mut mask = vec![false; s.board.len()];
                for c in list {
                    mask[c as usize] = true;
                }
                mask
            });
        let enemy_relevant = relevant.as_ref().is_some_and(|mask| {
            mask.iter().enumerate().any(|(c, &m)| {
                m && s.board[c].is_some_and(|id| s.pieces[id as usize].owner != player)
            })
        });
        Guard {
            native,
            scratch: std::mem::take(&mut pool.scratch),
            royals,
            rays,
            reach: None,
            spare_map: std::mem::take(&mut pool.map),
            relevant,
            enemy_relevant,
        }
    }

    /// Whether moving `from`→`to` (capturing `side` besides `to`) leaves
    /// `player`'s royal pieces safe.
    pub(crate) fn guard_allows(
        &self,
        g: &mut Guard,
        s: &GameState,
        player: PlayerId,
        from: Cell,
        to: Cell,
        side: &[Cell],
    ) -> bool {
        if let (Some(rays), true) = (&g.rays, side.is_empty()) {
            let m = rays[from as usize];
            if m == 0 {
                // On no line from a royal piece: it opens none (steps do
                // not depend on other pieces).
                return true;
            }
            if g.scratch.is_empty() {
                g.scratch.extend_from_slice(&s.board);
            }
            if m == ROYAL_CELL && g.royals.len() == 1 {
                // The royal piece moves: is its new cell reachable by an
                // enemy once it has left the old one? One map per position.
                if g.reach.is_none() {
                    let board = &mut g.scratch;
                    let royal = board[from as usize].take();
                    let victim = royal.map_or(0, |id| s.pieces[id as usize].kind);
                    let mut map = std::mem::take(&mut g.spare_map);
                    map.resize(s.board.len(), false);
                    let usable = (0..s.players).all(|q| {
                        q == player
                            || s.eliminated & (1 << q) != 0
                            || capture_map(&self.moves, s, board, q, victim, &mut map)
                    });
                    board[from as usize] = royal;
                    g.reach = Some(usable.then_some(map));
                }
                if let Some(Some(map)) = &g.reach {
                    return !map[to as usize];
                }
            }
            if m != ROYAL_CELL && g.royals.len() == 1 {
                // Only the lines through `from` can open: look along each
                // for the first piece, on the board after the move.
                let r = g.royals[0];
                let saved_to = g.scratch[to as usize];
                g.scratch[to as usize] = g.scratch[from as usize].take();
                let mut exposed = false;
                for (i, next) in self.line_next.iter().enumerate() {
                    if m & (1 << i) == 0 {
                        continue;
                    }
                    let mut c = next[r as usize];
                    while c != Cell::MAX {
                        if s.terrain[c as usize] & self.variant.board.blocking != 0 {
                            break;
                        }
                        if let Some(id) = g.scratch[c as usize] {
                            let q = s.pieces[id as usize].owner;
                            exposed = q != player
                                && s.eliminated & (1 << q) == 0
                                && reaches(&self.moves, s, &g.scratch, id, c, r);
                            break;
                        }
                        c = next[c as usize];
                    }
                    if exposed {
                        break;
                    }
                }
                g.scratch[from as usize] = g.scratch[to as usize];
                g.scratch[to as usize] = saved_to;
                return !exposed;
            }
        }
        if let Some(mask) = &g.relevant {
            let outside = |c: &Cell| !mask[*c as usize];
            if outside(&from) && outside(&to) && side.iter().all(outside) {
                // Only what the move captures is left to look at, and only
                // when an enemy stands on a cell that matters.
                let captures_outside = !g.enemy_relevant
                    || !self.rules.has_captures()
                    || self
                        .rules
                        .captures(s, &self.variant, from, to)
                        .is_ok_and(|c| c.iter().all(outside));
                if captures_outside {
                    return true;
                }
            }
        }
        if g.native {
            if g.scratch.is_empty() {
                g.scratch.extend_from_slice(&s.board);
            }
            let royals = std::mem::take(&mut g.royals);
            let exposed = self.exposes_royal_on(s, &mut g.scratch, &royals, player, from, to, side);
            g.royals = royals;
            !exposed
        } else {
            !self.exposes_royal(s, player, from, to, side)
        }
    }

    /// The moves `rules.extra_moves` adds for `player`, with the cells each
    /// captures besides its target. A failing hook adds nothing (reported on
    /// stderr); moves of pieces that are not the player's are dropped.
    pub(crate) fn extra_moves(
        &self,
        s: &GameState,
        player: PlayerId,
    ) -> Vec<(Cell, Cell, Vec<Cell>)> {
        if !self.rules.has_extra_moves()
            || !self.variant.extra_moves_when.is_empty()
                && self
                    .variant
                    .extra_moves_when
                    .iter()
                    .all(|c| s.counters.get(c, None).is_none_or(|v| v == 0))
        {
            return Vec::new();
        }
        let mut v = self
            .rules
            .extra_moves(s, &self.variant, player)
            .unwrap_or_else(|e| {
                eprintln!("rule error in rules.extra_moves: {e}");
                Vec::new()
            });
        v.retain(|&(from, to, _)| {
            from != to
                && s.piece_at(from)
                    .is_some_and(|id| s.pieces[id as usize].owner == player)
                && s.piece_at(to)
                    .is_none_or(|id| s.pieces[id as usize].owner != player)
        });
        v
    }

    /// The cells a move captures besides its target when it is one of the
    /// rules' extra moves (a declared move with the same cells wins).
    fn extra_side_captures(&self, s: &GameState, from: Cell, to: Cell) -> Vec<Cell> {
        if !self.rules.has_extra_moves() {
            return Vec::new();
        }
        let Some(id) = s.piece_at(from) else {
            return Vec::new();
        };
        let mut declared = false;
        self.piece_moves(s, id, from, &mut |c| declared |= c == to);
        if declared {
            return Vec::new();
        }
        self.extra_moves(s, s.pieces[id as usize].owner)
            .into_iter()
            .find(|e| e.0 == from && e.1 == to)
            .map(|e| e.2)
            .unwrap_or_default()
    }

    /// The cells of `player`'s pieces that `rules.frozen` says cannot move.
    /// A failing hook freezes nothing and is reported on stderr.
    pub fn frozen_cells(&self, s: &GameState, player: PlayerId) -> Vec<Cell> {
        if !self.rules.has_frozen() {
            return Vec::new();
        }
        self.rules
            .frozen(s, &self.variant, player)
            .unwrap_or_else(|e| {
                eprintln!("rule error in rules.frozen: {e}");
                Vec::new()
            })
    }

    /// Whether check is decided natively (no rule hook changes captures,
    /// attacks or mobility).
    fn native_check(&self) -> bool {
        !self.rules.has_captures() && !self.rules.has_attacked() && !self.rules.has_frozen()
    }

    /// The cells of `player`'s royal pieces.
    fn royal_cells(&self, s: &GameState, player: PlayerId) -> Vec<Cell> {
        s.board
            .iter()
            .enumerate()
            .filter_map(|(c, slot)| {
                let p = &s.pieces[(*slot)? as usize];
                (p.owner == player && self.variant.kinds[p.kind as usize].royal)
                    .then_some(c as Cell)
            })
            .collect()
    }

    /// [`Engine::exposes_royal`] for native check, on `scratch` (a copy of
    /// the board, left as it was found) with `royals` the royal cells.
    #[allow(clippy::too_many_arguments)]
    fn exposes_royal_on(
        &self,
        s: &GameState,
        scratch: &mut [Option<PieceId>],
        royals: &[Cell],
        player: PlayerId,
        from: Cell,
        to: Cell,
        side: &[Cell],
    ) -> bool {
        let saved_to = scratch[to as usize];
        let saved_side: Vec<Option<PieceId>> =
            side.iter().map(|&c| scratch[c as usize].take()).collect();
        scratch[to as usize] = scratch[from as usize].take();
        let attacked = royals.iter().any(|&r| {
            let r = if r == from { to } else { r };
            (0..s.players).any(|q| {
                q != player
                    && s.eliminated & (1 << q) == 0
                    && attacked_on(&self.moves, s, scratch, r, q)
            })
        });
        scratch[from as usize] = scratch[to as usize];
        scratch[to as usize] = saved_to;
        for (i, &c) in side.iter().enumerate().rev() {
            scratch[c as usize] = saved_side[i];
        }
        attacked
    }

    /// Whether moving `from`→`to` would leave one of `player`'s royal pieces
    /// capturable. The move is played on a scratch copy with its strike and
    /// its side captures (`rules.captures`), not `rules.after_action`.
    /// `side`: cells the move captures besides `to` (an extra move's).
    fn exposes_royal(
        &self,
        s: &GameState,
        player: PlayerId,
        from: Cell,
        to: Cell,
        side: &[Cell],
    ) -> bool {
        if self.native_check() {
            // Natively, on a copy of the board only.
            let royals = self.royal_cells(s, player);
            return self.exposes_royal_on(s, &mut s.board.clone(), &royals, player, from, to, side);
        }
        let mut t = s.clone();
        let (mut ev, mut ef) = (Vec::new(), Vec::new());
        if self
            .do_move(&mut t, player, from, to, side, &mut ev, &mut ef)
            .is_err()
        {
            return false;
        }
        self.royal_attacked(&t, player)
    }

    /// Whether a royal piece of `player` could be captured by another player
    /// (not eliminated) moving now: "check".
    pub fn royal_attacked(&self, s: &GameState, player: PlayerId) -> bool {
        if !self.has_royal {
            return false;
        }
        for (cell, slot) in s.board.iter().enumerate() {
            let Some(id) = *slot else { continue };
            let piece = &s.pieces[id as usize];
            if piece.owner != player || !self.variant.kinds[piece.kind as usize].royal {
                continue;
            }
            for q in 0..s.players {
                if q != player && s.eliminated & (1 << q) == 0 && self.attacked(s, cell as Cell, q)
                {
                    return true;
                }
            }
        }
        false
    }

    /// Whether player `by`, moving now, could capture the piece on `cell`:
    /// `rules.attacked` when the variant defines it, else any declared move
    /// of an unfrozen piece of `by` that ends on `cell`.
    pub fn attacked(&self, s: &GameState, cell: Cell, by: PlayerId) -> bool {
        if self.rules.has_attacked() {
            return self
                .rules
                .attacked(s, &self.variant, cell, by)
                .unwrap_or_else(|e| {
                    eprintln!("rule error in rules.attacked: {e}");
                    false
                });
        }
        let frozen = self.frozen_cells(s, by);
        attacked_except(&self.moves, s, &s.board, cell, by, &frozen)
    }

    fn passable(&self, s: &GameState, c: Cell) -> bool {
        s.terrain[c as usize] & self.variant.board.blocking == 0
    }

    /// Generates the target cells of one piece's declared moves.
    fn piece_moves(&self, s: &GameState, id: PieceId, from: Cell, emit: &mut impl FnMut(Cell)) {
        piece_moves_on(&self.moves, s, &s.board, id, from, emit)
    }

    /// How many consecutive back-and-forth moves between the same two cells
    /// the piece would have made after this action.
    fn shuttle_count(&self, s: &GameState, a: &Action) -> u32 {
        let Action::Move { from, to } = *a else {
            return 0;
        };
        let sh = &s.shuttles[s.to_move as usize];
        match s.piece_at(from) {
            Some(id)
                if sh.piece == Some(id)
                    && sh.to == from
                    && sh.from == to
                    && s.piece_at(to).is_none() =>
            {
                sh.count + 1
            }
            _ => 1,
        }
    }

    /// The canonical text of an action.
    pub fn action_text(&self, s: &GameState, a: &Action) -> String {
        let b = &self.variant.board;
        match a {
            Action::Move { from, to } => format!("{}-{}", b.cell_name(*from), b.cell_name(*to)),
            Action::Choose { index } => s
                .pending
                .first()
                .and_then(|c| c.options.get(*index as usize))
                .cloned()
                .unwrap_or_else(|| format!("#{index}")),
            Action::OfferDraw => "offer-draw".into(),
            Action::AcceptDraw => "accept-draw".into(),
            Action::Scripted { index } => self
                .rules
                .actions(s, &self.variant)
                .ok()
                .and_then(|l| l.get(*index as usize).cloned())
                .unwrap_or_else(|| format!("#{index}")),
        }
    }

    /// Reads an action's text (`a4-a5`, `a4xa5`, `a4a5`, or a choice's
    /// label), or a move in the variant's notation (`Wb6`, `e4e5:d5:f5`).
    pub fn parse_action(&self, s: &GameState, text: &str) -> Result<Action, ActionError> {
        match self.parse_canonical(s, text) {
            Ok(a) => Ok(a),
            Err(e)
                if self.variant.notation.style
                    == crate::rules::variant::NotationStyle::Coordinates =>
            {
                Err(e)
            }
            Err(e) => match self.parse_notation(s, text) {
                Ok((a, _)) => Ok(a),
                Err(ActionError::Parse(m)) if m.contains("ambiguous") => Err(ActionError::Parse(m)),
                Err(ne) if matches!(e, ActionError::Parse(_)) => Err(ne),
                Err(_) => Err(e),
            },
        }
    }

    /// Reads the canonical forms only.
    pub(crate) fn parse_canonical(&self, s: &GameState, text: &str) -> Result<Action, ActionError> {
        let t = text.trim();
        if let Some(c) = s.pending.first() {
            if let Some(i) = c.options.iter().position(|o| o == t) {
                return Ok(Action::Choose { index: i as u16 });
            }
            if let Some(i) = t.strip_prefix('#').and_then(|n| n.parse::<u16>().ok()) {
                if (i as usize) < c.options.len() {
                    return Ok(Action::Choose { index: i });
                }
            }
            return Err(ActionError::Illegal(format!(
                "{} must first choose ({}): one of {}",
                self.player_name(c.player),
                c.reason,
                c.options.join(", ")
            )));
        }
        match t {
            "offer-draw" => return Ok(Action::OfferDraw),
            "accept-draw" => return Ok(Action::AcceptDraw),
            _ => {}
        }
        if self.rules.has_actions() {
            let list = self
                .rules
                .actions(s, &self.variant)
                .map_err(ActionError::Script)?;
            if let Some(i) = list.iter().position(|l| l == t) {
                return Ok(Action::Scripted { index: i as u16 });
            }
            // Not a label: a declared move, if any kind moves natively.
            let native = self.variant.kinds.iter().any(|k| k.is_mobile());
            if !native || !t.contains('-') || t.contains(' ') {
                return Err(ActionError::Parse(format!(
                    "`{t}` is not an action here (actions: {})",
                    list.join(", ")
                )));
            }
        }
        let b = &self.variant.board;
        let (l, r) = if let Some((l, r)) = t.split_once(['-', 'x', 'X', ':']) {
            (l.to_string(), r.to_string())
        } else {
            // `a4a5`: split before the second letter.
            let i = t
                .char_indices()
                .skip(1)
                .find(|(_, c)| c.is_ascii_alphabetic())
                .map(|(i, _)| i)
                .ok_or_else(|| {
                    ActionError::Parse(format!("`{t}`: expected FROM-TO such as a4-a5"))
                })?;
            (t[..i].to_string(), t[i..].to_string())
        };
        let from = b
            .parse_cell(&l)
            .ok_or_else(|| ActionError::Parse(format!("`{l}` is not a cell of the {b} board")))?;
        let to = b
            .parse_cell(&r)
            .ok_or_else(|| ActionError::Parse(format!("`{r}` is not a cell of the {b} board")))?;
        Ok(Action::Move { from, to })
    }

    /// Explains why an action is not legal in this state.
    pub fn explain_illegal(&self, s: &GameState, a: &Action) -> String {
        if let Some(o) = &s.outcome {
            return format!("the game is over ({})", o.reason);
        }
        let b = &self.variant.board;
        match *a {
            Action::OfferDraw | Action::AcceptDraw if !self.variant.draw_offers => {
                "this variant has no draw offers".into()
            }
            Action::OfferDraw => "a draw offer is already standing".into(),
            Action::AcceptDraw => "there is no draw offer from the opponent to accept".into(),
            Action::Scripted { index } => {
                format!("there is no listed action number {index} here")
            }
            Action::Choose { index } => match s.pending.first() {
                None => "there is no choice to make".into(),
                Some(c) => format!(
                    "choice {index} is not one of the {} options",
                    c.options.len()
                ),
            },
            Action::Move { from, to } => {
                let (fname, tname) = (b.cell_name(from), b.cell_name(to));
                if let Some(c) = s.pending.first() {
                    return format!(
                        "{} must first choose ({})",
                        self.player_name(c.player),
                        c.reason
                    );
                }
                let Some(id) = s.piece_at(from) else {
                    return format!("there is no piece on {fname}");
                };
                let piece = &s.pieces[id as usize];
                let kind = &self.variant.kinds[piece.kind as usize];
                if piece.owner != s.to_move {
                    return format!(
                        "the piece on {fname} belongs to {}, and it is {}'s turn",
                        self.player_name(piece.owner),
                        self.player_name(s.to_move)
                    );
                }
                if !kind.is_mobile() {
                    return format!("a {} never moves", kind.display);
                }
                if !self.passable(s, to) {
                    return format!("{tname} cannot be entered");
                }
                if let Some(t) = s.piece_at(to) {
                    if s.pieces[t as usize].owner == piece.owner {
                        return format!("{tname} holds your own piece");
                    }
                }
                let mut reachable = false;
                self.piece_moves(s, id, from, &mut |c| reachable |= c == to);
                if !reachable {
                    return format!(
                        "the {} on {fname} cannot reach {tname} (it moves: {})",
                        kind.display,
                        describe_moves(&kind.moves)
                    );
                }
                if self.frozen_cells(s, piece.owner).contains(&from) {
                    return format!("the {} on {fname} is frozen and cannot move", kind.display);
                }
                if self.has_royal
                    && self.exposes_royal(
                        s,
                        piece.owner,
                        from,
                        to,
                        &self.extra_side_captures(s, from, to),
                    )
                {
                    return "that would leave your royal piece capturable (check)".into();
                }
                if let Some(limit) = self.variant.repetition_limit {
                    let n = self.shuttle_count(s, a);
                    if n > limit {
                        return format!(
                            "this piece may not move back and forth between {fname} and {tname} more than {limit} times in a row"
                        );
                    }
                }
                "not a legal action here".into()
            }
        }
    }

    /// Applies an action for the acting player. On any error the state is
    /// exactly as before.
    pub fn apply(&self, s: &mut GameState, a: &Action) -> Result<Vec<Event>, ActionError> {
        if !self.legal_actions(s).contains(a) {
            return Err(ActionError::Illegal(self.explain_illegal(s, a)));
        }
        let mut next = s.clone();
        let events = self.apply_unchecked(&mut next, a)?;
        *s = next;
        Ok(events)
    }

    /// Applies an action known to be legal, on a state the caller may throw
    /// away if an error comes back (a rule script failed).
    pub fn apply_unchecked(
        &self,
        s: &mut GameState,
        a: &Action,
    ) -> Result<Vec<Event>, ActionError> {
        self.apply_listing(s, a, None).map(|r| r.0)
    }

    /// [`Engine::apply_unchecked`] that also lists, into `next`, the legal
    /// actions of the position it leaves when the turn passes (the turn
    /// rule has to look for them anyway); the `bool` says whether `next`
    /// holds them (else the caller lists them itself).
    pub fn apply_listing(
        &self,
        s: &mut GameState,
        a: &Action,
        next: Option<&mut Vec<Action>>,
    ) -> Result<(Vec<Event>, bool), ActionError> {
        let next = match next {
            Some(list) => Next::List(list),
            None => Next::Check,
        };
        let mut events = Vec::new();
        let listed = self.apply_next(s, a, next, &mut events)?;
        Ok((events, listed))
    }

    /// [`Engine::apply_listing`] with the turn rule's question (can the next
    /// player move?) answered as `next` says; the `bool` says whether `next`
    /// describes the position left (a filled list, a drawn action). The
    /// events go to `events` (cleared first), a buffer the caller may keep.
    fn apply_next(
        &self,
        s: &mut GameState,
        a: &Action,
        next: Next,
        events: &mut Vec<Event>,
    ) -> Result<bool, ActionError> {
        let mut listed = false;
        events.clear();
        let mut effects = Vec::new();
        let mover = self.acting_player(s).unwrap_or(s.to_move);
        if self.variant.repetition_draw.is_some() && s.positions.is_empty() && s.pending.is_empty()
        {
            // The first position of a game (or after a capture) counts too.
            let h = self.position_hash(s);
            s.positions.push(h);
        }
        let moving = match *a {
            Action::Move { from, to } => s.piece_at(from).map(|id| (id, from, to)),
            _ => None,
        };
        let moving_kind = moving.map(|(id, _, _)| s.pieces[id as usize].kind);
        let wanted = match (&self.variant.after_action_when, moving) {
            (Some(w), Some((id, from, to))) => {
                let p = &s.pieces[id as usize];
                w.iter()
                    .any(|w| w.holds(p.kind, p.owner, from, to, |c| s.counter(c, None)))
            }
            _ => true,
        };
        let info = (wanted && self.rules.has_after_action()).then(|| ActionInfo {
            kind: match a {
                Action::Move { .. } => ActionKind::Move,
                Action::Choose { .. } => ActionKind::Choice,
                Action::Scripted { .. } => ActionKind::Scripted,
                _ => ActionKind::Draw,
            },
            text: (!matches!(a, Action::Move { .. })).then(|| self.action_text(s, a)),
            player: mover,
            from: moving.map(|m| m.1),
            to: moving.map(|m| m.2),
            piece: moving.map(|m| m.0),
            piece_kind: moving_kind,
            captured: 0,
        });
        if self.variant.draw_offers
            && matches!(a, Action::Move { .. })
            && s.counter(DRAW_OFFER, None) - 1 != mover as i64
        {
            // A move instead of an answer declines a standing offer.
            s.counters.remove(DRAW_OFFER, None);
        }
        match *a {
            Action::Scripted { index } => {
                let list = self
                    .rules
                    .actions(s, &self.variant)
                    .map_err(ActionError::Script)?;
                let label = list.get(index as usize).cloned().ok_or_else(|| {
                    ActionError::Illegal(format!("there is no listed action number {index} here"))
                })?;
                self.rules
                    .perform(s, &self.variant, &mut effects, &label)
                    .map_err(ActionError::Script)?;
            }
            Action::OfferDraw => {
                s.set_counter(DRAW_OFFER, None, mover as i64 + 1);
                events.push(Event::Effect(Effect::Note(format!(
                    "{} offers a draw",
                    self.player_name(mover)
                ))));
            }
            Action::AcceptDraw => {
                s.counters.remove(DRAW_OFFER, None);
                s.outcome = Some(Outcome {
                    winners: vec![],
                    reason: "draw by agreement".into(),
                });
            }
            Action::Choose { index } => {
                let choice = s.pending.remove(0);
                let label = choice.options[index as usize].clone();
                events.push(Event::Chose {
                    player: choice.player,
                    label: label.clone(),
                });
                match choice.piece {
                    // A promotion: the piece becomes the chosen kind.
                    Some(id) => {
                        if let Some(k) = self.variant.kind_index(&label) {
                            s.set_kind(id, k as KindId);
                        }
                    }
                    None => self
                        .rules
                        .on_choice(s, &self.variant, &mut effects, &choice, &label)
                        .map_err(ActionError::Script)?,
                }
            }
            Action::Move { from, to } => {
                let side = self.extra_side_captures(s, from, to);
                self.do_move(s, mover, from, to, &side, events, &mut effects)?;
                if let Some(c) = self.promotion(s, from, to) {
                    s.pending.insert(0, c);
                }
            }
        }
        let captured = events
            .iter()
            .map(|e| match e {
                Event::Struck { result, .. } if result == "both" => 2,
                Event::Struck { result, .. } if result != "none" => 1,
                _ => 0,
            })
            .sum::<usize>()
            + effects
                .iter()
                .filter(|e| matches!(e, Effect::Captured { .. }))
                .count();
        if let Some(mut info) = info {
            if s.outcome.is_none() {
                info.captured = captured;
                self.rules
                    .after_action(s, &self.variant, &mut effects, &info)
                    .map_err(ActionError::Script)?;
            }
        }
        if let (Some(np), Some(kind)) = (&self.variant.no_progress, moving_kind) {
            let n = if captured > 0 || np.reset_kinds.contains(&kind) {
                0
            } else {
                s.counter(&np.counter, None) + 1
            };
            s.set_counter(&np.counter, None, n);
            if n >= np.plies as i64 && s.outcome.is_none() {
                s.outcome = Some(Outcome {
                    winners: vec![],
                    reason: format!("draw: {}", np.reason),
                });
            }
        }
        events.extend(effects.into_iter().map(Event::Effect));
        s.ply += 1;
        if s.hold_turn {
            // The rules keep the turn (a turn of several actions).
            s.hold_turn = false;
            if s.outcome.is_none() && s.ply >= self.variant.max_plies {
                s.outcome = Some(Outcome {
                    winners: vec![],
                    reason: format!("draw: the {}-ply limit was reached", self.variant.max_plies),
                });
            }
        } else if *a != Action::OfferDraw {
            listed = self.advance_turn(s, next);
        }
        if let Some(n) = self.variant.repetition_draw {
            if s.outcome.is_none() && s.pending.is_empty() && !a.is_social() {
                let captured = events.iter().any(|e| {
                    matches!(
                        e,
                        Event::Struck { .. } | Event::Effect(Effect::Captured { .. })
                    )
                });
                if captured {
                    s.positions.clear();
                }
                let h = self.position_hash(s);
                let seen = s.positions.iter().filter(|&&x| x == h).count() as u32 + 1;
                s.positions.push(h);
                if seen >= n {
                    s.outcome = Some(Outcome {
                        winners: vec![],
                        reason: format!("draw: the same position occurred {n} times"),
                    });
                }
            }
        }
        if let Some(o) = &s.outcome {
            events.push(Event::Ended(o.clone()));
            listed = false;
        }
        Ok(listed)
    }

    /// Moves a piece (a strike when `to` holds an enemy) and removes what
    /// the move captures as a side effect (`rules.captures`).
    #[allow(clippy::too_many_arguments)]
    fn do_move(
        &self,
        s: &mut GameState,
        mover: PlayerId,
        from: Cell,
        to: Cell,
        extra_side: &[Cell],
        events: &mut Vec<Event>,
        effects: &mut Vec<Effect>,
    ) -> Result<(), ActionError> {
        let id = s.piece_at(from).ok_or_else(|| {
            ActionError::Illegal(format!(
                "there is no piece on {}",
                self.variant.board.cell_name(from)
            ))
        })?;
        let mut side = if self.rules.has_captures() {
            self.rules
                .captures(s, &self.variant, from, to)
                .map_err(ActionError::Script)?
        } else {
            Vec::new()
        };
        side.extend_from_slice(extra_side);
        match s.piece_at(to) {
            None => {
                s.place(id, to);
                s.pieces[id as usize].moved = true;
                events.push(Event::Moved {
                    piece: id,
                    from,
                    to,
                });
                self.reveal_by_distance(s, id, from, to, effects);
                let sh = &mut s.shuttles[mover as usize];
                if sh.piece == Some(id) && sh.to == from && sh.from == to {
                    sh.count += 1;
                } else {
                    *sh = Shuttle {
                        piece: Some(id),
                        from,
                        to,
                        count: 1,
                    };
                }
                sh.from = from;
                sh.to = to;
            }
            Some(def) => {
                s.pieces[id as usize].moved = true;
                self.reveal_by_distance(s, id, from, to, effects);
                if self.variant.strike_reveals {
                    let all = s.all_players();
                    for p in [id, def] {
                        s.reveal(p, all);
                        effects.push(Effect::Revealed { piece: p, to: all });
                    }
                }
                let result = self
                    .rules
                    .strike(s, &self.variant, effects, id, def)
                    .map_err(ActionError::Script)?;
                match result.as_str() {
                    "attacker" => {
                        s.capture(def);
                        if s.piece_at(to).is_none() && s.cell_of(id) == Some(from) {
                            s.place(id, to);
                        }
                    }
                    "defender" => s.capture(id),
                    "both" => {
                        s.capture(id);
                        s.capture(def);
                    }
                    "none" => {}
                    other => {
                        return Err(ActionError::Script(format!(
                            "{}: rules.strike returned \"{other}\"; expected \"attacker\", \"defender\", \"both\" or \"none\"",
                            self.rules.script_name()
                        )))
                    }
                }
                events.push(Event::Struck {
                    attacker: id,
                    defender: def,
                    from,
                    to,
                    result,
                });
                s.shuttles[mover as usize] = Shuttle::default();
            }
        }

        for c in side {
            if let Some(victim) = s.piece_at(c) {
                if victim != id {
                    s.capture(victim);
                    effects.push(Effect::Captured {
                        piece: victim,
                        cell: Some(c),
                    });
                }
            }
        }
        Ok(())
    }

    /// The promotion choice a move triggers: the piece (of a kind with
    /// `promote:`) ended its move in its owner's promotion zone.
    fn promotion(&self, s: &GameState, from: Cell, to: Cell) -> Option<crate::base::state::Choice> {
        let _ = from;
        let id = s.piece_at(to)?;
        let piece = &s.pieces[id as usize];
        let pr = self.variant.kinds[piece.kind as usize].promote.as_ref()?;
        if !pr.zone[piece.owner as usize].contains(&to) || pr.to.is_empty() {
            return None;
        }
        Some(crate::base::state::Choice {
            player: piece.owner,
            reason: "promotion".into(),
            options: pr
                .to
                .iter()
                .map(|&k| self.variant.kinds[k as usize].name.clone())
                .collect(),
            piece: Some(id),
        })
    }

    /// How many choices a legal move leads to when a promotion follows it
    /// (else 1), without applying it.
    fn promotion_options(&self, s: &GameState, a: &Action) -> u64 {
        let Action::Move { from, to } = *a else {
            return 1;
        };
        let Some(id) = s.piece_at(from) else { return 1 };
        let piece = &s.pieces[id as usize];
        match &self.variant.kinds[piece.kind as usize].promote {
            Some(pr) if pr.zone[piece.owner as usize].contains(&to) && !pr.to.is_empty() => {
                pr.to.len() as u64
            }
            _ => 1,
        }
    }

    /// A position's hash for `repetition_draw`: the board (kinds and
    /// owners), the player to move and the variant's `repetition_counters`.
    pub fn position_hash(&self, s: &GameState) -> u64 {
        // A fixed mix (stable across builds, unlike the standard hasher, so
        // saved games keep their meaning): the cells in order (kind and
        // owner), then the player to move and the counters.
        fn mix(mut z: u64) -> u64 {
            z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut h = 0u64;
        for slot in &s.board {
            let v = match *slot {
                Some(id) => {
                    let p = &s.pieces[id as usize];
                    1 + ((p.kind as u64) << 8 | p.owner as u64)
                }
                None => 0,
            };
            h = (h.rotate_left(5) ^ v).wrapping_mul(K);
        }
        h = mix(h ^ s.to_move as u64);
        for name in &self.variant.repetition_counters {
            for (n, p, v) in s.counters.iter() {
                if n == name {
                    h = mix(h ^ (p.map_or(0, |p| p as u64 + 1) << 56) ^ v as u64);
                }
            }
        }
        h
    }

    fn reveal_by_distance(
        &self,
        s: &mut GameState,
        id: PieceId,
        from: Cell,
        to: Cell,
        effects: &mut Vec<Effect>,
    ) {
        let kind = s.pieces[id as usize].kind as usize;
        let Some(n) = self.moves.steps.reveal_beyond(kind) else {
            return;
        };
        let b = &self.variant.board;
        let (f1, r1) = b.coords(from);
        let (f2, r2) = b.coords(to);
        let dist = (f1 - f2).abs().max((r1 - r2).abs());
        if dist > n as i32 {
            let all = s.all_players();
            if s.pieces[id as usize].known_by != all {
                s.reveal(id, all);
                effects.push(Effect::Revealed { piece: id, to: all });
            }
        }
    }

    /// Passes the turn (unless a choice is pending) and applies the
    /// no-legal-action rule and the ply cap.
    /// With `next`, the player to move's legal actions are listed there, or
    /// one of them is drawn (instead of only asking whether there is one);
    /// returns whether they were.
    fn advance_turn(&self, s: &mut GameState, mut next: Next) -> bool {
        if s.outcome.is_some() || !s.pending.is_empty() {
            return false;
        }
        let before = s.to_move;
        s.to_move = s.next_player(s.to_move);
        if let Some(c) = &self.variant.move_number {
            // The turn came back round past the last player.
            if s.to_move < before {
                let n = s.counter(c, None);
                s.set_counter(c, None, n + 1);
            }
        }
        if s.ply >= self.variant.max_plies {
            s.outcome = Some(Outcome {
                winners: vec![],
                reason: format!("draw: the {}-ply limit was reached", self.variant.max_plies),
            });
            return false;
        }
        let mut passes = 0;
        let listing = !matches!(next, Next::Check);
        let mut can_move = |s: &mut GameState| match &mut next {
            Next::Draw(sampler, rng, out) => {
                sampler.sync(self, s);
                **out = sampler.sample(self, s, &mut **rng);
                out.is_some()
            }
            Next::List(list) => {
                self.legal_actions_into(s, list);
                list.iter().any(|a| !a.is_social())
            }
            Next::Check => self.has_legal_action(s),
        };
        while !can_move(s) {
            let stuck = s.to_move;
            let name = self.player_name(stuck).to_string();
            let checkmated = self.royal_attacked(s, stuck);
            let stuck_means = if checkmated {
                NoMoves::Lose
            } else {
                self.variant.no_moves
            };
            let stuck_text = if checkmated {
                format!("{name} is checkmated")
            } else if self.has_royal {
                format!("{name} is stalemated")
            } else {
                format!("{name} cannot move")
            };
            match stuck_means {
                NoMoves::Draw => {
                    s.outcome = Some(Outcome {
                        winners: vec![],
                        reason: format!("draw: {stuck_text}"),
                    });
                    return false;
                }
                NoMoves::LoseUnlessAllStuck if !self.anyone_else_can_move(s, stuck) => {
                    s.outcome = Some(Outcome {
                        winners: vec![],
                        reason: "draw: nobody can move".into(),
                    });
                    return false;
                }
                NoMoves::Lose | NoMoves::LoseUnlessAllStuck => {
                    s.eliminated |= 1 << stuck;
                    let left: Vec<PlayerId> = (0..s.players)
                        .filter(|p| s.eliminated & (1 << p) == 0)
                        .collect();
                    if left.len() <= 1 {
                        s.outcome = Some(Outcome {
                            winners: left,
                            reason: stuck_text,
                        });
                        return false;
                    }
                    s.to_move = s.next_player(stuck);
                }
                NoMoves::Pass => {
                    passes += 1;
                    if passes >= s.players {
                        s.outcome = Some(Outcome {
                            winners: vec![],
                            reason: "draw: nobody can move".into(),
                        });
                        return false;
                    }
                    s.to_move = s.next_player(stuck);
                }
            }
        }
        listing
    }

    /// Ends the game because `player` ran out of time: everyone else still in
    /// the game wins.
    pub fn lose_on_time(&self, s: &mut GameState, player: PlayerId) {
        if s.outcome.is_some() {
            return;
        }
        let winners = (0..s.players)
            .filter(|&q| q != player && s.eliminated & (1 << q) == 0)
            .collect();
        s.outcome = Some(Outcome {
            winners,
            reason: format!("{} ran out of time", self.player_name(player)),
        });
    }

    fn anyone_else_can_move(&self, s: &GameState, stuck: PlayerId) -> bool {
        (0..s.players)
            .filter(|&q| q != stuck && s.eliminated & (1 << q) == 0)
            .any(|q| {
                let mut t = s.clone();
                t.to_move = q;
                self.has_legal_action(&t)
            })
    }

    /// Plays random legal actions from `s` until the game ends or `max` plies;
    /// returns the number of plies played. Every legal action is equally
    /// likely at each ply.
    pub fn random_playout(
        &self,
        s: &mut GameState,
        rng: &mut ChaCha8Rng,
        max: u32,
    ) -> Result<u32, ActionError> {
        self.random_playout_logged(s, rng, max, None)
    }

    /// [`Engine::random_playout`], adding the actions played to `log`.
    pub fn random_playout_logged(
        &self,
        s: &mut GameState,
        rng: &mut ChaCha8Rng,
        max: u32,
        mut log: Option<&mut Vec<Action>>,
    ) -> Result<u32, ActionError> {
        use rand::Rng;
        let mut n = 0;
        let mut events = Vec::new();
        if self.samples_moves() {
            let mut sampler = Sampler::new();
            // The action the turn rule drew for the player to move (it
            // needs to know whether there is one; this one is it).
            let mut drawn = None;
            while s.outcome.is_none() && n < max {
                let a = if let Some(c) = s.pending.first() {
                    if c.options.is_empty() {
                        break;
                    }
                    Action::Choose {
                        index: rng.random_range(0..c.options.len()) as u16,
                    }
                } else if let Some(a) = drawn.take() {
                    a
                } else {
                    sampler.sync(self, s);
                    match sampler.sample(self, s, rng) {
                        Some(a) => a,
                        None => break,
                    }
                };
                self.apply_next(
                    s,
                    &a,
                    Next::Draw(&mut sampler, rng, &mut drawn),
                    &mut events,
                )?;
                if let Some(log) = log.as_deref_mut() {
                    log.push(a);
                }
                n += 1;
            }
            return Ok(n);
        }
        let mut actions = Vec::new();
        let mut listed = false;
        while s.outcome.is_none() && n < max {
            if !listed {
                self.legal_actions_into(s, &mut actions);
            }
            actions.retain(|a| !a.is_social());
            if actions.is_empty() {
                break;
            }
            let a = actions[rng.random_range(0..actions.len())];
            // In place: a playout that fails is abandoned whole.
            listed = self.apply_next(s, &a, Next::List(&mut actions), &mut events)?;
            if let Some(log) = log.as_deref_mut() {
                log.push(a);
            }
            n += 1;
        }
        Ok(n)
    }

    /// Counts the leaf nodes of the legal-action tree to `depth`. A choice
    /// the same player must make right after an action (a promotion) is part
    /// of that turn: it takes no depth, so a move with four promotion choices
    /// counts as four leaves (as chess perft counts promotions).
    pub fn perft(&self, s: &GameState, depth: u32) -> Result<u64, ActionError> {
        if depth == 0 {
            return Ok(1);
        }
        self.perft_listed(s, depth, self.legal_actions(s))
    }

    /// [`Engine::perft`] with the position's legal actions already listed.
    fn perft_listed(
        &self,
        s: &GameState,
        depth: u32,
        actions: Vec<Action>,
    ) -> Result<u64, ActionError> {
        if depth == 0 {
            return Ok(1);
        }
        // Without scripted choices, the follow-up choices are known natively.
        if depth == 1 && !self.rules.has_on_choice() {
            return Ok(actions.iter().map(|a| self.promotion_options(s, a)).sum());
        }
        let actor = self.acting_player(s);
        let mut total = 0;
        let mut listed = Vec::new();
        for a in actions {
            let mut next = s.clone();
            let have = self.apply_listing(&mut next, &a, Some(&mut listed))?.1;
            let same_turn = !next.pending.is_empty() && self.acting_player(&next) == actor;
            let depth = if same_turn { depth } else { depth - 1 };
            let list = if have {
                std::mem::take(&mut listed)
            } else {
                self.legal_actions(&next)
            };
            total += self.perft_listed(&next, depth, list)?;
        }
        Ok(total)
    }
}

fn describe_moves(moves: &[MovePattern]) -> String {
    moves
        .iter()
        .map(|m| {
            let (base, target) = match m {
                MovePattern::Step { target, .. } => ("one step".to_string(), target),
                MovePattern::Slide {
                    strike_at_range,
                    target,
                    jump,
                    ..
                } => (
                    match (jump.is_some(), *strike_at_range) {
                        (true, _) => "slides, jumping enemies that have an empty cell behind them"
                            .to_string(),
                        (false, true) => "slides, may strike at the end".to_string(),
                        (false, false) => "slides through empty cells".to_string(),
                    },
                    target,
                ),
                MovePattern::Path { steps, target, .. } => {
                    (format!("up to {steps} steps through empty cells"), target)
                }
            };
            match (target.empty, target.enemy) {
                (true, false) => format!("{base}, only onto empty cells"),
                (false, true) => format!("{base}, only onto an enemy"),
                _ => base,
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Marks the royal piece's own cell in [`Guard::rays`].
const ROYAL_CELL: u32 = u32::MAX;

/// See [`Engine::guard`].
pub(crate) struct Guard {
    native: bool,
    royals: Vec<Cell>,
    /// Per cell: bit `i` when it lies on line `i` (of the slide lines) from
    /// a royal piece; [`ROYAL_CELL`] on a royal piece. `None`: test every
    /// move in full.
    rays: Option<Vec<u32>>,
    /// A copy of the board to try moves on (native check).
    scratch: Vec<Option<PieceId>>,
    /// With `rays`: the cells where an enemy could capture the (single)
    /// royal piece once it has left its cell; made for its first move.
    reach: Option<Option<Vec<bool>>>,
    /// Scripted check (`rules.check_cells`): the cells that can matter.
    relevant: Option<Vec<bool>>,
    /// Whether an enemy piece stands on one of them (then what a move
    /// captures has to be asked).
    enemy_relevant: bool,
    /// An empty buffer for `reach`'s map.
    spare_map: Vec<bool>,
}

/// A guard's buffers, kept between positions (one set per thread) so that
/// listing moves allocates nothing for the check test.
#[derive(Default)]
struct GuardPool {
    royals: Vec<Cell>,
    rays: Vec<u32>,
    scratch: Vec<Option<PieceId>>,
    map: Vec<bool>,
}

thread_local! {
    static GUARD_POOL: std::cell::Cell<GuardPool> = std::cell::Cell::new(GuardPool::default());
}

impl Drop for Guard {
    fn drop(&mut self) {
        let mut pool = GuardPool {
            royals: std::mem::take(&mut self.royals),
            rays: self.rays.take().unwrap_or_default(),
            scratch: std::mem::take(&mut self.scratch),
            map: match self.reach.take() {
                Some(Some(map)) => map,
                _ => std::mem::take(&mut self.spare_map),
            },
        };
        pool.royals.clear();
        pool.rays.clear();
        pool.scratch.clear();
        pool.map.clear();
        GUARD_POOL.with(|p| p.set(pool));
    }
}
