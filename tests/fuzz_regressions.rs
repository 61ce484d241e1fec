//! Every input a fuzzer ever found a fault with (`fuzz/regressions/TARGET/`)
//! replayed through the same harness the fuzz targets run (`fuzz/harness.rs`),
//! so a fixed fault stays fixed. `fuzz/README.md` says how to run the fuzzers.
//!
//! A target gets a folder only once a fuzzer found a fault with it; every
//! folder there is replayed, and a folder that is missing, empty or named
//! after no target fails the test instead of replaying nothing.

#[path = "../fuzz/harness.rs"]
mod harness;

use std::path::{Path, PathBuf};

/// A fuzz target's harness function.
type Run = fn(&[u8]);

const TARGETS: [(&str, Run); 5] = [
    ("repl_line", harness::repl_line),
    ("action_text", harness::action_text),
    ("variant_yaml", harness::variant_yaml),
    ("position_record", harness::position_record),
    ("net_message", harness::net_message),
];

fn regressions() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions")
}

/// Replays every file in `fuzz/regressions/TARGET/` and returns how many.
fn replay(target: &str, run: fn(&[u8])) -> usize {
    replay_dir(&regressions().join(target), run)
}

/// Replays every file in `dir` and returns how many; panics when the folder
/// is missing or holds no input.
fn replay_dir(dir: &Path, run: fn(&[u8])) -> usize {
    let entries = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("no corpus to replay: cannot read {}: {e}", dir.display()));
    let mut n = 0;
    for entry in entries {
        let path = entry.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        run(&data);
        n += 1;
    }
    assert!(n > 0, "no inputs to replay in {}", dir.display());
    n
}

#[test]
fn repl_lines() {
    assert!(replay("repl_line", harness::repl_line) > 0);
}

/// Every folder in `fuzz/regressions/` is named after a target and replayed,
/// so an input kept for a target with no test of its own still runs.
#[test]
fn every_regression_folder_is_a_target_and_is_replayed() {
    let mut replayed = 0;
    for entry in std::fs::read_dir(regressions()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Some((_, run)) = TARGETS.iter().find(|(t, _)| *t == name) else {
            panic!(
                "{} is named after no fuzz target (targets: {})",
                path.display(),
                TARGETS.map(|(t, _)| t).join(", ")
            );
        };
        replayed += replay(&name, *run);
    }
    assert!(replayed > 0, "fuzz/regressions/ holds no input");
}

#[test]
#[should_panic(expected = "no corpus to replay")]
fn replaying_a_missing_corpus_fails() {
    replay("no_such_target", harness::repl_line);
}

#[test]
#[should_panic(expected = "no inputs to replay")]
fn replaying_an_empty_corpus_fails() {
    let dir = tempfile::tempdir().unwrap();
    replay_dir(dir.path(), harness::repl_line);
}

/// The harness itself runs on ordinary inputs of each kind.
#[test]
fn the_harness_runs_on_plain_inputs() {
    harness::repl_line(b"\x00actions\nshow red\na4-a5\nundo");
    harness::action_text(b"\x01\x05a4-a5");
    harness::variant_yaml(b"name: X\nextends: base\n");
    harness::position_record(b"\x00to_move: red\npieces: []\n");
    harness::net_message(br#" {"type":"action","text":"a4-a5"}"#);
}
