//! The listing of legal actions and the turn rule's "has a legal action"
//! are one path: they agree on every bundled and test variant, and a
//! frozen piece's extra move (a joint move) is neither listed nor accepted;
//! perft's counted last ply agrees with the listed one.

mod common;

use rand::{Rng, SeedableRng};
use sandtable::base::state::GameState;
use sandtable::engine::{Action, Engine, Exhaustive};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn frozen_joint() -> sandtable::engine::Engine {
    common::engine(&format!("{ROOT}/tests/variants/frozen_joint.yaml"), &[])
}

/// White's King on c1 is frozen by the black Freezer on b2; its joint move
/// with the Rook (c1-e1) is open.
const KING_FROZEN: &str = r#"
to_move: white
pieces:
  - { at: c1, owner: white, kind: king }
  - { at: f1, owner: white, kind: rook }
  - { at: a4, owner: white, kind: freezer }
  - { at: c4, owner: black, kind: king }
  - { at: f4, owner: black, kind: rook }
  - { at: b2, owner: black, kind: freezer }
counters:
  - { name: swap, value: 3 }
"#;

#[test]
fn a_frozen_pieces_joint_move_is_neither_listed_nor_accepted() {
    let e = frozen_joint();
    let s = common::position(&e, KING_FROZEN);
    let legal = common::legal(&e, &s);
    assert!(!legal.is_empty(), "the Rook and the Freezer can move");
    assert!(
        !legal.iter().any(|a| a.starts_with("c1")),
        "a frozen King moves: {legal:?}"
    );
    if let Ok(a) = e.parse_action(&s, "c1-e1") {
        assert!(
            e.apply(&mut s.clone(), &a).is_err(),
            "a frozen King's joint move is accepted"
        );
    }
    // Unfrozen (the Freezer gone), the same joint move is listed.
    let free = common::position(
        &e,
        &KING_FROZEN.replace("b2, owner: black", "a3, owner: black"),
    );
    assert!(
        common::legal(&e, &free).contains(&"c1-e1".to_string()),
        "{:?}",
        common::legal(&e, &free)
    );
}

#[test]
fn the_listing_and_the_turn_rule_agree_when_only_a_frozen_piece_has_an_extra_move() {
    let e = frozen_joint();
    // The Rook frozen too (a second Freezer on f2): White cannot move.
    let text = KING_FROZEN
        .replace("  - { at: a4, owner: white, kind: freezer }\n", "")
        .replace(
            "  - { at: b2, owner: black, kind: freezer }\n",
            "  - { at: d2, owner: black, kind: freezer }\n  - { at: f2, owner: black, kind: freezer }\n",
        );
    let mut s = common::position(&e, &text);
    // Loading judged it already; ask again with the game still open.
    s.outcome = None;
    let listed = e.try_legal_actions(&s).unwrap();
    assert_eq!(
        e.has_legal_action(&s).unwrap(),
        listed.iter().any(|a| !a.is_social()),
        "listed: {listed:?}"
    );
    assert!(listed.is_empty(), "{listed:?}");
}

