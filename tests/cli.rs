//! The real binary: `check`, `apply`, `bench`, `perft` and a scripted REPL.

mod common;

use std::path::Path;
use std::process::Output;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn run(dir: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    common::run_bin(dir, args, stdin.unwrap_or("").as_bytes())
}

/// The 1-based line of the copied script that holds `needle`.
fn script_line(dir: &Path, needle: &str) -> usize {
    std::fs::read_to_string(dir.join("scripts/classic_stratego.lua"))
        .unwrap()
        .lines()
        .position(|l| l.contains(needle))
        .unwrap()
        + 1
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// A temporary copy of classic Stratego (YAML and script) to break on purpose.
fn copy_variant(
    edit_yaml: impl Fn(String) -> String,
    edit_lua: impl Fn(String) -> String,
) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("variants")).unwrap();
    std::fs::create_dir(dir.path().join("scripts")).unwrap();
    let yaml = std::fs::read_to_string(format!("{ROOT}/variants/classic_stratego.yaml")).unwrap();
    let lua = std::fs::read_to_string(format!("{ROOT}/scripts/classic_stratego.lua")).unwrap();
    std::fs::write(dir.path().join("variants/copy.yaml"), edit_yaml(yaml)).unwrap();
    std::fs::write(
        dir.path().join("scripts/classic_stratego.lua"),
        edit_lua(lua),
    )
    .unwrap();
    dir
}

