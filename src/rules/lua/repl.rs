//! Lua typed by a person: evaluating it against a state, telling whether
//! it is unfinished, and printing its values.

use std::sync::Arc;

use mlua::{Lua, LuaOptions, StdLib, Value as LV};

use super::Rules;
use crate::base::state::GameState;
use crate::rules::variant::Variant;

impl Rules {
    /// Evaluates a Lua expression or statement against a state (read-only:
    /// the state is not changed), returning its printed result.
    pub fn eval(
        &self,
        state: &GameState,
        variant: &Arc<Variant>,
        code: &str,
    ) -> Result<String, String> {
        let mut copy = state.clone();
        self.eval_mut(&mut copy, variant, code)
    }

    /// Evaluates Lua against a state and keeps what it changed (the caller
    /// passes a copy and decides whether to keep it).
    pub fn eval_mut(
        &self,
        copy: &mut GameState,
        variant: &Arc<Variant>,
        code: &str,
    ) -> Result<String, String> {
        let mut effects = Vec::new();
        self.call(copy, variant, &mut effects, |lua, api| {
            let env = lua.create_table()?;
            env.set("g", api.clone())?;
            let meta = lua.create_table()?;
            meta.set("__index", lua.globals())?;
            env.set_metatable(Some(meta))?;
            let chunk = lua
                .load(format!("return {code}"))
                .set_name("=eval")
                .set_environment(env.clone());
            let vals: mlua::MultiValue = match chunk.eval() {
                Ok(v) => v,
                Err(_) => lua
                    .load(code)
                    .set_name("=eval")
                    .set_environment(env)
                    .eval()?,
            };
            Ok(vals.iter().map(show_value).collect::<Vec<_>>().join("\t"))
        })
    }
}

/// Whether Lua `code` is an unfinished block (an open `function`, `do`,
/// `{`, string...), as an expression or as statements.
pub fn is_incomplete(code: &str) -> bool {
    let lua = Lua::new_with(StdLib::NONE, LuaOptions::default());
    let Ok(lua) = lua else { return false };
    // Some(true): compiles; Some(false): unfinished; None: another error.
    let check = |src: &str| match lua.load(src).set_name("=input").into_function() {
        Ok(_) => Some(true),
        Err(mlua::Error::SyntaxError {
            incomplete_input: true,
            ..
        }) => Some(false),
        Err(_) => None,
    };
    let (expr, stmt) = (check(&format!("return {code}")), check(code));
    if expr == Some(true) || stmt == Some(true) {
        return false;
    }
    expr == Some(false) || stmt == Some(false)
}

/// A Lua value printed for people: tables shown with their keys.
pub fn show_value(v: &LV) -> String {
    fn go(v: &LV, depth: usize) -> String {
        match v {
            LV::Nil => "nil".into(),
            LV::String(s) => format!("{:?}", s.to_string_lossy()),
            LV::Table(t) if depth < 3 => {
                let mut parts = Vec::new();
                for (k, val) in t.pairs::<LV, LV>().flatten() {
                    let key = match &k {
                        LV::String(s) => s.to_string_lossy().to_string(),
                        other => format!("[{}]", go(other, depth + 1)),
                    };
                    parts.push(format!("{key} = {}", go(&val, depth + 1)));
                }
                parts.sort();
                format!("{{{}}}", parts.join(", "))
            }
            other => other
                .to_string()
                .unwrap_or_else(|_| format!("<{}>", other.type_name())),
        }
    }
    go(v, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unfinished_blocks_are_incomplete() {
        assert!(is_incomplete("function f()"));
        assert!(is_incomplete("{1, 2,"));
        assert!(is_incomplete("for i = 1, 3 do"));
        assert!(!is_incomplete("1 + 2"));
        assert!(!is_incomplete("g:player()"));
        assert!(!is_incomplete("local x = 1 return x"));
        assert!(
            !is_incomplete("1 +* 2"),
            "a plain syntax error is not incomplete"
        );
    }
}
