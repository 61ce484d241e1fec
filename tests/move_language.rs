//! The move language's games (Othello, Connect Four, English draughts,
//! Go 9x9): the rules perft does not show, as positions and outcomes —
//! endings and who wins, flips, gravity, two jump paths with the same
//! ends, compulsory capture, crowning ending the move, captures of
//! groups, suicide and ko, passing.

mod common;

use common::{engine, fen, play};
use sandtable::base::state::GameState;
use sandtable::engine::{Action, Engine};

fn texts(e: &Engine, s: &GameState) -> Vec<String> {
    let mut t: Vec<String> = e
        .legal_actions(s)
        .iter()
        .map(|a| e.action_text(s, a))
        .collect();
    t.sort();
    t
}

fn owner_at(e: &Engine, s: &GameState, cell: &str) -> Option<u8> {
    let c = e.variant.board.parse_cell(cell).unwrap();
    s.piece_at(c).map(|id| s.pieces[id as usize].owner)
}

fn kind_at(e: &Engine, s: &GameState, cell: &str) -> Option<String> {
    let c = e.variant.board.parse_cell(cell).unwrap();
    s.piece_at(c).map(|id| {
        e.variant.kinds[s.pieces[id as usize].kind as usize]
            .name
            .clone()
    })
}

#[test]
fn connect_four_discs_fall_and_four_in_a_row_wins() {
    let e = engine("connect_four", &[]);
    let mut s = e.new_game(1, &[]);
    assert_eq!(texts(&e, &s), ["a1", "b1", "c1", "d1", "e1", "f1", "g1"]);
    // d2 is not where a disc dropped into column d comes to rest.
    let err = e
        .apply(&mut s.clone(), &e.parse_action(&s, "d2").unwrap())
        .unwrap_err();
    assert!(err.to_string().contains("falls"), "{err}");
    play(&e, &mut s, &["d1", "d2", "e1", "e2", "f1", "f2"]);
    assert!(s.outcome.is_none());
    play(&e, &mut s, &["g1"]);
    let o = s.outcome.clone().expect("four in a row");
    assert_eq!(o.winners, vec![0]);
    assert!(o.reason.contains("a line of 4 or more"), "{}", o.reason);
}

#[test]
fn connect_four_diagonals_count_and_a_full_board_draws() {
    let e = engine("connect_four", &[]);
    let mut s = e.new_game(1, &[]);
    // Red: a1 b2 c3 d4 on the diagonal.
    play(
        &e,
        &mut s,
        &["a1", "b1", "b2", "c1", "c2", "d1", "c3", "d2", "d3", "g1"],
    );
    assert!(s.outcome.is_none());
    play(&e, &mut s, &["d4"]);
    assert_eq!(s.outcome.clone().unwrap().winners, vec![0]);
    // The last disc fills the board without four in a row: nobody can
    // move, a draw.
    let mut s = fen(&e, "DDDdDd1/dDddDdD/dDdDdDd/DdddDdD/DdDdDdD/ddDddDD red");
    assert_eq!(texts(&e, &s), ["g6"]);
    play(&e, &mut s, &["g6"]);
    let o = s.outcome.clone().expect("full board");
    assert!(o.winners.is_empty());
    assert!(o.reason.contains("cannot move"), "{}", o.reason);
}

#[test]
fn othello_flips_every_outflanked_line_and_passes_only_when_stuck() {
    let e = engine("othello", &[]);
    let mut s = e.new_game(1, &[]);
    assert_eq!(texts(&e, &s), ["c4", "d3", "e6", "f5"]);
    play(&e, &mut s, &["d3"]);
    assert_eq!(owner_at(&e, &s, "d4"), Some(0), "d4 flipped to black");
    assert_eq!(owner_at(&e, &s, "e5"), Some(1), "e5 stays white");
    // Black to move with no placement (white's disc flanks nothing of
    // black's): pass is black's only action.
    let mut s = fen(&e, "8/8/8/8/8/8/8/dD6 black");
    assert_eq!(texts(&e, &s), ["pass"]);
    let err = e
        .apply(&mut s.clone(), &Action::Place { kind: 0, at: 2 })
        .unwrap_err();
    assert!(err.to_string().contains("flank"), "{err}");
    play(&e, &mut s, &["pass"]);
    assert_eq!(texts(&e, &s), ["c1"]);
    // White takes the last black disc: nobody can move, most discs wins.
    play(&e, &mut s, &["c1"]);
    let o = s.outcome.clone().expect("nobody can move");
    assert_eq!(o.winners, vec![1]);
    assert!(o.reason.contains("most pieces"), "{}", o.reason);
}

