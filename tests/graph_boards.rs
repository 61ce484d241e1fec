//! Boards that are graphs (`board: { points, lines }`) and hex boards
//! (`shape: hex`): steps go along the declared lines, nothing is placed
//! off the points, three in a row counts only along lines; the text and
//! SVG drawings show only the points; bad boards are refused at load at
//! their line and column. Perft counts are in `tests/perft/`.

mod common;

use common::{engine, legal, play, targets};
use sandtable::front::render::Svg;
use sandtable::record::view::{Viewer, Views};

const MILLS: &str = "tests/variants/mills_board.yaml";
const THREE: &str = "tests/variants/three_mens_morris.yaml";
const HEX: &str = "tests/variants/hex_four.yaml";

/// White's and black's eighteen placements on the mills board, no mill.
const PLACED: &[&str] = &[
    "f4", "d1", "g7", "b2", "f6", "d7", "e4", "g4", "d5", "c4", "a4", "e5", "b4", "g1", "d2", "e3",
    "a7", "b6",
];

#[test]
fn nothing_is_placed_off_the_points() {
    let e = engine(MILLS, &[]);
    let s = e.new_game(1, &[]);
    let moves = legal(&e, &s);
    assert_eq!(moves.len(), 24, "{moves:?}");
    assert!(!moves.contains(&"b1".to_string()) && !moves.contains(&"d4".to_string()));
    let err = e
        .parse_action(&s, "b1")
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(!err.is_empty());
}

#[test]
fn a_step_goes_to_the_next_point_of_a_line() {
    let e = engine(MILLS, &[]);
    let mut s = e.new_game(1, &[]);
    play(&e, &mut s, PLACED);
    // White to step: f4's lines go to g4 (taken), e4 (taken), f2 and f6
    // (taken); a4's to a1 and a7 (taken), b4 (taken). Steps pass no cell
    // that is not a point (f4 to f2 crosses f3).
    assert_eq!(targets(&e, &s, "f4"), vec!["f2"]);
    assert_eq!(targets(&e, &s, "a4"), vec!["a1"]);
    // d5 has no line to d4 (not a point) nor across to c4 and e4's row.
    assert_eq!(targets(&e, &s, "d5"), vec!["c5", "d6"]);
    assert!(e.parse_action(&s, "d5-d4").is_err());
}

#[test]
fn a_mill_along_a_line_wins_and_cells_in_a_row_off_the_lines_do_not() {
    let e = engine(MILLS, &[]);
    let mut s = e.new_game(1, &[]);
    // White a1, g1 and black d2 ... then white d1: a1 d1 g1 is a mill.
    play(&e, &mut s, &["a1", "d2", "g1", "d3"]);
    assert!(s.outcome.is_none());
    play(&e, &mut s, &["d1"]);
    let o = s.outcome.clone().expect("a mill");
    assert!(format!("{o:?}").contains("0"), "{o:?}");
    // c3 c4 c5 is a line; b4 c4 and e4 are not joined (d4 is not a point).
    let mut s = e.new_game(1, &[]);
    play(&e, &mut s, &["b4", "a1", "c4", "a7", "e4"]);
    assert!(s.outcome.is_none(), "b4 c4 e4 is no line");
}

#[test]
fn three_mens_morris_steps_along_its_diagonals_only_where_a_line_runs() {
    let e = engine(THREE, &[]);
    let mut s = e.new_game(1, &[]);
    play(&e, &mut s, &["b1", "a1", "c2", "c1", "a2", "b3"]);
    // b1 has no diagonal line; b2 (the centre) is empty.
    assert_eq!(targets(&e, &s, "b1"), vec!["b2"]);
    assert_eq!(targets(&e, &s, "c2"), vec!["b2", "c3"]);
    play(&e, &mut s, &["c2-b2"]);
    // Black's a2 b2 b1 are in no line together.
    assert!(s.outcome.is_none());
    play(&e, &mut s, &["c1-c2", "b1-c1"]);
    // Black: a2, b2, c1; c1 b2 a3 is a line and a3 is empty.
    assert!(s.outcome.is_none());
    play(&e, &mut s, &["a1-b1", "a2-a3"]);
    let o = s.outcome.clone().expect("c1 b2 a3 along a diagonal line");
    assert!(format!("{o:?}").contains("0"), "{o:?}");
}

#[test]
fn four_in_a_row_on_a_hexagon_counts_along_the_hex_axes() {
    let e = engine(HEX, &[]);
    let mut s = e.new_game(1, &[]);
    assert_eq!(legal(&e, &s).len(), 19);
    // a1 is off the hexagon; e5 too.
    assert!(e.parse_action(&s, "a1").is_err() && e.parse_action(&s, "e5").is_err());
    // Black a5 b4 c3 d2: the (1,-1) axis.
    play(&e, &mut s, &["a5", "a4", "b4", "b5", "c3", "e1"]);
    assert!(s.outcome.is_none());
    play(&e, &mut s, &["d2"]);
    assert!(s.outcome.is_some(), "a5 b4 c3 d2");
}

