//! One random-simulation test for every variant in `variants/`: random games
//! with invariants checked at every step.

mod common;
use sandtable::record::game::Positions;
use sandtable::record::view::Views;
use std::collections::HashSet;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sandtable::base::state::{GameState, Loc};
use sandtable::engine::Engine;
use sandtable::record::view::Viewer;
use sandtable::record::{parse_yaml, to_yaml, Position};
use sandtable::rules::variant::bundled_variants;

const GAMES: u64 = 4;
const MAX_PLIES: u32 = 600;

fn check_invariants(e: &Engine, s: &GameState, initial_pieces: usize) {
    // Pieces accounted for: each is on exactly one cell or in one container
    // (a variant may add pieces during its setup, never remove any).
    assert!(s.pieces.len() >= initial_pieces);
    s.check_consistency().unwrap();
    // Nothing on a blocking cell (a lake).
    for (c, slot) in s.board().iter().enumerate() {
        if slot.is_some() {
            assert_eq!(
                s.terrain()[c] & e.variant.board.blocking,
                0,
                "a piece on blocking cell {c}"
            );
        }
    }
    // Legal actions unique and sorted; nothing legal for a player not acting.
    let acts = e.legal_actions(s);
    let set: HashSet<_> = acts.iter().collect();
    assert_eq!(set.len(), acts.len(), "duplicate legal actions");
    assert!(
        acts.windows(2).all(|w| w[0] < w[1]),
        "legal actions not sorted"
    );
    let texts: HashSet<String> = acts.iter().map(|a| e.action_text(s, a)).collect();
    assert_eq!(texts.len(), acts.len(), "two actions share a text");
    for a in &acts {
        assert_eq!(
            e.parse_action(s, &e.action_text(s, a)).unwrap(),
            *a,
            "text does not parse back"
        );
    }
    let acting = e.acting_player(s);
    for p in 0..s.players {
        if Some(p) != acting {
            assert!(
                e.legal_actions_for(s, p).is_empty(),
                "player {p} may act out of turn"
            );
        }
    }
    // A clone equals its original.
    assert_eq!(&s.clone(), s);
    // Views agree with knowledge.
    for p in 0..s.players {
        let v = Views::new(e).view(s, Viewer::Player(p));
        // Under fog a cell out of sight shows nothing, and others' pieces
        // carry no id to follow them by.
        let seen = Views::new(e).seen_cells(s, Viewer::Player(p));
        for (c, cell) in v.cells.iter().enumerate() {
            if seen.as_ref().is_some_and(|seen| !seen[c]) {
                assert!(cell.is_none(), "cell {c} is out of sight but shows a piece");
                continue;
            }
            match (cell, s.board()[c]) {
                (None, None) => {}
                (Some(vp), Some(id)) => {
                    if seen.is_none() || s.pieces[id as usize].owner == p {
                        assert_eq!(vp.id, id);
                    }
                    assert_eq!(vp.kind.is_some(), s.knows(p, id));
                    if s.pieces[id as usize].owner == p {
                        assert!(vp.kind.is_some(), "a player always knows their own pieces");
                    }
                }
                _ => panic!("view and board disagree at cell {c}"),
            }
        }
    }
    // Save → load round trip.
    let yaml = to_yaml(&Positions::new(e).to_position(s)).unwrap();
    let pos: Position = parse_yaml(&yaml, "<roundtrip>").unwrap();
    let back = Positions::new(e)
        .from_position(&pos)
        .unwrap_or_else(|err| panic!("{err}\n{yaml}"));
    assert_eq!(&back, s, "save/load changed the state:\n{yaml}");
}

