//! Finding pieces and handing them to scripts as tables: `g:piece`,
//! `g:piece_at`, `g:pieces`, `g:count` (with their filter) and `g:container`.

use mlua::{Lua, Table, UserDataMethods, Value as LV};

use super::Api;
use crate::base::state::PieceId;
use crate::rules::lua::context::{known_keys, parse_cell, parse_player, with_ctx, PieceArg};
use crate::rules::lua::limits::Name;
use crate::rules::lua::prelude::{piece_list, piece_table};

/// Registers the methods that find pieces.
pub(super) fn register_pieces<M: UserDataMethods<Api>>(m: &mut M) {
    m.add_method("piece", |lua, _, PieceArg(id): PieceArg| {
        let ok = with_ctx(lua, |cx| Ok((id as usize) < cx.state().pieces.len()))?;
        if !ok {
            return Ok(LV::Nil);
        }
        piece_table(lua, id as PieceId).map(LV::Table)
    });
    m.add_method("piece_at", |lua, _, cell: Name| {
        let id = with_ctx(lua, |cx| {
            let c = parse_cell(cx, &cell)?;
            Ok(cx.state().piece_at(c))
        })?;
        match id {
            Some(id) => piece_table(lua, id).map(LV::Table),
            None => Ok(LV::Nil),
        }
    });
    m.add_method("pieces", |lua, _, filter: Option<Table>| {
        let mut ids = Vec::new();
        filtered_pieces(lua, "g:pieces", filter, |id| ids.push(id))?;
        piece_list(lua, &ids)
    });
    m.add_method("count", |lua, _, filter: Option<Table>| {
        let mut n = 0;
        filtered_pieces(lua, "g:count", filter, |_| n += 1)?;
        Ok(n)
    });
    m.add_method(
        "container",
        |lua, _, (name, owner): (Name, Option<Name>)| {
            let ids = with_ctx(lua, |cx| {
                let owner = owner.as_deref().map(|o| parse_player(cx, o)).transpose()?;
                Ok(cx
                    .state()
                    .containers
                    .iter()
                    .find(|c| c.name == *name && c.owner == owner)
                    .map(|c| c.pieces.clone())
                    .unwrap_or_default())
            })?;
            piece_list(lua, &ids)
        },
    );
}

/// The keys a piece filter may have.
const FILTER_KEYS: [&str; 4] = ["owner", "kind", "mobile", "attr"];

/// Calls `each` with every piece on the board that a filter table
/// (`{owner = ..., kind = ..., mobile = ..., attr = ...}`, each optional)
/// picks; another key is an error (`method` names the call).
fn filtered_pieces(
    lua: &Lua,
    method: &str,
    filter: Option<Table>,
    mut each: impl FnMut(PieceId),
) -> mlua::Result<()> {
    if let Some(f) = &filter {
        known_keys(f, &format_args!("{method}'s filter"), &FILTER_KEYS)?;
    }
    with_ctx(lua, |cx| {
        // The filter's fields, read with the keys made once (a plain
        // table: no metamethods are consulted).
        let n = cx.names();
        let field = |key: &mlua::LuaString| match &filter {
            Some(f) => f.raw_get::<LV>(key),
            None => Ok(LV::Nil),
        };
        let owner: Option<mlua::LuaString> = lua.unpack(field(&n.owner)?)?;
        let kind: Option<mlua::LuaString> = lua.unpack(field(&n.kind)?)?;
        let mobile: Option<bool> = lua.unpack(field(&n.mobile)?)?;
        let owner = match &owner {
            Some(o) => Some(parse_player(cx, &o.to_str()?)?),
            None => None,
        };
        let kind = match &kind {
            Some(k) => {
                let k = k.to_str()?;
                let i = cx.variant().kind_index(&k);
                Some(
                    i.ok_or_else(|| mlua::Error::runtime(format!("unknown piece kind `{k}`")))?
                        as u16,
                )
            }
            None => None,
        };
        // `attr = name`: only pieces whose attribute is set (not 0).
        let attr: Option<mlua::LuaString> = lua.unpack(field(&n.attr)?)?;
        let attr = attr
            .map(|a| a.to_str().map(|s| s.to_string()))
            .transpose()?;
        let (state, variant) = (cx.state(), cx.variant());
        for &id in state.board().iter().flatten() {
            let p = &state.pieces[id as usize];
            if owner.is_none_or(|o| p.owner == o)
                && kind.is_none_or(|k| p.kind == k)
                && attr
                    .as_deref()
                    .is_none_or(|a| state.attrs(id).iter().any(|(n, v)| n == a && *v != 0))
                && mobile.is_none_or(|m| variant.kinds[p.kind as usize].is_mobile() == m)
            {
                each(id);
            }
        }
        Ok(())
    })
}
