//! One call into Lua on behalf of the engine: pointing the call context at
//! the game state, the call's budget, and turning its error into a message
//! that names the script line and the hook.

use std::sync::Arc;

use mlua::Lua;

use super::budget;
use super::context::CallCtx;
use super::errors::describe_hook_error;
use super::Rules;
use crate::base::effect::Effect;
use crate::base::state::GameState;
use crate::variant::Variant;

/// A hook as errors name it, and what it must answer.
pub(super) struct Hook {
    pub(super) name: &'static str,
    pub(super) returns: &'static str,
}

macro_rules! hooks {
    ($($id:ident = $name:literal returns $returns:literal;)*) => {
        $(pub(super) const $id: Hook = Hook { name: $name, returns: $returns };)*
    };
}

// The calls that are not hooks of the `rules` table (those are
// `hooks::RuleHook`, each with its `Hook`).
hooks! {
    DECLARED = "a declared action's rules function" returns "nothing";
    HANDLER = "a choice's handler" returns "nothing";
    FLOW = "a turn-flow hook (window, phase or turn)" returns "nothing";
    LEGAL = "a declared action's legal filter" returns "a boolean";
    EVAL = "typed Lua" returns "any values";
}

impl Rules {
    /// Runs `f` in a call that may change `state` (callers work on a copy:
    /// on error its contents may be partly changed).
    pub(super) fn call<R>(
        &self,
        hook: &Hook,
        state: &mut GameState,
        variant: &Arc<Variant>,
        effects: &mut Vec<Effect>,
        f: impl FnOnce(&Lua, &mlua::AnyUserData) -> mlua::Result<R>,
    ) -> Result<R, String> {
        self.enter(hook, state, true, variant, effects, f)
    }

    /// Runs a question against a state without changing it: the hook works
    /// on a scratch copy, so whatever it writes is discarded.
    pub(super) fn query<R>(
        &self,
        hook: &Hook,
        state: &GameState,
        variant: &Arc<Variant>,
        f: impl FnOnce(&Lua, &mlua::AnyUserData) -> mlua::Result<R>,
    ) -> Result<R, String> {
        let mut effects = Vec::new();
        let target = state as *const GameState as *mut GameState;
        self.enter(hook, target, false, variant, &mut effects, f)
    }

    /// Points the call context at `state` for one hook call (`writable`: the
    /// hook may change it; else changes go to a private copy), runs `f`, and
    /// puts the context back as it was. Calls may nest (a host function
    /// that asks the engine, which asks a hook): a nested call spends the
    /// budget of the call it is part of.
    fn enter<R>(
        &self,
        hook: &Hook,
        state: *mut GameState,
        writable: bool,
        variant: &Arc<Variant>,
        effects: &mut Vec<Effect>,
        f: impl FnOnce(&Lua, &mlua::AnyUserData) -> mlua::Result<R>,
    ) -> Result<R, String> {
        let saved = {
            let mut cx = self.lua.app_data_mut::<CallCtx>().expect("call context");
            if !cx.variant.as_ref().is_some_and(|v| Arc::ptr_eq(v, variant)) {
                cx.variant = Some(variant.clone());
            }
            (
                std::mem::replace(&mut cx.target, state),
                std::mem::replace(&mut cx.writable, writable),
                cx.scratch.take(),
                std::mem::replace(&mut cx.effects, std::mem::take(effects)),
                std::mem::replace(&mut cx.notes, 0),
            )
        };
        let outermost = saved.0.is_null();
        let given = budget::call_budget(self.budget_per_call);
        if outermost {
            budget::start_short(given, given < self.budget_per_call);
        }
        let result = f(&self.lua, &self.api);
        if outermost {
            budget::spent_of_action(given);
        }
        {
            let mut cx = self.lua.app_data_mut::<CallCtx>().expect("call context");
            cx.target = saved.0;
            cx.writable = saved.1;
            cx.scratch = saved.2;
            *effects = std::mem::replace(&mut cx.effects, saved.3);
            cx.notes = saved.4;
        }
        result.map_err(|e| {
            if outermost && budget::spent() {
                // What a runaway call left behind, before the next call
                // counts it against the memory limit.
                self.lua.gc_collect().ok();
            }
            describe_hook_error(&e, &self.script_names, hook, || self.defined_at(hook))
        })
    }

    /// Where the hook's function is defined (`scripts/x.lua:12`), for
    /// errors about its answer, which have no line of their own.
    pub(super) fn defined_at(&self, hook: &Hook) -> Option<String> {
        let name = hook.name.strip_prefix("rules.")?;
        let f: mlua::Function = self.table.get(name).ok()?;
        function_at(&f)
    }
}

/// Where a script function is defined (`scripts/x.lua:12`).
pub(super) fn function_at(f: &mlua::Function) -> Option<String> {
    let info = f.info();
    let source = info.source?;
    Some(format!(
        "{}:{}",
        source.strip_prefix('@')?,
        info.line_defined?
    ))
}
