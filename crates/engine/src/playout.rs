//! Walking the game tree: random playouts (sampled or listed) and perft.

use crate::rules::lua::RuleHook;
use rand_chacha::ChaCha8Rng;

use crate::apply::{PROMOTES_ENTERING, PROMOTES_LEAVING};
use crate::base::geometry::Cell;
use crate::base::state::GameState;
use crate::sampler::Sampler;
use crate::turn::Next;
use crate::{Action, ActionError, Engine, Event};

impl Engine {
    /// Whether random playouts may draw moves with a [`Sampler`] instead of
    /// listing them: the legal moves are the declared moves and the
    /// script's `extra_moves`, less the back-and-forth ban and moves that
    /// leave a royal piece capturable (no script lists or filters moves,
    /// nothing is frozen, the move language adds no jump or pass, or every
    /// move is a placement or a pass: `Engine::draws_placements`).
    pub fn samples_moves(&self) -> bool {
        !self.rules.has(RuleHook::Filter)
            && !self.rules.has(RuleHook::Actions)
            && self.variant.actions.is_empty()
            && !self.has_freeze()
            && (!self.lang.lists || self.draws_placements() || self.lang.drops_only)
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
        self.random_playout_in(s, rng, max, &mut PlayoutBuffers::default(), None)
    }

    /// [`Engine::random_playout`], adding the actions played to `log`.
    pub fn random_playout_logged(
        &self,
        s: &mut GameState,
        rng: &mut ChaCha8Rng,
        max: u32,
        log: Option<&mut Vec<Action>>,
    ) -> Result<u32, ActionError> {
        self.random_playout_in(s, rng, max, &mut PlayoutBuffers::default(), log)
    }

