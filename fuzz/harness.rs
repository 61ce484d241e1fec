//! What each fuzz target does with its input, shared with the regression
//! test (`tests/fuzz_regressions.rs`) that replays every input the fuzzers
//! ever found a fault with (`fuzz/regressions/TARGET/`).
//!
//! Every target holds the same two rules: no input makes the host panic
//! (or hang, or run out of memory: libFuzzer's limits catch those), and an
//! input that is refused changes nothing.
#![allow(dead_code)]

use sandtable::record::game::Positions;
use std::cell::RefCell;

use sandtable::engine::Engine;
use sandtable::front::session::Session;

/// The bundled variants every target plays.
pub const VARIANTS: [&str; 5] = [
    "classic_stratego",
    "ultimate_lightning",
    "lost_island",
    "chess",
    "ultima",
];

/// REPL commands that read or write files or start threads: a fuzzer must
/// not write over the machine's files, and reading them is covered by the
/// `position_record` and `variant_yaml` targets.
const FILE_COMMANDS: [&str; 10] = [
    "save-record",
    "save-position",
    "load-record",
    "load-position",
    "svg",
    "watch",
    "load",
    "reload",
    "new",
    "position",
];

fn manifest_dir() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The project root (the fuzz crate sits in `fuzz/`, the tests in the root).
fn root() -> std::path::PathBuf {
    let dir = manifest_dir();
    if dir.ends_with("fuzz") {
        dir.parent().unwrap().to_path_buf()
    } else {
        dir
    }
}

fn variant_path(name: &str) -> String {
    root()
        .join("variants")
        .join(format!("{name}.yaml"))
        .to_string_lossy()
        .into_owned()
}

thread_local! {
    static ENGINES: RefCell<Vec<Engine>> = RefCell::new(
        VARIANTS.iter().map(|v| Engine::load(&variant_path(v), &[]).unwrap()).collect()
    );
    static SESSIONS: RefCell<Vec<Session>> = RefCell::new(
        VARIANTS.iter().map(|v| Session::new(&variant_path(v), &[], 1).unwrap()).collect()
    );
}

/// The first byte picks a variant; the rest is the text.
fn split(data: &[u8]) -> Option<(usize, &[u8])> {
    let (&first, rest) = data.split_first()?;
    Some((first as usize % VARIANTS.len(), rest))
}

/// REPL lines, one per line of input, on one of the bundled variants. A
/// line that fails leaves the game as it was.
pub fn repl_line(data: &[u8]) {
    let Some((v, rest)) = split(data) else { return };
    let text = String::from_utf8_lossy(rest);
    SESSIONS.with(|s| {
        let mut sessions = s.borrow_mut();
        let session = &mut sessions[v];
        for line in text.lines().take(16) {
            let first = line.split_whitespace().next().unwrap_or("");
            if FILE_COMMANDS.contains(&first) {
                continue;
            }
            let before = Positions::new(&session.engine).to_position(&session.state);
            let plies = session.history.len();
            if session.execute(line).is_err() {
                assert_eq!(
                    plies,
                    session.history.len(),
                    "a failed line changed the history: {line:?}"
                );
                assert!(
                    before == Positions::new(&session.engine).to_position(&session.state),
                    "a failed line changed the game: {line:?}"
                );
            }
        }
        // Start the next input from a fresh game.
        let _ = session.execute("undo 10000");
    });
}

