//! The `board:` section: its size, terrain tags, blocking terrain and zones.
//!
//! Changes when what a board declares changes.

use super::Ctx;
use crate::base::geometry::{Board, Cell, Shape};
use crate::variant::raw::RawBoard;
use crate::variant::LoadError;
use serde_saphyr::Spanned;

/// The board; without a valid size nothing else can be checked, so that
/// stops here with the problems found so far.
pub(super) fn board(raw: &RawBoard, cx: &mut Ctx) -> Result<Board, LoadError> {
    let shape = shape(raw, cx);
    if let Some(list) = raw.points.as_ref().filter(|l| l.value.is_empty()) {
        cx.from("points");
        cx.err_at(list.referenced, "board: `points` lists no point");
        return Err(LoadError(std::mem::take(&mut cx.diags)));
    }
    let hexagon = raw.size.as_ref().map(|s| s.value);
    let points = raw.points.as_ref();
    let declared = (raw.files, raw.ranks);
    let (files_n, ranks_n) = match (&raw.size, points) {
        (Some(n), _) if (1..=13).contains(&n.value) => (2 * n.value - 1, 2 * n.value - 1),
        (Some(n), _) => {
            cx.from("shape");
            cx.err_at(n.referenced, "board: `size` must be 1..=13");
            return Err(LoadError(std::mem::take(&mut cx.diags)));
        }
        (None, Some(p)) if declared.0.is_none() || declared.1.is_none() => {
            let (f, r) = bounding_box(p, cx);
            (declared.0.unwrap_or(f), declared.1.unwrap_or(r))
        }
        _ => (declared.0.unwrap_or(0), declared.1.unwrap_or(0)),
    };
    if files_n == 0 || files_n > 26 || ranks_n == 0 || ranks_n > 99 {
        cx.check()?;
        cx.err_top("board: `files` must be 1..=26 and `ranks` 1..=99");
        return Err(LoadError(std::mem::take(&mut cx.diags)));
    }
    let mut board = Board::new(files_n, ranks_n);
    board.shape = shape;
    if let Some(n) = raw.size.as_ref().filter(|_| shape != Shape::Hex) {
        cx.from("shape");
        cx.err_at(n.referenced, "board: `size` goes with `shape: hex`");
    }
    terrain(raw, &mut board, cx);
    graph(raw, hexagon, &mut board, cx);
    blocking(raw, &mut board, cx);
    zones(raw, &mut board, cx);
    counts(raw, &mut board, cx);
    directions(raw, &mut board, cx);
    Ok(board)
}

/// `board.directions`: the variant's own direction sets, each a new name
/// with at least one offset that is not `[0, 0]`.
fn directions(raw: &RawBoard, board: &mut Board, cx: &mut Ctx) {
    use crate::base::geometry::Directions;
    cx.from("directions");
    for (name, d) in &raw.directions {
        let at = d.referenced;
        if board.directions(name).is_some() {
            cx.err_at(
                at,
                format!("board: direction set `{name}` is already a built-in one"),
            );
            continue;
        }
        let deltas = &d.value.deltas;
        if deltas.is_empty() || deltas.contains(&(0, 0)) {
            cx.err_at(
                at,
                format!("board: direction set `{name}` needs offsets other than [0, 0]"),
            );
            continue;
        }
        if deltas
            .iter()
            .any(|&(x, y)| x.unsigned_abs() > 25 || y.unsigned_abs() > 98)
        {
            cx.err_at(
                at,
                format!("board: direction set `{name}` has an offset larger than any board"),
            );
            continue;
        }
        board.directions.push(Directions {
            name: name.clone(),
            deltas: deltas.clone(),
            relative: d.value.relative.unwrap_or(true),
        });
    }
}

/// `board.shape`: `square` or `hex`.
fn shape(raw: &RawBoard, cx: &mut Ctx) -> Shape {
    let Some(s) = &raw.shape else {
        return Shape::Square;
    };
    cx.from("shape");
    match s.value.as_str() {
        "square" => Shape::Square,
        "hex" => Shape::Hex,
        other => {
            cx.err_at(
                s.referenced,
                format!("board: shape `{other}` is not `square` or `hex`"),
            );
            Shape::Square
        }
    }
}

/// The files and ranks of the box around the points (0 if none is a cell).
fn bounding_box(points: &Spanned<Vec<Spanned<String>>>, cx: &mut Ctx) -> (u8, u8) {
    let widest = Board::new(26, 99);
    let (mut f, mut r) = (0, 0);
    cx.from("points");
    for p in &points.value {
        match widest.parse_cell(&p.value) {
            Some(c) => {
                let (pf, pr) = widest.coords(c);
                (f, r) = (f.max(pf as u8 + 1), r.max(pr as u8 + 1));
            }
            None => cx.err_at(
                p.referenced,
                format!(
                    "`{}` is not a point name (file letter, rank number)",
                    p.value
                ),
            ),
        }
    }
    (f, r)
}