#[test]
fn check_accepts_the_bundled_variant() {
    let o = run(Path::new(ROOT), &["check", "classic_stratego"], None);
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn check_notes_a_variant_that_relies_on_the_default_evaluation() {
    // No `rules.evaluate`: with --notes, a note (on standard output), and
    // still success.
    let o = run(
        Path::new(ROOT),
        &["check", "--notes", "classic_stratego"],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        out.contains("note:") && out.contains("no `rules.evaluate`") && out.contains("1 + rank"),
        "{out}"
    );
    // With one, no note.
    let dir = copy_variant(
        |y| y,
        |l| format!("{l}\nfunction rules.evaluate(g, player)\n  return 0.5\nend\n"),
    );
    let o = run(
        dir.path(),
        &["check", "--notes", "variants/copy.yaml"],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(!text(&o).contains("rules.evaluate"), "{}", text(&o));
}

#[test]
fn check_names_file_line_and_column_of_a_misspelt_key() {
    let dir = copy_variant(
        |y| y.replace("hidden_identities:", "hiden_identities:"),
        |l| l,
    );
    let o = run(dir.path(), &["check", "variants/copy.yaml"], None);
    assert_eq!(o.status.code(), Some(1));
    let out = text(&o);
    insta::assert_snapshot!("misspelt_key", out.trim());
}

#[test]
fn check_names_file_line_of_a_lua_syntax_error() {
    let dir = copy_variant(
        |y| y,
        |l| {
            l.replace(
                "if defender.kind == \"bomb\" then",
                "if defender.kind == \"bomb\" then then",
            )
        },
    );
    let o = run(dir.path(), &["check", "variants/copy.yaml"], None);
    assert_eq!(o.status.code(), Some(1));
    let out = text(&o);
    insta::assert_snapshot!("lua_syntax_error", out.trim());
}

#[test]
fn check_plays_random_games_and_names_the_line_of_a_hook_that_fails() {
    // The script loads; its strike hook fails only when a strike happens.
    let dir = copy_variant(
        |y| y,
        |l| {
            format!(
                "{l}\nfunction rules.strike(g, a, d)\n  local t = nil\n  return t.winner\nend\n"
            )
        },
    );
    let o = run(dir.path(), &["check", "variants/copy.yaml"], None);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = text(&o);
    let line = script_line(dir.path(), "return t.winner");
    assert!(
        out.contains(&format!("scripts/classic_stratego.lua:{line}:")),
        "{out}"
    );
    assert!(
        out.contains("a random game (seed 1) hit a rule error"),
        "{out}"
    );
    // The bundled variant passes, having played its games.
    let o = run(Path::new(ROOT), &["check", "classic_stratego"], None);
    assert!(text(&o).contains("random games played"), "{}", text(&o));
}

#[test]
fn check_points_at_the_yaml_line_of_errors_found_after_parsing() {
    let dir = copy_variant(
        |y| {
            y.replace("lake: [c5:d6, g5:h6]", "lake: [c5:d6, g5:h16]")
                .replace(
                    "repetition_limit: $two_squares_limit",
                    "repetition_limit: $two_square_limit",
                )
                .replace(
                    "{ step: orthogonal }], attrs: { defuses",
                    "{ step: sideways }], attrs: { defuses",
                )
        },
        |l| l,
    );
    let o = run(dir.path(), &["check", "variants/copy.yaml"], None);
    assert_eq!(o.status.code(), Some(1));
    insta::assert_snapshot!("errors_after_parsing", text(&o).trim());
}

#[test]
fn apply_prints_events_and_the_position_and_names_an_illegal_action() {
    let o = run(
        Path::new(ROOT),
        &[
            "apply",
            "classic_stratego",
            "--seed",
            "3",
            "--as",
            "blue",
            "a4-a5",
            "f7-f5",
        ],
        None,
    );
    assert!(o.status.success(), "{}", text(&o));
    insta::assert_snapshot!("apply_as_blue", text(&o));
    let o = run(
        Path::new(ROOT),
        &["apply", "classic_stratego", "--seed", "3", "a4-a5", "a5-a7"],
        None,
    );
    assert!(!o.status.success());
    let out = text(&o);
    assert!(out.contains("action 2 (`a5-a7`): illegal:"), "{out}");
    assert!(
        out.contains("belongs to red, and it is blue's turn"),
        "{out}"
    );
}

#[test]
fn apply_from_a_position_file() {
    let dir = tempfile::tempdir().unwrap();
    let pos = dir.path().join("p.yaml");
    std::fs::write(
        &pos,
        "variant: classic_stratego\nto_move: red\npieces:\n  - { at: e4, owner: red, kind: miner }\n  - { at: e5, owner: blue, kind: bomb }\n  - { at: a1, owner: red, kind: flag }\n  - { at: j10, owner: blue, kind: flag }\n  - { at: j7, owner: blue, kind: scout }\n",
    )
    .unwrap();
    let o = run(
        dir.path(),
        &[
            "apply",
            "classic_stratego",
            "--position",
            "p.yaml",
            "e4-e5",
            "--save",
            "out.yaml",
        ],
        None,
    );
    assert!(o.status.success(), "{}", text(&o));
    let out = text(&o);
    assert!(
        out.contains("strike: red Miner e4xe5 blue Bomb: the striker wins"),
        "{out}"
    );
    let saved = std::fs::read_to_string(dir.path().join("out.yaml")).unwrap();
    assert!(saved.contains("to_move: blue"), "{saved}");
}

#[test]
fn perft_counts_nodes() {
    let o = run(
        Path::new(ROOT),
        &["perft", "classic_stratego", "--seed", "1", "--depth", "2"],
        None,
    );
    assert!(o.status.success(), "{}", text(&o));
    let out = text(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("perft 1 "), "{out}");
    assert!(lines[1].starts_with("perft 2 "), "{out}");
}

#[test]
fn bench_prints_its_figures_last() {
    let o = run(
        Path::new(ROOT),
        &[
            "bench",
            "classic_stratego",
            "--playouts",
            "3",
            "--seed",
            "1",
        ],
        None,
    );
    assert!(o.status.success(), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    let last = out.lines().last().unwrap();
    assert!(
        last.starts_with("playouts/s: ") && last.contains("  plies/s: "),
        "{last}"
    );
}

#[test]
fn a_scripted_repl_session() {
    let dir = tempfile::tempdir().unwrap();
    let script = "\
# comments and blank lines are skipped

show red
actions
a4-a5
play a7-a6
history
undo
history
save-record game.yaml
load-record game.yaml
save-position pos.yaml
load-position pos.yaml
= g:player()
lua #g:pieces({owner = 'blue'})
help undo
quit
";
    let o = run(
        dir.path(),
        &["repl", "classic_stratego", "--seed", "9"],
        Some(script),
    );
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("ply 0: red to move   (viewing as red)"),
        "{out}"
    );
    assert!(out.contains("1. a4-a5\n2. a7-a6"), "{out}");
    assert!(out.contains("replayed 1 actions"), "{out}");
    assert!(out.contains("\"blue\""), "{out}");
    assert!(out.contains("\n40\n"), "{out}");
    assert!(out.contains("Take back the last N turns"), "{out}");
    assert!(dir.path().join("game.yaml").is_file() && dir.path().join("pos.yaml").is_file());
    // A failing command is reported, and the exit code says so.
    let o = run(
        dir.path(),
        &["repl", "--seed", "9"],
        Some("a4-a6\nfrobnicate\n"),
    );
    let out = text(&o);
    assert!(!o.status.success());
    assert!(out.contains("error: a4-a6: illegal:"), "{out}");
    assert!(out.contains("unknown command `frobnicate`"), "{out}");
}

#[test]
fn play_random_against_random_reaches_an_end() {
    let o = run(
        Path::new(ROOT),
        &[
            "play",
            "classic_stratego",
            "--seed",
            "5",
            "--red",
            "random",
            "--blue",
            "random",
        ],
        None,
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("game over:"), "{}", text(&o));
}

#[test]
fn play_takes_its_own_flags_after_the_seats() {
    // As the README writes it: `--clock` after the seat flags.
    let o = run(
        Path::new(ROOT),
        &[
            "play",
            "ultimate_lightning",
            "--red",
            "random",
            "--blue",
            "random",
            "--clock",
            "15m+5s",
            "--seed",
            "3",
            "-o",
            "rescues=2",
        ],
        None,
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("game over:"), "{}", text(&o));
    let o = run(
        Path::new(ROOT),
        &["play", "classic_stratego", "--red", "random", "--clock"],
        None,
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("`--clock` needs a value"), "{}", text(&o));
}

#[test]
fn play_human_reads_actions_from_standard_input() {
    let o = run(
        Path::new(ROOT),
        &[
            "play",
            "classic_stratego",
            "--seed",
            "5",
            "--red",
            "human",
            "--blue",
            "random",
        ],
        // First red's army (dealt from the seed), then actions.
        Some("random\nz1-z2\na1-a2\nactions\nhelp\nquit\n"),
    );
    assert!(o.status.success(), "{}", text(&o));
    let out = text(&o);
    assert!(out.contains("red: set up your army"), "{out}");
    assert!(
        out.contains("cannot read action") && out.contains("red leaves the game"),
        "{out}"
    );
    assert!(out.contains("type an action to play it"), "{out}");
    assert!(!out.contains("`h` is not a cell"), "{out}");
}

#[test]
fn replay_and_render_a_saved_record() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        dir.path(),
        &["repl", "ultimate_lightning", "--seed", "5"],
        Some("random 40\nsave-record g.yaml\n"),
    );
    assert!(o.status.success(), "{}", text(&o));
    let o = run(dir.path(), &["replay", "g.yaml", "--as", "red"], None);
    assert!(o.status.success(), "{}", text(&o));
    let out = text(&o);
    assert!(out.contains("1. ") && out.contains("outcome: "), "{out}");
    let o = run(
        dir.path(),
        &[
            "render",
            "ultimate_lightning",
            "--record",
            "g.yaml",
            "--ply",
            "10",
            "--as",
            "blue",
            "-o",
            "b.svg",
        ],
        None,
    );
    assert!(o.status.success(), "{}", text(&o));
    let svg = std::fs::read_to_string(dir.path().join("b.svg")).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("ply 10: red to move, seen by blue"),
        "{svg}"
    );
    assert!(svg.contains("red piece (unknown)"));
    // A tampered record stops at the action that fails.
    let rec = std::fs::read_to_string(dir.path().join("g.yaml")).unwrap();
    let first = rec
        .lines()
        .find(|l| l.starts_with("- "))
        .unwrap()
        .to_string();
    std::fs::write(
        dir.path().join("bad.yaml"),
        rec.replacen(&first, "- a1-a9", 1),
    )
    .unwrap();
    let o = run(dir.path(), &["replay", "bad.yaml"], None);
    assert!(!o.status.success());
    assert!(text(&o).contains("action 1 (`a1-a9`)"), "{}", text(&o));
}

