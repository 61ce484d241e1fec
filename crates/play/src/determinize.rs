//! What one player knows, and complete states consistent with it.
//!
//! [`Determinizer::observe`] is the one place where an agent's input is built from
//! a true state: it keeps what the player's view shows (the board, the
//! containers, the counters, who moved, who knows what, its own pending
//! choice) plus the public record the host keeps (back-and-forth counts),
//! and wipes the rest: the kinds of pieces the player does not know, the
//! chance generator, other players' choice options, and the values of cell
//! marks the player does not know (a face-down tile). The composition of
//! each army (how many pieces of each kind a player still has hidden) is
//! public, as in the rules of the bundled games.
//!
//! [`Determinizer::determinize`] then samples a complete state from an
//! observation: the unknown pieces of each owner get kinds dealt from that
//! owner's hidden pool, so that
//! - a piece that has moved never gets a kind that cannot move;
//! - hidden cell marks of one name get their values dealt among themselves
//!   (the mix of face-down tiles left is public, like an army's);
//! - `rules.consistent(g, piece)`, when the variant defines it, accepts every
//!   dealt piece (samples it rejects are drawn again).
//!
//! Under fog of war (a variant's `sight:`), the places of the pieces the
//! player does not see are hidden too: [`crate::fog`] says how they
//! are taken off and put back.
//!
//! Under the movement constraint alone the sample is exactly uniform over all
//! consistent assignments; the Lua constraint is applied by rejection, which
//! keeps it uniform.

use crate::rules::lua::RuleHook;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::base::geometry::Cell;
use crate::base::state::{GameState, KindId, PieceId, PlayerId};
use crate::engine::Engine;

/// How many samples `rules.consistent` may reject before the last one is kept.
const MAX_REJECTIONS: usize = 500;

/// Everything one player knows about a game, as a state whose hidden facts
/// are blanked. Built only by [`Determinizer::observe`].
#[derive(Clone, Debug)]
pub struct Observation {
    player: PlayerId,
    state: GameState,
    /// Pieces whose kind the player does not know, by owner (ascending ids).
    unknown: Vec<Vec<PieceId>>,
    /// The hidden kinds of each owner (sorted), to deal to `unknown`.
    pools: Vec<Vec<KindId>>,
    /// Cell marks the player does not know (a face-down tile's content), by
    /// mark name: their cells, and their values (sorted) to deal among them.
    hidden_marks: Vec<(String, Vec<Cell>, Vec<String>)>,
    /// Container items whose face the player does not see (a bag's tiles):
    /// by container, their places and their faces, dealt among them.
    hidden_items: Vec<(usize, Vec<usize>, Vec<String>)>,
    /// Under fog: the cells the player sees and the pieces off the board.
    fog: Option<crate::fog::Fog>,
}

impl Observation {
    /// The observing player.
    pub fn player(&self) -> PlayerId {
        self.player
    }

    /// Whether what is hidden from the player is only the kinds of other
    /// players' pieces: no fog, no hidden marks or container items, and the
    /// player knows their own pieces. Determinizations then differ only in
    /// those kinds.
    pub fn hides_only_others_kinds(&self) -> bool {
        self.fog.is_none()
            && self.hidden_marks.is_empty()
            && self.hidden_items.is_empty()
            && self
                .unknown
                .get(self.player as usize)
                .is_none_or(Vec::is_empty)
    }

    /// Whether anything is hidden from the player.
    pub fn has_hidden(&self) -> bool {
        self.unknown.iter().any(|u| !u.is_empty())
            || !self.hidden_marks.is_empty()
            || !self.hidden_items.is_empty()
            || self.fog.as_ref().is_some_and(|f| !f.hidden.is_empty())
    }
}

/// Worlds a player cannot tell from the true one, sampled for search from
/// what that player has seen: `Determinizer::new(&engine).determinize(..)`.
#[derive(Clone, Copy)]
pub struct Determinizer<'e> {
    pub engine: &'e Engine,
}

