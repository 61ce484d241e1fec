//! Agents and determinization: an agent's move depends only on its
//! player's view; samples agree with the view and cover every consistent
//! assignment; MCTS beats random.

mod common;

use sandtable::play::determinize::Determinizer;
use sandtable::record::view::Views;
use std::collections::{BTreeMap, BTreeSet};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sandtable::base::state::{GameState, KindId, Loc, PieceId, PlayerId};
use sandtable::engine::Engine;
use sandtable::play::agent::{agent_action, AgentSpec};
use sandtable::play::simulate::play_game;
use sandtable::record::view::Viewer;

fn load(path: &str) -> Engine {
    Engine::load(path, &[]).unwrap_or_else(|e| panic!("{e}"))
}

/// Plays `n` random actions from a seeded game.
fn random_game(engine: &Engine, seed: u64, n: u32) -> GameState {
    let mut s = engine.new_game(seed, &[]);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    engine.random_playout(&mut s, &mut rng, n).unwrap();
    s
}

/// The same game with the kinds of two pieces of `owner` swapped, chosen
/// so that `viewer` knows neither and both have the same `moved` flag: the
/// viewer cannot tell the two states apart.
fn swap_hidden(s: &GameState, owner: PlayerId, viewer: PlayerId) -> Option<GameState> {
    let ids: Vec<usize> = (0..s.pieces.len())
        .filter(|&i| s.pieces[i].owner == owner && !s.knows(viewer, i as PieceId))
        .collect();
    for &a in &ids {
        for &b in &ids {
            let (pa, pb) = (&s.pieces[a], &s.pieces[b]);
            if pa.kind != pb.kind && pa.moved == pb.moved {
                let mut t = s.clone();
                t.set_kind(a as u16, pb.kind);
                t.set_kind(b as u16, pa.kind);
                return Some(t);
            }
        }
    }
    None
}

#[test]
fn same_view_same_seed_same_move() {
    for variant in ["ultimate_lightning", "classic_stratego"] {
        let engine = load(variant);
        let mut checked = 0;
        for (seed, plies) in [(1, 0), (2, 11), (3, 30), (4, 51)] {
            let s = random_game(&engine, seed, plies);
            let Some(me) = engine.acting_player(&s) else {
                continue;
            };
            let other = 1 - me;
            let t = swap_hidden(&s, other, me).expect("hidden pieces to swap");
            assert_ne!(s, t);
            assert_eq!(
                Views::new(&engine).view(&s, Viewer::Player(me)),
                Views::new(&engine).view(&t, Viewer::Player(me))
            );
            // The chance generator is hidden too.
            let mut t = t;
            t.rng = ChaCha8Rng::seed_from_u64(999);
            for spec in ["random", "mcts:40"] {
                let spec = AgentSpec::parse(spec).unwrap();
                let a = agent_action(&engine, spec.build(77).as_mut(), &s);
                let b = agent_action(&engine, spec.build(77).as_mut(), &t);
                assert!(matches!(a, Ok(Some(_))));
                assert_eq!(a, b, "{variant} seed {seed}: {}", spec.text());
            }
            checked += 1;
        }
        assert!(checked >= 3);
    }
}

/// Kind counts per owner among all pieces.
fn census(s: &GameState) -> BTreeMap<(PlayerId, KindId), usize> {
    let mut m = BTreeMap::new();
    for p in &s.pieces {
        *m.entry((p.owner, p.kind)).or_insert(0) += 1;
    }
    m
}

#[test]
fn determinizations_agree_with_the_view() {
    for variant in ["classic_stratego", "ultimate_lightning"] {
        let engine = load(variant);
        for (seed, plies) in [(5, 0), (6, 40), (7, 120)] {
            let s = random_game(&engine, seed, plies);
            for me in 0..2 {
                let view = Views::new(&engine).view(&s, Viewer::Player(me));
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let obs = Determinizer::new(&engine).observe(&s, me);
                for _ in 0..50 {
                    let d = Determinizer::new(&engine).determinize(&obs, &mut rng);
                    assert_eq!(Views::new(&engine).view(&d, Viewer::Player(me)), view);
                    assert_eq!(census(&d), census(&s), "the armies are kept");
                    d.check_consistency().unwrap();
                    for (i, p) in d.pieces.iter().enumerate() {
                        let kind = &engine.variant.kinds[p.kind as usize];
                        if p.moved {
                            assert!(kind.is_mobile(), "moved piece {i} dealt a {}", kind.name);
                        }
                        if s.knows(me, i as PieceId) {
                            assert_eq!(p.kind, s.pieces[i].kind);
                        }
                    }
                }
            }
        }
    }
}

/// The kinds dealt to `ids`, as a string of symbols.
fn assignment(engine: &Engine, s: &GameState, ids: &[usize]) -> String {
    ids.iter()
        .map(|&i| {
            engine.variant.kinds[s.pieces[i].kind as usize]
                .symbol
                .clone()
        })
        .collect()
}

