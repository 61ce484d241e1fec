//! Legal by construction: what the single royal piece of the player to
//! move asks of a position's moves, found once per position (the pieces
//! that attack it, the pieces pinned to it with the line each must stay
//! on, and, in single check, the cells that capture or block the checker),
//! so that a move of another piece is decided by looking its two cells up,
//! with no board tried.
//!
//! Sound only where attacks are plain: every kind steps (not lamely) or
//! slides (without jumps or screens) along lines that are not multiples of
//! one another, on a board that is not a graph, captures blast nothing and
//! check is native ([`Engine::constrains`], and the guard's conditions in
//! `check.rs`). Then a move `from`→`to` of another piece changes the
//! royal piece's attackers in three ways only: the piece on `to` is gone,
//! the lines through `to` are blocked, the line through `from` opens. Such
//! a move is legal iff `from` is not pinned or `to` stays on its line, and
//! the royal piece is not in check, or in single check with `to` among
//! the evasion cells. Everything else (moves of the royal piece, moves that
//! capture besides their target) is left to the self-check test.
//!
//! Also here: the table of the lines from each cell ([`royal_lines`]) that
//! the self-check test's line shortcut reads where constraints are not
//! found (several royal pieces, a board of points, lines that run the way
//! of others).

use crate::base::geometry::Cell;
use crate::base::state::{GameState, KindId, PieceId, PlayerId};
use crate::bits::CellMask;
use crate::movegen::{each_attacker, reaches};
use crate::rules::variant::{Kind, MovePattern};
use crate::Engine;

/// Per slide line (`slide_lines`) and owner parity: the kinds (a bit each,
/// the 128th standing for all beyond) with a slide that strikes and runs
/// against the line, so could attack its first cell from further along it.
pub(super) fn line_sliders(kinds: &[Kind], lines: &[(i8, i8)]) -> Vec<[u128; 2]> {
    let mut out = vec![[0u128; 2]; lines.len()];
    for (k, kind) in kinds.iter().enumerate() {
        let bit = 1u128 << k.min(127);
        for pat in &kind.moves {
            let MovePattern::Slide { deltas, target, .. } = pat else {
                continue;
            };
            if !target.enemy {
                continue;
            }
            for &(x, y) in deltas {
                // As the first player sees it, and as the second.
                let flipped = if target.relative { (x, -y) } else { (x, y) };
                for (line, sets) in lines.iter().zip(out.iter_mut()) {
                    let towards = (-line.0, -line.1);
                    if towards == (x, y) {
                        sets[0] |= bit;
                    }
                    if towards == flipped {
                        sets[1] |= bit;
                    }
                }
            }
        }
    }
    out
}

/// Whether cell `c` is in the set `bits` (64 cells a word).
#[inline]
fn has(bits: &[u64], c: Cell) -> bool {
    (bits[c as usize / 64] >> (c % 64)) & 1 == 1
}

/// Puts cell `c` in the set `bits`.
#[inline]
fn put(bits: &mut [u64], c: Cell) {
    bits[c as usize / 64] |= 1 << (c % 64);
}

/// What the royal piece asks of the other pieces' moves in one position
/// (see the module's text). Its buffers are kept between positions.
#[derive(Clone, Debug, Default)]
pub(crate) struct Constraints {
    /// The royal piece's cell.
    pub(crate) royal: Cell,
    /// How many enemy pieces attack it now (2 standing for two or more).
    checks: u8,
    /// The first of them found.
    checker: Cell,
    /// How many words a set of cells takes.
    words: usize,
    /// With one check: the cells another piece may land on (the
    /// checker's, and the empty ones whose filling stops its attack).
    evasion: Vec<u64>,
    /// The cells of the pinned pieces.
    pinned: Vec<u64>,
    /// Per pin: the pinned piece's cell; its line (the cells from the
    /// royal piece to the pinning one, that included) is the pin's
    /// `words` in `lines`.
    pins: Vec<Cell>,
    lines: Vec<u64>,
}

/// What the moves of one piece need ([`Constraints::need`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Need {
    /// Every move is legal.
    Free,
    /// No move is legal.
    Barred,
    /// Each move is asked about ([`Constraints::allows`], or the
    /// self-check test for the royal piece's).
    Each,
}

impl Constraints {
    /// What the moves of the piece on `from` need.
    #[inline]
    pub(crate) fn need(&self, from: Cell) -> Need {
        if from == self.royal {
            Need::Each
        } else if self.checks >= 2 {
            Need::Barred
        } else if self.checks == 0 && !has(&self.pinned, from) {
            Need::Free
        } else {
            Need::Each
        }
    }

