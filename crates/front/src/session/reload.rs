//! How a running game follows changed rules: reloading the variant's files,
//! replaying the game under them and reporting where it diverges, changing
//! an option, and which files to watch.

use super::{Flow, Played, Session};
use crate::engine::Engine;
use crate::record::game::Positions;
use crate::record::view::Viewer;
use crate::record::view::Views;

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

impl Session {
    /// Re-reads the variant's files (and the variants it extends) and replays
    /// the game under the new rules. A load error leaves rules and game
    /// untouched. Otherwise the game is kept up to the first action that is
    /// now illegal (excluded) or plays differently (included).
    pub fn reload(&mut self) -> Result<ReloadReport, String> {
        let path = self.engine.variant.path.display().to_string();
        let engine = Engine::load(&path, &self.overrides).map_err(|e| e.to_string())?;
        self.replay_under(engine)
    }

    /// The session's variant read again from its files under the session's
    /// options, the game untouched: the load's problems, each at its file,
    /// line and column, when it fails.
    pub fn load_again(&self) -> Result<Engine, crate::rules::variant::LoadError> {
        let path = self.engine.variant.path.display().to_string();
        Engine::load(&path, &self.overrides)
    }

    /// The problems of the variant's own YAML if it held `text` (read as
    /// if at its path, under the session's options): the schema's and the
    /// validation's, which need no script to run. None when it loads.
    pub fn check_variant_text(&self, text: &str) -> Vec<crate::rules::variant::Diagnostic> {
        let path = &self.engine.variant.path;
        match crate::rules::variant::Variant::from_str(text, path, &self.overrides) {
            Ok(_) => Vec::new(),
            Err(e) => e.0,
        }
    }

    /// Replays the current game under `engine` (see [`Session::reload`]).
    pub fn replay_under(&mut self, engine: Engine) -> Result<ReloadReport, String> {
        let pos = Positions::new(&self.engine).to_position(&self.start);
        let start = Positions::new(&engine)
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
                            before: self.views().event_lines(
                                &self
                                    .history
                                    .get(i + 1)
                                    .map(|p| p.before.clone())
                                    .unwrap_or_else(|| self.state.clone()),
                                &old.events,
                                Viewer::Omniscient,
                            ),
                            after: Views::new(&engine).event_lines(
                                &state,
                                &events,
                                Viewer::Omniscient,
                            ),
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
                "reloaded {}: action {index} ({text}) is now illegal: {}\nthe game is kept up to action {}",
                self.engine.variant.name,
                reason.strip_prefix("illegal: ").unwrap_or(reason),
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

    /// `watch [off]`: which files are watched; the caller starts or stops
    /// the watching.
    pub(super) fn watch(&self, off: Option<&str>) -> (String, Flow) {
        let on = off != Some("off");
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
        (msg, Flow::Watch(on))
    }

    /// `reload`: the report and the board.
    pub(super) fn reload_text(&mut self) -> Result<String, String> {
        let report = self.reload()?;
        Ok(format!(
            "{}\n{}",
            self.report_text(&report),
            self.board(self.viewer)
        ))
    }

    /// `set NAME VALUE`: the option and the report.
    pub(super) fn set_text(&mut self, name: &str, value: &str) -> Result<String, String> {
        let report = self.set_option(name, value)?;
        Ok(format!("{name} = {value}\n{}", self.report_text(&report)))
    }
}
