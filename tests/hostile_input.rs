//! The host holds against a hostile variant, position, record or REPL line
//! (issue 24): limits are checked with file:line, query hooks fail closed,
//! files are read with a size cap, and nothing a file says reaches the
//! terminal unescaped.

mod common;
use sandtable::record::game::Positions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use sandtable::base::state::{GameState, MAX_PIECES};
use sandtable::engine::{ActionError, Engine};
use sandtable::front::session::Session;
use sandtable::record::{parse_yaml, Position};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A copy of a bundled variant in a temporary folder, its YAML edited by
/// `edit`, its script replaced by the bundled one followed by `lua`.
fn copy_of(
    variant: &str,
    edit: impl Fn(String) -> String,
    lua: &str,
) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let yaml = std::fs::read_to_string(format!("{ROOT}/variants/{variant}.yaml")).unwrap();
    let script = std::fs::read_to_string(format!("{ROOT}/scripts/{variant}.lua")).unwrap();
    let yaml = edit(yaml.replace(
        &format!("script: ../scripts/{variant}.lua"),
        "script: rules.lua",
    ));
    let path = dir.path().join("copy.yaml");
    std::fs::write(&path, yaml).unwrap();
    std::fs::write(dir.path().join("rules.lua"), format!("{script}\n{lua}\n")).unwrap();
    (dir, path)
}

fn load(path: &Path) -> Result<Engine, String> {
    Engine::load(path.to_str().unwrap(), &[]).map_err(|e| e.to_string())
}

const STRATEGO_POSITION: &str = r#"
to_move: red
pieces:
  - { at: e4, owner: red, kind: major }
  - { at: e5, owner: blue, kind: captain }
  - { at: a1, owner: red, kind: flag }
  - { at: j10, owner: blue, kind: flag }
  - { at: j9, owner: blue, kind: scout }
"#;

fn run_bin(dir: &Path, args: &[&str], stdin: &[u8]) -> (bool, String) {
    let o = common::run_bin(dir, args, stdin);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!text.contains("panicked"), "{text}");
    (o.status.success(), text)
}

fn session() -> Session {
    Session::new("classic_stratego", &[], 1).unwrap()
}

// ---- 4. piece ids, counts, board size ----------------------------------

#[test]
fn piece_ids_never_wrap() {
    let mut s = GameState::empty(4, 2, 0);
    let k = s.container_id("pile", Some(0));
    let mut refused = None;
    for i in 0..70_000usize {
        match s.add_piece_to(0, 0, k, 1) {
            Ok(id) => assert_eq!(id as usize, i, "ids are given in order"),
            Err(e) => {
                refused = Some((i, e));
                break;
            }
        }
    }
    let (n, e) = refused.expect("adding pieces beyond the limit is refused");
    assert_eq!(n, MAX_PIECES);
    assert!(e.contains("pieces"), "{e}");
    assert!(s.add_piece(0, 0, 1, false).is_err());
    assert_eq!(s.pieces.len(), MAX_PIECES);
    assert!(s.board().iter().all(Option::is_none));
    s.check_consistency().unwrap();
}

#[test]
fn a_script_adding_a_piece_beyond_the_limit_fails_and_changes_nothing() {
    let (_dir, path) = copy_of(
        "classic_stratego",
        |y| y,
        "function rules.strike(g, a, d) g:add_piece('scout', 'red', 'e6') return 'attacker' end",
    );
    let e = load(&path).unwrap();
    let mut s = common::position(&e, STRATEGO_POSITION);
    let k = s.container_id("spare", Some(0));
    while s.pieces.len() < MAX_PIECES {
        s.add_piece_to(0, 0, k, 1).unwrap();
    }
    let before = s.clone();
    let a = common::act(&e, &s, "e4-e5");
    match e.apply(&mut s, &a) {
        Err(ActionError::Script(m)) => assert!(m.contains("pieces"), "{m}"),
        other => panic!("expected a script error, got {other:?}"),
    }
    assert_eq!(s, before);
}

