//! The host's journal: what a hosted game needs to go on after the host
//! dies, written as the game goes. One JSON object per line; each line is
//! written and synced to the disk before anyone is told what it records, so
//! a crash mid-write can only leave a partial last line, which the reader
//! ignores. The journal is the host's own file: it holds the seats' tokens
//! (no player's view or record ever does).

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{Position, Record};
use crate::base::limits::read_user_file;

/// One line of the journal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case", deny_unknown_fields)]
pub enum Entry {
    /// The first line: how the game is hosted.
    Host {
        variant: String,
        options: Vec<(String, String)>,
        seed: u64,
        clock: Option<String>,
        setup_phase: bool,
        /// The agent each seat is played with (`None`: a person).
        agents: Vec<Option<String>>,
        /// The seat the host's own terminal plays.
        terminal: Option<u8>,
        away: String,
    },
    /// A seat was given its token.
    Seat {
        seat: u8,
        token: String,
        name: String,
    },
    /// A seat's arrangement during the setup phase.
    Setup {
        seat: u8,
        text: String,
        back_first: bool,
    },
    /// Every army is in: the start of play.
    Begin { start: Box<Position> },
    /// An action, with each player's remaining time after it.
    Action {
        text: String,
        clock: Option<Vec<u64>>,
    },
    /// A player lost on time.
    Flag { player: u8 },
    /// The game is over.
    End { result: String },
}

/// A journal open for appending.
#[derive(Debug)]
pub struct Journal {
    file: File,
    pub path: PathBuf,
}

/// A path as messages show it.
pub fn shown(path: &Path) -> String {
    crate::rules::variant::display_path(path)
}

impl Journal {
    /// A new journal at `path`; an existing file is not overwritten.
    pub fn create(path: &Path) -> Result<Journal, String> {
        if path.metadata().is_ok_and(|m| m.len() > 0) {
            return Err(format!(
                "{}: the file exists (continue its game with --resume {0}, or choose another file)",
                shown(path)
            ));
        }
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)
            .map_err(|e| format!("{}: cannot write the journal: {e}", shown(path)))?;
        Ok(Journal {
            file,
            path: path.to_path_buf(),
        })
    }

    /// The journal at `path` opened to go on: cut to its `whole` bytes (a
    /// partial last line is dropped).
    pub fn reopen(path: &Path, whole: u64) -> Result<Journal, String> {
        let err = |e: std::io::Error| format!("{}: cannot write the journal: {e}", shown(path));
        let mut file = OpenOptions::new().write(true).open(path).map_err(err)?;
        file.set_len(whole).map_err(err)?;
        use std::io::Seek;
        file.seek(std::io::SeekFrom::End(0)).map_err(err)?;
        file.sync_data().map_err(err)?;
        Ok(Journal {
            file,
            path: path.to_path_buf(),
        })
    }

    /// Appends an entry and syncs it to the disk.
    pub fn write(&mut self, entry: &Entry) -> Result<(), String> {
        let mut line = serde_json::to_string(entry).map_err(|e| e.to_string())?;
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(|e| format!("{}: {e}", shown(&self.path)))
    }
}

/// Whether a file's text is a journal (its first line is a host entry).
pub fn is_journal(text: &str) -> bool {
    text.starts_with(r#"{"t":"host""#)
}

/// The whole entries of a journal's text, and how many bytes they take (a
/// trailing partial line, what a crash mid-write leaves, is ignored). A
/// whole line that does not read is an error naming it.
pub fn parse(text: &str) -> Result<(Vec<Entry>, usize), String> {
    let mut entries = Vec::new();
    let mut at = 0;
    while let Some(n) = text[at..].find('\n') {
        let l = &text[at..at + n];
        let e: Entry =
            serde_json::from_str(l).map_err(|e| format!("line {}: {e}", entries.len() + 1))?;
        entries.push(e);
        at += n + 1;
    }
    match entries.first() {
        Some(Entry::Host { .. }) => Ok((entries, at)),
        _ => Err("not a host's journal (no host line first)".into()),
    }
}

/// Reads the journal at `path`: its entries and their length in bytes.
pub fn read(path: &Path) -> Result<(Vec<Entry>, usize), String> {
    let text = read_user_file(path, &shown(path))?;
    parse(&text).map_err(|e| format!("{}: {e}", shown(path)))
}

/// The game record a journal holds: from the start of play, the actions
/// and the result (`None` while the armies are still being set up).
pub fn record(entries: &[Entry]) -> Option<Record> {
    let start = entries.iter().find_map(|e| match e {
        Entry::Begin { start } => Some(start.as_ref().clone()),
        _ => None,
    })?;
    Some(Record {
        variant: start.variant.clone(),
        options: start.options.clone(),
        actions: entries
            .iter()
            .filter_map(|e| match e {
                Entry::Action { text, .. } => Some(text.clone()),
                _ => None,
            })
            .collect(),
        result: entries.iter().rev().find_map(|e| match e {
            Entry::End { result } => Some(result.clone()),
            _ => None,
        }),
        start,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host() -> Entry {
        Entry::Host {
            variant: "v".into(),
            options: vec![],
            seed: 1,
            clock: None,
            setup_phase: true,
            agents: vec![None, None],
            terminal: None,
            away: "pause".into(),
        }
    }

    #[test]
    fn a_journal_cut_at_any_byte_of_its_last_entry_reads_to_the_entry_before() {
        let entries = vec![
            host(),
            Entry::Seat {
                seat: 0,
                token: "t".into(),
                name: "a".into(),
            },
            Entry::Action {
                text: "a1-a2".into(),
                clock: Some(vec![1000, 2000]),
            },
            Entry::Action {
                text: "b7-b6".into(),
                clock: Some(vec![900, 2000]),
            },
        ];
        let mut text = String::new();
        let mut ends = Vec::new();
        for e in &entries {
            text.push_str(&serde_json::to_string(e).unwrap());
            text.push('\n');
            ends.push(text.len());
        }
        let last_start = ends[ends.len() - 2];
        for cut in last_start..text.len() {
            let (got, len) = parse(&text[..cut]).unwrap();
            assert_eq!(got, entries[..entries.len() - 1], "cut at {cut}");
            assert_eq!(len, last_start);
        }
        let (got, len) = parse(&text).unwrap();
        assert_eq!(got, entries);
        assert_eq!(len, text.len());
        // A whole line that does not read is not taken for a cut.
        let bad = format!("{}garbage\n", &text);
        assert!(parse(&bad).unwrap_err().contains("line 5"));
        assert!(parse("").is_err());
    }

    #[test]
    fn an_existing_file_is_not_overwritten_and_an_unwritable_place_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("j");
        std::fs::write(&p, "keep").unwrap();
        assert!(Journal::create(&p).unwrap_err().contains("exists"));
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "keep");
        let Err(e) = Journal::create(&dir.path().join("no/such/dir/j")) else {
            panic!("created")
        };
        assert!(e.contains("cannot write the journal"), "{e}");
    }
}
