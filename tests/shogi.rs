//! Shogi: promotion entering, within and leaving the far ranks (optional
//! unless the piece could never move again), drops and their limits (last
//! ranks, two pawns in a file, a pawn drop that mates), promoted pieces
//! demoted into the hand, as positions and outcomes. Perft counts are in
//! tests/perft/shogi_*.perft.

mod common;

use common::{engine, fen, kind_at, play, refused_at_their_place, shortcuts_agree, texts};
use sandtable::engine::Engine;

fn shogi() -> Engine {
    engine("shogi", &[])
}

fn drops(e: &Engine, s: &sandtable::base::state::GameState) -> Vec<String> {
    texts(e, s)
        .into_iter()
        .filter(|t| t.contains('@'))
        .collect()
}

#[test]
fn promotion_on_entering_the_zone_is_a_choice_and_keeping_the_kind_is_one_of_its_options() {
    let e = shogi();
    let mut s = fen(&e, "4k4/9/9/4S4/9/9/9/9/4K4[-] w");
    play(&e, &mut s, &["e6-e7"]);
    assert_eq!(texts(&e, &s), ["promoted_silver", "silver"]);
    play(&e, &mut s, &["silver"]);
    assert_eq!(kind_at(&e, &s, "e7").as_deref(), Some("silver"));
    assert_eq!(s.to_move, 1);
}

#[test]
fn a_move_that_leaves_the_zone_promotes_too() {
    let e = shogi();
    let mut s = fen(&e, "k8/9/4S4/9/9/9/9/9/4K4[-] w");
    play(&e, &mut s, &["e7-d6"]);
    assert_eq!(texts(&e, &s), ["promoted_silver", "silver"]);
    play(&e, &mut s, &["promoted_silver"]);
    assert_eq!(e.to_fen(&s), "k8/9/9/3+S5/9/9/9/9/4K4[] b");
}

#[test]
fn promotion_is_forced_where_the_piece_could_never_move_again() {
    let e = shogi();
    let mut s = fen(&e, "k8/4P4/9/9/9/9/9/9/4K4[-] w");
    play(&e, &mut s, &["e8-e9"]);
    assert!(s.pending.is_empty());
    assert_eq!(kind_at(&e, &s, "e9").as_deref(), Some("tokin"));
    // A knight on the last two ranks could not move: it promotes at once.
    let mut s = fen(&e, "k8/9/9/4N4/9/9/9/9/4K4[-] w");
    play(&e, &mut s, &["e6-d8"]);
    assert_eq!(kind_at(&e, &s, "d8").as_deref(), Some("promoted_knight"));
    // On the third rank it still could: a choice.
    let mut s = fen(&e, "k8/9/9/9/4N4/9/9/9/4K4[-] w");
    play(&e, &mut s, &["e5-d7"]);
    assert_eq!(texts(&e, &s), ["promoted_knight", "knight"]);
}

#[test]
fn a_captured_promoted_piece_goes_to_the_hand_as_what_it_was() {
    let e = shogi();
    let mut s = fen(&e, "k8/9/9/4+r4/4R4/9/9/9/4K4[-] w");
    play(&e, &mut s, &["e5-e6"]);
    assert_eq!(e.to_fen(&s), "k8/9/9/4R4/9/9/9/9/4K4[R] b");
    let rook = e.variant.kind_index("rook").unwrap() as u16;
    assert_eq!(e.hand_count(&s, 0, rook), 1);
}

#[test]
fn drops_keep_off_the_ranks_where_the_piece_could_not_move() {
    let e = shogi();
    let s = fen(&e, "k8/9/9/9/9/9/9/9/4K4[NLP] w");
    for d in drops(&e, &s) {
        let rank: u32 = d[3..].parse().unwrap();
        match &d[..1] {
            "N" => assert!(rank <= 7, "{d}"),
            "L" | "P" => assert!(rank <= 8, "{d}"),
            _ => panic!("{d}"),
        }
    }
}

#[test]
fn no_second_unpromoted_pawn_in_a_file() {
    let e = shogi();
    let s = fen(&e, "k8/9/9/9/9/9/4P4/9/4K4[P] w");
    let d = drops(&e, &s);
    assert!(!d.iter().any(|t| t.starts_with("P@e")), "{d:?}");
    assert!(d.contains(&"P@d5".to_string()), "{d:?}");
    // A tokin does not count as a pawn.
    let s = fen(&e, "k8/9/9/9/9/9/4+P4/9/4K4[P] w");
    assert!(drops(&e, &s).contains(&"P@e5".to_string()));
}

#[test]
fn a_pawn_drop_may_not_mate_but_another_drop_may() {
    let e = shogi();
    // Gote's king on a9 is walled in by its own lance and knight; a8 is
    // guarded by the gold on a7.
    let s = fen(&e, "kl7/1n7/G8/9/9/9/9/9/4K4[PG] w");
    let d = drops(&e, &s);
    assert!(!d.contains(&"P@a8".to_string()), "{d:?}");
    assert!(d.contains(&"G@a8".to_string()), "{d:?}");
    let mut t = s.clone();
    play(&e, &mut t, &["G@a8"]);
    assert_eq!(t.outcome.expect("mate").winners, vec![0]);
    let a = e.parse_action(&s, "P@a8").unwrap();
    let why = e.explain_illegal(&s, &a);
    assert!(why.contains("checkmate"), "{why}");
}

#[test]
fn random_games_list_the_same_moves_with_and_without_shortcuts() {
    assert!(shortcuts_agree("shogi", &[], 8, 120) > 400);
}

#[test]
fn malformed_shogi_declarations_are_refused_at_their_place() {
    refused_at_their_place(&[
        (
            "shogi",
            "not_in_file_with: [pawn]",
            "not_in_file_with: [pawnn]",
            "`not_in_file_with` names `pawnn`",
        ),
        (
            "shogi",
            "shogi_knight: { deltas: [[1, 2], [-1, 2]] }",
            "shogi_knight: { deltas: [[0, 0]] }",
            "needs offsets other than [0, 0]",
        ),
        (
            "shogi",
            "shogi_knight: { deltas: [[1, 2], [-1, 2]] }",
            "knight: { deltas: [[1, 2]] }",
            "already a built-in one",
        ),
        (
            "shogi",
            "demotes_to: rook",
            "demotes_to: dragon",
            "names the kind itself",
        ),
    ]);
}