#[test]
fn check_refuses_counts_beyond_the_limits_with_file_and_line() {
    for (count, word) in [("4294967295", "count"), ("5000", "count")] {
        let (_dir, path) = copy_of(
            "classic_stratego",
            |y| y.replace("rank: 10, count: 1,", &format!("rank: 10, count: {count},")),
            "",
        );
        let err = load(&path).err().expect("refused");
        assert!(err.contains("copy.yaml:33:"), "{err}");
        assert!(err.contains(word) && err.contains("at most"), "{err}");
    }
    // Each kind within its limit, the army beyond its own.
    let (_dir, path) = copy_of(
        "classic_stratego",
        |y| {
            y.replace("count: 1,", "count: 900,")
                .replace("count: 4,", "count: 900,")
        },
        "",
    );
    let err = load(&path).err().expect("refused");
    assert!(err.contains("army") && err.contains("at most"), "{err}");
    // The repl does not start on such a variant (it used to allocate first).
    let (_dir, path) = copy_of(
        "classic_stratego",
        |y| y.replace("rank: 10, count: 1,", "rank: 10, count: 4294967295,"),
        "",
    );
    let (ok, out) = run_bin(
        Path::new(ROOT),
        &["repl", path.to_str().unwrap()],
        b"quit\n",
    );
    assert!(!ok && out.contains("at most"), "{out}");
}

fn position_of(e: &Engine, yaml: &str) -> Result<GameState, String> {
    let pos: Position = parse_yaml(&format!("variant: x\n{yaml}"), "<test>")?;
    Positions::new(e).from_position(&pos)
}

#[test]
fn positions_beyond_the_piece_limit_or_with_dead_games_are_refused() {
    let e = common::engine("classic_stratego", &[]);
    // Too many pieces (the YAML reader itself stops at fewer lines than
    // that, so the position is made in Rust).
    let yaml = format!(
        "variant: x\n{STRATEGO_POSITION}containers:\n  - name: pile\n    owner: red\n    pieces:\n      - {{ owner: red, kind: scout }}\n"
    );
    let mut pos: Position = parse_yaml(&yaml, "<test>").unwrap();
    let one = pos.containers[0].pieces[0].clone();
    pos.containers[0].pieces = vec![one; MAX_PIECES];
    let err = Positions::new(&e).from_position(&pos).unwrap_err();
    assert!(err.contains("pieces") && err.contains("at most"), "{err}");

    let err = position_of(
        &e,
        &format!("{STRATEGO_POSITION}outcome: {{ winners: [200], reason: x }}\n"),
    )
    .unwrap_err();
    assert!(err.contains("outcome") && err.contains("200"), "{err}");
    let err = position_of(
        &e,
        &format!("{STRATEGO_POSITION}pending:\n  - {{ player: 0, reason: pick, options: [] }}\n"),
    )
    .unwrap_err();
    assert!(err.contains("pending") && err.contains("option"), "{err}");
    // A well-formed ending still loads.
    position_of(
        &e,
        &format!("{STRATEGO_POSITION}outcome: {{ winners: [1], reason: x }}\n"),
    )
    .unwrap();
}

// ---- 5. query hooks fail closed ------------------------------------------

/// Every query hook of classic Stratego, failing: listing reports the
/// error, applying refuses with it and changes nothing, a playout stops.
#[test]
fn a_failing_query_hook_fails_closed() {
    for hook in [
        "function rules.filter(g, moves) error('filter broke') end",
        "function rules.actions(g) error('actions broke') end\nfunction rules.perform(g, label) end",
        "function rules.frozen(g, player) error('frozen broke') end",
        "function rules.extra_moves(g, player) error('extra_moves broke') end",
    ] {
        let (_dir, path) = copy_of("classic_stratego", |y| y, hook);
        let e = load(&path).unwrap();
        let s = common::position(&e, STRATEGO_POSITION);
        let err = e.try_legal_actions(&s).unwrap_err();
        assert!(
            matches!(&err, ActionError::Script(m) if m.contains("broke") && m.contains("rules.lua")),
            "{hook}: {err:?}"
        );
        let a = sandtable::engine::Action::Move {
            from: e.variant.board.parse_cell("e4").unwrap(),
            to: e.variant.board.parse_cell("e3").unwrap(),
        };
        let mut t = s.clone();
        let r = e.apply(&mut t, &a);
        assert!(matches!(&r, Err(ActionError::Script(m)) if m.contains("broke")), "{hook}: {r:?}");
        assert_eq!(t, s, "{hook} changed the game");
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1);
        let r = e.random_playout(&mut s.clone(), &mut rng, 100);
        assert!(matches!(&r, Err(ActionError::Script(m)) if m.contains("broke")), "{hook}: {r:?}");
        // The REPL shows the error instead of a list.
        let mut session = Session::new(path.to_str().unwrap(), &[], 1).unwrap();
        session.state = s.clone();
        let r = session.execute("actions");
        assert!(matches!(&r, Err(m) if m.contains("broke")), "{hook}: {r:?}");
        let r = session.execute("random 3");
        assert!(matches!(&r, Err(m) if m.contains("broke")), "{hook}: {r:?}");
        assert_eq!(session.state, s);
    }
}