#[test]
fn draughts_two_jump_paths_with_the_same_ends_are_two_moves() {
    let e = engine("english_draughts", &[]);
    // A white man on d6 with black men on c5, c3, e5, e3: d6 to d2 by
    // b4 or by f4.
    let s = fen(&e, "8/8/3m4/2M1M3/8/2M1M3/8/8 white");
    let t = texts(&e, &s);
    assert_eq!(t, ["d6xb4xd2", "d6xf4xd2"], "{t:?}");
    let a = e.parse_action(&s, "d6xb4xd2").unwrap();
    let b = e.parse_action(&s, "d6xf4xd2").unwrap();
    assert_ne!(a, b);
    let mut left = s.clone();
    e.apply(&mut left, &a).unwrap();
    assert_eq!(owner_at(&e, &left, "c5"), None);
    assert_eq!(owner_at(&e, &left, "c3"), None);
    assert_eq!(owner_at(&e, &left, "e5"), Some(0));
    assert_eq!(owner_at(&e, &left, "d2"), Some(1));
}

#[test]
fn draughts_capture_is_compulsory_and_a_jump_goes_on() {
    let e = engine("english_draughts", &[]);
    // Black c3 may jump d4, and then f6; the step c3-b4 is not legal.
    let s = fen(&e, "8/8/8/8/3m4/2M5/8/8 black");
    assert_eq!(texts(&e, &s), ["c3xe5"]);
    let s = fen(&e, "8/8/5m2/8/3m4/2M5/8/8 black");
    assert_eq!(texts(&e, &s), ["c3xe5xg7"]);
    let err = e
        .apply(&mut s.clone(), &e.parse_action(&s, "c3-b4").unwrap())
        .unwrap_err();
    assert!(err.to_string().contains("illegal"), "{err}");
    // Half a sequence is not a move.
    assert!(e
        .apply(&mut s.clone(), &e.parse_action(&s, "c3xe5").unwrap())
        .is_err());
}

#[test]
fn draughts_crowning_ends_the_move_and_kings_jump_back() {
    let e = engine("english_draughts", &[]);
    // Black's man on b6 jumps c7 and is crowned on d8; as a king it
    // could jump e7 next, but crowning ends the move.
    let mut s = fen(&e, "8/2m1m3/1M6/8/8/8/8/8 black");
    assert_eq!(texts(&e, &s), ["b6xd8"]);
    play(&e, &mut s, &["b6xd8"]);
    assert_eq!(kind_at(&e, &s, "d8").as_deref(), Some("king"));
    assert_eq!(owner_at(&e, &s, "e7"), Some(1));
    assert_eq!(s.to_move, 1);
    // A king jumps backwards too, and its sequence may end where it
    // started: around the four men, both ways.
    let s = fen(&e, "8/2m1m3/8/2m1m3/3K4/8/8/8 black");
    assert_eq!(texts(&e, &s), ["d4xb6xd8xf6xd4", "d4xf6xd8xb6xd4"]);
    let mut s2 = s.clone();
    play(&e, &mut s2, &["d4xb6xd8xf6xd4"]);
    assert_eq!(kind_at(&e, &s2, "d4").as_deref(), Some("king"));
    for c in ["c5", "c7", "e7", "e5"] {
        assert_eq!(owner_at(&e, &s2, c), None, "{c} captured");
    }
}

#[test]
fn draughts_a_player_who_cannot_move_loses() {
    let e = engine("english_draughts", &[]);
    // Black takes white's last man.
    let mut s = fen(&e, "8/8/8/8/8/8/1m6/M7 black");
    play(&e, &mut s, &["a1xc3"]);
    let o = s.outcome.clone().expect("white has no piece");
    assert_eq!(o.winners, vec![0]);
}

#[test]
fn go_captures_groups_refuses_suicide_and_ko() {
    let e = engine("go", &[]);
    let mut s = e.new_game(1, &[]);
    // A corner capture: white a1, taken by black b1 and a2.
    play(&e, &mut s, &["b1", "a1", "a2"]);
    assert_eq!(owner_at(&e, &s, "a1"), None, "a1 captured");
    // White may not play a1 now (suicide: no liberty, captures nothing).
    let err = e
        .apply(&mut s.clone(), &e.parse_action(&s, "a1").unwrap())
        .unwrap_err();
    assert!(err.to_string().contains("liberties"), "{err}");
    // A ko: white b2 takes black c2, and black may not take back at
    // once (the board would repeat).
    let mut s = e.new_game(1, &[]);
    play(
        &e,
        &mut s,
        &["b1", "c1", "a2", "d2", "b3", "c3", "c2", "b2"],
    );
    assert_eq!(owner_at(&e, &s, "c2"), None);
    assert!(!texts(&e, &s).contains(&"c2".to_string()));
    assert!(e
        .explain_illegal(&s, &e.parse_action(&s, "c2").unwrap())
        .contains("repeat"));
}