#[test]
fn every_consistent_assignment_appears_evenly() {
    let engine = load("tests/variants/hidden.yaml");
    let s = engine.new_game(3, &[]);
    let blue: Vec<usize> = (0..s.pieces.len())
        .filter(|&i| s.pieces[i].owner == 1)
        .collect();
    let obs = Determinizer::new(&engine).observe(&s, 0);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut seen = BTreeMap::new();
    for _ in 0..2400 {
        let d = Determinizer::new(&engine).determinize(&obs, &mut rng);
        *seen.entry(assignment(&engine, &d, &blue)).or_insert(0) += 1;
    }
    // King, Guard and two Walls on four squares: 4!/2! = 12 assignments.
    assert_eq!(seen.len(), 12, "{seen:?}");
    assert!(seen.values().all(|&n| (120..=280).contains(&n)), "{seen:?}");

    // After Blue moves a piece it cannot be a Wall: 2 * 3 = 6 assignments.
    let mut s = s;
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    engine.random_playout(&mut s, &mut rng, 2).unwrap();
    let moved: Vec<usize> = blue
        .iter()
        .copied()
        .filter(|&i| s.pieces[i].moved)
        .collect();
    assert_eq!(moved.len(), 1);
    assert!(matches!(s.pieces[moved[0]].loc, Loc::Cell(_)));
    let obs = Determinizer::new(&engine).observe(&s, 0);
    let mut seen = BTreeMap::new();
    for _ in 0..1200 {
        let d = Determinizer::new(&engine).determinize(&obs, &mut rng);
        assert_ne!(
            engine.variant.kinds[d.pieces[moved[0]].kind as usize].name,
            "wall"
        );
        *seen.entry(assignment(&engine, &d, &blue)).or_insert(0) += 1;
    }
    assert_eq!(seen.len(), 6, "{seen:?}");
    assert!(seen.values().all(|&n| (120..=280).contains(&n)), "{seen:?}");
}

#[test]
fn agents_are_deterministic_given_a_seed() {
    let engine = load("ultimate_lightning");
    let spec = AgentSpec::parse("mcts:30").unwrap();
    let a = play_game(&engine, &[spec.clone(), AgentSpec::Random], 5, 0);
    let b = play_game(&engine, &[spec, AgentSpec::Random], 5, 0);
    assert_eq!(a, b);
}

#[test]
fn agent_specs_parse() {
    for ok in ["random", "mcts", "mcts:200", "mcts:500ms"] {
        let spec = AgentSpec::parse(ok).unwrap();
        assert_eq!(AgentSpec::parse(&spec.text()), Ok(spec));
    }
    assert_eq!(AgentSpec::parse("mcts").unwrap().text(), "mcts:200");
    for bad in ["", "mcts:", "mcts:0", "mcts:x", "minimax", "random:3"] {
        assert!(AgentSpec::parse(bad).is_err(), "{bad}");
    }
}

/// MCTS at a small budget beats random in most games of each variant.
#[test]
fn mcts_beats_random() {
    for (variant, games, budget) in [
        ("tests/variants/reach.yaml", 10, "mcts:20"),
        ("examples/variants/mini_battle.yaml", 10, "mcts:60"),
        ("ultimate_lightning", 4, "mcts:60"),
        ("classic_stratego", 6, "mcts:100"),
    ] {
        let engine = load(variant);
        let spec = AgentSpec::parse(budget).unwrap();
        let mut wins = 0;
        let mut seen = BTreeSet::new();
        for i in 0..games {
            // MCTS plays each side in turn.
            let seat = (i % 2) as PlayerId;
            let mut seats = vec![AgentSpec::Random, AgentSpec::Random];
            seats[seat as usize] = spec.clone();
            let r = play_game(&engine, &seats, 11, i);
            seen.insert(r.ending.clone());
            if r.winners == vec![seat] {
                wins += 1;
            }
        }
        assert!(
            wins * 2 > games,
            "{variant}: {budget} won {wins} of {games} ({seen:?})"
        );
    }
}

#[test]
fn repl_bot_plays_for_the_side_to_act() {
    let mut s =
        sandtable::front::session::Session::new("examples/variants/mini_battle.yaml", &[], 3)
            .unwrap();
    let (out, _) = s.execute("bot mcts:10").unwrap();
    assert_eq!(s.history.len(), 1, "{out}");
    let (_, _) = s.execute("bot").unwrap();
    let (_, _) = s.execute("bot random").unwrap();
    assert_eq!(s.history.len(), 3);
    let err = s.execute("bot minimax").unwrap_err();
    assert!(err.contains("unknown agent"), "{err}");
    assert_eq!(s.history.len(), 3);
}

