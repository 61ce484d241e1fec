//! Ultima (Baroque chess): every capture kind, the Immobilizer, the
//! Chameleon, check, mate and stalemate, notation, and the annotated game
//! Fahys–Yearout from the seed replayed to its mate.

mod common;

use common::{engine, legal, play, targets};
use sandtable::base::state::GameState;
use sandtable::engine::Engine;
use sandtable::record::movetext::Movetext;

/// A position from pieces written `Pd2 pc4 Ke1` (upper case White), with
/// `side` to move.
fn pos(e: &Engine, pieces: &str, side: &str) -> GameState {
    let mut grid = [['.'; 8]; 8];
    for tok in pieces.split_whitespace() {
        let ch = tok.chars().next().unwrap();
        let c = e.variant.board.parse_cell(&tok[1..]).expect("cell");
        let (f, r) = e.variant.board.coords(c);
        grid[r as usize][f as usize] = ch;
    }
    let mut rows = Vec::new();
    for r in (0..8).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for &ch in &grid[r] {
            if ch == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    row.push_str(&empty.to_string());
                    empty = 0;
                }
                row.push(ch);
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    e.parse_fen(&format!("{} {side}", rows.join("/")), 1)
        .unwrap_or_else(|m| panic!("{m}"))
}

/// Plays a move and returns the cells it captured, sorted by name.
fn captures(e: &Engine, s: &mut GameState, mv: &str) -> Vec<String> {
    let a = e.parse_action(s, mv).unwrap();
    let events = e.apply(s, &a).unwrap_or_else(|err| panic!("{mv}: {err}"));
    let mut v: Vec<String> = Engine::captured_cells(&events)
        .into_iter()
        .map(|c| e.variant.board.cell_name(c))
        .collect();
    v.sort();
    v
}

fn ultima() -> Engine {
    engine("ultima", &[])
}

#[test]
fn the_start_position_and_its_fen() {
    let e = ultima();
    let s = e.new_game(1, &[]);
    assert_eq!(
        e.to_fen(&s),
        "clxwkxli/pppppppp/8/8/8/8/PPPPPPPP/ILXKWXLC w"
    );
    // Only pawns can move at first, each like a rook up its file.
    assert_eq!(legal(&e, &s).len(), 32);
    assert_eq!(targets(&e, &s, "a2"), ["a3", "a4", "a5", "a6"]);
}

#[test]
fn perft_from_the_start_matches_two_independent_implementations() {
    // baroque-rs and vchess agree on 32 / 944 / 42,762 (see variants/README.md).
    let e = ultima();
    let s = e.new_game(1, &[]);
    assert_eq!(e.perft(&s, 1).unwrap(), 32);
    assert_eq!(e.perft(&s, 2).unwrap(), 944);
    assert_eq!(e.perft(&s, 3).unwrap(), 42_762);
}

#[test]
fn a_pawn_pincers_c4_by_arriving_on_d4() {
    let e = ultima();
    let mut s = pos(&e, "Pd2 pc4 Pb4 Ke1 kh8", "w");
    assert_eq!(captures(&e, &mut s, "d2-d4"), ["c4"]);
    // The King is a partner like any other piece.
    let mut s = pos(&e, "Pd2 pc4 Kb4 kh8", "w");
    assert_eq!(captures(&e, &mut s, "d2-d4"), ["c4"]);
}

#[test]
fn one_pawn_move_takes_three_pieces() {
    let e = ultima();
    let mut s = pos(&e, "Pe2 pd5 pf5 pe6 Pc5 Pg5 Pe7 Ka1 kh8", "w");
    assert_eq!(captures(&e, &mut s, "e2-e5"), ["d5", "e6", "f5"]);
}

#[test]
fn moving_between_two_pawns_is_safe_and_the_edge_is_no_partner() {
    let e = ultima();
    let mut s = pos(&e, "Pb4 Pd4 pc7 ke8 Kh1", "b");
    assert!(captures(&e, &mut s, "c7-c4").is_empty());
    assert_eq!(common::kind_at(&e, &s, "c4").as_deref(), Some("pawn"));
    let mut s = pos(&e, "Pb2 pa4 Kh1 kh8", "w");
    assert!(captures(&e, &mut s, "b2-b4").is_empty());
}