#[test]
fn random_games_keep_every_invariant_in_every_variant() {
    let mut variants = bundled_variants();
    assert!(variants.contains(&"classic_stratego".to_string()));
    // The tutorial's teaching variant too.
    variants.push(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/examples/variants/mini_battle.yaml"
        )
        .to_string(),
    );
    // And the example of phases, containers and reaction windows.
    variants.push(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/variants/pond.yaml").to_string());
    // And sowing, whose state is all cell counters.
    variants.push(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/variants/kalah.yaml").to_string());
    for name in &variants {
        let e = common::engine(name, &[]);
        simulate(&e, name);
    }
}

/// Variants for a varying number of players, with each count they allow.
#[test]
fn random_games_with_two_three_and_four_players() {
    for n in ["2", "3", "4"] {
        for opts in [
            vec![("players", n)],
            vec![("players", n), ("choose_setup", "false")],
            vec![
                ("players", n),
                ("free_setup", "true"),
                ("shrink_storms", "true"),
                ("extra_loot", "true"),
                ("removed_face_down", "true"),
                ("secret_fights", "true"),
                ("storms_disappear", "true"),
                ("power_ups_any_time", "true"),
            ],
        ] {
            let e = common::engine("lost_island", &opts);
            assert_eq!(e.variant.players.len().to_string(), n);
            simulate(&e, &format!("lost_island/{n}"));
        }
    }
}

/// Random games from several seeds with invariants checked along the way,
/// and a replay of each from its action texts.
fn simulate(e: &Engine, name: &str) {
    {
        for g in 0..GAMES {
            let seed = 1000 + g;
            let mut s = e.new_game(seed, &[]);
            let start = s.clone();
            let n = s.pieces.len();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut texts = Vec::new();
            let mut ply = 0;
            while s.outcome.is_none() && ply < MAX_PLIES {
                if ply % 7 == 0 {
                    check_invariants(e, &s, n);
                }
                let acts = e.legal_actions(&s);
                assert!(!acts.is_empty(), "{name}: no legal action but no outcome");
                let a = acts[rng.random_range(0..acts.len())];
                texts.push(e.action_text(&s, &a));
                e.apply(&mut s, &a)
                    .unwrap_or_else(|err| panic!("{name} seed {seed}: {err}"));
                ply += 1;
            }
            check_invariants(e, &s, n);
            // The same seed and actions replay the same game, bit for bit.
            let mut again = e.new_game(seed, &[]);
            assert_eq!(again, start);
            for t in &texts {
                let a = e.parse_action(&again, t).unwrap();
                e.apply(&mut again, &a).unwrap();
            }
            assert_eq!(again, s, "{name} seed {seed}: replay differs");
        }
    }
}

#[test]
fn a_full_random_game_ends_with_an_outcome() {
    let e = common::engine("classic_stratego", &[]);
    let mut s = e.new_game(7, &[]);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    e.random_playout(&mut s, &mut rng, u32::MAX).unwrap();
    let o = s.outcome.expect("ends");
    assert!(
        o.reason.contains("flag") || o.reason.contains("cannot move") || o.reason.contains("limit")
    );
    // Removed pieces went to their owner's captured pile.
    let captured: usize = s.containers.iter().map(|c| c.pieces.len()).sum();
    let on_board = s
        .pieces
        .iter()
        .filter(|p| matches!(p.loc, Loc::Cell(_)))
        .count();
    assert_eq!(captured + on_board, 80);
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        /// From any seed: any prefix of a random game keeps the invariants,
        /// and undoing by replay from the start gives the same state.
        #[test]
        fn any_seed_any_prefix(seed in any::<u64>(), plies in 0u32..200) {
            let e = common::engine("classic_stratego", &[]);
            let mut s = e.new_game(seed, &[]);
            let n = s.pieces.len();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut log = Vec::new();
            let played = e.random_playout_logged(&mut s, &mut rng, plies, Some(&mut log)).unwrap();
            prop_assert!(played <= plies);
            check_invariants(&e, &s, n);
            // The checked, copy-on-apply path gives the same result.
            let mut t = e.new_game(seed, &[]);
            for a in &log {
                prop_assert!(e.legal_actions(&t).contains(a));
                e.apply(&mut t, a).unwrap();
            }
            prop_assert_eq!(t, s);
        }
    }
}
