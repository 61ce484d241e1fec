//! A declared action's native effects (`does:`): a flip changes the
//! owner and is a flip, a capture and a send take the piece off the board
//! (a send into the mover's named container), an add changes a cell
//! counter; and a malformed item is refused at its line and column.

mod common;

use common::{engine, legal, play};
use sandtable::base::state::Loc;
use sandtable::engine::Engine;

const V: &str = "tests/variants/declared_effects.yaml";

fn cell(e: &Engine, name: &str) -> u16 {
    e.variant.board.parse_cell(name).unwrap()
}

#[test]
fn each_effect_does_what_it_says_with_its_own_event() {
    let e = engine(V, &[]);
    let s0 = e.new_game(1, &[]);
    assert_eq!(
        legal(&e, &s0),
        ["a1+b1", "a1>a2", "a1^a2", "a1xa2"],
        "every effect's action is listed natively"
    );
    let a2 = cell(&e, "a2");

    // flip: the stone on a2 is white's now, and the event says a flip.
    let mut s = s0.clone();
    let a = common::act(&e, &s, "a1>a2");
    let events = e.apply(&mut s, &a).unwrap();
    let id = s.piece_at(a2).expect("still on a2");
    assert_eq!(s.pieces[id as usize].owner, 0);
    let said = format!("{events:?}");
    assert!(said.contains("Flip"), "{said}");
    assert!(!said.contains("Captur"), "a flip is not a capture: {said}");

    // capture: off the board, into its owner's captured pieces.
    let mut s = s0.clone();
    let id = s.piece_at(a2).unwrap();
    play(&e, &mut s, &["a1xa2"]);
    assert_eq!(s.piece_at(a2), None);
    let Loc::Container(k) = s.pieces[id as usize].loc else {
        panic!("captured pieces go to a container")
    };
    assert_eq!(s.containers[k as usize].owner, Some(1));

    // send: off the board, into the mover's prisoners.
    let mut s = s0.clone();
    play(&e, &mut s, &["a1^a2"]);
    assert_eq!(s.piece_at(a2), None);
    let Loc::Container(k) = s.pieces[id as usize].loc else {
        panic!("a sent piece is in a container")
    };
    assert_eq!(s.containers[k as usize].name, "prisoners");
    assert_eq!(s.containers[k as usize].owner, Some(0));

    // add: +2 then -1, in order.
    let mut s = s0.clone();
    play(&e, &mut s, &["a1+b1"]);
    assert_eq!(s.cell_counter("seeds", cell(&e, "b1")), 1);
}

fn load_error(dir: &tempfile::TempDir, does: &str) -> String {
    let text = std::fs::read_to_string(V)
        .unwrap()
        .replace("does: [{ flip: at }]", &format!("does: [{does}]"));
    let path = dir.path().join("effects.yaml");
    std::fs::write(&path, text).unwrap();
    Engine::load(path.to_str().unwrap(), &[])
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default()
}

#[test]
fn a_malformed_effect_is_refused_at_its_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    // The `convert` action's `does:` is on line 22, its item at column 12.
    for (does, says) in [
        ("{ flip: at, capture: at }", "exactly one of"),
        (
            "{ flip: there }",
            "`there` is not one of the action's parameters (from, at)",
        ),
        (
            "{ capture: at, to: prisoners }",
            "`to` goes with `send` only",
        ),
        ("{ send: at }", "`send` needs `to: CONTAINER`"),
        (
            "{ send: at, to: prison }",
            "sends to `prison`, which names no container",
        ),
        (
            "{ add: 1, at: at }",
            "`add` needs `counter: NAME` and `at: PARAM`",
        ),
        ("{ flip: at, colour: red }", "colour"),
    ] {
        let err = load_error(&dir, does);
        assert!(err.contains("effects.yaml:22:"), "{does}: {err}");
        assert!(err.contains(says), "{does}: {err}");
    }
}

#[test]
fn the_rules_summary_says_what_each_effect_does() {
    let e = engine(V, &[]);
    let text = sandtable::rules::variant::describe::rules_markdown(&e.variant);
    for said in [
        "The piece on `at` becomes the player's.",
        "The piece on `at` is captured.",
        "The piece on `at` goes to the player's `prisoners`.",
        "`seeds` on `at` gains 2. `seeds` on `at` loses 1.",
    ] {
        assert!(text.contains(said), "`{said}` not in:\n{text}");
    }
}
