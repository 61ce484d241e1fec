//! Turning Lua errors into what people read: one line that starts with the
//! script location (control characters escaped, length capped), and a
//! diagnostic for a script that fails to load.

use super::call::Hook;
use super::limits::{escape, TEXT_MAX};
use super::DEFAULT_MEMORY;
use crate::variant::Diagnostic;

/// Turns an mlua error into one line that starts with the script location.
pub fn describe_error(e: &mlua::Error, scripts: &[String]) -> String {
    let text = describe(e, scripts);
    let mut text = escape(&text).into_owned();
    if text.len() > TEXT_MAX {
        let mut end = TEXT_MAX;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push('…');
    }
    text
}

/// Like [`describe_error`] for an error of a hook call: names the hook,
/// says what the hook must answer when its answer has the wrong type, and
/// names the script when the error has no line.
pub(super) fn describe_hook_error(
    e: &mlua::Error,
    scripts: &[String],
    hook: &Hook,
    defined_at: impl FnOnce() -> Option<String>,
) -> String {
    if hook.name == super::call::EVAL.name {
        return describe_error(e, scripts);
    }
    let script = scripts.last().map(String::as_str).unwrap_or("script");
    if let Some((from, _)) = conversion(e) {
        // A wrong answer has no line of its own: name where the hook is.
        let at = defined_at().unwrap_or_else(|| script.to_string());
        return format!(
            "{at}: {} must return {}, but it returned {from}",
            hook.name, hook.returns
        );
    }
    let text = describe_error(e, scripts);
    let placed = scripts.iter().any(|s| text.starts_with(s.as_str()));
    let text = if placed {
        text
    } else {
        format!("{script}: {text}")
    };
    format!("{text} (in {})", hook.name)
}

/// The types of a failed conversion of a hook's answer.
fn conversion(e: &mlua::Error) -> Option<(&str, &str)> {
    match e {
        mlua::Error::FromLuaConversionError { from, to, .. } => Some((from, to.as_str())),
        mlua::Error::WithContext { cause, .. } => conversion(cause),
        _ => None,
    }
}

fn describe(e: &mlua::Error, scripts: &[String]) -> String {
    match e {
        mlua::Error::CallbackError { traceback, cause } => {
            let root = describe(cause, scripts);
            if scripts.iter().any(|s| root.starts_with(s.as_str())) {
                return root;
            }
            // An error raised by the host API: find the script line that called it.
            format!("{}{root}", place_in(traceback, scripts))
        }
        mlua::Error::RuntimeError(m) => {
            let (first, rest) = m.split_once('\n').unwrap_or((m, ""));
            let first = plain_message(first);
            if scripts.iter().any(|s| first.starts_with(s.as_str())) {
                return first;
            }
            format!("{}{first}", place_in(rest, scripts))
        }
        mlua::Error::MemoryError(_) => {
            let script = scripts.last().map(String::as_str).unwrap_or("script");
            format!(
                "{script}: out of memory (the limit is {} MiB)",
                DEFAULT_MEMORY >> 20
            )
        }
        mlua::Error::SyntaxError { message, .. } => message.clone(),
        mlua::Error::WithContext { cause, .. } => describe(cause, scripts),
        mlua::Error::BadArgument { to, pos, cause, .. } => {
            // `bad argument #2 to `Api.reveal`: error converting Lua table
            // to u32` → `g:reveal: argument 1: expected ...`.
            let method = to.as_deref().and_then(|t| t.strip_prefix("Api."));
            let (call, n) = match (method, to) {
                (Some(m), _) => (format!("g:{m}"), pos.saturating_sub(1)),
                (None, Some(t)) => (format!("`{t}`"), *pos),
                (None, None) => ("a call".to_string(), *pos),
            };
            let why = match conversion(cause) {
                Some((from, to)) => format!("expected {}, got a {from}", type_words(to)),
                None => describe(cause, scripts),
            };
            format!("{call}: argument {n}: {why}")
        }
        other => other.to_string().lines().next().unwrap_or("").to_string(),
    }
}

/// A Rust type an argument converts to, in the API's words.
fn type_words(ty: &str) -> String {
    match ty {
        "u8" | "u16" | "u32" | "u64" | "usize" => "a whole number from 0 up".into(),
        "i8" | "i16" | "i32" | "i64" | "isize" => "a whole number".into(),
        "f32" | "f64" => "a number".into(),
        "bool" => "a boolean".into(),
        "String" | "string" | "LuaString" => "a string".into(),
        "Table" | "table" => "a table".into(),
        "Function" | "function" => "a function".into(),
        other => format!("a {other}"),
    }
}

/// What an error value that is not a message means to a designer.
fn plain_message(first: &str) -> String {
    if first == "nil" {
        return "error(nil): an error without a message".into();
    }
    for kind in ["table", "userdata", "function", "buffer"] {
        if first
            .strip_prefix(kind)
            .is_some_and(|r| r.starts_with(": 0x"))
        {
            return format!("error() was given a {kind}, not a message");
        }
    }
    if first == "error in error handling" {
        return "an error while describing an error (does a __tostring fail?)".into();
    }
    first.to_string()
}

/// `script:line: ` of the innermost script line in a traceback, or nothing.
fn place_in(traceback: &str, scripts: &[String]) -> String {
    traceback
        .lines()
        .map(str::trim)
        .find_map(|l| {
            let script = scripts.iter().find(|s| l.starts_with(s.as_str()))?;
            let rest = l[script.len()..].strip_prefix(':')?;
            let n: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            (!n.is_empty()).then(|| format!("{script}:{n}: "))
        })
        .unwrap_or_default()
}

/// Turns a script error line `path:line: message` into a diagnostic.
pub fn script_diagnostic(display: &str, msg: &str) -> Diagnostic {
    let rest = msg.strip_prefix(display).and_then(|r| r.strip_prefix(':'));
    if let Some(rest) = rest {
        let n: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        if let Ok(line) = n.parse() {
            let message = rest[n.len()..].trim_start_matches(':').trim().to_string();
            return Diagnostic {
                file: display.to_string(),
                line,
                column: 1,
                message,
            };
        }
    }
    Diagnostic {
        file: display.to_string(),
        line: 1,
        column: 1,
        message: msg.to_string(),
    }
}