/// Action text on each bundled variant, from its start and after a few
/// random moves; a parsed action is applied, and a refused one changes
/// nothing.
pub fn action_text(data: &[u8]) {
    let Some((v, rest)) = split(data) else { return };
    let Some((&plies, rest)) = rest.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    ENGINES.with(|e| {
        let engines = e.borrow();
        let engine = &engines[v];
        let mut state = engine.new_game(7, &[]);
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(plies as u64);
        for _ in 0..(plies % 40) {
            let legal = engine.legal_actions(&state);
            if legal.is_empty() || state.outcome.is_some() {
                break;
            }
            let a = legal[rand::Rng::random_range(&mut rng, 0..legal.len())];
            if engine.apply(&mut state, &a).is_err() {
                return;
            }
        }
        let Ok(action) = engine.parse_action(&state, &text) else {
            return;
        };
        let _ = engine.action_text(&state, &action);
        let _ = engine.explain_illegal(&state, &action);
        let before = Positions::new(engine).to_position(&state);
        let mut after = state.clone();
        if engine.apply(&mut after, &action).is_err() {
            assert!(
                before == Positions::new(engine).to_position(&after),
                "a refused action changed the game: {text:?}"
            );
        }
    });
}

/// A variant file, with a copy of classic Stratego beside it as `base.yaml`
/// (for `extends: base`) and its script as `rules.lua`.
pub fn variant_yaml(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let dir = std::env::temp_dir().join(format!("sandtable-fuzz-{}", std::process::id()));
    if !dir.join("base.yaml").exists() {
        std::fs::create_dir_all(&dir).unwrap();
        let base = std::fs::read_to_string(variant_path("classic_stratego"))
            .unwrap()
            .replace(
                "script: ../scripts/classic_stratego.lua",
                "script: rules.lua",
            );
        std::fs::write(dir.join("base.yaml"), base).unwrap();
        let script = std::fs::read(root().join("scripts/classic_stratego.lua")).unwrap();
        std::fs::write(dir.join("rules.lua"), script).unwrap();
    }
    let path = dir.join("fuzzed.yaml");
    if let Ok(v) = sandtable::rules::variant::Variant::from_str(&text, &path, &[]) {
        if let Ok(engine) = Engine::from_variant(v) {
            let s = engine.new_game(1, &[]);
            let _ = engine.legal_actions(&s);
        }
    }
}

/// A position file, then a game record, on one of the bundled variants.
pub fn position_record(data: &[u8]) {
    let Some((v, rest)) = split(data) else { return };
    let text = String::from_utf8_lossy(rest);
    ENGINES.with(|e| {
        let engines = e.borrow();
        let engine = &engines[v];
        if let Ok(pos) =
            sandtable::record::parse_yaml::<sandtable::record::Position>(&text, "fuzzed.yaml")
        {
            if let Ok(s) = Positions::new(engine).from_position(&pos) {
                let _ = engine.legal_actions(&s);
                let _ = Positions::new(engine).to_position(&s);
            }
        }
    });
    SESSIONS.with(|s| {
        let mut sessions = s.borrow_mut();
        let session = &mut sessions[v];
        if let Ok(rec) =
            sandtable::record::parse_yaml::<sandtable::record::Record>(&text, "fuzzed.yaml")
        {
            let before = Positions::new(&session.engine).to_position(&session.state);
            if session.load_record(&rec).is_err() {
                assert!(
                    before == Positions::new(&session.engine).to_position(&session.state),
                    "a refused record changed the game"
                );
            }
            let _ = session.execute("undo 10000");
        }
    });
}

/// A client's protocol message; an action in it is played on a session.
pub fn net_message(data: &[u8]) {
    let Some((v, rest)) = split(data) else { return };
    let text = String::from_utf8_lossy(rest);
    let Ok(msg) = serde_json::from_str::<sandtable::front::net::ClientMsg>(&text) else {
        return;
    };
    let _ = serde_json::to_string(&msg);
    if let sandtable::front::net::ClientMsg::Action { text } = msg {
        SESSIONS.with(|s| {
            let mut sessions = s.borrow_mut();
            let session = &mut sessions[v];
            let before = Positions::new(&session.engine).to_position(&session.state);
            if session.play(&text).is_err() {
                assert!(
                    before == Positions::new(&session.engine).to_position(&session.state),
                    "a refused action changed the game"
                );
            }
            let _ = session.execute("undo 10000");
        });
    }
}