/// Every YAML variant file under `dir`.
fn variants_in(dir: &str) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(format!("{ROOT}/{dir}"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .map(|p| p.to_str().unwrap().to_string())
        .collect();
    v.sort();
    v
}

/// Calls `each(variant, engine, state)` at every position of three random
/// games of up to `plies` plies of every bundled and test variant.
fn random_positions(plies: u32, mut each: impl FnMut(&str, &Engine, &GameState)) {
    let variants: Vec<String> = variants_in("variants")
        .into_iter()
        .chain(variants_in("tests/variants"))
        .collect();
    assert!(variants.len() >= 10, "{variants:?}");
    assert!(variants.iter().any(|v| v.ends_with("frozen_joint.yaml")));
    for v in &variants {
        let e = common::engine(v, &[]);
        for seed in 0..3u64 {
            let mut s = e.new_game(seed, &[]);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            for _ in 0..plies {
                if s.outcome.is_some() {
                    break;
                }
                each(v, &e, &s);
                let list: Vec<Action> = (e.try_legal_actions(&s).unwrap().into_iter())
                    .filter(|a| !a.is_social())
                    .collect();
                if list.is_empty() {
                    break;
                }
                let pick = list[rng.random_range(0..list.len())];
                e.apply_unchecked(&mut s, &pick)
                    .expect("a legal action applies");
            }
        }
    }
}

#[test]
fn has_legal_action_agrees_with_the_listing_on_every_variant() {
    let (mut compared, mut stuck) = (0, 0);
    random_positions(120, |v, e, s| {
        let list = e.try_legal_actions(s).unwrap();
        let any = list.iter().any(|a| !a.is_social());
        assert_eq!(
            e.has_legal_action(s).unwrap(),
            any,
            "{v}, ply {}: listed {list:?}",
            s.ply
        );
        compared += 1;
        stuck += usize::from(!any);
    });
    assert!(compared > 1000, "{compared} positions ({stuck} stuck)");
}

/// A small game with a declared action whose `legal` hook refuses with a
/// reason, and a `rules.filter` that vetoes one move with a reason and one
/// without.
const REFUSING_YAML: &str = r#"
name: Refusing
players: [white, black]
hidden_identities: false
script: refusing.lua
board: { files: 6, ranks: 6 }
pieces:
  good: { name: Good, symbol: G, code: G, count: 1, moves: [{ step: orthogonal }] }
  bad:  { name: Bad,  symbol: B, code: B, count: 1, moves: [{ step: orthogonal }] }
start: "5b/6/6/6/6/B4G w"
actions:
  exit:
    params:
      cell: { from: own_pieces }
    legal: may_exit
    perform: do_exit
rules:
  ends: { no_moves: lose }
"#;

const REFUSING_LUA: &str = r#"
function rules.may_exit(g, args)
  local p = g:piece_at(args.cell)
  if p.kind ~= "good" then return "only a Good piece may exit" end
  return true
end
function rules.do_exit(g, args)
  g:capture(g:piece_at(args.cell).id)
end
function rules.filter(g, moves)
  local out = {}
  for i, m in ipairs(moves) do
    if m.from == "f1" and m.to == "f2" then out[i] = "the wall above f1 holds" end
    if m.from == "a1" and m.to == "b1" then out[i] = true end
  end
  return out
end
"#;

fn refusing() -> (tempfile::TempDir, sandtable::engine::Engine) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("refusing.yaml"), REFUSING_YAML).unwrap();
    std::fs::write(dir.path().join("refusing.lua"), REFUSING_LUA).unwrap();
    let e = common::engine(dir.path().join("refusing.yaml").to_str().unwrap(), &[]);
    (dir, e)
}

#[test]
fn a_legal_hooks_reason_is_the_refusal_and_its_refused_cells_are_not_offered() {
    let (_dir, e) = refusing();
    let s = e.new_game(1, &[]);
    let legal = common::legal(&e, &s);
    assert!(legal.contains(&"exit f1".to_string()), "{legal:?}");
    assert!(!legal.contains(&"exit a1".to_string()), "{legal:?}");
    let why = e.explain_illegal(&s, &common::act(&e, &s, "exit a1"));
    assert!(why.contains("only a Good piece may exit"), "{why}");
    // A cell that is not the action's: the cells offered are those the
    // hook accepts.
    let why = e.explain_illegal(&s, &common::act(&e, &s, "exit c3"));
    assert!(why.contains("may be: f1)"), "{why}");
}

#[test]
fn a_filters_veto_names_the_filter_and_its_reason() {
    let (_dir, e) = refusing();
    let s = e.new_game(1, &[]);
    let legal = common::legal(&e, &s);
    assert!(legal.contains(&"f1-e1".to_string()), "{legal:?}");
    assert!(!legal.contains(&"f1-f2".to_string()), "{legal:?}");
    assert!(!legal.contains(&"a1-b1".to_string()), "{legal:?}");
    let why = e.explain_illegal(&s, &common::act(&e, &s, "f1-f2"));
    assert!(
        why.contains("rules.filter") && why.contains("the wall above f1 holds"),
        "{why}"
    );
    let why = e.explain_illegal(&s, &common::act(&e, &s, "a1-b1"));
    assert!(why.contains("rules.filter refuses it"), "{why}");
}

/// Kinds whose every move is a quiet step are listed from masks
/// (`engine::quiet`); the exhaustive listing walks their steps one by one.
/// Both list the same actions in the same order, in random games of a
/// game with royal pieces (the guard still judges each step), one with
/// compulsory jumps, and one whose quiet steppers freeze their neighbours.
#[test]
fn quiet_steps_from_masks_list_what_the_step_scan_lists() {
    for (variant, games, plies) in [
        ("english_draughts", 20, 200),
        ("tests/variants/frozen_joint.yaml", 10, 100),
        ("tests/variants/turn_seams.yaml", 5, 40),
        ("tests/variants/longest_capture.yaml", 10, 100),
    ] {
        let e = common::engine(variant, &[]);
        assert!(e.moves.quiet.is_some(), "{variant} has quiet steppers");
        let n = common::shortcuts_agree(variant, &[], games, plies);
        assert!(n > 20, "{variant}: only {n} positions compared");
    }
}

