//! The tables rules receive: the host prelude (`prelude.luau`) that builds
//! them inside Luau from numbers, and the host's side of it (what a piece
//! table is made from).

use mlua::{Function, Lua, Table};

use super::context::{value_to_lua, with_ctx};
use super::{Facts, ACTION_KINDS};
use crate::base::geometry::Cell;
use crate::base::state::{Loc, PieceId, PlayerId};

/// Tables rules receive, built inside Luau from numbers (names come from
/// tables made once): one call across the boundary instead of one per
/// field. `after_action` builds the `action` table (`text` of a move made
/// only when read) and calls the hook; `piece` builds a piece table.
const HOST_PRELUDE: &str = include_str!("prelude.luau");

/// What the prelude returns: callers and builders.
pub(super) struct Builders {
    pub(super) after_action: Function,
    pub(super) piece: Function,
    pub(super) strike: Function,
    /// `cell_list(c1, c2, ...)`: a list of cell names.
    pub(super) cell_list: Function,
    /// `cell_map(n, c1..cn, v1..vn)`: cell name -> value.
    pub(super) cell_map: Function,
    /// `declared(f, g, k1, c1, k2, c2)`: calls `f(g, {k1 = name1, k2 = name2})`.
    pub(super) declared: Function,
    /// `piece_list(n, ...)`: a list of `n` piece tables, six arguments each.
    pub(super) piece_list: Function,
    /// `action(kind, player, from, to, piece, piece_kind, captured, text,
    /// path, captures)`: an action's table, as `after_action` builds it.
    pub(super) action: Function,
}

/// Runs the prelude with the variant's names, returning its builders.
pub(super) fn run(lua: &Lua, facts: &Facts) -> mlua::Result<Builders> {
    let kattrs = facts
        .kind_info
        .iter()
        .map(|(_, _, attrs)| {
            let t = lua.create_table()?;
            for (k, v) in attrs {
                t.set(k.as_str(), value_to_lua(lua, v)?)?;
            }
            Ok(t)
        })
        .collect::<mlua::Result<Vec<Table>>>()?;
    let (after_action, piece, strike, cell_list, cell_map, declared, piece_list, action) =
        lua.load(HOST_PRELUDE).set_name("=host").call((
            facts.players.clone(),
            facts.kinds.clone(),
            facts.cells.clone(),
            facts.kind_info.iter().map(|k| k.0).collect::<Vec<_>>(),
            facts.kind_info.iter().map(|k| k.1).collect::<Vec<_>>(),
            kattrs,
            ACTION_KINDS,
            facts.files,
        ))?;
    Ok(Builders {
        after_action,
        piece,
        strike,
        cell_list,
        cell_map,
        declared,
        piece_list,
        action,
    })
}

/// Most cells a builder takes as arguments (beyond, the slower path).
pub(super) const BUILD_MAX: usize = 200;

/// A list of cell names as a Lua table: built inside Luau from the indices
/// when the names are known, else name by name.
pub(super) fn cell_list(lua: &Lua, cells: &[Cell]) -> mlua::Result<Table> {
    let maker = with_ctx(lua, |cx| {
        let n = cx.names();
        let known = cells.iter().all(|&c| (c as usize) < n.cells.len());
        Ok((known && cells.len() <= BUILD_MAX).then(|| n.cell_list.clone()))
    })?;
    match maker {
        Some(f) => f.call(mlua::Variadic::from_iter(cells.iter().copied())),
        None => {
            let names = with_ctx(lua, |cx| {
                let b = &cx.variant().board;
                Ok(cells.iter().map(|&c| b.cell_name(c)).collect::<Vec<_>>())
            })?;
            lua.create_sequence_from(names)
        }
    }
}

/// A piece as a Lua table: `id`, `kind`, `owner`, `rank`, `cell`, `moved`,
/// the kind's attributes and the piece's own attributes.
#[inline]
pub(super) fn piece_table(lua: &Lua, id: PieceId) -> mlua::Result<Table> {
    let maker = with_ctx(lua, |cx| Ok(cx.names().piece.clone()))?;
    maker.call(piece_args(lua, id)?)
}

/// Most pieces [`piece_list`] builds in one call into Luau (beyond, one
/// call a piece).
const LIST_MAX: usize = BUILD_MAX / 6;

/// Pieces as a Lua list of piece tables (see [`piece_table`]), built in
/// one call into Luau.
pub(super) fn piece_list(lua: &Lua, ids: &[PieceId]) -> mlua::Result<Table> {
    if ids.len() > LIST_MAX {
        let t = lua.create_table_with_capacity(ids.len(), 0)?;
        for &id in ids {
            t.push(piece_table(lua, id)?)?;
        }
        return Ok(t);
    }
    let maker = with_ctx(lua, |cx| Ok(cx.names().piece_list.clone()))?;
    let mut args = Vec::with_capacity(1 + 6 * ids.len());
    args.push(mlua::Value::Integer(ids.len() as i64));
    for &id in ids {
        let (id, kind, owner, cell, moved, own) = piece_args(lua, id)?;
        args.push(mlua::Value::Integer(id as i64));
        args.push(mlua::Value::Integer(kind as i64));
        args.push(mlua::Value::Integer(owner as i64));
        args.push(cell.map_or(mlua::Value::Nil, |c| mlua::Value::Integer(c as i64)));
        args.push(mlua::Value::Boolean(moved));
        args.push(own.map_or(mlua::Value::Nil, mlua::Value::Table));
    }
    maker.call(mlua::Variadic::from_iter(args))
}

/// What the prelude's `piece` needs to build a piece table: id, kind,
/// owner, cell, moved, and the piece's own attributes (if any).
pub(super) type PieceArgs = (
    PieceId,
    crate::base::state::KindId,
    PlayerId,
    Option<Cell>,
    bool,
    Option<Table>,
);

#[inline]
pub(super) fn piece_args(lua: &Lua, id: PieceId) -> mlua::Result<PieceArgs> {
    let (kind, owner, cell, moved, own) = with_ctx(lua, |cx| {
        let p = &cx.state().pieces[id as usize];
        let cell = match p.loc {
            Loc::Cell(c) => Some(c),
            _ => None,
        };
        let attrs = cx.state().attrs(id);
        let own = (!attrs.is_empty()).then(|| attrs.to_vec());
        Ok((p.kind, p.owner, cell, p.moved, own))
    })?;
    let own = own.map(|own| lua.create_table_from(own)).transpose()?;
    Ok((id, kind, owner, cell, moved, own))
}
