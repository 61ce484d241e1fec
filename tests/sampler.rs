//! Random playouts that draw moves with the sampler play legal games:
//! replaying the actions they log through `apply`, which checks each action
//! and answers the turn rule by a search for one legal action, gives the
//! same state and outcome, including games that end because a player
//! cannot move (which the playout learns from a draw that finds no move).
//! And the draws are uniform over the legal moves.

mod common;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sandtable::base::state::GameState;
use sandtable::engine::sampler::Sampler;
use sandtable::engine::{Action, Engine, Exhaustive};

/// Plays `games` random playouts with a log and replays each; returns how
/// each ended.
fn replays(e: &Engine, games: u64) -> Vec<String> {
    assert!(e.samples_moves(), "{} should be sampled", e.variant.name);
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
fn chess_playouts_replay_move_for_move() {
    // Castling and en passant come from the script, promotions are
    // choices, a king is never left in check; games end by mate,
    // stalemate, fifty moves, repetition or material.
    let e = common::engine("chess", &[]);
    let endings = replays(&e, 16);
    assert!(count(&endings, "draw") > 0, "{endings:?}");
}

#[test]
fn path_moves_replay_move_for_move() {
    // Ultimate Lightning's Captains move by paths (two orthogonal steps,
    // turning); rescues are choices; bombs and scouts strike.
    let e = common::engine("ultimate_lightning", &[]);
    let endings = replays(&e, 24);
    assert!(count(&endings, "flag") > 0, "{endings:?}");
}

/// The sampler finds a drawn piece's targets with the masks of its plain
/// steps, slides and paths (`crates/engine/src/slide_masks.rs`); with the
/// shortcuts off it walks them cell by cell. Both list a piece's targets
/// in cell order, so the same seed draws the same moves, ply for ply: in
/// 64-bit masks chess (check), path chess (paths around pits) and the
/// mixed game (lakes, strikes at range), and a royal game whose captures
/// the attack masks alone cannot always confirm (each drawn move's
/// self-check test is made on the masks where they can tell,
/// `Engine::prepare_draws`); in 128-bit ones classic Stratego
/// and Ultimate Lightning (its captains' paths, rescues).
#[test]
fn masked_draws_are_the_scans_draws() {
    for (variant, games) in [
        ("chess", 6),
        ("tests/variants/path_chess.yaml", 10),
        ("tests/variants/mixed.yaml", 10),
        ("tests/variants/unplain_attacks.yaml", 10),
        ("classic_stratego", 6),
        ("ultimate_lightning", 10),
    ] {
        let e = common::engine(variant, &[]);
        assert!(
            e.moves.slides.is_some() || e.moves.wide.is_some(),
            "{variant}"
        );
        assert!(e.samples_moves(), "{variant}");
        let scan = Exhaustive::new(&e).unwrap();
        let mut plies = 0;
        for seed in 0..games {
            let play = |e: &Engine| {
                let mut s = e.new_game(seed, &[]);
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let mut log = Vec::new();
                e.random_playout_logged(&mut s, &mut rng, 2000, Some(&mut log))
                    .unwrap();
                (log, s)
            };
            let (fast, end) = play(&e);
            let (slow, slow_end) = scan.run(play);
            assert_eq!(fast, slow, "{variant} seed {seed}");
            assert_eq!(end, slow_end, "{variant} seed {seed}");
            plies += fast.len();
        }
        assert!(
            plies > 100 * games as usize,
            "{variant}: only {plies} plies"
        );
    }
}

#[test]
fn path_moves_are_drawn_uniformly() {
    let e = common::engine("ultimate_lightning", &[]);
    let captain = e.variant.kind_index("captain").unwrap() as u16;
    let mut tried = 0;
    for (seed, plies) in [(1, 40), (2, 80), (3, 120), (4, 60)] {
        let s = after(&e, seed, plies);
        if s.outcome.is_some() || !s.pending.is_empty() {
            continue;
        }
        // Only positions where a Captain of the player to move is free.
        let free = s.pieces.iter().any(|p| {
            p.kind == captain
                && p.owner == s.to_move
                && matches!(p.loc, sandtable::base::state::Loc::Cell(_))
        });
        if free {
            assert!(uniform_from(&e, &s) >= 4);
            tried += 1;
        }
    }
    assert!(tried >= 2, "only {tried} positions tried");
}

#[test]
fn variants_with_listing_hooks_list_their_moves() {
    for name in ["ultima", "lost_island"] {
        assert!(!common::engine(name, &[]).samples_moves(), "{name}");
    }
}

/// Draws from one position, counted per legal move, against the uniform
/// distribution (Pearson's chi-squared with a bound ten deviations above
/// its mean, p < 1e-9: a biased draw, such as picking a piece first, fails
/// by orders of magnitude; the fixed seed makes the test repeatable).
fn uniform_from(e: &Engine, s: &GameState) -> usize {
    let list: Vec<Action> = e
        .legal_actions(s)
        .into_iter()
        .filter(|a| !a.is_social())
        .collect();
    let k = list.len();
    let per = 300;
    let mut seen = vec![0u32; k];
    let mut sampler = Sampler::new();
    let mut t = s.clone();
    sampler.sync(e, &mut t);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..k * per {
        let a = sampler.sample(e, &t, &mut rng).expect("a move");
        let i = list
            .iter()
            .position(|b| *b == a)
            .unwrap_or_else(|| panic!("{a:?} is not legal"));
        seen[i] += 1;
    }
    let chi: f64 = seen
        .iter()
        .map(|&o| (o as f64 - per as f64).powi(2) / per as f64)
        .sum();
    let df = (k - 1) as f64;
    assert!(
        chi < df + 10.0 * (2.0 * df).sqrt(),
        "chi2 {chi:.1} for {k} moves: {seen:?}"
    );
    k
}

#[test]
fn chess_draws_are_uniform_with_castling_en_passant_and_check() {
    let e = common::engine("chess", &[]);
    // Both castlings and an en passant capture (extra moves), pinned and
    // free pieces.
    let s = e
        .parse_fen("r3k2r/pp3ppp/8/2bpP3/8/2N5/PP3PPP/R3K2R w KQkq d6 0 1", 1)
        .unwrap();
    let moves = e.legal_actions(&s);
    // e1-g1, e1-c1 and e5xd6 (cells counted from a1 = 0 along the ranks).
    for (from, to) in [(4, 6), (4, 2), (36, 43)] {
        assert!(moves.contains(&Action::Move { from, to }), "{moves:?}");
    }
    assert_eq!(uniform_from(&e, &s), 30);
    // In check: only the few moves that answer it.
    let s = e
        .parse_fen("4k3/8/8/8/1b6/8/8/R3K1NR w KQ - 0 1", 1)
        .unwrap();
    let n = uniform_from(&e, &s);
    assert_eq!(n, 4, "Kd1, Ke2, Kf1, Kf2");
}

/// The position after `plies` random moves (or the end of the game).
fn after(e: &Engine, seed: u64, plies: u32) -> GameState {
    let mut s = e.new_game(seed, &[]);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    e.random_playout(&mut s, &mut rng, plies).unwrap();
    s
}

#[test]
fn declared_moves_are_drawn_uniformly() {
    let e = common::engine("classic_stratego", &[]);
    // The start (few moves among many slots), and a game well under way.
    assert!(uniform_from(&e, &after(&e, 0, 0)) >= 4);
    assert!(uniform_from(&e, &after(&e, 0, 299)) >= 10);
    // Jumping slides, overlapping patterns, zone moves.
    let e = common::engine("tests/variants/mixed.yaml", &[]);
    assert!(uniform_from(&e, &after(&e, 0, 39)) >= 10);
    // Slides that stop in a marsh, knights that may not land in it.
    let e = common::engine("tests/variants/marsh_chess.yaml", &[]);
    assert!(uniform_from(&e, &after(&e, 0, 24)) >= 10);
}

#[test]
fn custody_and_terrain_a_kind_may_not_stop_on_replay_and_draw_uniformly() {
    let e = common::engine("brandubh", &[]);
    let endings = replays(&e, 40);
    assert!(count(&endings, "the king's capture") > 0, "{endings:?}");
    assert!(count(&endings, "the king's escape") > 0, "{endings:?}");
    assert!(uniform_from(&e, &after(&e, 0, 0)) >= 10);
    assert!(uniform_from(&e, &after(&e, 0, 30)) >= 10);
}

#[test]
fn placements_with_groups_replay_and_draw_uniformly() {
    // Go draws a point and judges it alone (the groups next to it): the
    // games replay, and from the start, mid-game and late positions (eyes,
    // captures, suicide and superko points refused) every legal move is
    // drawn, each as often.
    for suicide in ["false", "true"] {
        let e = common::engine("go", &[("suicide", suicide)]);
        let endings = replays(&e, 4);
        assert_eq!(count(&endings, "passes"), 4, "{endings:?}");
        assert_eq!(uniform_from(&e, &after(&e, 0, 0)), 82);
        let mut tried = 0;
        for (seed, plies) in [(1, 40), (2, 80), (3, 100), (4, 110), (5, 120)] {
            let s = after(&e, seed, plies);
            if s.outcome.is_none() {
                uniform_from(&e, &s);
                tried += 1;
            }
        }
        assert!(tried >= 3, "only {tried} positions tried");
    }
}

#[test]
fn small_boards_without_groups_list_their_placements() {
    // A few masks list them faster than cells are judged one by one.
    let e = common::engine("connect_four", &[]);
    assert!(!e.samples_moves());
}

#[test]
fn drops_replay_and_draw_uniformly() {
    // Drops are slots of their own (a kind in hand times a cell): the
    // games replay, and every legal action, drops blocking a check, drops
    // kept off a file or refused for mating included, is drawn as often.
    let e = common::engine("crazyhouse", &[]);
    let endings = replays(&e, 8);
    assert_eq!(endings.len(), 8);
    for (fen, n) in [
        ("r6k/8/8/8/8/8/8/K7[N] w - - 0 1", 8),
        (
            "2b1kbn1/1r5r/p3pq2/npp1Pppp/1P2QPPP/N1PP1BB1/P4P2/R2K3R[n] w - - 1 24",
            0,
        ),
        (
            "rnb4r/2p1Bpkp/pp3n1n/4p1P1/Q1PPp1PP/P1P2P2/4N3/R1B1KB1R[Qp] w - - 1 20",
            0,
        ),
    ] {
        let s = e.parse_fen(fen, 1).unwrap();
        let k = uniform_from(&e, &s);
        assert!(n == 0 || k == n, "{fen}: {k}");
    }
    let e = common::engine("shogi", &[]);
    let endings = replays(&e, 4);
    assert_eq!(endings.len(), 4);
    for (fen, n) in [
        (
            "l4ksnl/2gsg2b1/rp2p1pp1/2pp1p2p/p8/L2P1PP1P/1P1SP2PL/1+nGK3R1/1NG3SN1[ppb] b",
            83,
        ),
        ("kl7/1n7/G8/9/9/9/9/9/4K4[PG] w", 0),
    ] {
        let s = e.parse_fen(fen, 1).unwrap();
        let k = uniform_from(&e, &s);
        assert!(n == 0 || k == n, "{fen}: {k}");
    }
}

#[test]
fn lame_leaps_screens_zones_and_facing_generals_replay_and_draw_uniformly() {
    // Xiangqi has no rule that ends a long game: playouts are cut at 300
    // plies.
    let e = common::engine("tests/variants/xiangqi.yaml", &[]);
    assert!(common::replays_up_to(&e, 12, 300) > 1000);
    assert!(uniform_from(&e, &after(&e, 0, 0)) == 44);
    assert!(uniform_from(&e, &after(&e, 3, 40)) >= 10);
    // In check from e3's cannon over e6's horse: only the answers (the
    // general to f10, the advisor to e9 as a second screen).
    let s = e.parse_fen("3ak4/9/9/9/4N4/9/9/4C4/9/3K5 b", 1).unwrap();
    assert!(e.royal_attacked(&s, 1));
    assert_eq!(uniform_from(&e, &s), 2);
}
