//! Determinizing under fog of war: what a player knows when they do not
//! see every cell, and complete worlds consistent with it.
//!
//! [`Determinizer::fog_observe`] turns a true state into what the player saw of
//! it: every other player's piece on a cell the player does not see is
//! taken off the board (it is *hidden*: its owner and kind are known, as
//! the army's make-up is public, but not its place); other players' pieces
//! lose their moved flags (views do not show them); the pieces are
//! renumbered in an order views determine (the player's own keep their
//! ids; the others', among the ids they hold, go by owner, then those in
//! sight by cell, the hidden ones by kind, the rest by where they lie), so
//! that no id tells one piece from another of its kind; and the record of past positions (repetition) is dropped,
//! since it holds positions the player never saw.
//!
//! [`Determinizer::fog_place`] then puts the hidden pieces back, by a simple
//! consistent sampler with rejection. First the unseen cells that must
//! stay empty are found (a piece there would be seen: a pawn's capture
//! square). Then, while the player would see a cell of the sample they do
//! not see in truth (a pawn's square ahead, which must therefore be
//! occupied), a hidden piece drawn at random goes there; the other hidden
//! pieces go to uniformly drawn free unseen cells (never in their own
//! promotion zone). A sample whose sight still differs is drawn again, up
//! to [`MAX_TRIES`] times (then the last one is kept: it never falls back
//! on the truth). The sample is not
//! exactly uniform over the consistent worlds, and it uses only the
//! current view, not the history of what was seen before (a piece seen
//! leaving one square may be placed anywhere unseen).
//!
//! Internal counters (bookkeeping no view shows) are kept as they are.

use rand::seq::{IndexedRandom, SliceRandom};
use rand_chacha::ChaCha8Rng;

use crate::base::geometry::Cell;
use crate::base::state::{GameState, Loc, PieceId, PlayerId};
use crate::determinize::Determinizer;
use crate::engine::Seen;

/// How many samples may be drawn before the last one is kept.
pub const MAX_TRIES: usize = 200;

/// What fog hides from one player: the cells they see and the pieces taken
/// off the board.
#[derive(Clone, Debug, PartialEq)]
pub struct Fog {
    pub seen: Seen,
    pub hidden: Vec<PieceId>,
}

