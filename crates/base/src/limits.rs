//! The host's limits on what a file or a line may ask for, and the two
//! guards every front end uses on what it reads and prints: files read with
//! a size cap, and text shown with its control characters escaped.
//!
//! The limits (see also `docs/limits.md`):
//!
//! | what | at most | why |
//! |---|---|---|
//! | pieces in a game (board and containers) | [`MAX_PIECES`] | a piece id is a `u16` |
//! | containers in a game | [`MAX_CONTAINERS`] | a container id is a `u16` |
//! | `count:` of one kind | [`MAX_COUNT`] | per player |
//! | one player's army | [`MAX_ARMY`] | the sum of `count:` |
//! | a file the host reads (variant, script, position, record, setup) | [`MAX_FILE_BYTES`] | |
//! | a script | [`MAX_SCRIPT_BYTES`] | |
//! | actions on one REPL line | [`MAX_ACTIONS_PER_LINE`] | |
//! | reaction windows open at once | [`MAX_WINDOWS`] | one inside another |
//! | items in one container | [`MAX_ITEMS`] | tiles, cards |
//! | moves (forms) one kind declares | [`MAX_FORMS_PER_KIND`] | each builds tables |
//! | moves (forms) of all kinds together | [`MAX_FORMS`] | each builds tables |
//! | a declared amount (`add:`, `cost.amount`, `board.counts`) | [`MAX_AMOUNT`] either way | counters never saturate |
//!
//! The board itself is at most 26 files by 99 ranks (its cell names).

use std::borrow::Cow;
use std::io::Read;
use std::path::Path;

/// Pieces in one game: ids are `u16`, and none wraps.
pub const MAX_PIECES: usize = u16::MAX as usize;
/// Containers in one game (ids are `u16`).
pub const MAX_CONTAINERS: usize = u16::MAX as usize;
/// Reaction windows open at once (one inside another).
pub const MAX_WINDOWS: usize = 8;
/// Items (tiles, cards) in one container.
pub const MAX_ITEMS: usize = 4096;
/// `count:` of one piece kind.
pub const MAX_COUNT: u32 = 1000;
/// One player's army (the sum of `count:` over the kinds).
pub const MAX_ARMY: u32 = 4000;
/// Any file the host reads for a user: variants, positions, records, setups.
pub const MAX_FILE_BYTES: u64 = 16 << 20;
/// A variant's Lua script.
pub const MAX_SCRIPT_BYTES: u64 = 1 << 20;
/// Actions one REPL line (`play A B C ...`) may play.
pub const MAX_ACTIONS_PER_LINE: usize = 1000;
/// Moves (the forms under `pieces.<kind>.moves`) one kind declares: the
/// engine builds tables for each form, so thousands of them cost hundreds
/// of MiB; the bundled variants use at most 4.
pub const MAX_FORMS_PER_KIND: usize = 32;
/// Moves (forms) of all the kinds of a variant together (shogi, the most
/// among the bundled variants, has 29).
pub const MAX_FORMS: usize = 256;
/// The largest amount, either way, a variant declares for a counter: an
/// action's `does: [{ add: N }]` and `cost: { amount: N }`, and a cell
/// counter's start (`board.counts`). A counter starting within it and
/// changed by it once an action never reaches the `i64` range (over 9
/// million million actions), so the host's saturating arithmetic never
/// has to saturate.
pub const MAX_AMOUNT: i64 = 1_000_000;

/// Reads a text file of at most `limit` bytes: only a regular file (not a
/// device or a pipe), never more than `limit + 1` bytes, and UTF-8. The
/// error says why, without the path (callers name the file their way).
pub fn read_text_capped(path: &Path, limit: u64) -> Result<String, String> {
    let file = std::fs::File::open(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        _ => format!("cannot read: {}", io_words(&e)),
    })?;
    let meta = file
        .metadata()
        .map_err(|e| format!("cannot read: {}", io_words(&e)))?;
    if !meta.is_file() {
        return Err("cannot read: not a regular file".into());
    }
    let too_big = || format!("cannot read: larger than {}", size_text(limit));
    if meta.len() > limit {
        return Err(too_big());
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read: {}", io_words(&e)))?;
    if bytes.len() as u64 > limit {
        return Err(too_big());
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "cannot read: not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        )
    })
}

/// An I/O error in plain words, without the operating system's error
/// number (`No such file or directory (os error 2)` → `no such file or
/// folder`).
pub fn io_words(e: &std::io::Error) -> String {
    use std::io::ErrorKind as K;
    match e.kind() {
        K::NotFound => "no such file or folder".into(),
        K::PermissionDenied => "permission denied".into(),
        K::IsADirectory => "is a folder".into(),
        K::AlreadyExists => "already exists".into(),
        _ => {
            let text = e.to_string();
            match text.find(" (os error") {
                Some(i) => text[..i].to_string(),
                None => text,
            }
        }
    }
}

/// [`read_text_capped`] with [`MAX_FILE_BYTES`], the error naming `shown`.
pub fn read_user_file(path: &Path, shown: &str) -> Result<String, String> {
    read_text_capped(path, MAX_FILE_BYTES).map_err(|e| format!("{shown}: {e}"))
}

/// `16 MiB`, `1 MiB`, or bytes.
pub fn size_text(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

/// Text with its control characters escaped (`\u{1b}`), line breaks and
/// tabs kept: what a file or a user typed may then go to a terminal.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            out.push_str(&c.escape_unicode().to_string());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Like [`escape_controls`], but keeps the host's own colour sequences
/// (`ESC [ digits and semicolons m`), which only set colours: for output
/// the REPL draws in colour.
pub fn escape_controls_keep_colour(text: &str) -> Cow<'_, str> {
    if !text
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '\x1b' {
            let body = rest[1..].strip_prefix('[').unwrap_or("");
            let n = body
                .find(|d: char| !(d.is_ascii_digit() || d == ';'))
                .unwrap_or(body.len());
            if rest[1..].starts_with('[') && body[n..].starts_with('m') {
                let len = 2 + n + 1;
                out.push_str(&rest[..len]);
                rest = &rest[len..];
                continue;
            }
        }
        if c.is_control() && c != '\n' && c != '\t' {
            out.push_str(&c.escape_unicode().to_string());
        } else {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_all_but_colours() {
        assert_eq!(escape_controls("a\x1b[2Jb\n"), "a\\u{1b}[2Jb\n");
        assert_eq!(
            escape_controls_keep_colour("\x1b[1;31mX\x1b[0m\x1b[2J\x07"),
            "\x1b[1;31mX\x1b[0m\\u{1b}[2J\\u{7}"
        );
        assert_eq!(escape_controls_keep_colour("\x1b"), "\\u{1b}");
    }
}
