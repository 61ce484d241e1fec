//! Cell marks: named facts on cells, each with its own visibility
//! (`g:set_mark`, `g:mark`, `g:clear_mark`, `g:marked`, `g:reveal_mark`).

use mlua::{Table, UserDataMethods, Value as LV};

use super::Api;
use crate::base::geometry::Cell;
use crate::base::state::Mark;
use crate::lua::context::{parse_cell, to_player_set, with_ctx};
use crate::lua::limits::{over, Name, Text, MARKS_MAX};
use crate::lua::prelude::BUILD_MAX;

/// Registers the mark methods.
pub(super) fn register_marks<M: UserDataMethods<Api>>(m: &mut M) {
    m.add_method(
        "set_mark",
        |lua, _, (cell, name, value, known): (Name, Name, Text, Option<LV>)| {
            let known = match known {
                Some(LV::String(s)) if s.to_str()? == "none" => 0,
                Some(v) => to_player_set(lua, &v)?,
                None => with_ctx(lua, |cx| Ok(cx.state().all_players()))?,
            };
            with_ctx(lua, |cx| {
                let c = parse_cell(cx, &cell)?;
                let key = (c, name.0);
                let s = cx.state();
                if s.marks.len() >= MARKS_MAX && !s.marks.contains_key(&key) {
                    return Err(over(
                        &format!("a game has at most {MARKS_MAX} marks"),
                        MARKS_MAX,
                    ));
                }
                cx.state_mut().marks.insert(
                    key,
                    Mark {
                        value: value.0,
                        known_by: known,
                    },
                );
                Ok(())
            })
        },
    );
    m.add_method("mark", |lua, _, (cell, name): (Name, Name)| {
        with_ctx(lua, |cx| {
            let c = parse_cell(cx, &cell)?;
            let Some(m) = cx.state().marks.get(&(c, name.0)) else {
                return Ok(None);
            };
            let v = m.value.clone();
            cx.names_mut().intern(lua, &v).map(Some)
        })
    });
    m.add_method("clear_mark", |lua, _, (cell, name): (Name, Name)| {
        with_ctx(lua, |cx| {
            let c = parse_cell(cx, &cell)?;
            cx.state_mut().marks.remove(&(c, name.0));
            Ok(())
        })
    });
    m.add_method("marked", |lua, _, name: Name| {
        // Built inside Luau from cell indices and values made once.
        let (args, cells) = with_ctx(lua, |cx| {
            let list: Vec<(Cell, String)> = cx
                .state()
                .marks
                .iter()
                .filter(|((_, n), _)| *n == *name)
                .map(|((c, _), m)| (*c, m.value.clone()))
                .collect();
            let mut args = Vec::with_capacity(2 * list.len() + 1);
            args.push(LV::Integer(list.len() as i64));
            for (c, _) in &list {
                args.push(LV::Integer(*c as i64));
            }
            for (_, v) in &list {
                args.push(LV::String(cx.names_mut().intern(lua, v)?));
            }
            let n = cx.names();
            let fast =
                list.len() <= BUILD_MAX && list.iter().all(|(c, _)| (*c as usize) < n.cells.len());
            Ok((fast.then(|| (args, n.cell_map.clone())), list))
        })?;
        if let Some((args, f)) = args {
            return f.call::<Table>(mlua::Variadic::from_iter(args));
        }
        let t = lua.create_table()?;
        let b = with_ctx(lua, |cx| Ok(cx.variant().board.clone()))?;
        for (c, v) in cells {
            t.set(b.cell_name(c), v)?;
        }
        Ok(t)
    });
    m.add_method(
        "reveal_mark",
        |lua, _, (cell, name, to): (Name, Name, LV)| {
            let to = to_player_set(lua, &to)?;
            with_ctx(lua, |cx| {
                let c = parse_cell(cx, &cell)?;
                if let Some(m) = cx.state_mut().marks.get_mut(&(c, name.0)) {
                    m.known_by |= to;
                }
                Ok(())
            })
        },
    );
}