#[test]
fn go_two_passes_end_by_area_with_komi() {
    let e = engine("go", &[]);
    let mut s = e.new_game(1, &[]);
    play(&e, &mut s, &["e5", "pass"]);
    assert!(s.outcome.is_none());
    play(&e, &mut s, &["pass"]);
    // Black's one stone owns the board: 81 to 0 + 7.5.
    let o = s.outcome.clone().expect("two passes");
    assert_eq!(o.winners, vec![0]);
    assert!(o.reason.contains("81 to 7.5"), "{}", o.reason);
    // With komi 81 + 1, white wins the empty board.
    let e = engine("go", &[("komi", "81.5")]);
    let mut s = e.new_game(1, &[]);
    play(&e, &mut s, &["e5", "pass", "pass"]);
    assert_eq!(s.outcome.clone().unwrap().winners, vec![1]);
    let bad = Engine::load("go", &[("komi".into(), "lots".into())]);
    assert!(bad.is_err());
}

/// Loads a bundled variant with one text replaced, from a temporary
/// folder, and returns the load error's text.
#[test]
fn a_malformed_declaration_of_each_part_is_refused_at_its_line_and_column() {
    let cases: &[(&str, &str, &str, &str)] = &[
        // (variant, text, replaced by, expected at line:col with words)
        ("connect_four", "place: supply", "place: pocket", "expected `supply`"),
        ("connect_four", "place: supply", "place: hand", "declares no `hands:`"),
        ("connect_four", "falls: down", "falls: sideways", "unknown direction set"),
        ("connect_four", "falls: down", "falls: forward", "same for every player"),
        ("connect_four", "falls: down }", "falls: down, steps: 2 }", "`steps` is not a key of a `place` move"),
        ("connect_four", "falls: down }", "falls: down, supply: 0 }", "`supply: 0` places nothing"),
        ("english_draughts", "{ step: diagonal, onto: empty }", "{ step: diagonal, onto: empty, when: { placed_all: man } }", "`man` has no placement with a `supply`"),
        ("english_draughts", "{ step: diagonal, onto: empty }", "{ step: diagonal, onto: empty, when: { placed_all: queen } }", "`when.placed_all: queen` names no piece kind"),
        ("english_draughts", "{ step: diagonal, onto: empty }", "{ step: diagonal, onto: empty, when: { moved: true } }", "unknown field `moved`"),
        ("connect_four", "{ place: supply", "{ step: all, place: supply", "exactly one of"),
        ("connect_four", "in_a_row: 4", "in_a_row: 1", "expected 2 to 32"),
        ("connect_four", "in_a_row: 4,", "in_a_row: 4, passes: 2,", "exactly one of"),
        ("connect_four", "winner: mover", "winner: red", "expected mover, most_pieces, area, draw, tally or holder"),
        ("othello", "lines: all, needed", "lines: sideways, needed", "unknown direction set"),
        ("othello", "needed: true", "needed: maybe", "expected true or false"),
        ("othello", "pass: stuck", "pass: sometimes", "expected `stuck`"),
        ("othello", "nobody_moves: true", "nobody_moves: false", "must be `true`"),
        ("go", "ko: superko", "ko: sometimes", "expected none, simple or superko"),
        ("go", "suicide: $suicide", "suicide: $nothing", "unknown option `nothing`"),
        ("go", "bonus: $komi", "bonus: $suicide", "option `suicide` is a boolean, expected a number"),
        ("go", "default: 7.5", "default: .inf", "finite"),
        ("english_draughts", "over: enemy, onto: empty, capture: jumped, repeat: true, compulsory: true }\n    promote", "over: friends, onto: empty, capture: jumped, repeat: true, compulsory: true }\n    promote", "`over: friends`"),
        ("english_draughts", "capture: jumped, repeat: true, compulsory: true }\n    promote", "capture: all, repeat: true, compulsory: true }\n    promote", "`capture: all`"),
        ("english_draughts", "repeat: true, compulsory: true }\n    promote", "repeat: true, compulsory: true, max: 3 }\n    promote", "`max` is not a key of a `jump` move"),
        ("english_draughts", "jump: forward_diagonal", "jump: backwardish", "unknown direction set"),
        ("english_draughts", "repeat: true, compulsory: true }\n    promote", "repeat: true, longest: true }\n    promote", "`longest: true` goes with `compulsory: true`"),
        ("tests/variants/xiangqi", "{ step: knight, lame: true }", "{ slide: knight, lame: true }", "`lame` is not a key of a `slide` move"),
        ("tests/variants/xiangqi", "lame: true }", "lame: maybe }", "expected true or false"),
        ("tests/variants/xiangqi", "to_zone: palace", "to_zone: courtyard", "`to_zone: courtyard` names no zone"),
        ("tests/variants/xiangqi", "screens: 1,", "screens: 0,", "`screens` is at least 1"),
        ("tests/variants/xiangqi", "screens: 1,", "screens: 1, over: enemy,", "not with `over`"),
        ("tests/variants/xiangqi", "{ step: forward }", "{ step: forward, screens: 1 }", "`screens` is not a key of a `step` move"),
        ("tests/variants/mixed", "onto: empty, over: enemy }", "onto: empty, jump: enemy }", "a slide's `jump` is `over: enemy` now"),
        ("tests/variants/mixed", "onto: empty, over: enemy }", "onto: empty, over: enemy, jump_kinds: [leaper] }", "a slide's `jump_kinds` is `over_kinds` now"),
        ("tests/variants/mixed", "onto: empty, over: enemy }", "onto: empty, over: own }", "a slide's `over: own`: expected `enemy`"),
        ("tests/variants/mixed", "onto: empty, over: enemy }", "onto: empty, over: enemy, max_over: many }", "an integer"),
        ("tests/variants/mixed", "onto: empty, over: enemy }", "onto: empty, over: enemy, no_mate: true }", "`no_mate` is not a key of a `slide` move"),
        ("tests/variants/xiangqi", "not_facing: orthogonal", "not_facing: file", "unknown direction set"),
        ("tests/variants/xiangqi", "not_facing: orthogonal", "not_facing: forward", "not relative"),
        ("tests/variants/xiangqi", "royal: true", "royal: captured", "`not_facing` is for a checked royal kind"),
        ("tests/variants/xiangqi", "royal: true", "royal: sometimes", "expected true, false, checked or captured"),
    ];
    common::refused_at_their_place(cases);
}