#[test]
fn bench_reload_prints_its_figure() {
    let o = run(
        Path::new(ROOT),
        &["bench", "classic_stratego", "--reload", "50", "--seed", "1"],
        None,
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stdout)
        .lines()
        .last()
        .unwrap()
        .starts_with("reload+replay ms: "));
}

#[test]
fn replay_reads_ultima_movetext_and_reports_the_mate() {
    let o = run(
        Path::new(ROOT),
        &["replay", "ultima", "tests/data/fahys_yearout.ultima"],
        None,
    );
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("16. If6+"), "{out}");
    assert!(out.contains("17. Lh7:h4:h6 mat"), "{out}");
    assert!(
        out.trim_end()
            .ends_with("outcome: white wins (black is checkmated)"),
        "{out}"
    );
    // A wrong capture list stops the replay with the move and both lists.
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(
        &bad,
        "1.h2h5 f7f5 2.a2a5 g7g4 3.e2e4 c7c4 4.d2d4 Wb6 5.b2b4:c5",
    )
    .unwrap();
    let o = run(
        Path::new(ROOT),
        &["replay", "ultima", bad.to_str().unwrap()],
        None,
    );
    let out = text(&o);
    assert!(!o.status.success(), "{out}");
    assert!(
        out.contains("move 5. `b2b4:c5`: the text captures c5 but the engine captured c4"),
        "{out}"
    );
}

