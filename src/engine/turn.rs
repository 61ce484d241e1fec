//! Passing the turn: the next player, the no-legal-action rule, the ply
//! cap, losing on time, and the position hash that repetition counts.

use rand_chacha::ChaCha8Rng;

use crate::base::state::{GameState, Outcome, PlayerId};
use crate::engine::sampler::Sampler;
use crate::engine::{Action, ActionError, Engine};
use crate::rules::variant::NoMoves;

/// How the turn rule learns whether the next player can move, and what the
/// caller gets back about that position.
pub(super) enum Next<'a> {
    /// Only whether some legal action exists.
    Check,
    /// The full list of legal actions, filled in.
    List(&'a mut Vec<Action>),
    /// A uniformly random legal action, drawn by a sampler (synced first)
    /// with the generator, and kept for the caller to play next.
    Draw(&'a mut Sampler, &'a mut ChaCha8Rng, &'a mut Option<Action>),
}

impl Engine {
    /// A position's hash for `repetition_draw`: the board (kinds and
    /// owners), the player to move and the variant's `repetition_counters`.
    pub fn position_hash(&self, s: &GameState) -> u64 {
        // A fixed mix (stable across builds, unlike the standard hasher, so
        // saved games keep their meaning): the cells in order (kind and
        // owner), then the player to move and the counters.
        fn mix(mut z: u64) -> u64 {
            z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut h = 0u64;
        for slot in &s.board {
            let v = match *slot {
                Some(id) => {
                    let p = &s.pieces[id as usize];
                    1 + ((p.kind as u64) << 8 | p.owner as u64)
                }
                None => 0,
            };
            h = (h.rotate_left(5) ^ v).wrapping_mul(K);
        }
        h = mix(h ^ s.to_move as u64);
        for name in &self.variant.repetition_counters {
            for (n, p, v) in s.counters.iter() {
                if n == name {
                    h = mix(h ^ (p.map_or(0, |p| p as u64 + 1) << 56) ^ v as u64);
                }
            }
        }
        h
    }

    /// Passes the turn (unless a choice is pending) and applies the
    /// no-legal-action rule and the ply cap.
    /// With `next`, the player to move's legal actions are listed there, or
    /// one of them is drawn (instead of only asking whether there is one);
    /// returns whether they were. A query hook that fails while the turn
    /// rule looks for a legal action is the error (the caller throws the
    /// state away).
    pub(super) fn advance_turn(&self, s: &mut GameState, next: Next) -> Result<bool, ActionError> {
        if s.outcome.is_some() || !s.pending.is_empty() {
            return Ok(false);
        }
        let before = s.to_move;
        s.to_move = s.next_player(s.to_move);
        if !s.steps.is_fresh() {
            s.steps = Default::default();
        }
        if let Some(c) = &self.variant.move_number {
            // The turn came back round past the last player.
            if s.to_move < before {
                let n = s.counter(c, None);
                s.set_counter(c, None, n + 1);
            }
        }
        if s.ply >= self.variant.max_plies {
            s.outcome = Some(Outcome {
                winners: vec![],
                reason: format!("draw: the {}-ply limit was reached", self.variant.max_plies),
            });
            return Ok(false);
        }
        self.judge_stuck(s, next)
    }

    /// A position read from a file or a FEN line: when its player to move
    /// has no legal action, the no-moves rule judges it at once (as it
    /// would have after the action that led there).
    /// A query hook that fails here leaves the position unjudged: the
    /// error shows where the actions are listed (which fails closed).
    pub fn judge_loaded(&self, s: &mut GameState) -> Result<(), String> {
        if s.outcome.is_some() || !s.pending.is_empty() {
            return Ok(());
        }
        let mut judged = s.clone();
        if self.judge_stuck(&mut judged, Next::Check).is_ok() {
            *s = judged;
        }
        Ok(())
    }

    /// While the player to move has no legal action, applies the variant's
    /// no-moves rule (lose, draw, pass); see [`Engine::advance_turn`].
    fn judge_stuck(&self, s: &mut GameState, mut next: Next) -> Result<bool, ActionError> {
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
                    s.to_move = s.next_player(stuck);
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
                    s.to_move = s.next_player(stuck);
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
