//! Questions about the whole board in one call: the board as two arrays
//! (`g:grid`), the cells of a declared query (`g:query`) and whether a cell
//! is attacked (`g:attacked`, answered above this layer).

use mlua::{UserDataMethods, Value as LV};

use super::Api;
use crate::cells::cells_of;
use crate::freeze::frozen_by_declaration;
use crate::lua::context::{parse_cell, parse_player, with_ctx};
use crate::lua::limits::Name;
use crate::lua::prelude::cell_list;

/// Registers the whole-board questions.
pub(super) fn register_queries<M: UserDataMethods<Api>>(m: &mut M) {
    // The whole board in two arrays indexed by cell index + 1: the kind
    // name (or false) and the owner's name (or false) of each cell. One
    // call instead of one per cell, for rules that scan the board.
    m.add_method("grid", |lua, _, ()| {
        with_ctx(lua, |cx| {
            let kind_names: Vec<LV> = cx
                .variant()
                .kinds
                .iter()
                .map(|k| lua.create_string(&k.name).map(LV::String))
                .collect::<mlua::Result<_>>()?;
            let player_names: Vec<LV> = cx
                .variant()
                .players
                .iter()
                .map(|p| lua.create_string(p).map(LV::String))
                .collect::<mlua::Result<_>>()?;
            let pieces = &cx.state().pieces;
            let kinds = lua.create_sequence_from(cx.state().board().iter().map(|slot| {
                slot.map_or(LV::Boolean(false), |id| {
                    kind_names[pieces[id as usize].kind as usize].clone()
                })
            }))?;
            let owners = lua.create_sequence_from(cx.state().board().iter().map(|slot| {
                slot.map_or(LV::Boolean(false), |id| {
                    player_names[pieces[id as usize].owner as usize].clone()
                })
            }))?;
            Ok((kinds, owners))
        })
    });
    // A named query of the variant (`queries:`), for the player to move or
    // the one named: its cells, computed by the host.
    m.add_method("query", |lua, _, (name, player): (Name, Option<Name>)| {
        let mut cells = Vec::new();
        with_ctx(lua, |cx| {
            let v = cx.variant();
            let q = v.queries.iter().find(|q| q.name == *name).ok_or_else(|| {
                let known: Vec<&str> = v.queries.iter().map(|q| q.name.as_str()).collect();
                mlua::Error::runtime(format!(
                    "unknown query `{}` (the variant's queries: {})",
                    name.0,
                    known.join(", ")
                ))
            })?;
            let p = match player.as_deref() {
                Some(p) => parse_player(cx, p)?,
                None => cx.state().to_move,
            };
            // Only a declared freeze here: a question asked from inside
            // a hook does not call the script again.
            let mut frozen = Vec::new();
            if q.uses_frozen() {
                frozen_by_declaration(&v.kinds, &v.board, cx.state(), p, &mut frozen);
            }
            cells_of(&v.board, cx.state(), (p, &frozen), q, &[], &mut cells);
            Ok(())
        })?;
        cell_list(lua, &cells)
    });
    m.add_method(
        "attacked",
        |lua, _, (cell, by, from): (Name, Name, Option<Name>)| {
            with_ctx(lua, |cx| {
                let c = parse_cell(cx, &cell)?;
                let by = parse_player(cx, &by)?;
                let mut board = cx.state().board().to_vec();
                if let Some(f) = from {
                    let f = parse_cell(cx, &f)?;
                    board[c as usize] = board[f as usize].take();
                }
                let query = cx
                    .attacked
                    .clone()
                    .ok_or_else(|| mlua::Error::runtime("g:attacked is not available here"))?;
                Ok(query(cx.state(), &board, c, by))
            })
        },
    );
}