#[test]
fn perft_reads_a_fen_position() {
    let o = run(
        Path::new(ROOT),
        &[
            "perft",
            "ultima",
            "--position",
            "7k/8/8/8/3W4/3p4/8/K7 w",
            "--depth",
            "1",
        ],
        None,
    );
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.starts_with("perft 1 25\n"), "{out}");
}

#[test]
fn a_record_saved_as_one_player_is_read_by_load_record_and_replay() {
    let dir = tempfile::tempdir().unwrap();
    let session = "random 12\nsave-record seen.yaml --as red\nload-record seen.yaml\n";
    let o = run(
        dir.path(),
        &[
            "repl",
            &format!("{ROOT}/variants/classic_stratego.yaml"),
            "--seed",
            "3",
        ],
        Some(session),
    );
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("red's record of Classic Stratego (12 actions)"),
        "{out}"
    );
    assert!(
        out.contains("the game in the session is unchanged"),
        "{out}"
    );
    let o = run(dir.path(), &["replay", "seen.yaml"], None);
    let replayed = text(&o);
    assert!(o.status.success(), "{replayed}");
    assert!(
        replayed.contains("red's record of Classic Stratego (12 actions)"),
        "{replayed}"
    );
    assert!(replayed.contains("12. "), "{replayed}");
    // The record of one player holds no seed and cannot be shown as another.
    assert!(!std::fs::read_to_string(dir.path().join("seen.yaml"))
        .unwrap()
        .contains("seed"));
    let o = run(dir.path(), &["replay", "seen.yaml", "--as", "blue"], None);
    assert!(!o.status.success());
    assert!(text(&o).contains("this is red's record"), "{}", text(&o));
}

#[test]
fn check_plays_each_yes_no_option_flipped_and_names_the_option_set() {
    // The hook fails only under the option `check` flips.
    let dir = copy_variant(
        |y| y,
        |l| {
            format!(
                "{l}\nlocal base_strike = rules.strike\nfunction rules.strike(g, a, d, action)\n  if g:option(\"scout_move_and_strike\") and action.distance > 1 then\n    error(\"long strikes are not written yet\")\n  end\n  return base_strike(g, a, d, action)\nend\n"
            )
        },
    );
    let o = run(dir.path(), &["check", "variants/copy.yaml"], None);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = text(&o);
    let line = script_line(dir.path(), "long strikes are not written yet");
    assert!(
        out.contains("-o scout_move_and_strike=true) hit a rule error")
            && out.contains(&format!(
                "scripts/classic_stratego.lua:{line}: long strikes are not written yet (in rules.strike)"
            )),
        "{out}"
    );
}

/// `help` at `play`'s setup prompt says what may be typed there, instead of
/// reading `help` as a setup string; `help` at the move prompt does too.
#[test]
fn help_at_plays_setup_and_move_prompts_explains_them() {
    let o = run(
        Path::new(ROOT),
        &[
            "play",
            "classic_stratego",
            "--red",
            "human",
            "--blue",
            "random",
            "--seed",
            "1",
        ],
        Some("help\nrandom\nhelp\nquit\n"),
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains("red: type a setup string (one letter per cell of your setup zone)"),
        "{t}"
    );
    assert!(!t.contains("needs 40 letters"), "{t}");
    assert!(
        t.contains("type an action to play it (`actions` lists the legal ones)"),
        "{t}"
    );
    assert!(!t.contains("is not a cell"), "{t}");
}

// ---- issue 38: `check` fails when a game it plays ends because the rules failed

