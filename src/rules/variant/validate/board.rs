//! The `board:` section: its size, terrain tags, blocking terrain and zones.
//!
//! Changes when what a board declares changes.

use super::Ctx;
use crate::base::geometry::Board;
use crate::rules::variant::raw::RawBoard;
use crate::rules::variant::LoadError;

/// The board; without a valid size nothing else can be checked, so that
/// stops here with the problems found so far.
pub(super) fn board(raw: &RawBoard, cx: &mut Ctx) -> Result<Board, LoadError> {
    let (files_n, ranks_n) = (raw.files.unwrap_or(0), raw.ranks.unwrap_or(0));
    if files_n == 0 || files_n > 26 || ranks_n == 0 || ranks_n > 99 {
        cx.err_top("board: `files` must be 1..=26 and `ranks` 1..=99");
        return Err(LoadError(std::mem::take(&mut cx.diags)));
    }
    let mut board = Board::new(files_n, ranks_n);
    terrain(raw, &mut board, cx);
    blocking(raw, &mut board, cx);
    zones(raw, &mut board, cx);
    Ok(board)
}

/// `board.terrain`: at most 32 tags, each a list of cells.
fn terrain(raw: &RawBoard, board: &mut Board, cx: &mut Ctx) {
    if raw.terrain.len() > 32 {
        cx.from("terrain");
        cx.err_top("board: at most 32 terrain tags");
    }
    for (i, (tag, cells)) in raw.terrain.iter().enumerate().take(32) {
        cx.from(&format!("terrain.{tag}"));
        board.terrain_names.push(tag.clone());
        for c in cells {
            match board.parse_cells(&c.value) {
                Ok(list) => {
                    for cell in list {
                        board.terrain[cell as usize] |= 1 << i;
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