    /// [`Engine::random_playout_logged`] with buffers kept from playout to
    /// playout (a search or a benchmark plays many): no playout allocates
    /// its sampler's tables or its lists anew.
    pub fn random_playout_in(
        &self,
        s: &mut GameState,
        rng: &mut ChaCha8Rng,
        max: u32,
        bufs: &mut PlayoutBuffers,
        mut log: Option<&mut Vec<Action>>,
    ) -> Result<u32, ActionError> {
        use rand::Rng;
        let mut n = 0;
        let PlayoutBuffers {
            sampler,
            events,
            actions,
        } = bufs;
        if self.samples_moves() {
            // Another state: the sampler's groups are built anew from it.
            sampler.restart();
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
                        None => match sampler.take_error() {
                            Some(e) => return Err(e),
                            None => break,
                        },
                    }
                };
                self.apply_next(s, &a, Next::Draw(sampler, rng, &mut drawn), events)?;
                if let Some(log) = log.as_deref_mut() {
                    log.push(a);
                }
                n += 1;
            }
            return Ok(n);
        }
        let mut listed = false;
        while s.outcome.is_none() && n < max {
            if !listed {
                self.try_legal_actions_into(s, actions)?;
            }
            actions.retain(|a| !a.is_social());
            if actions.is_empty() {
                break;
            }
            let a = actions[rng.random_range(0..actions.len())];
            // In place: a playout that fails is abandoned whole.
            listed = self.apply_next(s, &a, Next::List(actions), events)?;
            if let Some(log) = log.as_deref_mut() {
                log.push(a);
            }
            n += 1;
        }
        Ok(n)
    }

    /// Counts the leaf nodes of the legal-action tree to `depth`. A choice
    /// the same player must make right after an action (a promotion, or a
    /// choice a rule asks the mover) is part of that action: it takes no
    /// depth, at every depth alike, so a move with four promotion choices
    /// counts as four leaves (as published perft counts count promotions). A choice
    /// another player must make is their action, and takes a ply.
    pub fn perft(&self, s: &GameState, depth: u32) -> Result<u64, ActionError> {
        if depth == 0 {
            return Ok(1);
        }
        self.perft_listed(
            s,
            depth,
            &self.try_legal_actions(s)?,
            &mut Spares::default(),
        )
    }

    /// The leaf counts of [`Engine::perft`] at every depth from 1 to
    /// `depth`, in one walk of the tree to `depth`: the nodes of each level
    /// are counted on the way down, so the shallower depths cost nothing
    /// beyond the deepest.
    pub fn perft_levels(&self, s: &GameState, depth: u32) -> Result<Vec<u64>, ActionError> {
        let mut counts = vec![0; depth as usize];
        if depth > 0 {
            let actions = self.try_legal_actions(s)?;
            self.levels_listed(s, &actions, &mut counts, &mut Spares::default())?;
        }
        Ok(counts)
    }

    /// [`Engine::perft_levels`] below a position whose actions are listed:
    /// `counts[i]` gathers the nodes `i + 1` plies below it.
    fn levels_listed(
        &self,
        s: &GameState,
        actions: &[Action],
        counts: &mut [u64],
        spares: &mut Spares,
    ) -> Result<(), ActionError> {
        if counts.len() == 1 {
            counts[0] += self.perft_listed(s, 1, actions, spares)?;
            return Ok(());
        }
        let actor = self.acting_player(s);
        let (mut next, mut listed) = spares.take(s);
        // One ply above the last: the children's leaves counted, not listed.
        let count = counts.len() == 2 && self.counts_leaves();
        for a in actions {
            next.clone_from(s);
            let have = if count {
                let mut leaves = None;
                let next_of = Next::Count(&mut leaves, &mut listed);
                let have = self.apply_next(&mut next, a, next_of, &mut spares.events)?;
                if let (true, Some(n)) = (have, leaves) {
                    counts[0] += 1;
                    counts[1] += n;
                    continue;
                }
                have && leaves.is_none()
            } else {
                self.apply_next(&mut next, a, Next::List(&mut listed), &mut spares.events)?
            };
            if !have {
                self.try_legal_actions_into(&next, &mut listed)?;
            }
            // A choice the mover makes at once is part of the action: it
            // is no node of its own.
            if !next.pending.is_empty() && self.acting_player(&next) == actor {
                self.levels_listed(&next, &listed, counts, spares)?;
            } else {
                counts[0] += 1;
                self.levels_listed(&next, &listed, &mut counts[1..], spares)?;
            }
        }
        spares.give_back(next, listed);
        Ok(())
    }

    /// Whether the only choices a move, placement or jump sequence can leave
    /// its own player are the native promotions ([`Engine::promotion_options`]
    /// counts them): no script runs after every action (`rules.after_action`,
    /// `rules.on_choice`) that could ask one. A declared or scripted action
    /// runs a function of its own, so it is applied at the last ply whatever
    /// this says ([`Engine::asks_after`]).
    fn follow_ups_are_native(&self) -> bool {
        !self.rules.has(RuleHook::OnChoice) && !self.rules.has(RuleHook::AfterAction)
    }

    /// Whether `a` runs a rules function of its own, which may ask its
    /// player a choice.
    fn asks_after(a: &Action) -> bool {
        matches!(a, Action::Declared { .. } | Action::Scripted { .. })
    }

    /// The leaves below `actions` at the last ply, when only native
    /// promotions can follow them (`None` when one runs a rules function of
    /// its own): one each, and a promotion's choices for each move that
    /// ends (or starts) on a promotion cell ([`Engine::may_promote`] rules
    /// out the others from two bytes of a table).
    fn last_ply(&self, s: &GameState, actions: &[Action]) -> Option<u64> {
        let cells = self.promotion_cells();
        let mut total = actions.len() as u64;
        for a in actions {
            match *a {
                Action::Move { from, to } if !cells.is_empty() => {
                    let flags = |c: Cell| cells.get(c as usize).copied().unwrap_or(0);
                    if flags(to) & PROMOTES_ENTERING != 0 || flags(from) & PROMOTES_LEAVING != 0 {
                        total += self.promotion_options(s, a) - 1;
                    }
                }
                Action::Declared { .. } | Action::Scripted { .. } => return None,
                _ => {}
            }
        }
        Some(total)
    }

    /// [`Engine::perft`] with the position's legal actions already listed.
    fn perft_listed(
        &self,
        s: &GameState,
        depth: u32,
        actions: &[Action],
        spares: &mut Spares,
    ) -> Result<u64, ActionError> {
        if depth == 0 {
            return Ok(1);
        }
        // When only promotions can follow an action for its own player, the
        // last ply counts them without applying anything.
        let native = depth == 1 && self.follow_ups_are_native();
        if let Some(leaves) = native.then(|| self.last_ply(s, actions)).flatten() {
            return Ok(leaves);
        }
        let actor = self.acting_player(s);
        let mut total = 0;
        let (mut next, mut listed) = spares.take(s);
        for a in actions {
            if native && !Self::asks_after(a) {
                total += self.promotion_options(s, a);
                continue;
            }
            next.clone_from(s);
            let have =
                self.apply_next(&mut next, a, Next::List(&mut listed), &mut spares.events)?;
            let same_turn = !next.pending.is_empty() && self.acting_player(&next) == actor;
            let depth = if same_turn { depth } else { depth - 1 };
            if !have {
                self.try_legal_actions_into(&next, &mut listed)?;
            }
            total += self.perft_listed(&next, depth, &listed, spares)?;
        }
        spares.give_back(next, listed);
        Ok(total)
    }
}

/// The buffers a run of random playouts reuses
/// ([`Engine::random_playout_in`]).
#[derive(Default)]
pub struct PlayoutBuffers {
    sampler: Sampler,
    events: Vec<Event>,
    actions: Vec<Action>,
}

/// The buffers a perft walk reuses: one spare state and action list per
/// level (copied into with `clone_from`, so no child allocates) and one
/// events buffer.
#[derive(Default)]
struct Spares {
    levels: Vec<(GameState, Vec<Action>)>,
    events: Vec<Event>,
}

impl Spares {
    /// A state and a list for the children of `s`.
    fn take(&mut self, s: &GameState) -> (GameState, Vec<Action>) {
        self.levels.pop().unwrap_or_else(|| (s.clone(), Vec::new()))
    }

    fn give_back(&mut self, state: GameState, list: Vec<Action>) {
        self.levels.push((state, list));
    }
}
