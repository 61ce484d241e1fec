//! Declared ends: the pass and its run, n in a row through the last piece
//! placed or moved, nobody able to move, and who wins then (the mover,
//! the most pieces, the area score with a bonus).

use crate::base::effect::Effect;
use crate::base::geometry::Cell;
use crate::base::state::{GameState, Outcome, PlayerId};
use crate::base::state::{KindId, PieceId};
use crate::lang::PASS_RUN;
use crate::rules::variant::forms::{End, EndWhen, Winner};
use crate::turn::Next;
use crate::{Action, ActionError, Engine, Event};

thread_local! {
    /// [`Engine::anyone_stuck`]'s listing, kept from one action to the next.
    static STUCK_LIST: std::cell::Cell<Vec<Action>> = const { std::cell::Cell::new(Vec::new()) };
}

impl Engine {
    /// A pass of the turn: the run of passes grows.
    pub(crate) fn pass_turn(&self, s: &mut GameState, mover: PlayerId, effects: &mut Vec<Effect>) {
        let n = s.counter(PASS_RUN, None) + 1;
        s.set_counter(PASS_RUN, None, n);
        effects.push(Effect::Note(format!("{} passes", self.player_name(mover))));
    }

    /// The declared ends after an action of `mover` that placed or moved a
    /// piece to `landed` (if any) and did `events` and `effects`: n in a
    /// row, passes in a row, a zone reached, a kind captured, pieces left.
    pub(crate) fn lang_ends(
        &self,
        s: &mut GameState,
        a: &Action,
        mover: PlayerId,
        landed: Option<Cell>,
        events: &[Event],
        effects: &[Effect],
    ) {
        if self.variant.pass.is_some() && *a != Action::Pass && !a.is_social() {
            s.counters.remove(PASS_RUN, None);
        }
        if s.outcome.is_some() {
            return;
        }
        for (end, counted) in self.variant.ends.iter().zip(&self.lang.end_kinds) {
            let counts = |k: KindId| counted.get(k as usize).copied().unwrap_or(false);
            let hit = match &end.when {
                EndWhen::InARow { n, lines } => {
                    landed.is_some_and(|c| self.in_a_row(s, c, *n, lines))
                }
                EndWhen::Passes(n) => *a == Action::Pass && s.counter(PASS_RUN, None) >= *n as i64,
                EndWhen::NobodyMoves => false,
                EndWhen::AnyoneStuck => self.anyone_stuck(s),
                EndWhen::Reaches { zone, .. } => landed.is_some_and(|c| {
                    zone[mover as usize].contains(&c)
                        && s.piece_at(c).is_some_and(|id| {
                            let p = &s.pieces[id as usize];
                            p.owner == mover && counts(p.kind)
                        })
                }),
                EndWhen::Captures(_) => {
                    captured(events, effects).any(|id| counts(s.pieces[id as usize].kind))
                }
                EndWhen::Left { most, everyone, .. } => {
                    let mut left = (0..s.players)
                        .filter(|&q| (*everyone || q != mover) && s.eliminated & (1 << q) == 0)
                        .map(|q| self.at_most_left(s, q, *most, counted));
                    if *everyone {
                        left.all(|x| x)
                    } else {
                        left.any(|x| x)
                    }
                }
                // After the rules' hooks (`counter_ends`).
                EndWhen::Counter { .. } => false,
                EndWhen::BorneOff { n, scores } => {
                    if let Some(o) = self.borne_off_outcome(s, end, *n, *scores, mover) {
                        s.outcome = Some(o);
                        return;
                    }
                    false
                }
            };
            if hit {
                s.outcome = Some(self.declared_outcome(s, end, mover));
                return;
            }
        }
    }

    /// The declared counter ends after an action of `mover`, once the
    /// rules' hooks have changed the counters: the first player from the
    /// mover on whose counter of the name reached its value holds it, or
    /// the mover when the game's own counter did.
    pub(crate) fn counter_ends(&self, s: &mut GameState, mover: PlayerId) {
        if s.outcome.is_some() {
            return;
        }
        for end in &self.variant.ends {
            let EndWhen::Counter { name, at_least } = &end.when else {
                continue;
            };
            let holder = (0..s.players)
                .map(|q| (q + mover) % s.players)
                .find(|&q| s.counter(name, Some(q)) >= *at_least);
            if holder.is_some() || s.counter(name, None) >= *at_least {
                s.outcome = Some(self.declared_outcome(s, end, holder.unwrap_or(mover)));
                return;
            }
        }
    }

