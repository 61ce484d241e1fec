//! Each variant's own language: standard algebraic notation for chess
//! (written and read back, `O-O`, `Nbd7`, `R1e2`, `exd5`, `e8=Q`, check and
//! mate marks), the seed's notation for Ultima, counters declared
//! `internal` kept out of every view, and the legend under a text board.

mod common;

use common::{engine, fen, play};
use proptest::prelude::*;
use sandtable::base::state::GameState;
use sandtable::engine::{Action, Engine};
use sandtable::record::view::Viewer;
use sandtable::record::view::Views;

fn chess() -> Engine {
    engine("chess", &[])
}

/// The move `from-to` as the variant writes it in `s`.
fn written(e: &Engine, s: &GameState, canonical: &str) -> String {
    let a = e.parse_action(s, canonical).unwrap();
    e.notation(s, &a)
}

/// The actions a SAN text reads as, canonically.
fn read(e: &Engine, s: &GameState, text: &str) -> Vec<String> {
    let acts = e
        .parse_turn(s, text)
        .unwrap_or_else(|err| panic!("{text}: {err}"));
    let mut s = s.clone();
    let mut out = Vec::new();
    for a in acts {
        out.push(e.action_text(&s, &a));
        e.apply(&mut s, &a).unwrap();
    }
    out
}

#[test]
fn san_writes_pieces_pawns_captures_and_marks() {
    let e = chess();
    let mut s = e.new_game(1, &[]);
    assert_eq!(written(&e, &s, "e2-e4"), "e4");
    assert_eq!(written(&e, &s, "g1-f3"), "Nf3");
    play(&e, &mut s, &["e4", "d5"]);
    assert_eq!(written(&e, &s, "e4-d5"), "exd5");
    play(&e, &mut s, &["exd5", "Qxd5", "Nc3"]);
    assert_eq!(written(&e, &s, "d5-e5"), "Qe5+");
    // Fool's mate.
    let mut s = e.new_game(1, &[]);
    play(&e, &mut s, &["f3", "e5", "g4"]);
    assert_eq!(written(&e, &s, "d8-h4"), "Qh4#");
}

