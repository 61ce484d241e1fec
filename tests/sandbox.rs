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
    strike_with_head("", body)
}

/// [`strike_with`] with `head` (whole lines) before the hook.
fn strike_with_head(head: &str, body: &str) -> (String, GameState, GameState) {
    let src = format!("{head}function rules.strike(g, a, d)\n{body}\nreturn \"attacker\"\nend\n");
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
    // The script's file and the loop's line, not the host's prelude.
    assert!(
        err.contains("rules.lua:3: instruction budget exceeded"),
        "{err}"
    );
    assert!(!err.contains("host"), "{err}");
    assert_eq!(before, after);
    // Inside a library function (string patterns) too.
    let (err, before, after) =
        strike_with("local s = string.rep('a', 30) .. 'b'\nwhile true do s:find('(a*)*$') end");
    assert!(
        err.contains("budget") && err.contains("rules.lua:3:"),
        "{err}"
    );
    assert_eq!(before, after);
}

#[test]
fn a_script_compiled_to_machine_code_keeps_the_budget_and_the_memory_limit() {
    // `--!native` on the first line: Luau's native code generation.
    let (err, before, after) = strike_with_head("--!native\n", "while true do end");
    assert!(
        err.contains("rules.lua:3: instruction budget exceeded"),
        "{err}"
    );
    assert_eq!(before, after);
    let (err, before, after) = strike_with_head(
        "--!native\n",
        "local t = {}\nfor i = 1, 1e9 do t[i] = string.rep('x', 1024) .. i end",
    );
    assert!(err.contains("memory") || err.contains("budget"), "{err}");
    assert!(err.contains("rules.lua:4:"), "{err}");
    assert_eq!(before, after);
}

#[test]
fn a_memory_bomb_is_stopped_and_changes_nothing() {
    let (err, before, after) =
        strike_with("local t = {}\nfor i = 1, 1e9 do t[i] = string.rep('x', 1024) .. i end");
    assert!(err.contains("memory") || err.contains("budget"), "{err}");
    assert!(
        err.contains("rules.lua:3:") && !err.contains("host"),
        "{err}"
    );
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

// ---- issue 24: a sandbox that holds against a hostile variant or REPL line

/// Runs `f` on its own thread and fails if it takes longer than `secs`
/// (a hang on today's code is a failure, not a stuck test run).
fn within<R: Send + 'static>(secs: u64, f: impl FnOnce() -> R + Send + 'static) -> R {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(std::time::Duration::from_secs(secs))
        .unwrap_or_else(|_| panic!("took over {secs} s"))
}

/// Evaluates REPL Lua (`lua ...`) against classic Stratego's start.
fn eval(code: &str) -> Result<String, String> {
    let e = common::engine("classic_stratego", &[]);
    let s = common::position(&e, STRIKE_POSITION);
    e.rules.eval(&s, &e.variant, code)
}

#[test]
fn bytes_below_tab_never_reach_the_bytecode_loader() {
    for code in ["\x06\x03\x01", "\x1bLua"] {
        assert!(eval(code).is_err(), "{code:?}");
    }
    // Luau reads a NUL as the end of the text: no crash either way.
    let _ = eval("\x00\x01");
    let (_dir, e) = load("\x06\x03\x01");
    assert!(e.is_err());
}

