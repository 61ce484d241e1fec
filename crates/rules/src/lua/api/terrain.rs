//! Cells' terrain: reading and changing it (`g:has_terrain`,
//! `g:set_terrain`), and a cell's summary (`g:cell`).

use mlua::UserDataMethods;

use super::Api;
use crate::lua::context::{parse_cell, with_ctx};
use crate::lua::limits::Name;

/// Registers the terrain methods.
pub(super) fn register_terrain<M: UserDataMethods<Api>>(m: &mut M) {
    m.add_method("cell", |lua, _, cell: Name| {
        let (terrain, piece) = with_ctx(lua, |cx| {
            let c = parse_cell(cx, &cell)?;
            let bits = cx.state().terrain()[c as usize];
            let names: Vec<String> = cx
                .variant()
                .board
                .terrain_names
                .iter()
                .enumerate()
                .filter(|(i, _)| bits & (1 << i) != 0)
                .map(|(_, n)| n.clone())
                .collect();
            Ok((names, cx.state().piece_at(c)))
        })?;
        let index = with_ctx(lua, |cx| parse_cell(cx, &cell))?;
        let t = lua.create_table()?;
        t.set("name", cell.0)?;
        t.set("index", index)?;
        t.set("terrain", terrain)?;
        t.set("piece", piece)?;
        Ok(t)
    });
    m.add_method("has_terrain", |lua, _, (cell, tag): (Name, Name)| {
        with_ctx(lua, |cx| {
            let c = parse_cell(cx, &cell)?;
            let bit = cx.variant().board.terrain_bit(&tag).ok_or_else(|| {
                mlua::Error::runtime(format!("`{tag}` is not a terrain tag of this board"))
            })?;
            Ok(cx.state().terrain()[c as usize] & bit != 0)
        })
    });
    m.add_method(
        "set_terrain",
        |lua, _, (cell, tag, on): (Name, Name, bool)| {
            with_ctx(lua, |cx| {
                let c = parse_cell(cx, &cell)?;
                let bit = cx.variant().board.terrain_bit(&tag).ok_or_else(|| {
                    mlua::Error::runtime(format!("`{tag}` is not a terrain tag of this board"))
                })?;
                if on {
                    if bit & cx.variant().board.blocking != 0 && cx.state().piece_at(c).is_some() {
                        return Err(mlua::Error::runtime(format!(
                            "cannot make {cell} `{tag}`: a piece stands there"
                        )));
                    }
                    let t = cx.state().terrain()[c as usize];
                    cx.state_mut().set_cell_terrain(c, t | bit);
                } else {
                    let t = cx.state().terrain()[c as usize];
                    cx.state_mut().set_cell_terrain(c, t & !bit);
                }
                // Terrain changes what every piece may reach.
                cx.state_mut().touch_everything();
                Ok(())
            })
        },
    );
}