/// `board.points` and `board.lines` (or a hexagon of `size`): makes the
/// board a graph.
fn graph(raw: &RawBoard, hexagon: Option<u8>, board: &mut Board, cx: &mut Ctx) {
    let mut points = Vec::new();
    if let Some(list) = &raw.points {
        cx.from("points");
        for p in &list.value {
            match board.parse_cell(&p.value) {
                Some(c) => points.push(c),
                None => cx.err_at(
                    p.referenced,
                    format!("point `{}` is not a cell of this {board} board", p.value),
                ),
            }
        }
    } else if let Some(n) = hexagon {
        let n = n as i32;
        for c in 0..board.cell_count() as Cell {
            let (f, r) = board.coords(c);
            if (n - 1..=3 * n - 3).contains(&(f + r)) {
                points.push(c);
            }
        }
    } else if let Some(l) = raw.lines.as_ref().and_then(|l| l.first()) {
        cx.from("lines");
        cx.err_at(
            l.referenced,
            "board: `lines` join `points`, and there are none",
        );
        return;
    } else {
        return;
    }
    let mut lines = Vec::new();
    cx.from("lines");
    for line in raw.lines.iter().flatten() {
        let mut cells = Vec::new();
        for p in &line.value {
            match board.parse_cell(&p.value).filter(|c| points.contains(c)) {
                Some(c) => cells.push(c),
                None => cx.err_at(
                    p.referenced,
                    format!("`{}` is not one of the board's points", p.value),
                ),
            }
        }
        lines.push(cells);
    }
    if !cx.diags.is_empty() {
        return;
    }
    if let Err((i, e)) = board.set_graph(&points, lines) {
        let at = raw
            .lines
            .as_ref()
            .and_then(|l| l.get(i))
            .map(|l| l.referenced);
        match at {
            Some(at) => cx.err_at(at, format!("board: line {}: {e}", i + 1)),
            None => cx.err_top(format!("board: {e}")),
        }
    }
}

/// `board.terrain`: at most 32 tags, each a list of cells.
fn terrain(raw: &RawBoard, board: &mut Board, cx: &mut Ctx) {
    if raw.terrain.len() > 32 {
        cx.from("terrain");
        cx.err_top("board: at most 32 terrain tags");
    }
    for (i, (tag, cells)) in raw.terrain.iter().enumerate().take(32) {
        cx.from(&format!("terrain.{tag}"));
        let _ = i;
        board.terrain_names.push(tag.clone());
        let bit = 1u32 << (board.terrain_names.len() - 1);
        for c in cells {
            match board.parse_cells(&c.value) {
                Ok(list) => {
                    for cell in list {
                        board.terrain[cell as usize] |= bit;
                    }
                }
                Err(e) => cx.err_at(c.referenced, format!("terrain `{tag}`: {e}")),
            }
        }
    }
}

/// `board.blocking`: the terrain tags no piece may enter.
fn blocking(raw: &RawBoard, board: &mut Board, cx: &mut Ctx) {
    cx.from("blocking");
    for b in raw.blocking.iter().flatten() {
        match board.terrain_bit(&b.value) {
            Some(bit) => board.blocking |= bit,
            None => cx.err_at(
                b.referenced,
                format!(
                    "`{}` is not a terrain tag of this board (tags: {})",
                    b.value,
                    board.terrain_names.join(", ")
                ),
            ),
        }
    }
}

/// `board.zones`: named lists of cells.
fn zones(raw: &RawBoard, board: &mut Board, cx: &mut Ctx) {
    for (zone, cells) in &raw.zones {
        cx.from(&format!("zones.{zone}"));
        let mut list = Vec::new();
        for c in cells {
            match board.parse_cells(&c.value) {
                Ok(l) => list.extend(l),
                Err(e) => cx.err_at(c.referenced, format!("zone `{zone}`: {e}")),
            }
        }
        board.zones.push((zone.clone(), list));
    }
}

/// `board.counts`: cell counters at the start, each zone's cells set to a
/// value (at most [`MAX_AMOUNT`] either way).
fn counts(raw: &RawBoard, board: &mut Board, cx: &mut Ctx) {
    use crate::base::limits::MAX_AMOUNT;
    for (counter, by_zone) in &raw.counts {
        cx.from(&format!("counts.{counter}"));
        for (zone, &value) in &by_zone.value {
            let Some(cells) = board.zone(zone).map(<[Cell]>::to_vec) else {
                cx.err_at(
                    by_zone.referenced,
                    format!("counts.{counter}: `{zone}` names no zone of the board"),
                );
                continue;
            };
            if !(-MAX_AMOUNT..=MAX_AMOUNT).contains(&value) {
                cx.err_at(
                    by_zone.referenced,
                    format!(
                        "counts.{counter}.{zone}: {value}: expected -{MAX_AMOUNT} to {MAX_AMOUNT}"
                    ),
                );
                continue;
            }
            for c in cells {
                board.counts.retain(|x| !(x.0 == *counter && x.1 == c));
                if value != 0 {
                    board.counts.push((counter.clone(), c, value));
                }
            }
        }
    }
}