/// The same variant with a blocking terrain that lies on no cell: nothing
/// changes in the game, but the listing cannot take its mask shortcuts
/// (placements, and the pieces that can start a jump), which need a board
/// without blocking terrain.
fn without_masks(variant: &str, dir: &std::path::Path) -> Engine {
    let base =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("variants/{variant}.yaml"));
    let path = dir.join(format!("{variant}_scanned.yaml"));
    std::fs::write(
        &path,
        format!(
            "extends: {}\nname: scanned\nboard:\n  terrain: {{ pit: [] }}\n  blocking: [pit]\n",
            base.display()
        ),
    )
    .unwrap();
    Engine::load(path.to_str().unwrap(), &[]).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn placements_and_jumps_as_masks_agree_with_the_cell_by_cell_listing() {
    use rand::{Rng, SeedableRng};
    let dir = tempfile::tempdir().unwrap();
    for variant in ["othello", "connect_four", "english_draughts"] {
        let fast = engine(variant, &[]);
        let slow = without_masks(variant, dir.path());
        let mut compared = 0;
        for seed in 0..60 {
            let mut s = fast.new_game(seed, &[]);
            let mut t = slow.new_game(seed, &[]);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            while s.outcome.is_none() {
                let a = fast.legal_actions(&s);
                assert_eq!(
                    a,
                    slow.legal_actions(&t),
                    "{variant} seed {seed} ply {}",
                    s.ply
                );
                compared += 1;
                let pick = a[rng.random_range(0..a.len())];
                fast.apply(&mut s, &pick).unwrap();
                slow.apply(&mut t, &pick).unwrap();
                assert_eq!(s.board(), t.board());
            }
            assert_eq!(s.outcome, t.outcome);
        }
        assert!(compared > 1000, "{variant}: {compared}");
    }
}

