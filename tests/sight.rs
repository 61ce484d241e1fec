//! Declared sight (`sight:`, fog of war) in its parts, on a small test
//! variant (`tests/variants/fog_scouts.yaml`): a radius, lines blocked by
//! pieces and blocking terrain, a kind that sees only its own square or not
//! even that, zones always seen, what `rules.sight` adds, a spectator's
//! share; and declarations the loader refuses.

mod common;

use common::play;
use sandtable::engine::Engine;
use sandtable::play::determinize::Determinizer;
use sandtable::record::view::{Viewer, Views};

fn scouts() -> Engine {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/variants/fog_scouts.yaml"
    );
    Engine::load(path, &[]).unwrap()
}

/// The names of the cells `viewer` sees, sorted.
fn seen(e: &Engine, s: &sandtable::base::state::GameState, viewer: Viewer) -> Vec<String> {
    let b = &e.variant.board;
    let mut out: Vec<String> = match Views::new(e).seen_cells(s, viewer) {
        Some(seen) => (0..b.cell_count())
            .filter(|&c| seen[c])
            .map(|c| b.cell_name(c as u16))
            .collect(),
        None => (0..b.cell_count()).map(|c| b.cell_name(c as u16)).collect(),
    };
    out.sort();
    out
}

fn names(list: &str) -> Vec<String> {
    let mut v: Vec<String> = list.split_whitespace().map(String::from).collect();
    v.sort();
    v
}

#[test]
fn each_part_of_a_declared_sight_shows_its_cells() {
    let e = scouts();
    let s = e.new_game(1, &[]);
    // Red: the home row and the tower (zones), the scout's file up to five
    // cells, the soldier's radius of 1, the cell the script adds (d3); the
    // beacon sees nothing of its own.
    assert_eq!(
        seen(&e, &s, Viewer::Player(0)),
        names("a1 b1 c1 d1 e1 f1 g1 g4 a2 a3 a4 a5 a6 c2 d2 e2 d3")
    );
    // Blue: no script cells.
    assert_eq!(
        seen(&e, &s, Viewer::Player(1)),
        names("a7 b7 c7 d7 e7 f7 g7 g4 a6 a5 a4 a3 a2 c6 d6 e6")
    );
    // A spectator: what every player always sees (the tower, in both
    // players' zones), not the file both scouts happen to see: which cells
    // the other sees is not something either player knows.
    assert_eq!(seen(&e, &s, Viewer::Public), names("g4"));
    assert_eq!(seen(&e, &s, Viewer::Omniscient).len(), 49);
}

#[test]
fn lines_of_sight_stop_at_pieces_and_blocking_terrain() {
    let e = scouts();
    let mut s = e.new_game(1, &[]);
    // The red scout to a4 looks along rank 4: b4, c4, then the lake on d4
    // stops it (d4 seen, e4 not).
    play(&e, &mut s, &["a1-a4"]);
    let red = seen(&e, &s, Viewer::Player(0));
    for c in ["b4", "c4", "d4", "a7"] {
        assert!(red.contains(&c.to_string()), "{c} in {red:?}");
    }
    assert!(!red.contains(&"e4".to_string()), "{red:?}");
    // Up the file it stops at the blue scout on a7 (seen).
    assert!(red.contains(&"a7".to_string()));
    // What is out of sight shows nothing: no piece, no terrain.
    let v = Views::new(&e).view(&s, Viewer::Player(0));
    let f4 = e.variant.board.parse_cell("f4").unwrap() as usize;
    assert!(v.unseen.contains(&"f4".to_string()));
    assert!(v.cells[f4].is_none() && v.terrain[f4].is_empty());
}

#[test]
fn sight_declarations_are_checked() {
    let base = "name: T\nplayers: [a, b]\nboard: { files: 4, ranks: 4 }\nstart: \"k3/4/4/K3 a\"\n";
    let load = |extra: &str| {
        sandtable::rules::variant::Variant::from_str(
            &format!("{base}{extra}"),
            std::path::Path::new("t.yaml"),
            &[],
        )
    };
    let ok = load("pieces:\n  king: { name: King, symbol: K, code: K, moves: [{ step: all }] }\nsight: { radius: 1 }\n");
    assert!(ok.is_ok(), "{:?}", ok.err().map(|e| e.to_string()));
    for (extra, says) in [
        (
            "pieces:\n  king: { name: King, symbol: K, code: K, sight: { radius: 1 } }\n",
            "needs the variant's own `sight:`",
        ),
        (
            "pieces:\n  king: { name: King, symbol: K, code: K }\nsight: { zones: [nowhere] }\n",
            "no zone `nowhere`",
        ),
        (
            "pieces:\n  king: { name: King, symbol: K, code: K }\nsight: { lines: forward }\n",
            "depends on the player",
        ),
        (
            "pieces:\n  king: { name: King, symbol: K, code: K }\nsight: { passed: true }\n",
            "needs `rules.bookkeeping.passing`",
        ),
        (
            "pieces:\n  king: { name: King, symbol: K, code: K }\nsight: { range: many }\n",
            "t.yaml:7:17: expected a number from 0 to 255",
        ),
    ] {
        let err = load(extra)
            .err()
            .unwrap_or_else(|| panic!("accepted: {extra}"));
        assert!(err.to_string().contains(says), "{extra}: {err}");
    }
}

#[test]
fn fog_over_hidden_identities_keeps_both_hidden_in_every_sampled_world() {
    use rand::SeedableRng;
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/variants/fog_stratego.yaml"
    );
    let mut s = sandtable::front::session::Session::new(path, &[], 7).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    for round in 0..6 {
        s.execute("random 20").unwrap();
        if s.state.outcome.is_some() {
            break;
        }
        let e = &s.engine;
        for p in 0..2u8 {
            let want =
                serde_json::to_string(&Views::new(e).view(&s.state, Viewer::Player(p))).unwrap();
            for _ in 0..3 {
                let w = Determinizer::new(e).determinize_for(&s.state, p, &mut rng);
                w.check_consistency().unwrap();
                let got =
                    serde_json::to_string(&Views::new(e).view(&w, Viewer::Player(p))).unwrap();
                assert_eq!(
                    got, want,
                    "round {round}: a sampled world looks different to {p}"
                );
            }
        }
    }
}
