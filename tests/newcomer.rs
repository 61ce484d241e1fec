//! What a newcomer tripped over (issue 60): each test is one of the
//! surprises, run the way the newcomer met it.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn text(o: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// `sandtable ARGS | head -0`: standard output is a pipe whose reader has
/// gone before the first line is written.
fn into_closed_pipe(args: &[&str]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sandtable"))
        .args(args)
        .current_dir(ROOT)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

#[test]
fn a_closed_output_pipe_ends_every_command_quietly() {
    for args in [
        &["check", "classic_stratego", "chess"][..],
        &["rules", "chess"],
        &["perft", "chess", "--depth", "2"],
        &["apply", "chess", "e2e4"],
        &["schema"],
    ] {
        let o = into_closed_pipe(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            !err.contains("panicked") && !err.contains("Broken pipe"),
            "{args:?}: {err}"
        );
        assert_ne!(o.status.code(), Some(101), "{args:?}: {err}");
        // Ended by SIGPIPE (13), as `cat` is, or done before it wrote.
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt;
            assert!(
                o.status.success() || o.status.signal() == Some(13),
                "{args:?}: {:?} {err}",
                o.status
            );
        }
    }
}

fn run(dir: &Path, args: &[&str]) -> std::process::Output {
    common::run_bin(dir, args, b"")
}

/// A folder holding `variants/NAME.yaml` (bundled chess with `edit`
/// applied) and the bundled scripts, some with `lua` appended to chess's.
fn chess_copy(name: &str, edit: impl Fn(String) -> String, lua: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("variants")).unwrap();
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    let yaml = std::fs::read_to_string(format!("{ROOT}/variants/chess.yaml")).unwrap();
    std::fs::write(dir.path().join(format!("variants/{name}.yaml")), edit(yaml)).unwrap();
    let script = std::fs::read_to_string(format!("{ROOT}/scripts/chess.lua")).unwrap();
    std::fs::write(
        dir.path().join("scripts/chess.lua"),
        format!("{script}\n{lua}"),
    )
    .unwrap();
    dir
}

fn with_start(start: &'static str) -> impl Fn(String) -> String {
    move |yaml: String| {
        let line = yaml.lines().find(|l| l.starts_with("start:")).unwrap();
        yaml.replace(line, &format!("start: \"{start}\""))
    }
}