#[test]
fn the_text_and_svg_drawings_show_only_the_points_and_the_lines() {
    let e = engine(MILLS, &[]);
    let mut s = e.new_game(1, &[]);
    play(&e, &mut s, &["a1", "d2", "g4"]);
    let views = Views::new(&e);
    let view = views.view(&s, Viewer::Omniscient);
    let text = views.render(&view, None);
    let svg = Svg::new(&e).render_svg(&view, None);
    assert_eq!(svg.matches("<circle data-cell").count(), 24);
    assert_eq!(svg.matches("<line ").count(), 32);
    assert!(!svg.contains("data-cell=\"b1\"") && !svg.contains("data-cell=\"d4\""));
    insta::assert_snapshot!("mills_board_text", text);
    insta::assert_snapshot!("mills_board_svg", svg);
    let e = engine(HEX, &[]);
    let s = e.new_game(1, &[]);
    let views = Views::new(&e);
    let view = views.view(&s, Viewer::Omniscient);
    insta::assert_snapshot!("hex_board_text", views.render(&view, None));
    assert_eq!(
        Svg::new(&e)
            .render_svg(&view, None)
            .matches("<circle data-cell")
            .count(),
        19
    );
}

/// The error of loading `variant` with `from` replaced by `to`, its
/// temporary folder left out.
fn refused(variant: &str, from: &str, to: &str) -> String {
    let text = std::fs::read_to_string(variant).unwrap();
    assert!(text.contains(from), "{variant}: no `{from}`");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("board.yaml");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    match sandtable::engine::Engine::load(path.to_str().unwrap(), &[]) {
        Ok(_) => panic!("`{to}` loaded"),
        Err(e) => e
            .to_string()
            .replace(&format!("{}/", dir.path().display()), ""),
    }
}

#[test]
fn bad_graph_boards_are_refused_at_their_line_and_column() {
    let cases = [
        // A line naming a cell that is not a point.
        (MILLS, "[a1, d1, g1]", "[a1, b1, g1]"),
        // A point off the declared box.
        (
            THREE,
            "points: [a1,",
            "files: 3\n  ranks: 3\n  points: [d1, a1,",
        ),
        // A line that turns.
        (MILLS, "[a1, a4, a7]", "[a1, a4, b4]"),
        // A line of one point.
        (MILLS, "[g1, g4, g7]", "[g1]"),
        // Two lines leaving a point the same way to different points.
        (THREE, "[a1, b2, c3]", "[a1, b2, c3]\n    - [a1, c1]"),
        // No points.
        (
            THREE,
            "points: [a1, b1, c1, a2, b2, c2, a3, b3, c3]",
            "points: []",
        ),
        // An unknown shape, and a size without the hex shape.
        (HEX, "shape: hex, size: 3", "shape: round, size: 3"),
        (HEX, "shape: hex, size: 3", "size: 3"),
    ];
    let all: Vec<String> = cases
        .iter()
        .map(|(v, from, to)| format!("{to}\n=> {}", refused(v, from, to)))
        .collect();
    for e in &all {
        assert!(e.contains("board.yaml:"), "{e}");
    }
    insta::assert_snapshot!("bad_graph_boards", all.join("\n\n"));
}

#[test]
fn the_geometry_calls_answer_only_cells_of_the_board() {
    // A hexagon of side 3 (19 cells in a 5 by 5 rectangle) and the mills
    // board (24 points in a 7 by 7 grid): every cell a call answers is one
    // `g:piece_at` accepts, and the rectangle's other cells never come.
    let check = r#"
        local n, bad = 0, {}
        local function ok(c)
          if not pcall(function() return g:piece_at(c) end) then table.insert(bad, c) end
        end
        for _, c in ipairs(g:cells()) do
          n = n + 1
          ok(c)
          for _, set in ipairs({"orthogonal", "diagonal", "all", "hex"}) do
            local fine, list = pcall(function() return g:neighbors(c, set) end)
            if fine then for _, m in ipairs(list) do ok(m) end end
          end
          for _, d in ipairs({{1, 0}, {0, 1}, {1, 1}, {-1, 1}, {-1, -1}}) do
            for _, m in ipairs(g:line(c, d[1], d[2])) do ok(m) end
          end
        end
        local w, h = g:board_size()
        for f = 0, w - 1 do
          for r = 0, h - 1 do
            local c = g:cell_at(f, r)
            if c then ok(c) end
          end
        end
        return n .. " " .. #bad .. " " .. table.concat(bad, ",")
    "#;
    for (variant, cells) in [(HEX, 19), (MILLS, 24)] {
        let e = engine(variant, &[]);
        let s = e.new_game(1, &[]);
        let got = e.rules.eval(&s, &e.variant, check).unwrap();
        let got = got.trim().trim_matches('"').trim();
        assert_eq!(got, format!("{cells} 0"), "{variant}: {got}");
    }
    let e = engine(HEX, &[]);
    let s = e.new_game(1, &[]);
    assert_eq!(
        e.rules
            .eval(&s, &e.variant, "return g:cell_at(0, 0)")
            .unwrap()
            .trim(),
        "nil"
    );
}
