//! Turning Lua errors into what people read: one line that starts with the
//! script location, and a diagnostic for a script that fails to load.

use super::DEFAULT_MEMORY;
use crate::rules::variant::Diagnostic;

/// Turns an mlua error into one line that starts with the script location.
pub fn describe_error(e: &mlua::Error, scripts: &[String]) -> String {
    match e {
        mlua::Error::CallbackError { traceback, cause } => {
            let root = describe_error(cause, scripts);
            if scripts.iter().any(|s| root.starts_with(s.as_str())) {
                return root;
            }
            // An error raised by the host API: find the script line that called it.
            let place = traceback
                .lines()
                .map(str::trim)
                .find_map(|l| {
                    let script = scripts.iter().find(|s| l.starts_with(s.as_str()))?;
                    let rest = l[script.len()..].strip_prefix(':')?;
                    let n: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
                    (!n.is_empty()).then(|| format!("{script}:{n}: "))
                })
                .unwrap_or_default();
            format!("{place}{root}")
        }
        mlua::Error::RuntimeError(m) => m.lines().next().unwrap_or("").to_string(),
        mlua::Error::MemoryError(_) => {
            let script = scripts.last().map(String::as_str).unwrap_or("script");
            format!(
                "{script}: out of memory (the limit is {} MiB)",
                DEFAULT_MEMORY >> 20
            )
        }
        mlua::Error::SyntaxError { message, .. } => message.clone(),
        mlua::Error::WithContext { cause, .. } => describe_error(cause, scripts),
        other => other.to_string().lines().next().unwrap_or("").to_string(),
    }
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
