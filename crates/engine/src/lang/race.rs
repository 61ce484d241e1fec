//! Races by the dice (a kind's `race:` form): the moves of one die along
//! the mover's track (entering from the bar first, hitting a lone enemy,
//! bearing off from home), the rule that a turn uses as many dice as it
//! can (else the larger), the roll at the start of a turn, the text of a
//! race move (`13/7`, `bar/22`, `6/off`, points counted along the mover's
//! track to its end) and the `borne_off` end.
//!
//! The must-use rule searches whole-turn sequences on [`Race`], a copy of
//! the counts along the mover's track (no state is cloned).

use std::ops::ControlFlow;

use crate::base::dice::Dice;
use crate::base::effect::Effect;
use crate::base::geometry::Cell;
use crate::base::state::{GameState, Outcome, PlayerId};
use crate::rules::variant::forms::{End, RaceForm};
use crate::{Action, ActionError, Engine};

/// One die's move on a [`Race`]: from a track index (`BAR`: the bar) to
/// a track index (the track's length: off), by a die of `die`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Step {
    from: u16,
    to: u16,
    die: u8,
}

/// The bar as a [`Step`]'s origin.
const BAR: u16 = u16::MAX;

/// The most cells of a track (the loader refuses longer ones).
const MAX_TRACK: usize = 250;

/// The mover's view of a race: counts along the mover's track, in
/// fixed-size arrays (no allocation per search).
#[derive(Clone, Debug)]
struct Race {
    /// The cells of the track.
    len: usize,
    /// The mover's pieces on each track cell.
    own: [u8; MAX_TRACK],
    /// The enemy pieces on each track cell.
    foe: [u8; MAX_TRACK],
    /// The mover's pieces waiting on the bar.
    bar: u8,
    /// How many pieces one cell holds at most.
    cap: u8,
    /// The first index of home.
    home: usize,
    dice: Dice,
}

impl Race {
    fn len(&self) -> usize {
        self.len
    }

    /// Whether a piece may land on track index `j`.
    fn lands(&self, j: usize) -> bool {
        self.foe[j] <= 1 && self.own[j] < self.cap
    }

    /// The moves of one die of each value left, each (from, to) once with
    /// the smallest die that makes it.
    #[cfg(test)]
    fn steps(&self, out: &mut Vec<Step>) {
        out.clear();
        self.push_steps(out);
    }

    /// `Race::steps` (its test-only form) pushed after what `out` holds.
    fn push_steps(&self, out: &mut Vec<Step>) {
        let base = out.len();
        let n = self.len();
        let _ = self.each_step(|step| {
            if (step.to as usize) < n {
                out.push(step);
            } else {
                // Dice come largest first: a smaller one replaces.
                match out[base..]
                    .iter_mut()
                    .find(|s| (s.from, s.to) == (step.from, step.to))
                {
                    Some(s) => s.die = step.die,
                    None => out.push(step),
                }
            }
            ControlFlow::Continue(())
        });
    }

    /// Whether some die left makes some step (stops at the first).
    fn has_step(&self) -> bool {
        self.each_step(|_| ControlFlow::Break(())).is_break()
    }

