//! A session: one loaded variant and one game, driven by text commands.
//!
//! `Session::execute(line)` is the single entry point used by the REPL, the
//! scripted (piped) REPL and tests. Commands are declared once, as a clap
//! `multicall` parser, and `help` is generated from that table.

use std::path::Path;

use clap::{CommandFactory, Parser};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::base::geometry::Cell;
use crate::base::state::{GameState, KindId, PlayerId};
use crate::engine::{Action, Engine, Event};
use crate::front::clock::Clock;
use crate::record::view::Viewer;
use crate::record::{read_yaml, to_yaml, PlayerRecord, Position, Record, SeenAction};

/// The REPL's commands (also used to generate `help`).
#[derive(Parser, Debug)]
#[command(multicall = true, disable_help_subcommand = true)]
pub enum Command {
    /// Load a variant by bundled name or YAML path, and start a new game
    Load {
        variant: String,
        /// Set an option: NAME=VALUE (repeatable)
        #[arg(long = "option", short = 'o')]
        options: Vec<String>,
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Start a new game: random setups from a seed, or setups from text or files
    New {
        /// Seed for random setups and every chance event
        #[arg(long)]
        seed: Option<u64>,
        /// PLAYER=SETUP: a string of piece codes, FILE, FILE:LINE, or `random`
        #[arg(long = "setup")]
        setups: Vec<String>,
        /// Setup strings list the front row first, as in the collection of
        /// classic setups (default: the back row first, the first letter at
        /// the player's back-row left corner)
        #[arg(long)]
        front_first: bool,
    },
    /// Show the board as a player, `public`, or `all` (omniscient)
    Show { viewer: Option<String> },
    /// Set the default viewpoint for `show` and events
    #[command(name = "as")]
    ViewAs { viewer: String },
    /// List the legal actions of the position
    Actions,
    /// Play one or more actions (an action alone on a line also plays it)
    Play { actions: Vec<String> },
    /// Play N random legal actions (default 1), drawn from the game's seed
    Random { n: Option<u32> },
    /// Let a bot play for the side to act: AGENT is random, mcts (default),
    /// mcts:ITERATIONS or mcts:MSms; the bot sees only what its player knows
    Bot { agent: Option<String> },
    /// Take back the last N actions (default 1)
    Undo { n: Option<usize> },
    /// List the actions played so far
    History,
    /// List the variant's options and their values
    Options,
    /// Describe the variant's pieces
    Pieces,
    /// Set up a position from a FEN-like line (`clxwkxli/pppppppp/8/8/8/8/PPPPPPPP/ILXKWXLC w`)
    Position {
        #[arg(required = true, num_args = 1.., allow_hyphen_values = true)]
        fen: Vec<String>,
    },
    /// Print the position as a FEN-like line
    Fen,
    /// Save the current position to a YAML file
    SavePosition { file: String },
    /// Load a position from a YAML file (the history starts there)
    LoadPosition { file: String },
    /// Save the game record (start position and actions) to a YAML file;
    /// with --as, only what that player saw
    SaveRecord {
        file: String,
        #[arg(long = "as")]
        as_viewer: Option<String>,
    },
    /// Save the board as an SVG picture, as a viewer sees it
    Svg {
        file: String,
        #[arg(long = "as")]
        as_viewer: Option<String>,
    },
    /// Load a game record and replay it
    LoadRecord { file: String },
    /// Evaluate Lua against the current state (read-only; `lua! CODE` or `=! EXPR` applies it); `g` is the game
    Lua { code: Vec<String> },
    /// Show the clocks, or set them: `clock 15m`, `clock 15m+5s`, `clock off`
    Clock { spec: Option<String> },
    /// Re-read the variant's YAML and Lua and replay the game under the new rules
    Reload,
    /// Reload whenever the variant's YAML or Lua files are saved (`watch off` stops)
    Watch { off: Option<String> },
    /// Change an option and reload: `set rescues 2`
    Set { name: String, value: String },
    /// Show help for all commands, or one
    Help { command: Option<String> },
    /// Leave the REPL
    #[command(alias = "exit")]
    Quit,
}

/// Parses `name=value` pairs.
pub fn parse_pairs(items: &[String]) -> Result<Vec<(String, String)>, String> {
    items
        .iter()
        .map(|s| {
            s.split_once('=')
                .map(|(a, b)| (a.trim().to_string(), b.trim().to_string()))
                .ok_or_else(|| format!("expected NAME=VALUE, found `{s}`"))
        })
        .collect()
}

/// What a command asks of the caller besides its output.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
    /// Start (true) or stop (false) watching the variant's files.
    Watch(bool),
}

