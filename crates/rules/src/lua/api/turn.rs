//! Whose turn it is and what game this is: `g:player`, `g:players`, `g:ply`,
//! `g:option`, `g:continue_turn`, `g:turn_order`, and the turn's steps (`g:note_turn`,
//! `g:turn_noted`, `g:close_actions`, `g:turn_actions`).

use mlua::{UserDataMethods, Value as LV};

use super::Api;
use crate::lua::context::{parse_player, player_name, value_to_lua, with_ctx};
use crate::lua::limits::Name;

/// Registers the turn and game methods.
pub(super) fn register_turn<M: UserDataMethods<Api>>(m: &mut M) {
    m.add_method("player", |lua, _, ()| {
        with_ctx(lua, |cx| {
            let p = cx.state().to_move;
            match cx.names().players.get(p as usize) {
                Some(s) => Ok(LV::String(s.clone())),
                None => lua.create_string(player_name(cx, p)).map(LV::String),
            }
        })
    });
    m.add_method("players", |lua, _, ()| {
        // A new list each call (the script may change it), of the names
        // made once, filled without copying their handles.
        with_ctx(lua, |cx| {
            let names = &cx.names().players;
            let list = lua.create_table_with_capacity(names.len(), 0)?;
            for (i, name) in names.iter().enumerate() {
                list.raw_set(i + 1, name)?;
            }
            Ok(list)
        })
    });
    m.add_method("ply", |lua, _, ()| with_ctx(lua, |cx| Ok(cx.state().ply)));
    m.add_method("option", |lua, _, name: Name| {
        let v = with_ctx(lua, |cx| {
            cx.variant()
                .option(&name)
                .cloned()
                .ok_or_else(|| mlua::Error::runtime(format!("unknown option `{name}`")))
        })?;
        value_to_lua(lua, &v)
    });
    m.add_method("continue_turn", |lua, _, ()| {
        with_ctx(lua, |cx| {
            cx.state_mut().set_hold_turn(true);
            Ok(())
        })
    });
    m.add_method("note_turn", |lua, _, name: Name| {
        with_ctx(lua, |cx| {
            let notes = &mut cx.state_mut().steps.notes;
            if !notes.iter().any(|n| *n == *name) {
                if notes.len() >= 32 {
                    return Err(mlua::Error::runtime("a turn keeps at most 32 notes"));
                }
                notes.push(name.0.clone());
            }
            Ok(())
        })
    });
    m.add_method("turn_noted", |lua, _, name: Name| {
        with_ctx(lua, |cx| {
            Ok(cx.state().steps.notes.iter().any(|n| *n == *name))
        })
    });
    m.add_method("close_actions", |lua, _, ()| {
        with_ctx(lua, |cx| {
            cx.state_mut().steps.closed = true;
            Ok(())
        })
    });
    m.add_method("turn_actions", |lua, _, ()| {
        with_ctx(lua, |cx| Ok(cx.state().steps.actions))
    });
    m.add_method("turn_order", |lua, _, from: Option<Name>| {
        with_ctx(lua, |cx| {
            let start = match from.as_deref() {
                Some(p) => parse_player(cx, p)?,
                None => cx.state().to_move,
            };
            let s = cx.state();
            let n = s.players.max(1);
            Ok((0..n)
                .map(|i| (start + i) % n)
                .filter(|q| s.eliminated & (1 << q) == 0)
                .map(|q| player_name(cx, q))
                .collect::<Vec<_>>())
        })
    });
}
