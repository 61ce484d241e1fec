//! Calling the functions that declared actions and structured choices name
//! in the `rules` table: `rules.<perform>(g, args)` for an action and
//! `rules.<handler>(g, player, option, data)` for a choice's answer.

use std::sync::Arc;

use mlua::{Function, Lua, Value as LV};

use super::call;
use super::context::with_ctx;
use super::Rules;
use crate::base::effect::Effect;
use crate::base::geometry::Cell;
use crate::base::state::{Choice, GameState, Plain};
use crate::variant::Variant;

impl Rules {
    /// Whether the script's `rules` table has a function of that name.
    pub fn has_function(&self, name: &str) -> bool {
        matches!(self.table.get::<LV>(name), Ok(LV::Function(_)))
    }

    /// `rules.<name>`: as the scripts left it when they loaded (looked up
    /// once), else as it is now.
    fn function(&self, name: &str) -> Result<Function, String> {
        if let Some(f) = self.functions.get(name) {
            return Ok(f.clone());
        }
        match self.table.get::<LV>(name) {
            Ok(LV::Function(f)) => Ok(f),
            _ => Err(format!(
                "{}: the script defines no function rules.{name}",
                self.script_name
            )),
        }
    }

    /// Calls `rules.<name>(g, args)`: `args` maps each parameter's name to
    /// its cell (at most two), given as cell names.
    pub fn perform_declared(
        &self,
        state: &mut GameState,
        variant: &Arc<Variant>,
        effects: &mut Vec<Effect>,
        name: &str,
        args: &[(&str, Cell)],
    ) -> Result<(), String> {
        let f = self.function(name)?;
        self.call(&call::DECLARED, state, variant, effects, |lua, api| {
            declared_call(lua, api, f, args)
        })
    }

    /// Asks `rules.<name>(g, args)` whether a listed action is legal (the
    /// state is not changed): `Ok(None)` when it is (the hook returned
    /// true), else `Ok(Some(reason))`, the reason the hook returned instead
    /// of false (empty for false or nil).
    pub fn legal_declared(
        &self,
        state: &GameState,
        variant: &Arc<Variant>,
        name: &str,
        args: &[(&str, Cell)],
    ) -> Result<Option<String>, String> {
        let f = self.function(name)?;
        // A wrong answer has no line of its own: the error names where the
        // function is defined (as a hook's does).
        let at = call::function_at(&f).unwrap_or_else(|| self.script_name.clone());
        self.query(
            &call::LEGAL,
            state,
            variant,
            |lua, api| match declared_call::<mlua::Value>(lua, api, f, args)? {
                mlua::Value::Boolean(true) => Ok(None),
                mlua::Value::Boolean(false) | mlua::Value::Nil => Ok(Some(String::new())),
                mlua::Value::String(r) => {
                    Ok(Some(super::limits::escape(&r.to_str()?).into_owned()))
                }
                other => {
                    let ty = other.type_name();
                    let a = if ty.starts_with(['a', 'e', 'i', 'o', 'u']) {
                        "an"
                    } else {
                        "a"
                    };
                    Err(mlua::Error::runtime(format!(
                        "{at}: rules.{name} must return true, false or a reason (a string), not {a} {ty}"
                    )))
                }
            },
        )
    }

    /// Calls `rules.<name>(g, data)` (a window's `on_pass`) or, with
    /// `arg`, `rules.<name>(g, arg)` (a phase's name); `data` becomes a
    /// table of plain values.
    pub fn call_with_data(
        &self,
        state: &mut GameState,
        variant: &Arc<Variant>,
        effects: &mut Vec<Effect>,
        name: &str,
        data: &[(String, Plain)],
        arg: Option<&str>,
    ) -> Result<(), String> {
        let f = self.function(name)?;
        self.call(&call::FLOW, state, variant, effects, |lua, api| match arg {
            Some(a) => f.call::<()>((api.clone(), a.to_string())),
            None => f.call::<()>((api.clone(), plain_table(lua, data)?)),
        })
    }

