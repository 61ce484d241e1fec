//! Library use from Rust: load a variant, play a seeded random game, and print
//! the board as each player sees it.
//!
//! `cargo run --release --example random_game -- classic_stratego 42`

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sandtable::engine::Engine;
use sandtable::record::view::Viewer;
use sandtable::record::view::Views;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let variant = args
        .get(1)
        .map(String::as_str)
        .unwrap_or("classic_stratego");
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(42);
    let engine = match Engine::load(variant, &[]) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let mut state = engine.new_game(seed, &[]);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    while state.outcome.is_none() && state.ply < 200 {
        let actions = engine.legal_actions(&state);
        let a = actions[rng.random_range(0..actions.len())];
        engine
            .apply(&mut state, &a)
            .expect("a legal action applies");
    }
    for p in 0..engine.variant.players.len() as u8 {
        println!(
            "{}",
            Views::new(&engine).render(&Views::new(&engine).view(&state, Viewer::Player(p)), None)
        );
    }
}
