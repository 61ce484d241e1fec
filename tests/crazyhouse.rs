//! Crazyhouse: captures go to the captor's hand, drops, demotion of
//! promoted pawns, drops that must block a check, and hands in positions
//! and in repetition, as positions and outcomes. Perft counts are in
//! tests/perft/crazyhouse_*.perft.

mod common;

use common::{engine, fen, play, refused_at_their_place, shortcuts_agree, texts};
use sandtable::engine::Engine;

fn crazyhouse() -> Engine {
    engine("crazyhouse", &[])
}

fn kind(e: &Engine, name: &str) -> u16 {
    e.variant.kind_index(name).unwrap() as u16
}

#[test]
fn a_captured_piece_changes_side_and_goes_to_the_captors_hand() {
    let e = crazyhouse();
    let mut s = fen(&e, "k7/8/8/8/8/8/3p4/4K3[] w - - 0 1");
    play(&e, &mut s, &["e1-d2"]);
    assert_eq!(e.hand_count(&s, 0, kind(&e, "pawn")), 1);
    assert_eq!(e.hand_count(&s, 1, kind(&e, "pawn")), 0);
    assert_eq!(e.to_fen(&s), "k7/8/8/8/8/8/3K4/8[P] b");
    play(&e, &mut s, &["a8-b8"]);
    let t = texts(&e, &s);
    assert!(t.contains(&"P@e4".to_string()), "{t:?}");
    play(&e, &mut s, &["P@e4"]);
    assert_eq!(e.hand_count(&s, 0, kind(&e, "pawn")), 0);
    assert_eq!(e.to_fen(&s), "1k6/8/8/8/4P3/8/3K4/8[] b");
}

#[test]
fn a_promoted_pawn_is_written_with_a_tilde_and_goes_back_to_the_hand_as_a_pawn() {
    let e = crazyhouse();
    let mut s = fen(&e, "k7/4P3/8/8/8/8/8/K7[] w - - 0 1");
    let a = e.parse_turn(&s, "e8=Q").unwrap();
    for a in a {
        e.apply(&mut s, &a).unwrap();
    }
    assert_eq!(e.to_fen(&s), "k3Q~3/8/8/8/8/8/8/K7[] b");
    // Read back as the promoted kind, and taken back as a pawn.
    let mut s = fen(&e, "k7/8/8/8/8/8/8/Kq~6[] w - - 0 1");
    play(&e, &mut s, &["a1-b1"]);
    assert_eq!(e.to_fen(&s), "k7/8/8/8/8/8/8/1K6[P] b");
}

#[test]
fn while_in_check_only_drops_that_block_it_are_legal() {
    let e = crazyhouse();
    let s = fen(&e, "r6k/8/8/8/8/8/8/K7[N] w - - 0 1");
    let drops: Vec<String> = texts(&e, &s)
        .into_iter()
        .filter(|t| t.contains('@'))
        .collect();
    assert_eq!(drops, ["N@a2", "N@a3", "N@a4", "N@a5", "N@a6", "N@a7"]);
    // Out of check, every empty square.
    let s = fen(&e, "7k/8/8/8/8/8/8/K7[N] w - - 0 1");
    let n = texts(&e, &s).iter().filter(|t| t.contains('@')).count();
    assert_eq!(n, 62);
}

#[test]
fn pawns_are_not_dropped_on_the_first_or_last_rank() {
    let e = crazyhouse();
    let s = fen(&e, "k7/8/8/8/8/8/8/K7[P] w - - 0 1");
    let drops: Vec<String> = texts(&e, &s)
        .into_iter()
        .filter(|t| t.contains('@'))
        .collect();
    assert_eq!(drops.len(), 48);
    assert!(!drops.iter().any(|t| t.ends_with('1') || t.ends_with('8')));
    let err = e.parse_action(&s, "P@b8").and_then(|a| {
        let mut t = s.clone();
        e.apply(&mut t, &a)
    });
    let err = err.unwrap_err().to_string();
    assert!(err.contains("zone"), "{err}");
}

