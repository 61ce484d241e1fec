//! Capture by custody, terrain a kind may not enter or stop on, and the
//! ends "a kind is captured", "pieces left" and "a counter's value", as
//! positions and outcomes: Brandubh (a tafl game, no script) and test
//! variants of runs and of points.

mod common;

use common::{engine, fen, legal, play};
use sandtable::base::state::GameState;
use sandtable::engine::Engine;

fn at(e: &Engine, s: &GameState, cell: &str) -> Option<String> {
    let c = e.variant.board.parse_cell(cell).unwrap();
    s.piece_at(c).map(|id| {
        let p = &s.pieces[id as usize];
        format!(
            "{}:{}",
            e.variant.players[p.owner as usize], e.variant.kinds[p.kind as usize].name
        )
    })
}

/// How many pieces stand on the board.
fn on_board(s: &GameState) -> usize {
    s.board().iter().flatten().count()
}

/// The legal moves of the piece on `from`.
fn moves_from(e: &Engine, s: &GameState, from: &str) -> Vec<String> {
    legal(e, s)
        .into_iter()
        .filter(|m| m.starts_with(from))
        .collect()
}

#[test]
fn a_piece_closed_between_the_mover_and_a_partner_is_taken_and_a_piece_moving_between_two_is_safe()
{
    let e = engine("brandubh", &[]);
    // An attacker on a3 closes c2's defender against c1's attacker.
    let mut s = fen(&e, "7/5k1/7/7/A6/2d4/2A4 attackers");
    play(&e, &mut s, &["a3-c3"]);
    assert_eq!(at(&e, &s, "c2"), None, "the defender is taken");
    assert_eq!(on_board(&s), 3);
    // A defender that moves between two attackers is not taken.
    let mut s = fen(&e, "7/5k1/7/7/1A1A3/7/2d4 defenders");
    play(&e, &mut s, &["c1-c3"]);
    assert_eq!(at(&e, &s, "c3").as_deref(), Some("defenders:defender"));
    // Closed by the mover alone, nothing is taken.
    let mut s = fen(&e, "7/5k1/7/7/A6/2d4/7 attackers");
    play(&e, &mut s, &["a3-c3"]);
    assert_eq!(at(&e, &s, "c2").as_deref(), Some("defenders:defender"));
}

#[test]
fn an_empty_corner_or_throne_closes_a_custody() {
    let e = engine("brandubh", &[]);
    // b1 between c1's new attacker and the empty corner a1.
    let mut s = fen(&e, "7/5k1/2A4/7/7/7/1d5 attackers");
    play(&e, &mut s, &["c5-c1"]);
    assert_eq!(at(&e, &s, "b1"), None);
    // d5 between d6's new attacker and the empty throne d4.
    let mut s = fen(&e, "7/A4k1/7/3d3/7/7/7 attackers");
    play(&e, &mut s, &["a6-d6"]);
    assert_eq!(at(&e, &s, "d5"), None);
}

#[test]
fn the_king_is_taken_by_two_outside_the_castle_and_enclosed_within_it() {
    let e = engine("brandubh", &[]);
    // Outside the castle two attackers take the king, and the game.
    let mut s = fen(&e, "7/7/7/7/7/A1kA3/7 attackers");
    play(&e, &mut s, &["a2-b2"]);
    let o = s.outcome.clone().expect("the king is taken");
    assert_eq!(o.winners, vec![0]);
    assert!(o.reason.contains("the king's capture"), "{}", o.reason);
    // On the throne two are not enough, nor three; the fourth takes him.
    let mut s = fen(&e, "7/7/7/2Ak3/7/7/4A2 attackers");
    play(&e, &mut s, &["e1-e4"]);
    assert!(s.outcome.is_none());
    assert_eq!(at(&e, &s, "d4").as_deref(), Some("defenders:king"));
    let mut s = fen(&e, "7/7/3A3/2AkA2/7/A6/7 attackers");
    play(&e, &mut s, &["a2-d2"]);
    assert!(s.outcome.is_none());
    let mut s = fen(&e, "7/7/3A3/2AkA2/A6/7/7 attackers");
    play(&e, &mut s, &["a3-d3"]);
    assert_eq!(s.outcome.clone().expect("enclosed").winners, vec![0]);
    // Beside the throne, three attackers and the empty throne enclose him.
    let mut s = fen(&e, "7/7/2Ak3/7/7/7/4A2 attackers");
    play(&e, &mut s, &["e1-e5"]);
    assert!(s.outcome.is_none(), "two beside him are not enough");
    let mut s = fen(&e, "3A3/7/2AkA2/7/7/7/7 attackers");
    play(&e, &mut s, &["d7-d6"]);
    assert_eq!(s.outcome.clone().expect("enclosed").winners, vec![0]);
}

