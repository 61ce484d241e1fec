//! `sandtable rules VARIANT`: the rules summary generated from a variant's
//! declarations and its script's hooks. One snapshot per bundled variant
//! (read against the YAML and `variants/README.md` when it changes), and
//! the command line and REPL that print it.

mod common;

use std::path::Path;

use sandtable::rules::variant::describe::rules_markdown;
use sandtable::rules::variant::{bundled_variants, Variant};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn summary(name: &str, options: &[(&str, &str)]) -> String {
    let o: Vec<(String, String)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    rules_markdown(&Variant::load(name, &o).unwrap())
}

macro_rules! snapshot {
    ($name:ident) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(stringify!($name), summary(stringify!($name), &[]));
        }
    };
}

snapshot!(backgammon);
snapshot!(brandubh);
snapshot!(chess);
snapshot!(classic_stratego);
snapshot!(connect_four);
snapshot!(crazyhouse);
snapshot!(dark_chess);
snapshot!(english_draughts);
snapshot!(go);
snapshot!(lost_island);
snapshot!(othello);
snapshot!(shogi);
snapshot!(ultima);
snapshot!(ultimate_lightning);

/// A test variant's summary: atomic chess, for the wording of blasts.
#[test]
fn atomic() {
    insta::assert_snapshot!("atomic", summary("tests/variants/atomic.yaml", &[]));
}

#[test]
fn every_bundled_variant_has_a_snapshot() {
    for v in bundled_variants() {
        let snap = format!("{ROOT}/tests/snapshots/rules_summary__{v}.snap");
        assert!(
            Path::new(&snap).is_file(),
            "no rules snapshot for {v}: add snapshot!({v})"
        );
    }
}

#[test]
fn every_example_and_test_variant_that_loads_gets_a_summary() {
    let mut read = 0;
    for dir in ["examples/variants", "tests/variants"] {
        let mut files: Vec<_> = std::fs::read_dir(format!("{ROOT}/{dir}"))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
            .collect();
        files.sort();
        for f in files {
            let Ok(v) = Variant::load(f.to_str().unwrap(), &[]) else {
                continue;
            };
            let md = rules_markdown(&v);
            assert!(
                md.starts_with(&format!("# {}\n", v.name)),
                "{}",
                f.display()
            );
            assert!(md.contains("## How the game ends"), "{}", f.display());
            read += 1;
        }
    }
    assert!(read >= 7, "only {read} variants read");
}

#[test]
fn the_summary_follows_the_options_as_set() {
    let default = summary("classic_stratego", &[]);
    let isf = summary("classic_stratego", &[("scout_move_and_strike", "true")]);
    let near = "it may move onto an enemy piece only from the square next to it";
    let far = "and may end on an enemy piece beyond them";
    assert!(
        default.contains(near) && !default.contains(far),
        "{default}"
    );
    assert!(isf.contains(far) && !isf.contains(near), "{isf}");
    assert!(isf.contains("`scout_move_and_strike` (default `false`; set to `true` here)"));
    let go = summary("go", &[("komi", "6.5")]);
    assert!(go.contains("White adding 6.5"), "{go}");
}

#[test]
fn hooks_are_listed_with_the_comment_above_them_and_what_calls_them() {
    let chess = summary("chess", &[]);
    assert!(chess.contains(
        "- `rules.position_fields(g, fields)`: The FEN fields after the side to move: castling rights"
    ));
    let island = summary("lost_island", &[]);
    assert!(island
        .contains("*It performs the action `reinforce` and performs the action `buy_reinforce`.*"));
    let lightning = summary("ultimate_lightning", &[]);
    // Its script removes the base's scripted strike: the declared one
    // decides, and the summary says so.
    assert!(lightning.contains("*It is asked who wins when a piece moves onto an enemy piece and is removed by `ultimate_lightning.lua`.*"), "{lightning}");
    assert!(
        lightning.contains("- `rules.strike = nil`: The declared strike decides"),
        "{lightning}"
    );
    assert!(
        lightning
            .contains("the first of these that fits decides:\n\n- When a piece strikes a Flag"),
        "{lightning}"
    );
}

#[test]
fn the_rules_command_prints_the_summary_and_takes_options() {
    let o = common::run_bin(
        Path::new(ROOT),
        &["rules", "classic_stratego", "-o", "two_squares_limit=5"],
        b"",
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.starts_with("# Classic Stratego\n"), "{out}");
    assert!(out.contains("more than five times in a row"), "{out}");
}

#[test]
fn the_rules_command_reports_a_variant_that_does_not_load() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.yaml");
    std::fs::write(&bad, "name: Bad\nplayers: [a, b]\nboard: { files: 3, ranks: 3 }\npieces:\n  x: { symbol: X, moves: [{ step: sideways }] }\n").unwrap();
    let o = common::run_bin(dir.path(), &["rules", "bad.yaml"], b"");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(o.stdout.is_empty());
    assert!(
        err.contains("bad.yaml:") && err.contains("sideways"),
        "{err}"
    );
    let o = common::run_bin(dir.path(), &["rules", "chess", "-o", "nonsense"], b"");
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
}

#[test]
fn the_repl_prints_the_loaded_variants_rules() {
    let o = common::run_bin(Path::new(ROOT), &["repl", "othello"], b"rules\n");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("# Othello") && out.contains("outflanked"),
        "{out}"
    );
}