/// A temporary copy of the example variant `name` (YAML and script), the
/// script with `extra` appended; returns it with the appended lines' first
/// line number.
fn copy_example(name: &str, extra: &str) -> (tempfile::TempDir, usize) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("variants")).unwrap();
    std::fs::create_dir(dir.path().join("scripts")).unwrap();
    let yaml = std::fs::read_to_string(format!("{ROOT}/examples/variants/{name}.yaml")).unwrap();
    let lua = std::fs::read_to_string(format!("{ROOT}/examples/scripts/{name}.lua")).unwrap();
    let first = lua.lines().count() + 1;
    std::fs::write(dir.path().join(format!("variants/{name}.yaml")), yaml).unwrap();
    std::fs::write(
        dir.path().join(format!("scripts/{name}.lua")),
        format!("{}\n{extra}", lua.trim_end_matches('\n')),
    )
    .unwrap();
    (dir, first)
}

#[test]
fn check_fails_when_a_game_ends_because_the_rules_failed() {
    for (name, extra, offset) in [
        (
            "pond",
            "function rules.on_phase_start(g, phase)\n  error('no phase today')\nend\n",
            1,
        ),
        (
            "mini_battle",
            "function rules.filter(g, moves)\n  error('no moves today')\nend\n",
            1,
        ),
        // A wrong answer names the line where the hook is defined.
        (
            "mini_battle",
            "function rules.filter(g, moves)\n  return 'garbage'\nend\n",
            0,
        ),
        // Hooks only bots call are asked too.
        (
            "mini_battle",
            "function rules.evaluate(g, player)\n  error('no idea')\nend\n",
            1,
        ),
        (
            "mini_battle",
            "function rules.consistent(g, piece)\n  return piece.nope.x\nend\n",
            1,
        ),
    ] {
        let (dir, first) = copy_example(name, extra);
        let file = format!("variants/{name}.yaml");
        let o = run(dir.path(), &["check", &file], None);
        let out = text(&o);
        assert_eq!(o.status.code(), Some(1), "{name}: {extra}: {out}");
        assert!(
            out.contains(&format!("scripts/{name}.lua:{}", first + offset)),
            "{name}: {extra}: {out}"
        );
        assert!(!out.contains(": ok ("), "{out}");
    }
}

/// `clock` at `play`'s move prompt shows the time left instead of being
/// read as an action; without a clock it says there is none.
#[test]
fn clock_at_plays_move_prompt_shows_the_time_left() {
    let reach = format!("{ROOT}/tests/variants/reach.yaml");
    let o = run(
        Path::new(ROOT),
        &["play", &reach, "--blue", "random", "--clock", "15m"],
        Some("clock\nquit\n"),
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains("clock: red 14:5") || t.contains("clock: red 15:00"),
        "{t}"
    );
    assert!(!t.contains("cannot read action"), "{t}");
    let o = run(
        Path::new(ROOT),
        &["play", &reach, "--blue", "random"],
        Some("clock\nquit\n"),
    );
    let t = text(&o);
    assert!(t.contains("no clock in this game"), "{t}");
    assert!(!t.contains("cannot read action"), "{t}");
}

/// After a capture `play` shows the captured pile under the board, as the
/// REPL's `show` does.
#[test]
fn play_shows_the_captured_pile_after_a_capture() {
    let reach = format!("{ROOT}/tests/variants/reach.yaml");
    let o = run(
        Path::new(ROOT),
        &["play", &reach, "--blue", "random"],
        Some("a1xc1\n"),
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("captured blue: A"), "{t}");
}

