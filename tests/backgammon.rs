//! Backgammon (variants/backgammon.yaml): dice, stacks, hitting to the bar,
//! entering, bearing off, the must-use rule and the race end, as positions
//! and outcomes; every end-of-turn position for 12 positions and all 21
//! rolls against OpenSpiel's (tests/data/backgammon_openspiel.txt); load
//! errors of malformed dice, stacks and races at their place; positions
//! with dice or stacks out of range refused.

mod common;

use std::collections::BTreeSet;

use common::{engine, fen, play, refused_at_their_place, texts};
use sandtable::base::state::GameState;
use sandtable::engine::Engine;

fn bg() -> Engine {
    engine("backgammon", &[])
}

/// The board field of a position's text.
fn board(e: &Engine, s: &GameState) -> String {
    e.to_fen(s).split(' ').next().unwrap().to_string()
}

/// Every board the player to move can reach at the end of the turn.
fn turn_ends(e: &Engine, s: &GameState, out: &mut BTreeSet<String>) {
    let mover = s.to_move;
    let list = e.legal_actions(s);
    for a in list {
        let mut t = s.clone();
        e.apply(&mut t, &a).unwrap();
        if t.outcome.is_some() || t.to_move != mover {
            out.insert(board(e, &t));
        } else {
            turn_ends(e, &t, out);
        }
    }
}

#[test]
fn the_start_position_reads_back_and_shows_stacks_and_dice() {
    let e = bg();
    let s = e.new_game(3, &[]);
    assert_eq!(s.dice.len(), 2);
    let text = e.to_fen(&s);
    assert!(
        text.starts_with("C(2)4c(5)1c(3)3C(5)2/c(2)4C(5)1C(3)3c(5)2 w"),
        "{text}"
    );
    let again = e.parse_fen(&text, 3).unwrap();
    assert_eq!(e.to_fen(&again), text);
    s.check_consistency().unwrap();
}

#[test]
fn a_move_is_one_die_and_the_turn_goes_on_until_the_dice_are_used() {
    let e = bg();
    let mut s = fen(&e, "C(2)4c(5)1c(3)3C(5)2/c(2)4C(5)1C(3)3c(5)2 white 6,5");
    let t = texts(&e, &s);
    assert!(
        t.contains(&"24/18".to_string()) && t.contains(&"13/8".to_string()),
        "{t:?}"
    );
    play(&e, &mut s, &["24/18"]);
    assert_eq!(s.to_move, 0);
    assert_eq!(s.dice.values(), &[5]);
    play(&e, &mut s, &["18/13"]);
    assert_eq!(s.to_move, 1, "both dice used: black's turn");
    assert_eq!(s.dice.len(), 2, "black has rolled");
    assert!(board(&e, &s).contains("C(6)"), "{}", board(&e, &s));
    s.check_consistency().unwrap();
}

#[test]
fn a_double_is_played_four_times() {
    let e = bg();
    let mut s = fen(
        &e,
        "C(2)4c(5)1c(3)3C(5)2/c(2)4C(5)1C(3)3c(5)2 white 3,3,3,3",
    );
    play(&e, &mut s, &["8/5", "8/5", "6/3", "6/3"]);
    assert_eq!(s.to_move, 1);
    assert_eq!(
        board(&e, &s),
        "C(2)4c(5)1c(3)3C(5)2/c(2)1C(2)1C(2)C(3)1C3c(5)2"
    );
}

#[test]
fn a_lone_checker_is_hit_to_the_bar_and_must_enter_first() {
    let e = bg();
    // White's lone checker on a2 (white's 24-point, black's 1-point);
    // black's checker on e2 (black's 5-point) hits it with the 4.
    let mut s = fen(&e, "C3c8c(13)/7C(14)3c2 black 4,2");
    let t = texts(&e, &s);
    assert!(t.contains(&"5/1*".to_string()), "{t:?}");
    play(&e, &mut s, &["5/1*"]);
    assert_eq!(
        board(&e, &s),
        "c12c(13)/7C(14)3cC1",
        "the hit checker on white's bar, m1"
    );
    assert_eq!(s.dice.values(), &[2]);
    play(&e, &mut s, &["13/11"]);
    // White to move with a checker on the bar: only entering (or a pass).
    assert_eq!(s.to_move, 0);
    let t = texts(&e, &s);
    assert!(
        t.iter().all(|m| m.starts_with("bar/") || m == "pass"),
        "{t:?}"
    );
    s.check_consistency().unwrap();
}

#[test]
fn no_usable_die_is_an_explicit_pass() {
    let e = bg();
    // White on the bar; black holds white's 19-24 entry points (black's
    // 1-6, a2-f2) with two each.
    let s = fen(&e, "c(2)c(2)c(2)c(2)c(2)c(2)8/12C(15)1 white 6,5");
    assert_eq!(texts(&e, &s), vec!["pass"]);
    let mut s = s;
    play(&e, &mut s, &["pass"]);
    assert_eq!(s.to_move, 1);
}

#[test]
fn the_larger_die_when_only_one_can_be_used() {
    let e = bg();
    // White's one checker on its 8 (h1); with 6-1 either die alone, but
    // 8/2 then 2/1 is blocked and 8/7 then 7/1 is blocked: the 6 only.
    let s = fen(&e, "14/c(2)6C6 white 6,1");
    // black holds a1 (white's 1-point).
    assert_eq!(texts(&e, &s), vec!["8/2"]);
}

