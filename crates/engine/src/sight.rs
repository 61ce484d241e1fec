//! Fog of war: the cells a player sees, from the variant's declared
//! `sight:` (`crates/rules/src/variant/sight.rs`).
//!
//! Sight belongs to the views (`crates/record/src/view.rs` asks for it), never to
//! the move listing: playouts and perft do not compute it. A piece sees its
//! own cell, its moves' targets (declared moves, joint and passing moves,
//! as generated whether or not they would be legal, and the cells a
//! passing capture takes on), the cells within its radius and along its
//! lines of sight up to the first piece or blocking terrain; a player sees
//! what any of their pieces sees, their zones, and the cells the script's
//! `rules.sight(g, player, cells)` adds.

use crate::base::geometry::Cell;
use crate::base::state::{GameState, PieceId, PlayerId};
use crate::movegen::{piece_moves_on, reaches};
use crate::Engine;

/// A set of cells, by cell index.
pub type Seen = Vec<bool>;

impl Engine {
    /// Whether the variant has fog of war (a declared `sight:`).
    pub fn has_sight(&self) -> bool {
        self.variant.sight.is_some()
    }

    /// The cells everyone sees whatever happens: those in every player's
    /// declared zones (`None` when the variant declares no sight). This is
    /// what a spectator sees under fog: which cells a player's pieces see
    /// depends on where they stand, so any more would tell one player,
    /// watching as a spectator, what the other sees.
    pub fn public_sight(&self) -> Option<Seen> {
        let decl = self.variant.sight.as_ref()?;
        let n = self.variant.board.cell_count();
        let mut seen = vec![true; n];
        for p in 0..self.variant.players.len() {
            let mut mine = vec![false; n];
            for &c in decl.zones.get(p).into_iter().flatten() {
                mine[c as usize] = true;
            }
            for (a, b) in seen.iter_mut().zip(mine) {
                *a &= b;
            }
        }
        Some(seen)
    }

    /// The cells `player` sees in `s`, or `None` when the variant declares
    /// no sight (every cell is seen).
    pub fn sight(&self, s: &GameState, player: PlayerId) -> Option<Seen> {
        let decl = self.variant.sight.as_ref()?;
        let b = &self.variant.board;
        let mut seen = vec![false; b.cell_count()];
        for &c in decl.zones.get(player as usize).into_iter().flatten() {
            seen[c as usize] = true;
        }
        for (from, slot) in s.board().iter().enumerate() {
            let Some(id) = *slot else { continue };
            let p = &s.pieces[id as usize];
            if p.owner != player {
                continue;
            }
            let from = from as Cell;
            let Some(k) = decl.kinds.get(p.kind as usize) else {
                continue;
            };
            if k.occupied {
                seen[from as usize] = true;
            }
            if k.moves {
                piece_moves_on(&self.moves, s, s.board(), id, from, &mut |t| {
                    seen[t as usize] = true
                });
            }
            if k.radius > 0 {
                let r = k.radius as i32;
                let (f, rk) = b.coords(from);
                for df in -r..=r {
                    for dr in -r..=r {
                        if let Some(c) = b.cell(f + df, rk + dr) {
                            seen[c as usize] = true;
                        }
                    }
                }
            }
            self.sight_lines(s, from, &k.lines, k.range, &mut seen);
        }
        if decl.uses_moves() {
            // Joint and passing moves (and the script's extra moves) of the
            // kinds that see along their moves; a failing hook adds nothing.
            for (from, to, side) in self.extra_moves(s, player).unwrap_or_default() {
                let sees = s
                    .piece_at(from)
                    .and_then(|id| decl.kinds.get(s.pieces[id as usize].kind as usize))
                    .is_some_and(|k| k.moves);
                if sees {
                    seen[to as usize] = true;
                    for c in side {
                        seen[c as usize] = true;
                    }
                }
            }
        }
        if decl.passed {
            self.passed_sight(s, player, &mut seen);
        }
        if self.rules.has(crate::rules::lua::RuleHook::Sight) {
            // What the variant adds; a failing hook adds nothing (fails
            // closed: it shows no more).
            match self.rules.sight(s, &self.variant, player) {
                Ok(cells) => {
                    for c in cells {
                        if let Some(x) = seen.get_mut(c as usize) {
                            *x = true;
                        }
                    }
                }
                Err(e) => eprintln!("rule error in rules.sight: {e}"),
            }
        }
        Some(seen)
    }

    /// `sight.passed`: the cell a piece just passed, and the cell behind it
    /// (for the taker), seen by each of `player`'s pieces of the passing
    /// kinds that could take on it, whoever passed it.
    fn passed_sight(&self, s: &GameState, player: PlayerId, seen: &mut [bool]) {
        let (Some(p), Some(id)) = (&self.variant.passing, &self.counters.passing) else {
            return;
        };
        let v = s.counter_id(id, None);
        if v <= 0 || (v - 1) as usize >= s.board().len() || s.board()[(v - 1) as usize].is_some() {
            return;
        }
        let cell = (v - 1) as Cell;
        // Any other player's piece stands in for a victim on the cell.
        let Some(other) = s.pieces.iter().position(|q| q.owner != player) else {
            return;
        };
        let mut board = s.board().to_vec();
        board[cell as usize] = Some(other as PieceId);
        let step = p.step.get(player as usize).copied().unwrap_or((0, 0));
        let behind = self.variant.board.offset(cell, (-step.0, -step.1));
        for (from, slot) in s.board().iter().enumerate() {
            let Some(pid) = *slot else { continue };
            let q = &s.pieces[pid as usize];
            if q.owner == player
                && p.kinds.contains(&q.kind)
                && reaches(&self.moves, s, &board, pid, from as Cell, cell)
            {
                seen[cell as usize] = true;
                if let Some(b) = behind {
                    seen[b as usize] = true;
                }
            }
        }
    }

    /// Marks the cells along `lines` from `from`, each line up to and
    /// including the first piece or blocking terrain, at most `range` cells
    /// (0: to the edge).
    fn sight_lines(
        &self,
        s: &GameState,
        from: Cell,
        lines: &[(i8, i8)],
        range: u8,
        seen: &mut [bool],
    ) {
        let b = &self.variant.board;
        for &d in lines {
            let mut at = from;
            let mut n = 0;
            while let Some(next) = b.offset(at, d) {
                seen[next as usize] = true;
                n += 1;
                if s.board()[next as usize].is_some()
                    || s.terrain()[next as usize] & b.blocking != 0
                    || (range > 0 && n >= range)
                {
                    break;
                }
                at = next;
            }
        }
    }
}