/// Plain steps and slides as masks (`crates/engine/src/slide_masks.rs`) list
/// what the cell-by-cell scan lists (the exhaustive test turns them off):
/// in 64-bit masks chess (pawns' double steps from a zone), crazyhouse
/// (drops beside them), marsh chess (kings and pawns as masks, the sliders
/// with their conditions by the scan) and the mixed test game (blocking
/// lakes, strikes at range, a kind whose step and slide overlap) and path
/// chess (paths turning through empty cells, around pits); in 128-bit
/// masks shogi (81 cells, relative directions), xiangqi (90: lame leaps
/// and screens left to the scan), classic Stratego (100, lakes) and
/// Ultimate Lightning (its captains' two-step paths).
#[test]
fn slides_from_masks_list_what_the_slide_scan_lists() {
    for (variant, bits, games, plies) in [
        ("chess", 64, 40, 200),
        ("crazyhouse", 64, 10, 150),
        ("tests/variants/marsh_chess.yaml", 64, 20, 150),
        ("tests/variants/mixed.yaml", 64, 10, 100),
        ("shogi", 128, 10, 150),
        ("tests/variants/xiangqi.yaml", 128, 10, 150),
        ("classic_stratego", 128, 10, 300),
        ("ultimate_lightning", 128, 10, 300),
        ("tests/variants/path_chess.yaml", 64, 20, 150),
    ] {
        let e = common::engine(variant, &[]);
        let masks = (e.moves.slides.is_some(), e.moves.wide.is_some());
        assert_eq!(masks, (bits == 64, bits == 128), "{variant}");
        let n = common::shortcuts_agree(variant, &[], games, plies);
        assert!(n > 200, "{variant}: only {n} positions compared");
    }
    // The mixed game with lakes that do not block: scouts that strike
    // only when adjacent, limited slides, a kind whose step and slide
    // overlap, and the leaper (leaping enemies) left to the scan.
    let dir = tempfile::tempdir().unwrap();
    let mixed = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/variants/mixed.yaml"
    ))
    .unwrap();
    assert!(mixed.contains("  blocking: [lake]\n"));
    let path = dir.path().join("dry_mixed.yaml");
    std::fs::write(&path, mixed.replace("  blocking: [lake]\n", "")).unwrap();
    let variant = path.to_str().unwrap();
    assert!(common::engine(variant, &[]).moves.slides.is_some());
    let n = common::shortcuts_agree(variant, &[], 20, 150);
    assert!(n > 1000, "dry mixed: only {n} positions compared");
}

/// Perft's last ply counted without a list (a piece's moves that need no
/// self-check test counted from their target mask, promotions one by one:
/// `crates/engine/src/leaves.rs`) gives what listing every level gives (under
/// `engine::Exhaustive`, whose perft lists and tests every move), at
/// random positions of every bundled and test variant.
#[test]
fn perfts_counted_last_ply_agrees_with_the_listed_one_on_every_variant() {
    let mut compared = 0;
    let mut references = std::collections::HashMap::new();
    random_positions(80, |v, e, s| {
        if s.ply % 8 == 0 {
            let counted = e.perft_levels(s, 2).unwrap();
            let full = references
                .entry(v.to_string())
                .or_insert_with(|| Exhaustive::new(e).unwrap());
            let listed = full.run(|e| e.perft_levels(s, 2)).unwrap();
            assert_eq!(counted, listed, "{v}, ply {}", s.ply);
            compared += 1;
        }
    });
    assert!(compared > 200, "{compared} positions compared");
    // Positions with promotions (by a free piece and by a pinned one),
    // castling and en passant, and every ply after them.
    let e = common::engine("chess", &[]);
    let full = Exhaustive::new(&e).unwrap();
    for fen in [
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "4k3/1P4P1/8/8/8/8/1p4p1/4K3 w - - 0 1",
    ] {
        for seed in 0..4 {
            let mut s = e.parse_fen(fen, seed).unwrap();
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            for _ in 0..12 {
                let counted = e.perft_levels(&s, 2).unwrap();
                let listed = full.run(|e| e.perft_levels(&s, 2)).unwrap();
                assert_eq!(counted, listed, "{}", e.to_fen(&s));
                let list = e.legal_actions(&s);
                if list.is_empty() || s.outcome.is_some() {
                    break;
                }
                let pick = list[rng.random_range(0..list.len())];
                e.apply_unchecked(&mut s, &pick).unwrap();
            }
        }
    }
}
