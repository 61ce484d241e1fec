//! After the scripts load, nothing they can reach may change: every table
//! reachable from the globals (libraries, `rules`, `_G` itself), from the
//! string metatable, from metatables and from the upvalues of the scripts'
//! functions becomes read-only; a buffer kept between calls is refused (it
//! cannot be frozen). With the load-time refusal of functions that write a
//! top-level variable (see `bytecode`), a script keeps no state of its own.

use std::collections::HashSet;

use mlua::{Function, Lua, MultiValue, Table, Value as LV};

/// Freezes everything the scripts can reach; an error names what could
/// still change.
pub(super) fn freeze_reachable(lua: &Lua) -> Result<(), String> {
    let mut work: Vec<LV> = vec![LV::Table(lua.globals())];
    let string_meta: Option<Table> = lua
        .load("return getmetatable('')")
        .set_name("=host")
        .eval()
        .map_err(|e| e.to_string())?;
    work.extend(string_meta.map(LV::Table));
    let mut seen = HashSet::new();
    while let Some(v) = work.pop() {
        if !seen.insert(v.to_pointer()) {
            continue;
        }
        match v {
            LV::Table(t) => {
                for pair in t.pairs::<LV, LV>() {
                    let (k, v) = pair.map_err(|e| e.to_string())?;
                    work.extend([k, v].into_iter().filter(worth_visiting));
                }
                work.extend(t.metatable().map(LV::Table));
                t.set_readonly(true);
            }
            LV::Function(f) => work.extend(upvalues(lua, &f)?.into_iter().filter(worth_visiting)),
            LV::Buffer(_) => {
                return Err(
                    "a buffer made at load time and kept (in a top-level local or a \
                            table) is state the game cannot see: make it inside the hook"
                        .into(),
                )
            }
            _ => {}
        }
    }
    Ok(())
}

fn worth_visiting(v: &LV) -> bool {
    matches!(v, LV::Table(_) | LV::Function(_) | LV::Buffer(_))
}

/// The upvalues of a Lua function (none for a host function).
fn upvalues(lua: &Lua, f: &Function) -> Result<Vec<LV>, String> {
    // SAFETY: reads the upvalues of the function passed as the only
    // argument, pushing each; `lua_getupvalue` returns null past the last.
    let vals: MultiValue = unsafe {
        lua.exec_raw(f.clone(), |state| {
            if mlua::ffi::lua_iscfunction(state, 1) != 0 {
                mlua::ffi::lua_settop(state, 0);
                return;
            }
            let mut n = 1;
            while mlua::ffi::lua_checkstack(state, 2) != 0
                && !mlua::ffi::lua_getupvalue(state, 1, n).is_null()
            {
                n += 1;
            }
            mlua::ffi::lua_remove(state, 1);
        })
    }
    .map_err(|e| e.to_string())?;
    Ok(vals.into_vec())
}
