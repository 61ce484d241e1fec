//! The board's geometry as scripts see it: size, cell names, indices and
//! coordinates, neighbours and zones. Every cell these calls answer is a
//! cell of the board: on a hex or graph board, the rectangle's cells that
//! are not points are never answered (`g:piece_at` accepts whatever they
//! give).

use mlua::UserDataMethods;

use super::Api;
use crate::base::geometry::Cell;
use crate::lua::context::{parse_cell, with_ctx};
use crate::lua::limits::Name;
use crate::lua::prelude::cell_list;

/// Registers the geometry methods.
pub(super) fn register_board<M: UserDataMethods<Api>>(m: &mut M) {
    m.add_method("board_size", |lua, _, ()| {
        with_ctx(lua, |cx| {
            Ok((
                cx.variant().board.files as i64,
                cx.variant().board.ranks as i64,
            ))
        })
    });
    m.add_method("index", |lua, _, cell: Name| {
        with_ctx(lua, |cx| parse_cell(cx, &cell).map(|c| c as i64))
    });
    m.add_method("cell_name", |lua, _, index: u32| {
        with_ctx(lua, |cx| {
            let b = &cx.variant().board;
            if (index as usize) < b.cell_count() && b.is_point(index as Cell) {
                cx.names().cell(lua, index as Cell, b)
            } else {
                Err(mlua::Error::runtime(format!("there is no cell {index}")))
            }
        })
    });
    m.add_method("coords", |lua, _, cell: Name| {
        with_ctx(lua, |cx| {
            let c = parse_cell(cx, &cell)?;
            let (f, r) = cx.variant().board.coords(c);
            Ok((f, r))
        })
    });
    m.add_method("cell_at", |lua, _, (file, rank): (i32, i32)| {
        with_ctx(lua, |cx| {
            let b = &cx.variant().board;
            match b.cell(file, rank).filter(|&c| b.is_point(c)) {
                Some(c) => cx.names().cell(lua, c, b).map(Some),
                None => Ok(None),
            }
        })
    });
    m.add_method("neighbors", |lua, _, (cell, dirs): (Name, Option<Name>)| {
        with_ctx(lua, |cx| {
            let c = parse_cell(cx, &cell)?;
            let b = &cx.variant().board;
            let name = dirs.as_deref().unwrap_or("orthogonal");
            let d = b
                .directions(name)
                .ok_or_else(|| mlua::Error::runtime(format!("unknown direction set `{name}`")))?;
            Ok(d.deltas
                .iter()
                .filter_map(|&delta| b.offset(c, delta))
                .filter(|&n| b.is_point(n))
                .collect::<Vec<_>>())
        })
        .and_then(|cells| cell_list(lua, &cells))
    });
    m.add_method("cells", |lua, _, ()| {
        with_ctx(lua, |cx| {
            let b = &cx.variant().board;
            Ok((0..b.cell_count() as Cell)
                .filter(|&c| b.is_point(c))
                .collect::<Vec<_>>())
        })
        .and_then(|cells| cell_list(lua, &cells))
    });
    // The cells from `cell` outwards by steps of (df, dr), nearest first,
    // up to the board's edge (on a hex or graph board, the last point
    // before the walk leaves the board's points).
    m.add_method("line", |lua, _, (cell, df, dr): (Name, i8, i8)| {
        with_ctx(lua, |cx| {
            let mut c = parse_cell(cx, &cell)?;
            if df == 0 && dr == 0 {
                return Err(mlua::Error::runtime("g:line needs a step other than 0, 0"));
            }
            let b = &cx.variant().board;
            let mut out = Vec::new();
            while let Some(n) = b.offset(c, (df, dr)).filter(|&n| b.is_point(n)) {
                out.push(n);
                c = n;
            }
            Ok(out)
        })
        .and_then(|cells| cell_list(lua, &cells))
    });
    m.add_method("zone", |lua, _, name: Name| {
        with_ctx(lua, |cx| {
            let b = &cx.variant().board;
            let cells = b
                .zone(&name)
                .ok_or_else(|| mlua::Error::runtime(format!("unknown zone `{name}`")))?;
            Ok(cells.to_vec())
        })
        .and_then(|cells| cell_list(lua, &cells))
    });
    m.add_method("in_zone", |lua, _, (cell, name): (Name, Name)| {
        with_ctx(lua, |cx| {
            let c = parse_cell(cx, &cell)?;
            let cells = cx
                .variant()
                .board
                .zone(&name)
                .ok_or_else(|| mlua::Error::runtime(format!("unknown zone `{name}`")))?;
            Ok(cells.contains(&c))
        })
    });
}
