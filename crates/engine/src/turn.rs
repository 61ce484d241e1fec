//! Passing the turn: the next player, the no-legal-action rule, the ply
//! cap, losing on time, and the position hash that repetition counts.

use crate::rules::lua::RuleHook;
use rand_chacha::ChaCha8Rng;

use crate::base::state::{mix64, GameState, Outcome, PlayerId};
use crate::rules::variant::NoMoves;
use crate::sampler::Sampler;
use crate::{Action, ActionError, Engine, Event};

/// How the turn rule learns whether the next player can move, and what the
/// caller gets back about that position.
pub(super) enum Next<'a> {
    /// Only whether some legal action exists.
    Check,
    /// The full list of legal actions, filled in.
    List(&'a mut Vec<Action>),
    /// The leaves one ply below as perft counts them, when they can be
    /// counted without the list ([`Engine::count_leaves`]); else (`None`)
    /// the list, filled in.
    Count(&'a mut Option<u64>, &'a mut Vec<Action>),
    /// A uniformly random legal action, drawn by a sampler (synced first)
    /// with the generator, and kept for the caller to play next.
    Draw(&'a mut Sampler, &'a mut ChaCha8Rng, &'a mut Option<Action>),
}

impl Engine {
    /// A position's hash for `repetition_draw`: the board (kinds and
    /// owners), the player to move and the variant's `repetition_counters`.
    pub fn position_hash(&self, s: &GameState) -> u64 {
        // The board's key (kept by the state as pieces move: each occupied
        // cell's kind and owner, mixed), then the player to move and the
        // counters, with a fixed mix (stable across builds, unlike the
        // standard hasher, so saved games keep their meaning).
        let mut h = mix64(s.board_key() ^ s.to_move as u64 ^ self.hands_key(s));
        if s.stacks_pieces() {
            for c in 0..self.variant.board.cell_count() {
                let n = s.count_at(c as crate::base::geometry::Cell);
                if n > 1 {
                    h = mix64(h ^ ((c as u64) << 8 | n as u64));
                }
            }
        }
        for &d in s.dice.values() {
            h = mix64(h ^ (0xd1ce << 16 | d as u64));
        }
        for id in &self.counters.repetition {
            for (p, v) in s.counters.iter_id(id) {
                h = mix64(h ^ (p.map_or(0, |p| p as u64 + 1) << 56) ^ v as u64);
            }
        }
        h
    }

    /// Passes the turn (unless a choice is pending or a reaction window is
    /// open) and applies the no-legal-action rule and the ply cap: the
    /// turn hooks (`rules.on_turn_end`, then `rules.on_phase_start` when a
    /// phase begins, `rules.on_turn_start`) run around the change of
    /// player, their notes going to `events`.
    /// With `next`, the player to move's legal actions are listed there, or
    /// one of them is drawn (instead of only asking whether there is one);
    /// returns whether they were. A query hook that fails while the turn
    /// rule looks for a legal action is the error (the caller throws the
    /// state away).
    pub(super) fn advance_turn(
        &self,
        s: &mut GameState,
        next: Next,
        events: &mut Vec<Event>,
    ) -> Result<bool, ActionError> {
        if self.turn_waits(s) {
            return Ok(false);
        }
        let mut effects = Vec::new();
        if self.rules.has(RuleHook::OnTurnEnd) {
            self.turn_hook(s, RuleHook::OnTurnEnd, None, &mut effects)?;
            if self.turn_waits(s) {
                events.extend(effects.into_iter().map(Event::Effect));
                return Ok(false);
            }
        }
        let before = s.to_move;
        let phase_begins = self.pass_to_next(s);
        if !s.steps.is_fresh() {
            s.steps = Default::default();
        }
        if let Some(c) = &self.counters.move_number {
            // The turn came back round past the last player.
            if s.to_move < before {
                let n = s.counter_id(c, None);
                s.set_counter_id(c, None, n + 1);
            }
        }
        self.begin_turn(s, phase_begins, &mut effects)?;
        events.extend(effects.into_iter().map(Event::Effect));
        if self.turn_waits(s) {
            return Ok(false);
        }
        if s.ply >= self.variant.max_plies {
            s.outcome = Some(Outcome {
                winners: vec![],
                reason: format!("draw: the {}-ply limit was reached", self.variant.max_plies),
            });
            return Ok(false);
        }
        self.judge_stuck(s, next, events)
    }

    /// The turn cannot pass now: the game is over, a choice is pending or
    /// a reaction window is open.
    fn turn_waits(&self, s: &GameState) -> bool {
        s.outcome.is_some() || !s.pending.is_empty() || !s.windows.is_empty()
    }

    /// Gives the turn to the next player in the phase's order, or starts
    /// the next phase when this one is over (its rounds played, or a rule
    /// ended it); returns whether a phase began.
    fn pass_to_next(&self, s: &mut GameState) -> bool {
        let phases = &self.variant.phases;
        let Some(ph) = phases.get(s.phase as usize) else {
            s.to_move = s.next_player(s.to_move);
            return false;
        };
        s.phase_turns = s.phase_turns.saturating_add(1);
        let active = (0..s.players)
            .filter(|p| s.eliminated & (1 << p) == 0)
            .count() as u16;
        let rounds_over = ph
            .rounds
            .is_some_and(|r| s.phase_turns >= r.saturating_mul(active.max(1)));
        if (rounds_over || s.steps.end_phase) && (s.phase as usize) + 1 < phases.len() {
            s.phase += 1;
            s.phase_turns = 0;
            s.to_move = self.phase_first(s);
            return true;
        }
        s.to_move = if ph.reverse {
            s.previous_player(s.to_move)
        } else {
            s.next_player(s.to_move)
        };
        false
    }

    /// Who plays first in the current phase: the game's first player, or
    /// (for a phase in reverse order) the player before them.
    pub(super) fn phase_first(&self, s: &GameState) -> PlayerId {
        let reverse = self
            .variant
            .phases
            .get(s.phase as usize)
            .is_some_and(|p| p.reverse);
        let first = if s.eliminated & (1 << s.first_player) == 0 {
            s.first_player
        } else {
            s.next_player(s.first_player)
        };
        if reverse {
            s.previous_player(first)
        } else {
            first
        }
    }

    /// The turn passes from `stuck`, who cannot act, to the next player,
    /// with the turn hooks a turn passed by an action runs
    /// (`rules.on_turn_end`, then `rules.on_turn_start`), their notes going
    /// to `events`. Returns whether the next player may act now (a hook may
    /// end the game or ask a choice).
    fn stuck_passes(
        &self,
        s: &mut GameState,
        stuck: PlayerId,
        events: &mut Vec<Event>,
    ) -> Result<bool, ActionError> {
        let mut effects = Vec::new();
        if self.rules.has(RuleHook::OnTurnEnd) {
            self.turn_hook(s, RuleHook::OnTurnEnd, None, &mut effects)?;
        }
        let waits = self.turn_waits(s);
        if !waits {
            s.to_move = s.next_player(stuck);
            self.begin_turn(s, false, &mut effects)?;
        }
        events.extend(effects.into_iter().map(Event::Effect));
        Ok(!self.turn_waits(s))
    }

    /// The hooks of a turn's start: `rules.on_phase_start(g, phase)` when
    /// a phase begins, then `rules.on_turn_start(g)`.
    pub(super) fn begin_turn(
        &self,
        s: &mut GameState,
        phase_begins: bool,
        effects: &mut Vec<crate::base::effect::Effect>,
    ) -> Result<(), ActionError> {
        if s.outcome.is_none() {
            self.roll_dice(s, effects);
        }
        self.turn_start_hooks(s, phase_begins, effects)
    }

    /// The hooks a turn begins with, after the dice: `rules.on_phase_start`
    /// when a phase begins, then `rules.on_turn_start`.
    pub(super) fn turn_start_hooks(
        &self,
        s: &mut GameState,
        phase_begins: bool,
        effects: &mut Vec<crate::base::effect::Effect>,
    ) -> Result<(), ActionError> {
        if phase_begins && self.rules.has(RuleHook::OnPhaseStart) {
            let name = self.variant.phases[s.phase as usize].name.clone();
            self.turn_hook(s, RuleHook::OnPhaseStart, Some(&name), effects)?;
        }
        if self.rules.has(RuleHook::OnTurnStart) && s.outcome.is_none() {
            self.turn_hook(s, RuleHook::OnTurnStart, None, effects)?;
        }
        Ok(())
    }

    fn turn_hook(
        &self,
        s: &mut GameState,
        hook: RuleHook,
        arg: Option<&str>,
        effects: &mut Vec<crate::base::effect::Effect>,
    ) -> Result<(), ActionError> {
        self.rules
            .call_with_data(s, &self.variant, effects, hook.key(), &[], arg)
            .map_err(ActionError::Script)?;
        self.declared_win(s);
        Ok(())
    }

    /// The variant's declared win (`rules.ends.win_when`), checked after every
    /// rules call of an action: the game ends at once when it holds.
    pub(super) fn declared_win(&self, s: &mut GameState) {
        let (Some(w), None) = (&self.variant.win_when, &s.outcome) else {
            return;
        };
        let holds = |id: crate::base::state::PieceId| {
            w.holds_attr
                .as_deref()
                .is_some_and(|a| s.attrs(id).iter().any(|(n, v)| n == a && *v != 0))
        };
        let pieces = s.board().iter().flatten().map(|&id| {
            let p = &s.pieces[id as usize];
            (p.owner, holds(id))
        });
        if let Some(winner) = w.winner(pieces) {
            s.outcome = Some(Outcome {
                winners: vec![winner],
                reason: w.reason_for(self.player_name(winner)),
            });
        }
    }

    /// A position read from a file or a FEN line: when its player to move
    /// has no legal action, the no-moves rule judges it at once (as it
    /// would have after the action that led there).
    /// A query hook that fails here leaves the position unjudged: the
    /// error shows where the actions are listed (which fails closed).
    pub fn judge_loaded(&self, s: &mut GameState) -> Result<(), String> {
        if self.turn_waits(s) {
            return Ok(());
        }
        let mut judged = s.clone();
        if self
            .judge_stuck(&mut judged, Next::Check, &mut Vec::new())
            .is_ok()
        {
            *s = judged;
        }
        Ok(())
    }

    /// While the player to move has no legal action, applies the variant's
    /// no-moves rule (lose, draw, pass); see [`Engine::advance_turn`].
    fn judge_stuck(
        &self,
        s: &mut GameState,
        mut next: Next,
        events: &mut Vec<Event>,
    ) -> Result<bool, ActionError> {
        if let Some(end) = self.lang.nobody_moves {
            return self.judge_nobody_moves(s, next, end);
        }
        let mut passes = 0;
        let listing = !matches!(next, Next::Check);
        let mut can_move = |s: &mut GameState| match &mut next {
            Next::Draw(sampler, rng, out) => {
                sampler.sync(self, s);
                **out = sampler.sample(self, s, &mut **rng);
                match sampler.take_error() {
                    Some(e) => Err(e),
                    None => Ok(out.is_some()),
                }
            }
            Next::List(list) => {
                self.try_legal_actions_into(s, list)?;
                Ok(list.iter().any(|a| !a.is_social()))
            }
            Next::Count(leaves, list) => {
                **leaves = self.count_leaves(s)?;
                if let Some(n) = **leaves {
                    return Ok(n > 0);
                }
                self.try_legal_actions_into(s, list)?;
                Ok(list.iter().any(|a| !a.is_social()))
            }
            Next::Check => self.has_legal_action(s),
        };
        while !can_move(s)? {
            let stuck = s.to_move;
            let name = self.player_name(stuck).to_string();
            let checkmated = self.try_royal_attacked(s, stuck)?;
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
                    return Ok(false);
                }
                NoMoves::LoseUnlessAllStuck if !self.anyone_else_can_move(s, stuck)? => {
                    s.outcome = Some(Outcome {
                        winners: vec![],
                        reason: "draw: nobody can move".into(),
                    });
                    return Ok(false);
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
                        return Ok(false);
                    }
                    if !self.stuck_passes(s, stuck, events)? {
                        return Ok(false);
                    }
                }
                NoMoves::Pass => {
                    passes += 1;
                    if passes >= s.players {
                        s.outcome = Some(Outcome {
                            winners: vec![],
                            reason: "draw: nobody can move".into(),
                        });
                        return Ok(false);
                    }
                    if !self.stuck_passes(s, stuck, events)? {
                        return Ok(false);
                    }
                }
            }
        }
        Ok(listing)
    }

    fn anyone_else_can_move(&self, s: &GameState, stuck: PlayerId) -> Result<bool, ActionError> {
        for q in (0..s.players).filter(|&q| q != stuck && s.eliminated & (1 << q) == 0) {
            let mut t = s.clone();
            t.to_move = q;
            if self.has_legal_action(&t)? {
                return Ok(true);
            }
        }
        Ok(false)
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
}
