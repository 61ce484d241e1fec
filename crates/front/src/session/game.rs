//! How the REPL starts games and plays actions: loading a variant, new games
//! and their setups, actions by hand, at random or by a bot, taking them
//! back, applying Lua, and the clock.

use std::path::Path;

use rand::Rng;

use super::{Played, Session};
use crate::base::geometry::Cell;
use crate::base::limits::{read_user_file, MAX_ACTIONS_PER_LINE};
use crate::base::state::{GameState, KindId, PlayerId};
use crate::engine::{Action, Engine};
use crate::rules::variant::NotationStyle;

/// Parses a setup string in the one order the front ends read: each row of
/// the setup zone left to right as `player` sees the board, the front row
/// first (the order of [`Engine::setup_cells`], which `place` and `show`
/// list); `back_first`: the rows from the back row instead. The rows are
/// the zone's own, so a zone narrower than the board reads the same way.
pub fn parse_setup(
    engine: &Engine,
    player: PlayerId,
    text: &str,
    back_first: bool,
) -> Result<Vec<(Cell, KindId)>, String> {
    let chars: Vec<char> = text.trim().chars().collect();
    let cells = engine.setup_cells(player);
    if !back_first || chars.len() != cells.len() {
        // (A wrong length is refused by the engine, with the count.)
        return engine.parse_setup(player, text, false);
    }
    // The zone's rows, front first: runs of cells on one rank.
    let board = &engine.variant.board;
    let mut rows: Vec<Vec<usize>> = Vec::new();
    for (i, &c) in cells.iter().enumerate() {
        let rank = board.coords(c).1;
        match rows.last_mut() {
            Some(row) if board.coords(cells[row[0]]).1 == rank => row.push(i),
            _ => rows.push(vec![i]),
        }
    }
    let mut front_first = vec![' '; chars.len()];
    for (&ch, i) in chars.iter().zip(rows.iter().rev().flatten()) {
        front_first[*i] = ch;
    }
    let text: String = front_first.into_iter().collect();
    engine.parse_setup(player, &text, false)
}

/// Reads a setup spec: piece-code letters, FILE, FILE:LINE or `random`.
pub fn read_setup_spec(
    engine: &Engine,
    player: PlayerId,
    spec: &str,
    back_first: bool,
) -> Result<Option<Vec<(Cell, KindId)>>, String> {
    if spec == "random" {
        return Ok(None);
    }
    let (file, line) = match spec.rsplit_once(':') {
        Some((f, n)) if n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty() => {
            (f, n.parse::<usize>().ok())
        }
        _ => (spec, None),
    };
    // Setup letters have no `/` or `.`: such a spec names a file, which
    // must exist (not be read as letters).
    if !Path::new(file).exists() && file.contains(['/', '.', '\\']) {
        return Err(format!("{file}: no such setup file"));
    }
    let text = if Path::new(file).exists() {
        let all = read_user_file(Path::new(file), file)?;
        let lines: Vec<&str> = all
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect();
        let n = line.unwrap_or(1);
        lines
            .get(n.wrapping_sub(1))
            .ok_or_else(|| {
                format!(
                    "{file}: there is no setup line {n} (it has {})",
                    lines.len()
                )
            })?
            .to_string()
    } else {
        spec.to_string()
    };
    parse_setup(engine, player, &text, back_first).map(Some)
}

impl Session {
    /// Plays what a player typed (an action, or a move with the promotion
    /// it names, `e8=Q`); returns the events as the current viewer sees
    /// them, under the move as the variant writes it.
    pub fn play(&mut self, text: &str) -> Result<String, String> {
        let actions = self
            .engine
            .parse_turn(&self.state, text)
            .map_err(|e| format!("{text}: {e}"))?;
        let before = self.state.clone();
        let mut header = String::new();
        let mut lines = Vec::new();
        for a in &actions {
            let (h, l) = self
                .play_action_parts(*a)
                .map_err(|e| format!("{text}: {e}"))?;
            if header.is_empty() {
                header = h;
            }
            lines.extend(l);
        }
        if let [first, then] = actions[..] {
            header = self.shown_text(&before, &first);
            if !self.views().hides_action(&before, self.viewer) {
                header = self.engine.move_text(&before, &first, Some(&then));
            }
        }
        let mut out = format!("{header}\n  {}", lines.join("\n  "));
        if let Some(prompt) = self.pending_text() {
            out.push_str(&format!("\n{prompt}"));
        }
        Ok(out)
    }

    fn play_action(&mut self, action: Action) -> Result<String, String> {
        let (header, lines) = self.play_action_parts(action)?;
        Ok(format!("{header}\n  {}", lines.join("\n  ")))
    }

