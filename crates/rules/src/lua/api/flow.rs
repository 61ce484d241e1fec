//! Turn flow from a script: reaction windows (`g:open_window`,
//! `g:window`), who acts now (`g:actor`), and phases (`g:phase`,
//! `g:end_phase`).

use mlua::{Table, UserDataMethods, Value as LV};

use super::events::plain_data;
use super::Api;
use crate::base::limits::MAX_WINDOWS as WINDOWS_MAX;
use crate::base::state::Window;
use crate::lua::context::{player_name, with_ctx};
use crate::lua::declared::plain_table;
use crate::lua::limits::{over, Name};

/// Registers the turn-flow methods.
pub(super) fn register_flow<M: UserDataMethods<Api>>(m: &mut M) {
    m.add_method(
        "open_window",
        |lua, _, (name, data): (Name, Option<Table>)| {
            let data = match data {
                Some(t) => plain_data(t)?,
                None => Vec::new(),
            };
            with_ctx(lua, |cx| {
                let kind = cx
                    .variant()
                    .reactions
                    .iter()
                    .position(|r| r.name == *name)
                    .ok_or_else(|| {
                        mlua::Error::runtime(format!("`{}` is not a declared reaction", &*name))
                    })?;
                if cx.state().windows.len() >= WINDOWS_MAX {
                    return Err(over(
                        &format!("at most {WINDOWS_MAX} reaction windows may be open"),
                        WINDOWS_MAX,
                    ));
                }
                cx.state_mut().windows.push(Window {
                    kind: kind as u8,
                    asked: Vec::new(),
                    hold: false,
                    fresh: true,
                    data,
                });
                Ok(())
            })
        },
    );
    m.add_method("window", |lua, _, ()| {
        let open = with_ctx(lua, |cx| {
            Ok(cx.state().windows.last().map(|w| {
                let name = cx.variant().reactions[w.kind as usize].name.clone();
                (name, w.data.clone())
            }))
        })?;
        match open {
            Some((name, data)) => Ok((
                LV::String(lua.create_string(name)?),
                LV::Table(plain_table(lua, &data)?),
            )),
            None => Ok((LV::Nil, LV::Nil)),
        }
    });
    m.add_method("actor", |lua, _, ()| {
        with_ctx(lua, |cx| {
            let s = cx.state();
            let p = match (s.pending.first(), s.windows.last()) {
                (Some(c), _) => c.player,
                (None, Some(w)) => w.asked.first().copied().unwrap_or(s.to_move),
                (None, None) => s.to_move,
            };
            Ok(player_name(cx, p))
        })
    });
    m.add_method("phase", |lua, _, ()| {
        with_ctx(lua, |cx| {
            Ok(cx
                .variant()
                .phases
                .get(cx.state().phase as usize)
                .map(|p| p.name.clone()))
        })
    });
    m.add_method("end_phase", |lua, _, ()| {
        with_ctx(lua, |cx| {
            cx.state_mut().steps.end_phase = true;
            Ok(())
        })
    });
}