/// One action played in a session: its text, the state before it, and what
/// it did (compared by `reload`).
#[derive(Clone, Debug)]
pub struct Played {
    pub text: String,
    pub before: GameState,
    pub events: Vec<Event>,
}

/// What `reload` found when it replayed the game under the new rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReloadReport {
    /// Every action plays as before.
    Same { actions: usize },
    /// Action `index` (1-based) is now illegal; the game stops before it.
    Illegal {
        index: usize,
        text: String,
        reason: String,
    },
    /// Action `index` now has other effects; the game stops after it.
    Changed {
        index: usize,
        text: String,
        before: Vec<String>,
        after: Vec<String>,
    },
}

pub struct Session {
    pub engine: Engine,
    variant_arg: String,
    overrides: Vec<(String, String)>,
    pub start: GameState,
    pub state: GameState,
    /// The actions played from `start`.
    pub history: Vec<Played>,
    pub viewer: Viewer,
    last: Option<(Cell, Cell)>,
    rng: ChaCha8Rng,
    /// Whether boards are drawn with ANSI colours.
    pub color: bool,
    /// The clock spec and the running clock, if the game is timed.
    clock: Option<(String, Clock)>,
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
    let text = if Path::new(file).is_file() {
        let all = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
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
    engine.parse_setup(player, &text, back_first).map(Some)
}

impl Session {
    pub fn new(
        variant: &str,
        overrides: &[(String, String)],
        seed: u64,
    ) -> Result<Session, String> {
        let engine = Engine::load(variant, overrides).map_err(|e| e.to_string())?;
        let state = engine.new_game(seed, &[]);
        Ok(Session {
            engine,
            variant_arg: variant.to_string(),
            overrides: overrides.to_vec(),
            start: state.clone(),
            state,
            history: Vec::new(),
            viewer: Viewer::Omniscient,
            last: None,
            rng: ChaCha8Rng::seed_from_u64(seed.wrapping_add(1)),
            color: false,
            clock: None,
        })
    }

    /// Times the game with a clock (`15m`, `15m+5s`); `None` removes it.
    pub fn set_clock(&mut self, spec: Option<&str>) -> Result<(), String> {
        self.set_clock_with(spec, None)
    }

    /// Like [`Session::set_clock`], reading the time from `source` (tests).
    pub fn set_clock_with(
        &mut self,
        spec: Option<&str>,
        source: Option<crate::front::clock::TimeSource>,
    ) -> Result<(), String> {
        self.clock = match spec {
            None => None,
            Some(spec) => {
                let mut c = Clock::parse(spec, self.engine.variant.players.len())?;
                if let Some(src) = source {
                    c = c.with_time_source(src);
                }
                if let Some(p) = self.engine.acting_player(&self.state) {
                    c.start(p);
                }
                Some((spec.to_string(), c))
            }
        };
        Ok(())
    }

    /// Stops the running clock without charging an increment (a player away).
    pub fn pause_clock(&mut self) {
        if let Some((_, c)) = &mut self.clock {
            c.pause();
        }
    }

    /// Starts the clock again for the player who must act.
    pub fn resume_clock(&mut self) {
        if let Some(p) = self.engine.acting_player(&self.state) {
            if let Some((_, c)) = &mut self.clock {
                c.start(p);
            }
        }
    }

    pub fn clock_text(&self) -> Option<String> {
        self.clock
            .as_ref()
            .map(|(_, c)| c.display(&self.engine.variant.players))
    }

