//! Record files of either kind: the host's whole record (replayed), or one
//! player's record (`save-record F --as red`: what that player saw, which
//! is shown but cannot be played on, its hidden pieces being unknown).
//!
//! Changes when a record file gains a kind or its text changes.

use crate::view::Views;
use std::path::Path;

use super::{parse_yaml, PlayerRecord, Record};
use crate::base::limits::read_user_file;
use crate::engine::Engine;

/// A record file as read.
#[derive(Clone, Debug)]
pub enum RecordFile {
    /// The whole game: its start and actions, replayable.
    Whole(Record),
    /// What one viewer saw.
    Seen(PlayerRecord),
}

/// Reads a record file of either kind; a file that is neither names the
/// error of a whole record (the common kind).
pub fn read_record(path: &Path) -> Result<RecordFile, String> {
    read_record_noted(path).map(|(r, _)| r)
}

/// [`read_record`], with where the reading of a damaged journal stopped
/// (its whole lines before the damage are the record).
pub fn read_record_noted(path: &Path) -> Result<(RecordFile, Option<String>), String> {
    let shown = crate::rules::variant::display_path(path);
    let text = read_user_file(path, &shown)?;
    // The variant is named relative to the record when it is a path.
    let here = |v: &str| super::resolve_variant_ref(v, path);
    if super::journal::is_journal(&text) {
        // A host's journal: the record it holds.
        let read = super::journal::parse(&text).map_err(|e| format!("{shown}: {e}"))?;
        let note = read.note(&shown);
        return super::journal::record(&read.entries)
            .map(|mut r| {
                r.variant = here(&r.variant);
                r.start.variant = here(&r.start.variant);
                (RecordFile::Whole(r), note)
            })
            .ok_or_else(|| {
                format!("{shown}: the armies were still being set up: no move to show")
            });
    }
    match parse_yaml::<Record>(&text, &shown) {
        Ok(mut r) => {
            r.variant = here(&r.variant);
            r.start.variant = here(&r.start.variant);
            Ok((RecordFile::Whole(r), None))
        }
        Err(e) => match parse_yaml::<PlayerRecord>(&text, &shown) {
            Ok(mut r) => {
                r.variant = here(&r.variant);
                Ok((RecordFile::Seen(r), None))
            }
            Err(_) => Err(e),
        },
    }
}

impl PlayerRecord {
    /// The record as its viewer saw the game: the start board, each action
    /// with its events, and the result.
    pub fn text(&self, engine: &Engine) -> String {
        let mut out = format!(
            "{}'s record of {} ({} actions): what {} saw; it cannot be played on, as it does not hold what {} did not see\n",
            self.viewer,
            engine.variant.name,
            self.actions.len(),
            self.viewer,
            self.viewer
        );
        out.push_str(&Views::new(engine).render(&self.start, None));
        for (i, a) in self.actions.iter().enumerate() {
            out.push_str(&format!("{}. {}\n", i + 1, a.action));
            for e in &a.events {
                out.push_str(&format!("   {e}\n"));
            }
        }
        match &self.result {
            Some(r) => out.push_str(&format!("outcome: {r}\n")),
            None => out.push_str("outcome: still playing\n"),
        }
        out
    }
}