/// A hook that fails only for the next player: the move that passes the
/// turn to them is refused, and nothing changes.
#[test]
fn a_hook_failing_after_the_move_refuses_the_move() {
    let (_dir, path) = copy_of(
        "classic_stratego",
        |y| y,
        "function rules.frozen(g, player) if player == 'blue' then error('blue broke') end return {} end",
    );
    let e = load(&path).unwrap();
    let s = common::position(&e, STRATEGO_POSITION);
    assert!(e.try_legal_actions(&s).is_ok());
    let mut t = s.clone();
    let a = common::act(&e, &s, "e4-e3");
    let r = e.apply(&mut t, &a);
    assert!(
        matches!(&r, Err(ActionError::Script(m)) if m.contains("blue broke")),
        "{r:?}"
    );
    assert_eq!(t, s);
}

/// Chess: `rules.attacked` and `rules.check_cells` failing.
#[test]
fn failing_check_hooks_fail_closed() {
    for hook in [
        "function rules.attacked(g, cell, by) error('attacked broke') end",
        "function rules.frozen(g, p) return {} end\nfunction rules.check_cells(g, player) error('check_cells broke') end",
    ] {
        let (_dir, path) = copy_of("chess", |y| y, hook);
        let e = load(&path).unwrap();
        let s = e.new_game(1, &[]);
        let err = e.try_legal_actions(&s).unwrap_err();
        assert!(matches!(&err, ActionError::Script(m) if m.contains("broke")), "{hook}: {err:?}");
        let a = sandtable::engine::Action::Move {
            from: e.variant.board.parse_cell("e2").unwrap(),
            to: e.variant.board.parse_cell("e4").unwrap(),
        };
        let mut t = s.clone();
        assert!(e.apply(&mut t, &a).is_err(), "{hook}");
        assert_eq!(t, s);
    }
}

// ---- 7. counts, clocks, long lines, big files -----------------------------

#[test]
fn bad_clock_durations_are_errors() {
    for spec in [
        "1e30",
        "inf",
        "NaN",
        "-5",
        "-1m",
        "1e30s",
        "15m+inf",
        "99999999999h",
    ] {
        let mut s = session();
        let r = s.execute(&format!("clock {spec}"));
        assert!(r.is_err(), "clock {spec}: {r:?}");
    }
    let mut s = session();
    s.execute("clock 15m+5s").unwrap();
    for args in [
        &["repl", "classic_stratego", "--clock", "1e30"][..],
        &[
            "play",
            "classic_stratego",
            "--clock",
            "inf",
            "--red",
            "random",
            "--blue",
            "random",
        ][..],
    ] {
        let (ok, out) = run_bin(Path::new(ROOT), args, b"quit\n");
        assert!(!ok && out.contains("error"), "{args:?}: {out}");
    }
}

#[test]
fn a_long_play_line_is_refused_quickly() {
    let mut s = session();
    let t = Instant::now();
    let line = format!("play {}", "x ".repeat(500_000));
    assert!(s.execute(&line).is_err());
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    // Within the cap, junk is still linear.
    let t = Instant::now();
    let line = format!("play {}", "x ".repeat(1000));
    assert!(s.execute(&line).is_err());
    assert!(t.elapsed() < Duration::from_secs(1), "{:?}", t.elapsed());
}

#[test]
fn files_named_by_the_user_are_read_with_a_size_cap() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.yaml");
    let f = std::fs::File::create(&big).unwrap();
    f.set_len(17 << 20).unwrap();
    let big = big.to_str().unwrap();
    for cmd in [
        "load-position /dev/zero".to_string(),
        format!("load-position {big}"),
        format!("load-record {big}"),
        format!("new --setup red={big}"),
        format!("load {big}"),
    ] {
        let mut s = session();
        let t = Instant::now();
        let r = s.execute(&cmd);
        assert!(r.is_err(), "{cmd}: {r:?}");
        assert!(t.elapsed() < Duration::from_secs(5), "{cmd}");
    }
    let (ok, out) = run_bin(Path::new(ROOT), &["replay", big], b"");
    assert!(!ok && out.contains("MiB"), "{out}");
}