#[test]
fn the_coordinator_takes_on_both_crossings_with_its_king() {
    let e = ultima();
    let mut s = pos(&e, "Ke1 Ca3 we5 pc1 kh8", "w");
    assert_eq!(captures(&e, &mut s, "a3-c5"), ["c1", "e5"]);
    // Ending on its King's rank: nothing on that line.
    let mut s = pos(&e, "Ke1 Ca3 pc8 kh8", "w");
    assert!(captures(&e, &mut s, "a3-c1").is_empty());
}

#[test]
fn the_withdrawer_takes_by_moving_away_in_any_direction() {
    let e = ultima();
    for (enemy, to) in [("d5", "d2"), ("c4", "g4"), ("e5", "b2"), ("c3", "f6")] {
        let mut s = pos(&e, &format!("Wd4 p{enemy} Ka1 kh8"), "w");
        assert_eq!(
            captures(&e, &mut s, &format!("d4-{to}")),
            [enemy],
            "{enemy}"
        );
    }
    // Moving sideways takes nothing.
    let mut s = pos(&e, "Wd4 pd5 Ka1 kh8", "w");
    assert!(captures(&e, &mut s, "d4-e4").is_empty());
}

#[test]
fn the_long_leaper_jumps_several_but_never_two_adjacent_pieces() {
    let e = ultima();
    let s = pos(&e, "Lb1 pb3 pb5 Ka1 kh8", "w");
    let t = targets(&e, &s, "b1");
    for c in ["b2", "b4", "b6", "b7", "b8"] {
        assert!(t.contains(&c.to_string()), "{c} in {t:?}");
    }
    let mut s2 = s.clone();
    assert_eq!(captures(&e, &mut s2, "b1-b6"), ["b3", "b5"]);
    // Two adjacent pieces block; so does a friendly piece.
    let s = pos(&e, "Lb1 pb3 pb4 Ka1 kh8", "w");
    assert!(!targets(&e, &s, "b1")
        .iter()
        .any(|c| c.starts_with('b') && c != "b2"));
    let s = pos(&e, "Lb1 Pb3 Ka1 kh8", "w");
    assert!(!targets(&e, &s, "b1").contains(&"b4".to_string()));
    // With the single_leap option, one piece per move.
    let e1 = engine("ultima", &[("single_leap", "true")]);
    let s = pos(&e1, "Lb1 pb3 pb5 Ka1 kh8", "w");
    let t = targets(&e1, &s, "b1");
    assert!(
        t.contains(&"b4".to_string()) && !t.contains(&"b6".to_string()),
        "{t:?}"
    );
}

#[test]
fn the_chameleon_takes_each_kind_the_way_that_kind_takes() {
    let e = ultima();
    // Pincers a pawn when moving as a rook, not a withdrawer beside it.
    let mut s = pos(&e, "Xa4 pd5 Pd6 we4 Pf4 Ka1 kh8", "w");
    assert_eq!(captures(&e, &mut s, "a4-d4"), ["d5"]);
    // No pincer on a diagonal move.
    let mut s = pos(&e, "Xb2 pd5 Pd6 Ka1 kh8", "w");
    assert!(captures(&e, &mut s, "b2-d4").is_empty());
    // Withdraws from a withdrawer, not from a pawn.
    let mut s = pos(&e, "Xd4 wd5 Ka1 kh8", "w");
    assert_eq!(captures(&e, &mut s, "d4-d2"), ["d5"]);
    let mut s = pos(&e, "Xd4 pd5 Ka1 kh8", "w");
    assert!(captures(&e, &mut s, "d4-d2").is_empty());
    // Leaps a leaper, not a pawn.
    let mut s = pos(&e, "Xb1 lb3 Ka1 kh8", "w");
    assert_eq!(captures(&e, &mut s, "b1-b4"), ["b3"]);
    let s = pos(&e, "Xb1 pb3 Ka1 kh8", "w");
    assert_eq!(
        targets(&e, &s, "b1")
            .iter()
            .filter(|c| c.starts_with('b'))
            .count(),
        1
    );
    // Coordinates against a coordinator only.
    let mut s = pos(&e, "Ke1 Xa3 ce5 pc1 kh8", "w");
    assert_eq!(captures(&e, &mut s, "a3-c5"), ["e5"]);
    // Takes a King by a king's step; no other piece by displacement.
    let s = pos(&e, "Xd4 ke5 Ka1", "w");
    assert!(targets(&e, &s, "d4").contains(&"e5".to_string()));
    let s = pos(&e, "Xd4 pe5 Ka1 kh8", "w");
    assert!(!targets(&e, &s, "d4").contains(&"e5".to_string()));
    // Never takes a Chameleon.
    let mut s = pos(&e, "Xd4 xd5 Ka1 kh8", "w");
    assert!(captures(&e, &mut s, "d4-d2").is_empty());
    // Kinds combine in one move: leaping a leaper and withdrawing from a
    // withdrawer at once.
    let mut s = pos(&e, "Xd4 ld5 wd3 Ka1 kh8", "w");
    assert_eq!(captures(&e, &mut s, "d4-d7"), ["d3", "d5"]);
}

