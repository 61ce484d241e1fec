//! Records in the formats players use (PGN, SGF, PDN: see
//! [`crate::record::exchange`]) saved from and loaded into a session. A
//! record for one viewer (`--as`) is written only when that viewer saw the
//! whole game: these formats hold every move as it was played, so a game
//! with anything hidden from the viewer is refused rather than shown.

use crate::record::view::Views;
use std::path::Path;

use super::Session;
use crate::base::limits::read_user_file;
use crate::base::state::GameState;
use crate::base::write::write_user_file;
use crate::record::exchange::{export_text, import_text, Format};
use crate::record::view::Viewer;

/// The players' format a file is saved or read in: `--format` (`yaml`
/// for the host's own), else the extension; `None` for YAML.
pub(super) fn format_of(file: &str, format: Option<&str>) -> Result<Option<Format>, String> {
    match format {
        Some(f) if f.eq_ignore_ascii_case("yaml") || f.eq_ignore_ascii_case("yml") => Ok(None),
        Some(f) => Format::named(f).map(Some),
        None => Ok(Format::of_path(Path::new(file))),
    }
}

impl Session {
    /// Whether `v` saw everything of the game: every position's view and
    /// every action's events the same as the omniscient viewer's.
    fn saw_everything(&self, v: Viewer) -> bool {
        let e = &self.engine;
        let same = |s: &GameState| {
            let mut a = Views::new(e).view(s, v);
            let mut b = Views::new(e).view(s, Viewer::Omniscient);
            a.viewer.clear();
            b.viewer.clear();
            a == b
        };
        let afters = self
            .history
            .iter()
            .skip(1)
            .map(|p| &p.before)
            .chain(std::iter::once(&self.state));
        same(&self.start)
            && self.history.iter().zip(afters).all(|(p, after)| {
                same(after)
                    && Views::new(e).event_lines(after, &p.events, v)
                        == Views::new(e).event_lines(after, &p.events, Viewer::Omniscient)
            })
    }

    /// The game in a players' format, with the notes of the record it was
    /// read from.
    pub fn exchange_text(&self, format: Format) -> Result<String, String> {
        let actions: Vec<String> = self.history.iter().map(|p| p.text.clone()).collect();
        export_text(&self.engine, &self.start, &actions, &self.notes, format)
    }

    pub(super) fn save_exchange(
        &self,
        file: &str,
        as_viewer: Option<&str>,
        format: Format,
    ) -> Result<String, String> {
        let who = match as_viewer {
            Some(v) => {
                let v = self.views().viewer_or(Some(v), self.viewer)?;
                if !self.saw_everything(v) {
                    return Err(format!(
                        "{} did not see the whole game, and a {} record holds every move as played: save {}'s record as YAML (`save-record FILE.yaml --as {}`)",
                        self.views().viewer_name(v),
                        format.name().to_uppercase(),
                        self.views().viewer_name(v),
                        self.views().viewer_name(v)
                    ));
                }
                format!("{}'s ", self.views().viewer_name(v))
            }
            None => String::new(),
        };
        let text = self.exchange_text(format)?;
        write_user_file(Path::new(file), file, text)?;
        Ok(format!(
            "saved {who}record of {} actions to {file} as {}",
            self.history.len(),
            format.name().to_uppercase()
        ))
    }

    /// Loads a players' format's first game; the session is unchanged
    /// unless the whole game played.
    pub(super) fn load_exchange(
        &mut self,
        file: &str,
        variant: Option<&str>,
        format: Format,
    ) -> Result<String, String> {
        let text = read_user_file(Path::new(file), file)?;
        let mut games = import_text(&text, file, format, variant)?;
        let count = games.len();
        let first = games.swap_remove(0);
        let msg = self.load_record(&first.record)?;
        self.notes = first.notes;
        let of = if count > 1 {
            format!(" (game 1 of the {count} in the file)")
        } else {
            String::new()
        };
        Ok(format!(
            "{msg}{of} of {}\n{}",
            self.engine.variant.name,
            self.board(self.viewer)
        ))
    }
}