    fn reset_to(&mut self, state: GameState) {
        self.rng = ChaCha8Rng::seed_from_u64(state.seed.wrapping_add(1));
        self.start = state.clone();
        self.state = state;
        self.history.clear();
        self.last = None;
        if let Some((spec, _)) = self.clock.take() {
            let _ = self.set_clock(Some(&spec));
        }
    }

    /// The board from the current viewpoint.
    pub fn board(&self, viewer: Viewer) -> String {
        let view = self.engine.view(&self.state, viewer);
        let mut out = self.engine.render_styled(&view, self.last, self.color);
        for line in self.engine.captured_summary(&self.state, viewer) {
            out.push_str(&line);
            out.push('\n');
        }
        out
    }

    /// Plays one action given as text; returns the events as the current
    /// viewer sees them.
    pub fn play(&mut self, text: &str) -> Result<String, String> {
        let action = self
            .engine
            .parse_action(&self.state, text)
            .map_err(|e| format!("{text}: {e}"))?;
        self.play_action(action).map_err(|e| format!("{text}: {e}"))
    }

    fn play_action(&mut self, action: Action) -> Result<String, String> {
        if let Some((_, clock)) = &mut self.clock {
            if let Some(p) = self.engine.acting_player(&self.state) {
                if clock.flagged(p) {
                    clock.stop();
                    self.engine.lose_on_time(&mut self.state, p);
                    return Err(format!(
                        "too late: {}",
                        self.engine
                            .outcome_text(self.state.outcome.as_ref().expect("just set"))
                    ));
                }
            }
        }
        let before = self.state.clone();
        let canonical = self.engine.action_text(&self.state, &action);
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
        let lines = self.engine.event_lines(&self.state, &events, self.viewer);
        Ok(format!("{canonical}\n  {}", lines.join("\n  ")))
    }

    /// Re-reads the variant's files (and the variants it extends) and replays
    /// the game under the new rules. A load error leaves rules and game
    /// untouched. Otherwise the game is kept up to the first action that is
    /// now illegal (excluded) or plays differently (included).
    pub fn reload(&mut self) -> Result<ReloadReport, String> {
        let path = self.engine.variant.path.display().to_string();
        let engine = Engine::load(&path, &self.overrides).map_err(|e| e.to_string())?;
        self.replay_under(engine)
    }

    /// Replays the current game under `engine` (see [`Session::reload`]).
    pub fn replay_under(&mut self, engine: Engine) -> Result<ReloadReport, String> {
        let pos = self.engine.to_position(&self.start);
        let start = engine
            .from_position(&pos)
            .map_err(|e| format!("the game's start position does not fit the new rules: {e}"))?;
        let mut state = start.clone();
        let mut history = Vec::new();
        let mut report = ReloadReport::Same {
            actions: self.history.len(),
        };
        for (i, old) in self.history.iter().enumerate() {
            let before = state.clone();
            let applied = engine
                .parse_action(&state, &old.text)
                .and_then(|a| engine.apply(&mut state, &a));
            match applied {
                Err(e) => {
                    report = ReloadReport::Illegal {
                        index: i + 1,
                        text: old.text.clone(),
                        reason: e.to_string(),
                    };
                    break;
                }
                Ok(events) => {
                    let changed = events != old.events;
                    if changed {
                        report = ReloadReport::Changed {
                            index: i + 1,
                            text: old.text.clone(),
                            before: self.engine.event_lines(
                                &self
                                    .history
                                    .get(i + 1)
                                    .map(|p| p.before.clone())
                                    .unwrap_or_else(|| self.state.clone()),
                                &old.events,
                                Viewer::Omniscient,
                            ),
                            after: engine.event_lines(&state, &events, Viewer::Omniscient),
                        };
                    }
                    history.push(Played {
                        text: old.text.clone(),
                        before,
                        events,
                    });
                    if changed {
                        break;
                    }
                }
            }
        }
        self.engine = engine;
        self.start = start;
        self.state = state;
        self.history = history;
        self.last = None;
        Ok(report)
    }

    /// The files a reload re-reads: the YAML chain and the scripts.
    pub fn watched_files(&self) -> Vec<std::path::PathBuf> {
        let v = &self.engine.variant;
        v.files
            .iter()
            .cloned()
            .chain(v.scripts.iter().map(|(p, _)| p.clone()))
            .collect()
    }

