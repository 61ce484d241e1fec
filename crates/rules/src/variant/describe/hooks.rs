//! The script's hooks as its text shows them: each `function rules.X(...)`
//! or `rules.X = function(...)` (and `rules.X = nil`, which removes an
//! earlier script's), with the `--` comment lines right above it, and what
//! the variant's declarations call it for.
//!
//! Changes when how hooks are found in a script's text, or how they are
//! listed, changes. It reads the text only: no script runs.

use super::text::join;
use crate::base::cell_set::CellSet;
use crate::variant::Variant;

/// One hook a script defines.
#[derive(Clone, Debug, PartialEq)]
pub struct Hook {
    /// The script's file name.
    pub script: String,
    pub name: String,
    /// The parameters as written (`g, attacker, defender`).
    pub params: String,
    /// The comment lines above it, joined into one paragraph.
    pub doc: String,
    /// `rules.X = nil`: the script removes an earlier script's hook.
    pub removed: bool,
}

/// The hooks `text` (a script named `script`) defines, in order.
pub fn hooks_in(script: &str, text: &str) -> Vec<Hook> {
    let mut out = Vec::new();
    let mut comment: Vec<String> = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if let Some(c) = t.strip_prefix("--") {
            if !c.starts_with("[[") {
                comment.push(c.trim_start_matches('-').trim().to_string());
                continue;
            }
        }
        if let Some((name, params)) = definition(t) {
            out.push(Hook {
                script: script.to_string(),
                removed: params == NIL,
                name,
                params,
                doc: comment
                    .iter()
                    .filter(|c| !c.is_empty())
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(" "),
            });
        }
        comment.clear();
    }
    out
}

/// What [`definition`] gives as the parameters of `rules.X = nil`.
const NIL: &str = "\u{0}nil";