/// A record (or position) of a variant loaded by path names the variant by
/// a path relative to the record, so `replay RECORD`, `replay VARIANT
/// RECORD` and `load-record` read it from any working folder; a bundled
/// variant is still named by its name.
#[test]
fn records_of_a_variant_loaded_by_path_replay_from_another_folder() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("game");
    std::fs::create_dir_all(game.join("variants")).unwrap();
    std::fs::create_dir_all(game.join("records")).unwrap();
    std::fs::copy(
        format!("{ROOT}/tests/variants/reach.yaml"),
        game.join("variants/mine.yaml"),
    )
    .unwrap();
    let session = "a1-b1\nsave-record records/r.yaml\nsave-record records/seen.yaml --as red\nsave-position records/p.yaml\n";
    let o = run(&game, &["repl", "variants/mine.yaml"], Some(session));
    assert!(o.status.success(), "{}", text(&o));
    for f in ["r.yaml", "seen.yaml", "p.yaml"] {
        let t = std::fs::read_to_string(game.join("records").join(f)).unwrap();
        assert!(t.contains("variant: ../variants/mine.yaml"), "{f}: {t}");
    }
    // From the folder above, and from a folder elsewhere.
    let elsewhere = tempfile::tempdir().unwrap();
    let record = game.join("records/r.yaml").display().to_string();
    for cwd in [dir.path(), elsewhere.path()] {
        let o = run(cwd, &["replay", &record], None);
        assert!(o.status.success(), "replay RECORD: {}", text(&o));
        assert!(text(&o).contains("1. a1-b1"), "{}", text(&o));
        let o = run(cwd, &["replay", "whatever", &record], None);
        assert!(o.status.success(), "replay VARIANT RECORD: {}", text(&o));
        let seen = game.join("records/seen.yaml").display().to_string();
        let o = run(cwd, &["replay", &seen], None);
        assert!(o.status.success(), "replay SEEN: {}", text(&o));
        let o = run(
            cwd,
            &["repl", "classic_stratego"],
            Some(&format!(
                "load-record {record}\nload-position {}\n",
                game.join("records/p.yaml").display()
            )),
        );
        let t = text(&o);
        assert!(
            t.contains("replayed 1 actions") && t.contains("loaded position from"),
            "load-record: {t}"
        );
        assert!(!t.contains("no variant"), "{t}");
    }
    // A bundled variant keeps its name.
    let o = run(
        &game,
        &["repl", "classic_stratego"],
        Some("save-record records/b.yaml\n"),
    );
    assert!(o.status.success(), "{}", text(&o));
    let t = std::fs::read_to_string(game.join("records/b.yaml")).unwrap();
    assert!(t.starts_with("variant: classic_stratego\n"), "{t}");
}

/// Setup strings read in one order everywhere: each row of the setup zone
/// left to right as the player sees the board, the front row first; `new
/// --back-first` starts at the back row. On a zone narrower than the board
/// (two rows of four cells on six files) the rows are the zone's.
#[test]
fn setup_strings_read_front_row_first_everywhere_on_a_narrow_zone() {
    let dir = tempfile::tempdir().unwrap();
    let narrow = format!("{ROOT}/tests/variants/narrow.yaml");
    // Where the first letter (the King) stands, for each way of setting up.
    let king = |session: &str| -> (String, String) {
        let o = run(dir.path(), &["repl", &narrow], Some(session));
        let t = text(&o);
        let pos = std::fs::read_to_string(dir.path().join("p.yaml")).unwrap_or_default();
        std::fs::remove_file(dir.path().join("p.yaml")).ok();
        let pos: sandtable::record::Position =
            sandtable::record::parse_yaml(&pos, "p.yaml").unwrap_or_else(|e| panic!("{e}\n{t}"));
        let at = |owner: &str| {
            pos.pieces
                .iter()
                .find(|p| p.kind == "king" && p.owner == owner)
                .and_then(|p| p.at.clone())
                .unwrap_or_else(|| format!("no king of {owner}:\n{t}"))
        };
        (at("red"), at("blue"))
    };
    let (red, blue) =
        king("new --seed 1 --setup red=KWWWWWWW --setup blue=KWWWWWWW\nsave-position p.yaml\n");
    // Red's front row is rank 2, Blue's rank 5 (Blue's left is file e).
    assert_eq!((red.as_str(), blue.as_str()), ("b2", "e5"));
    let (red, blue) = king(
        "new --seed 1 --back-first --setup red=KWWWWWWW --setup blue=KWWWWWWW\nsave-position p.yaml\n",
    );
    assert_eq!((red.as_str(), blue.as_str()), ("b1", "e6"));
    // `play`'s prompt reads the same order as `new`, and `show` in `place`
    // lists the cells front row first.
    let o = run(
        dir.path(),
        &["play", &narrow, "--blue", "random", "--seed", "1"],
        Some("place\nshow\nquit\n"),
    );
    let t = text(&o);
    let (b2, b1) = (t.find("b2=").expect(&t), t.find("b1=").expect(&t));
    assert!(b2 < b1, "place lists the back row first:\n{t}");
    let o = run(
        dir.path(),
        &["play", &narrow, "--blue", "random", "--seed", "1"],
        Some("KWWWWWWW\nquit\n"),
    );
    let t = text(&o);
    let row = |r: &str| {
        t.lines()
            .find(|l| l.trim_start().starts_with(r))
            .unwrap_or_default()
            .to_string()
    };
    assert!(row("2 ").contains("RK") && !row("1 ").contains("RK"), "{t}");
    // `help new` says so.
    let o = run(dir.path(), &["repl", &narrow], Some("help new\n"));
    let t = text(&o);
    assert!(
        t.contains("front row first") && t.contains("--back-first"),
        "{t}"
    );
}