    /// Sets an option (`set NAME VALUE`) and reloads.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<ReloadReport, String> {
        let mut overrides: Vec<(String, String)> = self
            .overrides
            .iter()
            .filter(|(k, _)| k != name)
            .cloned()
            .collect();
        overrides.push((name.to_string(), value.to_string()));
        let path = self.engine.variant.path.display().to_string();
        let engine = Engine::load(&path, &overrides).map_err(|e| e.to_string())?;
        let report = self.replay_under(engine)?;
        self.overrides = overrides;
        Ok(report)
    }

    pub fn report_text(&self, report: &ReloadReport) -> String {
        match report {
            ReloadReport::Same { actions } => {
                format!("reloaded {}: all {actions} actions play as before", self.engine.variant.name)
            }
            ReloadReport::Illegal { index, text, reason } => format!(
                "reloaded {}: action {index} ({text}) is now illegal: {reason}\nthe game is kept up to action {}",
                self.engine.variant.name,
                index - 1
            ),
            ReloadReport::Changed { index, text, before, after } => format!(
                "reloaded {}: action {index} ({text}) now plays differently\n  before: {}\n  now:    {}\nthe game is kept up to action {index}",
                self.engine.variant.name,
                before.join("; "),
                after.join("; ")
            ),
        }
    }

