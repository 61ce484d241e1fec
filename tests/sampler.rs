//! Random playouts that draw moves with the sampler (variants whose moves
//! are all declared) play legal games: replaying the actions they log
//! through `apply`, which checks each action and answers the turn rule at
//! once, gives the same state and outcome, including games that end
//! because a player cannot move (which the playout finds only when its
//! next draw comes up empty).

mod common;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sandtable::engine::Engine;

/// Plays `games` random playouts with a log and replays each; returns how
/// each ended.
fn replays(e: &Engine, games: u64) -> Vec<String> {
    assert!(e.counts_moves(), "{} should be sampled", e.variant.name);
    let mut endings = Vec::new();
    for seed in 0..games {
        let mut s = e.new_game(seed, &[]);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut log = Vec::new();
        let n = e
            .random_playout_logged(&mut s, &mut rng, u32::MAX, Some(&mut log))
            .unwrap();
        assert_eq!(n as usize, log.len());
        let mut t = e.new_game(seed, &[]);
        for (i, a) in log.iter().enumerate() {
            e.apply(&mut t, a)
                .unwrap_or_else(|err| panic!("seed {seed} ply {i}: {err}"));
        }
        assert_eq!(t, s, "seed {seed}");
        endings.push(s.outcome.expect("the game ends").reason);
    }
    endings
}

fn count(endings: &[String], what: &str) -> usize {
    endings.iter().filter(|r| r.contains(what)).count()
}

#[test]
fn stratego_playouts_replay_move_for_move() {
    let e = common::engine("classic_stratego", &[]);
    let endings = replays(&e, 24);
    assert!(count(&endings, "cannot move") > 0, "{endings:?}");
}

#[test]
fn every_declared_movement_replays() {
    let e = common::engine("tests/variants/mixed.yaml", &[]);
    let endings = replays(&e, 40);
    assert!(count(&endings, "cannot move") > 0, "{endings:?}");
    let e = common::engine("tests/variants/mixed_repetition.yaml", &[]);
    assert_eq!(e.variant.repetition_draw, Some(2));
    let endings = replays(&e, 40);
    assert!(count(&endings, "cannot move") > 0, "{endings:?}");
    assert!(count(&endings, "same position") > 0, "{endings:?}");
}

#[test]
fn variants_with_listing_hooks_list_their_moves() {
    for name in ["chess", "ultima", "lost_island"] {
        assert!(!common::engine(name, &[]).counts_moves(), "{name}");
    }
    assert!(!common::engine("ultimate_lightning", &[]).counts_moves());
}