// ---- weak items -------------------------------------------------------------

#[test]
fn a_non_utf8_line_is_an_error_for_that_line_only() {
    let (ok, out) = run_bin(
        Path::new(ROOT),
        &["repl", "classic_stratego", "--seed", "1"],
        b"history\n\xff\xfe\nfen\n",
    );
    assert!(!ok, "{out}");
    assert!(out.contains("UTF-8"), "{out}");
    // The line after it still ran (`fen` prints the position's line).
    assert!(out.lines().any(|l| l.matches('/').count() >= 9), "{out}");
}

#[test]
fn a_failed_load_record_leaves_the_game_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = session();
    s.execute("random 4").unwrap();
    let file = dir.path().join("rec.yaml");
    s.execute(&format!("save-record {}", file.display()))
        .unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    let text = text.replace("actions:\n", "actions:\n- z9-z10\n");
    std::fs::write(&file, text).unwrap();
    s.execute("random 2").unwrap();
    let (state, start, n) = (s.state.clone(), s.start.clone(), s.history.len());
    let r = s.execute(&format!("load-record {}", file.display()));
    assert!(r.is_err(), "{r:?}");
    assert_eq!(s.state, state);
    assert_eq!(s.start, start);
    assert_eq!(s.history.len(), n);
}

#[test]
fn scripts_and_bases_stay_in_the_variant_tree() {
    for (script, word) in [
        ("/proc/self/environ", "outside"),
        ("/etc/hostname", "outside"),
    ] {
        let (_dir, path) = copy_of(
            "classic_stratego",
            |y| y.replace("script: rules.lua", &format!("script: {script}")),
            "",
        );
        let err = load(&path).err().expect("refused");
        assert!(
            err.contains("copy.yaml:") && err.contains(word),
            "{script}: {err}"
        );
    }
    let (_dir, path) = copy_of(
        "classic_stratego",
        |y| format!("extends: /etc/hostname\n{y}"),
        "",
    );
    let err = load(&path).err().expect("refused");
    assert!(err.contains("outside"), "{err}");
    // Too big a script.
    let (dir, path) = copy_of("classic_stratego", |y| y, "");
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(dir.path().join("rules.lua"))
        .unwrap();
    f.write_all(&vec![b'-'; 2 << 20]).unwrap();
    drop(f);
    let err = load(&path).err().expect("refused");
    assert!(err.contains("MiB"), "{err}");
    // The bundled variants, with their `../scripts/` paths, still load.
    for v in [
        "classic_stratego",
        "ultimate_lightning",
        "chess",
        "ultima",
        "lost_island",
    ] {
        common::engine(v, &[]);
    }
}

#[test]
fn yaml_errors_speak_our_words() {
    for (edit, want, not) in [
        (("files: 10", "files: 300"), "a number from 0 to 255", "u8"),
        (
            ("name: Classic Stratego", "name: A\nname: B"),
            "duplicate key `name`",
            "DuplicateKeyPolicy",
        ),
    ] {
        let (_dir, path) = copy_of("classic_stratego", |y| y.replacen(edit.0, edit.1, 1), "");
        let err = load(&path).err().expect("refused");
        assert!(err.contains(want) && !err.contains(not), "{err}");
        assert!(err.contains("copy.yaml:"), "{err}");
    }
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let (_dir, path) = copy_of(
        "classic_stratego",
        |y| {
            y.replacen(
                "options:\n",
                &format!("options:\n  deep: {{ default: {deep} }}\n"),
                1,
            )
        },
        "",
    );
    let err = load(&path).err().expect("refused");
    assert!(
        err.contains("nested too deeply") && !err.contains("budget"),
        "{err}"
    );
    let err = position_of(
        &common::engine("classic_stratego", &[]),
        &format!("options: {{ x: {deep} }}"),
    )
    .unwrap_err();
    assert!(
        err.contains("nested too deeply") && !err.contains("Depth"),
        "{err}"
    );
}