#[test]
fn with_chameleon_single_kind_the_player_chooses_one_kind() {
    let e = engine("ultima", &[("chameleon_single_kind", "true")]);
    let mut s = pos(&e, "Xd4 ld5 wd3 Ka1 kh8", "w");
    play(&e, &mut s, &["d4-d7"]);
    let options = legal(&e, &s);
    assert_eq!(options, ["take long leapers d5", "take withdrawer d3"]);
    play(&e, &mut s, &["take withdrawer d3"]);
    assert_eq!(common::kind_at(&e, &s, "d3"), None);
    assert_eq!(
        common::kind_at(&e, &s, "d5").as_deref(),
        Some("long_leaper")
    );
}

#[test]
fn the_immobilizer_freezes_its_neighbours() {
    let e = ultima();
    let s = pos(&e, "Id4 pd5 pe5 pc3 ph7 Ka1 kh8", "b");
    for c in ["d5", "e5", "c3"] {
        assert!(targets(&e, &s, c).is_empty(), "{c} is frozen");
    }
    assert!(!targets(&e, &s, "h7").is_empty());
    let a = e.parse_action(&s, "d5-d6").unwrap();
    let err = e.explain_illegal(&s, &a);
    assert!(err.contains("frozen"), "{err}");
    // Two Immobilizers side by side freeze each other.
    let s = pos(&e, "Id4 ie5 Ka1 kh8", "w");
    assert!(targets(&e, &s, "d4").is_empty());
    let s = pos(&e, "Id4 ie5 Ka1 kh8", "b");
    assert!(targets(&e, &s, "e5").is_empty());
    // A Chameleon beside an enemy Immobilizer freezes it and is frozen.
    let s = pos(&e, "Xd4 ie5 Ka1 kh8", "w");
    assert!(targets(&e, &s, "d4").is_empty());
    let s = pos(&e, "Xd4 ie5 Ka1 kh8", "b");
    assert!(targets(&e, &s, "e5").is_empty());
    // A frozen piece can be taken, and still serves as a pincer partner.
    let mut s = pos(&e, "Id4 pd5 Pa6 Ka1 kh8", "w");
    assert_eq!(captures(&e, &mut s, "a6-d6"), ["d5"]);
    let mut s = pos(&e, "ie4 Pd4 pc4 Pb1 Ka1 kh8", "w");
    assert!(targets(&e, &s, "d4").is_empty(), "d4 is frozen");
    assert_eq!(captures(&e, &mut s, "b1-b4"), ["c4"]);
}

#[test]
fn pure_immobilizer_is_the_cambridge_reading() {
    // Literal reading: two Immobilizers freeze each other and the White
    // Immobilizer still freezes the pawn beside it.
    let e = ultima();
    let s = pos(&e, "Id4 ie5 pc5 Ka1 kh8", "b");
    assert!(targets(&e, &s, "c5").is_empty());
    // Cambridge reading: another Immobilizer or Chameleon of Black's next
    // to the White Immobilizer frees Black's pieces beside it...
    let e = engine("ultima", &[("pure_immobilizer", "true")]);
    let s = pos(&e, "Id4 ie5 pc5 Ka1 kh8", "b");
    assert!(!targets(&e, &s, "c5").is_empty(), "e5 frees c5");
    // ... but not itself: the Black Immobilizer is frozen.
    assert!(targets(&e, &s, "e5").is_empty(), "nothing else frees e5");
    // A Chameleon alone next to it is frozen too; a second one frees both.
    let s = pos(&e, "Id4 xe5 Ka1 kh8", "b");
    assert!(targets(&e, &s, "e5").is_empty());
    let s = pos(&e, "Id4 xe5 xc5 Ka1 kh8", "b");
    assert!(!targets(&e, &s, "e5").is_empty());
    assert!(!targets(&e, &s, "c5").is_empty());
    // An Immobilizer next to an enemy Chameleon is frozen, whatever else
    // stands next to the enemy Immobilizer beside it.
    let s = pos(&e, "If5 ig5 Xf4 xg4 Ka1 kh8", "w");
    assert!(targets(&e, &s, "f5").is_empty());
}