#[test]
fn network_host_plays_agent_seats() {
    let session =
        sandtable::front::session::Session::new("examples/variants/mini_battle.yaml", &[], 2)
            .unwrap();
    let agents = vec![
        Some(AgentSpec::parse("mcts:10").unwrap()),
        Some(AgentSpec::Random),
    ];
    let server =
        sandtable::front::net::Server::start_with_agents(session, "127.0.0.1:0", agents, None)
            .unwrap();
    // Both seats are the host's: the game is played to its end by itself
    // (on the agents' thread, off the game's lock).
    let t = std::time::Instant::now();
    while !server.is_over() {
        assert!(t.elapsed().as_secs() < 60, "the agents did not finish");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

#[test]
fn face_down_tiles_do_not_reach_an_agent() {
    // Lost Island: swapping two tokens of the face-down supply (items of
    // its bags, which nobody sees into) changes nothing an agent may use.
    let engine = Engine::load("lost_island", &[("players".into(), "3".into())])
        .unwrap_or_else(|e| panic!("{e}"));
    let mut checked = 0;
    for seed in 1..6 {
        let s = random_game(&engine, seed, 25);
        let Some(me) = engine.acting_player(&s) else {
            continue;
        };
        let hidden: Vec<(usize, usize, String)> = s
            .containers
            .iter()
            .enumerate()
            .flat_map(|(k, c)| {
                c.items
                    .iter()
                    .enumerate()
                    .filter(|(_, it)| it.known_by & (1 << me) == 0)
                    .map(move |(i, it)| (k, i, it.value.clone()))
            })
            .collect();
        let Some(((ka, ia, va), (kb, ib, vb))) = hidden.iter().find_map(|a| {
            hidden
                .iter()
                .find(|b| b.2 != a.2)
                .map(|b| (a.clone(), b.clone()))
        }) else {
            continue;
        };
        let mut t = s.clone();
        t.containers[ka].items[ia].value = vb;
        t.containers[kb].items[ib].value = va;
        assert_ne!(s, t);
        assert_eq!(
            Views::new(&engine).view(&s, Viewer::Player(me)),
            Views::new(&engine).view(&t, Viewer::Player(me))
        );
        let spec = AgentSpec::parse("mcts:30").unwrap();
        let a = agent_action(&engine, spec.build(5).as_mut(), &s);
        let b = agent_action(&engine, spec.build(5).as_mut(), &t);
        assert_eq!(a, b, "seed {seed}");
        checked += 1;
    }
    assert!(checked >= 2, "{checked}");
}

/// The variants a search may meet: every bundled one and the examples.
fn every_variant() -> Vec<String> {
    let mut out = Vec::new();
    for dir in ["variants", "examples/variants", "tests/variants"] {
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            if path.extension().is_some_and(|x| x == "yaml") {
                out.push(path.to_string_lossy().into_owned());
            }
        }
    }
    out.sort();
    out
}

/// MCTS lists its root's moves once where the engine says a player's
/// moves ignore the kinds dealt to hidden pieces: in every variant where
/// it says so, every deal of random positions gives the mover the same list.
#[test]
fn where_moves_ignore_hidden_kinds_every_deal_lists_the_same() {
    let mut held = Vec::new();
    for variant in every_variant() {
        let engine = load(&variant);
        if !engine.moves_ignore_hidden_kinds() {
            continue;
        }
        let mut compared = 0;
        for (seed, plies) in [(1, 0), (2, 30), (3, 90), (4, 200)] {
            let s = random_game(&engine, seed, plies);
            let Some(me) = engine.acting_player(&s) else {
                continue;
            };
            let det = Determinizer::new(&engine);
            let obs = det.observe(&s, me);
            if !obs.hides_only_others_kinds() || !obs.has_hidden() {
                continue;
            }
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let first = engine.legal_actions(&det.determinize(&obs, &mut rng));
            assert_eq!(
                first,
                engine.legal_actions(&s),
                "{variant}: the real game's list"
            );
            for _ in 0..40 {
                let d = det.determinize(&obs, &mut rng);
                assert_eq!(engine.legal_actions(&d), first, "{variant}, seed {seed}");
            }
            compared += 1;
        }
        if compared > 0 {
            held.push(variant);
        }
    }
    for v in [
        "variants/classic_stratego.yaml",
        "variants/ultimate_lightning.yaml",
    ] {
        assert!(
            held.iter().any(|h| h == v),
            "{v} was not compared: {held:?}"
        );
    }
}

/// What makes a player's moves depend on hidden kinds is seen: a royal
/// kind (the check test reads the enemies' kinds), a script's filter.
#[test]
fn moves_that_may_read_hidden_kinds_are_known() {
    assert!(load("ultimate_lightning").moves_ignore_hidden_kinds());
    assert!(!load("chess").moves_ignore_hidden_kinds());
    let chasing = Engine::load(
        "ultimate_lightning",
        &[("chasing_rule".into(), "true".into())],
    );
    assert!(!chasing.unwrap().moves_ignore_hidden_kinds());
    // Scouts that strike only Spies: two deals can give different lists.
    let engine = load("tests/variants/spy_hunters.yaml");
    assert!(!engine.moves_ignore_hidden_kinds());
    let differ = (1..20).any(|seed| {
        let s = random_game(&engine, seed, 60);
        let Some(me) = engine.acting_player(&s) else {
            return false;
        };
        let det = Determinizer::new(&engine);
        let obs = det.observe(&s, me);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let first = engine.legal_actions(&det.determinize(&obs, &mut rng));
        (0..40).any(|_| engine.legal_actions(&det.determinize(&obs, &mut rng)) != first)
    });
    assert!(differ, "no two deals listed differently");
}