    /// Whether player `q` has at most `most` pieces on the board of the
    /// kinds `counted` marks: read from the owner's mask where the board
    /// has at most 128 cells, and it stops counting past `most`.
    #[inline]
    fn at_most_left(&self, s: &GameState, q: PlayerId, most: u16, counted: &[bool]) -> bool {
        let counts = |id: PieceId| {
            let p = &s.pieces[id as usize];
            p.owner == q && counted.get(p.kind as usize).copied().unwrap_or(false)
        };
        let mut n = 0u16;
        if self.variant.board.cell_count() <= 128 {
            let mut m = s.owned_by_wide(q);
            while m != 0 {
                let c = m.trailing_zeros() as usize;
                m &= m - 1;
                if s.board()[c].is_some_and(counts) {
                    n += 1;
                    if n > most {
                        return false;
                    }
                }
            }
            return true;
        }
        for id in s.board().iter().flatten() {
            if counts(*id) {
                n += 1;
                if n > most {
                    return false;
                }
            }
        }
        true
    }

    /// Whether the piece on `c` stands in `n` of its owner's pieces in a
    /// row along one of `lines` (each counted both ways).
    fn in_a_row(&self, s: &GameState, c: Cell, n: u8, lines: &[(i8, i8)]) -> bool {
        let b = &self.variant.board;
        let Some(id) = s.piece_at(c) else {
            return false;
        };
        let owner = s.pieces[id as usize].owner;
        let need = n as usize - 1;
        let mine = |x: Cell| match s.board()[x as usize] {
            Some(o) => s.pieces[o as usize].owner == owner,
            None => false,
        };
        // How many of the owner's pieces follow `c` along `d`, up to `most`.
        let run = |d: (i8, i8), most: usize| {
            let mut k = 0;
            let mut at = c;
            while k < most {
                match self.lang.hops.hop(b, at, d) {
                    Some(next) if mine(next) => {
                        k += 1;
                        at = next;
                    }
                    _ => break,
                }
            }
            k
        };
        lines.iter().any(|&(x, y)| {
            let ahead = run((x, y), need);
            ahead >= need || ahead + run((-x, -y), need - ahead) >= need
        })
    }

    /// The turn rule where nobody's moving ends the game: the player to
    /// move's actions are listed (or looked for, as `next` asks); when
    /// nobody can act but by passing, the game ends as declared.
    pub(crate) fn judge_nobody_moves(
        &self,
        s: &mut GameState,
        next: Next,
        end: usize,
    ) -> Result<bool, ActionError> {
        let mut own = Vec::new();
        let (list, listing) = match next {
            Next::List(l) | Next::Count(_, l) => (l, true),
            _ => (&mut own, false),
        };
        self.try_legal_actions_into(s, list)?;
        let acts = |l: &[Action]| l.iter().any(|a| !a.is_social() && *a != Action::Pass);
        if acts(list) {
            return Ok(listing);
        }
        for q in (0..s.players).filter(|&q| q != s.to_move && s.eliminated & (1 << q) == 0) {
            let mut t = s.clone();
            t.to_move = q;
            if acts(&self.try_legal_actions(&t)?) {
                return Ok(listing);
            }
        }
        let mover = s.previous_player(s.to_move);
        s.outcome = Some(self.declared_outcome(s, &self.variant.ends[end], mover));
        list.clear();
        Ok(false)
    }

    /// Whether some player in the game could make no action but a pass
    /// were it their turn now (a fresh turn; a rule that fails leaves
    /// that player able to move). Asked of `s` itself, its turn set aside
    /// and put back, into a kept buffer: no state is copied.
    fn anyone_stuck(&self, s: &mut GameState) -> bool {
        let (to_move, hold) = (s.to_move, s.holds_turn());
        let steps = std::mem::take(&mut s.steps);
        s.set_hold_turn(false);
        // Taken, not borrowed: a listing that applies moves may come back here.
        let mut list = STUCK_LIST.take();
        let out = s.eliminated;
        let stuck = (0..s.players).filter(|&q| out & (1 << q) == 0).any(|q| {
            s.to_move = q;
            self.try_legal_actions_into(s, &mut list).is_ok()
                && !list.iter().any(|a| !a.is_social() && *a != Action::Pass)
        });
        STUCK_LIST.set(list);
        (s.to_move, s.steps) = (to_move, steps);
        s.set_hold_turn(hold);
        stuck
    }

