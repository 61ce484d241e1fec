//! Making [`Rules`] from a variant's scripts: reading them, building the
//! sandboxed state they load into, running them in order and keeping the
//! hooks they define.

use mlua::{AnyUserData, Function, Lua, Table, Value as LV};

use super::api::Api;
use super::context::{CallCtx, Names};
use super::errors::{describe_error, script_diagnostic};
use super::hooks::Hooks;
use super::sandbox;
use super::{budget, bytecode, prelude, Facts, Rules, DEFAULT_BUDGET};
use crate::base::geometry::Cell;
use crate::variant::{Diagnostic, LoadError, Value, Variant};

impl Rules {
    /// Creates the sandboxed state and loads the variant's scripts, base
    /// variant first: a script that extends another finds `rules` already
    /// filled by its base, and may keep a base hook in a local before
    /// replacing it.
    pub fn load(variant: &Variant) -> Result<Rules, LoadError> {
        let mut sources = Vec::new();
        for (path, shown) in &variant.scripts {
            let src = std::fs::read_to_string(path).map_err(|e| {
                LoadError(vec![Diagnostic {
                    file: shown.clone(),
                    line: 1,
                    column: 1,
                    message: format!("cannot read script: {e}"),
                }])
            })?;
            sources.push((src, shown.clone()));
        }
        let options: Vec<(String, Value)> = variant
            .options
            .iter()
            .map(|o| (o.name.clone(), o.value.clone()))
            .collect();
        let facts = Facts {
            kinds: variant.kinds.iter().map(|k| k.name.clone()).collect(),
            players: variant.players.clone(),
            kind_info: variant
                .kinds
                .iter()
                .map(|k| (k.rank, k.is_mobile(), k.attrs.clone()))
                .collect(),
            cells: (0..variant.board.cell_count())
                .map(|c| variant.board.cell_name(c as Cell))
                .collect(),
            files: variant.board.files as i64,
            ranks: variant.board.ranks as i64,
            tokens: variant.tokens.clone(),
        };
        Rules::from_sources_with(&sources, &options, &facts)
            .map_err(|(shown, msg)| LoadError(vec![script_diagnostic(&shown, &msg)]))
    }

    /// Loads rules from Lua sources `(source, file name)`, in order. On error,
    /// returns the file that failed and the message.
    /// The variant's option values are readable while the scripts load, as
    /// the read-only global `options`, so a script can define a hook only
    /// when an option asks for it; so are the variant's static facts, as the
    /// read-only globals `kinds` (name → number, in declaration order from
    /// 1), `players` (name → number from 1) and `board` (`files`, `ranks`).
    pub fn from_sources_with(
        sources: &[(String, String)],
        options: &[(String, Value)],
        facts: &Facts,
    ) -> Result<Rules, (String, String)> {
        let display = sources
            .last()
            .map(|s| s.1.clone())
            .unwrap_or_else(|| "<no script>".into());
        let names: Vec<String> = sources.iter().map(|s| s.1.clone()).collect();
        let fail = |m: String| (display.clone(), m);
        // The host's own Lua (prelude, freezing) runs within a budget too.
        budget::start(DEFAULT_BUDGET * 5);
        let (lua, api, after_action_caller, strike_caller) =
            prepare_state(options, facts).map_err(|e| fail(e.to_string()))?;
        run_scripts(&lua, sources, &names)?;
        let rules: Table = lua
            .globals()
            .get("rules")
            .map_err(|e| fail(e.to_string()))?;
        let hooks = Hooks::collect(&rules).map_err(fail)?;
        let functions = rules
            .pairs::<String, LV>()
            .filter_map(|kv| match kv {
                Ok((k, LV::Function(f))) => Some((k, f)),
                _ => None,
            })
            .collect();
        budget::start(DEFAULT_BUDGET * 5);
        sandbox::lock(&lua).map_err(fail)?;
        Ok(Rules {
            lua,
            budget_per_call: DEFAULT_BUDGET,
            script_name: display.clone(),
            script_names: names,
            hooks,
            api,
            after_action_caller,
            strike_caller,
            table: rules,
            functions,
            cells: Default::default(),
        })
    }
}