#[test]
fn no_move_may_leave_the_king_capturable() {
    let e = ultima();
    // Two adjacent pawns shield the King from the leaper on a8; moving
    // one of them away lets the leaper jump the other and the King.
    let s = pos(&e, "Ka2 Pa4 Pa5 la8 kh8", "w");
    assert!(
        targets(&e, &s, "a5").is_empty(),
        "{:?}",
        targets(&e, &s, "a5")
    );
    let a = e.parse_action(&s, "a5-b5").unwrap();
    assert!(e.explain_illegal(&s, &a).contains("check"));
    // The King itself may not step next to the enemy King.
    let s = pos(&e, "Kd4 kd6 Ph2", "w");
    for c in ["c5", "d5", "e5"] {
        assert!(!targets(&e, &s, "d4").contains(&c.to_string()), "{c}");
    }
}

/// The two Kings share the d-file, so Black's Coordinator takes the White
/// King by ending anywhere on rank 1: the pawns on a2 and b2 bar its ways
/// to a1 and c1. `rules.check_cells` names the cells of those ways rather
/// than giving up its shortcut; a move that opens one is refused all the
/// same, and the list is the exhaustive test's.
#[test]
fn a_move_that_opens_a_coordinators_way_to_the_kings_rank_is_refused() {
    let e = ultima();
    let s = pos(&e, "Kd1 Pa2 Pb2 Ph4 ca3 kd8", "w");
    // b2 bars the diagonal a3-c1: each of its moves opens it.
    assert!(
        targets(&e, &s, "b2").is_empty(),
        "{:?}",
        targets(&e, &s, "b2")
    );
    // a2 bars the file: it may only stay on it.
    assert_eq!(targets(&e, &s, "a2"), ["a1"]);
    // Elsewhere nothing changes: the pawn on h4 moves freely, and the
    // King may leave the d-file (then no Coordinator can take it).
    assert_eq!(targets(&e, &s, "h4").len(), 14);
    assert!(targets(&e, &s, "d1").contains(&"e1".to_string()));
    let full = sandtable::engine::Exhaustive::new(&e).unwrap();
    assert_eq!(e.legal_actions(&s), full.legal_actions(&s));
}

#[test]
fn a_stalemated_player_loses() {
    let e = ultima();
    // Black's Immobilizer freezes White's only piece, the King: no legal
    // move, not attacked: White is stalemated and loses.
    let mut s = pos(&e, "Ka1 ic3 kh8", "b");
    play(&e, &mut s, &["c3-b2"]);
    let o = s.outcome.clone().expect("over");
    assert_eq!(o.winners, vec![1]);
    assert!(o.reason.contains("stalemated"), "{}", o.reason);
}

#[test]
fn notation_names_the_origin_only_when_ambiguous() {
    let e = ultima();
    let s = pos(&e, "La1 Lc1 Ke8 kh8", "w");
    let a = e.parse_action(&s, "a1-b2").unwrap();
    assert_eq!(e.notation(&s, &a), "Lab2");
    assert_eq!(e.parse_notation(&s, "Lab2").unwrap().0, a);
    let err = e.parse_notation(&s, "Lb2").unwrap_err().to_string();
    assert!(err.contains("ambiguous"), "{err}");
    let b = e.parse_action(&s, "a1-a5").unwrap();
    assert_eq!(e.notation(&s, &b), "La5");
}

