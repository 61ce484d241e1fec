//! Numbers rules keep and pieces' own properties: counters per player and
//! per cell, a piece's attributes and its kind.

use mlua::UserDataMethods;

use super::Api;
use crate::lua::context::{check_piece, parse_cell, parse_player, with_ctx, PieceArg};
use crate::lua::limits::{over, Name, ATTRS_MAX, CELL_COUNTERS_MAX, COUNTERS_MAX};

/// Registers the counter, attribute and kind methods.
pub(super) fn register_counters<M: UserDataMethods<Api>>(m: &mut M) {
    m.add_method("counter", |lua, _, (name, player): (Name, Option<Name>)| {
        with_ctx(lua, |cx| {
            let p = player.as_deref().map(|p| parse_player(cx, p)).transpose()?;
            Ok(cx.state().counter(&name, p))
        })
    });
    m.add_method(
        "set_counter",
        |lua, _, (name, value, player): (Name, i64, Option<Name>)| {
            with_ctx(lua, |cx| {
                let p = player.as_deref().map(|p| parse_player(cx, p)).transpose()?;
                let s = cx.state();
                if value != 0
                    && s.counters.get(&name, p).is_none()
                    && s.counters.iter().count() >= COUNTERS_MAX
                {
                    return Err(over(
                        &format!("a game has at most {COUNTERS_MAX} counters"),
                        COUNTERS_MAX,
                    ));
                }
                cx.state_mut().set_counter(&name, p, value);
                Ok(())
            })
        },
    );
    m.add_method("cell_counter", |lua, _, (name, cell): (Name, Name)| {
        with_ctx(lua, |cx| {
            let c = parse_cell(cx, &cell)?;
            Ok(cx.state().cell_counter(&name, c))
        })
    });
    m.add_method(
        "set_cell_counter",
        |lua, _, (name, cell, value): (Name, Name, i64)| {
            with_ctx(lua, |cx| {
                let c = parse_cell(cx, &cell)?;
                let s = cx.state();
                if value != 0
                    && s.cell_counters.len() >= CELL_COUNTERS_MAX
                    && !s.cell_counters.contains(&name, c)
                {
                    return Err(over(
                        &format!("a game has at most {CELL_COUNTERS_MAX} cell counters"),
                        CELL_COUNTERS_MAX,
                    ));
                }
                cx.state_mut().set_cell_counter(&name, c, value);
                Ok(())
            })
        },
    );
    m.add_method(
        "set_attr",
        |lua, _, (id, name, value): (PieceArg, Name, i64)| {
            with_ctx(lua, |cx| {
                let id = check_piece(cx, id)?;
                let attrs = cx.state_mut().attrs_mut(id);
                match attrs.binary_search_by(|(k, _)| k.as_str().cmp(&name)) {
                    Ok(i) => attrs[i].1 = value,
                    Err(_) if attrs.len() >= ATTRS_MAX => {
                        return Err(over(
                            &format!("a piece has at most {ATTRS_MAX} attributes"),
                            ATTRS_MAX,
                        ))
                    }
                    Err(i) => attrs.insert(i, (name.0, value)),
                }
                Ok(())
            })
        },
    );
    m.add_method("clear_attr", |lua, _, (id, name): (PieceArg, Name)| {
        with_ctx(lua, |cx| {
            let id = check_piece(cx, id)?;
            cx.state_mut().attrs_mut(id).retain(|(k, _)| *k != *name);
            Ok(())
        })
    });
    m.add_method("set_kind", |lua, _, (id, kind): (PieceArg, Name)| {
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
