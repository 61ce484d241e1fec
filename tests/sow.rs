//! Sowing, declared (`does: [{ sow: PARAM, ... }]`), on Kalah written with
//! no script (`tests/variants/kalah.yaml`): the seeds go round the mover's
//! circuit, the last one in one's store plays again, in an empty pit of
//! one's own it takes the seeds opposite, the game ends when a side is
//! empty and the sides' seeds are compared; `take`, `back`, `not_all`,
//! `skip_origin` and `score` on the same board; every new key's error at
//! its line and column; the counts drawn in text and SVG. Perft against
//! OpenSpiel is in `tests/perft/kalah.perft`.

mod common;

use common::{engine, legal, play};
use sandtable::base::state::GameState;
use sandtable::engine::Engine;
use sandtable::front::render::Svg;
use sandtable::record::view::{Viewer, Views};
use sandtable::record::{parse_yaml, to_yaml, Position, Positions};

const V: &str = "tests/variants/kalah.yaml";

fn seeds(e: &Engine, s: &GameState, cell: &str) -> i64 {
    s.cell_counter("seeds", e.variant.board.parse_cell(cell).unwrap())
}

/// A position with only these seeds on the board, south to move.
fn only(e: &Engine, counts: &[(&str, i64)]) -> GameState {
    let mut s = e.new_game(1, &[]);
    s.cell_counters.clear();
    for &(c, n) in counts {
        s.set_cell_counter("seeds", e.variant.board.parse_cell(c).unwrap(), n);
    }
    s
}

#[test]
fn seeds_go_round_and_the_store_plays_again() {
    let e = engine(V, &[]);
    let mut s = e.new_game(1, &[]);
    assert_eq!(
        legal(&e, &s),
        ["sow-b1", "sow-c1", "sow-d1", "sow-e1", "sow-f1", "sow-g1"]
    );
    // d1's four seeds: e1 f1 g1 and the store h1; south plays again.
    play(&e, &mut s, &["sow-d1"]);
    assert_eq!(seeds(&e, &s, "d1"), 0);
    for c in ["e1", "f1", "g1"] {
        assert_eq!(seeds(&e, &s, c), 5, "{c}");
    }
    assert_eq!(seeds(&e, &s, "h1"), 1);
    assert_eq!(s.to_move, 0, "the last seed in one's store plays again");
    // g1's five: the store, then north's g2 f2 e2 d2; north's turn.
    play(&e, &mut s, &["sow-g1"]);
    assert_eq!(seeds(&e, &s, "h1"), 2);
    assert_eq!(seeds(&e, &s, "d2"), 5);
    assert_eq!(s.to_move, 1);
    // North's circuit passes its own store a2 and never south's h1.
    let mut s = only(&e, &[("b2", 9), ("g1", 1)]);
    s.to_move = 1;
    play(&e, &mut s, &["sow-b2"]);
    assert_eq!(seeds(&e, &s, "a2"), 1 + 2, "f2 took f1's seed");
    assert_eq!(
        seeds(&e, &s, "h1"),
        0,
        "south's store is not on north's circuit"
    );
    assert_eq!(seeds(&e, &s, "g2"), 1, "round to north's own row");
    assert_eq!(seeds(&e, &s, "b2"), 0);
}

#[test]
fn the_last_seed_in_an_empty_own_pit_takes_the_seeds_opposite() {
    let e = engine(V, &[]);
    let mut s = only(&e, &[("b1", 1), ("c2", 5), ("g2", 3), ("f1", 1)]);
    play(&e, &mut s, &["sow-b1"]);
    assert_eq!(seeds(&e, &s, "c1"), 0);
    assert_eq!(seeds(&e, &s, "c2"), 0);
    assert_eq!(seeds(&e, &s, "h1"), 6, "the seed and the five opposite");
    assert_eq!(s.to_move, 1);
    // Nothing opposite: the seed stays.
    let mut s = only(&e, &[("b1", 1), ("g2", 3), ("f1", 1)]);
    play(&e, &mut s, &["sow-b1"]);
    assert_eq!(seeds(&e, &s, "c1"), 1);
    assert_eq!(seeds(&e, &s, "h1"), 0);
}

#[test]
fn a_side_with_no_seeds_ends_the_game_and_the_sides_are_compared() {
    let e = engine(V, &[]);
    // South's last seed goes to its store: its side is empty, game over
    // (the extra turn does not save it); 21 to north's 10 + 17.
    let mut s = only(&e, &[("g1", 1), ("h1", 20), ("c2", 10), ("a2", 17)]);
    play(&e, &mut s, &["sow-g1"]);
    let o = s.outcome.clone().expect("a side is empty");
    assert_eq!(o.winners, vec![1], "{}", o.reason);
    assert!(o.reason.contains("21 to 27"), "{}", o.reason);
    // North's side emptied by south's capture: the other side ends it too.
    let mut s = only(&e, &[("b1", 1), ("c2", 4), ("d1", 1), ("a2", 2)]);
    play(&e, &mut s, &["sow-b1"]);
    let o = s.outcome.clone().expect("north's pits are empty");
    assert_eq!(o.winners, vec![0], "{}", o.reason);
    assert!(o.reason.contains("6 to 2"), "{}", o.reason);
    assert!(legal(&e, &s).is_empty());
}

