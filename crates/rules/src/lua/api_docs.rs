//! The files written from the Lua API's table ([`super::api_spec`]): the
//! method tables of `docs/lua-api.md` and the `Game` type of
//! `scripts/types/sandtable.d.luau`. Each file keeps its own prose; only
//! the parts between its markers are written.
//!
//! Changes when the way those files show a method changes.

use super::api_spec::{Area, Defined, Hook, Section, ACTION_FIELDS, HOOKS, METHODS};
use super::ActionKind;

/// A generated table of methods in `docs/lua-api.md`: the marker names
/// the areas whose methods it lists (`<!-- g: Windows Containers -->`),
/// and the table runs to `<!-- end g -->`.
const METHODS_MARK: (&str, &str) = ("<!-- g: ", "<!-- end g -->");
/// A generated table of hooks: `<!-- rules: Main -->` to `<!-- end rules -->`.
const HOOKS_MARK: (&str, &str) = ("<!-- rules: ", "<!-- end rules -->");

/// The items of `all` a marker names (by their `Debug` names), in its order.
fn named<T: Copy + std::fmt::Debug>(marker: &str, all: &[T]) -> Result<Vec<T>, String> {
    marker
        .split_whitespace()
        .map(|word| {
            all.iter()
                .copied()
                .find(|a| format!("{a:?}") == word)
                .ok_or_else(|| format!("`{word}` is not a part of the Lua API's table"))
        })
        .collect()
}

/// A Markdown table of the methods of `areas`.
pub fn methods_table(areas: &[Area]) -> String {
    let answer = if areas == [Area::Reading] {
        "returns"
    } else {
        "does"
    };
    let mut out = format!("| call | {answer} | example |\n|---|---|---|\n");
    for area in areas {
        for m in METHODS.iter().filter(|m| m.area == *area) {
            let example = match m.example {
                "" => String::new(),
                e => format!("`{e}`"),
            };
            out.push_str(&format!("| `{}` | {} | {example} |\n", m.call(), m.doc));
        }
    }
    out
}

/// A Markdown table of the hooks (and named functions) of `sections`.
pub fn hooks_table(sections: &[Section]) -> String {
    let rows: Vec<&Hook> = sections
        .iter()
        .flat_map(|s| HOOKS.iter().filter(move |h| h.section == *s))
        .collect();
    let named = rows.iter().any(|h| matches!(h.defined, Defined::Named(_)));
    let what = if named { "function" } else { "hook" };
    let mut out = format!("| {what} | called | answer |\n|---|---|---|\n");
    for h in rows {
        out.push_str(&format!(
            "| `{}` | {} | {} |\n",
            h.call(),
            h.called,
            h.answer
        ));
    }
    out
}

