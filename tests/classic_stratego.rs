//! Rule tests for classic Stratego (shared/RULES.md §1), as positions and
//! expected outcomes.

mod common;
use common::*;
use sandtable::engine::ActionError;
use sandtable::record::view::Views;

fn cs() -> sandtable::engine::Engine {
    engine("classic_stratego", &[])
}

#[test]
fn a_piece_steps_one_square_orthogonally_never_onto_a_lake_or_a_friend() {
    let e = cs();
    let s = position(
        &e,
        r#"
to_move: red
pieces:
  - { at: c4, owner: red, kind: major }
  - { at: b4, owner: red, kind: bomb }
  - { at: j10, owner: blue, kind: flag }
"#,
    );
    // c5 is a lake, b4 holds a friend: only c3 and d4.
    assert_eq!(targets(&e, &s, "c4"), vec!["c3", "d4"]);
    assert!(targets(&e, &s, "b4").is_empty(), "bombs never move");
}

#[test]
fn scouts_slide_through_empty_squares_and_stop_at_lakes_and_pieces() {
    let e = cs();
    let s = position(
        &e,
        r#"
to_move: red
pieces:
  - { at: e4, owner: red, kind: scout }
  - { at: e8, owner: blue, kind: sergeant }
  - { at: b4, owner: red, kind: miner }
  - { at: j10, owner: blue, kind: flag }
"#,
    );
    // Up to e7 (e8 is an enemy two squares away or more: no strike from afar),
    // down to e1, right to j4, left to c4 (b4 is a friend).
    assert_eq!(
        targets(&e, &s, "e4"),
        vec!["c4", "d4", "e1", "e2", "e3", "e5", "e6", "e7", "f4", "g4", "h4", "i4", "j4"]
    );
    // Next to a lake the slide stops.
    let s2 = position(
        &e,
        r#"
to_move: red
pieces:
  - { at: c3, owner: red, kind: scout }
  - { at: j10, owner: blue, kind: flag }
"#,
    );
    assert!(!targets(&e, &s2, "c3")
        .iter()
        .any(|t| t == "c5" || t == "c7"));
    assert!(targets(&e, &s2, "c3").contains(&"c4".to_string()));
}

#[test]
fn a_scout_strikes_only_from_an_adjacent_square_unless_the_option_is_set() {
    let yaml = r#"
to_move: red
pieces:
  - { at: e4, owner: red, kind: scout }
  - { at: e8, owner: blue, kind: sergeant }
  - { at: j10, owner: blue, kind: flag }
"#;
    let e = cs();
    let s = position(&e, yaml);
    let err = e.apply(&mut s.clone(), &act(&e, &s, "e4-e8")).unwrap_err();
    assert!(
        matches!(err, ActionError::Illegal(ref m) if m.contains("cannot reach e8")),
        "{err}"
    );

    let e2 = engine("classic_stratego", &[("scout_move_and_strike", "true")]);
    let mut s2 = position(&e2, yaml);
    assert!(targets(&e2, &s2, "e4").contains(&"e8".to_string()));
    play(&e2, &mut s2, &["e4-e8"]);
    // The scout (rank 2) loses to the sergeant (rank 4), which stays.
    assert_eq!(kind_at(&e2, &s2, "e8").as_deref(), Some("sergeant"));
    assert_eq!(kind_at(&e2, &s2, "e4"), None);
}

#[test]
fn a_scout_moving_more_than_one_square_is_revealed() {
    let e = cs();
    let mut s = position(
        &e,
        r#"
to_move: red
pieces:
  - { at: a4, owner: red, kind: scout }
  - { at: b4, owner: red, kind: scout }
  - { at: j10, owner: blue, kind: flag }
  - { at: j7, owner: blue, kind: major }
"#,
    );
    play(&e, &mut s, &["a4-a5", "j7-j6", "b4-b6"]);
    let a5 = s
        .piece_at(e.variant.board.parse_cell("a5").unwrap())
        .unwrap();
    let b6 = s
        .piece_at(e.variant.board.parse_cell("b6").unwrap())
        .unwrap();
    assert!(!s.knows(1, a5), "a one-square move reveals nothing");
    assert!(s.knows(1, b6), "a two-square move reveals a scout");
}

/// Plays one strike of `attacker` on `defender` and returns (what is left
/// on the defender's square, what is left on the attacker's square).
fn strike(attacker: &str, defender: &str) -> (Option<String>, Option<String>) {
    let e = cs();
    let mut s = position(
        &e,
        &format!(
            r#"
to_move: red
pieces:
  - {{ at: e4, owner: red, kind: {attacker} }}
  - {{ at: e5, owner: blue, kind: {defender} }}
  - {{ at: a1, owner: red, kind: flag }}
  - {{ at: j10, owner: blue, kind: flag }}
  - {{ at: a10, owner: blue, kind: major }}
"#
        ),
    );
    play(&e, &mut s, &["e4-e5"]);
    let on_def = kind_at(&e, &s, "e5").map(|k| format!("{} {k}", owner_at(&e, &s, "e5").unwrap()));
    let on_att = kind_at(&e, &s, "e4").map(|k| format!("{} {k}", owner_at(&e, &s, "e4").unwrap()));
    (on_def, on_att)
}

