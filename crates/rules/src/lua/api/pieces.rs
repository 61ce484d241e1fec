//! Finding pieces and handing them to scripts as tables: `g:piece`,
//! `g:piece_at`, `g:pieces`, `g:count` (with their filter), `g:container`,
//! and `g:declared_strike` (the declared table's answer for two pieces).

use mlua::{Lua, Table, UserDataMethods, Value as LV};

use super::Api;
use crate::base::cell_set::maybe_occupied;
use crate::base::effect::Strike;
use crate::base::state::PieceId;
use crate::lua::context::{check_piece, known_keys, parse_cell, parse_player, with_ctx, PieceArg};
use crate::lua::limits::Name;
use crate::lua::prelude::{piece_list, piece_table};

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
    // The declared `strike:` table's answer for two pieces, so that a
    // script's `rules.strike` deviates only where its rule does.
    m.add_method("declared_strike", |lua, _, (a, d): (PieceArg, PieceArg)| {
        with_ctx(lua, |cx| {
            let (a, d) = (check_piece(cx, a)?, check_piece(cx, d)?);
            let v = cx.variant();
            let r = v.strike.as_ref().map_or(Strike::AttackerWins, |t| {
                t.resolve(cx.state(), &v.kinds, a, d)
            });
            Ok(r.as_str())
        })
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
/// picks, in cell order; another key is an error (`method` names the
/// call).
fn filtered_pieces(
    lua: &Lua,
    method: &str,
    filter: Option<Table>,
    mut each: impl FnMut(PieceId),
) -> mlua::Result<()> {
    // The filter's fields, read in one pass over the table (a plain
    // table: no metamethods are consulted).
    let (mut owner, mut kind, mut mobile, mut attr) = (None, None, None, None);
    if let Some(f) = &filter {
        let mut unknown = false;
        f.for_each::<LV, LV>(|k, v| {
            let LV::String(key) = &k else {
                unknown = true;
                return Ok(());
            };
            match &key.as_bytes()[..] {
                b"owner" => owner = lua.unpack::<Option<mlua::LuaString>>(v)?,
                b"kind" => kind = lua.unpack::<Option<mlua::LuaString>>(v)?,
                b"mobile" => mobile = lua.unpack::<Option<bool>>(v)?,
                b"attr" => attr = lua.unpack::<Option<mlua::LuaString>>(v)?,
                _ => unknown = true,
            }
            Ok(())
        })?;
        if unknown {
            known_keys(f, &format_args!("{method}'s filter"), &FILTER_KEYS)?;
        }
    }
    with_ctx(lua, |cx| {
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
        let attr = attr
            .map(|a| a.to_str().map(|s| s.to_string()))
            .transpose()?;
        let (state, variant) = (cx.state(), cx.variant());
        // The cells that may hold such a piece, from the occupancy masks.
        let cells = match owner {
            Some(o) => state.owned_by_wide(o),
            None => state.occupied_wide(),
        };
        for c in maybe_occupied(cells, state.board().len()) {
            let Some(id) = state.board()[c] else { continue };
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