#[test]
fn a_drop_may_mate() {
    let e = crazyhouse();
    let mut s = fen(&e, "k7/8/1K6/8/8/8/8/8[Q] w - - 0 1");
    play(&e, &mut s, &["Q@b7"]);
    let o = s.outcome.expect("mate");
    assert_eq!(o.winners, vec![0]);
}

#[test]
fn the_hands_are_part_of_the_position_for_repetition() {
    let e = crazyhouse();
    let a = fen(&e, "k7/8/8/8/8/8/8/K7[P] w - - 0 1");
    let b = fen(&e, "k7/8/8/8/8/8/8/K7[N] w - - 0 1");
    let c = fen(&e, "k7/8/8/8/8/8/8/K7[] w - - 0 1");
    let d = fen(&e, "k7/8/8/8/8/8/8/K7[PP] w - - 0 1");
    let hashes = [&a, &b, &c, &d].map(|s| e.position_hash(s));
    for i in 0..4 {
        for j in i + 1..4 {
            assert_ne!(hashes[i], hashes[j], "{i} and {j}");
        }
    }
    // The same hand written in another order is the same position.
    let x = fen(&e, "k7/8/8/8/8/8/8/K7[PNp] w - - 0 1");
    let y = fen(&e, "k7/8/8/8/8/8/8/K7[pNP] w - - 0 1");
    assert_eq!(e.position_hash(&x), e.position_hash(&y));
    assert_eq!(e.to_fen(&x), e.to_fen(&y));
}

#[test]
fn a_bad_hand_in_a_position_is_refused_with_a_reason() {
    let e = crazyhouse();
    for (text, words) in [
        ("k7/8/8/8/8/8/8/K7[P w - - 0 1", "between `[` and `]`"),
        (
            "k7/8/8/8/8/8/8/K7[Z] w - - 0 1",
            "`Z` is no piece kind's code",
        ),
        ("k7/8/8/8/8/8/8/K7[9999P] w - - 0 1", "too many"),
        ("k7/8/8/8/8/8/8/K7[3] w - - 0 1", "names no piece"),
        (
            "k7/8/8/8/8/8/8/Kz~6[] w - - 0 1",
            "`z~` is no piece kind's code",
        ),
    ] {
        let err = e
            .parse_fen(text, 1)
            .err()
            .unwrap_or_else(|| panic!("{text} read"));
        assert!(err.contains(words), "{text}: {err}");
    }
    let chess = engine("chess", &[]);
    let err = chess
        .parse_fen("k7/8/8/8/8/8/8/K7[Q] w - - 0 1", 1)
        .unwrap_err();
    assert!(err.contains("no hands"), "{err}");
}

#[test]
fn random_games_list_the_same_moves_with_and_without_shortcuts() {
    assert!(shortcuts_agree("crazyhouse", &[], 12, 120) > 500);
}

#[test]
fn malformed_hands_and_drops_are_refused_at_their_place() {
    refused_at_their_place(&[
        (
            "crazyhouse",
            "{ place: hand, outside: back_ranks }",
            "{ place: hand, outside: nowhere }",
            "`outside: nowhere` names no zone",
        ),
        (
            "crazyhouse",
            "demotes_to: pawn, moves: [{ slide: all",
            "demotes_to: pawnn, moves: [{ slide: all",
            "`demotes_to` names `pawnn`",
        ),
        (
            "crazyhouse",
            "code_mark: \"~\", letter: Q",
            "code_mark: \"*\", letter: Q",
            "`code_mark: *`",
        ),
        (
            "crazyhouse",
            "code: Q, code_mark: \"~\"",
            "code: Q, code_mark: null",
            "already the code of piece `queen`",
        ),
        (
            "crazyhouse",
            "hands: { captures: true }",
            "# no hands",
            "the variant declares no `hands:`",
        ),
        (
            "crazyhouse",
            "{ step: knight }, { place: hand }",
            "{ step: knight }, { place: hand, supply: 3 }",
            "`supply` is for `place: supply`",
        ),
        (
            "crazyhouse",
            "{ step: knight }, { place: hand }",
            "{ step: knight }, { place: pocket }",
            "`place: pocket`",
        ),
    ]);
}
