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

#[test]
fn piece_images_are_checked_at_their_line_and_a_child_may_replace_one() {
    let child = "name: Child\nextends: chess\npieces:\n  king: { image: img/evil.svg }\n  queen: { image: img/missing.svg }\n  rook: { image: img/big.svg }\n  bishop: { image: img/ring.txt }\n  knight: { image: /etc/passwd }\n  pawn: { image: img/own_colour.svg }\n";
    let dir = with_child(child);
    let img = dir.path().join("variants/img");
    std::fs::create_dir(&img).unwrap();
    let ring = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\"><circle cx=\"5\" cy=\"5\" r=\"4\"/></svg>";
    std::fs::write(img.join("ring.svg"), ring).unwrap();
    std::fs::write(img.join("ring.txt"), ring).unwrap();
    std::fs::write(
        img.join("evil.svg"),
        "<svg viewBox=\"0 0 10 10\"><circle r=\"4\"/><script>fetch('/steal')</script></svg>",
    )
    .unwrap();
    std::fs::write(
        img.join("own_colour.svg"),
        "<svg viewBox=\"0 0 10 10\"><circle r=\"4\" fill=\"#fff\"/></svg>",
    )
    .unwrap();
    let big = format!(
        "<svg viewBox=\"0 0 10 10\">{}</svg>",
        "<circle r=\"4\"/>".repeat(5000)
    );
    std::fs::write(img.join("big.svg"), big).unwrap();
    let o = run(dir.path(), &["check", "variants/child.yaml"]);
    let out = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{out}");
    for (line, why) in [
        (
            4,
            "piece `king`: image `img/evil.svg`: `<script>` is not allowed",
        ),
        (5, "piece `queen`: image `img/missing.svg` not found"),
        (
            6,
            "piece `rook`: image `img/big.svg` is 75031 bytes; an image may have at most 65536",
        ),
        (
            7,
            "piece `bishop`: image `img/ring.txt` is not an .svg file",
        ),
        (8, "piece `knight`: image `/etc/passwd` lies outside"),
        (9, "`fill=\"#fff\"`: shapes take the owner's colours"),
    ] {
        assert!(
            out.lines()
                .any(|l| l.starts_with(&format!("variants/child.yaml:{line}:")) && l.contains(why)),
            "line {line}: {why}\n{out}"
        );
    }
    // A good picture replaces the base's; the other kinds keep theirs.
    std::fs::write(
        dir.path().join("variants/child.yaml"),
        "name: Child\nextends: chess\npieces:\n  king: { image: img/ring.svg }\n",
    )
    .unwrap();
    let e = sandtable::engine::Engine::load(
        dir.path().join("variants/child.yaml").to_str().unwrap(),
        &[],
    )
    .unwrap();
    let image = |k: &str| {
        let kind = e.variant.kinds.iter().find(|x| x.name == k).unwrap();
        kind.image.clone().unwrap()
    };
    assert_eq!(image("king").body, "<circle cx=\"5\" cy=\"5\" r=\"4\"/>");
    assert_eq!(image("queen").view_box, "0 0 45 45");
}
