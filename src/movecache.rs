//! Move counts kept from ply to ply, for variants whose moves are all
//! declared (no script lists, filters or adds moves, nothing is frozen or
//! royal, no turning paths).
//!
//! A random playout only needs how many legal moves the player has and the
//! k-th of them in list order; listing every move each ply costs most of a
//! playout. The cache keeps, per cell, how many moves the piece there has,
//! and after each ply recounts only the pieces whose moves can have
//! changed: the pieces on cells whose occupant, kind or owner changed, and
//! the pieces that see such a cell along one of their directions (walking
//! back from the cell with the movement tables, up to the first piece, or
//! further for jumping slides). Terrain changes rebuild everything.
//!
//! The k-th move is the k-th action of [`Engine::legal_actions`] (cells in
//! order, each piece's targets sorted, the back-and-forth ban removed), so a
//! playout through the cache plays exactly the game a playout through the
//! full list plays with the same generator.

use crate::engine::{piece_move_count, piece_targets, Action, Engine};
use crate::geometry::Cell;
use crate::state::{GameState, PlayerId};

const NOBODY: u8 = u8::MAX;
const BLOCK: usize = 16;

/// Legal-move counts per cell, brought up to date with [`MoveCache::sync`].
#[derive(Clone, Debug, Default)]
pub struct MoveCache {
    ready: bool,
    /// Moves of the piece on each cell, and its owner (`NOBODY` if empty).
    count: Vec<u16>,
    owner: Vec<u8>,
    /// Moves per player, and per player and block of `BLOCK` cells (to find
    /// the k-th move without walking every cell).
    total: Vec<u32>,
    blocks: Vec<u32>,
    block_count: usize,
    /// Cells to recount this sync (`mark` holds the sync number that last
    /// queued each cell).
    queue: Vec<Cell>,
    mark: Vec<u32>,
    round: u32,
    buf: Vec<Cell>,
    /// Per direction: the farthest any kind's move in it ends.
    far: Vec<u8>,
}

impl MoveCache {
    pub fn new() -> MoveCache {
        MoveCache::default()
    }

    /// Forgets the position (the next sync counts every piece). A cache
    /// follows one state through its plies; call this before syncing it
    /// with another state (whose change log says nothing about this one).
    pub fn clear(&mut self) {
        self.ready = false;
    }

    /// Brings the counts up to date with `s`, from the cells its change log
    /// lists (which it empties).
    pub fn sync(&mut self, e: &Engine, s: &mut GameState) {
        let touched = s.touched.take();
        let Some((cells, n)) =
            touched.filter(|_| self.ready && self.total.len() == s.players as usize)
        else {
            self.rebuild(e, s);
            return;
        };
        if n == 0 {
            return;
        }
        self.round = self.round.wrapping_add(1);
        if self.round == 0 {
            self.mark.fill(0);
            self.round = 1;
        }
        self.queue.clear();
        let tables = &e.variant.steps;
        let blocking = e.variant.board.blocking;
        let terrain = &s.terrain[..];
        for &c in &cells[..n] {
            self.push(c);
            for d in 0..self.far.len() as u16 {
                let far = self.far[d as usize];
                let back = tables.back_line(d);
                let jumps = tables.jumps(d);
                let mut at = c as usize;
                let mut dist = 0u8;
                while dist < far {
                    let b = back[at];
                    if b == Cell::MAX || terrain[b as usize] & blocking != 0 {
                        break;
                    }
                    dist += 1;
                    if let Some(id) = s.board[b as usize] {
                        let p = &s.pieces[id as usize];
                        if tables.reach(p.kind as usize, p.owner, d) >= dist {
                            self.push(b);
                        }
                        if !jumps {
                            break;
                        }
                    }
                    at = b as usize;
                }
            }
        }
        for i in 0..self.queue.len() {
            let c = self.queue[i];
            self.recount(e, s, c);
        }
    }

