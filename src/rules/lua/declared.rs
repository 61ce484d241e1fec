//! Calling the functions that declared actions and structured choices name
//! in the `rules` table: `rules.<perform>(g, args)` for an action and
//! `rules.<handler>(g, player, option, data)` for a choice's answer.

use std::sync::Arc;

use mlua::{Function, Value as LV};

use super::call;
use super::Rules;
use crate::base::effect::Effect;
use crate::base::state::{Choice, GameState, Plain};
use crate::rules::variant::Variant;

impl Rules {
    /// Whether the script's `rules` table has a function of that name.
    pub fn has_function(&self, name: &str) -> bool {
        matches!(self.table.get::<LV>(name), Ok(LV::Function(_)))
    }

    fn function(&self, name: &str) -> Result<Function, String> {
        match self.table.get::<LV>(name) {
            Ok(LV::Function(f)) => Ok(f),
            _ => Err(format!(
                "{}: the script defines no function rules.{name}",
                self.script_name
            )),
        }
    }

    /// Calls `rules.<name>(g, args)`: `args` maps each parameter to its
    /// cell name.
    pub fn perform_declared(
        &self,
        state: &mut GameState,
        variant: &Arc<Variant>,
        effects: &mut Vec<Effect>,
        name: &str,
        args: &[(&str, String)],
    ) -> Result<(), String> {
        let f = self.function(name)?;
        self.call(&call::DECLARED, state, variant, effects, |lua, api| {
            let t = lua.create_table_with_capacity(0, args.len())?;
            for (k, v) in args {
                t.raw_set(*k, v.as_str())?;
            }
            f.call::<()>((api.clone(), t))
        })
    }

    /// Asks `rules.<name>(g, args)` whether a listed action is legal (the
    /// state is not changed).
    pub fn legal_declared(
        &self,
        state: &GameState,
        variant: &Arc<Variant>,
        name: &str,
        args: &[(&str, String)],
    ) -> Result<bool, String> {
        let f = self.function(name)?;
        self.query(&call::LEGAL, state, variant, |lua, api| {
            let t = lua.create_table_with_capacity(0, args.len())?;
            for (k, v) in args {
                t.raw_set(*k, v.as_str())?;
            }
            Ok(f.call::<Option<bool>>((api.clone(), t))?.unwrap_or(false))
        })
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
        let Some(handler) = &choice.handler else {
            return self.on_choice(state, variant, effects, choice, option);
        };
        let f = self.function(handler)?;
        let player = variant.players[choice.player as usize].clone();
        self.call(&call::HANDLER, state, variant, effects, |lua, api| {
            let t = plain_table(lua, &choice.data)?;
            f.call::<()>((api.clone(), player, option.to_string(), t))
        })
    }
}

/// Plain values as a Lua table (a choice's or a window's data).
pub(super) fn plain_table(lua: &mlua::Lua, data: &[(String, Plain)]) -> mlua::Result<mlua::Table> {
    let t = lua.create_table_with_capacity(0, data.len())?;
    for (k, v) in data {
        match v {
            Plain::Bool(b) => t.raw_set(k.as_str(), *b)?,
            Plain::Int(i) => t.raw_set(k.as_str(), *i)?,
            Plain::Text(s) => t.raw_set(k.as_str(), s.as_str())?,
        }
    }
    Ok(t)
}
