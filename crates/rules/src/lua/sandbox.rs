//! Making a Luau state safe to run a variant's scripts: its libraries and
//! globals, the read-only globals scripts read, the instruction budget
//! (see `budget`) and the memory limit.

use mlua::{Lua, LuaOptions, MultiValue, StdLib, Table, Value as LV};
use rand::Rng;

use super::context::{value_to_lua, CallCtx};
use super::limits::TEXT_MAX;
use super::{api, budget, Facts, DEFAULT_MEMORY};
use crate::variant::Value;

/// The compiler scripts and typed Lua go through.
pub(super) fn compiler() -> mlua::chunk::Compiler {
    mlua::chunk::Compiler::new()
        .set_optimization_level(2)
        .set_type_info_level(1)
}

/// A Luau state with only the safe libraries, the optimizing compiler, an
/// idle call context and the budget interrupt. Chunks run as bytecode
/// (the host's own, typed lines); the variant's scripts are compiled to
/// machine code where the platform allows (see `load`).
pub(super) fn new_state() -> mlua::Result<Lua> {
    let libs =
        StdLib::MATH | StdLib::STRING | StdLib::TABLE | StdLib::UTF8 | StdLib::BIT | StdLib::BUFFER;
    let lua = Lua::new_with(libs, LuaOptions::default())?;
    lua.enable_jit(false);
    lua.set_compiler(compiler());
    lua.set_app_data(CallCtx::idle());
    budget::install(&lua)?;
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
    g.raw_set("print", lua.create_function(print)?)?;
    budget::install_protected_calls(lua)?;
    Ok(())
}

/// `print(...)`: a log line of the running call (its values as `tostring`
/// shows them, tab-separated, control characters escaped); nothing at load
/// time, where there is no game to log to.
fn print(lua: &Lua, args: MultiValue) -> mlua::Result<()> {
    let mut line = String::new();
    for (i, v) in args.iter().enumerate() {
        if i > 0 {
            line.push('\t');
        }
        match v {
            LV::String(s) => {
                let b = s.as_bytes();
                line.push_str(&String::from_utf8_lossy(&b[..b.len().min(TEXT_MAX)]));
            }
            other => line.push_str(&other.to_string()?),
        }
        if line.len() > TEXT_MAX {
            let mut end = TEXT_MAX;
            while !line.is_char_boundary(end) {
                end -= 1;
            }
            line.truncate(end);
            line.push('…');
            break;
        }
    }
    budget::charge_bytes(line.len())?;
    match lua.app_data_mut::<CallCtx>().filter(|cx| cx.active()) {
        Some(mut cx) => api::note(&mut cx, &line),
        None => Ok(()),
    }
}

/// The globals a script starts with: an empty `rules` table to fill, and
/// the read-only `options`, `kinds`, `players`, `board` and `tokens`.
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
    // `tokens.<name>`: the token's attributes, and its `name`.
    let tokens = lua.create_table()?;
    for t in &facts.tokens {
        let attrs = lua.create_table()?;
        for (k, v) in &t.attrs {
            attrs.set(k.as_str(), value_to_lua(lua, v)?)?;
        }
        attrs.set("name", t.name.as_str())?;
        attrs.set_readonly(true);
        tokens.set(t.name.as_str(), attrs)?;
    }
    tokens.set_readonly(true);
    g.set("tokens", tokens)?;
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

/// After the scripts load: everything they can reach becomes read-only
/// (see `freeze`), so a script keeps no state of its own between calls.
pub(super) fn lock(lua: &Lua) -> Result<(), String> {
    super::freeze::freeze_reachable(lua)
}
