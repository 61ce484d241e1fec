#![allow(dead_code)]
//! Helpers shared by the integration tests.

use sandtable::base::state::GameState;
use sandtable::engine::{Action, Engine, Exhaustive};
use sandtable::record::game::Positions;
use sandtable::record::{parse_yaml, Position};

pub fn engine(variant: &str, options: &[(&str, &str)]) -> Engine {
    let o: Vec<(String, String)> = options
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    Engine::load(variant, &o).unwrap_or_else(|e| panic!("{e}"))
}

/// A state from position YAML (the variant line may be omitted).
pub fn position(engine: &Engine, yaml: &str) -> GameState {
    let text = if yaml.contains("variant:") {
        yaml.to_string()
    } else {
        format!("variant: x\n{yaml}")
    };
    let pos: Position = parse_yaml(&text, "<test>").unwrap_or_else(|e| panic!("{e}"));
    Positions::new(engine)
        .from_position(&pos)
        .unwrap_or_else(|e| panic!("{e}"))
}

pub fn act(engine: &Engine, s: &GameState, text: &str) -> Action {
    engine
        .parse_action(s, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Applies actions in order, panicking with the reason if one is refused.
pub fn play(engine: &Engine, s: &mut GameState, actions: &[&str]) {
    for t in actions {
        let a = act(engine, s, t);
        engine.apply(s, &a).unwrap_or_else(|e| panic!("{t}: {e}"));
    }
}

/// The legal action texts, sorted.
pub fn legal(engine: &Engine, s: &GameState) -> Vec<String> {
    let mut v: Vec<String> = engine
        .legal_actions(s)
        .iter()
        .map(|a| engine.action_text(s, a))
        .collect();
    v.sort();
    v
}

/// Legal targets of the piece on `from`, sorted.
pub fn targets(engine: &Engine, s: &GameState, from: &str) -> Vec<String> {
    let prefix = format!("{from}-");
    legal(engine, s)
        .into_iter()
        .filter_map(|t| t.strip_prefix(&prefix).map(str::to_string))
        .collect()
}

/// The kind on a cell (omniscient), or None.
pub fn kind_at(engine: &Engine, s: &GameState, cell: &str) -> Option<String> {
    let c = engine.variant.board.parse_cell(cell).expect("cell");
    s.piece_at(c).map(|id| {
        engine.variant.kinds[s.pieces[id as usize].kind as usize]
            .name
            .clone()
    })
}

pub fn owner_at(engine: &Engine, s: &GameState, cell: &str) -> Option<String> {
    let c = engine.variant.board.parse_cell(cell).expect("cell");
    s.piece_at(c)
        .map(|id| engine.player_name(s.pieces[id as usize].owner).to_string())
}

/// Plays `games` seeded random games of up to `plies` plies and checks at
/// every position that the self-check shortcuts (lines from the royal
/// piece, `rules.check_cells`) list exactly the actions an exhaustive test
/// of every move lists. Returns how many positions were compared.
pub fn shortcuts_agree(variant: &str, options: &[(&str, &str)], games: u64, plies: u32) -> usize {
    let fast = engine(variant, options);
    let full = Exhaustive::new(&fast).unwrap();
    lists_agree(&fast, |s| full.legal_actions(s), games, plies)
}

/// Plays `games` seeded random games of up to `plies` plies with `a` and
/// checks at every position that `other` lists the same actions; returns
/// how many positions were compared.
pub fn lists_agree(
    a: &Engine,
    other: impl Fn(&GameState) -> Vec<Action>,
    games: u64,
    plies: u32,
) -> usize {
    use rand::{Rng, SeedableRng};
    let mut compared = 0;
    for seed in 0..games {
        let mut s = a.new_game(seed, &[]);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..plies {
            let listed = a.legal_actions(&s);
            assert_eq!(
                listed,
                other(&s),
                "seed {seed}, ply {}: the two listings disagree",
                s.ply
            );
            compared += 1;
            if listed.is_empty() || s.outcome.is_some() {
                break;
            }
            let pick = listed[rng.random_range(0..listed.len())];
            a.apply_unchecked(&mut s, &pick)
                .expect("a legal action applies");
        }
    }
    compared
}

/// Plays `games` random playouts of at most `plies` plies with a log and
/// replays each through `apply`; returns how many plies were played.
pub fn replays_up_to(e: &Engine, games: u64, plies: u32) -> u32 {
    assert!(e.samples_moves(), "{} should be sampled", e.variant.name);
    use rand::SeedableRng;
    let mut played = 0;
    for seed in 0..games {
        let mut s = e.new_game(seed, &[]);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut log = Vec::new();
        played += e
            .random_playout_logged(&mut s, &mut rng, plies, Some(&mut log))
            .unwrap();
        let mut t = e.new_game(seed, &[]);
        for (i, a) in log.iter().enumerate() {
            e.apply(&mut t, a)
                .unwrap_or_else(|err| panic!("seed {seed} ply {i}: {err}"));
        }
        assert_eq!(t, s, "seed {seed}");
    }
    played
}

/// Runs the real binary in `dir` with `args`, `stdin` written to it (the
/// program may stop before it reads it all), and `NO_COLOR` set.
pub fn run_bin(dir: &std::path::Path, args: &[&str], stdin: &[u8]) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_sandtable"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let _ = input.write_all(stdin);
    drop(input);
    child.wait_with_output().unwrap()
}

/// The error of loading bundled `variant` (or a test variant's path
/// without `.yaml`: `tests/variants/xiangqi`) with its first `from`
/// replaced by `to` (written to a temporary folder).
pub fn refused(variant: &str, from: &str, to: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let file = match variant.contains('/') {
        true => format!("{variant}.yaml"),
        false => format!("variants/{variant}.yaml"),
    };
    let text = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file))
        .unwrap();
    assert!(text.contains(from), "{variant}: no `{from}`");
    let name = variant.rsplit('/').next().unwrap_or(variant);
    let path = dir.path().join(format!("{name}.yaml"));
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    match Engine::load(path.to_str().unwrap(), &[]) {
        Ok(_) => panic!("{variant} with `{to}` loaded"),
        Err(e) => e.to_string(),
    }
}

/// Each case `(variant, text, replaced by, words)` is refused at load with
/// `variant.yaml:LINE:COL` and the words.
pub fn refused_at_their_place(cases: &[(&str, &str, &str, &str)]) {
    for &(variant, from, to, words) in cases {
        let e = refused(variant, from, to);
        let name = variant.rsplit('/').next().unwrap_or(variant);
        let at = format!("{name}.yaml:");
        let located = e.split(&at).nth(1).is_some_and(|rest| {
            let mut parts = rest.splitn(3, ':');
            parts.next().is_some_and(|l| l.parse::<u32>().is_ok())
                && parts.next().is_some_and(|c| c.parse::<u32>().is_ok())
        });
        assert!(located, "{variant} `{to}`: no file:line:col in: {e}");
        assert!(
            e.contains(words),
            "{variant} `{to}`: expected `{words}` in: {e}"
        );
    }
}

/// The position of a FEN-like text (seed 1).
pub fn fen(engine: &Engine, text: &str) -> GameState {
    engine
        .parse_fen(text, 1)
        .unwrap_or_else(|err| panic!("{err}"))
}

/// The legal action texts, in the listing's order.
pub fn texts(engine: &Engine, s: &GameState) -> Vec<String> {
    engine
        .legal_actions(s)
        .iter()
        .map(|a| engine.action_text(s, a))
        .collect()
}