#[test]
fn the_annotated_game_fahys_yearout_replays_to_mate() {
    let e = ultima();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/fahys_yearout.ultima"
    ))
    .unwrap();
    let mut s = e.new_game(1, &[]);
    let moves = Movetext::new(&e).play(&mut s, &text, |_, _| {}).unwrap();
    assert_eq!(moves.len(), 33);
    // The checks the notes mark, as the engine writes them.
    let text_of = |n: &str| {
        moves
            .iter()
            .find(|m| m.number == n)
            .map(|m| m.engine_text.clone())
            .unwrap()
    };
    assert_eq!(text_of("15."), "e5e7+");
    assert_eq!(text_of("16."), "If6+");
    assert_eq!(text_of("13."), "e4e5:d5:f5");
    assert_eq!(text_of("17."), "Lh7:h4:h6 mat");
    let o = s.outcome.expect("mate ends the game");
    assert_eq!(o.winners, vec![0]);
    assert!(o.reason.contains("checkmated"), "{}", o.reason);
}

#[test]
fn a_replay_stops_where_the_written_captures_differ() {
    let e = ultima();
    let mut s = e.new_game(1, &[]);
    let err = Movetext::new(&e)
        .play(&mut s, "1.h2h5 f7f5 2.a2a5:a7", |_, _| {})
        .unwrap_err();
    assert!(err.contains("move 2."), "{err}");
    assert!(
        err.contains("captures a7 but the engine captured nothing"),
        "{err}"
    );
}

#[test]
fn suicide_removes_a_frozen_piece_as_a_whole_turn() {
    let e = ultima();
    // Black's pawn on d4 is frozen by the White Immobilizer: Black may
    // remove it; the King and unfrozen pieces are never offered.
    let mut s = pos(&e, "kh8 pd4 pa7 Id3 Ka1", "b");
    let l = legal(&e, &s);
    assert!(l.contains(&"suicide d4".to_string()), "{l:?}");
    assert_eq!(l.iter().filter(|a| a.starts_with("suicide")).count(), 1);
    play(&e, &mut s, &["suicide d4"]);
    assert_eq!(common::kind_at(&e, &s, "d4"), None);
    assert_eq!(s.to_move, 0, "the suicide was the whole turn");
    // Not when removing the piece would leave the King capturable: the
    // frozen pawn on a5 keeps the leaper on a8 from jumping a4 and the King.
    let s = pos(&e, "Ka2 Pa4 Pa5 ib6 la8 kh8", "w");
    assert!(
        !legal(&e, &s).iter().any(|a| a == "suicide a5"),
        "{:?}",
        legal(&e, &s)
    );
    // A frozen King is never removed; with no other piece it is stalemate.
    let mut s = pos(&e, "Ka1 ic3 kh8", "b");
    play(&e, &mut s, &["c3-b2"]);
    assert!(s.outcome.is_some());
    // The option turns it off.
    let e = engine("ultima", &[("suicide", "false")]);
    let s = pos(&e, "kh8 pd4 pa7 Id3 Ka1", "b");
    assert!(!legal(&e, &s).iter().any(|a| a.starts_with("suicide")));
}

#[test]
fn a_refused_suicide_says_why() {
    let e = ultima();
    let s = pos(&e, "Ka2 Pa4 Pa5 ib6 la8 kh8", "w");
    let why = |text: &str| {
        let a = e.parse_action(&s, text).unwrap();
        e.explain_illegal(&s, &a)
    };
    assert_eq!(
        why("suicide a5"),
        "`suicide a5`: it would leave white's royal piece capturable"
    );
    // a4 is not frozen; the King never is a candidate.
    assert!(
        why("suicide a4").contains("(`cell` may be: a5)"),
        "{}",
        why("suicide a4")
    );
    let s = pos(&e, "Ka1 ib2 kh8 Ph2", "w");
    let a = e.parse_action(&s, "suicide a1").unwrap();
    let why = e.explain_illegal(&s, &a);
    assert!(why.contains("`cell` may be: )"), "{why}");
}

