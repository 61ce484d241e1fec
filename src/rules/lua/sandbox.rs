//! Making a Luau state safe to run a variant's scripts: its libraries and
//! globals, the read-only globals scripts read, the instruction budget and
//! the memory limit.

use mlua::{Lua, LuaOptions, StdLib, Table, Value as LV};
use rand::Rng;

use super::context::{value_to_lua, CallCtx};
use super::{Facts, DEFAULT_BUDGET, DEFAULT_MEMORY};
use crate::rules::variant::Value;

thread_local! {
    /// Interrupt ticks left to the hook call running on this thread (each
    /// call sets it; calls on one Lua state always run on the calling
    /// thread).
    pub(super) static TICKS: std::cell::Cell<i64> = const { std::cell::Cell::new(DEFAULT_BUDGET) };
}

/// Luau's interrupt (at calls and loop back-edges): counts a tick and
/// raises a Lua error when the call's budget is spent. A plain function on
/// a thread-local counter, because it runs many millions of times.
unsafe extern "C-unwind" fn budget_interrupt(
    state: *mut mlua::ffi::lua_State,
    gc: std::ffi::c_int,
) {
    if gc >= 0 {
        return; // a garbage-collector step, not a safepoint
    }
    let left = TICKS.with(|t| {
        let v = t.get() - 1;
        t.set(v);
        v
    });
    if left < 0 {
        // Room for the error to be handled; the next call resets it.
        TICKS.with(|t| t.set(DEFAULT_BUDGET));
        // SAFETY: raising a Lua error from the interrupt is how Luau aborts
        // a running script; it unwinds to the protected call.
        unsafe {
            mlua::ffi::luaL_error(
                state,
                c"instruction budget exceeded (a runaway loop?)".as_ptr(),
            )
        }
    }
}

/// A Luau state with only the safe libraries, the optimizing compiler, an
/// idle call context and the budget interrupt.
pub(super) fn new_state() -> mlua::Result<Lua> {
    let libs =
        StdLib::MATH | StdLib::STRING | StdLib::TABLE | StdLib::UTF8 | StdLib::BIT | StdLib::BUFFER;
    let lua = Lua::new_with(libs, LuaOptions::default())?;
    lua.set_compiler(mlua::chunk::Compiler::new().set_optimization_level(2));
    lua.set_app_data(CallCtx::idle());
    // SAFETY: installs a plain C interrupt on this state's callbacks;
    // `budget_interrupt` touches only a thread-local counter.
    unsafe {
        lua.exec_raw::<()>((), |state| {
            (*mlua::ffi::lua_callbacks(state)).interrupt = Some(budget_interrupt);
        })
    }?;
    Ok(lua)
}

/// Removes the globals that reach outside the sandbox, and makes
/// `math.random` draw from the game's seeded generator.
pub(super) fn restrict_globals(lua: &Lua) -> mlua::Result<()> {
    let g = lua.globals();
    for name in [
        "require",
        "load",
        "loadstring",
        "dofile",
        "loadfile",
        "getfenv",
        "setfenv",
        "collectgarbage",
        "newproxy",
        "gcinfo",
        "debug",
        "io",
        "os",
    ] {
        g.raw_set(name, LV::Nil)?;
    }
    let math: Table = g.get("math")?;
    math.set(
        "random",
        lua.create_function(|lua, (m, n): (Option<i64>, Option<i64>)| {
            let mut cx = lua
                .app_data_mut::<CallCtx>()
                .filter(|cx| cx.active())
                .ok_or_else(|| {
                    mlua::Error::runtime("math.random is only available inside a rule call")
                })?;
            let rng = &mut cx.state_mut().rng;
            Ok(match (m, n) {
                (None, _) => LV::Number(rng.random::<f64>()),
                (Some(m), None) if m >= 1 => LV::Integer(rng.random_range(1..=m)),
                (Some(m), Some(n)) if m <= n => LV::Integer(rng.random_range(m..=n)),
                _ => return Err(mlua::Error::runtime("math.random: interval is empty")),
            })
        })?,
    )?;
    math.set("randomseed", LV::Nil)?;
    Ok(())
}

/// The globals a script starts with: an empty `rules` table to fill, and
/// the read-only `options`, `kinds`, `players` and `board`.
pub(super) fn set_globals(
    lua: &Lua,
    options: &[(String, Value)],
    facts: &Facts,
) -> mlua::Result<()> {
    let g = lua.globals();
    let rules = lua.create_table()?;
    g.set("rules", rules)?;
    let opts = lua.create_table()?;
    for (k, v) in options {
        opts.set(k.as_str(), value_to_lua(lua, v)?)?;
    }
    opts.set_readonly(true);
    g.set("options", opts)?;
    let kinds = lua.create_table()?;
    for (i, k) in facts.kinds.iter().enumerate() {
        kinds.set(k.as_str(), i + 1)?;
    }
    kinds.set_readonly(true);
    g.set("kinds", kinds)?;
    let players = lua.create_table()?;
    for (i, p) in facts.players.iter().enumerate() {
        players.set(p.as_str(), i + 1)?;
    }
    players.set_readonly(true);
    g.set("players", players)?;
    let board = lua.create_table()?;
    board.set("files", facts.files)?;
    board.set("ranks", facts.ranks)?;
    board.set_readonly(true);
    g.set("board", board)?;
    Ok(())
}

/// Before the scripts load: the memory limit, and the standard globals are
/// final from here (scripts cannot write globals once loaded), so Luau may
/// use its fast paths for builtins (`buffer.readu8`, `ipairs`, `math.*`
/// called inline).
pub(super) fn seal(lua: &Lua) -> mlua::Result<()> {
    lua.set_memory_limit(DEFAULT_MEMORY)?;
    lua.globals().set_safeenv(true);
    Ok(())
}

/// After the scripts load: `rules` and the globals become read-only, so a
/// script keeps no state of its own between calls.
pub(super) fn lock(lua: &Lua, rules: &Table) {
    rules.set_readonly(true);
    lua.globals().set_readonly(true);
}