    /// How a declared end comes out.
    fn declared_outcome(&self, s: &GameState, end: &End, mover: PlayerId) -> Outcome {
        let name = |p: PlayerId| self.player_name(p).to_string();
        let by_score = |scores: Vec<f64>, what: &str| {
            let best = scores.iter().cloned().fold(f64::MIN, f64::max);
            let top: Vec<PlayerId> = (0..s.players)
                .filter(|&p| scores[p as usize] == best)
                .collect();
            let shown: Vec<String> = scores.iter().map(|x| format!("{x}")).collect();
            if top.len() == 1 {
                Outcome {
                    winners: top.clone(),
                    reason: format!(
                        "{}: {} has the most {what} ({})",
                        end.reason,
                        name(top[0]),
                        shown.join(" to ")
                    ),
                }
            } else {
                Outcome {
                    winners: vec![],
                    reason: format!(
                        "draw: {}: equal {what} ({})",
                        end.reason,
                        shown.join(" to ")
                    ),
                }
            }
        };
        match &end.winner {
            Winner::Mover | Winner::Holder => Outcome {
                winners: vec![mover],
                // The end's own words: the outcome reads `X wins (REASON)`.
                reason: end.reason.clone(),
            },
            Winner::Draw => Outcome {
                winners: vec![],
                reason: format!("draw: {}", end.reason),
            },
            Winner::MostPieces => {
                let mut n = vec![0f64; s.players as usize];
                for id in s.board().iter().flatten() {
                    n[s.pieces[*id as usize].owner as usize] += 1.0;
                }
                by_score(n, "pieces")
            }
            Winner::Tally {
                cells,
                zone,
                counter,
            } => {
                let n = (0..s.players)
                    .map(|p| {
                        let on_cells: i64 = cells.as_ref().map_or(0, |c| {
                            let mine = zone.get(p as usize).map_or(&[][..], |z| &z[..]);
                            mine.iter().map(|&x| s.cell_counter(c, x)).sum()
                        });
                        let own = counter.as_ref().map_or(0, |c| s.counter(c, Some(p)));
                        on_cells.saturating_add(own) as f64
                    })
                    .collect();
                by_score(n, "points")
            }
            Winner::Area { bonus, lines } => {
                let mut n = self.area_scores(s, lines);
                if let Some(last) = n.last_mut() {
                    *last += bonus;
                }
                by_score(n, "points")
            }
        }
    }

    /// Each player's area: their pieces on the board, and the empty
    /// regions (joined along `lines`) that touch only their pieces.
    fn area_scores(&self, s: &GameState, lines: &[(i8, i8)]) -> Vec<f64> {
        let b = &self.variant.board;
        let mut score = vec![0f64; s.players as usize];
        for id in s.board().iter().flatten() {
            score[s.pieces[*id as usize].owner as usize] += 1.0;
        }
        let mut seen = vec![false; b.cell_count()];
        for start in 0..b.cell_count() {
            if seen[start] || s.board()[start].is_some() || s.terrain()[start] & b.blocking != 0 {
                continue;
            }
            let mut region = vec![start as Cell];
            seen[start] = true;
            let mut touches: u8 = 0;
            let mut i = 0;
            while i < region.len() {
                let c = region[i];
                i += 1;
                for &d in lines {
                    let Some(nb) = self.lang.hops.hop(b, c, d) else {
                        continue;
                    };
                    match s.board()[nb as usize] {
                        Some(id) => touches |= 1 << s.pieces[id as usize].owner,
                        None if !seen[nb as usize]
                            && s.terrain()[nb as usize] & b.blocking == 0 =>
                        {
                            seen[nb as usize] = true;
                            region.push(nb);
                        }
                        None => {}
                    }
                }
            }
            if touches.count_ones() == 1 {
                score[touches.trailing_zeros() as usize] += region.len() as f64;
            }
        }
        score
    }
}

/// The pieces an action's events and effects captured.
fn captured<'a>(events: &'a [Event], effects: &'a [Effect]) -> impl Iterator<Item = PieceId> + 'a {
    let struck = events.iter().filter_map(|e| match e {
        Event::Struck {
            attacker,
            defender,
            result,
            ..
        } => Some(result.removed(*attacker, *defender)),
        _ => None,
    });
    let effected = effects.iter().filter_map(|e| match e {
        Effect::Captured { piece, .. } => Some(*piece),
        _ => None,
    });
    struck.flatten().chain(effected)
}
