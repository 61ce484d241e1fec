//! Numbers rules keep and pieces' own properties: counters per player and
//! per cell, a piece's attributes and its kind.

use mlua::UserDataMethods;

use super::Api;
use crate::rules::lua::context::{check_piece, parse_cell, parse_player, with_ctx};

/// Registers the counter, attribute and kind methods.
pub(super) fn register_counters<M: UserDataMethods<Api>>(m: &mut M) {
    m.add_method(
        "counter",
        |lua, _, (name, player): (String, Option<String>)| {
            with_ctx(lua, |cx| {
                let p = player.as_deref().map(|p| parse_player(cx, p)).transpose()?;
                Ok(cx.state().counter(&name, p))
            })
        },
    );
    m.add_method(
        "set_counter",
        |lua, _, (name, value, player): (String, i64, Option<String>)| {
            with_ctx(lua, |cx| {
                let p = player.as_deref().map(|p| parse_player(cx, p)).transpose()?;
                cx.state_mut().set_counter(&name, p, value);
                Ok(())
            })
        },
    );
    m.add_method("cell_counter", |lua, _, (name, cell): (String, String)| {
        with_ctx(lua, |cx| {
            let c = parse_cell(cx, &cell)?;
            Ok(cx.state().cell_counter(&name, c))
        })
    });
    m.add_method(
        "set_cell_counter",
        |lua, _, (name, cell, value): (String, String, i64)| {
            with_ctx(lua, |cx| {
                let c = parse_cell(cx, &cell)?;
                cx.state_mut().set_cell_counter(&name, c, value);
                Ok(())
            })
        },
    );
    m.add_method(
        "set_attr",
        |lua, _, (id, name, value): (u32, String, i64)| {
            with_ctx(lua, |cx| {
                let id = check_piece(cx, id)?;
                let attrs = &mut cx.state_mut().pieces[id as usize].attrs;
                match attrs.iter_mut().find(|(k, _)| *k == name) {
                    Some(slot) => slot.1 = value,
                    None => {
                        attrs.push((name, value));
                        attrs.sort();
                    }
                }
                Ok(())
            })
        },
    );
    m.add_method("clear_attr", |lua, _, (id, name): (u32, String)| {
        with_ctx(lua, |cx| {
            let id = check_piece(cx, id)?;
            cx.state_mut().pieces[id as usize]
                .attrs
                .retain(|(k, _)| *k != name);
            Ok(())
        })
    });
    m.add_method("set_kind", |lua, _, (id, kind): (u32, String)| {
        with_ctx(lua, |cx| {
            let id = check_piece(cx, id)?;
            let k = cx
                .variant()
                .kind_index(&kind)
                .ok_or_else(|| mlua::Error::runtime(format!("`{kind}` is no piece kind")))?;
            cx.state_mut().set_kind(id, k as crate::base::state::KindId);
            Ok(())
        })
    });
}