#[test]
fn control_characters_reach_the_terminal_escaped() {
    let (_dir, path) = copy_of(
        "classic_stratego",
        |y| y.replace("name: Classic Stratego", "name: \"Evil\\e[2J\\a\""),
        "",
    );
    let input = format!(
        "load {}\n\x1b[31mbogus\nplay a4\x1b]0;x\x07-a5\n= '\\27[2J'\n",
        path.display()
    );
    let (_, out) = run_bin(
        Path::new(ROOT),
        &["repl", "classic_stratego"],
        input.as_bytes(),
    );
    assert!(!out.contains('\x1b') && !out.contains('\x07'), "{out:?}");
    assert!(out.contains("control characters"), "{out}");
    let (ok, out) = run_bin(Path::new(ROOT), &["check", path.to_str().unwrap()], b"");
    assert!(!ok && out.contains("control characters"), "{out}");
    assert!(!out.contains('\x1b'), "{out:?}");
}

// ---- issue 57: declarations that used to load ----------------------------

/// The bundled variant at `rel` (beside its scripts' folder, as in the
/// repository) with `old` replaced by `new` once, loaded: the error text,
/// the temporary folder written `TMP`.
fn refused_edit(rel: &str, old: &str, new: &str) -> String {
    refused_edits(rel, &[(old, new)])
}

/// [`refused_edit`] with several edits, in order.
fn refused_edits(rel: &str, edits: &[(&str, &str)]) -> String {
    let root = Path::new(ROOT);
    let dir = tempfile::tempdir().unwrap();
    let mut yaml = std::fs::read_to_string(root.join(rel)).unwrap();
    for (old, new) in edits {
        assert!(yaml.contains(old), "{old}");
        yaml = yaml.replacen(old, new, 1);
    }
    let variant = Path::new(rel);
    let folder = variant.parent().unwrap();
    std::fs::create_dir_all(dir.path().join(folder)).unwrap();
    let scripts = folder.parent().unwrap().join("scripts");
    if root.join(&scripts).is_dir() {
        std::fs::create_dir_all(dir.path().join(&scripts)).unwrap();
        for f in std::fs::read_dir(root.join(&scripts)).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_some_and(|e| e == "lua") {
                std::fs::copy(&f, dir.path().join(&scripts).join(f.file_name().unwrap())).unwrap();
            }
        }
    }
    let path = dir.path().join(rel);
    std::fs::write(&path, yaml).unwrap();
    match load(&path) {
        Ok(_) => panic!("{rel} loaded with {edits:?}"),
        Err(e) => e.replace(&dir.path().display().to_string(), "TMP"),
    }
}

const DRAUGHTS_START: &str = "1m1m1m1m/m1m1m1m1/1m1m1m1m/8/8/M1M1M1M1/1M1M1M1M/M1M1M1M1 black";

#[test]
fn a_start_rank_with_more_or_fewer_cells_than_files_is_refused() {
    let draughts = "variants/english_draughts.yaml";
    // Black's man used to vanish past the eighth file.
    insta::assert_snapshot!(
        "start_rank_too_long",
        refused_edit(draughts, DRAUGHTS_START, "M7m/8/8/8/8/8/8/8 black")
    );
    // Any rank, not only the first; every rank wrong is named.
    let err = refused_edit(draughts, DRAUGHTS_START, "8/8/8/9/8/8/7/8 black");
    assert!(err.contains("rank 5 (`9`) describes 9 cells"), "{err}");
    assert!(err.contains("rank 2 (`7`) describes 7 cells"), "{err}");
    let err = refused_edit(draughts, DRAUGHTS_START, "8/8/8/8/8/8/8/8/8 black");
    assert!(
        err.contains("9 ranks separated by `/`; this board has 8"),
        "{err}"
    );
    let err = refused_edit(draughts, DRAUGHTS_START, "8/8/8/8/8/8/8 black");
    assert!(
        err.contains("7 ranks separated by `/`; this board has 8"),
        "{err}"
    );
    // Stacks, hands and marks count one cell a piece.
    let err = refused_edit(
        "variants/backgammon.yaml",
        "C(2)4c(5)1c(3)3C(5)2/",
        "C(2)4c(5)1c(3)3C(5)2C/",
    );
    assert!(
        err.contains("describes 15 cells; the board has 14 files"),
        "{err}"
    );
    let err = refused_edit(
        "variants/shogi.yaml",
        "lnsgkgsnl/1r5b1/",
        "lnsgkgsnl/1r5+b2/",
    );
    assert!(err.contains("rank 8 (`1r5+b2`) describes 10"), "{err}");
}

#[test]
fn sowing_a_counter_that_starts_negative_is_refused() {
    insta::assert_snapshot!(
        "sown_counter_starts_negative",
        refused_edit(
            "tests/variants/kalah.yaml",
            "seeds: { pits: 4 }",
            "seeds: { pits: 4, north_store: -1 }"
        )
    );
}

