//! Capture by custody: after a piece lands, the enemy runs it closes
//! against one of its owner's pieces or a hostile cell are taken, and the
//! enemies that must be enclosed are taken when every side is closed.

use crate::base::effect::Effect;
use crate::base::geometry::Cell;
use crate::base::state::{GameState, PlayerId};
use crate::rules::variant::forms::Custody;
use crate::Engine;

/// The longest run of enemies one custody looks along.
const RUN_MAX: usize = 32;

impl Engine {
    /// The custody captures of the piece that landed on `landed` (when its
    /// kind declares `custody:`), each a capture of its own.
    pub(crate) fn custody(
        &self,
        s: &mut GameState,
        mover: PlayerId,
        landed: Cell,
        effects: &mut Vec<Effect>,
    ) {
        let Some(id) = s
            .piece_at(landed)
            .filter(|&i| s.pieces[i as usize].owner == mover)
        else {
            return;
        };
        let kind = s.pieces[id as usize].kind;
        let Some(cu) = &self.variant.kinds[kind as usize].custody else {
            return;
        };
        let b = &self.variant.board;
        let enemy = |s: &GameState, c: Cell| {
            s.board()[c as usize].filter(|&v| s.pieces[v as usize].owner != mover)
        };
        let mut taken: Vec<Cell> = Vec::new();
        for &d in &cu.lines {
            let mut run: Vec<Cell> = Vec::new();
            let mut at = landed;
            let beyond = loop {
                let Some(next) = self.lang.hops.hop(b, at, d) else {
                    break None;
                };
                if enemy(s, next).is_none() || run.len() == RUN_MAX {
                    break Some(next);
                }
                run.push(next);
                at = next;
            };
            let Some(&first) = run.first() else {
                continue;
            };
            let kind_of =
                |c: Cell| s.pieces[s.board()[c as usize].unwrap_or_default() as usize].kind;
            if cu
                .kinds
                .as_ref()
                .is_some_and(|k| !run.iter().all(|&c| k.contains(&kind_of(c))))
            {
                continue;
            }
            if self.must_enclose(s, cu, first) {
                if self.enclosed(s, cu, mover, landed, first) {
                    taken.push(first);
                }
                continue;
            }
            if cu.run.is_some_and(|n| n as usize != run.len()) {
                continue;
            }
            if beyond.is_some_and(|c| closes(s, cu, mover, c)) {
                taken.extend(run);
            }
        }
        for c in taken {
            if let Some(victim) = s.board()[c as usize] {
                self.take(s, victim, mover);
                effects.push(Effect::Captured {
                    piece: victim,
                    cell: Some(c),
                });
            }
        }
    }

    /// Whether the enemy on `c` is one the custody takes only enclosed.
    fn must_enclose(&self, s: &GameState, cu: &Custody, c: Cell) -> bool {
        let (Some(enc), Some(v)) = (&cu.enclose, s.board()[c as usize]) else {
            return false;
        };
        let p = &s.pieces[v as usize];
        enc.kinds.contains(&p.kind)
            && enc
                .within
                .as_ref()
                .is_none_or(|z| z[p.owner as usize].contains(&c))
    }

    /// Whether every neighbour of `c` along the custody's lines closes it
    /// (the piece that landed on `landed` does; the board's edge does not).
    fn enclosed(
        &self,
        s: &GameState,
        cu: &Custody,
        mover: PlayerId,
        landed: Cell,
        c: Cell,
    ) -> bool {
        let b = &self.variant.board;
        cu.lines.iter().all(|&d| match self.lang.hops.hop(b, c, d) {
            Some(n) => n == landed || closes(s, cu, mover, n),
            None => false,
        })
    }
}

/// Whether cell `c` closes a custody of `mover`: one of the mover's
/// pieces (a partner, when the custody names them), or an empty hostile
/// cell.
fn closes(s: &GameState, cu: &Custody, mover: PlayerId, c: Cell) -> bool {
    match s.board()[c as usize] {
        Some(id) => {
            let p = &s.pieces[id as usize];
            p.owner == mover && cu.partners.as_ref().is_none_or(|k| k.contains(&p.kind))
        }
        None => cu.hostile[mover as usize].contains(&c),
    }
}