/// The Kalah file with its sowing's captures replaced by `take` (into a
/// per-player counter) and the origin skipped.
fn take_variant(dir: &tempfile::TempDir, not_all: bool) -> Engine {
    let text = std::fs::read_to_string(V).unwrap().replace(
        "        opposite: pits\n        store: store\n",
        &format!(
            "        take: [2, 3]\n        back: true\n        within: pits\n        \
             not_all: {not_all}\n        score: captured\n        skip_origin: true\n"
        ),
    );
    let path = dir.path().join("take.yaml");
    std::fs::write(&path, text).unwrap();
    Engine::load(path.to_str().unwrap(), &[]).unwrap()
}

#[test]
fn take_counts_in_the_set_going_back_in_the_other_row() {
    let dir = tempfile::tempdir().unwrap();
    let e = take_variant(&dir, true);
    // f1's four: g1, h1, g2 (1 -> 2), f2 (2 -> 3): f2 then g2 taken.
    let mut s = only(&e, &[("f1", 4), ("g2", 1), ("f2", 2), ("b2", 5)]);
    play(&e, &mut s, &["sow-f1"]);
    assert_eq!(s.counter("captured", Some(0)), 5);
    assert_eq!((seeds(&e, &s, "f2"), seeds(&e, &s, "g2")), (0, 0));
    assert_eq!(seeds(&e, &s, "b2"), 5, "a 5 is not taken");
    // A 4 on the last cell takes nothing.
    let mut s = only(&e, &[("f1", 4), ("f2", 3), ("b2", 5)]);
    play(&e, &mut s, &["sow-f1"]);
    assert_eq!(s.counter("captured", Some(0)), 0);
    // Taking all of north's seeds takes nothing (`not_all`)...
    let mut s = only(&e, &[("f1", 4), ("g2", 1), ("f2", 2)]);
    play(&e, &mut s, &["sow-f1"]);
    assert_eq!(s.counter("captured", Some(0)), 0);
    assert_eq!(seeds(&e, &s, "f2"), 3);
    // ... unless it is allowed.
    let e = take_variant(&dir, false);
    let mut s = only(&e, &[("f1", 4), ("g2", 1), ("f2", 2), ("b1", 1)]);
    play(&e, &mut s, &["sow-f1"]);
    assert_eq!(s.counter("captured", Some(0)), 5);
}

#[test]
fn a_skipped_origin_stays_empty_and_big_counts_go_round_in_laps() {
    let dir = tempfile::tempdir().unwrap();
    let e = take_variant(&dir, true);
    // 25 seeds on a 13-cell circuit, b1 skipped: two laps of 12, then c1.
    let mut s = only(&e, &[("b1", 25), ("b2", 9)]);
    play(&e, &mut s, &["sow-b1"]);
    assert_eq!(seeds(&e, &s, "b1"), 0);
    assert_eq!(seeds(&e, &s, "c1"), 3);
    assert_eq!(seeds(&e, &s, "d1"), 2);
    assert_eq!(seeds(&e, &s, "b2"), 11);
    // Without the skip (Kalah), 13 seeds come back to the origin.
    let e = engine(V, &[]);
    let mut s = only(&e, &[("b1", 13), ("b2", 1)]);
    play(&e, &mut s, &["sow-b1"]);
    assert_eq!(seeds(&e, &s, "b1"), 0, "the 13th took b2's seeds");
    assert_eq!(seeds(&e, &s, "b2"), 0, "taken with the seed opposite");
    assert_eq!(seeds(&e, &s, "h1"), 1 + 3);
}

#[test]
fn the_counts_are_drawn_in_text_and_svg() {
    let e = engine(V, &[]);
    let mut s = e.new_game(1, &[]);
    play(&e, &mut s, &["sow-d1"]);
    let views = Views::new(&e);
    let view = views.view(&s, Viewer::Omniscient);
    let text = views.render(&view, None);
    assert!(text.contains("$5") && text.contains("$1"), "{text}");
    let svg = Svg::new(&e).render_svg(&view, None);
    assert!(
        svg.contains("data-counter=\"seeds\" data-at=\"h1\"") && svg.contains(">5</text>"),
        "{svg}"
    );
}