    /// The game as one viewer saw it (see [`PlayerRecord`]).
    pub fn player_record(&self, viewer: Viewer) -> PlayerRecord {
        let e = &self.engine;
        let actions = self
            .history
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let after = self.history.get(i + 1).map(|n| &n.before).unwrap_or(&self.state);
                // Another player's answer to a choice is not shown.
                let hidden = matches!(viewer, Viewer::Player(v) if e.acting_player(&p.before) != Some(v))
                    && !p.before.pending.is_empty();
                SeenAction {
                    action: if hidden { "(a choice)".into() } else { p.text.clone() },
                    events: e.event_lines(after, &p.events, viewer),
                }
            })
            .collect();
        PlayerRecord {
            variant: e.variant.id(),
            viewer: e.viewer_name(viewer),
            start: e.view(&self.start, viewer),
            actions,
            result: self.state.outcome.as_ref().map(|o| e.outcome_text(o)),
        }
    }

    pub fn record(&self) -> Record {
        let start = self.engine.to_position(&self.start);
        Record {
            variant: start.variant.clone(),
            options: start.options.clone(),
            start,
            actions: self.history.iter().map(|p| p.text.clone()).collect(),
            result: self
                .state
                .outcome
                .as_ref()
                .map(|o| self.engine.outcome_text(o)),
        }
    }

    /// Replays a record's actions from its start; stops at the first action
    /// that fails, naming its index.
    pub fn load_record(&mut self, rec: &Record) -> Result<String, String> {
        let overrides = crate::record::overrides(&rec.options);
        let engine = Engine::load(&rec.variant, &overrides).map_err(|e| e.to_string())?;
        let start = engine.from_position(&rec.start)?;
        self.engine = engine;
        self.variant_arg = rec.variant.clone();
        self.overrides = overrides;
        self.reset_to(start);
        for (i, a) in rec.actions.iter().enumerate() {
            self.play(a)
                .map_err(|e| format!("action {} of the record: {e}", i + 1))?;
        }
        Ok(format!("replayed {} actions", rec.actions.len()))
    }

    /// Runs one command line.
    pub fn execute(&mut self, line: &str) -> Result<(String, Flow), String> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Ok((String::new(), Flow::Continue));
        }
        if let Some(code) = line
            .strip_prefix("=!")
            .or_else(|| line.strip_prefix("lua! "))
        {
            // Applied: the changed state becomes the start of a new game
            // record (what it did is not an action of the game).
            let mut copy = self.state.clone();
            let out = self
                .engine
                .rules
                .eval_mut(&mut copy, &self.engine.variant, code)?;
            copy.check_consistency()?;
            self.reset_to(copy);
            return Ok((
                format!(
                    "{out}\napplied: the game restarts from this position (history cleared)\n{}",
                    self.board(self.viewer)
                ),
                Flow::Continue,
            ));
        }
        if let Some(code) = line.strip_prefix('=').or_else(|| line.strip_prefix("lua ")) {
            return self
                .engine
                .rules
                .eval(&self.state, &self.engine.variant, code)
                .map(|s| (s, Flow::Continue));
        }
        let words = split_words(line);
        let cmd = match Command::try_parse_from(&words) {
            Ok(c) => c,
            Err(e) => {
                // A bare action plays it.
                if words.len() == 1 && self.engine.parse_action(&self.state, &words[0]).is_ok() {
                    return self.play(&words[0]).map(|s| (s, Flow::Continue));
                }
                // So does a whole line that is an action's label (`flip c3`).
                let whole = line.trim();
                if words.len() > 1 && self.engine.parse_action(&self.state, whole).is_ok() {
                    return self.play(whole).map(|s| (s, Flow::Continue));
                }
                if e.kind() == clap::error::ErrorKind::InvalidSubcommand {
                    return Err(format!(
                        "unknown command `{}` (and not an action); try `help`",
                        words[0]
                    ));
                }
                return Err(e.render().to_string().trim_end().to_string());
            }
        };
        let out = match cmd {
            Command::Quit => return Ok((String::new(), Flow::Quit)),
            Command::Help { command } => help_text(command.as_deref())?,
            Command::Load {
                variant,
                options,
                seed,
            } => {
                let overrides = parse_pairs(&options)?;
                let clock = self.clock.as_ref().map(|(spec, _)| spec.clone());
                let color = self.color;
                *self = Session::new(&variant, &overrides, seed.unwrap_or(self.state.seed))?;
                self.color = color;
                self.set_clock(clock.as_deref())?;
                format!(
                    "loaded {} ({})\n{}",
                    self.engine.variant.name,
                    self.engine.variant.path.display(),
                    self.board(self.viewer)
                )
            }
            Command::New {
                seed,
                setups,
                front_first,
            } => {
                let back_first = !front_first;
                let seed = seed.unwrap_or_else(|| self.state.seed.wrapping_add(1));
                let mut specs: Vec<Option<Vec<(Cell, KindId)>>> =
                    vec![None; self.engine.variant.players.len()];
                for (player, spec) in parse_pairs(&setups)? {
                    let p = self.engine.player_id(&player)?;
                    specs[p as usize] = read_setup_spec(&self.engine, p, &spec, back_first)?;
                }
                let state = self.engine.new_game(seed, &specs);
                self.reset_to(state);
                format!("new game, seed {seed}\n{}", self.board(self.viewer))
            }
            Command::Show { viewer } => {
                let v = self.engine.viewer_or(viewer.as_deref(), self.viewer)?;
                self.board(v)
            }
            Command::ViewAs { viewer } => {
                self.viewer = self.engine.viewer_or(Some(&viewer), self.viewer)?;
                self.board(self.viewer)
            }
            Command::Actions => {
                let acts = self.engine.legal_actions(&self.state);
                let texts: Vec<String> = acts
                    .iter()
                    .map(|a| self.engine.action_text(&self.state, a))
                    .collect();
                match self.engine.acting_player(&self.state) {
                    None => "the game is over".to_string(),
                    Some(p) => format!(
                        "{} actions for {}:\n{}",
                        texts.len(),
                        self.engine.player_name(p),
                        wrap(&texts)
                    ),
                }
            }
            Command::Play { actions } => {
                // Actions are words (`a4-a5 b7-b6`), except a label with
                // spaces (`suicide e5`, `flip c3`): words that only read
                // together as an action are played as one.
                let mut out = Vec::new();
                let mut i = 0;
                while i < actions.len() {
                    let mut take = 1;
                    if self.engine.parse_action(&self.state, &actions[i]).is_err() {
                        for j in (i + 2..=actions.len()).rev() {
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
                out.join("\n")
            }
            Command::Random { n } => {
                let mut out = Vec::new();
                for _ in 0..n.unwrap_or(1) {
                    let mut acts = self.engine.legal_actions(&self.state);
                    acts.retain(|a| !a.is_social());
                    if acts.is_empty() {
                        break;
                    }
                    let a = acts[self.rng.random_range(0..acts.len())];
                    out.push(self.play_action(a)?);
                }
                out.join("\n")
            }
            Command::Bot { agent } => {
                let spec =
                    crate::play::agent::AgentSpec::parse(agent.as_deref().unwrap_or("mcts"))?;
                let mut bot = spec.build(self.rng.random());
                let a = crate::play::agent::agent_action(&self.engine, bot.as_mut(), &self.state)
                    .ok_or("there is nothing to play: the game is over or nobody can act")?;
                self.play_action(a)?
            }
            Command::Undo { n } => {
                let n = n.unwrap_or(1).min(self.history.len());
                for _ in 0..n {
                    let played = self.history.pop().expect("n bounded by history");
                    self.state = played.before;
                }
                self.last = None;
                format!("took back {n} action(s)\n{}", self.board(self.viewer))
            }
            Command::History => {
                let texts: Vec<String> = self
                    .history
                    .iter()
                    .enumerate()
                    .map(|(i, p)| format!("{}. {}", i + 1, p.text))
                    .collect();
                if texts.is_empty() {
                    "no actions yet".into()
                } else {
                    texts.join("\n")
                }
            }
            Command::Options => {
                let v = &self.engine.variant;
                if v.options.is_empty() {
                    "this variant has no options".into()
                } else {
                    v.options
                        .iter()
                        .map(|o| {
                            format!(
                                "{} = {} (default {}): {}",
                                o.name, o.value, o.default, o.doc
                            )
                        })
                        .collect::<Vec<_>>()
                        .join("\n")
                }
            }
            Command::Pieces => self
                .engine
                .variant
                .kinds
                .iter()
                .map(|k| {
                    format!(
                        "{:<12} {:>3}  rank {:>2}  x{}  {}",
                        k.name,
                        k.symbol,
                        k.rank,
                        k.count,
                        if k.is_mobile() {
                            "moves"
                        } else {
                            "never moves"
                        }
                    )
                })
                .collect::<Vec<_>>()
                .join("\n"),
            Command::Position { fen } => {
                let state = self.engine.parse_fen(&fen.join(" "), self.state.seed)?;
                self.reset_to(state);
                format!(
                    "position set (the history starts here)\n{}",
                    self.board(self.viewer)
                )
            }
            Command::Fen => self.engine.to_fen(&self.state),
            Command::SavePosition { file } => {
                let text = to_yaml(&self.engine.to_position(&self.state))?;
                std::fs::write(&file, text).map_err(|e| format!("{file}: {e}"))?;
                format!("saved position to {file}")
            }
            Command::LoadPosition { file } => {
                let pos: Position = read_yaml(Path::new(&file))?;
                // Into the loaded variant when the position fits it (so a
                // position can be tried under a house rule), else into the
                // variant the file names.
                let current = (pos.options.is_empty())
                    .then(|| self.engine.from_position(&pos).ok())
                    .flatten();
                let note = match current {
                    Some(state) => {
                        self.reset_to(state);
                        format!(
                            "loaded position from {file} into {}",
                            self.engine.variant.name
                        )
                    }
                    None => {
                        let overrides = crate::record::overrides(&pos.options);
                        let engine =
                            Engine::load(&pos.variant, &overrides).map_err(|e| e.to_string())?;
                        let state = engine
                            .from_position(&pos)
                            .map_err(|e| format!("{file}: {e}"))?;
                        self.engine = engine;
                        self.variant_arg = pos.variant.clone();
                        self.overrides = overrides;
                        self.reset_to(state);
                        format!(
                            "loaded position from {file} (variant {})",
                            self.engine.variant.name
                        )
                    }
                };
                format!("{note}\n{}", self.board(self.viewer))
            }
            Command::Svg { file, as_viewer } => {
                let v = self.engine.viewer_or(as_viewer.as_deref(), self.viewer)?;
                let svg = self
                    .engine
                    .render_svg(&self.engine.view(&self.state, v), self.last);
                std::fs::write(&file, svg).map_err(|e| format!("{file}: {e}"))?;
                format!(
                    "saved the board as {} sees it to {file}",
                    self.engine.viewer_name(v)
                )
            }
            Command::SaveRecord {
                file,
                as_viewer: Some(v),
            } => {
                let v = self.engine.viewer_or(Some(&v), self.viewer)?;
                let text = to_yaml(&self.player_record(v))?;
                std::fs::write(&file, text).map_err(|e| format!("{file}: {e}"))?;
                format!(
                    "saved {}'s record of {} actions to {file}",
                    self.engine.viewer_name(v),
                    self.history.len()
                )
            }
            Command::SaveRecord {
                file,
                as_viewer: None,
            } => {
                let text = to_yaml(&self.record())?;
                std::fs::write(&file, text).map_err(|e| format!("{file}: {e}"))?;
                format!("saved record of {} actions to {file}", self.history.len())
            }
            Command::LoadRecord { file } => {
                let rec: Record = read_yaml(Path::new(&file))?;
                let msg = self.load_record(&rec)?;
                format!("{msg}\n{}", self.board(self.viewer))
            }
            Command::Watch { off } => {
                let on = off.as_deref() != Some("off");
                let files: Vec<String> = self
                    .watched_files()
                    .iter()
                    .map(|p| crate::rules::variant::display_path(p))
                    .collect();
                let msg = if on {
                    format!("watching {}", files.join(", "))
                } else {
                    "stopped watching".to_string()
                };
                return Ok((msg, Flow::Watch(on)));
            }
            Command::Reload => {
                let report = self.reload()?;
                format!("{}\n{}", self.report_text(&report), self.board(self.viewer))
            }
            Command::Set { name, value } => {
                let report = self.set_option(&name, &value)?;
                format!("{name} = {value}\n{}", self.report_text(&report))
            }
            Command::Clock { spec } => {
                match spec.as_deref() {
                    Some("off") => self.set_clock(None)?,
                    Some(spec) => self.set_clock(Some(spec))?,
                    None => {}
                }
                self.clock_text()
                    .unwrap_or_else(|| "no clock (try `clock 15m`)".into())
            }
            Command::Lua { code } => {
                self.engine
                    .rules
                    .eval(&self.state, &self.engine.variant, &code.join(" "))?
            }
        };
        Ok((out, Flow::Continue))
    }

    pub fn variant_arg(&self) -> (&str, &[(String, String)]) {
        (&self.variant_arg, &self.overrides)
    }
}

/// Help for every command, or for one, from the command table.
pub fn help_text(command: Option<&str>) -> Result<String, String> {
    let mut cmd = Command::command();
    match command {
        None => {
            let mut out = String::from("Commands (an action such as a4-a5 alone on a line plays it; `=EXPR` evaluates Lua):\n");
            for sub in cmd.get_subcommands() {
                out.push_str(&format!(
                    "  {:<14} {}\n",
                    sub.get_name(),
                    sub.get_about().map(|a| a.to_string()).unwrap_or_default()
                ));
            }
            Ok(out)
        }
        Some(name) => {
            let sub = cmd
                .find_subcommand_mut(name)
                .ok_or_else(|| format!("no command `{name}`; try `help`"))?;
            Ok(sub.render_long_help().to_string())
        }
    }
}

/// Names of the REPL commands (for completion).
pub fn command_names() -> Vec<String> {
    Command::command()
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect()
}

fn split_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut quote = None;
    for ch in line.chars() {
        match (quote, ch) {
            (None, '"' | '\'') => quote = Some(ch),
            (Some(q), c) if c == q => quote = None,
            (None, c) if c.is_whitespace() => {
                if !cur.is_empty() {
                    words.push(std::mem::take(&mut cur));
                }
            }
            (_, c) => cur.push(c),
        }
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

fn wrap(items: &[String]) -> String {
    let mut out = String::new();
    let mut width = 0;
    for it in items {
        if width + it.len() + 1 > 78 && width > 0 {
            out.push('\n');
            width = 0;
        }
        if width > 0 {
            out.push(' ');
            width += 1;
        }
        out.push_str(it);
        width += it.len();
    }
    out
}