    /// How the session writes an action played from `before`: in the
    /// variant's notation; a promotion choice in the `san` style as the
    /// whole move (`e8=Q`), read from the last action of the history.
    fn shown_text(&self, before: &GameState, a: &Action) -> String {
        if self.views().hides_action(before, self.viewer) {
            // Under fog, another player's action: only its events say
            // what was seen of it.
            return crate::record::fog::HIDDEN_ACTION.into();
        }
        if self.engine.variant.notation.style == NotationStyle::San
            && matches!(a, Action::Choose { .. })
            && before.pending.first().is_some_and(|c| c.piece.is_some())
        {
            if let Some(prev) = self.history.last() {
                if let Ok(m @ Action::Move { .. }) =
                    self.engine.parse_action(&prev.before, &prev.text)
                {
                    return self.engine.move_text(&prev.before, &m, Some(a));
                }
            }
        }
        self.engine.move_text(before, a, None)
    }

    /// Plays one action: how it is written, and its event lines as the
    /// current viewer sees them.
    fn play_action_parts(&mut self, action: Action) -> Result<(String, Vec<String>), String> {
        if let Some((_, clock)) = &mut self.clock {
            if let Some(p) = self.engine.acting_player(&self.state) {
                if clock.flagged(p) {
                    clock.stop();
                    self.engine.lose_on_time(&mut self.state, p);
                    return Err(format!(
                        "too late: {}",
                        self.views()
                            .outcome_text(self.state.outcome.as_ref().expect("just set"))
                    ));
                }
            }
        }
        let before = self.state.clone();
        let canonical = self.engine.action_text(&self.state, &action);
        let shown = self.shown_text(&before, &action);
        let events = self
            .engine
            .apply(&mut self.state, &action)
            .map_err(|e| e.to_string())?;
        self.history.push(Played {
            text: canonical.clone(),
            before,
            events: events.clone(),
        });
        if let Action::Move { from, to } = action {
            self.last = Some((from, to));
        }
        if let Some((_, clock)) = &mut self.clock {
            clock.stop();
            if let Some(p) = self.engine.acting_player(&self.state) {
                clock.start(p);
            }
        }
        let lines = self.views().event_lines(&self.state, &events, self.viewer);
        Ok((shown, lines))
    }

    /// `load VARIANT`: a new session on another variant, keeping the clock
    /// and the colours.
    pub(super) fn load_variant(
        &mut self,
        variant: &str,
        options: &[String],
        seed: Option<u64>,
    ) -> Result<String, String> {
        let overrides = super::parse_pairs(options)?;
        let clock = self.clock.as_ref().map(|(spec, _)| spec.clone());
        let (color, interactive) = (self.color, self.interactive);
        *self = Session::new(variant, &overrides, seed.unwrap_or(self.state.seed))?;
        (self.color, self.interactive) = (color, interactive);
        self.set_clock(clock.as_deref())?;
        let seat = match interactive {
            true => self.view_from_a_seat().map(|n| format!("{n}\n")),
            false => None,
        };
        Ok(format!(
            "loaded {} ({})\n{}{}",
            self.engine.variant.name,
            self.engine.variant.path.display(),
            seat.unwrap_or_default(),
            self.board(self.viewer)
        ))
    }

    /// `new`: a new game from a seed and the players' setups.
    pub(super) fn new_game(
        &mut self,
        seed: Option<u64>,
        setups: &[String],
        back_first: bool,
    ) -> Result<String, String> {
        let seed = seed.unwrap_or_else(crate::base::state::secret_seed);
        let mut specs: Vec<Option<Vec<(Cell, KindId)>>> =
            vec![None; self.engine.variant.players.len()];
        for (player, spec) in super::parse_pairs(setups)? {
            let p = self.engine.player_id(&player)?;
            specs[p as usize] = read_setup_spec(&self.engine, p, &spec, back_first)?;
        }
        let state = self.engine.new_game(seed, &specs);
        self.reset_to(state);
        Ok(format!(
            "new game, seed {seed}\n{}",
            self.board(self.viewer)
        ))
    }

    /// `play ACTIONS...`: plays the actions in order (at most
    /// [`MAX_ACTIONS_PER_LINE`] words).
    pub(super) fn play_words(&mut self, actions: &[String]) -> Result<String, String> {
        if actions.len() > MAX_ACTIONS_PER_LINE {
            return Err(format!(
                "{} words: `play` takes at most {MAX_ACTIONS_PER_LINE} actions at a time",
                actions.len()
            ));
        }
        // Actions are words (`a4-a5 b7-b6`), except a label with
        // spaces (`suicide e5`, `flip c3`): words that only read
        // together as an action are played as one (the longest such run
        // of at most `LABEL_WORDS` words, so that the work stays linear).
        const LABEL_WORDS: usize = 8;
        let mut out = Vec::new();
        let mut i = 0;
        while i < actions.len() {
            let mut take = 1;
            if self.engine.parse_action(&self.state, &actions[i]).is_err() {
                let end = actions.len().min(i + LABEL_WORDS);
                for j in (i + 2..=end).rev() {
                    let joined = actions[i..j].join(" ");
                    if self.engine.parse_action(&self.state, &joined).is_ok() {
                        take = j - i;
                        break;
                    }
                }
            }
            out.push(self.play(&actions[i..i + take].join(" "))?);
            i += take;
        }
        Ok(out.join("\n"))
    }

