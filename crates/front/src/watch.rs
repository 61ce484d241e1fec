//! Reload on save: watches a variant's files (through their folders, since
//! editors often save by renaming a new file over the old one) and calls back
//! once per burst of changes.

use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Duration;

use notify_debouncer_mini::notify::{RecommendedWatcher, RecursiveMode};
use notify_debouncer_mini::{new_debouncer, DebounceEventResult, Debouncer};

fn fingerprint(files: &[PathBuf]) -> Vec<Option<Vec<u8>>> {
    files.iter().map(|f| std::fs::read(f).ok()).collect()
}

/// A running watch; dropping it stops watching.
pub struct Watch {
    _debouncer: Debouncer<RecommendedWatcher>,
}

/// How long the files must be quiet before a reload.
pub const DEBOUNCE: Duration = Duration::from_millis(250);

impl Watch {
    pub fn start(
        files: &[PathBuf],
        mut on_change: impl FnMut() + Send + 'static,
    ) -> Result<Watch, String> {
        let wanted: HashSet<PathBuf> = files
            .iter()
            .map(|f| f.canonicalize().unwrap_or_else(|_| f.clone()))
            .collect();
        // Reading the files (as a reload does) also makes events: call back
        // only when a file's contents really changed.
        let list: Vec<PathBuf> = wanted.iter().cloned().collect();
        let mut seen = fingerprint(&list);
        let mut debouncer = new_debouncer(DEBOUNCE, move |res: DebounceEventResult| {
            if let Ok(events) = res {
                let hit = events.iter().any(|e| {
                    let p = e.path.canonicalize().unwrap_or_else(|_| e.path.clone());
                    wanted.contains(&p)
                });
                if hit {
                    let now = fingerprint(&list);
                    if now != seen {
                        seen = now;
                        on_change();
                    }
                }
            }
        })
        .map_err(|e| format!("cannot watch: {e}"))?;
        let dirs: HashSet<PathBuf> = files
            .iter()
            .filter_map(|f| f.canonicalize().ok()?.parent().map(|d| d.to_path_buf()))
            .collect();
        for d in dirs {
            debouncer
                .watcher()
                .watch(&d, RecursiveMode::NonRecursive)
                .map_err(|e| format!("cannot watch {}: {e}", d.display()))?;
        }
        Ok(Watch {
            _debouncer: debouncer,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[test]
    fn a_save_calls_back_once_and_other_files_do_not() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("rules.lua");
        std::fs::write(&file, "-- v1").unwrap();
        let (tx, rx) = mpsc::channel();
        let _w = Watch::start(std::slice::from_ref(&file), move || {
            let _ = tx.send(());
        })
        .unwrap();
        std::thread::sleep(Duration::from_millis(100));
        std::fs::write(dir.path().join("other.txt"), "x").unwrap();
        assert!(
            rx.recv_timeout(Duration::from_millis(800)).is_err(),
            "another file triggered a reload"
        );
        std::fs::write(&file, "-- v2").unwrap();
        std::fs::write(&file, "-- v3").unwrap();
        rx.recv_timeout(Duration::from_secs(5))
            .expect("a reload after the save");
        assert!(
            rx.recv_timeout(Duration::from_millis(600)).is_err(),
            "one reload per burst"
        );
    }
}