impl Determinizer<'_> {
    /// Blanks in `state` (a copy of the true state) what fog hides from
    /// `player` (see the module docs); `None` without fog.
    pub fn fog_observe(&self, state: &mut GameState, player: PlayerId) -> Option<Fog> {
        let seen = self.engine.sight(state, player)?;
        // The others' pieces in an order views determine, given the ids
        // the others' pieces hold (the player's own keep theirs).
        let mut others: Vec<(u8, u8, usize, usize, PieceId)> = state
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.owner != player)
            .map(|(id, p)| {
                let (group, a, b) = match p.loc {
                    Loc::Cell(c) if state.board()[c as usize] == Some(id as PieceId) => {
                        if seen[c as usize] {
                            (0, 0, c as usize)
                        } else {
                            (1, p.kind as usize, 0)
                        }
                    }
                    Loc::Container(k) => {
                        let at = state.containers[k as usize]
                            .pieces
                            .iter()
                            .position(|&x| x == id as PieceId);
                        (2, k as usize, at.unwrap_or(0))
                    }
                    _ => (3, 0, id),
                };
                (p.owner, group, a, b, id as PieceId)
            })
            .collect();
        let slots: Vec<PieceId> = others.iter().map(|o| o.4).collect();
        others.sort_unstable();
        let mut order: Vec<PieceId> = (0..state.pieces.len() as PieceId).collect();
        for (slot, o) in slots.iter().zip(&others) {
            order[*slot as usize] = o.4;
        }
        let mut new_id = vec![0 as PieceId; state.pieces.len()];
        for (i, &old) in order.iter().enumerate() {
            new_id[old as usize] = i as PieceId;
        }
        renumber(state, &order, &new_id);
        let mut hidden = Vec::new();
        let mut pieces = state.pieces.clone();
        for (id, p) in pieces.iter_mut().enumerate() {
            if p.owner == player {
                continue;
            }
            p.moved = false;
            if let Loc::Cell(c) = p.loc {
                if !seen[c as usize] {
                    p.loc = OFF_BOARD;
                    hidden.push(id as PieceId);
                }
            }
        }
        state
            .set_pieces(pieces)
            .expect("the same pieces, fewer on the board");
        state.positions.clear();
        state.boards.clear();
        Some(Fog { seen, hidden })
    }

    /// Puts the hidden pieces of `fog` on cells of `s` (the observation's
    /// state) so that `player` sees what they saw (see the module docs).
    pub fn fog_place(&self, s: &mut GameState, fog: &Fog, player: PlayerId, rng: &mut ChaCha8Rng) {
        let Some(&probe) = fog.hidden.first() else {
            return;
        };
        // Cells that must stay empty: a piece there would be seen.
        let mut empty = vec![false; s.board().len()];
        for c in 0..s.board().len() {
            if !fog.seen[c] && s.board()[c].is_none() {
                let mut t = s.clone();
                t.place(probe, c as Cell);
                empty[c] = self.engine.sight(&t, player).is_some_and(|now| now[c]);
            }
        }
        let base = s.clone();
        for _ in 0..MAX_TRIES {
            *s = base.clone();
            if self.fog_try(s, fog, &empty, player, rng) {
                return;
            }
        }
    }

    /// One sample: the cells that must be occupied first (those the player
    /// would see empty), then the rest on free unseen cells; whether the
    /// player's sight matches.
    fn fog_try(
        &self,
        s: &mut GameState,
        fog: &Fog,
        empty: &[bool],
        player: PlayerId,
        rng: &mut ChaCha8Rng,
    ) -> bool {
        let mut left = fog.hidden.clone();
        left.shuffle(rng);
        for _ in 0..=fog.hidden.len() {
            let Some(now) = self.engine.sight(s, player) else {
                return true;
            };
            let need: Vec<Cell> = (0..now.len())
                .filter(|&c| now[c] && !fog.seen[c])
                .map(|c| c as Cell)
                .collect();
            let Some(&target) = need.choose(rng) else {
                break;
            };
            if s.board()[target as usize].is_some() || empty[target as usize] {
                return false;
            }
            let Some(i) = left.iter().position(|&id| self.may_stand(s, id, target)) else {
                return false;
            };
            s.place(left.swap_remove(i), target);
        }
        let mut free: Vec<Cell> = (0..s.board().len() as Cell)
            .filter(|&c| {
                !fog.seen[c as usize] && !empty[c as usize] && s.board()[c as usize].is_none()
            })
            .collect();
        free.shuffle(rng);
        for id in left {
            let Some(i) = free.iter().position(|&c| self.may_stand(s, id, c)) else {
                return false;
            };
            s.place(id, free.swap_remove(i));
        }
        self.engine
            .sight(s, player)
            .is_some_and(|now| now == fog.seen)
    }

    /// Whether piece `id` may be placed on `cell`: not in its own
    /// promotion zone (it would have been promoted there).
    fn may_stand(&self, s: &GameState, id: PieceId, cell: Cell) -> bool {
        let p = &s.pieces[id as usize];
        self.engine.variant.kinds[p.kind as usize]
            .promote
            .as_ref()
            .and_then(|pr| pr.zone_set.get(p.owner as usize))
            .is_none_or(|z| !z.contains(cell))
    }
}

/// Where a hidden piece is while it is off the board: carried by no piece.
const OFF_BOARD: Loc = Loc::Carried(PieceId::MAX);

/// Renumbers the pieces: `order[i]` is the old id of the new piece `i`,
/// `new_id[old]` its new id; every place that names a piece follows.
fn renumber(s: &mut GameState, order: &[PieceId], new_id: &[PieceId]) {
    let map = |id: PieceId| new_id.get(id as usize).copied().unwrap_or(id);
    let mut pieces: Vec<_> = order.iter().map(|&o| s.pieces[o as usize]).collect();
    for p in &mut pieces {
        if let Loc::Carried(c) = p.loc {
            p.loc = Loc::Carried(map(c));
        }
    }
    for c in &mut s.containers {
        for id in &mut c.pieces {
            *id = map(*id);
        }
    }
    for c in &mut s.pending {
        c.piece = c.piece.map(map);
    }
    for sh in &mut s.shuttles {
        sh.piece = sh.piece.map(map);
    }
    let attrs: Vec<_> = order.iter().map(|&o| s.attrs(o).clone()).collect();
    s.set_pieces(pieces)
        .expect("the same pieces on the same cells");
    s.set_attrs(attrs);
}
