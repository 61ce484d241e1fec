//! Lua runs sandboxed: no io, os, require or load; a runaway loop or a memory
//! bomb aborts that action and leaves the game as it was.

mod common;
use std::path::PathBuf;

use sandtable::base::state::GameState;
use sandtable::engine::{ActionError, Engine};

/// A copy of classic Stratego whose script is `lua`.
fn variant_with_script(lua: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let yaml = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/variants/classic_stratego.yaml"
    ))
    .unwrap()
    .replace(
        "script: ../scripts/classic_stratego.lua",
        "script: rules.lua",
    );
    let path = dir.path().join("copy.yaml");
    std::fs::write(&path, yaml).unwrap();
    std::fs::write(dir.path().join("rules.lua"), lua).unwrap();
    (dir, path)
}

fn load(lua: &str) -> (tempfile::TempDir, Result<Engine, String>) {
    let (dir, path) = variant_with_script(lua);
    let r = Engine::load(path.to_str().unwrap(), &[]).map_err(|e| e.to_string());
    (dir, r)
}

const STRIKE_POSITION: &str = r#"
to_move: red
pieces:
  - { at: e4, owner: red, kind: major }
  - { at: e5, owner: blue, kind: captain }
  - { at: a1, owner: red, kind: flag }
  - { at: j10, owner: blue, kind: flag }
"#;

/// Loads a script whose strike hook runs `body`, strikes, and returns the
/// error with the state it left.
fn strike_with(body: &str) -> (String, GameState, GameState) {
    let src = format!("function rules.strike(g, a, d)\n{body}\nreturn \"attacker\"\nend\n");
    let (_dir, e) = load(&src);
    let e = e.unwrap_or_else(|m| panic!("{m}"));
    let s = common::position(&e, STRIKE_POSITION);
    let mut t = s.clone();
    let a = common::act(&e, &s, "e4-e5");
    let err = match e.apply(&mut t, &a) {
        Err(ActionError::Script(m)) => m,
        other => panic!("expected a script error, got {other:?}"),
    };
    (err, s, t)
}

#[test]
fn io_os_require_load_are_absent() {
    for (body, word) in [
        ("io.open('/etc/passwd')", "io"),
        ("os.execute('true')", "os"),
        ("require('x')", "require"),
        ("load('return 1')()", "load"),
        ("loadstring('return 1')()", "loadstring"),
        ("getfenv(1)", "getfenv"),
        ("setfenv(1, {})", "setfenv"),
        ("debug.traceback()", "debug"),
        ("dofile('/etc/passwd')", "dofile"),
    ] {
        let (err, before, after) = strike_with(body);
        assert!(err.contains("rules.lua:2"), "{body}: {err}");
        assert!(err.contains("nil") || err.contains(word), "{body}: {err}");
        assert_eq!(before, after, "{body} changed the game");
    }
}

#[test]
fn a_runaway_loop_is_stopped_and_changes_nothing() {
    let (err, before, after) = strike_with("g:reveal(a.id, 'all')\nwhile true do end");
    assert!(err.contains("budget"), "{err}");
    assert_eq!(before, after);
    // Inside a library function (string patterns) too.
    let (err, before, after) =
        strike_with("local s = string.rep('a', 30) .. 'b'\nwhile true do s:find('(a*)*$') end");
    assert!(err.contains("budget") || err.contains("rules.lua"), "{err}");
    assert_eq!(before, after);
}

#[test]
fn a_memory_bomb_is_stopped_and_changes_nothing() {
    let (err, before, after) =
        strike_with("local t = {}\nfor i = 1, 1e9 do t[i] = string.rep('x', 1024) .. i end");
    assert!(err.contains("memory") || err.contains("budget"), "{err}");
    assert_eq!(before, after);
    // The rules still work afterwards.
    let (_dir, e) = load("function rules.strike(g, a, d)\n local t = {}\n for i = 1, 1e9 do t[i] = string.rep('x', 4096) .. i end\n return 'attacker'\nend\nfunction rules.after_action(g, text) end");
    let e = e.unwrap();
    let s = common::position(&e, STRIKE_POSITION);
    assert!(e
        .apply(&mut s.clone(), &common::act(&e, &s, "e4-e5"))
        .is_err());
    let mut t = s.clone();
    common::play(&e, &mut t, &["e4-e3"]);
}

#[test]
fn scripts_keep_no_state_of_their_own() {
    let (err, before, after) = strike_with("counter = (counter or 0) + 1");
    assert!(
        err.contains("readonly") || err.contains("read-only"),
        "{err}"
    );
    assert_eq!(before, after);
    let (err, _, _) = strike_with("rules.extra = 1");
    assert!(
        err.contains("readonly") || err.contains("read-only"),
        "{err}"
    );
}

#[test]
fn math_random_draws_from_the_game_seed() {
    let src = "function rules.strike(g, a, d)\n if math.random(2) == 1 then return 'attacker' end\n return 'defender'\nend\n";
    let (_dir, e) = load(src);
    let e = e.unwrap();
    let mut results = Vec::new();
    for seed in 0..16 {
        let mut s = common::position(&e, &format!("seed: {seed}\n{STRIKE_POSITION}"));
        let mut again = s.clone();
        common::play(&e, &mut s, &["e4-e5"]);
        common::play(&e, &mut again, &["e4-e5"]);
        assert_eq!(s, again, "same seed, same draw");
        results.push(common::kind_at(&e, &s, "e5"));
    }
    assert!(results.iter().any(|k| k.as_deref() == Some("major")));
    assert!(results.iter().any(|k| k.as_deref() == Some("captain")));
    // Outside a rule call, math.random is refused.
    let (_dir, e) = load("local x = math.random(3)");
    assert!(e.is_err());
}

#[test]
fn a_runaway_loop_at_load_time_is_a_load_error() {
    let (_dir, e) = load("while true do end");
    let msg = e.err().expect("load fails");
    assert!(msg.contains("budget"), "{msg}");
}

#[test]
fn runtime_errors_name_the_script_line() {
    let (err, before, after) = strike_with("local x = nil\nlocal y = x.field");
    assert!(err.contains("rules.lua:3"), "{err}");
    assert_eq!(before, after);
    // An error raised by the host API names the calling line as well.
    let (err, _, _) = strike_with("g:capture(9999)");
    assert!(
        err.contains("rules.lua:2") && err.contains("no piece 9999"),
        "{err}"
    );
    // A bad answer from the hook.
    let (_dir, e) = load("function rules.strike(g, a, d) return 'maybe' end");
    let e = e.unwrap();
    let s = common::position(&e, STRIKE_POSITION);
    let err = e
        .apply(&mut s.clone(), &common::act(&e, &s, "e4-e5"))
        .unwrap_err();
    assert!(err.to_string().contains("maybe"), "{err}");
}

#[test]
fn the_api_refuses_what_would_break_the_game() {
    let (err, before, after) = strike_with("g:capture(d.id)\ng:move(a.id, 'c5')");
    assert!(
        err.contains("rules.lua:3") && err.contains("blocks"),
        "{err}"
    );
    assert_eq!(before, after);
    let (err, _, _) = strike_with("g:choose('red', 'pick', { 'x', 'x' })");
    assert!(err.contains("distinct"), "{err}");
    let (err, _, _) = strike_with("g:choose('green', 'pick', { 'x' })");
    assert!(err.contains("unknown player `green`"), "{err}");
    let (err, _, _) = strike_with("g:reveal(a.id, 42)");
    assert!(err.contains("expected"), "{err}");
}