    /// Whether the move `from`→`to` of a piece that is not the royal one,
    /// capturing nothing besides `to`, leaves the royal piece safe.
    #[inline]
    pub(crate) fn allows(&self, from: Cell, to: Cell) -> bool {
        if self.checks >= 2 || (self.checks == 1 && !has(&self.evasion, to)) {
            return false;
        }
        if has(&self.pinned, from) {
            let w = self.words;
            for (i, &c) in self.pins.iter().enumerate() {
                if c == from && !has(&self.lines[i * w..][..w], to) {
                    return false;
                }
            }
        }
        true
    }
}

/// The first cell along `next` from `at` (not included) that holds a
/// piece on `board`, unless blocking terrain or the edge comes first.
#[inline]
fn first_piece(
    next: &[Cell],
    at: Cell,
    board: &[Option<PieceId>],
    s: &GameState,
    blocking: u32,
) -> Option<Cell> {
    let mut c = next[at as usize];
    while c != Cell::MAX {
        if s.terrain()[c as usize] & blocking != 0 {
            return None;
        }
        if board[c as usize].is_some() {
            return Some(c);
        }
        c = next[c as usize];
    }
    None
}

impl Engine {
    /// Appends the cells of `player`'s royal pieces to `out`, in cell
    /// order: on boards of at most 128 cells from the player's occupancy
    /// mask, else from every cell.
    #[inline]
    pub(super) fn royals_into(&self, s: &GameState, player: PlayerId, out: &mut Vec<Cell>) {
        let board = s.board();
        let royal = |c: usize| {
            board[c].is_some_and(|id| {
                let p = &s.pieces[id as usize];
                p.owner == player && self.is_royal(p.kind)
            })
        };
        // The cells of the royal kinds among the player's.
        let (mut kinds, mut cells) = (self.royal_kinds, Some(0));
        while let (true, Some(m)) = (kinds != 0, cells) {
            cells = s
                .kind_cells_wide(kinds.trailing_zeros() as KindId)
                .map(|k| m | k);
            kinds &= kinds - 1;
        }
        let Some(cells) = cells.filter(|_| board.len() <= 128 && self.royal_kinds >> 127 == 0)
        else {
            out.extend((0..board.len()).filter(|&c| royal(c)).map(|c| c as Cell));
            return;
        };
        let mut own = s.owned_by_wide(player) & cells;
        while own != 0 {
            let c = own.trailing_zeros() as usize;
            own &= own - 1;
            if royal(c) {
                out.push(c as Cell);
            }
        }
    }

    /// Whether the variant's movement lets [`Constraints`] decide moves:
    /// plain steps and slides along lines none of which is a multiple of
    /// another (`slide_lines`), on a board of lines, without blasts.
    pub(crate) fn constrains(&self) -> bool {
        self.plain_lines && self.variant.board.graph.is_none() && self.variant.blast.is_none()
    }

    /// Finds `c` for `player`'s single royal piece on `royal` in `s`:
    /// `stops` are the board's stopping cells as a mask when the attack
    /// table has masks, and `scratch` a copy of the board to try a cell
    /// emptied or filled on (made here when empty, left as found).
    pub(crate) fn constrain(
        &self,
        c: &mut Constraints,
        s: &GameState,
        player: PlayerId,
        royal: Cell,
        stops: Option<CellMask>,
        scratch: &mut Vec<Option<PieceId>>,
    ) {
        let board = s.board();
        c.royal = royal;
        c.checks = 0;
        c.words = board.len().div_ceil(64);
        c.pinned.clear();
        c.pinned.resize(c.words, 0);
        c.pins.clear();
        c.lines.clear();
        for q in 0..s.players {
            if q == player || s.eliminated & (1 << q) != 0 {
                continue;
            }
            each_attacker(&self.moves, s, board, stops, royal, q, &mut |from| {
                if c.checks == 0 {
                    (c.checks, c.checker) = (1, from);
                } else if from != c.checker {
                    c.checks = 2;
                }
            });
        }
        if c.checks >= 2 {
            // Only the royal piece may move.
            return;
        }
        let blocking = self.variant.board.blocking;
        let enemy = |id: PieceId| {
            let o = s.pieces[id as usize].owner;
            o != player && s.eliminated & (1 << o) == 0
        };
        // A line with no other player's piece on it pins nothing.
        let others = s.occupied_wide() & !s.owned_by_wide(player);
        let cells = board.len();
        for (i, (next, sliders)) in self.line_next.iter().zip(&self.line_sliders).enumerate() {
            if let Some(ray) = self.line_rays.get(i * cells + royal as usize) {
                if ray & others == 0 {
                    continue;
                }
            }
            let Some(c1) = first_piece(next, royal, board, s, blocking) else {
                continue;
            };
            let id1 = board[c1 as usize].unwrap_or_default();
            if s.pieces[id1 as usize].owner != player {
                continue;
            }
            let Some(c2) = first_piece(next, c1, board, s, blocking) else {
                continue;
            };
            let id2 = board[c2 as usize].unwrap_or_default();
            let p2 = &s.pieces[id2 as usize];
            let slides = sliders[(p2.owner % 2) as usize] >> p2.kind.min(127);
            if !enemy(id2) || slides & 1 == 0 {
                // Only a slide along the line can be opened by moving c1.
                continue;
            }
            if scratch.is_empty() {
                scratch.extend_from_slice(board);
            }
            scratch[c1 as usize] = None;
            let pins = reaches(&self.moves, s, scratch, id2, c2, royal);
            scratch[c1 as usize] = Some(id1);
            if pins {
                put(&mut c.pinned, c1);
                c.pins.push(c1);
                let start = c.lines.len();
                c.lines.resize(start + c.words, 0);
                let mut at = royal;
                while at != c2 {
                    at = next[at as usize];
                    put(&mut c.lines[start..], at);
                }
            }
        }
        if c.checks == 1 {
            self.evasions(c, s, royal, scratch);
        }
    }

