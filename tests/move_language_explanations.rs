//! Refusals of the move language's games, as a player reads them: each
//! names the rule that refuses the move (and only that one), and a cell
//! off the board is named as such (found while writing the games' REPL
//! transcripts).

mod common;

use common::{engine, fen, play};
use sandtable::base::state::GameState;
use sandtable::engine::Engine;

fn why(e: &Engine, s: &GameState, text: &str) -> String {
    let a = e
        .parse_action(s, text)
        .unwrap_or_else(|err| panic!("{err}"));
    e.explain_illegal(s, &a)
}

#[test]
fn a_step_refused_because_a_capture_is_compulsory_says_so() {
    let e = engine("english_draughts", &[]);
    // Black c3 must jump d4; the step a3-b4 is refused.
    let s = fen(&e, "8/8/8/8/3m4/M1M5/8/8 black");
    let w = why(&e, &s, "a3-b4");
    assert!(w.contains("compulsory"), "{w}");
}

#[test]
fn go_suicide_and_ko_are_explained_apart() {
    let e = engine("go", &[]);
    let mut s = e.new_game(1, &[]);
    play(&e, &mut s, &["b1", "a1", "a2"]);
    // White a1 would be suicide; no board would repeat.
    let w = why(&e, &s, "a1");
    assert!(w.contains("liberties") && !w.contains("repeat"), "{w}");
    // A ko: black may not take back at once; the stone would have a liberty.
    let mut s = e.new_game(1, &[]);
    play(
        &e,
        &mut s,
        &["b1", "c1", "a2", "d2", "b3", "c3", "c2", "b2"],
    );
    let w = why(&e, &s, "c2");
    assert!(w.contains("repeat") && !w.contains("liberties"), "{w}");
}

#[test]
fn a_placement_off_the_board_is_named_as_off_the_board() {
    let e = engine("connect_four", &[]);
    let s = e.new_game(1, &[]);
    let err = e.parse_action(&s, "h1").unwrap_err().to_string();
    assert!(err.contains("not a cell"), "{err}");
}
