//! A child variant (`extends:`) is checked as the file its writer edits:
//! errors it causes name the child's file and line, a kind the base lacks
//! and that is not a whole new kind is reported as probably misspelt, and
//! `name: value` under `options:` sets the default of the base's option.

use std::path::Path;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_sandtable");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A folder with copies of the bundled variants and scripts, and `child`
/// written as `variants/child.yaml`.
fn with_child(child: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for sub in ["variants", "scripts"] {
        std::fs::create_dir(dir.path().join(sub)).unwrap();
        for e in std::fs::read_dir(Path::new(ROOT).join(sub))
            .unwrap()
            .flatten()
        {
            if e.path().is_file() {
                std::fs::copy(e.path(), dir.path().join(sub).join(e.file_name())).unwrap();
            }
        }
    }
    std::fs::write(dir.path().join("variants/child.yaml"), child).unwrap();
    dir
}

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

/// `check variants/child.yaml`: exit code and output.
fn check(child: &str) -> (Option<i32>, String) {
    let dir = with_child(child);
    let o = run(dir.path(), &["check", "variants/child.yaml"]);
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.code(), out.trim().to_string())
}

#[test]
fn a_misspelt_kind_is_named_in_the_child_with_a_suggestion() {
    let (code, out) =
        check("name: Child\nextends: classic_stratego\npieces:\n  scuot: { count: 4 }\n");
    assert_eq!(code, Some(1), "{out}");
    // One error, in the child, and none of the base's army-size errors.
    assert_eq!(out.lines().count(), 1, "{out}");
    insta::assert_snapshot!("misspelt_kind", out);
}

#[test]
fn a_kind_the_base_removed_is_named_as_removed() {
    let (code, out) =
        check("name: Child\nextends: ultimate_lightning\npieces:\n  miner: { count: 2 }\n");
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.starts_with(
            "variants/child.yaml:4:10: piece kind `miner` was removed by a base variant"
        ),
        "{out}"
    );
}

#[test]
fn a_new_kind_with_a_symbol_is_added() {
    let (code, out) = check(
        "name: Child\nextends: classic_stratego\npieces:\n  dragon: { symbol: Dr, count: 0, moves: [ { step: all } ] }\n",
    );
    assert_eq!(code, Some(0), "{out}");
}

#[test]
fn an_army_grown_by_the_child_is_reported_at_the_childs_count() {
    let (code, out) =
        check("name: Child\nextends: classic_stratego\npieces:\n  scout: { count: 12 }\n");
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.lines()
            .all(|l| l.starts_with("variants/child.yaml:4:10: ")),
        "{out}"
    );
    insta::assert_snapshot!("army_grown_by_child", out);
}

#[test]
fn a_plain_value_sets_the_default_of_the_bases_option() {
    let child = "name: Child\nextends: classic_stratego\noptions: { scout_move_and_strike: true, two_squares_limit: 5 }\n";
    let (code, out) = check(child);
    assert_eq!(code, Some(0), "{out}");
    let dir = with_child(child);
    let mut c = Command::new(BIN)
        .args(["repl", "variants/child.yaml", "--seed", "1"])
        .current_dir(dir.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    c.stdin.take().unwrap().write_all(b"options\n").unwrap();
    let shown = String::from_utf8(c.wait_with_output().unwrap().stdout).unwrap();
    // The new defaults, with the base's documentation kept.
    assert!(shown.contains("scout_move_and_strike = true"), "{shown}");
    assert!(shown.contains("two_squares_limit = 5"), "{shown}");
    assert!(shown.contains("ISF rule"), "{shown}");
}

#[test]
fn option_values_the_base_cannot_take_are_named_in_the_child() {
    let (code, out) = check(
        "name: Child\nextends: ultimate_lightning\noptions:\n  rescues: 2\n  resuces: 2\n  chasing_rule: 3\n  scout_move_and_strike: true\n",
    );
    assert_eq!(code, Some(1), "{out}");
    insta::assert_snapshot!("option_defaults_in_child", out);
    // In a file that extends nothing, a plain value is not a declaration.
    let (code, out) = check("name: Alone\nplayers: [a, b]\nboard: { files: 3, ranks: 3 }\noptions: { n: 2 }\npieces:\n  man: { symbol: M }\n");
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("option `n` is declared as `n: { default: 2, doc: \"...\" }`"),
        "{out}"
    );
}
