//! A readable summary of a variant's rules, in Markdown, generated from the
//! validated [`Variant`] (and the text of its scripts, for their hooks and
//! the comments above them): board, pieces and their moves, setup, turns,
//! actions, reactions, items, how the game ends, sight, options and hooks.
//!
//! Changes when the summary gains or loses a section; each section's
//! wording lives in its own file.

mod actions;
mod board;
mod ends;
mod hooks;
mod moves;
mod pieces;
mod sight;
mod text;
mod turn;

pub use actions::cell_conditions;
pub use hooks::{hooks_in, Hook};

use super::Variant;

/// What every section reads: the variant, and the hooks its scripts define.
struct Ctx<'a> {
    v: &'a Variant,
    hooks: Vec<Hook>,
}

impl Ctx<'_> {
    fn has_hook(&self, name: &str) -> bool {
        // The last word on the name: a later script may remove it.
        self.hooks
            .iter()
            .rev()
            .find(|h| h.name == name)
            .is_some_and(|h| !h.removed)
    }
}

/// The rules summary of a variant as loaded (its options as set), reading
/// its scripts' text from their files.
pub fn rules_markdown(v: &Variant) -> String {
    let mut scripts = Vec::new();
    let mut unread = Vec::new();
    for (path, _) in &v.scripts {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        match crate::base::limits::read_text_capped(path, crate::base::limits::MAX_SCRIPT_BYTES) {
            Ok(t) => scripts.push((name, t)),
            Err(_) => unread.push(name),
        }
    }
    markdown(v, &scripts, &unread)
}

/// The rules summary from the variant and its scripts' texts (file name,
/// text); `unread` names scripts whose text could not be read.
pub fn markdown(v: &Variant, scripts: &[(String, String)], unread: &[String]) -> String {
    let hooks: Vec<Hook> = scripts.iter().flat_map(|(n, t)| hooks_in(n, t)).collect();
    let cx = Ctx { v, hooks };
    let mut out = format!("# {}\n\n", v.name);
    let description = v.description.trim();
    if !description.is_empty() {
        out += &format!("{description}\n\n");
    }
    out += "*Generated from the variant's declarations";
    out += if v.scripts.is_empty() {
        "; it has no script.*\n\n"
    } else {
        " and its script's hooks.*\n\n"
    };
    let sections = [
        board::section(&cx),
        pieces::section(&cx),
        board::setup(&cx),
        turn::section(&cx),
        actions::section(&cx),
        actions::reactions(&cx),
        actions::items(&cx),
        ends::section(&cx),
        sight::section(&cx),
        options(&cx),
        hooks::section(v, &cx.hooks, unread),
    ];
    let sections: Vec<String> = sections.into_iter().filter(|s| !s.is_empty()).collect();
    out += &sections.join("\n");
    out
}

/// The options, with their docs, defaults and values as set.
fn options(cx: &Ctx) -> String {
    let v = cx.v;
    if v.options.is_empty() {
        return String::new();
    }
    let mut out = String::from("## Options\n\nSet with `-o NAME=VALUE`.\n\n");
    for o in &v.options {
        let set = if o.value == o.default {
            String::new()
        } else {
            format!("; set to `{}` here", o.value)
        };
        let doc = if o.doc.is_empty() {
            String::new()
        } else {
            format!(": {}", o.doc)
        };
        out += &format!("- `{}` (default `{}`{set}){doc}\n", o.name, o.default);
    }
    out
}
