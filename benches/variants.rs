//! `cargo bench`: for every bundled variant, perft at a fixed depth, one
//! random playout, loading the variant, and cloning a game state (its size
//! is printed once); and one `mcts:200` decision in Ultimate Lightning
//! (what `simulate --seats mcts:200,mcts:200` spends its time on); and a
//! player's view of a mid-game position (the cost of `sight:`).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sandtable::engine::Engine;
use sandtable::play::agent::{agent_action, AgentSpec};
use sandtable::record::view::{Viewer, Views};
use sandtable::rules::variant::bundled_variants;

fn main() {
    for v in bundled_variants() {
        let e = Engine::load(&v, &[]).unwrap();
        let s = e.new_game(1, &[]);
        println!("{v}: game state {} bytes (a clone)", s.clone_bytes());
    }
    divan::main();
}

fn variants() -> Vec<String> {
    bundled_variants()
}

/// Depth 3 for games with a start position, 2 for set-up games (their
/// branching is far larger).
#[divan::bench(args = variants(), sample_count = 5)]
fn perft(bencher: divan::Bencher, variant: &str) {
    let e = Engine::load(variant, &[]).unwrap();
    let mut s = e.new_game(1, &[]);
    // A setup made of choices (Lost Island) is one long turn that perft
    // counts whole: play it (seeded random answers) and count from the
    // first ordinary position.
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    while !s.pending.is_empty() && s.outcome.is_none() {
        let actions = e.legal_actions(&s);
        let a = actions[rand::Rng::random_range(&mut rng, 0..actions.len())];
        e.apply_unchecked(&mut s, &a).unwrap();
    }
    let depth = if e.variant.start.is_some() { 3 } else { 2 };
    bencher.bench_local(|| e.perft(&s, depth).unwrap());
}

#[divan::bench(args = variants(), sample_count = 20)]
fn random_playout(bencher: divan::Bencher, variant: &str) {
    let e = Engine::load(variant, &[]).unwrap();
    let mut seed = 0u64;
    bencher.bench_local(|| {
        seed += 1;
        let mut s = e.new_game(seed, &[]);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        e.random_playout(&mut s, &mut rng, u32::MAX).unwrap()
    });
}

#[divan::bench(args = variants(), sample_count = 20)]
fn load(variant: &str) -> Engine {
    Engine::load(variant, &[]).unwrap()
}

#[divan::bench(args = variants())]
fn clone_state(bencher: divan::Bencher, variant: &str) {
    let e = Engine::load(variant, &[]).unwrap();
    let s = e.new_game(1, &[]);
    bencher.bench_local(|| s.clone());
}

/// One `mcts:200` decision from a seeded start (a new seed, so a new
/// setup, each time).
#[divan::bench(args = ["ultimate_lightning"], sample_count = 10)]
fn mcts_decision(bencher: divan::Bencher, variant: &str) {
    let e = Engine::load(variant, &[]).unwrap();
    let spec = AgentSpec::parse("mcts:200").unwrap();
    let mut seed = 0u64;
    bencher.bench_local(|| {
        seed += 1;
        let s = e.new_game(seed, &[]);
        let mut agent = spec.build(seed);
        agent_action(&e, &mut *agent, &s).unwrap()
    });
}

/// The first player's view of a position 40 random plies into a game (what
/// every front end builds after each action; a variant with `sight:`
/// computes it per viewer, and dark chess's against chess's is the cost of
/// the fog).
#[divan::bench(args = variants(), sample_count = 20)]
fn view(bencher: divan::Bencher, variant: &str) {
    let e = Engine::load(variant, &[]).unwrap();
    let mut s = e.new_game(1, &[]);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..40 {
        let actions = e.legal_actions(&s);
        if actions.is_empty() || s.outcome.is_some() {
            break;
        }
        let a = actions[rand::Rng::random_range(&mut rng, 0..actions.len())];
        e.apply_unchecked(&mut s, &a).unwrap();
    }
    let views = Views::new(&e);
    bencher.bench_local(|| views.view(&s, Viewer::Player(0)));
}