#[test]
fn san_names_the_origin_only_when_needed() {
    let e = chess();
    // Knights on b1 and f3 may both go to d2.
    let s = fen(&e, "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    assert_eq!(written(&e, &s, "b1-d2"), "Nbd2");
    assert_eq!(written(&e, &s, "f3-d2"), "Nfd2");
    assert_eq!(written(&e, &s, "b1-c3"), "Nc3");
    assert_eq!(read(&e, &s, "Nbd2"), ["b1-d2"]);
    assert!(e.parse_turn(&s, "Nd2").is_err(), "ambiguous");
    // Rooks on one file: the rank tells them apart.
    let s = fen(&e, "3k4/8/8/8/8/4R3/8/4R2K w - - 0 1");
    assert_eq!(written(&e, &s, "e1-e2"), "R1e2");
    assert_eq!(written(&e, &s, "e3-e2"), "R3e2");
    assert_eq!(read(&e, &s, "R1e2"), ["e1-e2"]);
    // The whole origin is read too.
    assert_eq!(read(&e, &s, "Re1e2"), ["e1-e2"]);
}

#[test]
fn castling_is_written_by_its_declared_name() {
    let e = chess();
    let s = fen(&e, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(written(&e, &s, "e1-g1"), "O-O");
    assert_eq!(written(&e, &s, "e1-c1"), "O-O-O");
    assert_eq!(read(&e, &s, "O-O"), ["e1-g1"]);
    assert_eq!(read(&e, &s, "0-0-0"), ["e1-c1"]);
    // The coordinate form still reads.
    assert_eq!(read(&e, &s, "e1-g1"), ["e1-g1"]);
}

#[test]
fn promotion_is_the_move_and_the_choice() {
    let e = chess();
    let s = fen(&e, "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(read(&e, &s, "a8=Q"), ["a7-a8", "queen"]);
    assert_eq!(read(&e, &s, "axb8=N"), ["a7-b8", "knight"]);
    assert_eq!(read(&e, &s, "a8"), ["a7-a8"], "the choice is asked next");
    let a = e.parse_action(&s, "a7-b8").unwrap();
    let q = Action::Choose { index: 0 };
    assert_eq!(e.notation_turn(&s, &a, Some(&q)), "axb8=Q+");
    assert!(e.parse_turn(&s, "a8=K").is_err());
    assert!(e.parse_turn(&s, "Ka2=Q").is_err());
}

#[test]
fn en_passant_is_a_pawn_capture() {
    let e = chess();
    let mut s = e.new_game(1, &[]);
    play(&e, &mut s, &["e4", "a6", "e5", "d5"]);
    assert_eq!(written(&e, &s, "e5-d6"), "exd6");
    assert_eq!(read(&e, &s, "exd6"), ["e5-d6"]);
}

/// Random playouts of a variant, from a few seeds: every position passed.
fn positions(e: &Engine, games: u64, plies: usize, every: usize) -> Vec<GameState> {
    let mut out = Vec::new();
    for g in 0..games {
        let mut s = e.new_game(g, &[]);
        let mut x = g
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        for ply in 0..plies {
            let legal = e.legal_actions(&s);
            if legal.is_empty() || s.outcome.is_some() {
                break;
            }
            if ply % every == 0 {
                out.push(s.clone());
            }
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let a = legal[(x >> 33) as usize % legal.len()];
            e.apply(&mut s, &a).unwrap();
        }
    }
    out
}

#[test]
fn every_legal_chess_move_reads_back_from_its_san() {
    let e = chess();
    let mut checked = 0;
    for s in positions(&e, 12, 160, 3) {
        for a in e.legal_actions(&s) {
            if !matches!(a, Action::Move { .. }) {
                continue;
            }
            let text = e.notation(&s, &a);
            let got = e
                .parse_turn(&s, &text)
                .unwrap_or_else(|err| panic!("{text}: {err}\n{}", e.to_fen(&s)));
            assert_eq!(got, [a], "{text} in {}", e.to_fen(&s));
            // A promotion: each choice written with the move.
            let mut next = s.clone();
            e.apply(&mut next, &a).unwrap();
            if let Some(c) = next.pending.first() {
                for i in 0..c.options.len() {
                    let ch = Action::Choose { index: i as u16 };
                    let text = e.notation_turn(&s, &a, Some(&ch));
                    assert_eq!(e.parse_turn(&s, &text).unwrap(), [a, ch], "{text}");
                }
            }
            checked += 1;
        }
    }
    assert!(checked > 3000, "only {checked} moves checked");
}

#[test]
fn every_legal_ultima_move_reads_back_from_the_seeds_notation() {
    let e = engine("ultima", &[]);
    let mut checked = 0;
    for s in positions(&e, 6, 120, 10) {
        for a in e.legal_actions(&s) {
            let text = e.notation(&s, &a);
            let got = e
                .parse_turn(&s, &text)
                .unwrap_or_else(|err| panic!("{text}: {err}"));
            assert_eq!(got, [a], "{text}");
            checked += 1;
        }
    }
    assert!(checked > 1000, "only {checked} moves checked");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// No text makes reading a move panic, in chess or Ultima, at the start
    /// or with a promotion waiting.
    #[test]
    fn reading_any_text_never_panics(
        text in prop_oneof!["[a-hKQRBNOPWICLX0-9x=:+#!?. -]{0,12}", "\\PC{0,16}"],
    ) {
        let e = chess();
        for f in ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                  "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1"] {
            let s = fen(&e, f);
            let _ = e.parse_turn(&s, &text);
            let _ = e.parse_action(&s, &text);
        }
        let u = engine("ultima", &[]);
        let s = u.new_game(1, &[]);
        let _ = u.parse_turn(&s, &text);
    }
}

#[test]
fn internal_counters_are_in_the_state_but_in_no_view() {
    let e = chess();
    let s = e.new_game(1, &[]);
    let names: Vec<String> = s.counters.iter().map(|(n, _, _)| n.to_string()).collect();
    assert!(names.iter().any(|n| n == "castling"), "{names:?}");
    for v in [
        Viewer::Omniscient,
        Viewer::Public,
        Viewer::Player(0),
        Viewer::Player(1),
    ] {
        let view = Views::new(&e).view(&s, v);
        let shown: Vec<&str> = view.counters.iter().map(|c| c.0.as_str()).collect();
        assert!(
            !shown.contains(&"castling") && !shown.contains(&"ep"),
            "{shown:?}"
        );
        assert!(
            shown.contains(&"fullmove"),
            "public counters stay: {shown:?}"
        );
    }
    // Ultimate Lightning: the chasing rule's bookkeeping is hidden, the
    // rescues are not.
    let e = engine("ultimate_lightning", &[("chasing_rule", "true")]);
    let mut s = e.new_game(5, &[]);
    for _ in 0..20 {
        let a = e.legal_actions(&s)[0];
        e.apply(&mut s, &a).unwrap();
    }
    let kept =
        |a: &str| (0..s.pieces.len()).any(|id| s.attrs(id as u16).iter().any(|(k, _)| k == a));
    assert!(
        kept("moved_last") && kept("left_from"),
        "the pieces keep it"
    );
    for v in [Viewer::Omniscient, Viewer::Player(0), Viewer::Player(1)] {
        let view = Views::new(&e).view(&s, v);
        let shown = serde_json::to_string(&view).unwrap();
        for a in ["moved_last", "left_from", "chases", "chasing"] {
            assert!(!shown.contains(a), "{a} shown to {v:?}");
        }
    }
}

#[test]
fn the_board_has_a_legend_of_the_codes_it_shows() {
    let e = engine("ultima", &[]);
    let s = e.new_game(1, &[]);
    let text = Views::new(&e).render(&Views::new(&e).view(&s, Viewer::Omniscient), None);
    assert!(
        text.contains("  W white, B black; K King, W Withdrawer,"),
        "{text}"
    );
    // Only the kinds on the board.
    let c = chess();
    let s = fen(&c, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    let text = Views::new(&c).render(&Views::new(&c).view(&s, Viewer::Omniscient), None);
    assert!(
        text.contains("  W white, B black; K King, P Pawn\n"),
        "{text}"
    );
}

#[test]
fn a_named_move_of_no_kind_is_an_error_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for sub in ["variants", "scripts"] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
    }
    std::fs::copy(
        root.join("scripts/chess.lua"),
        dir.path().join("scripts/chess.lua"),
    )
    .unwrap();
    let text = std::fs::read_to_string(root.join("variants/chess.yaml"))
        .unwrap()
        .replace("O-O:   { kind: king,", "O-O:   { kind: kingg,")
        .replace("moves: [e1-c1, e8-c8]", "moves: [e1-c1, e8-z9]");
    let path = dir.path().join("variants/chess.yaml");
    std::fs::write(&path, &text).unwrap();
    let err = match Engine::load(path.to_str().unwrap(), &[]) {
        Ok(_) => panic!("loaded"),
        Err(e) => e.to_string(),
    };
    let line = text
        .lines()
        .position(|l| l.contains("kingg"))
        .map(|i| i + 1)
        .unwrap();
    assert!(
        err.contains(&format!("chess.yaml:{line}:"))
            && err.contains("`notation.named_moves.O-O.kind: kingg` names no piece kind"),
        "{err}"
    );
    assert!(err.contains("`e8-z9` is not a move `FROM-TO`"), "{err}");
}

#[test]
fn the_side_to_move_is_read_by_its_name_and_written_so_it_reads_back() {
    // Black moves first in Othello and Go: `b` is black, `w` is white,
    // and the written line names the side as it reads back.
    for variant in ["othello", "go", "english_draughts"] {
        let e = engine(variant, &[]);
        let start = e.new_game(1, &[]);
        let board = e.to_fen(&start);
        let board = board.split_whitespace().next().unwrap().to_string();
        for (side, player) in [("b", 0), ("w", 1), ("black", 0), ("White", 1)] {
            let s = fen(&e, &format!("{board} {side}"));
            assert_eq!(s.to_move, player, "{variant}: `{side}`");
            let again = fen(&e, &e.to_fen(&s));
            assert_eq!(again.to_move, player, "{variant}: {}", e.to_fen(&s));
        }
    }
    // Chess keeps `w` and `b`; players whose names start with neither
    // (red, yellow) keep them too, for the first and second player.
    let c = chess();
    let s = c.new_game(1, &[]);
    assert!(c.to_fen(&s).ends_with(" w"), "{}", c.to_fen(&s));
    let e = engine("connect_four", &[]);
    let s = e.new_game(1, &[]);
    assert!(e.to_fen(&s).ends_with(" w"), "{}", e.to_fen(&s));
    let board = e.to_fen(&s).split_whitespace().next().unwrap().to_string();
    assert_eq!(fen(&e, &format!("{board} b")).to_move, 1);
    assert_eq!(fen(&e, &format!("{board} y")).to_move, 1);
    assert_eq!(fen(&e, &format!("{board} r")).to_move, 0);
}

#[test]
fn a_position_with_a_piece_past_the_last_file_is_refused() {
    // Typed or loaded at run time, not only declared as `start:`: the man
    // on a ninth file used to vanish without a word.
    let e = engine("english_draughts", &[]);
    let err = e.parse_fen("M7m/8/8/8/8/8/8/8 black", 1).unwrap_err();
    assert!(
        err.contains("rank 8 (`M7m`) describes more than 8 cells; the board has 8 files"),
        "{err}"
    );
    // Eight cells is the rank's length, whatever else the position says.
    if let Err(err) = e.parse_fen("M6m/8/8/8/8/8/8/8 black", 1) {
        assert!(!err.contains("describes"), "{err}");
    }
}