#[test]
fn the_strike_table() {
    let w = |k: &str| (Some(format!("red {k}")), None); // striker wins, moves in
    let l = |k: &str| (Some(format!("blue {k}")), None); // defender stays
    let both = (None, None);
    assert_eq!(strike("marshal", "general"), w("marshal"));
    assert_eq!(strike("general", "marshal"), l("marshal"));
    assert_eq!(strike("sergeant", "miner"), w("sergeant"));
    assert_eq!(strike("scout", "miner"), l("miner"));
    assert_eq!(strike("captain", "captain"), both);
    assert_eq!(strike("scout", "scout"), both);
    // The Spy removes the Marshal only when the Spy strikes.
    assert_eq!(strike("spy", "marshal"), w("spy"));
    assert_eq!(strike("marshal", "spy"), w("marshal"));
    assert_eq!(strike("spy", "general"), l("general"));
    assert_eq!(strike("scout", "spy"), w("scout"));
    // Bombs: only a Miner removes one.
    assert_eq!(strike("miner", "bomb"), w("miner"));
    assert_eq!(strike("marshal", "bomb"), l("bomb"));
    assert_eq!(strike("spy", "bomb"), l("bomb"));
}

#[test]
fn a_strike_reveals_both_pieces_to_both_players() {
    let e = cs();
    let mut s = position(
        &e,
        r#"
to_move: red
pieces:
  - { at: e4, owner: red, kind: colonel }
  - { at: e5, owner: blue, kind: marshal }
  - { at: a1, owner: red, kind: flag }
  - { at: j10, owner: blue, kind: flag }
"#,
    );
    let red_colonel = s
        .piece_at(e.variant.board.parse_cell("e4").unwrap())
        .unwrap();
    let blue_marshal = s
        .piece_at(e.variant.board.parse_cell("e5").unwrap())
        .unwrap();
    play(&e, &mut s, &["e4-e5"]);
    assert!(s.knows(1, red_colonel) && s.knows(0, blue_marshal));
}

#[test]
fn capturing_the_flag_wins_at_once() {
    let e = cs();
    let mut s = position(
        &e,
        r#"
to_move: red
pieces:
  - { at: e4, owner: red, kind: scout }
  - { at: e5, owner: blue, kind: flag }
  - { at: a1, owner: red, kind: flag }
  - { at: a10, owner: blue, kind: major }
"#,
    );
    play(&e, &mut s, &["e4-e5"]);
    let o = s.outcome.clone().expect("game over");
    assert_eq!(o.winners, vec![0]);
    assert!(o.reason.contains("flag"), "{}", o.reason);
    assert!(e.legal_actions(&s).is_empty());
}

#[test]
fn a_player_who_cannot_move_loses() {
    let e = cs();
    let mut s = position(
        &e,
        r#"
to_move: red
pieces:
  - { at: a1, owner: red, kind: flag }
  - { at: b1, owner: red, kind: major }
  - { at: j10, owner: blue, kind: flag }
  - { at: j9, owner: blue, kind: bomb }
  - { at: i10, owner: blue, kind: bomb }
"#,
    );
    // Blue has only immobile pieces: after red's move blue cannot move and loses.
    play(&e, &mut s, &["b1-b2"]);
    let o = s.outcome.clone().expect("game over");
    assert_eq!(o.winners, vec![0]);
    assert!(o.reason.contains("blue cannot move"), "{}", o.reason);
}

#[test]
fn the_fourth_back_and_forth_move_between_two_squares_is_illegal() {
    let e = cs();
    let mut s = position(
        &e,
        r#"
to_move: red
pieces:
  - { at: a1, owner: red, kind: flag }
  - { at: a4, owner: red, kind: major }
  - { at: j4, owner: red, kind: major }
  - { at: j10, owner: blue, kind: flag }
  - { at: a7, owner: blue, kind: major }
"#,
    );
    play(
        &e,
        &mut s,
        &["a4-a5", "a7-a6", "a5-a4", "a6-a7", "a4-a5", "a7-a6"],
    );
    // Red's major has moved a4-a5, a5-a4, a4-a5: a fourth time is refused.
    let a = act(&e, &s, "a5-a4");
    let err = e.apply(&mut s.clone(), &a).unwrap_err();
    assert!(err.to_string().contains("back and forth"), "{err}");
    // Another piece, or another square, is fine; and moving another piece resets.
    assert!(legal(&e, &s).contains(&"a5-b5".to_string()));
    play(&e, &mut s, &["j4-j5", "a6-b6", "a5-a4"]);

    // With the option at 5 the fourth move is legal.
    let e5 = engine("classic_stratego", &[("two_squares_limit", "5")]);
    let mut s5 = position(&e5, "to_move: red\npieces:\n  - { at: a1, owner: red, kind: flag }\n  - { at: a4, owner: red, kind: major }\n  - { at: j10, owner: blue, kind: flag }\n  - { at: a7, owner: blue, kind: major }\n");
    play(
        &e5,
        &mut s5,
        &[
            "a4-a5", "a7-a6", "a5-a4", "a6-a7", "a4-a5", "a7-a6", "a5-a4",
        ],
    );
}