#[test]
fn the_repl_survives_a_bytecode_line() {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sandtable"))
        .args(["repl", "classic_stratego"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"lua \x06\x03\x01\nlua 1 + 1\n")
        .unwrap();
    let status = child.wait().unwrap();
    assert!(status.code().is_some(), "killed by a signal: {status:?}");
}

#[test]
fn pcall_gets_no_fresh_budget() {
    for body in [
        "while true do pcall(function() while true do end end) end",
        "while true do xpcall(function() while true do end end, function() while true do end end) end",
        "local m = setmetatable({}, { __tostring = function() while true do end end })\nwhile true do pcall(tostring, m) end",
        "while true do pcall(function() local t = {} for i = 1, 1e9 do t[i] = string.rep('x', 1024) .. i end end) end",
    ] {
        let (err, before, after) = within(20, move || strike_with(body));
        assert!(err.contains("budget") || err.contains("memory"), "{body}: {err}");
        assert!(err.contains("rules.lua:"), "{body}: {err}");
        assert_eq!(before, after);
    }
    let msg = within(20, || {
        load("while true do pcall(function() while true do end end) end")
            .1
            .err()
            .expect("load fails")
    });
    assert!(
        msg.contains("budget") && msg.contains("rules.lua:1"),
        "{msg}"
    );
    let msg = within(20, || {
        eval("while true do pcall(function() while true do end end) end").unwrap_err()
    });
    assert!(msg.contains("budget"), "{msg}");
}

#[test]
fn host_work_for_a_script_is_bounded() {
    for body in [
        "for i = 1, 1e6 do g:log(string.rep('x', 1e6)) end",
        "for i = 1, 1e6 do g:set_counter('c' .. i, i) end",
        "for i = 1, 1e6 do g:set_attr(a.id, 'k' .. i, i) end",
        "for i = 1, 1e6 do g:set_mark('a1', 'm' .. i, 'v') end",
        "for i = 1, 1e6 do g:reveal(a.id, 'all') end",
        "for i = 1, 1e6 do local s = string.rep('x', 1e6) end",
    ] {
        let (err, before, after) = within(20, move || strike_with(body));
        assert!(!err.is_empty(), "{body}");
        assert_eq!(before, after);
    }
    for (body, word) in [
        ("g:log(string.rep('x', 5000))", "log"),
        ("g:set_counter(string.rep('c', 500), 1)", "name"),
        ("g:set_attr(a.id, string.rep('c', 500), 1)", "name"),
        (
            "local o = {} for i = 1, 10000 do o[i] = 'o' .. i end g:choose('red', 'pick', o)",
            "options",
        ),
    ] {
        let (err, _, _) = strike_with(body);
        assert!(err.contains(word) && err.contains("limit"), "{body}: {err}");
    }
    // Printing a table of shared sub-tables is cut short.
    let code = "(function() local t = {} for i = 1, 300 do t[i] = i end \
                local u = {} for i = 1, 300 do u[i] = t end \
                local v = {} for i = 1, 300 do v[i] = u end return v end)()";
    let out = within(20, move || eval(code).unwrap());
    assert!(out.len() <= 10_000 && out.contains('…'), "{}", out.len());
}

#[test]
fn a_hook_may_not_keep_state_in_upvalues() {
    let (_dir, e) = load(
        "local n = 0\nfunction rules.strike(g, a, d)\n  n = n + 1\n  return 'attacker'\nend\n",
    );
    let msg = e.err().expect("refused");
    assert!(
        msg.contains("rules.lua:3") && msg.contains("upvalue"),
        "{msg}"
    );
    // Through a nested closure too.
    let (_dir, e) = load("local n = 0\nfunction rules.strike(g, a, d)\n  local function f() n = n + 1 end\n  f()\n  return 'attacker'\nend\n");
    let msg = e.err().expect("refused");
    assert!(msg.contains("rules.lua:3"), "{msg}");
    // A buffer kept between calls is state as well.
    let (_dir, e) = load("local b = buffer.create(4)\nfunction rules.strike(g, a, d)\n  buffer.writeu8(b, 0, 1)\n  return 'attacker'\nend\n");
    assert!(e.err().expect("refused").contains("buffer"));
    // An inner closure writing its own hook call's local is fine.
    let (_dir, e) = load("function rules.strike(g, a, d)\n  local n = 0\n  local function f() n = n + 1 end\n  f() f()\n  return n == 2 and 'attacker' or 'defender'\nend\n");
    let e = e.unwrap_or_else(|m| panic!("{m}"));
    let mut s = common::position(&e, STRIKE_POSITION);
    common::play(&e, &mut s, &["e4-e5"]);
    assert_eq!(common::kind_at(&e, &s, "e5").as_deref(), Some("major"));
}

#[test]
fn libraries_and_what_scripts_close_over_are_frozen() {
    for body in [
        "string.n = 1",
        "math.pi = 3",
        "table.insert = nil",
        "getmetatable('').n = 1",
        "getmetatable('').__index.n = 1",
        "setmetatable(_G, {})",
        "rawset(string, 'n', 1)",
    ] {
        let (err, before, after) = strike_with(body);
        assert!(err.contains("rules.lua:2"), "{body}: {err}");
        assert_eq!(before, after);
    }
    // Tables the script's functions close over, or hang on _G's metatable.
    let (_dir, e) = load("local seen = {}\nfunction rules.strike(g, a, d)\n  seen[#seen + 1] = 1\n  return 'attacker'\nend\n");
    let e = e.unwrap_or_else(|m| panic!("{m}"));
    let s = common::position(&e, STRIKE_POSITION);
    let err = e
        .apply(&mut s.clone(), &common::act(&e, &s, "e4-e5"))
        .unwrap_err();
    assert!(err.to_string().contains("rules.lua:3"), "{err}");
    let (_dir, e) = load("local store = { n = 0 }\nsetmetatable(_G, { __index = store })\nfunction rules.strike(g, a, d)\n  store.n = n + 1\n  return 'attacker'\nend\n");
    let e = e.unwrap_or_else(|m| panic!("{m}"));
    let s = common::position(&e, STRIKE_POSITION);
    assert!(e
        .apply(&mut s.clone(), &common::act(&e, &s, "e4-e5"))
        .is_err());
    // The REPL's read-only `lua` as well.
    for code in ["string.n = 1", "getmetatable('').n = 1", "math.floor = nil"] {
        assert!(eval(code).is_err(), "{code}");
    }
    assert!(eval("string.n").unwrap() == "nil");
}

#[test]
fn errors_say_where_and_in_which_hook() {
    let (err, _, _) = strike_with("while true do end");
    assert!(
        err.contains("rules.lua:2") && err.contains("rules.strike"),
        "{err}"
    );
    let (_dir, e) = load("\n\nwhile true do end");
    let msg = e.err().unwrap();
    assert!(msg.contains("rules.lua:3"), "{msg}");
    let (err, _, _) =
        strike_with("local t = {}\nfor i = 1, 1e9 do t[i] = string.rep('x', 1024) .. i end");
    assert!(
        err.contains("memory") && err.contains("rules.lua:3"),
        "{err}"
    );
    assert!(err.contains("rules.strike"), "{err}");
    for body in [
        "error(nil)",
        "error({})",
        "error(setmetatable({}, { __tostring = function() error('inner') end }))",
    ] {
        let (err, _, _) = strike_with(body);
        assert!(
            err.contains("rules.lua") && err.contains("rules.strike"),
            "{body}: {err}"
        );
        assert!(err.contains("error"), "{body}: {err}");
    }
    // A hook answering the wrong type.
    let (_dir, e) = load("function rules.strike(g, a, d) end");
    let e = e.unwrap();
    let s = common::position(&e, STRIKE_POSITION);
    let err = e
        .apply(&mut s.clone(), &common::act(&e, &s, "e4-e5"))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("rules.strike") && err.contains("nil") && err.contains("string"),
        "{err}"
    );
}

