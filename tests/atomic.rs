//! Atomic chess (tests/variants/atomic.yaml, chess with `blast`):
//! what a blast removes, the kings' safety where captures blast, and the
//! win by blasting the enemy king, as positions and outcomes; refusals of
//! a malformed `blast` at their line and column. Perft counts
//! against Fairy-Stockfish are in tests/perft/atomic_*.perft.

mod common;

use common::{engine, fen, kind_at, legal, play, refused_at_their_place, shortcuts_agree};
use sandtable::engine::Engine;

fn atomic() -> Engine {
    engine("tests/variants/atomic.yaml", &[])
}

#[test]
fn a_capture_blasts_the_capturer_and_every_piece_around_but_pawns() {
    let e = atomic();
    // The knight takes on d5: the knight, the pawn it takes and the pieces
    // around d5 go, pawns (c6, e4) stay, the rook on d7 (two away) stays.
    let mut s = fen(&e, "4k3/3r4/2pb4/3p4/1NQ1P3/8/8/4K3 w - - 0 1");
    play(&e, &mut s, &["b4-d5"]);
    assert_eq!(e.to_fen(&s), "4k3/3r4/2p5/8/4P3/8/8/4K3 b");
    // En passant: the blast is on the square the pawn lands on.
    let mut s = fen(&e, "4k3/8/2n1b3/3pP3/8/8/8/4K3 w - d6 0 1");
    play(&e, &mut s, &["e5-d6"]);
    assert_eq!(e.to_fen(&s), "4k3/8/8/8/8/8/8/4K3 b");
    // A pawn that captures onto the last rank is blasted: no promotion.
    let mut s = fen(&e, "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    play(&e, &mut s, &["b7-a8"]);
    assert_eq!(e.to_fen(&s), "4k3/8/8/8/8/8/8/4K3 b");
    assert!(s.pending.is_empty());
}

#[test]
fn blasting_the_enemy_king_wins_and_blasting_ones_own_is_illegal() {
    let e = atomic();
    // The queen takes the knight beside the black king: the blast removes it.
    let mut s = fen(&e, "8/8/8/3kn3/8/8/4Q3/4K3 w - - 0 1");
    play(&e, &mut s, &["e2-e5"]);
    let o = s.outcome.clone().expect("the king was blasted");
    assert_eq!(o.winners, vec![0]);
    assert!(o.reason.contains("blasted"), "{}", o.reason);
    assert_eq!(kind_at(&e, &s, "d5"), None);
    // A capture next to one's own king would blast it: not legal, and a
    // king never captures (it would blast itself).
    let s = fen(&e, "4k3/8/8/8/8/8/3n4/3QK3 w - - 0 1");
    let moves = legal(&e, &s);
    assert!(!moves.contains(&"d1-d2".to_string()), "{moves:?}");
    assert!(!moves.contains(&"e1-d2".to_string()), "{moves:?}");
    let a = e.parse_action(&s, "d1-d2").unwrap();
    let err = e.apply(&mut s.clone(), &a).unwrap_err().to_string();
    assert!(err.contains("blast your own royal piece"), "{err}");
}

#[test]
fn kings_side_by_side_are_safe_and_check_holds_only_apart() {
    let e = atomic();
    // The white king next to the black one: the rook on the e-file does
    // not check it (taking it would blast the black king too).
    let s = fen(&e, "4r3/8/8/8/8/3k4/4K3/8 w - - 0 1");
    assert!(!e.royal_attacked(&s, 0));
    let moves = legal(&e, &s);
    // Stepping away from the black king onto the e-file is check: illegal.
    assert!(!moves.contains(&"e2-e1".to_string()), "{moves:?}");
    // Staying beside it is fine, even on the rook's file.
    assert!(moves.contains(&"e2-e3".to_string()), "{moves:?}");
    // Apart, the same rook checks.
    let s = fen(&e, "4r3/8/8/8/8/8/4K3/k7 w - - 0 1");
    assert!(e.royal_attacked(&s, 0));
}

#[test]
fn a_blast_that_takes_the_enemy_king_is_legal_even_out_of_check() {
    let e = atomic();
    // White is in check from the rook on e8, yet the queen's capture on
    // b7 blasts the black king on a8: legal, and it wins.
    let s = fen(&e, "k3r3/1n6/8/8/8/8/8/1Q2K3 w - - 0 1");
    assert!(e.royal_attacked(&s, 0));
    let moves = legal(&e, &s);
    assert!(moves.contains(&"b1-b7".to_string()), "{moves:?}");
}

#[test]
fn the_self_check_shortcuts_agree_with_the_full_test() {
    assert!(shortcuts_agree("tests/variants/atomic.yaml", &[], 6, 80) > 100);
}

#[test]
fn a_malformed_blast_is_refused_at_its_line_and_column() {
    refused_at_their_place(&[
        (
            "brandubh",
            "rules:\n",
            "blast: { radius: 0 }\nrules:\n",
            "`blast.radius: 0`: expected 1 to 3",
        ),
        (
            "brandubh",
            "rules:\n",
            "blast: { spared: [king, knave] }\nrules:\n",
            "`blast.spared` names `knave`, which is no piece kind",
        ),
        (
            "brandubh",
            "rules:\n",
            "blast: { spared: [king, king] }\nrules:\n",
            "names `king` twice",
        ),
        (
            "brandubh",
            "rules:\n",
            "blast: { radius: 1, reach: 2 }\nrules:\n",
            "unknown field `reach`",
        ),
        (
            "shogi",
            "rules:\n",
            "blast: { spared: [pawn] }\nrules:\n",
            "`blast` contradicts `hands: { captures: true }`",
        ),
    ]);
}