impl<'e> Determinizer<'e> {
    pub fn new(engine: &'e Engine) -> Self {
        Determinizer { engine }
    }

    /// What `player` knows of `s` (see the module docs). Two states with the
    /// same view for `player` (and the same public record) give equal
    /// observations.
    pub fn observe(&self, s: &GameState, player: PlayerId) -> Observation {
        let mut state = s.clone();
        let fog = self.fog_observe(&mut state, player);
        let players = s.players as usize;
        let mut unknown = vec![Vec::new(); players];
        let mut pools = vec![Vec::new(); players];
        // The pieces as the fog left them (renumbered under fog).
        let pieces = state.pieces.clone();
        for (id, p) in pieces.iter().enumerate() {
            if p.known_by & (1 << player) == 0 {
                let o = p.owner as usize;
                if o < players {
                    unknown[o].push(id as PieceId);
                    pools[o].push(p.kind);
                }
                state.set_kind(id as PieceId, 0);
            }
        }
        state.touch_everything();
        for pool in &mut pools {
            pool.sort_unstable();
        }
        for c in state.pending.iter_mut() {
            if c.player != player {
                c.options.clear();
            }
        }
        // Marks nobody told the player of: their values are dealt again
        // among the cells holding a hidden mark of the same name.
        let mut hidden_marks: Vec<(String, Vec<Cell>, Vec<String>)> = Vec::new();
        for ((cell, name), mark) in state.marks.iter_mut() {
            if mark.known_by & (1 << player) == 0 {
                let value = std::mem::replace(&mut mark.value, "?".into());
                match hidden_marks.iter_mut().find(|h| &h.0 == name) {
                    Some(h) => {
                        h.1.push(*cell);
                        h.2.push(value);
                    }
                    None => hidden_marks.push((name.clone(), vec![*cell], vec![value])),
                }
            }
        }
        for h in &mut hidden_marks {
            h.2.sort();
        }
        let hidden_items = self.hide_items(&mut state, player);
        state.seed = 0;
        state.rng = ChaCha8Rng::seed_from_u64(0);
        Observation {
            fog,
            hidden_items,
            player,
            state,
            unknown,
            pools,
            hidden_marks,
        }
    }

    /// A complete state consistent with the observation, drawn from `rng`.
    /// The observer's view of it equals the view of the true state; its
    /// chance generator is fresh (drawn from `rng`).
    pub fn determinize(&self, obs: &Observation, rng: &mut ChaCha8Rng) -> GameState {
        let mut s = obs.state.clone();
        self.fill_in(obs, rng, &mut s);
        s
    }

    /// [`Determinizer::determinize`] into `s`, whose memory it reuses (a
    /// search draws one state per iteration).
    pub fn determinize_into(&self, obs: &Observation, rng: &mut ChaCha8Rng, s: &mut GameState) {
        s.clone_from(&obs.state);
        self.fill_in(obs, rng, s);
    }

    /// Completes `s`, a copy of the observation's state: a fresh chance
    /// generator, and what the observer does not know drawn from `rng`.
    fn fill_in(&self, obs: &Observation, rng: &mut ChaCha8Rng, s: &mut GameState) {
        s.rng = ChaCha8Rng::seed_from_u64(rng.random());
        if let Some(f) = &obs.fog {
            self.fog_place(s, f, obs.player, rng);
        }
        if !obs.has_hidden() {
            return;
        }
        let check = self.engine.rules.has(RuleHook::Consistent);
        for attempt in 0..MAX_REJECTIONS {
            self.deal(obs, s, rng);
            if !check || attempt + 1 == MAX_REJECTIONS || self.all_consistent(obs, s) {
                break;
            }
        }
    }

    /// [`Determinizer::determinize`] of what `player` knows of `s`.
    pub fn determinize_for(
        &self,
        s: &GameState,
        player: PlayerId,
        rng: &mut ChaCha8Rng,
    ) -> GameState {
        self.determinize(&self.observe(s, player), rng)
    }

