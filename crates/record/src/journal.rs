//! The host's journal: what a hosted game needs to go on after the host
//! dies, written as the game goes. One JSON object per line; each line is
//! written and synced to the disk before anyone is told what it records, so
//! a crash mid-write can only leave a partial last line, which the reader
//! ignores. The journal is the host's own file: it holds the seats' tokens
//! (no player's view or record ever does).

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{Position, Record};
use crate::base::limits::read_user_file;
use crate::base::write::{Access, Held};

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
/// The host's journal, held for the host's life: a second host on the same
/// file is refused (see [`crate::base::write::Held`]), and only its owner
/// may read it (it holds the seats' tokens).
#[derive(Debug)]
pub struct Journal {
    held: Held,
    pub path: PathBuf,
}

/// A path as messages show it.
pub fn shown(path: &Path) -> String {
    crate::rules::variant::display_path(path)
}

/// A journal read to be gone on with: its whole entries, how many bytes
/// they take, and where it stopped if a line in it was damaged.
#[derive(Debug)]
pub struct Resumed {
    pub journal: Journal,
    pub read: Parsed,
}

impl Journal {
    /// A new journal at `path`, held; an existing file is not overwritten.
    pub fn create(path: &Path) -> Result<Journal, String> {
        let err = |e: String| e.replace(": cannot write:", ": cannot write the journal:");
        let held = Held::take(path, &shown(path), Access::Private, true).map_err(err)?;
        if !held.is_empty() {
            return Err(format!(
                "{}: the file exists (continue its game with --resume {0}, or choose another file)",
                shown(path)
            ));
        }
        Ok(Journal {
            held,
            path: path.to_path_buf(),
        })
    }

    /// The journal at `path` held and read, to go on with: nothing is
    /// changed until [`Journal::cut`] (and nothing at all when another
    /// host holds it).
    pub fn resume(path: &Path) -> Result<Resumed, String> {
        let held = Held::take(path, &shown(path), Access::Private, false)
            .map_err(|e| e.replace(": cannot write:", ":"))?;
        let text = read_user_file(path, &shown(path))?;
        let read = parse(&text).map_err(|e| format!("{}: {e}", shown(path)))?;
        Ok(Resumed {
            journal: Journal {
                held,
                path: path.to_path_buf(),
            },
            read,
        })
    }

    /// Cuts the journal to its first `whole` bytes (what a crash or damage
    /// left after them is dropped) and goes on at its end.
    pub fn cut(&mut self, whole: u64) -> Result<(), String> {
        let err =
            |e: std::io::Error| format!("{}: cannot write the journal: {e}", shown(&self.path));
        let file = self.held.file();
        file.set_len(whole).map_err(err)?;
        use std::io::Seek;
        file.seek(std::io::SeekFrom::End(0)).map_err(err)?;
        file.sync_data().map_err(err)
    }

    /// Appends an entry and syncs it to the disk.
    pub fn write(&mut self, entry: &Entry) -> Result<(), String> {
        let mut line = serde_json::to_string(entry).map_err(|e| e.to_string())?;
        line.push('\n');
        // The file is at its end: new and empty, or cut and sought to its
        // end, and written by this host alone.
        let file = self.held.file();
        file.write_all(line.as_bytes())
            .and_then(|()| file.sync_data())
            .map_err(|e| format!("{}: {e}", shown(&self.path)))
    }
}

/// Whether a file's text is a journal (its first line is a host entry).
pub fn is_journal(text: &str) -> bool {
    text.starts_with(r#"{"t":"host""#)
}

/// A journal's text as read: its whole entries up to the first line that
/// does not read, and how many bytes those take.
#[derive(Debug)]
pub struct Parsed {
    pub entries: Vec<Entry>,
    pub whole: usize,
    /// Where the reading stopped before the end, and why: a whole line
    /// that does not read (`line 5 does not read (...)`). A partial last
    /// line (what a crash mid-write leaves) is not damage.
    pub damage: Option<String>,
}

impl Parsed {
    /// What a reader is told of the damage, if any (`j.jsonl: line 5 does
    /// not read (...): the game is taken up to the 4 lines before it`).
    pub fn note(&self, shown: &str) -> Option<String> {
        self.damage.as_ref().map(|d| {
            format!(
                "{shown}: {d}: the game is taken up to the {} whole line(s) before it",
                self.entries.len()
            )
        })
    }
}

/// The whole entries of a journal's text (see [`Parsed`]). An error when
/// not even its first line is a host's entry.
pub fn parse(text: &str) -> Result<Parsed, String> {
    let mut entries = Vec::new();
    let mut at = 0;
    let mut damage = None;
    while let Some(n) = text[at..].find('\n') {
        let l = &text[at..at + n];
        match serde_json::from_str::<Entry>(l) {
            Ok(e) => entries.push(e),
            Err(e) => {
                damage = Some(format!("line {} does not read ({e})", entries.len() + 1));
                break;
            }
        }
        at += n + 1;
    }
    match entries.first() {
        Some(Entry::Host { .. }) => Ok(Parsed {
            entries,
            whole: at,
            damage,
        }),
        _ => Err(match damage {
            Some(d) => format!("not a host's journal: {d}"),
            None => "not a host's journal (no host line first)".into(),
        }),
    }
}

/// Reads the journal at `path` (without holding it: a host may be
/// writing it).
pub fn read(path: &Path) -> Result<Parsed, String> {
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
            let p = parse(&text[..cut]).unwrap();
            assert_eq!(p.entries, entries[..entries.len() - 1], "cut at {cut}");
            assert_eq!(p.whole, last_start);
            assert_eq!(p.damage, None);
        }
        let p = parse(&text).unwrap();
        assert_eq!(p.entries, entries);
        assert_eq!(p.whole, text.len());
        // A whole line that does not read is damage: the lines before it
        // are kept, and the reading says where it stopped.
        let bad = format!("{}garbage\n{}", &text, &text[ends[0]..]);
        let p = parse(&bad).unwrap();
        assert_eq!(p.entries, entries);
        assert_eq!(p.whole, text.len());
        let note = p.note("j").unwrap();
        assert!(note.starts_with("j: line 5 does not read"), "{note}");
        assert!(note.ends_with("the 4 whole line(s) before it"), "{note}");
        assert!(parse("").is_err());
        assert!(parse("garbage\n").is_err());
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