#[test]
fn a_start_line_with_a_piece_too_many_is_refused_naming_the_rank_and_count() {
    let dir = chess_copy(
        "long",
        with_start("rnbqkbnrq/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"),
        "",
    );
    let o = run(dir.path(), &["check", "variants/long.yaml"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("start: rank 8 (`rnbqkbnrq`) describes 9 cells; the board has 8 files"),
        "{}",
        text(&o)
    );
    // So does --position.
    let o = run(
        Path::new(ROOT),
        &[
            "perft",
            "chess",
            "--depth",
            "1",
            "--position",
            "rnbqkbnrq/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("rank 8 (`rnbqkbnrq`) describes more than 8 cells"),
        "{}",
        text(&o)
    );
}

#[test]
fn check_warns_when_a_player_owns_no_piece_at_the_start() {
    // A case slip: every piece is white's.
    let dir = chess_copy(
        "slip",
        with_start("RNBQKBNR/PPPPPPPP/8/8/8/8/PPPPPPPP/RNBQKBNR w"),
        "",
    );
    let o = run(dir.path(), &["check", "variants/slip.yaml"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "a warning, not an error: {}",
        text(&o)
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("warning: black owns no piece at the start, while white owns 32")
            && out.contains("upper case letters are the first player's"),
        "{out}"
    );
    // Bundled games where both sides start with pieces, or nobody does
    // (pieces enter from a supply), are not warned about.
    let o = run(
        Path::new(ROOT),
        &["check", "chess", "go", "connect_four", "classic_stratego"],
    );
    assert!(!text(&o).contains("warning"), "{}", text(&o));
}

#[test]
fn check_prints_no_advice_unless_asked() {
    let o = run(Path::new(ROOT), &["check", "classic_stratego", "chess"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(!out.contains("note:"), "{out}");
    let o = run(Path::new(ROOT), &["check", "--notes", "classic_stratego"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("note: no `rules.evaluate`"));
}

#[test]
fn a_start_line_game_runs_the_setup_and_the_first_turn_hooks() {
    let lua = "function rules.setup(g)\n  g:set_counter(\"set_up\", g:counter(\"set_up\") + 1)\nend\n\
               function rules.on_turn_start(g)\n  g:set_counter(\"turns\", g:counter(\"turns\") + 1)\nend\n";
    let dir = chess_copy("hooked", |y| y, lua);
    let e = common::engine(
        dir.path().join("variants/hooked.yaml").to_str().unwrap(),
        &[],
    );
    let mut s = e.new_game(1, &[]);
    assert_eq!(s.counter("set_up", None), 1);
    assert_eq!(s.counter("turns", None), 1, "the first turn's hook");
    common::play(&e, &mut s, &["e4"]);
    assert_eq!(s.counter("turns", None), 2);
    // And `check` plays such games without complaint.
    let o = run(dir.path(), &["check", "variants/hooked.yaml"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

#[test]
fn a_bundled_name_in_extends_is_the_bundled_variant_wherever_the_command_runs() {
    // A folder with a `variants/classic_stratego.yaml` of its own, and a
    // child elsewhere that extends the bundled one by name.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("variants")).unwrap();
    std::fs::create_dir_all(dir.path().join("mine/variants")).unwrap();
    std::fs::write(
        dir.path().join("variants/classic_stratego.yaml"),
        "name: not a variant\n",
    )
    .unwrap();
    let child = std::fs::read_to_string(format!("{ROOT}/examples/variants/diagonal_captains.yaml"))
        .unwrap();
    std::fs::write(dir.path().join("mine/variants/captains.yaml"), child).unwrap();
    let o = run(dir.path(), &["check", "mine/variants/captains.yaml"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // The tutorial's check, from another folder.
    let o = run(
        dir.path(),
        &[
            "check",
            &format!("{ROOT}/examples/variants/diagonal_captains.yaml"),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // A path in extends is read from the extending file's folder, not from
    // the working directory.
    std::fs::write(
        dir.path().join("mine/variants/pathed.yaml"),
        "extends: ../nowhere/classic_stratego.yaml\nname: Pathed\n",
    )
    .unwrap();
    let o = run(dir.path(), &["check", "mine/variants/pathed.yaml"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("no such file (a path is read from the extending file's folder"),
        "{}",
        text(&o)
    );
}

#[test]
fn an_end_reads_as_a_sentence_from_its_own_words() {
    use sandtable::record::view::Views;
    // Atomic chess: the knight blasts the black king on its third move.
    let e = common::engine("tests/variants/atomic.yaml", &[]);
    let mut s = e.new_game(1, &[]);
    common::play(&e, &mut s, &["g1-f3", "a7-a6", "f3-g5", "a6-a5", "g5-f7"]);
    let o = s.outcome.as_ref().expect("the king was blasted");
    assert_eq!(
        Views::new(&e).outcome_text(o),
        "white wins (the king was blasted)"
    );
    // Brandubh: a side named in the plural, an end worded as a noun.
    let e = common::engine("brandubh", &[]);
    let mut s = common::fen(&e, "3k3/7/7/7/7/7/A6 defenders");
    common::play(&e, &mut s, &["d7-a7"]);
    let o = s.outcome.as_ref().expect("the king escaped");
    assert_eq!(
        Views::new(&e).outcome_text(o),
        "defenders win (the king's escape)"
    );
}

#[test]
fn a_refusal_names_the_terrain_or_the_piece_in_the_way() {
    use sandtable::front::session::Session;
    let mut chess = Session::new("chess", &[], 1).unwrap();
    let err = chess.execute("a1-a3").unwrap_err();
    assert!(
        err.contains("the piece on a2 blocks the way from a1 to a3"),
        "{err}"
    );
    // Classic Stratego: a lake is named as what it is.
    let mut stratego = Session::new("classic_stratego", &[], 1).unwrap();
    let refusals: Vec<String> = ["c4-c5", "d4-d5", "g4-g5", "h4-h5"]
        .iter()
        .map(|m| stratego.execute(m).unwrap_err())
        .collect();
    assert!(
        refusals
            .iter()
            .any(|e| e.contains("is a lake cell: no piece may enter it")),
        "{refusals:?}"
    );
}
