//! Xiangqi (`tests/variants/xiangqi.yaml`, no script): the parts of the
//! move language it is written in, as positions and their legal moves —
//! lame leaps, moves confined to a zone, a step allowed across the river,
//! the cannon's screen, the generals that may not face each other, and
//! the loss of a player with no legal move. The perft counts against
//! Fairy-Stockfish are in `tests/perft/xiangqi_*.perft`; the self-check
//! shortcuts and the sampler are held to the full listing here too.

mod common;

use common::{engine, fen, play, targets};
use sandtable::engine::Engine;

const XIANGQI: &str = "tests/variants/xiangqi.yaml";

fn xiangqi() -> Engine {
    engine(XIANGQI, &[])
}

/// The cells the piece on `from` may move to, sorted, captures written
/// as plain cells.
fn to(e: &Engine, position: &str, from: &str) -> Vec<String> {
    let s = match position {
        "start" => e.new_game(1, &[]),
        _ => fen(e, position),
    };
    let mut t: Vec<String> = targets(e, &s, from)
        .into_iter()
        .chain(
            common::legal(e, &s)
                .into_iter()
                .filter_map(|t| t.strip_prefix(&format!("{from}x")).map(str::to_string)),
        )
        .collect();
    t.sort();
    t
}

#[test]
fn the_horse_is_lame_where_the_point_beside_it_is_taken() {
    let e = xiangqi();
    // From the start: b1's horse leaps to a3 and c3; towards d2 it would
    // pass c1, where the elephant stands.
    assert_eq!(to(&e, "start", "b1"), ["a3", "c3"]);
    // A horse on e2 with a soldier on e3: no leap up the board.
    let p = "3k5/9/9/9/9/9/9/4P4/4N4/4K4 r";
    assert_eq!(to(&e, p, "e2"), ["c1", "c3", "g1", "g3"]);
}

#[test]
fn the_elephant_is_blocked_at_its_midpoint_and_never_crosses_the_river() {
    let e = xiangqi();
    // An advisor on d2 blocks c1's leap to e3; b2 is open.
    assert_eq!(to(&e, "3k5/9/9/9/9/9/9/9/3A5/2B1K4 r", "c1"), ["a3"]);
    // On e5, the river's edge: only back to c3 and g3.
    assert_eq!(to(&e, "3k5/9/9/9/9/4B4/9/9/9/4K4 r", "e5"), ["c3", "g3"]);
    // Black's elephant likewise stays on its own half.
    assert_eq!(to(&e, "3k5/9/9/9/4b4/9/9/9/9/4K4 b", "e6"), ["c8", "g8"]);
}

#[test]
fn the_general_and_the_advisors_stay_in_the_palace() {
    let e = xiangqi();
    let p = "4k4/9/9/9/9/9/9/9/4A4/3K5 r";
    // d1: c1 is outside the palace.
    assert_eq!(to(&e, p, "d1"), ["d2", "e1"]);
    // e2's advisor: the four diagonal points, d1 its own general's.
    assert_eq!(to(&e, p, "e2"), ["d3", "f1", "f3"]);
    // An advisor on a corner of the palace has one move, to its centre.
    assert_eq!(to(&e, "4k4/9/9/9/9/9/9/9/9/3AK4 r", "d1"), ["e2"]);
}

#[test]
fn a_soldier_steps_sideways_only_across_the_river_and_never_back() {
    let e = xiangqi();
    let p = "4k4/9/9/9/4P4/9/P8/9/9/3K5 r";
    assert_eq!(to(&e, p, "a4"), ["a5"]);
    assert_eq!(to(&e, p, "e6"), ["d6", "e7", "f6"]);
    // Black's across the river, at the last rank: sideways only.
    assert_eq!(to(&e, "4k4/9/9/9/9/9/9/9/9/p2K5 b", "a1"), ["b1"]);
}

#[test]
fn the_cannon_captures_over_exactly_one_screen() {
    let e = xiangqi();
    // From the start, b3's cannon takes b10's horse over b8's cannon, and
    // cannot take the cannon itself (no screen).
    let start = to(&e, "start", "b3");
    assert!(start.contains(&"b10".to_string()), "{start:?}");
    assert!(!start.contains(&"b8".to_string()), "{start:?}");
    assert!(!start.contains(&"b9".to_string()), "{start:?}");
    // a1: a2 quietly; a5 over a3's screen; not a4 (beyond the screen, but
    // empty), nor a7 (two screens).
    let p = "4k4/9/9/p8/9/p8/9/P8/9/C2K5 r";
    assert_eq!(to(&e, p, "a1"), ["a2", "a5", "b1", "c1"]);
    // With nothing to jump, the cannon checks nothing: the general on e10
    // may stay put behind a bare file.
    let s = fen(&e, "4k4/9/9/9/9/9/9/9/9/4C1K2 b");
    assert!(!e.royal_attacked(&s, 1));
    let s = fen(&e, "4k4/9/9/9/4p4/9/9/9/9/4C1K2 b");
    assert!(e.royal_attacked(&s, 1));
}

#[test]
fn a_move_that_leaves_the_generals_facing_is_illegal() {
    let e = xiangqi();
    // d1's general may not step to e1, facing e10's across an open file.
    assert_eq!(to(&e, "4k4/9/9/9/9/9/9/9/9/3K5 r", "d1"), ["d2"]);
    // Black's soldier on e4 is all that stands between them: it may go
    // forward, never aside.
    assert_eq!(to(&e, "4k4/9/9/9/9/9/4p4/9/9/4K4 b", "e4"), ["e3"]);
}

#[test]
fn a_player_with_no_legal_move_loses_checked_or_not() {
    let e = xiangqi();
    // Black's chariot to a2 leaves Red's general on d1 no move (d2 and e1
    // are covered, c1 is outside the palace) while not in check: Red loses.
    let mut s = fen(&e, "4k4/9/9/9/9/9/9/r8/9/3K5 b");
    play(&e, &mut s, &["a3-a2"]);
    assert!(!e.royal_attacked(&s, 0));
    let o = s.outcome.clone().expect("stalemate ends the game");
    assert_eq!(o.winners, vec![1], "{}", o.reason);
    // Checkmate: b1's chariot checks along the first rank, a2's covers d2,
    // and e1 faces the other general.
    let mut s = fen(&e, "4k4/9/9/9/9/9/9/1r7/r8/3K5 b");
    play(&e, &mut s, &["b3-b1"]);
    assert!(e.royal_attacked(&s, 0));
    assert_eq!(s.outcome.clone().expect("checkmate").winners, vec![1]);
}

#[test]
fn the_check_shortcuts_change_no_legal_move() {
    assert!(common::shortcuts_agree(XIANGQI, &[], 12, 120) > 600);
}
