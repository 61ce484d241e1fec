//! A move's conditions on cells (`where` on the landing cell, `through`
//! on every cell passed), in marsh chess (tests/variants/marsh_chess.yaml):
//! what they allow and refuse, that check follows them, that the refusal
//! says why, and that conditions which always hold change no count (the
//! moves then go through the generator instead of the fast paths, so the
//! published chess counts hold the generator to them).

mod common;

use common::{engine, fen, targets, texts};
use sandtable::base::state::Mark;
use sandtable::engine::Engine;

const MARSH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/variants/marsh_chess.yaml"
);

fn marsh() -> Engine {
    engine(MARSH, &[])
}

#[test]
fn a_slider_may_wade_into_the_marsh_but_goes_no_further() {
    let e = marsh();
    let s = fen(&e, "4k3/8/8/8/8/8/8/3RK3 w - - 0 1");
    assert_eq!(targets(&e, &s, "d1"), ["a1", "b1", "c1", "d2", "d3", "d4"]);
    // A bishop on b2 crosses dry c3 and stops in the marsh on d4.
    let s = fen(&e, "4k3/8/8/8/8/8/1B6/4K3 w - - 0 1");
    assert_eq!(targets(&e, &s, "b2"), ["a1", "a3", "c1", "c3", "d4"]);
    // The refusal says why.
    let why = match e.parse_action(&s, "b2-e5") {
        Err(err) => err.to_string(),
        Ok(a) => e.explain_illegal(&s, &a),
    };
    assert!(
        why.contains("passing only cells with no `marsh` terrain"),
        "{why}"
    );
}

#[test]
fn check_does_not_cross_the_marsh_but_reaches_into_it() {
    let e = marsh();
    let chess = engine("chess", &[]);
    // A rook on d1 and the black king on d8: check in chess, not here.
    let text = "3k4/8/8/8/8/8/8/3RK3 b - - 0 1";
    assert!(chess.royal_attacked(&fen(&chess, text), 1));
    let s = fen(&e, text);
    assert!(!e.royal_attacked(&s, 1));
    assert!(texts(&e, &s).contains(&"d8-d7".to_string()));
    // The king in the marsh on d4 is in check from d1: it may not step
    // back to d3, but d5 beyond the marsh is safe.
    let s = fen(&e, "8/8/8/8/3k4/8/8/3RK3 b - - 0 1");
    assert!(e.royal_attacked(&s, 1));
    assert_eq!(
        targets(&e, &s, "d4"),
        ["c3", "c4", "c5", "d5", "e3", "e4", "e5"]
    );
}

#[test]
fn a_knight_never_lands_in_the_marsh_nor_on_a_trap() {
    let e = marsh();
    let mut s = fen(&e, "4k3/8/8/8/8/1N6/8/4K3 w - - 0 1");
    assert_eq!(targets(&e, &s, "b3"), ["a1", "a5", "c1", "d2"]);
    // A mark on d2 (as a script would set it) closes that cell too.
    let d2 = e.variant.board.parse_cell("d2").unwrap();
    s.marks.insert(
        (d2, "trap".into()),
        Mark {
            value: "1".into(),
            known_by: 0b11,
        },
    );
    assert_eq!(targets(&e, &s, "b3"), ["a1", "a5", "c1"]);
}

/// Marsh chess with a marsh on no cell: every condition holds, so the
/// counts are chess's.
fn dry(dir: &std::path::Path) -> Engine {
    let path = dir.join("dry.yaml");
    let text = std::fs::read_to_string(MARSH).unwrap();
    assert!(text.contains("marsh: [c4:f5]"));
    std::fs::write(&path, text.replace("marsh: [c4:f5]", "marsh: []")).unwrap();
    engine(path.to_str().unwrap(), &[])
}

#[test]
fn conditions_that_always_hold_give_the_published_chess_counts() {
    let dir = tempfile::tempdir().unwrap();
    let e = dry(dir.path());
    assert!(e
        .variant
        .kinds
        .iter()
        .any(|k| k.moves[0].target().conditioned()));
    let start = e.new_game(1, &[]);
    assert_eq!(e.perft_levels(&start, 4).unwrap(), [20, 400, 8902, 197281]);
    let kiwipete = fen(
        &e,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    );
    assert_eq!(e.perft_levels(&kiwipete, 3).unwrap(), [48, 2039, 97862]);
    // And the marsh itself changes them.
    let e = marsh();
    assert_ne!(e.perft(&e.new_game(1, &[]), 3).unwrap(), 8902);
}

#[test]
fn marsh_chess_lists_what_the_exhaustive_test_lists_and_its_playouts_replay() {
    let n = common::shortcuts_agree(MARSH, &[], 40, 120);
    assert!(n > 2000, "{n} positions");
    let e = marsh();
    assert!(common::replays_up_to(&e, 20, 300) > 2000);
}