#[test]
fn control_characters_never_reach_a_terminal() {
    let (err, _, _) = strike_with("error('\\27[2J\\27[31mred')");
    assert!(!err.contains('\x1b') && err.contains("\\x1b"), "{err:?}");
    let (_dir, e) = load("function rules.strike(g, a, d)\n  print('\\27[31mp')\n  g:log('\\27[2Jl')\n  return 'attacker'\nend\n");
    let e = e.unwrap();
    let mut s = common::position(&e, STRIKE_POSITION);
    let a = common::act(&e, &s, "e4-e5");
    let events = format!("{:?}", e.apply(&mut s, &a).unwrap());
    assert!(
        events.contains("\\\\x1b[31mp"),
        "print goes to the log: {events}"
    );
    assert!(events.contains("\\\\x1b[2Jl"), "{events}");
    assert!(!events.contains("\\u{1b}"), "{events}");
}

#[test]
fn a_wrong_answer_names_the_line_where_the_hook_is_defined() {
    // An answer has no line of its own: the error names the hook's.
    let (err, before, after) = strike_with("do return 'sideways' end");
    assert!(
        err.contains("rules.lua:1: rules.strike returned \"sideways\""),
        "{err}"
    );
    assert_eq!(before, after);
    let (err, _, _) = strike_with("do return {} end");
    assert!(
        err.contains("rules.lua:1: rules.strike must return a string"),
        "{err}"
    );
}

