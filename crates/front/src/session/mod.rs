//! What a session holds: one loaded variant and one game, its history,
//! viewpoint and clock.
//!
//! `Session::execute(line)` (in `commands`) is the single entry point used by
//! the REPL, the scripted (piped) REPL and tests. Commands are declared once,
//! as a clap `multicall` parser, and `help` is generated from that table; each
//! command's body lives with its group: `game` (starting games, playing
//! actions, bots, the clock), `inspect` (what is shown), `records`
//! (positions, records and pictures in files), `reload` (new rules under a
//! running game).

mod arrange;
mod commands;
mod formats;
mod game;
mod inspect;
mod records;
mod reload;
mod remote;

pub use arrange::{setup_prompt, setup_seats, ArmyKind, Arrangement, SetupPrompt};
pub use commands::{command_names, help_text, Command};
pub use game::read_setup_spec;
pub use reload::ReloadReport;

use crate::record::view::Views;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::base::geometry::Cell;
use crate::base::state::GameState;
use crate::clock::Clock;
use crate::engine::{Engine, Event};
use crate::record::exchange::Notes;
use crate::record::view::Viewer;

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
    /// A person at a terminal: a line that plays redraws the board
    /// (`Session::open_interactive`).
    pub interactive: bool,
    /// The clock spec and the running clock, if the game is timed.
    clock: Option<(String, Clock)>,
    /// Tags, comments and annotations of a record read from a players'
    /// format (PGN, SGF, PDN), written back when it is saved in one.
    pub notes: Notes,
}

impl Session {
    /// What each viewer is shown of this game's engine (views, event lines,
    /// the text board).
    pub fn views(&self) -> Views<'_> {
        Views::new(&self.engine)
    }

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
            interactive: false,
            clock: None,
            notes: Notes::default(),
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
        source: Option<crate::clock::TimeSource>,
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

    /// The clock's spec (`15m+5s`), if the game is timed.
    pub fn clock_spec(&self) -> Option<&str> {
        self.clock.as_ref().map(|(s, _)| s.as_str())
    }

    /// Each player's remaining time in milliseconds, if the game is timed.
    pub fn clock_millis(&self) -> Option<Vec<u64>> {
        self.clock.as_ref().map(|(_, c)| {
            (0..self.engine.variant.players.len())
                .map(|p| c.remaining(p as crate::base::state::PlayerId).as_millis() as u64)
                .collect()
        })
    }

    /// Sets each player's remaining time (milliseconds); the clock stops.
    pub fn set_clock_millis(&mut self, millis: &[u64]) {
        if let Some((_, c)) = &mut self.clock {
            let times: Vec<_> = millis
                .iter()
                .map(|&m| std::time::Duration::from_millis(m))
                .collect();
            c.set_remaining(&times);
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
        self.notes = Notes::default();
        if let Some((spec, _)) = self.clock.take() {
            let _ = self.set_clock(Some(&spec));
        }
    }

    /// The board from the current viewpoint.
    pub fn board(&self, viewer: Viewer) -> String {
        let view = self.views().view(&self.state, viewer);
        let mut out = self.views().render_styled(&view, self.last, self.color);
        // Containers the picture already lists (boats) are not repeated.
        for line in self.views().captured_summary(&self.state, viewer) {
            let key = line.split(':').next().unwrap_or_default();
            if !out.contains(&format!("  {key}:")) {
                out.push_str(&line);
                out.push('\n');
            }
        }
        out
    }

    pub fn variant_arg(&self) -> (&str, &[(String, String)]) {
        (&self.variant_arg, &self.overrides)
    }
}