#[test]
fn a_new_game_from_the_start_read_once_equals_one_read_anew() {
    // Scripted ones too: `rules.position_fields` reads the FEN's fields.
    let variants = ["othello", "connect_four", "english_draughts", "go"];
    for variant in variants.into_iter().chain(["chess", "crazyhouse", "shogi"]) {
        let e = engine(variant, &[]);
        for seed in [0, 7, 99] {
            let fresh = e
                .parse_fen(e.variant.start.as_deref().unwrap(), seed)
                .unwrap();
            assert_eq!(e.new_game(seed, &[]), fresh, "{variant} seed {seed}");
        }
    }
}

#[test]
fn jump_sequences_that_branch_past_the_bound_are_refused_not_listed_without_end() {
    // A frog in the middle of a 25x25 lattice of posts, jumping any post
    // diagonally, again and again: hundreds of thousands of sequences.
    let dir = tempfile::tempdir().unwrap();
    let odd = format!("{}1", "1P".repeat(12));
    let mut ranks = Vec::new();
    for r in (0..25).rev() {
        ranks.push(match r {
            12 => "12F12".to_string(),
            r if r % 2 == 1 => odd.clone(),
            _ => "25".to_string(),
        });
    }
    let yaml = format!(
        "name: Lattice\nplayers: [a, b]\nboard: {{ files: 25, ranks: 25 }}\nstart: \"{} a\"\npieces:\n  post: {{ symbol: P, code: P }}\n  frog:\n    symbol: F\n    code: F\n    moves:\n      - {{ jump: all, over: piece, onto: empty, repeat: true }}\n",
        ranks.join("/")
    );
    let path = dir.path().join("lattice.yaml");
    std::fs::write(&path, yaml).unwrap();
    let e = Engine::load(path.to_str().unwrap(), &[]).unwrap_or_else(|e| panic!("{e}"));
    let s = e.new_game(1, &[]);
    let err = e.try_legal_actions(&s).unwrap_err().to_string();
    assert!(err.contains("more than 65536 jump sequences"), "{err}");
}

#[test]
fn a_piece_that_reaches_its_zone_wins_and_a_zone_that_is_not_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let yaml = |zone: &str| {
        format!(
            "name: Race\nplayers: [white, black]\nboard: {{ files: 3, ranks: 3, zones: {{ white_goal: [a3:c3], black_goal: [a1:c1] }} }}\nstart: \"2r/3/R2 white\"\npieces:\n  runner: {{ symbol: R, code: R, moves: [ {{ step: forward, onto: empty }} ] }}\nends:\n  - {{ reaches: {zone}, kinds: [runner], winner: mover }}\n"
        )
    };
    let path = dir.path().join("race.yaml");
    std::fs::write(&path, yaml("goal")).unwrap();
    let e = Engine::load(path.to_str().unwrap(), &[]).unwrap_or_else(|e| panic!("{e}"));
    let mut s = e.new_game(1, &[]);
    play(&e, &mut s, &["a1-a2", "c3-c2"]);
    assert!(s.outcome.is_none());
    play(&e, &mut s, &["a2-a3"]);
    let o = s.outcome.clone().expect("white's runner reached its goal");
    assert_eq!(o.winners, vec![0]);
    assert!(o.reason.contains("reach goal"), "{}", o.reason);
    std::fs::write(&path, yaml("nowhere")).unwrap();
    let err = Engine::load(path.to_str().unwrap(), &[])
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("race.yaml:8:") && err.contains("`reaches: nowhere` names no zone"),
        "{err}"
    );
}

#[test]
fn with_longest_only_the_captures_of_the_most_pieces_are_legal() {
    // Black may take one piece from a3 or c3, or two from c3.
    let position = "8/8/5m2/8/1m1m4/M1M5/8/8 black";
    let e = engine("english_draughts", &[]);
    let s = fen(&e, position);
    assert_eq!(texts(&e, &s), ["a3xc5", "c3xa5", "c3xe5xg7"]);
    let e = engine("tests/variants/longest_capture.yaml", &[]);
    let s = fen(&e, position);
    assert_eq!(texts(&e, &s), ["c3xe5xg7"]);
    let err = e
        .apply(&mut s.clone(), &e.parse_action(&s, "a3xc5").unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("the capture of the most pieces is compulsory: c3xe5xg7"),
        "{err}"
    );
}