/// `doc` with every table between a `(start, end)` pair of markers written
/// afresh by `table` from the words of its start marker.
fn write_marked(
    doc: &str,
    (start_mark, end_mark): (&str, &str),
    table: impl Fn(&str) -> Result<String, String>,
) -> Result<String, String> {
    let mut out = String::with_capacity(doc.len());
    let mut rest = doc;
    while let Some(start) = rest.find(start_mark) {
        let line_end = rest[start..]
            .find('\n')
            .map_or(rest.len(), |i| start + i + 1);
        let marker = rest[start + start_mark.len()..line_end]
            .trim_end()
            .strip_suffix("-->")
            .ok_or_else(|| format!("a `{start_mark}… -->` marker does not close on its line"))?;
        let end = rest[line_end..]
            .find(end_mark)
            .map(|i| line_end + i)
            .ok_or_else(|| format!("`{start_mark}{marker}-->` has no `{end_mark}` after it"))?;
        out.push_str(&rest[..line_end]);
        out.push_str(&table(marker)?);
        rest = &rest[end..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The action table's fields as a Markdown table.
pub fn action_table() -> String {
    let mut out = String::from("| field | what |\n|---|---|\n");
    for f in ACTION_FIELDS {
        let doc = match f.name {
            "kind" => {
                let kinds: Vec<String> = ActionKind::ALL
                    .iter()
                    .map(|k| format!("`\"{}\"` ({})", k.name(), k.what()))
                    .collect();
                format!("{}: {}", f.doc, kinds.join(", "))
            }
            _ => f.doc.to_string(),
        };
        out.push_str(&format!("| `{}` | {doc} |\n", f.name));
    }
    out
}

/// The `Action` type's fields.
pub fn action_type_fields() -> String {
    let mut out = String::new();
    for f in ACTION_FIELDS {
        let luau = match f.name {
            "kind" => {
                let names: Vec<String> = ActionKind::ALL
                    .iter()
                    .map(|k| format!("\"{}\"", k.name()))
                    .collect();
                names.join(" | ")
            }
            _ => f.luau.to_string(),
        };
        out.push_str(&format!("\t{}: {luau}, -- {}\n", f.name, f.short));
    }
    out
}

/// `docs/lua-api.md` with each marked table written afresh.
pub fn write_docs(doc: &str) -> Result<String, String> {
    let doc = write_marked(doc, ("<!-- action: ", "<!-- end action -->"), |_| {
        Ok(action_table())
    })?;
    let doc = write_marked(&doc, METHODS_MARK, |m| {
        Ok(methods_table(&named(m, &Area::ALL)?))
    })?;
    write_marked(&doc, HOOKS_MARK, |m| {
        Ok(hooks_table(&named(m, &Section::ALL)?))
    })
}

/// The fields of the `Game` type: every method, grouped by area.
pub fn game_type_fields() -> String {
    let mut out = String::new();
    for (i, area) in Area::ALL.into_iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&format!("\t-- {}\n", area.heading()));
        for m in METHODS.iter().filter(|m| m.area == area) {
            let params = match m.params {
                "" => String::new(),
                p => format!(", {p}"),
            };
            out.push_str(&format!(
                "\t{}: (self: Game{params}) -> {},\n",
                m.name, m.returns
            ));
        }
    }
    out
}

/// The fields of the `Rules` type: every hook, optional, and an indexer
/// for the functions a variant names.
pub fn rules_type_fields() -> String {
    let mut out = String::new();
    for h in HOOKS
        .iter()
        .filter(|h| matches!(h.defined, Defined::Hook(_)))
    {
        out.push_str(&format!(
            "\t{}: (({}) -> {})?,\n",
            h.name(),
            h.params,
            h.returns
        ));
    }
    out.push_str("\t[string]: any,\n");
    out
}

/// `luau` with the body of `export type NAME = {` … `}` replaced.
fn write_type(luau: &str, name: &str, fields: &str) -> Result<String, String> {
    let head = format!("export type {name} = {{\n");
    let start = luau
        .find(&head)
        .ok_or_else(|| format!("no `export type {name} = {{` in the declarations"))?
        + head.len();
    // The closing brace at the start of a line (the body may be empty).
    let end = match luau[start..].starts_with("}\n") {
        true => Some(start),
        false => luau[start..].find("\n}\n").map(|i| start + i + 1),
    }
    .ok_or_else(|| format!("the `{name}` type does not close"))?;
    Ok(format!("{}{fields}{}", &luau[..start], &luau[end..]))
}

/// `sandtable.d.luau` with the `Game` and `Rules` types' fields written
/// afresh.
pub fn write_types(luau: &str) -> Result<String, String> {
    let luau = write_type(luau, "Action", &action_type_fields())?;
    let luau = write_type(&luau, "Game", &game_type_fields())?;
    write_type(&luau, "Rules", &rules_type_fields())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marked_table_is_written_and_the_prose_around_it_kept() {
        let doc = "intro\n<!-- g: Windows -->\n| old |\n<!-- end g -->\nafter\n";
        let written = write_docs(doc).unwrap();
        assert!(written.starts_with("intro\n<!-- g: Windows -->\n| call | does |"));
        assert!(written.contains("| `g:open_window(name[, data])` |"));
        assert!(written.ends_with("<!-- end g -->\nafter\n"));
        assert!(!written.contains("| old |"));
        assert_eq!(write_docs(&written).unwrap(), written);
        assert!(write_docs("<!-- g: Nowhere -->\n<!-- end g -->")
            .unwrap_err()
            .contains("Nowhere"));
        assert!(write_docs("<!-- g: Reading -->\n").is_err());
        let action = write_docs("<!-- action: fields -->\n<!-- end action -->\n").unwrap();
        assert!(
            action.contains("| `kind` | what the action is: `\"move\"`"),
            "{action}"
        );
        let hooks = write_docs("<!-- rules: Fast -->\n<!-- end rules -->\n").unwrap();
        assert!(hooks.contains(
            "| hook | called | answer |\n|---|---|---|\n| `rules.frozen(g, player, cells)` |"
        ));
    }

    #[test]
    fn the_game_type_lists_every_method_once() {
        let fields = game_type_fields();
        for m in METHODS {
            let field = format!("\t{}: (self: Game", m.name);
            assert_eq!(fields.matches(&field).count(), 1, "{}", m.name);
        }
        let luau = "x\nexport type Game = {\n\told: number,\n}\ny\nexport type Rules = {\n}\nexport type Action = {\n}\n";
        let written = write_types(luau).unwrap();
        assert!(written.contains("\tstrike: ((g: Game, attacker: Piece, "));
        assert!(written.starts_with("x\nexport type Game = {\n\t-- Reading the game\n"));
        assert!(written.contains("\t[string]: any,\n}\n") && !written.contains("old"));
        assert!(written.contains("\tkind: \"move\" | \"choice\""));
    }
}
