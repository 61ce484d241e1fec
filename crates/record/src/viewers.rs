//! Viewers by name: the names `show`, `--as` and the protocol use for each
//! player, the public and the omniscient viewer, read and written.

use crate::base::state::PlayerId;
use crate::view::{Viewer, Views};

impl Views<'_> {
    /// The name a viewer goes by (`red`, `public`, `omniscient`).
    pub fn viewer_name(&self, v: Viewer) -> String {
        match v {
            Viewer::Player(p) => self.engine.player_name(p).to_string(),
            Viewer::Public => "public".into(),
            Viewer::Omniscient => "omniscient".into(),
        }
    }

    /// Parses `red`, `blue`, ..., `public` or `all`/`omniscient`.
    pub fn parse_viewer(&self, text: &str) -> Option<Viewer> {
        match text {
            "all" | "omniscient" | "god" => Some(Viewer::Omniscient),
            "public" | "spectator" => Some(Viewer::Public),
            name => self
                .engine
                .variant
                .player_index(name)
                .map(|p| Viewer::Player(p as PlayerId)),
        }
    }

    /// The viewer named by `text`, or `default` when none is given.
    pub fn viewer_or(&self, text: Option<&str>, default: Viewer) -> Result<Viewer, String> {
        match text {
            None => Ok(default),
            Some(t) => self.parse_viewer(t).ok_or_else(|| {
                format!(
                    "unknown viewer `{t}` (a player: {}; or public, all)",
                    self.engine.variant.players.join(", ")
                )
            }),
        }
    }
}
