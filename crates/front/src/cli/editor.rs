//! Editing REPL lines in a terminal: completion of commands and of the words
//! that fit the position, hints, and Lua lines that go on to the next line.

use crate::session::Session;

/// Completion for the REPL: command names first, then the words that fit
/// the position (legal actions, viewers, variants, options).
pub(super) struct ReplHelper {
    pub(super) commands: Vec<String>,
    pub(super) words: std::cell::RefCell<Vec<String>>,
}

impl ReplHelper {
    pub(super) fn refresh(&self, session: &Session) {
        let e = &session.engine;
        let mut w: Vec<String> = e
            .legal_actions(&session.state)
            .iter()
            .map(|a| e.action_text(&session.state, a))
            .collect();
        w.extend(e.variant.players.iter().cloned());
        w.extend(e.variant.kinds.iter().map(|k| k.name.clone()));
        w.extend(["all".to_string(), "public".to_string()]);
        w.extend(crate::rules::variant::bundled_variants());
        w.extend(e.variant.options.iter().map(|o| format!("{}=", o.name)));
        *self.words.borrow_mut() = w;
    }
}

impl rustyline::completion::Completer for ReplHelper {
    type Candidate = String;
    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &rustyline::Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        let start = line[..pos]
            .rfind(char::is_whitespace)
            .map(|i| i + 1)
            .unwrap_or(0);
        let word = &line[start..pos];
        let first = line[..start].trim().is_empty();
        let mut out: Vec<String> = Vec::new();
        if first {
            out.extend(
                self.commands
                    .iter()
                    .filter(|c| c.starts_with(word))
                    .cloned(),
            );
        }
        out.extend(
            self.words
                .borrow()
                .iter()
                .filter(|c| c.starts_with(word))
                .cloned(),
        );
        out.dedup();
        Ok((start, out))
    }
}

impl rustyline::hint::Hinter for ReplHelper {
    type Hint = String;
    /// Hints the rest of the only command or action that starts with the
    /// word typed so far.
    fn hint(&self, line: &str, pos: usize, _: &rustyline::Context<'_>) -> Option<String> {
        if pos < line.len() || line.is_empty() || line.contains(' ') {
            return None;
        }
        let words = self.words.borrow();
        let mut hits = self
            .commands
            .iter()
            .chain(words.iter())
            .filter(|w| w.starts_with(line) && w.len() > line.len());
        let first = hits.next()?;
        hits.next()
            .is_none()
            .then(|| first[line.len()..].to_string())
    }
}
impl rustyline::highlight::Highlighter for ReplHelper {
    fn highlight_hint<'h>(&self, hint: &'h str) -> std::borrow::Cow<'h, str> {
        std::borrow::Cow::Owned(format!("\x1b[2m{hint}\x1b[0m"))
    }
}
impl rustyline::validate::Validator for ReplHelper {
    /// A Lua line (`= ...` or `lua ...`) goes on to the next line until the
    /// block is complete.
    fn validate(
        &self,
        ctx: &mut rustyline::validate::ValidationContext<'_>,
    ) -> rustyline::Result<rustyline::validate::ValidationResult> {
        use rustyline::validate::ValidationResult;
        let input = ctx.input();
        let trimmed = input.trim_start();
        let trimmed = trimmed
            .strip_prefix("=!")
            .or_else(|| trimmed.strip_prefix("lua! "))
            .unwrap_or(trimmed);
        let code = match trimmed.strip_prefix('=') {
            Some(c) => c,
            None if !std::ptr::eq(trimmed, input.trim_start()) => trimmed,
            None => match trimmed.strip_prefix("lua ") {
                Some(c) => c,
                None => return Ok(ValidationResult::Valid(None)),
            },
        };
        Ok(if crate::rules::lua::is_incomplete(code) {
            ValidationResult::Incomplete
        } else {
            ValidationResult::Valid(None)
        })
    }
}
impl rustyline::Helper for ReplHelper {}
