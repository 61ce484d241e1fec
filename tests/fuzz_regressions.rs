//! Every input a fuzzer ever found a fault with (`fuzz/regressions/TARGET/`)
//! replayed through the same harness the fuzz targets run (`fuzz/harness.rs`),
//! so a fixed fault stays fixed. `fuzz/README.md` says how to run the fuzzers.

#[path = "../fuzz/harness.rs"]
mod harness;

use std::path::Path;

fn replay(target: &str, run: fn(&[u8])) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/regressions")
        .join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return 0;
    };
    let mut n = 0;
    for entry in entries {
        let path = entry.unwrap().path();
        let data = std::fs::read(&path).unwrap();
        run(&data);
        n += 1;
    }
    n
}

#[test]
fn repl_lines() {
    replay("repl_line", harness::repl_line);
}

#[test]
fn action_texts() {
    replay("action_text", harness::action_text);
}

#[test]
fn variant_files() {
    replay("variant_yaml", harness::variant_yaml);
}

#[test]
fn positions_and_records() {
    replay("position_record", harness::position_record);
}

#[test]
fn network_messages() {
    replay("net_message", harness::net_message);
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