#[test]
fn only_the_king_stops_on_the_throne_or_a_corner_and_others_pass_the_empty_throne() {
    let e = engine("brandubh", &[]);
    let s = fen(&e, "3A3/7/7/7/7/5k1/7 attackers");
    let d7 = moves_from(&e, &s, "d7");
    assert!(d7.contains(&"d7-d3".to_string()), "{d7:?}");
    assert!(!d7.contains(&"d7-d4".to_string()), "{d7:?}");
    let s = fen(&e, "7/7/7/A6/7/5k1/7 attackers");
    let a4 = moves_from(&e, &s, "a4");
    assert!(
        !a4.iter().any(|m| m.ends_with("a1") || m.ends_with("a7")),
        "{a4:?}"
    );
    assert!(a4.contains(&"a4-a2".to_string()), "{a4:?}");
    assert!(a4.contains(&"a4-e4".to_string()), "{a4:?}");
    // The king may, and reaching a corner wins.
    let mut s = fen(&e, "7/7/7/k6/7/7/5A1 defenders");
    assert!(moves_from(&e, &s, "a4").contains(&"a4-a7".to_string()));
    play(&e, &mut s, &["a4-a7"]);
    let o = s.outcome.clone().expect("the king escapes");
    assert_eq!(o.winners, vec![1]);
    assert!(o.reason.contains("the king's escape"), "{}", o.reason);
}

#[test]
fn runs_of_any_length_of_exactly_two_and_partners_of_a_kind() {
    let e = engine("tests/variants/custody_runs.yaml", &[]);
    // Any run: L l l l . L  -> the mover closes all three.
    let mut s = fen(&e, "8/Llll2L1 black");
    play(&e, &mut s, &["g1-e1"]);
    assert_eq!(on_board(&s), 2, "all three are taken");
    // Exactly two: P p p P takes two, P p p p P takes none.
    let mut s = fen(&e, "8/Ppp2P2 black");
    play(&e, &mut s, &["f1-d1"]);
    assert_eq!(on_board(&s), 2, "both are taken");
    let mut s = fen(&e, "8/Pppp2P1 black");
    play(&e, &mut s, &["g1-e1"]);
    assert_eq!(on_board(&s), 5, "a run of three is not two");
    // A `lone` piece closes only against another `lone` piece.
    let mut s = fen(&e, "8/Ll2O3 black");
    play(&e, &mut s, &["e1-c1"]);
    assert_eq!(on_board(&s), 3, "a `line` piece is no partner of `lone`");
    let mut s = fen(&e, "8/Ol2O3 black");
    play(&e, &mut s, &["e1-c1"]);
    assert_eq!(on_board(&s), 2);
}