    /// Calls `f` with each step of one die of each value left (dice
    /// largest first; a bearing off may come once per die that makes
    /// it), until `f` breaks.
    fn each_step(&self, mut f: impl FnMut(Step) -> ControlFlow<()>) -> ControlFlow<()> {
        let n = self.len();
        let first = self.own[..n].iter().position(|&c| c > 0);
        let all_home = first.is_none_or(|i| i >= self.home);
        for d in self.dice.distinct() {
            let du = d as usize;
            if self.bar > 0 {
                if du <= n && self.lands(du - 1) {
                    f(Step {
                        from: BAR,
                        to: du as u16 - 1,
                        die: d,
                    })?;
                }
                continue;
            }
            for i in first.unwrap_or(n)..n {
                if self.own[i] == 0 {
                    continue;
                }
                let j = i + du;
                let step = Step {
                    from: i as u16,
                    to: j.min(n) as u16,
                    die: d,
                };
                if j < n {
                    if self.lands(j) {
                        f(step)?;
                    }
                } else if all_home && (j == n || first == Some(i)) {
                    f(step)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Plays a step; returns whether it hit.
    fn play(&mut self, s: Step) -> bool {
        if s.from == BAR {
            self.bar -= 1;
        } else {
            self.own[s.from as usize] -= 1;
        }
        self.dice.take(s.die);
        let to = s.to as usize;
        if to >= self.len() {
            return false;
        }
        self.own[to] += 1;
        let hit = self.foe[to] == 1;
        if hit {
            self.foe[to] = 0;
        }
        hit
    }

    fn undo(&mut self, s: Step, dice: Dice, hit: bool) {
        self.dice = dice;
        let to = s.to as usize;
        if to < self.len() {
            self.own[to] -= 1;
            if hit {
                self.foe[to] = 1;
            }
        }
        if s.from == BAR {
            self.bar += 1;
        } else {
            self.own[s.from as usize] += 1;
        }
    }

    /// The most dice a sequence from here uses (stops once all are).
    /// `stack` holds every level's steps, one after another (one buffer
    /// for the whole search).
    fn most(&mut self, budget: &mut u32, stack: &mut Vec<Step>) -> usize {
        let left = self.dice.len();
        if left == 0 || *budget == 0 {
            return 0;
        }
        *budget -= 1;
        if left == 1 {
            return usize::from(self.has_step());
        }
        let base = stack.len();
        self.push_steps(stack);
        let mut best = 0;
        for i in base..stack.len() {
            let st = stack[i];
            let dice = self.dice;
            let hit = self.play(st);
            best = best.max(1 + self.most(budget, stack));
            self.undo(st, dice, hit);
            if best == left {
                break;
            }
        }
        stack.truncate(base);
        best
    }

    /// The steps a whole turn may begin with: those that lead to using as
    /// many dice as possible; when only one die can be used, the larger
    /// when it can be.
    fn legal_steps(&mut self) -> Vec<Step> {
        let mut steps = Vec::with_capacity(32);
        self.push_steps(&mut steps);
        if self.dice.len() <= 1 || steps.is_empty() {
            return steps;
        }
        // Bounded work: at most this many positions are searched.
        let mut budget = 200_000;
        let mut stack = Vec::with_capacity(64);
        let scores: Vec<usize> = (steps.iter())
            .map(|&st| {
                let dice = self.dice;
                let hit = self.play(st);
                let n = 1 + self.most(&mut budget, &mut stack);
                self.undo(st, dice, hit);
                n
            })
            .collect();
        let best = scores.iter().copied().max().unwrap_or(0);
        let mut i = 0;
        steps.retain(|_| {
            i += 1;
            scores[i - 1] == best
        });
        if best == 1 {
            let high = self.dice.values()[0];
            if steps.iter().any(|s| self.can_use(*s, high)) {
                steps.retain(|s| self.can_use(*s, high));
            }
        }
        steps
    }

    /// Whether a step's (from, to) could be made with a die of `d`.
    fn can_use(&self, s: Step, d: u8) -> bool {
        if s.die == d {
            return true;
        }
        let from = if s.from == BAR { -1 } else { s.from as i32 };
        s.to as usize >= self.len() && from + d as i32 >= self.len() as i32
    }
}

impl Engine {
    /// The race form and its kind, when a kind races.
    pub(crate) fn race_form(&self) -> Option<&RaceForm> {
        let (k, i) = self.lang.race?;
        match &self.variant.kinds[k as usize].forms[i] {
            crate::rules::variant::forms::Form::Race(f) => Some(f),
            _ => None,
        }
    }

    /// Player `p`'s view of the race in `s`.
    fn race_of(&self, s: &GameState, f: &RaceForm, p: PlayerId) -> Race {
        let track = &f.track[p as usize];
        let owner = |c: Cell| s.piece_at(c).map(|id| s.pieces[id as usize].owner);
        let mut own = [0u8; MAX_TRACK];
        let mut foe = [0u8; MAX_TRACK];
        for (i, &c) in track.iter().take(MAX_TRACK).enumerate() {
            match owner(c) {
                Some(o) if o == p => own[i] = s.count_at(c),
                Some(_) => foe[i] = s.count_at(c),
                None => {}
            }
        }
        Race {
            len: track.len().min(MAX_TRACK),
            own,
            foe,
            bar: s.count_at(f.bar[p as usize]),
            cap: self.variant.stacks,
            home: track.len() - f.home as usize,
            dice: s.dice,
        }
    }

    /// A step's cells on the board.
    fn step_cells(&self, f: &RaceForm, p: PlayerId, st: Step) -> (Cell, Cell) {
        let track = &f.track[p as usize];
        let from = if st.from == BAR {
            f.bar[p as usize]
        } else {
            track[st.from as usize]
        };
        let to = track
            .get(st.to as usize)
            .copied()
            .unwrap_or(f.off[p as usize]);
        (from, to)
    }

    /// Player `p`'s legal race moves go to `out` (sorted).
    pub(super) fn race_moves(&self, s: &GameState, p: PlayerId, out: &mut Vec<Action>) {
        let Some(f) = self.race_form() else { return };
        if s.dice.is_empty() {
            return;
        }
        let start = out.len();
        for st in self.race_of(s, f, p).legal_steps() {
            let (from, to) = self.step_cells(f, p, st);
            out.push(Action::Move { from, to });
        }
        out[start..].sort_unstable();
        out.dedup();
    }

    /// The step a legal race move from `from` to `to` makes: of the dice
    /// that make it, the one after which the most dice can still be used
    /// (the smallest among equals).
    fn race_step(
        &self,
        r: &mut Race,
        f: &RaceForm,
        p: PlayerId,
        from: Cell,
        to: Cell,
    ) -> Option<Step> {
        let mut all = Vec::new();
        let mut steps = Vec::with_capacity(32);
        let dice = r.dice;
        let mut values: Vec<u8> = dice.distinct().collect();
        values.reverse();
        for d in values {
            r.dice = Dice::of(&[d]);
            steps.clear();
            r.push_steps(&mut steps);
            all.extend(
                (steps.iter())
                    .filter(|st| self.step_cells(f, p, **st) == (from, to))
                    .map(|&st| Step { die: d, ..st }),
            );
        }
        r.dice = dice;
        if all.len() <= 1 {
            return all.first().copied();
        }
        let mut budget = 200_000;
        let mut stack = Vec::with_capacity(64);
        let mut best: Option<(Step, usize)> = None;
        for st in all {
            let dice = r.dice;
            let hit = r.play(st);
            let n = r.most(&mut budget, &mut stack);
            r.undo(st, dice, hit);
            if best.is_none_or(|b| n > b.1) {
                best = Some((st, n));
            }
        }
        best.map(|b| b.0)
    }

    /// Plays a legal race move: a lone enemy where it lands goes to its
    /// owner's bar, the piece moves, its die is used. The turn stays with
    /// the mover while a die left can be used.
    pub(crate) fn apply_race(
        &self,
        s: &mut GameState,
        mover: PlayerId,
        from: Cell,
        to: Cell,
        effects: &mut Vec<Effect>,
    ) -> Result<(), ActionError> {
        let f = self
            .race_form()
            .ok_or_else(|| ActionError::Illegal("no race here".into()))?;
        let mut r = self.race_of(s, f, mover);
        let st = self
            .race_step(&mut r, f, mover, from, to)
            .ok_or_else(|| ActionError::Illegal("no die makes this move".into()))?;
        s.dice.take(st.die);
        if let Some(id) = s.piece_at(to) {
            let foe = s.pieces[id as usize].owner;
            if foe != mover && to != f.off[mover as usize] {
                s.place(id, f.bar[foe as usize]);
                effects.push(Effect::Note(format!(
                    "{} hits {}'s piece on {}",
                    self.player_name(mover),
                    self.player_name(foe),
                    self.variant.board.cell_name(to)
                )));
            }
        }
        if let Some(id) = s.piece_at(from) {
            s.pieces[id as usize].moved = true;
            s.place(id, to);
        }
        // A legal move is left exactly when some die left makes a step.
        r.play(st);
        if r.has_step() {
            s.set_hold_turn(true);
        }
        Ok(())
    }

    /// Rolls the dice for the turn that begins (when the variant has dice).
    pub(crate) fn roll_dice(&self, s: &mut GameState, effects: &mut Vec<Effect>) {
        let Some(d) = self.variant.dice else { return };
        s.dice = Dice::roll(&mut s.rng, d.count, d.faces, d.doubles);
        effects.push(Effect::Note(format!(
            "{} rolls {}",
            self.player_name(s.to_move),
            s.dice.text()
        )));
    }

    /// A cell's name as a race move writes it for player `p`: `bar`,
    /// `off`, or its point (counted from the end of `p`'s track, 1 the
    /// last cell).
    fn race_point(&self, f: &RaceForm, p: PlayerId, c: Cell) -> String {
        let track = &f.track[p as usize];
        if c == f.bar[p as usize] {
            return "bar".into();
        }
        if c == f.off[p as usize] {
            return "off".into();
        }
        match track.iter().position(|&x| x == c) {
            Some(i) => (track.len() - i).to_string(),
            None => self.variant.board.cell_name(c),
        }
    }

    /// The text of a race move (`13/7`, `bar/22`, `6/off`; `*` when it
    /// hits).
    pub(crate) fn race_text(&self, s: &GameState, from: Cell, to: Cell) -> Option<String> {
        let f = self.race_form()?;
        let p = s.to_move;
        let hits = s
            .piece_at(to)
            .is_some_and(|id| s.pieces[id as usize].owner != p && to != f.off[p as usize]);
        Some(format!(
            "{}/{}{}",
            self.race_point(f, p, from),
            self.race_point(f, p, to),
            if hits { "*" } else { "" }
        ))
    }

    /// Reads a race move's text (`13/7`, `bar/22*`, `6/off`).
    pub(crate) fn parse_race(&self, s: &GameState, t: &str) -> Option<Result<Action, ActionError>> {
        let f = self.race_form()?;
        let (a, b) = t.trim_end_matches('*').split_once('/')?;
        let p = s.to_move;
        let track = &f.track[p as usize];
        let cell = |x: &str| -> Result<Cell, ActionError> {
            match x {
                "bar" => Ok(f.bar[p as usize]),
                "off" => Ok(f.off[p as usize]),
                n => match n.parse::<usize>() {
                    Ok(k) if (1..=track.len()).contains(&k) => Ok(track[track.len() - k]),
                    _ => Err(ActionError::Parse(format!(
                        "`{x}`: expected `bar`, `off` or a point from 1 to {}",
                        track.len()
                    ))),
                },
            }
        };
        Some(cell(a).and_then(|from| Ok(Action::Move { from, to: cell(b)? })))
    }

    /// Why a race move is not legal here.
    pub(crate) fn explain_race(&self, s: &GameState, from: Cell, to: Cell) -> String {
        let text = self.race_text(s, from, to).unwrap_or_default();
        let name = self.player_name(s.to_move);
        let mine = s
            .piece_at(from)
            .is_some_and(|id| s.pieces[id as usize].owner == s.to_move);
        if !mine {
            return format!("{text}: {name} has no piece there");
        }
        if s.dice.is_empty() {
            return format!("{text}: no dice are left to use");
        }
        let mut legal = Vec::new();
        self.race_moves(s, s.to_move, &mut legal);
        let texts: Vec<String> = (legal.iter())
            .filter_map(|a| match *a {
                Action::Move { from, to } => self.race_text(s, from, to),
                _ => None,
            })
            .collect();
        format!(
            "{text}: no die left ({}) makes this move in a turn that uses as many dice as it can (legal: {})",
            s.dice.text(),
            if texts.is_empty() { "none: pass".into() } else { texts.join(" ") }
        )
    }

    /// Whether the `borne_off` end has come for `mover`, and its outcome.
    pub(crate) fn borne_off_outcome(
        &self,
        s: &GameState,
        end: &End,
        n: u16,
        scores: bool,
        mover: PlayerId,
    ) -> Option<Outcome> {
        let f = self.race_form()?;
        if (s.count_at(f.off[mover as usize]) as u16) < n {
            return None;
        }
        let mut reason = end.reason.clone();
        if scores {
            let loser = s.next_player(mover);
            let won = &f.track[mover as usize];
            let home = &won[won.len() - f.home as usize..];
            let in_home = home.iter().any(|&c| {
                s.piece_at(c)
                    .is_some_and(|id| s.pieces[id as usize].owner == loser)
            });
            let (points, why) = if s.count_at(f.off[loser as usize]) > 0 {
                (1, "the loser bore off")
            } else if in_home || s.count_at(f.bar[loser as usize]) > 0 {
                (
                    3,
                    "the loser bore off none and has a piece on the bar or in the winner's home",
                )
            } else {
                (2, "the loser bore off none")
            };
            reason.push_str(&format!(
                ": {points} point{} ({why})",
                if points > 1 { "s" } else { "" }
            ));
        }
        Some(Outcome {
            winners: vec![mover],
            reason,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn race(own: &[u8], foe: &[u8], dice: &[u8]) -> Race {
        let mut r = Race {
            len: own.len(),
            own: [0; MAX_TRACK],
            foe: [0; MAX_TRACK],
            bar: 0,
            cap: 15,
            home: own.len() - 2,
            dice: Dice::of(dice),
        };
        r.own[..own.len()].copy_from_slice(own);
        r.foe[..foe.len()].copy_from_slice(foe);
        r
    }

    #[test]
    fn two_enemies_block_and_one_is_hit() {
        let mut r = race(&[1, 0, 0, 0, 0, 0], &[0, 2, 1, 0, 0, 0], &[1]);
        let mut out = Vec::new();
        r.steps(&mut out);
        assert!(out.is_empty(), "a cell of two enemies blocks");
        r.dice = Dice::of(&[2]);
        r.steps(&mut out);
        assert_eq!(
            out,
            vec![Step {
                from: 0,
                to: 2,
                die: 2
            }]
        );
        let hit = r.play(out[0]);
        assert!(hit);
        assert_eq!(r.foe[2], 0);
        r.undo(out[0], Dice::of(&[2]), hit);
        assert_eq!((r.own[0], r.foe[2]), (1, 1));
    }

    #[test]
    fn as_many_dice_as_possible_then_the_larger() {
        // 0->5 then 5->6 is blocked, and so is 0->1 then 1->6: no
        // sequence uses both dice, so the larger must be used.
        let mut own = [0u8; 9];
        own[0] = 1;
        let mut foe = [0u8; 9];
        foe[6] = 2;
        let mut r = race(&own, &foe, &[5, 1]);
        assert_eq!(
            r.legal_steps(),
            vec![Step {
                from: 0,
                to: 5,
                die: 5
            }]
        );
        // With the block gone, both orders use both dice.
        r.foe[6] = 0;
        let steps = r.legal_steps();
        assert_eq!(steps.len(), 2);
    }

    #[test]
    fn bearing_off_by_a_larger_die_only_from_the_furthest_back() {
        let mut r = race(&[0, 0, 0, 0, 1, 1], &[0; 6], &[6]);
        r.home = 3;
        let steps = r.legal_steps();
        assert_eq!(
            steps,
            vec![Step {
                from: 4,
                to: 6,
                die: 6
            }]
        );
        // Not all home: no bearing off.
        let mut r = race(&[1, 0, 0, 0, 0, 1], &[0; 6], &[1]);
        r.home = 3;
        let mut out = Vec::new();
        r.steps(&mut out);
        assert_eq!(
            out,
            vec![Step {
                from: 0,
                to: 1,
                die: 1
            }]
        );
    }

    #[test]
    fn a_piece_on_the_bar_enters_before_anything_else() {
        let mut r = race(&[0, 0, 0, 1, 0, 0], &[0, 2, 0, 0, 0, 0], &[2, 1]);
        r.bar = 1;
        let mut out = Vec::new();
        r.steps(&mut out);
        assert_eq!(
            out,
            vec![Step {
                from: BAR,
                to: 0,
                die: 1
            }]
        );
    }
}
