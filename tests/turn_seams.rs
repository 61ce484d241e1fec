//! Seams of the turn: a passed cell (en passant) outlives no action but
//! the move that could take it; a piece a script adds is seen as the
//! variant's identities are; perft counts a choice a rule asks the mover
//! the same way at every depth; a player who cannot move passes with the
//! turn hooks.

mod common;

use common::{engine, legal, play};
use sandtable::engine::Engine;
use sandtable::record::view::{Viewer, Views};

const PASSING: &str = "tests/variants/passing_drop.yaml";
const SEAMS: &str = "tests/variants/turn_seams.yaml";

/// Black's double step c5-c3 passes c4, which White's b3 pawn could take
/// en passant. White places a pawn on c5 instead: the passed cell is gone,
/// and Black's b5 pawn may not take the placed pawn "en passant" by moving
/// to c4.
#[test]
fn a_placement_gives_up_the_passing_capture() {
    let e = engine(PASSING, &[]);
    let mut s = e.new_game(1, &[]);
    play(&e, &mut s, &["c5-c3"]);
    assert!(
        legal(&e, &s).contains(&"b3-c4".to_string()),
        "{:?}",
        legal(&e, &s)
    );
    play(&e, &mut s, &["c5"]);
    let moves = legal(&e, &s);
    assert!(
        !moves
            .iter()
            .any(|m| m.starts_with("b5") && m.ends_with("c4")),
        "en passant after a placement: {moves:?}"
    );
    assert!(moves.contains(&"b5-b4".to_string()), "{moves:?}");
}

fn kind_seen(
    e: &Engine,
    s: &sandtable::base::state::GameState,
    viewer: Viewer,
    cell: &str,
) -> Option<String> {
    let v = Views::new(e).view(s, viewer);
    let c = e.variant.board.parse_cell(cell).unwrap() as usize;
    v.cells[c].as_ref().expect("a piece there").kind.clone()
}

/// `g:add_piece` without `known`, in a variant that does not hide
/// identities: everyone sees the piece's kind.
#[test]
fn an_added_piece_is_seen_by_all_when_identities_are_public() {
    let e = engine(SEAMS, &[("add", "true")]);
    let mut s = e.new_game(1, &[]);
    play(&e, &mut s, &["a1-a2"]);
    for viewer in [Viewer::Player(0), Viewer::Player(1), Viewer::Public] {
        assert_eq!(
            kind_seen(&e, &s, viewer, "c1").as_deref(),
            Some("man"),
            "{viewer:?}"
        );
    }
}

/// A choice `rules.after_action` asks the mover is part of the move at the
/// last ply too: depth 1 counts each move's two answers, as depth 2 does.
#[test]
fn perft_counts_a_rule_s_choice_at_the_last_ply() {
    let e = engine(SEAMS, &[("ask", "true")]);
    let s = e.new_game(1, &[]);
    // White's men on a1 and b2: six moves, each asking left or right.
    let moves = legal(&e, &s).len() as u64;
    assert_eq!(moves, 6, "{:?}", legal(&e, &s));
    assert_eq!(e.perft(&s, 1).unwrap(), 2 * moves);
    // Depth 2, by hand: after each move and answer Black (stuck) passes,
    // and White's next moves each count their two answers.
    let mut by_hand = 0;
    for a in e.legal_actions(&s) {
        let mut t = s.clone();
        e.apply(&mut t, &a).unwrap();
        assert_eq!(t.pending.len(), 1, "the move asks a choice");
        for answer in e.legal_actions(&t) {
            let mut u = t.clone();
            e.apply(&mut u, &answer).unwrap();
            assert_eq!(e.player_name(u.to_move), "white");
            by_hand += 2 * e.legal_actions(&u).len() as u64;
        }
    }
    assert_eq!(e.perft(&s, 2).unwrap(), by_hand);
}

/// Black's rock cannot move: Black passes, and the pass runs
/// `rules.on_turn_end` and `rules.on_turn_start` as a turn passed by an
/// action does.
#[test]
fn a_stuck_player_passes_with_the_turn_hooks() {
    let e = engine(SEAMS, &[]);
    let mut s = e.new_game(1, &[]);
    let count = |s: &sandtable::base::state::GameState, name: &str| s.counter(name, None);
    let (starts, ends) = (count(&s, "starts"), count(&s, "ends"));
    play(&e, &mut s, &["a1-a2"]);
    assert_eq!(e.player_name(s.to_move), "white");
    // White's turn ended, Black's began and ended (a pass), White's began.
    assert_eq!(count(&s, "ends"), ends + 2);
    assert_eq!(count(&s, "starts"), starts + 2);
}
