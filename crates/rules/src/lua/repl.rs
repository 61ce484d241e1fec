//! Lua typed by a person: evaluating it against a state, telling whether
//! it is unfinished, and printing its values.

use std::sync::Arc;

use mlua::chunk::ChunkMode;
use mlua::{Lua, LuaOptions, StdLib, Value as LV};

use super::call;
use super::limits::{escape, SHOW_CHARS, SHOW_DEPTH, SHOW_ENTRIES};
use super::Rules;
use crate::base::effect::Effect;
use crate::base::state::GameState;
use crate::variant::Variant;

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
        let out = self.call(&call::EVAL, copy, variant, &mut effects, |lua, api| {
            let env = lua.create_table()?;
            env.set("g", api.clone())?;
            let meta = lua.create_table()?;
            meta.set("__index", lua.globals())?;
            env.set_metatable(Some(meta))?;
            // Text only: bytes below `\t` would otherwise go to Luau's
            // bytecode loader, which trusts what it reads.
            let chunk = lua
                .load(format!("return {code}"))
                .set_name("=eval")
                .set_mode(ChunkMode::Text)
                .set_environment(env.clone());
            let vals: mlua::MultiValue = match chunk.eval() {
                Ok(v) => v,
                Err(_) => lua
                    .load(code)
                    .set_name("=eval")
                    .set_mode(ChunkMode::Text)
                    .set_environment(env)
                    .eval()?,
            };
            let mut shown = Shown::default();
            for (i, v) in vals.iter().enumerate() {
                if i > 0 {
                    shown.push("\t");
                }
                shown.value(v, 0);
            }
            Ok(shown.out)
        })?;
        // What the Lua printed comes first.
        let mut lines: Vec<String> = effects
            .into_iter()
            .filter_map(|e| match e {
                Effect::Note(t) => Some(t),
                _ => None,
            })
            .collect();
        lines.push(out);
        Ok(lines.join("\n"))
    }
}

/// Whether Lua `code` is an unfinished block (an open `function`, `do`,
/// `{`, string...), as an expression or as statements.
pub fn is_incomplete(code: &str) -> bool {
    let lua = Lua::new_with(StdLib::NONE, LuaOptions::default());
    let Ok(lua) = lua else { return false };
    lua.enable_jit(false);
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

/// A Lua value printed for people: tables shown with their keys (sorted),
/// cut short past a depth, a number of entries per table and a length
/// (see `limits`), with "…"; control characters escaped.
pub fn show_value(v: &LV) -> String {
    let mut shown = Shown::default();
    shown.value(v, 0);
    shown.out
}

/// Printing within [`SHOW_CHARS`].
#[derive(Default)]
struct Shown {
    out: String,
    full: bool,
}

impl Shown {
    fn push(&mut self, s: &str) {
        if self.full {
            return;
        }
        if self.out.len() + s.len() > SHOW_CHARS {
            let mut end = SHOW_CHARS.saturating_sub(self.out.len()).min(s.len());
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            self.out.push_str(&s[..end]);
            self.out.push('…');
            self.full = true;
        } else {
            self.out.push_str(s);
        }
    }

    fn value(&mut self, v: &LV, depth: usize) {
        match v {
            LV::Nil => self.push("nil"),
            LV::String(s) => {
                let b = s.as_bytes();
                let text = String::from_utf8_lossy(&b[..b.len().min(SHOW_CHARS)]);
                self.push(&format!("{:?}", text));
            }
            LV::Table(t) if depth < SHOW_DEPTH => self.table(t, depth),
            other => {
                let text = other
                    .to_string()
                    .unwrap_or_else(|_| format!("<{}>", other.type_name()));
                self.push(&escape(&text));
            }
        }
    }

    fn table(&mut self, t: &mlua::Table, depth: usize) {
        let mut entries: Vec<(String, LV)> = Vec::new();
        let mut more = false;
        for (k, val) in t.pairs::<LV, LV>().flatten() {
            if entries.len() == SHOW_ENTRIES {
                more = true;
                break;
            }
            let key = match &k {
                LV::String(s) => escape(&s.to_string_lossy()).into_owned(),
                other => {
                    let mut inner = Shown::default();
                    inner.value(other, SHOW_DEPTH);
                    format!("[{}]", inner.out)
                }
            };
            entries.push((key, val));
        }
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        self.push("{");
        for (i, (key, val)) in entries.iter().enumerate() {
            if self.full {
                return;
            }
            if i > 0 {
                self.push(", ");
            }
            self.push(key);
            self.push(" = ");
            self.value(val, depth + 1);
        }
        if more {
            self.push(", …");
        }
        self.push("}");
    }
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