#[test]
fn illegal_actions_say_why_and_change_nothing() {
    let e = cs();
    let s = position(
        &e,
        r#"
to_move: red
pieces:
  - { at: a1, owner: red, kind: flag }
  - { at: b1, owner: red, kind: bomb }
  - { at: e4, owner: red, kind: major }
  - { at: j10, owner: blue, kind: flag }
  - { at: j7, owner: blue, kind: major }
"#,
    );
    let cases = [
        ("a2-a3", "there is no piece on a2"),
        ("b1-b2", "a Bomb never moves"),
        ("j7-j6", "belongs to blue"),
        ("e4-e6", "cannot reach e6"),
        ("e4-f5", "cannot reach f5"),
    ];
    for (text, why) in cases {
        let mut copy = s.clone();
        let err = e.apply(&mut copy, &act(&e, &s, text)).unwrap_err();
        assert!(err.to_string().contains(why), "{text}: {err}");
        assert_eq!(copy, s, "{text} changed the state");
    }
    assert!(e.parse_action(&s, "z9-a1").is_err());
    assert!(e.parse_action(&s, "hello").is_err());
}

#[test]
fn a_random_setup_fills_each_home_zone_with_the_whole_army() {
    let e = cs();
    let s = e.new_game(42, &[]);
    assert_eq!(s.pieces.len(), 80);
    for (p, rows) in [(0u8, 1..=4), (1u8, 7..=10)] {
        let mut n = 0;
        for (i, piece) in s.pieces.iter().enumerate() {
            if piece.owner == p {
                let c = s.cell_of(i as u16).unwrap();
                let rank = e.variant.board.coords(c).1 + 1;
                assert!(rows.contains(&rank));
                n += 1;
            }
        }
        assert_eq!(n, 40);
    }
    assert_eq!(e.new_game(42, &[]), s, "the same seed gives the same setup");
    assert_ne!(e.new_game(43, &[]), s);
}

#[test]
fn gravon_classic_setups_load_front_row_first() {
    let e = cs();
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/data/gravon-classic-setups.txt"
    );
    let Ok(text) = std::fs::read_to_string(path) else {
        eprintln!("skipped: {path} not present");
        return;
    };
    let flag = e.variant.kind_index("flag").unwrap() as u16;
    let (mut lines, mut flag_back) = (0, 0);
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        lines += 1;
        for player in [0u8, 1] {
            let setup = e
                .parse_setup(player, line, false)
                .unwrap_or_else(|err| panic!("{line}: {err}"));
            assert_eq!(setup.len(), 40);
            let (_, rank) = e
                .variant
                .board
                .coords(setup.iter().find(|x| x.1 == flag).unwrap().0);
            if (player == 0 && rank == 0) || (player == 1 && rank == 9) {
                flag_back += 1;
            }
        }
    }
    assert_eq!(lines, 64_920);
    // The data README measured the flag in the back row of 57,220 lines.
    assert_eq!(flag_back, 2 * 57_220);
    // Read back-row-first, the same lines put the flag in the front row instead.
    let first = text.lines().find(|l| !l.starts_with('#')).unwrap();
    let a = e.parse_setup(0, first, false).unwrap();
    let b = e.parse_setup(0, first, true).unwrap();
    assert_ne!(a, b);
    let s = e.new_game(1, &[Some(a), None]);
    s.check_consistency().unwrap();
}

#[test]
fn a_long_scout_strike_reveals_the_scout_once_and_the_pile_is_sorted() {
    let yaml = r#"
to_move: red
pieces:
  - { at: e4, owner: red, kind: scout }
  - { at: a1, owner: red, kind: flag }
  - { at: e8, owner: blue, kind: sergeant }
  - { at: j10, owner: blue, kind: flag }
containers:
  - name: captured
    owner: blue
    pieces:
      - { owner: blue, kind: scout, known_by: [red] }
      - { owner: blue, kind: marshal, known_by: [red] }
"#;
    let e = engine("classic_stratego", &[("scout_move_and_strike", "true")]);
    let mut s = position(&e, yaml);
    let a = act(&e, &s, "e4-e8");
    let events = e.apply(&mut s, &a).unwrap();
    let lines =
        Views::new(&e).event_lines(&s, &events, sandtable::record::view::Viewer::Omniscient);
    let reveals = lines
        .iter()
        .filter(|l| l.starts_with("reveal: red Scout"))
        .count();
    assert_eq!(reveals, 1, "{lines:?}");
    // Blue's pile: the marshal (declared first) before the scouts.
    let pile = Views::new(&e).captured_summary(&s, sandtable::record::view::Viewer::Omniscient);
    assert!(
        pile.contains(&"captured blue: 10 2".to_string()),
        "{pile:?}"
    );
    assert!(pile.contains(&"captured red: 2".to_string()), "{pile:?}");
}