#[test]
fn a_saved_position_keeps_the_counts_and_the_text_board_shows_them() {
    let e = engine(V, &[]);
    let mut s = e.new_game(1, &[]);
    play(&e, &mut s, &["sow-d1", "sow-g1", "sow-b2"]);
    let positions = Positions::new(&e);
    let yaml = to_yaml(&positions.to_position(&s)).unwrap();
    assert!(
        yaml.contains("cell_counters:") && yaml.contains("seeds"),
        "{yaml}"
    );
    let pos: Position = parse_yaml(&yaml, "<kalah>").unwrap();
    let back = positions.from_position(&pos).unwrap();
    assert_eq!(back, s, "{yaml}");
    assert_eq!(seeds(&e, &back, "h1"), 2);
    assert_eq!(legal(&e, &back), legal(&e, &s));
    // The text board: each cell its count (south's row 5 5 1 5 5 . 2,
    // north's 1 . 4 5 5 5 5).
    let views = Views::new(&e);
    let text = views.render(&views.view(&s, Viewer::Omniscient), None);
    let row = |r: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with(r))
            .unwrap()
    };
    assert!(row("1").contains("$5") && row("1").contains("$2"), "{text}");
    assert!(row("2").contains("$4") && row("2").contains("$1"), "{text}");
}

/// The load error of the Kalah file with `from` replaced by `to`.
fn load_error(dir: &tempfile::TempDir, from: &str, to: &str) -> String {
    let text = std::fs::read_to_string(V).unwrap();
    assert!(text.contains(from), "{from}");
    let path = dir.path().join("bad.yaml");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    Engine::load(path.to_str().unwrap(), &[])
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default()
}

/// The line (1-based) of the first line of the Kalah file containing `t`.
fn line_of(t: &str) -> usize {
    let text = std::fs::read_to_string(V).unwrap();
    text.lines().position(|l| l.contains(t)).unwrap() + 1
}

#[test]
fn a_malformed_sowing_is_refused_at_its_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let item = format!("bad.yaml:{}:9", line_of("- sow: pit"));
    for (from, to, says) in [
        (
            "        counter: seeds\n",
            "",
            "`sow` needs `counter: NAME`",
        ),
        (
            "        circuit: circuit\n",
            "",
            "`sow` needs `circuit: ZONE`",
        ),
        (
            "circuit: circuit",
            "circuit: ring",
            "`circuit: ring` names no zone",
        ),
        ("again: store", "again: shop", "`again: shop` names no zone"),
        (
            "opposite: pits",
            "opposite: holes",
            "`opposite: holes` names no zone",
        ),
        (
            "        store: store\n",
            "",
            "need `store: ZONE` or `score: COUNTER`",
        ),
        (
            "store: store",
            "store: store\n        score: points",
            "not both",
        ),
        (
            "again: store",
            "again: store\n        back: true",
            "go with `take`",
        ),
        (
            "again: store",
            "again: store\n        take: [2]",
            "`take` needs `within: ZONE`",
        ),
        (
            "again: store",
            "again: store\n        take: []",
            "expected 1 to 16 counts",
        ),
        (
            "sow: pit",
            "sow: hole",
            "`hole` is not one of the action's parameters",
        ),
        ("sow: pit", "flip: pit", "go with `sow` only"),
    ] {
        let err = load_error(&dir, from, to);
        assert!(err.contains(&item), "{to}: {err}");
        assert!(err.contains(says), "{to}: {err}");
    }
    let circuit = load_error(&dir, "south_circuit: [b1, c1,", "south_circuit: [b1, b1,");
    assert!(
        circuit.contains(&item) && circuit.contains("each once"),
        "{circuit}"
    );
}

#[test]
fn the_other_new_keys_are_refused_at_their_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let end = format!("bad.yaml:{}:5", line_of("- anyone_stuck: true"));
    for (from, to, says) in [
        (
            "anyone_stuck: true",
            "anyone_stuck: false",
            "must be `true`",
        ),
        (
            "zone: side }",
            "zone: edge }",
            "`tally.zone: edge` names no zone",
        ),
        (
            "{ cells: seeds, zone: side }",
            "{ cells: seeds }",
            "`tally` needs",
        ),
        ("    winner: tally\n", "    winner: mover\n", "go together"),
    ] {
        let err = load_error(&dir, from, to);
        assert!(err.contains(&end) && err.contains(says), "{to}: {err}");
    }
    let counts = format!("bad.yaml:{}:12", line_of("seeds: { pits: 4 }"));
    let err = load_error(&dir, "seeds: { pits: 4 }", "seeds: { holes: 4 }");
    assert!(
        err.contains(&counts) && err.contains("`holes` names no zone"),
        "{err}"
    );
    let param = format!("bad.yaml:{}:", line_of("pit: { from: { own_zone: pits }"));
    let err = load_error(&dir, "own_zone: pits", "own_zone: holes");
    assert!(
        err.contains(&param) && err.contains("unknown zone `holes`"),
        "{err}"
    );
}

#[test]
fn the_listing_agrees_with_the_exhaustive_one() {
    assert!(common::shortcuts_agree(V, &[], 20, 80) > 200);
}
