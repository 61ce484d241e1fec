//! One source of truth for the Lua API: the API's table
//! (`crates/rules/src/lua/api_spec.rs`: every `g:` method and `rules.*`
//! hook with its parameters, result and doc) writes the tables of
//! `docs/lua-api.md` and the `Game` and `Rules` types of the declarations
//! for Luau's language server (`scripts/types/sandtable.d.luau`), and each
//! registration takes what the table declares. The tests below fail when a
//! written file was edited by hand, when a registration takes other
//! arguments, and when the methods registered on `g`, the hooks the host
//! looks up, the docs and the declarations do not name the same things.
//!
//! How each side is read (as text, so the test needs no Lua state):
//! - registered: every `add_method("NAME"` under `crates/rules/src/lua/api/`;
//! - hooks: the `RuleHook` table (`crates/rules/src/lua/hooks.rs`), the one list of
//!   the hooks the host looks up (a `has_function("NAME")` in `crates/` that
//!   names another fails the test);
//! - documented: a method or hook is documented by a table row of
//!   `docs/lua-api.md` whose first cell names it (`| \`g:NAME(...)\``,
//!   `| \`rules.NAME(...)\``); rows for functions a variant names
//!   (`rules.<perform>`) are not hooks;
//! - declared: the fields of `export type Game = { ... }` and
//!   `export type Rules = { ... }` in the `.d.luau`.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use sandtable::rules::lua::RuleHook;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(rel: &str) -> String {
    fs::read_to_string(Path::new(ROOT).join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The string literals of `text` that follow `marker` (the first literal
/// after each occurrence, if only spaces, newlines and a `(` come between).
fn literals_after(text: &str, marker: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find(marker) {
        rest = &rest[i + marker.len()..];
        let t = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '(');
        if let Some(body) = t.strip_prefix('"') {
            if let Some(end) = body.find('"') {
                out.push(body[..end].to_string());
            }
        }
    }
    out
}

/// Every string literal of a line.
fn literals_in(line: &str) -> Vec<String> {
    line.split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// The methods registered on `g`, from the sources.
fn registered_methods() -> BTreeSet<String> {
    let mut files = Vec::new();
    rust_files(
        &Path::new(ROOT).join("crates/rules/src/lua/api"),
        &mut files,
    );
    let mut out = BTreeSet::new();
    for f in files {
        let text = fs::read_to_string(&f).unwrap();
        for marker in ["add_method", "add_method_mut", "add_function"] {
            out.extend(
                literals_after(&text, &format!("{marker}("))
                    .into_iter()
                    .filter(|n| is_name(n)),
            );
        }
    }
    out
}

/// The `rules.*` hooks the host looks up: the one table of them
/// (`RuleHook`, in `crates/rules/src/lua/hooks.rs`). A hook looked up by name
/// outside it (`has_function("...")`) is a hook the table misses, and
/// fails the test.
fn host_hooks() -> BTreeSet<String> {
    let table: BTreeSet<String> = RuleHook::ALL.iter().map(|h| h.key().to_string()).collect();
    let mut files = Vec::new();
    rust_files(&Path::new(ROOT).join("crates"), &mut files);
    for f in files {
        let text = fs::read_to_string(&f).unwrap();
        for line in text.lines() {
            let code = line.trim_start();
            if code.starts_with("//") || !code.contains("has_function(\"") {
                continue;
            }
            for name in literals_in(code).into_iter().filter(|n| is_name(n)) {
                assert!(
                    table.contains(&name),
                    "{}: looks up rules.{name}, which is not in the RuleHook table",
                    f.display()
                );
            }
        }
    }
    table
}

/// The names of `prefix` (`g:` or `rules.`) that the first cell of a table
/// row of the API's documentation names as a call.
fn documented(doc: &str, prefix: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in doc.lines() {
        let Some(row) = line.strip_prefix('|') else {
            continue;
        };
        let first = row.split('|').next().unwrap_or("");
        let mut rest = first;
        while let Some(i) = rest.find(prefix) {
            rest = &rest[i + prefix.len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if is_name(&name) && rest[name.len()..].starts_with(['(', '{']) {
                out.insert(name);
            }
        }
    }
    out
}

/// The fields of `export type NAME = { ... }` in a Luau declaration file.
fn declared_fields(decl: &str, name: &str) -> BTreeSet<String> {
    let head = format!("export type {name} = {{");
    let start = decl
        .find(&head)
        .unwrap_or_else(|| panic!("the declarations have no `{head}`"));
    let mut out = BTreeSet::new();
    // How deep in brackets a line starts, inside the type's own braces.
    let mut depth = 0i32;
    for line in decl[start + head.len()..].lines() {
        let code = line.split("--").next().unwrap_or("");
        let t = code.trim();
        if depth == 0 && t.starts_with('}') {
            break;
        }
        if depth == 0 {
            if let Some((field, _)) = t.split_once(':') {
                if is_name(field.trim()) {
                    out.insert(field.trim().to_string());
                }
            }
        }
        depth += code.matches(['(', '{']).count() as i32 - code.matches([')', '}']).count() as i32;
    }
    out
}

/// `what` is missing from each side that lacks a name another side has.
fn differences(sides: &[(&str, &BTreeSet<String>)]) -> Vec<String> {
    let all: BTreeSet<&String> = sides.iter().flat_map(|(_, s)| s.iter()).collect();
    let mut out = Vec::new();
    for name in all {
        let missing: Vec<&str> = sides
            .iter()
            .filter(|(_, s)| !s.contains(name))
            .map(|(w, _)| *w)
            .collect();
        if !missing.is_empty() {
            let has: Vec<&str> = sides
                .iter()
                .filter(|(_, s)| s.contains(name))
                .map(|(w, _)| *w)
                .collect();
            out.push(format!(
                "`{name}`: in {} but missing from {}",
                has.join(", "),
                missing.join(", ")
            ));
        }
    }
    out
}

const DECLARATIONS: &str = "scripts/types/sandtable.d.luau";

#[test]
fn every_method_of_g_is_registered_documented_and_declared() {
    let registered = registered_methods();
    assert!(
        registered.len() > 40 && registered.contains("piece_at"),
        "read only {registered:?} from crates/rules/src/lua/api/: has registration changed form?"
    );
    let doc = documented(&read("docs/lua-api.md"), "g:");
    let decl = declared_fields(&read(DECLARATIONS), "Game");
    let diff = differences(&[
        ("crates/rules/src/lua/api (registered)", &registered),
        ("docs/lua-api.md (a table row)", &doc),
        (DECLARATIONS, &decl),
    ]);
    assert!(diff.is_empty(), "g's methods differ:\n{}", diff.join("\n"));
}

#[test]
fn every_hook_the_host_calls_is_documented_and_declared() {
    let hooks = host_hooks();
    for h in ["strike", "after_action", "on_turn_end", "setup"] {
        assert!(
            hooks.contains(h),
            "read only {hooks:?} from crates/: has the hook lookup changed form?"
        );
    }
    let doc = documented(&read("docs/lua-api.md"), "rules.");
    let decl = declared_fields(&read(DECLARATIONS), "Rules");
    let diff = differences(&[
        ("crates/ (the host looks it up)", &hooks),
        ("docs/lua-api.md (a table row)", &doc),
        (DECLARATIONS, &decl),
    ]);
    assert!(diff.is_empty(), "the hooks differ:\n{}", diff.join("\n"));
}

/// The hook table lives in docs/lua-api.md only; the README points there.
#[test]
fn the_readme_points_to_the_api_instead_of_copying_it() {
    let readme = read("README.md");
    assert!(
        readme.contains("docs/lua-api.md"),
        "README.md does not point to docs/lua-api.md"
    );
    let copied: Vec<&str> = readme
        .lines()
        .filter(|l| l.starts_with("| `rules.") || l.starts_with("| `g:"))
        .collect();
    assert!(
        copied.is_empty(),
        "README.md keeps its own copy of API rows (they belong to docs/lua-api.md):\n{}",
        copied.join("\n")
    );
}

/// The editor set-up is Luau's: a `.luaurc` in scripts/ and the `.d.luau`,
/// not a Lua 5.1 language server's.
#[test]
fn the_editor_setup_is_luaus_own() {
    let root = Path::new(ROOT);
    assert!(
        !root.join("scripts/.luarc.json").exists(),
        "scripts/.luarc.json sets up a Lua 5.1 language server for Luau scripts"
    );
    assert!(
        !root.join("scripts/types/sandtable.d.lua").exists(),
        "scripts/types/sandtable.d.lua: a second copy of the declarations"
    );
    let luaurc = read("scripts/.luaurc");
    let v: serde_json::Value = serde_json::from_str(&luaurc).expect("scripts/.luaurc is JSON");
    let globals: Vec<&str> = v["globals"]
        .as_array()
        .expect(".luaurc names the host's globals")
        .iter()
        .filter_map(|g| g.as_str())
        .collect();
    let decl = read(DECLARATIONS);
    for g in &globals {
        assert!(
            decl.contains(&format!("declare {g}:")),
            "scripts/.luaurc names the global `{g}`, which {DECLARATIONS} does not declare"
        );
    }
    assert!(
        read("docs/lua-api.md").contains(".luaurc"),
        "docs/lua-api.md does not say how to set up an editor"
    );
}

/// The declarations are Luau: with each `declare NAME: T` read as a local
/// of that type, the file compiles (Luau's parser checks the type syntax).
#[test]
fn the_declarations_parse_as_luau() {
    let decl = read(DECLARATIONS);
    let chunk: String = decl
        .lines()
        .map(|l| match l.strip_prefix("declare ") {
            Some(rest) => format!("local {rest}\n"),
            None => format!("{l}\n"),
        })
        .collect();
    let lua = mlua::Lua::new();
    if let Err(e) = lua.load(&chunk).set_name(DECLARATIONS).into_function() {
        panic!("{DECLARATIONS} is not valid Luau: {e}");
    }
}

/// `docs/lua-api.md`'s method tables and the `Game` type of the `.d.luau`
/// are what the API's one table writes (`SANDTABLE_BLESS=1` writes them).
#[test]
fn the_generated_lua_api_files_are_current() {
    use sandtable::rules::lua::api_docs::{write_docs, write_types};
    let bless = std::env::var_os("SANDTABLE_BLESS").is_some();
    let mut stale = Vec::new();
    for (rel, write) in [
        (
            "docs/lua-api.md",
            write_docs as fn(&str) -> Result<String, String>,
        ),
        (DECLARATIONS, write_types),
    ] {
        let now = read(rel);
        let written = write(&now).unwrap_or_else(|e| panic!("{rel}: {e}"));
        if written != now {
            if bless {
                fs::write(Path::new(ROOT).join(rel), &written).unwrap();
            } else {
                stale.push(rel);
            }
        }
    }
    assert!(
        stale.is_empty(),
        "{stale:?} differ from crates/rules/src/lua/api_spec.rs (edited by hand?); \
         SANDTABLE_BLESS=1 cargo test --release --test lua_api writes them"
    );
}

/// What a registration's closure takes, read from its source: for each
/// parameter, its Rust type (`()` takes none).
fn registered_parameters() -> Vec<(String, Vec<String>)> {
    let mut files = Vec::new();
    rust_files(
        &Path::new(ROOT).join("crates/rules/src/lua/api"),
        &mut files,
    );
    let mut out = Vec::new();
    for f in files {
        let text = fs::read_to_string(&f).unwrap();
        let mut rest = text.as_str();
        while let Some(i) = rest.find("add_method(\"") {
            rest = &rest[i + "add_method(\"".len()..];
            let name = rest[..rest.find('"').unwrap()].to_string();
            // `|lua, _, ARGS|`: ARGS after the second comma, to the bar.
            let open = rest.find('|').unwrap();
            let close = open + 1 + rest[open + 1..].find('|').unwrap();
            let head = &rest[open + 1..close];
            let args = head.splitn(3, ',').nth(2).unwrap_or("").trim();
            let types = match args.split_once(':') {
                None => Vec::new(),
                Some((_, ty)) => {
                    let ty = ty.trim();
                    match ty.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
                        Some(inner) => sandtable::rules::lua::api_spec::split_top(inner)
                            .into_iter()
                            .map(|t| t.trim().to_string())
                            .collect(),
                        None => vec![ty.to_string()],
                    }
                }
            };
            out.push((name, types));
        }
    }
    out
}

/// Whether a Rust argument type takes what a Luau type declares: the same
/// number of parameters, optional where `Option<…>`, and of the same sort
/// (a string, a number, a piece, a table, a boolean; any Lua value takes
/// any type).
fn takes(rust: &str, luau: &str) -> bool {
    let (rust, r_opt) = match rust.strip_prefix("Option<") {
        Some(inner) => (inner.strip_suffix('>').unwrap_or(inner), true),
        None => (rust, false),
    };
    let l_opt = luau.ends_with('?');
    let luau = luau.trim_end_matches('?');
    if r_opt != l_opt {
        return false;
    }
    let sort = |l: &str| {
        if l.starts_with('{') || l == "PieceFilter" {
            "table"
        } else if l == "number" {
            "number"
        } else if l == "boolean" {
            "boolean"
        } else if l == "PieceRef" {
            "piece"
        } else if l.starts_with('(') || l.contains('|') || l == "Players" {
            "any"
        } else {
            "string"
        }
    };
    let rust_sort = match rust {
        "Name" | "Text" | "String" => "string",
        "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" | "f64" | "usize" => "number",
        "bool" => "boolean",
        "PieceArg" => "piece",
        "Table" => "table",
        "LV" | "Value" | "mlua::Value" => "any",
        _ => return false,
    };
    rust_sort == "any" || rust_sort == sort(luau) || (sort(luau) == "any" && rust_sort != "table")
}

/// Each registration takes what the API's table declares for the method.
#[test]
fn every_registration_takes_what_the_api_table_declares() {
    use sandtable::rules::lua::api_spec::METHODS;
    let registered = registered_parameters();
    assert!(registered.len() > 40, "read only {registered:?}");
    let mut errors = Vec::new();
    for (name, types) in &registered {
        let Some(m) = METHODS.iter().find(|m| m.name == name) else {
            errors.push(format!("g:{name} is registered but not in the API's table"));
            continue;
        };
        let declared = m.parameters();
        let agree = declared.len() == types.len()
            && declared.iter().zip(types).all(|((_, l), r)| takes(r, l));
        if !agree {
            errors.push(format!(
                "g:{name} takes ({}) but the table declares ({})",
                types.join(", "),
                m.params
            ));
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    // The reading itself: a wrong arity, a missing `Option` and a wrong
    // sort are caught.
    assert!(takes("Option<Name>", "Player?") && takes("PieceArg", "PieceRef"));
    assert!(!takes("Name", "Player?") && !takes("i32", "CellName") && !takes("Table", "string"));
}
