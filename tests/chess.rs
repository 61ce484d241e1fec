//! Orthodox chess: the rules that perft does not show (game endings, the
//! promotion choice, castling through check), as positions and outcomes.

mod common;

use common::{engine, fen, play, texts};
use sandtable::engine::Engine;

fn chess() -> Engine {
    engine("chess", &[])
}

#[test]
fn fools_mate_ends_the_game() {
    let e = chess();
    let mut s = e.new_game(1, &[]);
    play(&e, &mut s, &["f2-f3", "e7-e5", "g2-g4", "d8-h4"]);
    let o = s.outcome.expect("mate");
    assert_eq!(o.winners, vec![1]);
    assert!(o.reason.contains("checkmated"), "{}", o.reason);
}

#[test]
fn stalemate_is_a_draw() {
    let e = chess();
    let mut s = fen(&e, "7k/8/6Q1/8/8/8/8/K7 w - - 0 1");
    play(&e, &mut s, &["g6-f7"]);
    let o = s.outcome.expect("stalemate");
    assert!(o.winners.is_empty());
    assert!(o.reason.contains("stalemated"), "{}", o.reason);
}

#[test]
fn promotion_is_a_choice_of_four() {
    let e = chess();
    let mut s = fen(&e, "7k/P7/8/8/8/8/8/K7 w - - 0 1");
    play(&e, &mut s, &["a7-a8"]);
    assert_eq!(texts(&e, &s), ["queen", "rook", "bishop", "knight"]);
    play(&e, &mut s, &["knight"]);
    let n = s
        .piece_at(e.variant.board.parse_cell("a8").unwrap())
        .unwrap();
    assert_eq!(
        e.variant.kinds[s.pieces[n as usize].kind as usize].name,
        "knight"
    );
    assert_eq!(s.to_move, 1);
}