/// The hook a line defines, with its parameters: `function rules.X(a, b)`
/// or `rules.X = function(a, b)`; `rules.X = nil` gives [`NIL`].
fn definition(line: &str) -> Option<(String, String)> {
    let ident = |name: &str| {
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    let (name, rest) = if let Some(r) = line.strip_prefix("function rules.") {
        let open = r.find('(')?;
        (r[..open].trim(), &r[open..])
    } else {
        let r = line.strip_prefix("rules.")?;
        let (name, value) = r.split_once('=')?;
        let value = value.trim();
        if value == "nil" && ident(name.trim()) {
            return Some((name.trim().to_string(), NIL.to_string()));
        }
        let value = value.strip_prefix("function")?.trim_start();
        (name.trim(), value)
    };
    let ok = ident(name);
    let params = rest.strip_prefix('(')?.split(')').next()?.trim();
    ok.then(|| (name.to_string(), params.to_string()))
}

/// When the host calls one of the hooks it knows by name.
fn host_use(v: &Variant, name: &str) -> Option<String> {
    Some(match name {
        "strike" => "is asked who wins when a piece moves onto an enemy piece".into(),
        "captures" => match &v.captures_when {
            Some(w) if w.is_empty() => {
                "is never asked (`rules.script.captures_when` lists no clause)".into()
            }
            Some(w) => format!(
                "is asked which further cells a move captures, only for {}",
                after_when(v, w)
            ),
            None => "is asked which further cells a move captures".into(),
        },
        "attacked" => "is asked whether a cell could be captured (the royal piece's safety)".into(),
        "check_cells" => "is asked which cells could matter to the royal piece's safety, so that the host may skip its full test".into(),
        "filter" => "is asked which of the listed moves to forbid".into(),
        "after_action" => match &v.after_action_when {
            Some(w) if !w.is_empty() => format!("is called only after {}", after_when(v, w)),
            _ => "is called after every action".into(),
        },
        "setup" => "is called once when a game starts".into(),
        "on_turn_start" => "is called when a turn begins".into(),
        "on_turn_end" => "is called before the turn passes".into(),
        "on_phase_start" => "is called when a phase begins".into(),
        "frozen" => "is asked which of a player's pieces cannot move".into(),
        "extra_moves" => "is asked for moves to add to the declared ones".into(),
        "actions" => "is asked for actions to add to the declared ones".into(),
        "perform" => "plays the actions `rules.actions` adds".into(),
        "on_choice" => "takes the answer to a choice".into(),
        "position_fields" => "reads the fields of a FEN line after the player to move".into(),
        "evaluate" => "is asked by bots how likely a player is to win".into(),
        "consistent" => "is asked by bots whether a sampled piece fits what is known".into(),
        _ => return None,
    })
}

/// The moves a list of clauses (`after_action_when`, `captures_when`) names.
fn after_when(v: &Variant, clauses: &[crate::variant::AfterActionWhen]) -> String {
    let each: Vec<String> = clauses
        .iter()
        .map(|c| {
            let mut parts: Vec<String> = Vec::new();
            if !c.kinds.is_empty() {
                parts.push(format!("of a {}", super::text::kinds(v, &c.kinds, "or")));
            }
            if !c.cells.is_empty() {
                parts.push(format!(
                    "from or to {}",
                    super::text::cells(&v.board, &c.cells.cells())
                ));
            }
            let lists = |z: &[CellSet]| z.iter().map(CellSet::cells).collect::<Vec<_>>();
            if let Some(z) = &c.from_zone {
                parts.push(format!("from {}", super::text::zone(v, &lists(z))));
            }
            if let Some(z) = &c.to_zone {
                parts.push(format!("onto {}", super::text::zone(v, &lists(z))));
            }
            if c.captures {
                parts.push("that captures".into());
            }
            let mut out = if parts.is_empty() {
                "any move".to_string()
            } else {
                format!("a move {}", join(&parts, "and"))
            };
            if !c.counters.is_empty() {
                let names: Vec<String> = c.counters.iter().map(|n| format!("`{n}`")).collect();
                out = format!(
                    "{} while the counter {} is not 0",
                    out.trim_end(),
                    join(&names, "or")
                );
            }
            out.trim_end().to_string()
        })
        .collect();
    join(&each, "or")
}

/// What the host and the declarations call a hook for (`performs the
/// action move`), if anything.
fn declared_use(v: &Variant, name: &str) -> Vec<String> {
    let mut uses: Vec<String> = host_use(v, name).into_iter().collect();
    for a in &v.actions {
        if a.perform.as_deref() == Some(name) {
            uses.push(format!("performs the action `{}`", a.name));
        }
        if a.legal.as_deref() == Some(name) {
            uses.push(format!("decides whether the action `{}` is legal", a.name));
        }
        if let Some(c) = a.choose.as_ref().filter(|c| c.handler == name) {
            uses.push(format!(
                "takes the answer to `{}` after the action `{}`",
                c.question, a.name
            ));
        }
    }
    for r in &v.reactions {
        if r.on_pass.as_deref() == Some(name) {
            uses.push(format!(
                "runs when everyone asked in the window `{}` has passed",
                r.name
            ));
        }
    }
    uses
}

/// The section listing the hooks, by script (a later script's hook of the
/// same name replaces an earlier one).
pub(super) fn section(v: &Variant, hooks: &[Hook], unread: &[String]) -> String {
    if hooks.is_empty() && unread.is_empty() {
        return String::new();
    }
    let mut out = String::from("## The script's hooks\n\n");
    out += "What the variant's Luau script adds to the declarations above, with the comment written above each function.\n";
    let mut scripts: Vec<&str> = Vec::new();
    for h in hooks {
        if !scripts.contains(&h.script.as_str()) {
            scripts.push(&h.script);
        }
    }
    for s in scripts {
        out += &format!("\n`{s}`:\n\n");
        for (i, h) in hooks.iter().enumerate().filter(|(_, h)| h.script == s) {
            let replaced = hooks[i + 1..]
                .iter()
                .find(|l| l.name == h.name && l.script != s);
            let mut notes = if h.removed {
                vec!["removes the hook of that name an earlier script defined".to_string()]
            } else {
                declared_use(v, &h.name)
            };
            match replaced {
                Some(l) if l.removed => notes.push(format!("is removed by `{}`", l.script)),
                Some(l) => notes.push(format!("is replaced by the one in `{}`", l.script)),
                None => {}
            }
            let doc = if h.doc.is_empty() {
                "(no comment above it)".to_string()
            } else {
                h.doc.clone()
            };
            let notes = if notes.is_empty() {
                String::new()
            } else {
                format!(" *It {}.*", join(&notes, "and"))
            };
            let head = if h.removed {
                format!("rules.{} = nil", h.name)
            } else {
                format!("rules.{}({})", h.name, h.params)
            };
            out += &format!("- `{head}`: {doc}{notes}\n");
        }
    }
    for u in unread {
        out += &format!("\n`{u}` could not be read.\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hooks_carry_the_comment_lines_right_above_them() {
        let text = "-- not this one\n\nlocal x = 1\n-- Resolves a strike:\n-- higher rank wins.\nfunction rules.strike(g, a, d)\nend\nlocal function helper() end\nrules.setup = function(g) end\n-- stray\nlocal y = 2\nfunction rules.after_action(g, action) end\n";
        let hooks = hooks_in("s.lua", text);
        let names: Vec<(&str, &str, &str)> = hooks
            .iter()
            .map(|h| (h.name.as_str(), h.params.as_str(), h.doc.as_str()))
            .collect();
        assert_eq!(
            names,
            [
                ("strike", "g, a, d", "Resolves a strike: higher rank wins."),
                ("setup", "g", ""),
                ("after_action", "g, action", ""),
            ]
        );
    }

    #[test]
    fn lines_that_only_mention_rules_are_no_hooks() {
        assert_eq!(definition("rules.x = 3"), None);
        assert_eq!(
            definition("rules.strike = nil"),
            Some(("strike".into(), NIL.into()))
        );
        assert_eq!(definition("local f = rules.strike"), None);
        assert_eq!(
            definition("function rules.on_turn_end(g)"),
            Some(("on_turn_end".into(), "g".into()))
        );
    }
}
