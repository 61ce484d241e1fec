//! The sizes a script may ask the host to keep or copy (documented in
//! docs/lua-api.md, "Limits"), the argument types that check them before
//! copying, and escaping control characters in text people read.

use std::borrow::Cow;
use std::ops::Deref;

use mlua::{FromLua, Lua, Value as LV};

use super::budget;

/// Bytes in a name: a counter, attribute, mark, container, cell, player,
/// kind, zone or option name.
pub const NAME_MAX: usize = 64;
/// Bytes in a text: a log line, a reason, a mark's value.
pub const TEXT_MAX: usize = 1000;
/// Bytes in a choice option's label.
pub const LABEL_MAX: usize = 200;
/// Options of one choice.
pub const OPTIONS_MAX: usize = 4096;
/// Pending choices at once.
pub const PENDING_MAX: usize = 64;
/// Log lines (`g:log`, `print`) one call may write.
pub const LOG_LINES_MAX: u32 = 100;
/// Effects (moves, captures, reveals, notes) one action may gather.
pub const EFFECTS_MAX: usize = 10_000;
/// Counters (global and per player), cell counters, marks and containers
/// in a game, and attributes of one piece.
pub const COUNTERS_MAX: usize = 1024;
pub const CELL_COUNTERS_MAX: usize = 4096;
pub const MARKS_MAX: usize = 4096;
pub const CONTAINERS_MAX: usize = 256;
pub const ATTRS_MAX: usize = 64;
/// What the REPL prints of a value: table depth, entries per table, and
/// characters in all.
pub const SHOW_DEPTH: usize = 3;
pub const SHOW_ENTRIES: usize = 100;
pub const SHOW_CHARS: usize = 4000;

/// An error for a limit a script went over.
pub(super) fn over(what: &str, limit: usize) -> mlua::Error {
    mlua::Error::runtime(format!("{what} (a limit of the sandbox: {limit})"))
}

/// A string argument of at most `MAX` bytes, checked and charged before it
/// is copied.
pub(super) struct Str<const MAX: usize>(pub String);

/// A name argument (see [`NAME_MAX`]); no control characters.
pub(super) type Name = Str<NAME_MAX>;
/// A text argument (see [`TEXT_MAX`]).
pub(super) type Text = Str<TEXT_MAX>;

impl<const MAX: usize> Str<MAX> {
    /// Checks a string's bytes (length first, so nothing long is copied)
    /// and charges copying them.
    fn check(bytes: &[u8]) -> mlua::Result<Self> {
        let what = if MAX == NAME_MAX { "a name" } else { "a text" };
        if bytes.len() > MAX {
            return Err(over(
                &format!("{what} is at most {MAX} bytes, got {}", bytes.len()),
                MAX,
            ));
        }
        budget::charge_bytes(bytes.len())?;
        let text = std::str::from_utf8(bytes)
            .map_err(|_| mlua::Error::runtime(format!("{what} must be UTF-8")))?;
        if MAX == NAME_MAX
            && bytes.iter().any(|&b| b < 0x20 || b == 0x7f || b == 0xc2)
            && text.chars().any(char::is_control)
        {
            return Err(mlua::Error::runtime(format!(
                "a name may not hold control characters: {}",
                escape(text)
            )));
        }
        Ok(Str(text.to_string()))
    }
}

impl<const MAX: usize> FromLua for Str<MAX> {
    fn from_lua(v: LV, lua: &Lua) -> mlua::Result<Self> {
        match v {
            LV::String(s) => Self::check(&s.as_bytes()),
            LV::Integer(_) | LV::Number(_) => String::from_lua(v, lua).map(Str),
            other => Err(mlua::Error::FromLuaConversionError {
                from: other.type_name(),
                to: "string".into(),
                message: None,
            }),
        }
    }

    /// Reads the argument in place on the Lua stack (no reference made, as
    /// mlua does for `String`): API calls are on the hot path.
    unsafe fn from_stack(idx: std::ffi::c_int, lua: &mlua::state::RawLua) -> mlua::Result<Self> {
        let state = lua.state();
        // SAFETY: `idx` is a valid stack index (mlua's contract); the
        // string's bytes live while it is on the stack, during this call.
        unsafe {
            if mlua::ffi::lua_type(state, idx) == mlua::ffi::LUA_TSTRING {
                let mut size = 0;
                let data = mlua::ffi::lua_tolstring(state, idx, &mut size);
                return Self::check(std::slice::from_raw_parts(data.cast::<u8>(), size));
            }
            String::from_stack(idx, lua).map(Str)
        }
    }
}

impl<const MAX: usize> Deref for Str<MAX> {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl<const MAX: usize> std::fmt::Display for Str<MAX> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Text with control characters shown as escapes (`\x1b`, `\n`), so
/// nothing a script writes reaches a terminal raw.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() && (c as u32) < 0x100 => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(super::escape("a\x1b[2Jb\n"), "a\\x1b[2Jb\\n");
        assert_eq!(super::escape("plain é"), "plain é");
        assert_eq!(super::escape("\u{9b}"), "\\x9b");
    }
}
