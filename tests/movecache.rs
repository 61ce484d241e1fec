//! The move cache (counts kept from ply to ply) agrees with the full legal
//! list at every ply: same number of moves, same k-th move, for every
//! variant whose moves it may count.

mod common;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sandtable::engine::{Action, Engine};
use sandtable::movecache::MoveCache;

/// Plays `games` random games, checking the cache against the list at
/// every ply (every k for the first plies, a sample later).
fn agrees(e: &Engine, games: u64, plies: u32) {
    assert!(e.counts_moves(), "{} should be countable", e.variant.name);
    for seed in 0..games {
        let mut s = e.new_game(seed, &[]);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut cache = MoveCache::new();
        for ply in 0..plies {
            if s.outcome.is_some() {
                break;
            }
            let list: Vec<Action> = e
                .legal_actions(&s)
                .into_iter()
                .filter(|a| !a.is_social())
                .collect();
            if s.pending.is_empty() {
                cache.sync(e, &mut s);
                assert_eq!(
                    cache.legal_count(e, &s),
                    list.len(),
                    "seed {seed} ply {ply}: move count"
                );
                let ks: Vec<usize> = if ply < 40 {
                    (0..list.len()).collect()
                } else {
                    (0..4)
                        .map(|_| rng.random_range(0..list.len().max(1)))
                        .collect()
                };
                for k in ks.into_iter().filter(|&k| k < list.len()) {
                    assert_eq!(
                        cache.nth(e, &s, k),
                        Some(list[k]),
                        "seed {seed} ply {ply}: move {k}"
                    );
                }
            }
            if list.is_empty() {
                break;
            }
            let a = list[rng.random_range(0..list.len())];
            e.apply(&mut s, &a).unwrap();
        }
    }
}

#[test]
fn cache_follows_every_declared_movement() {
    let e = common::engine("tests/variants/mixed.yaml", &[]);
    agrees(&e, 40, 400);
}

#[test]
fn cache_follows_classic_stratego() {
    let e = common::engine("classic_stratego", &[]);
    agrees(&e, 6, 1500);
    let e = common::engine("classic_stratego", &[("scout_move_and_strike", "true")]);
    agrees(&e, 3, 1500);
}

#[test]
fn variants_with_listing_hooks_do_not_use_the_cache() {
    for name in ["chess", "ultima", "lost_island"] {
        assert!(!common::engine(name, &[]).counts_moves(), "{name}");
    }
}

/// A playout through the cache is the playout through the list, ply for
/// ply, with the same generator.
#[test]
fn playout_through_the_cache_is_the_listed_playout() {
    let e = common::engine("tests/variants/mixed.yaml", &[]);
    for seed in 0..20 {
        let mut s = e.new_game(seed, &[]);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let n = e.random_playout(&mut s, &mut rng, u32::MAX).unwrap();
        let mut t = e.new_game(seed, &[]);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..n {
            let list: Vec<Action> = e
                .legal_actions(&t)
                .into_iter()
                .filter(|a| !a.is_social())
                .collect();
            let a = list[rng.random_range(0..list.len())];
            e.apply(&mut t, &a).unwrap();
        }
        assert_eq!(t, s, "seed {seed}");
    }
}