    /// Hands a choice's answer to its handler:
    /// `rules.<handler>(g, player, option, data)`.
    pub fn answer_choice(
        &self,
        state: &mut GameState,
        variant: &Arc<Variant>,
        effects: &mut Vec<Effect>,
        choice: &Choice,
        option: &str,
    ) -> Result<(), String> {
        // The turn stays as it would have where the choice was asked.
        if !choice.passes_turn {
            state.set_hold_turn(true);
        }
        let Some(handler) = &choice.handler else {
            return self.on_choice(state, variant, effects, choice, option);
        };
        let f = self.function(handler)?;
        self.call(&call::HANDLER, state, variant, effects, |lua, api| {
            // Strings made once: the player and the option (the data too).
            let (player, option) = with_ctx(lua, |cx| {
                let names = cx.names_mut();
                let player = match names.players.get(choice.player as usize) {
                    Some(p) => p.clone(),
                    None => names.intern(lua, &variant.players[choice.player as usize])?,
                };
                Ok((player, names.intern(lua, option)?))
            })?;
            let t = plain_table(lua, &choice.data)?;
            f.call::<()>((api.clone(), player, option, t))
        })
    }
}

/// Calls `f(g, args)` through the prelude, which builds `args` from the
/// parameters' names and cell indices.
fn declared_call<R: mlua::FromLuaMulti>(
    lua: &Lua,
    api: &mlua::AnyUserData,
    f: Function,
    args: &[(&str, Cell)],
) -> mlua::Result<R> {
    let (builder, keys) = with_ctx(lua, |cx| {
        let names = cx.names_mut();
        let known = args.iter().all(|(_, c)| (*c as usize) < names.cells.len());
        let mut keys = Vec::with_capacity(args.len());
        for (k, _) in args {
            keys.push(names.intern(lua, k)?);
        }
        Ok((
            (known && args.len() <= 2).then(|| names.declared.clone()),
            keys,
        ))
    })?;
    let cell = |i: usize| args.get(i).map(|a| a.1);
    if let Some(b) = builder {
        return b.call((
            f,
            api.clone(),
            keys.first().cloned(),
            cell(0),
            keys.get(1).cloned(),
            cell(1),
        ));
    }
    let t = lua.create_table_with_capacity(0, args.len())?;
    for (k, (_, c)) in keys.into_iter().zip(args) {
        let name = with_ctx(lua, |cx| Ok(cx.variant().board.cell_name(*c)))?;
        t.raw_set(k, name)?;
    }
    f.call((api.clone(), t))
}

/// Plain values as a Lua table (a choice's or a window's data), its
/// strings made once.
pub(super) fn plain_table(lua: &Lua, data: &[(String, Plain)]) -> mlua::Result<mlua::Table> {
    let pairs = with_ctx(lua, |cx| {
        let names = cx.names_mut();
        let mut pairs = Vec::with_capacity(data.len());
        for (k, v) in data {
            pairs.push((names.intern(lua, k)?, plain_lua(lua, names, v)?));
        }
        Ok(pairs)
    })?;
    let t = lua.create_table_with_capacity(0, pairs.len())?;
    for (k, v) in pairs {
        t.raw_set(k, v)?;
    }
    Ok(t)
}

/// One plain value as Lua sees it: lists become sequences, maps tables.
fn plain_lua(lua: &Lua, names: &mut super::context::Names, v: &Plain) -> mlua::Result<LV> {
    Ok(match v {
        Plain::Bool(b) => LV::Boolean(*b),
        Plain::Int(i) => LV::Integer(*i),
        Plain::Text(s) => LV::String(names.intern(lua, s)?),
        Plain::List(items) => {
            let t = lua.create_table_with_capacity(items.len(), 0)?;
            for (i, x) in items.iter().enumerate() {
                t.raw_set(i + 1, plain_lua(lua, names, x)?)?;
            }
            LV::Table(t)
        }
        Plain::Map(m) => {
            let t = lua.create_table_with_capacity(0, m.len())?;
            for (k, x) in m {
                t.raw_set(names.intern(lua, k)?, plain_lua(lua, names, x)?)?;
            }
            LV::Table(t)
        }
    })
}