#[test]
fn castling_not_through_check_and_the_rook_follows() {
    let e = chess();
    // The f1 square is attacked by the bishop on c4: no short castling.
    let s = fen(&e, "4k3/8/8/8/2b5/8/8/R3K2R w KQ - 0 1");
    let t = texts(&e, &s);
    assert!(!t.contains(&"e1-g1".to_string()), "{t:?}");
    assert!(t.contains(&"e1-c1".to_string()), "{t:?}");
    let mut s = fen(&e, "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    play(&e, &mut s, &["e1-g1"]);
    assert_eq!(e.to_fen(&s), "4k3/8/8/8/8/8/8/R4RK1 b");
    assert_eq!(s.counter("castling", None), 0);
}

#[test]
fn en_passant_right_after_the_two_step_only() {
    let e = chess();
    let mut s = fen(&e, "4k3/8/8/4P3/8/8/3p4/4K3 b - - 0 1");
    play(&e, &mut s, &["e8-d8"]);
    let mut s2 = fen(&e, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    play(&e, &mut s2, &["d7-d5"]);
    assert!(texts(&e, &s2).contains(&"e5-d6".to_string()));
    play(&e, &mut s2, &["e5-d6"]);
    assert_eq!(e.to_fen(&s2), "4k3/8/3P4/8/8/8/8/4K3 b");
    let _ = s;
}

#[test]
fn threefold_repetition_and_fifty_moves_draw() {
    let e = chess();
    let mut s = fen(&e, "4k3/8/8/8/8/8/8/4K2N w - - 0 1");
    let shuffle = ["h1-g3", "e8-d8", "g3-h1", "d8-e8"];
    play(&e, &mut s, &shuffle);
    play(&e, &mut s, &shuffle);
    let o = s.outcome.clone().expect("repetition");
    assert!(o.reason.contains("same position"), "{}", o.reason);
    let mut s = fen(&e, "4k3/8/8/8/8/8/8/4K2N w - - 99 80");
    play(&e, &mut s, &["h1-g3"]);
    let o = s.outcome.expect("fifty moves");
    assert_eq!(
        o.reason,
        "draw: 100 plies without a capture or a move of a Pawn"
    );
}

/// The draws by rule are options: FIDE's automatic fivefold repetition and
/// seventy-five-move rule, or no draw by repetition at all.
#[test]
fn the_draws_by_rule_are_options() {
    let shuffle = ["h1-g3", "e8-d8", "g3-h1", "d8-e8"];
    let start = "4k3/8/8/8/8/8/8/4K2N w - - 0 1";
    for (n, opts) in [(5, "5"), (0, "0")] {
        let e = engine(
            "chess",
            &[("repetitions", opts), ("no_progress_plies", "150")],
        );
        let mut s = fen(&e, start);
        for _ in 0..3 {
            play(&e, &mut s, &shuffle);
        }
        // The start position has occurred four times.
        assert!(s.outcome.is_none(), "{:?}", s.outcome);
        play(&e, &mut s, &shuffle);
        assert_eq!(s.outcome.is_some(), n == 5, "{:?}", s.outcome);
        let mut s = fen(&e, "4k3/8/8/8/8/8/8/4K2N w - - 99 80");
        play(&e, &mut s, &["h1-g3"]);
        assert!(s.outcome.is_none(), "{:?}", s.outcome);
        let mut s = fen(&e, "4k3/8/8/8/8/8/8/4K2N w - - 149 80");
        play(&e, &mut s, &["h1-g3"]);
        let o = s.outcome.expect("seventy-five moves");
        assert_eq!(
            o.reason,
            "draw: 150 plies without a capture or a move of a Pawn"
        );
    }
    let err = Engine::load("chess", &[("repetitions".into(), "three".into())])
        .err()
        .expect("a word is no count");
    assert!(err.to_string().contains("repetitions"), "{err}");
}

/// The native self-check shortcuts (a move of a piece off the king's lines
/// needs no test; one on them looks along its own lines) list exactly the
/// moves an exhaustive test lists, in random games.
#[test]
fn check_shortcuts_change_no_legal_move() {
    let n = common::shortcuts_agree("chess", &[], 20, 300);
    assert!(n > 2000, "only {n} positions compared");
}

/// `check` places each mistake in `rules.bookkeeping.joint_moves` and `rules.bookkeeping.passing`
/// at its entry's line and column.
#[test]
fn joint_and_passing_mistakes_are_placed_in_the_yaml() {
    let root = env!("CARGO_MANIFEST_DIR");
    let yaml = std::fs::read_to_string(format!("{root}/variants/chess.yaml")).unwrap();
    let broken = yaml
        .replace(
            "partner: rook, partner_from: h1",
            "partner: tower, partner_from: h1",
        )
        .replace("right: 8,", "right: 6,")
        .replace("to: c8, partner", "to: c9, partner")
        .replace("direction: forward }", "direction: forward_diagonal }");
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("variants")).unwrap();
    std::fs::create_dir(dir.path().join("scripts")).unwrap();
    std::fs::write(dir.path().join("variants/chess.yaml"), &broken).unwrap();
    std::fs::copy(
        format!("{root}/scripts/chess.lua"),
        dir.path().join("scripts/chess.lua"),
    )
    .unwrap();
    let path = dir.path().join("variants/chess.yaml");
    let err = Engine::load(path.to_str().unwrap(), &[])
        .err()
        .expect("the broken copy loads")
        .to_string();
    let line_of = |needle: &str| broken.lines().position(|l| l.contains(needle)).unwrap() + 1;
    for (needle, message) in [
        ("partner: tower", "names `tower`, which is no piece kind"),
        ("right: 6,", "`right: 6` is not a single bit"),
        (
            "passing:",
            "`rules.bookkeeping.passing.direction: forward_diagonal` names no direction of a single step",
        ),
    ] {
        let at = format!("chess.yaml:{}:", line_of(needle));
        assert!(
            err.lines().any(|l| l.contains(&at) && l.contains(message)),
            "{message} at {at}: {err}"
        );
    }
}