    /// With one check: the cells of [`Constraints::evasion`], the
    /// checker's and, along the line from the royal piece to it, the
    /// empty cells whose filling stops its attack.
    fn evasions(
        &self,
        c: &mut Constraints,
        s: &GameState,
        royal: Cell,
        scratch: &mut Vec<Option<PieceId>>,
    ) {
        let board = s.board();
        c.evasion.clear();
        c.evasion.resize(c.words, 0);
        put(&mut c.evasion, c.checker);
        let blocking = self.variant.board.blocking;
        let Some(checker) = board[c.checker as usize] else {
            return;
        };
        for next in &self.line_next {
            if first_piece(next, royal, board, s, blocking) != Some(c.checker) {
                continue;
            }
            if scratch.is_empty() {
                scratch.extend_from_slice(board);
            }
            let mut at = next[royal as usize];
            while at != c.checker {
                scratch[at as usize] = board[royal as usize];
                if !reaches(&self.moves, s, scratch, checker, c.checker, royal) {
                    put(&mut c.evasion, at);
                }
                scratch[at as usize] = None;
                at = next[at as usize];
            }
        }
    }
}

/// Per slide line `i` (`line_next`) and cell `c`, at `i * cells + c`: the
/// cells further along the line from `c`, as a mask; empty for boards of
/// more than 128 cells.
pub(super) fn line_rays(line_next: &[Vec<Cell>], cells: usize) -> Vec<u128> {
    if cells > 128 {
        return Vec::new();
    }
    let mut rays = vec![0u128; line_next.len() * cells];
    for (i, next) in line_next.iter().enumerate() {
        for c in 0..cells {
            let mut at = next[c];
            while at != Cell::MAX {
                rays[i * cells + c] |= 1 << at;
                at = next[at as usize];
            }
        }
    }
    rays
}

/// Marks the royal piece's own cell in [`royal_lines`] (and in the
/// self-check guard's lines).
pub(super) const ROYAL_CELL: u32 = u32::MAX;

/// The most cells a board may have for [`royal_lines`]' table.
const LINE_TABLE_CELLS: usize = 256;

/// Per pair of cells (a royal piece's `r`, then `c`), at `r * cells + c`:
/// bit `i` when `c` lies on slide line `i` (`line_next`) from `r`, and
/// [`ROYAL_CELL`] when `c` is `r`, so that a guard for a single royal piece
/// looks its lines up instead of walking them. Empty for larger boards or
/// 32 lines or more.
pub(super) fn royal_lines(line_next: &[Vec<Cell>], cells: usize) -> Vec<u32> {
    if cells > LINE_TABLE_CELLS || line_next.len() >= 32 {
        return Vec::new();
    }
    let mut table = vec![0; cells * cells];
    for r in 0..cells {
        let row = &mut table[r * cells..][..cells];
        row[r] = ROYAL_CELL;
        for (i, next) in line_next.iter().enumerate() {
            let mut c = next[r];
            while c != Cell::MAX {
                row[c as usize] |= 1 << i;
                c = next[c as usize];
            }
        }
    }
    table
}