/// A copy of Ultima with one edit of its YAML, loaded: the error text.
fn load_edited(old: &str, new: &str) -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    for sub in ["variants", "scripts"] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
    }
    let yaml = std::fs::read_to_string(root.join("variants/ultima.yaml")).unwrap();
    assert!(yaml.contains(old), "{old}");
    let path = dir.path().join("variants/ultima.yaml");
    std::fs::write(&path, yaml.replacen(old, new, 1)).unwrap();
    std::fs::copy(
        root.join("scripts/ultima.lua"),
        dir.path().join("scripts/ultima.lua"),
    )
    .unwrap();
    match Engine::load(path.to_str().unwrap(), &[]) {
        Ok(_) => panic!("loaded"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn check_names_the_line_and_column_of_a_bad_freeze_or_suicide() {
    let e = load_edited(
        "freezes: { kinds: [immobilizer] }",
        "freezes: { kinds: [immobiliser] }",
    );
    assert!(
        e.contains("ultima.yaml:77:14:")
            && e.contains("`freezes.kinds` names `immobiliser`, which is no piece kind"),
        "{e}"
    );
    let e = load_edited("enabled: $pure_immobilizer", "enabled: $pure");
    assert!(
        e.contains("ultima.yaml:62:22:") && e.contains("unknown option `pure`"),
        "{e}"
    );
    let e = load_edited("{ not: { kind: king } }]", "{ not: { kind: kings } }]");
    assert!(
        e.contains("ultima.yaml:86:49:") && e.contains("`kings` is no piece kind"),
        "{e}"
    );
    let e = load_edited("near: all", "near: sideways");
    assert!(e.contains("unknown direction set `sideways`"), "{e}");
    let e = load_edited("enabled: $suicide", "enabled: 3");
    assert!(e.contains("ultima.yaml:89:14:"), "{e}");
    let e = load_edited("where: [frozen,", "where: [frozn,");
    assert!(
        e.contains("ultima.yaml:86:41:") && e.contains("unknown condition `frozn`"),
        "{e}"
    );
}

/// `rules.check_cells` lets most moves skip the self-check test: in random
/// games (each option that changes freezing or captures) the legal moves
/// are exactly those an exhaustive test gives.
#[test]
fn check_cells_changes_no_legal_move() {
    for options in [
        &[][..],
        &[("pure_immobilizer", "true")][..],
        &[("single_leap", "true"), ("suicide", "false")][..],
    ] {
        let n = common::shortcuts_agree("ultima", options, 6, 160);
        assert!(n > 500, "{options:?}: only {n} positions compared");
    }
}

/// `rules.script.captures_when` names the kinds whose moves the script is
/// asked about; a clause cannot ask for `captures: true` (the answer is
/// what is captured), and names only kinds there are.
#[test]
fn captures_when_is_checked_where_it_is_written() {
    let clause = "captures_when: [{ kinds: [pawn, withdrawer,";
    let e = load_edited(clause, "captures_when: [{ kinds: [pawns, withdrawer,");
    assert!(
        e.contains("ultima.yaml:")
            && e.contains("`rules.script.captures_when.kinds` names `pawns`"),
        "{e}"
    );
    let e = load_edited(
        clause,
        "captures_when: [{ captures: true, kinds: [pawn, withdrawer,",
    );
    assert!(e.contains("cannot hold `captures: true`"), "{e}");
}

/// `captures_when` only spares questions whose answer is nothing: along
/// random games (each option that changes captures), every legal move
/// leaves the same position and the same list of moves as when the script
/// is asked about every move.
#[test]
fn captures_when_changes_no_game() {
    use sandtable::rules::variant::Variant;
    for options in [
        vec![],
        vec![("single_leap".to_string(), "true".to_string())],
        vec![("chameleon_single_kind".to_string(), "true".to_string())],
    ] {
        let declared = Engine::load("ultima", &options).unwrap();
        let mut every: Variant = Variant::load("ultima", &options).unwrap();
        assert!(every.captures_when.is_some());
        every.captures_when = None;
        let every = Engine::from_variant(every).unwrap();
        let mut compared = 0;
        for seed in 0..2u64 {
            use rand::{Rng, SeedableRng};
            let mut s = declared.new_game(seed, &[]);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            for _ in 0..60 {
                let listed = declared.legal_actions(&s);
                assert_eq!(listed, every.legal_actions(&s), "{options:?} seed {seed}");
                if listed.is_empty() || s.outcome.is_some() {
                    break;
                }
                for a in &listed {
                    let (mut x, mut y) = (s.clone(), s.clone());
                    declared.apply_unchecked(&mut x, a).unwrap();
                    every.apply_unchecked(&mut y, a).unwrap();
                    assert_eq!(
                        declared.to_fen(&x),
                        every.to_fen(&y),
                        "{options:?} seed {seed}: {a:?}"
                    );
                    compared += 1;
                }
                let pick = listed[rng.random_range(0..listed.len())];
                declared.apply_unchecked(&mut s, &pick).unwrap();
            }
        }
        assert!(
            compared > 3000,
            "{options:?}: only {compared} moves compared"
        );
    }
}
