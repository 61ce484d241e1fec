//! Cell marks: named facts on cells, each with its own visibility
//! (`g:set_mark`, `g:mark`, `g:clear_mark`, `g:marked`, `g:reveal_mark`).

use mlua::{UserDataMethods, Value as LV};

use super::Api;
use crate::base::state::Mark;
use crate::rules::lua::context::{parse_cell, to_player_set, with_ctx};
use crate::rules::lua::limits::{over, Name, Text, MARKS_MAX};

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
            Ok(cx.state().marks.get(&(c, name.0)).map(|m| m.value.clone()))
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
        let list = with_ctx(lua, |cx| {
            let b = &cx.variant().board;
            Ok(cx
                .state()
                .marks
                .iter()
                .filter(|((_, n), _)| *n == *name)
                .map(|((c, _), m)| (b.cell_name(*c), m.value.clone()))
                .collect::<Vec<_>>())
        })?;
        let t = lua.create_table()?;
        for (c, v) in list {
            t.set(c, v)?;
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