#[test]
fn bearing_off_and_the_race_end_with_its_points() {
    let e = bg();
    // White has one checker left on its 1-point and 14 borne off; black has
    // borne off none and has a checker on white's home side: 3 points.
    let mut s = fen(&e, "c(14)13/C4c7C(14) white 2,1");
    assert!(texts(&e, &s).contains(&"1/off".to_string()));
    play(&e, &mut s, &["1/off"]);
    let o = s.outcome.clone().expect("the game is over");
    assert_eq!(o.winners, vec![0]);
    assert!(o.reason.contains("3 points"), "{}", o.reason);
    let mut s = fen(&e, "c(14)13/C10c1C(14) white 2,1");
    play(&e, &mut s, &["1/off"]);
    assert!(s.outcome.unwrap().reason.contains("2 points"));
    let mut s = fen(&e, "c(13)12c/C12C(14) white 2,1");
    play(&e, &mut s, &["1/off"]);
    assert!(s.outcome.unwrap().reason.contains(": 1 point"));
}

#[test]
fn positions_with_dice_or_stacks_out_of_range_are_refused() {
    let e = bg();
    for (text, words) in [
        (
            "C(2)4c(5)1c(3)3C(5)2/c(2)4C(5)1C(3)3c(5)2 white 7,1",
            "not a face",
        ),
        (
            "C(2)4c(5)1c(3)3C(5)2/c(2)4C(5)1C(3)3c(5)2 white 0,1",
            "not a face",
        ),
        (
            "C(2)4c(5)1c(3)3C(5)2/c(2)4C(5)1C(3)3c(5)2 white 6,5,4",
            "more than one roll",
        ),
        ("C(16)13/14 white 6,5", "1 to 15"),
        ("C(0)13/14 white 6,5", "1 to 15"),
        ("C(3x13/14 white 6,5", "parentheses"),
    ] {
        let err = e.parse_fen(text, 1).unwrap_err();
        assert!(err.contains(words), "{text}: {err}");
    }
}

#[test]
fn malformed_dice_stacks_and_races_are_refused_at_their_place() {
    refused_at_their_place(&[
        ("backgammon", "faces: 6", "faces: 0", "no faces"),
        ("backgammon", "count: 2", "count: 0", "expected 1 to 4"),
        ("backgammon", "doubles: 2", "doubles: 9", "expected 1 to 4"),
        ("backgammon", "stacks: 15", "stacks: 1", "`board.stacks`"),
        (
            "backgammon",
            "stacks: 15",
            "stacks: 0",
            "at least one piece",
        ),
        (
            "backgammon",
            "dice: { count: 2, faces: 6, doubles: 2 }",
            "",
            "declares no `dice:`",
        ),
        ("backgammon", "bar: m1", "bar: a1", "is on the track"),
        ("backgammon", "off: n1", "off: m1", "must differ"),
        ("backgammon", "home: 6", "home: 30", "expected 1 to"),
        (
            "backgammon",
            "[a2:l2, l1:a1]",
            "[a2:l2, l1:b2]",
            "along one rank or one file",
        ),
        ("backgammon", "[a2:l2, l1:a1]", "[a2:l2, l2]", "twice"),
        ("backgammon", "borne_off: 15", "borne_off: 0", "at least 1"),
    ]);
}

#[test]
fn every_turn_end_matches_openspiel_for_12_positions_and_all_rolls() {
    let e = bg();
    let data = include_str!("data/backgammon_openspiel.txt");
    let mut lines = data.lines().filter(|l| !l.starts_with('#'));
    let mut position = String::new();
    let (mut positions, mut rolls) = (0, 0);
    while let Some(line) = lines.next() {
        if let Some(p) = line.strip_prefix("position ") {
            position = p.to_string();
            positions += 1;
            continue;
        }
        let rest = line.strip_prefix("roll ").expect("a roll line");
        let (dice, n) = rest.split_once(' ').unwrap();
        let n: usize = n.parse().unwrap();
        let want: BTreeSet<String> = (0..n).map(|_| lines.next().unwrap().to_string()).collect();
        let (a, b) = dice.split_once(',').unwrap();
        let dice = if a == b {
            format!("{a},{a},{a},{a}")
        } else {
            dice.to_string()
        };
        let s = fen(&e, &format!("{position} {dice}"));
        let mut got = BTreeSet::new();
        turn_ends(&e, &s, &mut got);
        assert_eq!(got, want, "{position} rolling {dice}");
        rolls += 1;
    }
    assert_eq!((positions, rolls), (12, 12 * 21));
}

#[test]
fn a_bot_never_foresees_a_die_two_seeds_with_one_history_decide_alike() {
    use rand::SeedableRng;
    use sandtable::play::agent::{Agent, Budget, Mcts};
    use sandtable::play::determinize::Determinizer;
    let e = bg();
    let a = e.new_game(11, &[]);
    // The same history (board and dice so far), another future: the
    // generator of another seed.
    let mut b = a.clone();
    b.seed = 12;
    b.rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
    let d = Determinizer::new(&e);
    let (oa, ob) = (d.observe(&a, 0), d.observe(&b, 0));
    let choose = |obs: &sandtable::play::determinize::Observation| {
        Mcts::new(Budget::Iterations(300), 5).choose(&e, obs)
    };
    let (ca, cb) = (choose(&oa), choose(&ob));
    assert!(ca.is_some());
    assert_eq!(ca, cb, "the decision before the roll depends on the seed");
    // The futures differ: after the same turn, the next rolls are not the
    // same for every continuation.
    let mut differ = false;
    for act in e.legal_actions(&a) {
        let (mut x, mut y) = (a.clone(), b.clone());
        e.apply(&mut x, &act).unwrap();
        e.apply(&mut y, &act).unwrap();
        while x.to_move == 0 && x.outcome.is_none() {
            let next = e.legal_actions(&x)[0];
            e.apply(&mut x, &next).unwrap();
            e.apply(&mut y, &next).unwrap();
        }
        differ |= x.dice != y.dice;
    }
    assert!(differ, "the two seeds roll alike: pick others");
}