#[test]
fn a_finite_supply_runs_out_and_then_the_moves_that_wait_for_it_begin() {
    let e = engine("tests/variants/three_in_a_row.yaml", &[]);
    let mut s = e.new_game(1, &[]);
    play(&e, &mut s, &["a1", "b2"]);
    // Black has placed one: it may not move yet.
    let t = texts(&e, &s);
    assert!(!t.iter().any(|m| m.contains('-')), "{t:?}");
    let err = e
        .apply(&mut s.clone(), &e.parse_action(&s, "a1-a2").unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("a Man moves only once black has placed all 3 (1 placed so far)"),
        "{err}"
    );
    play(&e, &mut s, &["c1", "a3", "b3", "c3"]);
    assert_eq!(s.counter("man_placed", Some(0)), 3);
    assert_eq!(s.counter("man_placed", Some(1)), 3);
    // Every piece is placed: black may only step.
    let t = texts(&e, &s);
    assert!(t.iter().all(|m| m.contains('-')), "{t:?}");
    assert!(t.contains(&"c1-b1".to_string()), "{t:?}");
    let err = e
        .apply(&mut s.clone(), &e.parse_action(&s, "b1").unwrap())
        .unwrap_err()
        .to_string();
    assert!(err.contains("black has placed all 3 of theirs"), "{err}");
    // Steps, and a step that makes three in a row (a3, b2, c1) wins.
    play(&e, &mut s, &["c1-b1", "c3-c2", "b3-c3"]);
    assert!(s.outcome.is_none());
    play(&e, &mut s, &["c2-c1"]);
    let o = s.outcome.clone().expect("three in a row");
    assert_eq!(o.winners, vec![1]);
}

#[test]
fn a_royal_kind_that_is_captured_knows_no_check_and_its_capture_wins() {
    let e = common::engine("tests/variants/captured_king.yaml", &[]);
    assert!(!e.variant.kinds.iter().any(|k| k.royal));
    let mut s = e.new_game(1, &[]);
    // The fool's mate: in chess Qh4 ends the game; here White plays on,
    // even leaving the king attacked, and Black takes it.
    common::play(&e, &mut s, &["f2-f3", "e7-e5", "g2-g4", "d8-h4"]);
    assert!(s.outcome.is_none());
    common::play(&e, &mut s, &["a2-a3"]);
    assert!(s.outcome.is_none());
    common::play(&e, &mut s, &["h4-e1"]);
    let o = s.outcome.clone().expect("the king's capture ends the game");
    assert_eq!(o.winners, vec![1]);
    assert!(o.reason.contains("King"), "{}", o.reason);
    // The same moves in chess: Qh4 is mate.
    let chess = common::engine("chess", &[]);
    let mut s = chess.new_game(1, &[]);
    common::play(&chess, &mut s, &["f2-f3", "e7-e5", "g2-g4", "d8-h4"]);
    assert_eq!(s.outcome.expect("mate").winners, vec![1]);
}

#[test]
fn a_start_whose_reading_draws_chance_is_read_anew_for_every_seed() {
    // Chess whose script sets the move number by chance while it reads
    // the FEN's fields: a copy of one reading would repeat its number.
    let dir = tempfile::tempdir().unwrap();
    let root = env!("CARGO_MANIFEST_DIR");
    std::fs::create_dir_all(dir.path().join("variants")).unwrap();
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    let yaml = std::fs::read_to_string(format!("{root}/variants/chess.yaml")).unwrap();
    let yaml = yaml.replace(
        "# yaml-language-server: $schema=../schema/variant.schema.json\n",
        "",
    );
    std::fs::write(dir.path().join("variants/chess.yaml"), yaml).unwrap();
    let lua = std::fs::read_to_string(format!("{root}/scripts/chess.lua")).unwrap();
    let drawn = "g:set_counter(\"fullmove\", math.random(1, 1000000))\nend";
    let lua = lua.replacen(
        "g:set_counter(\"fullmove\", tonumber(fields[4] or \"1\") or 1)\nend",
        &format!("g:set_counter(\"fullmove\", tonumber(fields[4] or \"1\") or 1)\n  {drawn}"),
        1,
    );
    assert!(lua.contains("math.random"));
    std::fs::write(dir.path().join("scripts/chess.lua"), lua).unwrap();
    let path = dir.path().join("variants/chess.yaml");
    let e = Engine::load(path.to_str().unwrap(), &[]).unwrap_or_else(|err| panic!("{err}"));
    let start = e.variant.start.clone().unwrap();
    let games: Vec<GameState> = (1..4).map(|seed| e.new_game(seed, &[])).collect();
    for (seed, s) in (1..4).zip(&games) {
        assert_eq!(*s, e.parse_fen(&start, seed).unwrap(), "seed {seed}");
    }
    assert!(games[0].counters != games[1].counters || games[1].counters != games[2].counters);
}