/// The state the scripts load into: sandboxed, with its globals, the `g`
/// object, and the prelude's builders and the API's strings in the call
/// context; sealed (memory limit, final builtins). Returns it with the `g`
/// object and the `after_action` and `strike` callers.
fn prepare_state(
    options: &[(String, Value)],
    facts: &Facts,
) -> mlua::Result<(Lua, AnyUserData, Function, Function)> {
    let lua = sandbox::new_state()?;
    sandbox::restrict_globals(&lua)?;
    sandbox::set_globals(&lua, options, facts)?;
    let api = lua.create_userdata(Api)?;
    let built = prelude::run(&lua, facts)?;
    let made = Names::make(&lua, facts, &built)?;
    {
        let mut cx = lua.app_data_mut::<CallCtx>().expect("call context");
        cx.names = Some(made);
    }
    sandbox::seal(&lua)?;
    Ok((lua, api, built.after_action, built.strike))
}

/// Runs the scripts `(source, file name)` in order, each with a larger
/// budget than a hook call; on error, the file that failed and the message.
/// A script whose functions write a variable of its top level is refused
/// (see `bytecode`). The functions of a script that asks for it with
/// Luau's `--!native` comment on its first line are compiled to machine
/// code where the platform allows (Luau's native code generation: the same
/// semantics, budget and limits; it costs time at load, so a script whose
/// hooks run few loops is better left to the interpreter).
fn run_scripts(
    lua: &Lua,
    sources: &[(String, String)],
    names: &[String],
) -> Result<(), (String, String)> {
    let done = run_each(lua, sources, names);
    lua.enable_jit(false);
    done
}

/// Whether a script asks to be compiled to machine code: `--!native` on
/// its first line (Luau's own hot comment for it).
fn wants_native(source: &str) -> bool {
    source
        .lines()
        .next()
        .is_some_and(|l| l.trim_end() == "--!native")
}

fn run_each(
    lua: &Lua,
    sources: &[(String, String)],
    names: &[String],
) -> Result<(), (String, String)> {
    for (source, shown) in sources {
        lua.enable_jit(wants_native(source));
        budget::start(DEFAULT_BUDGET * 5);
        let chunk = match sandbox::compiler().compile(source) {
            Ok(code) => {
                refuse_upvalue_writes(&code, shown)?;
                lua.load(code).set_mode(mlua::chunk::ChunkMode::Binary)
            }
            // Compiled again as text, for the error message.
            Err(_) => lua
                .load(source.as_str())
                .set_mode(mlua::chunk::ChunkMode::Text),
        };
        let done = chunk.set_name(format!("@{shown}")).exec();
        if budget::spent() {
            lua.gc_collect().ok();
        }
        done.map_err(|e| (shown.clone(), describe_error(&e, names)))?;
    }
    Ok(())
}

/// Refuses compiled code (which the host compiled) in which a function
/// writes a top-level local: state kept between hook calls.
fn refuse_upvalue_writes(code: &[u8], shown: &str) -> Result<(), (String, String)> {
    let lines = bytecode::top_level_writes(code).map_err(|e| (shown.to_string(), e))?;
    match lines.first() {
        None => Ok(()),
        Some(line) => Err((
            shown.to_string(),
            format!(
                "{shown}:{line}: a function assigns a local variable of the script's top \
                 level (an upvalue), which would keep state between calls that undo and \
                 replay cannot see; keep it in the game (g:set_counter, g:set_attr) or \
                 make the variable local to the function"
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::wants_native;

    #[test]
    fn only_a_first_line_native_comment_asks_for_machine_code() {
        assert!(wants_native("--!native\nlocal x = 1\n"));
        assert!(wants_native("--!native  \r\nlocal x = 1\n"));
        assert!(!wants_native("-- a comment first\n--!native\n"));
        assert!(!wants_native("--!nativeish\n"));
        assert!(!wants_native(""));
    }
}