#[test]
fn a_malformed_custody_terrain_rule_or_end_is_refused_at_its_line_and_column() {
    common::refused_at_their_place(&[
        // (variant, text, replaced by, expected words)
        (
            "brandubh",
            "lines: orthogonal\n      hostile",
            "lines: sideways\n      hostile",
            "unknown direction set",
        ),
        (
            "brandubh",
            "lines: orthogonal\n      hostile",
            "lines: forward\n      hostile",
            "same for every player",
        ),
        (
            "brandubh",
            "hostile: [throne, corner]\n      enclose",
            "hostile: [throne, moat]\n      enclose",
            "`custody.hostile: moat` names no zone",
        ),
        (
            "brandubh",
            "enclose: { kinds: [king]",
            "run: 2\n      enclose: { kinds: [king]",
            "goes with `run: 1`",
        ),
        (
            "brandubh",
            "enclose: { kinds: [king]",
            "run: 0\n      enclose: { kinds: [king]",
            "expected a number from 1 to 32, or `any`",
        ),
        (
            "brandubh",
            "enclose: { kinds: [king]",
            "enclose: { kinds: [queen]",
            "names `queen`, which is no piece kind",
        ),
        (
            "brandubh",
            "within: castle",
            "within: keep",
            "`custody.enclose.within: keep` names no zone",
        ),
        (
            "brandubh",
            "lines: orthogonal\n      hostile",
            "lines: orthogonal\n      sides: 2\n      hostile",
            "unknown field `sides`",
        ),
        (
            "brandubh",
            "barred: [corner]",
            "barred: [moat]",
            "`barred: moat` names no terrain of the board (it has: throne, corner)",
        ),
        (
            "brandubh",
            "no_stop: [throne]",
            "no_stop: [moat]",
            "`no_stop: moat` names no terrain",
        ),
        (
            "brandubh",
            "count: 1\n    moves",
            "count: 1\n    royal: true\n    moves",
            "not yet supported in a variant with a royal kind",
        ),
        (
            "brandubh",
            "captures: [king]",
            "captures: [emperor]",
            "`emperor` is no piece kind",
        ),
        (
            "brandubh",
            "captures: [king]",
            "captures: []",
            "name at least one kind",
        ),
        (
            "brandubh",
            "captures: [king],",
            "captures: [king], left: 2,",
            "exactly one of",
        ),
        (
            "brandubh",
            "captures: [king],",
            "captures: [king], kinds: [king],",
            "`kinds` goes with `reaches` or `left`",
        ),
        (
            "brandubh",
            "captures: [king],",
            "counter: points,",
            "`counter: NAME` and `at_least: N` go together",
        ),
        (
            "brandubh",
            "winner: mover, reason: \"the king's capture\"",
            "winner: holder, reason: \"the king's capture\"",
            "`winner: holder` goes with a `counter:` end",
        ),
    ]);
}

#[test]
fn a_player_left_with_too_few_pieces_loses() {
    let dir = tempfile::tempdir().unwrap();
    let base =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/variants/custody_runs.yaml");
    std::fs::copy(&base, dir.path().join("runs.yaml")).unwrap();
    let path = dir.path().join("few.yaml");
    std::fs::write(
        &path,
        "extends: runs.yaml\nname: few\nends:\n  - { left: 1, kinds: [line], winner: mover }\n",
    )
    .unwrap();
    let e = Engine::load(path.to_str().unwrap(), &[]).unwrap_or_else(|err| panic!("{err}"));
    // White keeps two `line` pieces after the capture: the game goes on.
    let mut s = fen(&e, "8/Ll2L1ll black");
    play(&e, &mut s, &["e1-c1"]);
    assert_eq!(on_board(&s), 4);
    assert!(s.outcome.is_none());
    // Here only one: black wins.
    let mut s = fen(&e, "8/Ll2L2l black");
    play(&e, &mut s, &["e1-c1"]);
    let o = s.outcome.clone().expect("white has one `line` left");
    assert_eq!(o.winners, vec![0]);
    assert!(o.reason.contains("at most 1 line"), "{}", o.reason);
}

#[test]
fn a_counter_that_reaches_its_value_ends_the_game_for_its_holder() {
    let e = engine("tests/variants/points.yaml", &[]);
    // One capture: a point, the game goes on.
    let mut s = fen(&e, "2S2s/Ss4 black");
    play(&e, &mut s, &["c2-c1"]);
    assert_eq!(s.counter("points", Some(0)), 1);
    assert!(s.outcome.is_none());
    // Two at once: two points, black wins as the action ends (the script
    // counted them after the move).
    let mut s = fen(&e, "2S3/Ss1sS1 black");
    play(&e, &mut s, &["c2-c1"]);
    assert_eq!(s.counter("points", Some(0)), 2);
    let o = s.outcome.clone().expect("two points");
    assert_eq!(o.winners, vec![0]);
    assert!(o.reason.contains("two points"), "{}", o.reason);
}
