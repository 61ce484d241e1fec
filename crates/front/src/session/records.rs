//! Positions, records and pictures in files: what is saved and loaded, from
//! a FEN-like line, position and record YAML (whole, or as one player saw
//! the game), and SVG.

use crate::record::game::Positions;
use crate::record::view::Views;
use crate::render::Svg;
use std::path::Path;

use super::Session;
use crate::base::write::{write_user_file, Held};
use crate::engine::Engine;
use crate::record::view::{Viewer, HIDDEN_CHOICE};
use crate::record::{read_yaml, to_yaml, PlayerRecord, Position, Record, SeenAction};

impl Session {
    /// The game as one viewer saw it (see [`PlayerRecord`]).
    pub fn player_record(&self, viewer: Viewer) -> PlayerRecord {
        let e = &self.engine;
        let actions = self
            .history
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let after = self
                    .history
                    .get(i + 1)
                    .map(|n| &n.before)
                    .unwrap_or(&self.state);
                // Another player's answer to a choice that is not public
                // is not shown.
                let hidden = p
                    .before
                    .pending
                    .first()
                    .is_some_and(|c| !viewer.sees_choice(c.player, c.public));
                SeenAction {
                    action: if hidden {
                        HIDDEN_CHOICE.into()
                    } else if self.views().hides_action(&p.before, viewer) {
                        crate::record::fog::HIDDEN_ACTION.into()
                    } else {
                        p.text.clone()
                    },
                    events: Views::new(e).event_lines(after, &p.events, viewer),
                }
            })
            .collect();
        PlayerRecord {
            variant: e.variant.id(),
            viewer: Views::new(e).viewer_name(viewer),
            start: Views::new(e).view(&self.start, viewer),
            actions,
            result: self
                .state
                .outcome
                .as_ref()
                .map(|o| Views::new(e).outcome_text(o)),
        }
    }

    pub fn record(&self) -> Record {
        let start = Positions::new(&self.engine).to_position(&self.start);
        Record {
            variant: start.variant.clone(),
            options: start.options.clone(),
            start,
            actions: self.history.iter().map(|p| p.text.clone()).collect(),
            result: self
                .state
                .outcome
                .as_ref()
                .map(|o| self.views().outcome_text(o)),
        }
    }

    /// Replays a record's actions from its start; stops at the first action
    /// that fails, naming its index, and then leaves the session as it was
    /// (the record is replayed in a new session that replaces this one only
    /// when the whole record played).
    pub fn load_record(&mut self, rec: &Record) -> Result<String, String> {
        let overrides = crate::record::overrides(&rec.options);
        let engine = Engine::load(&rec.variant, &overrides).map_err(|e| e.to_string())?;
        let start = Positions::new(&engine).from_position(&rec.start)?;
        let mut fresh = Session {
            engine,
            variant_arg: rec.variant.clone(),
            overrides,
            start: start.clone(),
            state: start.clone(),
            history: Vec::new(),
            viewer: self.viewer,
            last: None,
            rng: self.rng.clone(),
            color: self.color,
            interactive: self.interactive,
            clock: self.clock.clone(),
            notes: Default::default(),
        };
        fresh.reset_to(start);
        for (i, a) in rec.actions.iter().enumerate() {
            fresh
                .play(a)
                .map_err(|e| format!("action {} of the record: {e}", i + 1))?;
        }
        *self = fresh;
        Ok(format!("replayed {} actions", rec.actions.len()))
    }

    /// `position FEN`: the game restarts from a FEN-like line.
    pub(super) fn set_position(&mut self, fen: &str) -> Result<String, String> {
        let state = self.engine.parse_fen(fen, self.state.seed)?;
        self.reset_to(state);
        // A PGN record of the game starts from the line as given (with the
        // fields the rules read after the side to move).
        self.notes.tags = vec![
            ("SetUp".into(), "1".into()),
            ("FEN".into(), fen.trim().into()),
        ];
        Ok(format!(
            "position set (the history starts here)\n{}",
            self.board(self.viewer)
        ))
    }

    /// `save-position FILE`.
    pub(super) fn save_position(&self, file: &str) -> Result<String, String> {
        let mut pos = Positions::new(&self.engine).to_position(&self.state);
        pos.variant = self.variant_ref(file);
        let text = to_yaml(&pos)?;
        write_user_file(Path::new(file), file, text)?;
        Ok(format!("saved position to {file}"))
    }

    /// `load-position FILE`: into the loaded variant when the position is
    /// of it or of a variant it extends (so a position can be tried under a
    /// house rule), else into the variant the file names.
    pub(super) fn load_position(&mut self, file: &str) -> Result<String, String> {
        if !Path::new(file).exists() {
            return Err(format!("{file}: no such file"));
        }
        let mut pos: Position = read_yaml(Path::new(file))?;
        pos.variant = crate::record::resolve_variant_ref(&pos.variant, Path::new(file));
        let current = (pos.options.is_empty() && self.variant_includes(&pos.variant))
            .then(|| Positions::new(&self.engine).from_position(&pos).ok())
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
                let engine = Engine::load(&pos.variant, &overrides).map_err(|e| e.to_string())?;
                let state = Positions::new(&engine)
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
        Ok(format!("{note}\n{}", self.board(self.viewer)))
    }

    /// Whether the loaded variant is `name` or extends it (its YAML chain
    /// holds that file); an empty name is taken as the loaded variant.
    fn variant_includes(&self, name: &str) -> bool {
        let files = &self.engine.variant.files;
        let stem = |f: &std::path::PathBuf| f.file_stem().and_then(|s| s.to_str()) == Some(name);
        if name.is_empty() || files.iter().any(stem) {
            return true;
        }
        let Ok(path) = crate::rules::variant::resolve_variant_path(name) else {
            return false;
        };
        let canon = |p: &Path| std::fs::canonicalize(p).ok();
        let want = canon(&path);
        want.is_some() && files.iter().any(|f| canon(f) == want)
    }

    /// `svg FILE [--as VIEWER]`: the board as a picture.
    pub(super) fn save_svg(&self, file: &str, as_viewer: Option<&str>) -> Result<String, String> {
        let v = self.views().viewer_or(as_viewer, self.viewer)?;
        let svg = Svg::new(&self.engine).render_svg(&self.views().view(&self.state, v), self.last);
        write_user_file(Path::new(file), file, svg)?;
        Ok(format!(
            "saved the board as {} sees it to {file}",
            self.views().viewer_name(v)
        ))
    }

    /// `save-record FILE [--as VIEWER] [--format F]`: the whole record,
    /// or what one viewer saw; as PGN, SGF or PDN when the extension or
    /// `--format` says so.
    pub(super) fn save_record(
        &self,
        file: &str,
        as_viewer: Option<&str>,
        format: Option<&str>,
    ) -> Result<String, String> {
        if let Some(f) = super::formats::format_of(file, format)? {
            return self.save_exchange(file, as_viewer, f);
        }
        match as_viewer {
            Some(v) => {
                let v = self.views().viewer_or(Some(v), self.viewer)?;
                let mut rec = self.player_record(v);
                rec.variant = self.variant_ref(file);
                let text = to_yaml(&rec)?;
                write_user_file(Path::new(file), file, text)?;
                Ok(format!(
                    "saved {}'s record of {} actions to {file}",
                    self.views().viewer_name(v),
                    self.history.len()
                ))
            }
            None => {
                let mut rec = self.record();
                rec.variant = self.variant_ref(file);
                rec.start.variant = rec.variant.clone();
                let text = to_yaml(&rec)?;
                write_user_file(Path::new(file), file, text)?;
                Ok(format!(
                    "saved record of {} actions to {file}",
                    self.history.len()
                ))
            }
        }
    }

    /// Keeps the whole record in `file`, replacing it whole (a crash
    /// leaves the record before or after, never a part of one): what
    /// `web --save` does after every change.
    pub fn keep_record(&self, file: &mut Held) -> Result<(), String> {
        let shown = file.path().display().to_string();
        let mut rec = self.record();
        rec.variant = self.variant_ref(&shown);
        rec.start.variant = rec.variant.clone();
        let text = to_yaml(&rec)?;
        file.replace(&shown, text)
    }

    /// [`Session::keep_record`] after a change that left `before` actions
    /// in the history before it: when the record cannot be kept, the
    /// actions the change added are taken back (none is played unkept),
    /// and the error says so.
    pub fn keep_or_take_back(&mut self, file: &mut Held, before: usize) -> Result<(), String> {
        let Err(e) = self.keep_record(file) else {
            return Ok(());
        };
        let added = self.history.len().saturating_sub(before);
        if added == 0 {
            return Err(format!("{e} (the session is not kept)"));
        }
        self.undo(added);
        Err(format!(
            "{e}: the record could not be kept, so the {added} action(s) just played are taken back"
        ))
    }

    /// How a file saved to `file` names the loaded variant so that it
    /// loads again from anywhere (see [`crate::record::variant_ref`]).
    pub(super) fn variant_ref(&self, file: &str) -> String {
        let v = &self.engine.variant;
        crate::record::variant_ref(&v.path, &v.id(), Path::new(file))
    }

    /// `load-record FILE [--variant V] [--format F]`: replays a saved
    /// record (a players' format's first game, its variant from its tags
    /// unless given).
    pub(super) fn load_record_file(
        &mut self,
        file: &str,
        variant: Option<&str>,
        format: Option<&str>,
    ) -> Result<String, String> {
        if let Some(f) = super::formats::format_of(file, format)? {
            return self.load_exchange(file, variant, f);
        }
        let (rec, note) = crate::record::read_record_noted(Path::new(file))?;
        let rec = match rec {
            crate::record::RecordFile::Whole(rec) => rec,
            // One player's record: shown, the game unchanged.
            crate::record::RecordFile::Seen(rec) => {
                let other = if rec.variant == self.engine.variant.id() {
                    None
                } else {
                    Some(Engine::load(&rec.variant, &[]).map_err(|e| e.to_string())?)
                };
                let engine = other.as_ref().unwrap_or(&self.engine);
                return Ok(format!(
                    "{}(the game in the session is unchanged)",
                    rec.text(engine)
                ));
            }
        };
        let msg = self.load_record(&rec)?;
        let note = note.map(|n| format!("warning: {n}\n")).unwrap_or_default();
        Ok(format!("{note}{msg}\n{}", self.board(self.viewer)))
    }
}
