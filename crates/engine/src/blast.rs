//! Blasts (`blast`): what a capture removes besides its victim, and
//! royal safety where captures blast. A move may not blast one of its
//! player's royal pieces; one that removes an enemy royal piece needs no
//! other test (the game ends on it); and a royal piece is threatened only
//! by a capture that would blast none of the captor's own royal pieces
//! (so a royal piece next to an enemy royal piece is safe there).

use crate::base::effect::Effect;
use crate::base::geometry::Cell;
use crate::base::state::{GameState, PieceId, PlayerId};
use crate::movegen::attacked_except;
use crate::rules::variant::Variant;
use crate::Engine;

/// Per cell, the other cells within the blast's radius (king steps), in
/// cell order; empty when the variant declares no blast.
pub(super) fn blast_zones(v: &Variant) -> Vec<Vec<Cell>> {
    let Some(b) = &v.blast else {
        return Vec::new();
    };
    let r = b.radius as i8;
    let board = &v.board;
    (0..board.cell_count() as Cell)
        .map(|c| {
            let mut zone: Vec<Cell> = (-r..=r)
                .flat_map(|dx| (-r..=r).map(move |dy| (dx, dy)))
                .filter(|&d| d != (0, 0))
                .filter_map(|d| board.offset(c, d))
                .filter(|&n| board.is_point(n))
                .collect();
            zone.sort_unstable();
            zone
        })
        .collect()
}

impl Engine {
    /// The blast of a capture that landed on `to` (the strike and the side
    /// captures done): the capturer `id` and every piece around `to` of a
    /// kind the blast does not spare are captured, each an effect.
    pub(super) fn blast(
        &self,
        s: &mut GameState,
        mover: PlayerId,
        id: PieceId,
        to: Cell,
        effects: &mut Vec<Effect>,
    ) {
        let Some(b) = &self.variant.blast else {
            return;
        };
        if let Some(cell) = s.cell_of(id) {
            self.take(s, id, mover);
            effects.push(Effect::Captured {
                piece: id,
                cell: Some(cell),
            });
        }
        for &c in &self.blast_zones[to as usize] {
            let Some(victim) = s.piece_at(c) else {
                continue;
            };
            if !b.spared.contains(&s.pieces[victim as usize].kind) {
                self.take(s, victim, mover);
                effects.push(Effect::Captured {
                    piece: victim,
                    cell: Some(c),
                });
            }
        }
    }

    /// Whether the piece on `c` of `board` is a royal piece.
    fn royal_on(&self, s: &GameState, board: &[Option<PieceId>], c: Cell) -> Option<PlayerId> {
        let p = &s.pieces[board[c as usize]? as usize];
        self.variant.kinds[p.kind as usize].royal.then_some(p.owner)
    }

    /// Royal safety of `player`'s move `from`→`to` (capturing the `side`
    /// cells too) where captures blast: played on a copy of the board with
    /// its blast, the move may blast none of `player`'s royal pieces, and
    /// unless it removes an enemy's, leaves none threatened.
    pub(super) fn blast_allows(
        &self,
        s: &GameState,
        player: PlayerId,
        from: Cell,
        to: Cell,
        side: &[Cell],
    ) -> bool {
        let Some(b) = &self.variant.blast else {
            return true;
        };
        let mut board = s.board().to_vec();
        let capture =
            board[to as usize].is_some() || side.iter().any(|&c| board[c as usize].is_some());
        // What the move removes: (one of the player's royal pieces, an enemy's).
        let (mut own, mut enemy) = (false, false);
        let mut remove = |board: &mut [Option<PieceId>], c: Cell| {
            match self.royal_on(s, board, c) {
                Some(q) if q == player => own = true,
                Some(_) => enemy = true,
                None => {}
            }
            board[c as usize] = None;
        };
        for &c in side {
            remove(&mut board, c);
        }
        if capture {
            remove(&mut board, to);
            remove(&mut board, from);
            for &c in &self.blast_zones[to as usize] {
                if board[c as usize]
                    .is_some_and(|id| !b.spared.contains(&s.pieces[id as usize].kind))
                {
                    remove(&mut board, c);
                }
            }
        } else {
            board[to as usize] = board[from as usize].take();
        }
        if own {
            return false;
        }
        if enemy {
            return true;
        }
        !(0..board.len() as Cell).any(|r| {
            self.royal_on(s, &board, r) == Some(player)
                && self.blast_threatened(s, &board, r, player)
        })
    }

    /// Whether `player`'s royal piece on `r` of `board` is threatened where
    /// captures blast: another player could capture it with a piece that is
    /// not royal, and no royal piece of theirs stands within the blast
    /// (unless spared).
    pub(super) fn blast_threatened(
        &self,
        s: &GameState,
        board: &[Option<PieceId>],
        r: Cell,
        player: PlayerId,
    ) -> bool {
        let spared = self
            .variant
            .blast
            .as_ref()
            .map_or(&[][..], |b| &b.spared[..]);
        let zone = &self.blast_zones[r as usize];
        (0..s.players).any(|q| {
            if q == player || s.eliminated & (1 << q) != 0 {
                return false;
            }
            let royals: Vec<Cell> = (0..board.len() as Cell)
                .filter(|&c| self.royal_on(s, board, c) == Some(q))
                .collect();
            let blasts_own = royals.iter().any(|c| {
                zone.contains(c)
                    && board[*c as usize]
                        .is_some_and(|id| !spared.contains(&s.pieces[id as usize].kind))
            });
            !blasts_own && attacked_except(&self.moves, s, board, r, q, &royals)
        })
    }
}