    fn push(&mut self, c: Cell) {
        if self.mark[c as usize] != self.round {
            self.mark[c as usize] = self.round;
            self.queue.push(c);
        }
    }

    fn rebuild(&mut self, e: &Engine, s: &GameState) {
        let n = s.board.len();
        self.count = vec![0; n];
        self.owner = vec![NOBODY; n];
        self.total = vec![0; s.players as usize];
        self.block_count = n.div_ceil(BLOCK);
        self.blocks = vec![0; s.players as usize * self.block_count];
        self.mark = vec![0; n];
        self.round = 0;
        let tables = &e.variant.steps;
        self.far = (0..tables.dir_count() as u16)
            .map(|d| {
                (0..e.variant.kinds.len())
                    .flat_map(|k| [0, 1].map(|o| tables.reach(k, o, d)))
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        for c in 0..n {
            self.recount(e, s, c as Cell);
        }
        self.ready = true;
    }

    /// Counts the moves of the piece on `c` again.
    fn recount(&mut self, e: &Engine, s: &GameState, c: Cell) {
        let i = c as usize;
        let block = i / BLOCK;
        if self.owner[i] != NOBODY {
            let o = self.owner[i] as usize;
            self.total[o] -= self.count[i] as u32;
            self.blocks[o * self.block_count + block] -= self.count[i] as u32;
        }
        match s.board[i] {
            Some(id) => {
                let owner = s.pieces[id as usize].owner;
                let n = piece_move_count(&e.variant, s, id, c, &mut self.buf);
                self.count[i] = n as u16;
                self.owner[i] = owner;
                self.total[owner as usize] += n as u32;
                self.blocks[owner as usize * self.block_count + block] += n as u32;
            }
            None => {
                self.count[i] = 0;
                self.owner[i] = NOBODY;
            }
        }
    }

    /// The move the back-and-forth limit bans now, if the piece has it.
    fn banned(&mut self, e: &Engine, s: &GameState) -> Option<(Cell, Cell)> {
        let Some(Action::Move { from, to }) = e.banned_by_repetition(s) else {
            return None;
        };
        let id = s.piece_at(from)?;
        piece_targets(&e.variant, s, id, from, &mut self.buf);
        self.buf.contains(&to).then_some((from, to))
    }

    /// How many legal moves the player to move has (after a sync).
    pub fn legal_count(&mut self, e: &Engine, s: &GameState) -> usize {
        if s.outcome.is_some() {
            return 0;
        }
        let p = s.to_move as usize;
        let n = self.total.get(p).copied().unwrap_or(0) as usize;
        if n == 0 {
            return 0;
        }
        n - self.banned(e, s).is_some() as usize
    }

    /// The `k`-th legal move of the player to move, in list order (after a
    /// sync; `k` below [`MoveCache::legal_count`]).
    pub fn nth(&mut self, e: &Engine, s: &GameState, mut k: usize) -> Option<Action> {
        let p: PlayerId = s.to_move;
        let banned = self.banned(e, s);
        let ban_block = banned.map(|b| b.0 as usize / BLOCK);
        let blocks = &self.blocks[p as usize * self.block_count..][..self.block_count];
        for (b, &n) in blocks.iter().enumerate() {
            let n = n as usize - (ban_block == Some(b)) as usize;
            if k >= n {
                k -= n;
                continue;
            }
            let end = ((b + 1) * BLOCK).min(self.count.len());
            for c in b * BLOCK..end {
                if self.owner[c] != p {
                    continue;
                }
                let from = c as Cell;
                let ban = banned.filter(|b| b.0 == from);
                let n = self.count[c] as usize - ban.is_some() as usize;
                if k >= n {
                    k -= n;
                    continue;
                }
                let id = s.board[c]?;
                piece_targets(&e.variant, s, id, from, &mut self.buf);
                if let Some((_, to)) = ban {
                    self.buf.retain(|&t| t != to);
                }
                return self.buf.get(k).map(|&to| Action::Move { from, to });
            }
            return None;
        }
        None
    }
}