    /// `random N`: plays N random legal actions, drawn from the game's seed.
    pub(super) fn play_random(&mut self, n: u32) -> Result<String, String> {
        let mut out = Vec::new();
        for _ in 0..n {
            let mut acts = self
                .engine
                .try_legal_actions(&self.state)
                .map_err(|e| e.to_string())?;
            acts.retain(|a| !a.is_social());
            if acts.is_empty() {
                break;
            }
            let a = acts[self.rng.random_range(0..acts.len())];
            out.push(self.play_action(a)?);
        }
        Ok(out.join("\n"))
    }

    /// `bot AGENT`: a bot plays for the side to act.
    pub(super) fn play_bot(&mut self, agent: Option<&str>) -> Result<String, String> {
        let spec = crate::play::agent::AgentSpec::parse(agent.unwrap_or("mcts"))?;
        let mut bot = spec.build(self.rng.random());
        let a = crate::play::agent::agent_action(&self.engine, bot.as_mut(), &self.state)
            .map_err(|e| e.to_string())?
            .ok_or("there is nothing to play: the game is over or nobody can act")?;
        self.play_action(a)
    }

    /// `undo [N]` takes back N whole turns; `undo step [N]`, N actions.
    pub(super) fn undo_command(&mut self, args: &[String]) -> Result<String, String> {
        let (step, rest) = match args.split_first() {
            Some((w, rest)) if w == "step" || w == "steps" => (true, rest),
            _ => (false, args),
        };
        let n = match rest {
            [] => 1,
            [n] => n
                .parse::<usize>()
                .map_err(|_| format!("`{n}`: expected `undo [N]` or `undo step [N]`"))?,
            _ => return Err("expected `undo [N]` or `undo step [N]`".into()),
        };
        if step {
            return Ok(self.undo(n));
        }
        let (mut actions, mut turns) = (0, 0);
        for _ in 0..n {
            let k = self.turn_len(self.history.len() - actions);
            if k == 0 {
                break;
            }
            actions += k;
            turns += 1;
        }
        let text = self.undo(actions);
        Ok(text.replacen(
            &format!("took back {actions} action(s)"),
            &format!("took back {turns} turn(s), {actions} action(s)"),
            1,
        ))
    }

    /// How many of the first `len` actions of the history make up the last
    /// turn: the last action and the ones before it taken by the same
    /// player (a move and the choices that complete it, such as a
    /// promotion or a rescue; a turn of several actions).
    fn turn_len(&self, len: usize) -> usize {
        let Some(last) = len.checked_sub(1).map(|i| &self.history[i]) else {
            return 0;
        };
        let who = self.engine.acting_player(&last.before);
        let mut k = 1;
        while k < len && self.engine.acting_player(&self.history[len - 1 - k].before) == who {
            k += 1;
        }
        k
    }

    /// Takes back the last N actions.
    pub(super) fn undo(&mut self, n: usize) -> String {
        let n = n.min(self.history.len());
        for _ in 0..n {
            let played = self.history.pop().expect("n bounded by history");
            self.state = played.before;
        }
        self.notes.keep_first(self.history.len());
        self.last = None;
        format!("took back {n} action(s)\n{}", self.board(self.viewer))
    }

    /// `=! CODE` or `lua! CODE`: applies Lua to the state.
    pub(super) fn apply_lua(&mut self, code: &str) -> Result<String, String> {
        // Applied: the changed state becomes the start of a new game
        // record (what it did is not an action of the game).
        let mut copy = self.state.clone();
        let out = self
            .engine
            .rules
            .eval_mut(&mut copy, &self.engine.variant, code)?;
        copy.check_consistency()?;
        self.reset_to(copy);
        Ok(format!(
            "{out}\napplied: the game restarts from this position (history cleared)\n{}",
            self.board(self.viewer)
        ))
    }

    /// `clock [SPEC|off]`: sets the clocks and shows them.
    pub(super) fn clock_command(&mut self, spec: Option<&str>) -> Result<String, String> {
        match spec {
            Some("off") => self.set_clock(None)?,
            Some(spec) => self.set_clock(Some(spec))?,
            None => {}
        }
        Ok(self
            .clock_text()
            .unwrap_or_else(|| "no clock (try `clock 15m`)".into()))
    }
}