// ---- issue 38: caught errors and failed allocations count against the budget

/// How long `f` took, in seconds.
fn timed<R>(f: impl FnOnce() -> R) -> (R, f64) {
    let t = std::time::Instant::now();
    let r = f();
    (r, t.elapsed().as_secs_f64())
}

#[test]
fn a_load_that_keeps_catching_a_memory_error_ends() {
    for head in ["", "--!native\n"] {
        let src = format!(
            "{head}local t = {{}} while true do pcall(function() while true do \
             t[#t+1] = string.rep('x', 100) end end) end"
        );
        let (msg, secs) = timed(|| within(60, move || load(&src).1.err().expect("load fails")));
        assert!(msg.contains("memory") || msg.contains("budget"), "{msg}");
        assert!(msg.contains("rules.lua:"), "{msg}");
        // Filling the memory takes most of it (today's main never ends).
        assert!(secs < 10.0, "{head:?}: the load took {secs:.1} s");
    }
}

#[test]
fn a_hook_looping_on_caught_errors_is_stopped_quickly() {
    for (body, bound) in [
        ("while true do pcall(error, 'x') end", 1.0),
        ("while true do pcall(function() g:capture(9999) end) end", 1.0),
        ("while true do xpcall(error, function(e) return e end, 'x') end", 1.0),
        // Filling the memory takes most of this one.
        ("local t = {}\nwhile true do pcall(function() while true do t[#t+1] = string.rep('x', 100) end end) end", 5.0),
    ] {
        let ((err, before, after), secs) = timed(|| within(60, move || strike_with(body)));
        assert!(err.contains("budget") || err.contains("memory"), "{body}: {err}");
        assert!(err.contains("rules.lua:"), "{body}: {err}");
        assert_eq!(before, after);
        eprintln!("{body}: {secs:.2} s");
        assert!(secs < bound, "{body}: the call took {secs:.1} s");
    }
    // Errors caught now and then are still only errors.
    let (_dir, e) = load(
        "function rules.strike(g, a, d)\n  for i = 1, 100 do\n    local ok, m = pcall(error, {code = i})\n    \
         assert(not ok and m.code == i)\n  end\n  local ok, m = xpcall(error, function(e) return 'h:' .. e end, 'x', 0)\n  \
         assert(not ok and m == 'h:x', m)\n  local ok2, a1, a2 = pcall(function(x, y) return x, y end, 1, 2)\n  \
         assert(ok2 and a1 == 1 and a2 == 2)\n  return 'attacker'\nend\n",
    );
    let e = e.unwrap();
    let s = common::position(&e, STRIKE_POSITION);
    let mut t = s.clone();
    e.apply(&mut t, &common::act(&e, &s, "e4-e5")).unwrap();
}

#[test]
fn a_choice_with_no_such_handler_is_refused_where_it_is_asked() {
    let (err, before, after) =
        strike_with("g:choose('red', 'pick', { 'x', 'y' }, false, 'no_such_handler')");
    assert!(
        err.contains("rules.lua:2") && err.contains("no_such_handler"),
        "{err}"
    );
    assert_eq!(before, after);
}