#[test]
fn a_counter_amount_that_could_saturate_is_refused() {
    let effects = "tests/variants/declared_effects.yaml";
    insta::assert_snapshot!(
        "add_amount_too_large",
        refused_edit(effects, "{ add: 2,", "{ add: 9223372036854775807,")
    );
    let err = refused_edit(effects, "{ add: -1,", "{ add: -1000001,");
    assert!(err.contains("expected -1000000 to 1000000"), "{err}");
    let err = refused_edit(
        "examples/variants/pond.yaml",
        "amount: 1",
        "amount: 9223372036854775807",
    );
    assert!(
        err.contains("TMP/examples/variants/pond.yaml:56:5: ")
            && err.contains("expected 0 to 1000000"),
        "{err}"
    );
    // The bound itself loads.
    let (dir, path) = (tempfile::tempdir().unwrap(), Path::new(ROOT).join(effects));
    let copy = dir.path().join("e.yaml");
    let yaml = std::fs::read_to_string(path).unwrap();
    std::fs::write(&copy, yaml.replace("{ add: 2,", "{ add: 1000000,")).unwrap();
    load(&copy).unwrap();
}

const MAN_STEP: &str = "      - { step: forward_diagonal, onto: empty }\n";

#[test]
fn repeated_and_too_many_moves_are_refused() {
    let draughts = "variants/english_draughts.yaml";
    insta::assert_snapshot!(
        "move_listed_twice",
        refused_edit(draughts, MAN_STEP, &MAN_STEP.repeat(2))
    );
    // The same move written otherwise (keys in another order) is the same.
    let err = refused_edit(
        draughts,
        MAN_STEP,
        &format!("{MAN_STEP}      - {{ onto: empty, step: forward_diagonal }}\n"),
    );
    assert!(
        err.contains(":35:9: ") && err.contains("line 34, column 9"),
        "{err}"
    );
    // 10,000 of them: refused at once, without building their tables.
    let start = Instant::now();
    insta::assert_snapshot!(
        "moves_beyond_the_limit",
        refused_edit(draughts, MAN_STEP, &MAN_STEP.repeat(10_000))
    );
    assert!(start.elapsed() < Duration::from_secs(5));
    // Within each kind's limit, beyond the variant's.
    let kinds: String = (0..9)
        .map(|i| {
            let moves: String = (1..=30)
                .map(|n| format!("      - {{ path: diagonal, steps: {n} }}\n"))
                .collect();
            format!("  k{i}:\n    symbol: k\n    count: 0\n    moves:\n{moves}")
        })
        .collect();
    let err = refused_edit(draughts, "pieces:\n", &format!("pieces:\n{kinds}"));
    assert!(
        err.contains("piece `k8`: a variant's kinds declare at most 256 moves together (with this kind's, 270)"),
        "{err}"
    );
}

#[test]
fn an_empty_phase_list_is_refused() {
    let pond = "examples/variants/pond.yaml";
    insta::assert_snapshot!(
        "empty_phase_list",
        refused_edit(
            pond,
            "phases:\n  - { name: mooring, actions: [moor], order: reverse, rounds: 1 }\n  - { name: fishing, actions: [row, fish] }\n",
            "phases: []\n"
        )
    );
}

#[test]
fn a_window_opened_after_a_reaction_is_refused() {
    let pond = "examples/variants/pond.yaml";
    insta::assert_snapshot!(
        "window_after_its_own_reaction",
        refused_edit(
            pond,
            "    actions: [cut]\n",
            "    actions: [cut]\n    after: [cut]\n"
        )
    );
    // Two windows, each opened after the other's reaction.
    let err = refused_edits(
        pond,
        &[
            (
                "    actions: [cut]\n    on_pass: land\n",
                "    actions: [cut]\n    after: [net]\n    on_pass: land\n  snag:\n    actions: [net]\n    after: [cut]\n    on_pass: land\n",
            ),
            ("    perform: cut\n", "    perform: cut\n  net:\n    perform: cut\n"),
        ],
    );
    assert!(
        err.contains("reactions.pike.after: `net` is a reaction (reactions.snag.actions)"),
        "{err}"
    );
    assert!(
        err.contains("reactions.snag.after: `cut` is a reaction (reactions.pike.actions)"),
        "{err}"
    );
}