    /// Deals each owner's hidden pool to its unknown pieces: pieces that
    /// have moved take mobile kinds (a uniform draw without replacement
    /// from the mobile part of the pool), the others share what is left in
    /// a uniform shuffle. Every consistent assignment is equally likely.
    fn deal(&self, obs: &Observation, s: &mut GameState, rng: &mut ChaCha8Rng) {
        for (k, places, faces) in &obs.hidden_items {
            let mut faces = faces.clone();
            faces.shuffle(rng);
            for (&i, f) in places.iter().zip(faces) {
                s.containers[*k].items[i].value = f;
            }
        }
        for (name, cells, values) in &obs.hidden_marks {
            let mut values = values.clone();
            values.shuffle(rng);
            for (cell, v) in cells.iter().zip(values) {
                if let Some(m) = s.marks.get_mut(&(*cell, name.clone())) {
                    m.value = v;
                }
            }
        }
        let kinds = &self.engine.variant.kinds;
        let mobile_kind = |k: KindId| kinds.get(k as usize).is_some_and(|k| k.is_mobile());
        // Each owner's pool, mobile kinds first, and its unknown pieces,
        // those that moved first (each part in its order): what a moved
        // piece does not take and the pieces left are then one slice each.
        let (mut faces, mut pieces) = (Vec::new(), Vec::new());
        for (owner, ids) in obs.unknown.iter().enumerate() {
            if ids.is_empty() {
                continue;
            }
            let pool = &obs.pools[owner];
            let mobile = first_those(pool, &mut faces, mobile_kind);
            let moved = first_those(ids, &mut pieces, |id| s.pieces[id as usize].moved);
            faces[..mobile].shuffle(rng);
            // More moved pieces than mobile kinds cannot happen in a real
            // game; should it, the extra moved pieces share the rest.
            let take = moved.min(mobile);
            faces[take..].shuffle(rng);
            for (&id, &k) in pieces.iter().zip(&faces) {
                s.set_kind(id, k);
            }
        }
    }

    /// Blanks the faces of container items `player` does not see (as
    /// `Views::view_items` (the record layer) shows them) and lists them, sorted, by
    /// container.
    fn hide_items(
        &self,
        state: &mut GameState,
        player: PlayerId,
    ) -> Vec<(usize, Vec<usize>, Vec<String>)> {
        let mut out = Vec::new();
        for (k, c) in state.containers.iter_mut().enumerate() {
            let Some(d) = self
                .engine
                .variant
                .containers
                .iter()
                .find(|d| d.name == c.name)
            else {
                continue;
            };
            if d.contents.lets(Some(player), c.owner) {
                continue;
            }
            let mut places = Vec::new();
            let mut faces = Vec::new();
            for (i, it) in c.items.iter_mut().enumerate() {
                if it.known_by & (1 << player) == 0 {
                    places.push(i);
                    faces.push(std::mem::replace(&mut it.value, "?".into()));
                }
            }
            if !places.is_empty() {
                faces.sort();
                out.push((k, places, faces));
            }
        }
        out
    }

    fn all_consistent(&self, obs: &Observation, s: &GameState) -> bool {
        obs.unknown.iter().flatten().all(|&id| {
            self.engine
                .rules
                .consistent(s, &self.engine.variant, id)
                .unwrap_or_else(|e| {
                    eprintln!("rule error in rules.consistent: {e}");
                    false
                })
        })
    }
}

/// `items` into `out` (cleared first), those `first` holds for before the
/// others, each part in its order: how many `first` holds for.
fn first_those<T: Copy>(items: &[T], out: &mut Vec<T>, first: impl Fn(T) -> bool) -> usize {
    out.clear();
    out.reserve(items.len());
    out.extend(items.iter().copied().filter(|&x| first(x)));
    let n = out.len();
    out.extend(items.iter().copied().filter(|&x| !first(x)));
    n
}