#[test]
fn a_malformed_condition_on_a_move_is_refused_at_its_place() {
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "tests/variants/mixed",
            "moves: [{ step: all }]",
            "moves: [{ step: all, where: [empty] }]",
            "`empty` is about what stands on it",
        ),
        (
            "tests/variants/mixed",
            "moves: [{ step: all }]",
            "moves: [{ step: all, where: [{ not: { kind: king } }] }]",
            "`kind` is about what stands on it",
        ),
        (
            "tests/variants/mixed",
            "moves: [{ step: all }]",
            "moves: [{ step: all, where: [{ terrain: swamp }] }]",
            "unknown terrain `swamp`",
        ),
        (
            "tests/variants/mixed",
            "moves: [{ step: all }]",
            "moves: [{ step: all, through: [{ zone: nowhere }] }]",
            "unknown zone `nowhere`",
        ),
        (
            "tests/variants/mixed",
            "moves: [{ step: all }]",
            "moves: [{ step: all, where: [{ mark: 3 }] }]",
            "a mark's name",
        ),
        (
            "tests/variants/mixed",
            "moves: [{ step: all }]",
            "moves: [{ step: all, where: [{ weather: rain }] }]",
            "unknown condition",
        ),
        (
            "tests/variants/mixed",
            "moves: [{ step: all }]",
            "moves: [{ step: all, where: { terrain: lake } }]",
            "expected sequence",
        ),
        (
            "connect_four",
            "falls: down }",
            "falls: down, where: [{ terrain: x }] }",
            "`where` is not a key of a `place` move",
        ),
    ];
    common::refused_at_their_place(cases);
}

/// A copy of `variant` (a file) with each `(from, to)` replaced, in `dir`.
fn edited(dir: &std::path::Path, variant: &str, name: &str, edits: &[(&str, &str)]) -> Engine {
    let mut text = std::fs::read_to_string(variant).unwrap();
    for (from, to) in edits {
        assert!(text.contains(from), "{from}");
        text = text.replace(from, to);
    }
    let path = dir.join(format!("{name}.yaml"));
    std::fs::write(&path, text).unwrap();
    engine(path.to_str().unwrap(), &[])
}

#[test]
fn a_move_that_may_pass_no_cell_is_a_single_step() {
    // Every slide of the mixed test game (striking at range, limited,
    // leaping enemies, from a zone) with a `through` that no cell passes
    // lists what the same game with steps in their place lists.
    let dir = tempfile::tempdir().unwrap();
    let mixed = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/variants/mixed.yaml");
    let never = "through: [{ mark: never }]";
    let slides = [
        (
            "{ slide: orthogonal, strike_at_range: true }",
            "{ step: orthogonal }",
        ),
        ("{ slide: orthogonal, max: 4 }", "{ step: orthogonal }"),
        (
            "{ slide: all, onto: empty, over: enemy }",
            "{ step: all, onto: empty }",
        ),
        ("{ slide: orthogonal, max: 2 }", "{ step: orthogonal }"),
        (
            "{ slide: forward, max: 2, onto: empty, from_zone: start }",
            "{ step: forward, onto: empty, from_zone: start }",
        ),
    ];
    let blocked: Vec<(&str, String)> = (slides.iter())
        .map(|(s, _)| (*s, s.replace(" }", &format!(", {never} }}"))))
        .collect();
    let blocked: Vec<(&str, &str)> = blocked.iter().map(|(a, b)| (*a, b.as_str())).collect();
    let a = edited(dir.path(), mixed, "blocked", &blocked);
    let b = edited(dir.path(), mixed, "stepped", &slides);
    assert!(common::lists_agree(&a, |s| b.legal_actions(s), 30, 150) > 1000);
    // A path of two steps that may pass no cell: one step (Ultimate
    // Lightning's Captains).
    let child = |name: &str, moves: &str| {
        let path = dir.path().join(format!("{name}.yaml"));
        std::fs::write(
            &path,
            format!("extends: ultimate_lightning\nname: {name}\npieces:\n  captain: {{ moves: {moves} }}\n"),
        )
        .unwrap();
        engine(path.to_str().unwrap(), &[])
    };
    let a = child(
        "wading",
        &format!("[{{ path: orthogonal, steps: 2, {never} }}, {{ step: diagonal }}]"),
    );
    let b = child("stepping", "[{ step: orthogonal }, { step: diagonal }]");
    assert!(common::lists_agree(&a, |s| b.legal_actions(s), 10, 200) > 500);
}

#[test]
fn a_zone_condition_is_the_movers_zone_as_to_zone_is() {
    // Kings confined to their own half, said both ways.
    let dir = tempfile::tempdir().unwrap();
    let child = |name: &str, king: &str| {
        let path = dir.path().join(format!("{name}.yaml"));
        std::fs::write(
            &path,
            format!(
                "extends: chess\nname: {name}\nboard:\n  zones: {{ white_half: [a1:h4], black_half: [a5:h8] }}\n\
                 pieces:\n  king: {{ moves: [{king}] }}\n"
            ),
        )
        .unwrap();
        engine(path.to_str().unwrap(), &[])
    };
    let a = child("where_half", "{ step: all, where: [{ zone: half }] }");
    let b = child("to_half", "{ step: all, to_zone: half }");
    assert!(common::lists_agree(&a, |s| b.legal_actions(s), 20, 200) > 2000);
    // Face to face across the line: neither king may cross it, so the
    // black king attacks nothing on White's half (d4 and f4 are safe).
    let s = fen(&a, "8/8/8/4k3/4K3/8/8/8 w - - 0 1");
    assert_eq!(targets(&a, &s, "e4"), ["d3", "d4", "e3", "f3", "f4"]);
}
