//! A uniformly random placement (or pass) without listing them, for random
//! playouts of variants whose every move is a placement: the candidates
//! (each placeable kind on each cell, and `pass` where it is always
//! allowed) are tried in a random order, a few draws with replacement
//! first and then a shuffle of the rest, and the first legal one is the
//! answer. Every legal candidate is equally likely to be the first legal
//! one met, so the draw is uniform over the legal moves, as a pick from
//! the full list is; a candidate is judged by itself (a placement with
//! groups walks only the groups next to its cell), not the whole board.
//!
//! Changes with the rules a placement is judged by, or the draw's order.

use rand::Rng;

use crate::base::geometry::Cell;
use crate::base::state::{GameState, KindId, PlayerId};
use crate::lang::groups::GroupWalk;
use crate::rules::variant::forms::{Form, PassWhen};
use crate::{Action, Engine};

/// Draws with replacement before the shuffle.
const TRIES: u32 = 8;

/// The draw's buffers, kept from ply to ply.
#[derive(Clone, Debug, Default)]
pub struct PlaceDraw {
    walk: GroupWalk,
    order: Vec<u32>,
}

impl Engine {
    /// Whether every move of the variant is a placement (or a pass), so a
    /// random one may be drawn by [`Engine::draw_placement`].
    pub(crate) fn draws_placements(&self) -> bool {
        self.lang.draws && !self.has_royal() && !self.has_extra_moves()
    }

    /// A uniformly random legal action of the player to move, for a
    /// variant that [draws placements](Engine::draws_placements): `None`
    /// when there is none.
    pub(crate) fn draw_placement(
        &self,
        s: &GameState,
        rng: &mut impl Rng,
        d: &mut PlaceDraw,
    ) -> Option<Action> {
        let p = s.to_move;
        let cells = self.variant.board.cell_count();
        let placing = self.lang.placers.len() * cells;
        let always = self.variant.pass == Some(PassWhen::Always);
        let total = placing + always as usize;
        let judge = |d: &mut PlaceDraw, x: usize| -> Option<Action> {
            if x == placing {
                return Some(Action::Pass);
            }
            let (kind, form) = self.lang.placers[x / cells];
            let at = (x % cells) as Cell;
            self.placement_ok(s, p, kind, form, at, &mut d.walk)
                .then_some(Action::Place { kind, at })
        };
        for _ in 0..TRIES.min(total as u32) {
            if let Some(a) = judge(d, rng.random_range(0..total)) {
                return Some(a);
            }
        }
        d.order.clear();
        d.order.extend(0..total as u32);
        for i in 0..total {
            let j = rng.random_range(i..total);
            d.order.swap(i, j);
            if let Some(a) = judge(d, d.order[i] as usize) {
                return Some(a);
            }
        }
        (self.variant.pass == Some(PassWhen::Stuck)).then_some(Action::Pass)
    }

    /// Whether player `p` may place a `kind` (by its `form`-th form) on
    /// `at`: the same rules as [`Engine::placements`], for one cell.
    fn placement_ok(
        &self,
        s: &GameState,
        p: PlayerId,
        kind: KindId,
        form: usize,
        at: Cell,
        walk: &mut GroupWalk,
    ) -> bool {
        let Form::Place(f) = &self.variant.kinds[kind as usize].forms[form] else {
            return false;
        };
        if self.supply_spent(s, p, kind, f) || !self.admits_cell(s, p, f, at) {
            return false;
        }
        let Some(g) = &f.groups else { return true };
        let b = &self.variant.board;
        let adj = self.lang.adj(b, &g.lines);
        let sorted = !self.lang.boards_in_order;
        walk.placement_key(s, b, &adj, sorted, at, kind, p, g)
            .is_some()
    }
}
