//! Legal by construction (`crates/engine/src/legal.rs`): the moves decided from
//! what the royal piece asks of a position (its checkers, the pinned
//! pieces and their lines, the cells that answer a single check) are the
//! moves the exhaustive self-check test lists, on random games of every
//! bundled and test variant with royal pieces (dark chess has none), from their start and from
//! positions rich in pins and checks.

mod common;

use rand::{Rng, SeedableRng};
use sandtable::engine::{Engine, Exhaustive};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Plays `games` random games of `plies` from `start` (the variant's own
/// start when `None`), listing each position with the fast path and the
/// exhaustive test; returns how many positions were compared and how many
/// of them were in check.
fn agree(e: &Engine, start: Option<&str>, games: u64, plies: u32) -> (usize, usize) {
    let full = Exhaustive::new(e).unwrap();
    let (mut compared, mut checks) = (0, 0);
    for seed in 0..games {
        let mut s = match start {
            Some(fen) => e.parse_fen(fen, seed).unwrap(),
            None => e.new_game(seed, &[]),
        };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..plies {
            let fast = e.legal_actions(&s);
            let slow = full.legal_actions(&s);
            assert_eq!(fast, slow, "seed {seed}, ply {}: {}", s.ply, e.to_fen(&s));
            compared += 1;
            checks += e.royal_attacked(&s, s.to_move) as usize;
            if fast.is_empty() || s.outcome.is_some() {
                break;
            }
            let pick = fast[rng.random_range(0..fast.len())];
            e.apply_unchecked(&mut s, &pick)
                .expect("a legal action applies");
        }
    }
    (compared, checks)
}

fn variant(name: &str) -> Engine {
    common::engine(name, &[])
}

fn test_variant(name: &str) -> Engine {
    common::engine(&format!("{ROOT}/tests/variants/{name}.yaml"), &[])
}

#[test]
fn chess_lists_what_the_exhaustive_test_lists() {
    let e = variant("chess");
    let (n, checks) = agree(&e, None, 150, 300);
    assert!(
        n > 15000 && checks > 800,
        "{n} positions, {checks} in check"
    );
    // Positions with pins, checks, promotions and en passant at once.
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ] {
        let (n, _) = agree(&e, Some(fen), 60, 120);
        assert!(n > 1000, "{fen}: {n} positions");
    }
}

#[test]
fn crazyhouse_lists_what_the_exhaustive_test_lists() {
    let (n, checks) = agree(&variant("crazyhouse"), None, 60, 250);
    assert!(n > 5000 && checks > 300, "{n} positions, {checks} in check");
}

#[test]
fn shogi_lists_what_the_exhaustive_test_lists() {
    let (n, checks) = agree(&variant("shogi"), None, 40, 300);
    assert!(n > 5000 && checks > 100, "{n} positions, {checks} in check");
}

/// Variants the fast path leaves to the full test (captures that blast,
/// lame leaps and slides over screens, generals that may not face each
/// other): their listing is unchanged too.
#[test]
fn blast_and_lame_leap_variants_list_what_the_exhaustive_test_lists() {
    for name in ["atomic", "xiangqi"] {
        let (n, _) = agree(&test_variant(name), None, 20, 200);
        assert!(n > 1000, "{name}: {n} positions");
    }
}
