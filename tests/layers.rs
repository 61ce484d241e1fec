//! The layers, held by the compiler and by what it cannot see.
//!
//! Each layer is a crate (`crates/LAYER`), and a crate depends only on the
//! crates below it: an import running back up does not compile. What this
//! file checks:
//! - the crates' dependencies are the arrows of ARCHITECTURE.md's crate
//!   map, each running down the layer order, and no other;
//! - the rules the layer order allows but the design does not (the schema
//!   before any script, views computed by the host alone, the network
//!   through views and sessions): the crates' sources are read as text
//!   (comments and string contents left out), and every path a file names
//!   — its `use`s, groups expanded, and the paths in its code, through
//!   `crate::`, `super::`, a child module or a name a `use` brought in — is
//!   followed through every `pub use` and `pub type` alias to where the
//!   item is defined: a path through a module that re-exports from a
//!   forbidden place counts as that place. Some folders also may not reach
//!   into some fields (the network goes through the session's methods,
//!   never `session.engine`);
//! - no public function is unused.
//!
//! File and function lengths are not checked: a file is split where its
//! reasons to change part, not at a count of lines.

use std::fs;
use std::path::{Path, PathBuf};

/// The layers from the bottom up; a file may use its own layer and those
/// before it.
const LAYERS: [&str; 6] = ["base", "rules", "engine", "record", "play", "front"];

/// Imports that the layer order allows but the design does not:
/// (file or folder prefix, forbidden path prefix, why).
const FORBIDDEN: &[(&str, &str, &str)] = &[
    (
        "rules/variant",
        "crate::rules::lua",
        "the schema is read before any script runs",
    ),
    (
        "record/view",
        "crate::rules::lua",
        "views are computed by the host alone",
    ),
    (
        "front/net",
        "crate::base",
        "the network works from views and sessions",
    ),
    (
        "front/net",
        "crate::rules",
        "the network works from views and sessions",
    ),
    (
        "front/net",
        "crate::engine",
        "the network works from views and sessions",
    ),
];

/// The crates' sources as one tree, the way the layers' paths spell it:
/// `crates/engine/src/apply.rs` is `engine/apply.rs` (and `lib.rs` the
/// layer's `mod.rs`), and inside a crate `crate::x` (its own item) reads
/// `crate::engine::x`, while `crate::base::…` (the crate-root alias of a
/// layer below) stays as written. A `lib.rs` naming every layer ties them.
fn sources() -> Vec<(String, String)> {
    let mut out = vec![(
        "lib.rs".to_string(),
        LAYERS.map(|l| format!("pub mod {l};\n")).concat(),
    )];
    for layer in LAYERS {
        for (rel, text) in rust_files(&format!("crates/{layer}/src")) {
            let rel = if rel == "lib.rs" {
                "mod.rs".to_string()
            } else {
                rel
            };
            out.push((format!("{layer}/{rel}"), own_paths(layer, &text)));
        }
    }
    out
}

/// `crate::x` of a crate's own items as `crate::LAYER::x`; the aliases of
/// the layers below (`crate::base`, …) are left as they are.
fn own_paths(layer: &str, text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("crate::") {
        let (head, tail) = rest.split_at(i + "crate::".len());
        out.push_str(head);
        let below = LAYERS
            .iter()
            .any(|l| tail.starts_with(l) && !tail[l.len()..].starts_with(is_ident));
        let preceded = head[..i].ends_with(is_ident);
        if !below && !preceded {
            out.push_str(layer);
            out.push_str("::");
        }
        rest = tail;
    }
    out.push_str(rest);
    out
}

/// Where a file of [`sources`] is: `engine/apply.rs` is
/// `crates/engine/src/apply.rs`, `engine/mod.rs` its `lib.rs`.
fn shown(rel: &str) -> String {
    let (layer, path) = rel.split_once('/').unwrap_or(("", rel));
    let path = if path == "mod.rs" { "lib.rs" } else { path };
    format!("crates/{layer}/src/{path}")
}

/// The `.rs` files under a folder of the crate (none if it is missing),
/// each with its path inside that folder.
fn rust_files(folder: &str) -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if !path.ends_with("target") {
                    walk(&path, out);
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
    let mut files = Vec::new();
    walk(&root, &mut files);
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let rel = p
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (rel, fs::read_to_string(&p).unwrap())
        })
        .collect()
}

fn layer_of(rel: &str) -> Option<usize> {
    let top = rel.split('/').next()?;
    LAYERS.iter().position(|l| *l == top)
}

/// Names the layer order allows but the design does not, as they resolve
/// through `pub use` re-exports: (file or folder prefix, the resolved path,
/// why it is allowed). Only these exact paths pass a `FORBIDDEN` rule.
const ALLOWED: &[(&str, &str, &str)] = &[(
    "front/net",
    "crate::base::state::PlayerId",
    "a seat is a player's number: the one base word views name (record::view re-exports it)",
)];

/// Fields a folder may not reach into: (file or folder prefix, field, why).
/// `.field` followed by `(` is a method call and allowed.
const FORBIDDEN_FIELDS: &[(&str, &str, &str)] = &[
    (
        "front/net",
        "engine",
        "the network reaches the game only through the session's methods",
    ),
    (
        "front/net",
        "state",
        "the network reaches the game only through the session's methods",
    ),
    (
        "front/net",
        "start",
        "the network reaches the game only through the session's methods",
    ),
    (
        "front/net",
        "history",
        "the network reaches the game only through the session's methods",
    ),
];

/// The module a file defines: `record/view.rs` is `crate::record::view`,
/// `record/mod.rs` is `crate::record`, `lib.rs` is `crate`.
fn module_of(rel: &str) -> Vec<String> {
    let mut m = vec!["crate".to_string()];
    let stem = rel.trim_end_matches(".rs");
    for part in stem.split('/') {
        if !matches!(part, "mod" | "lib" | "main") {
            m.push(part.to_string());
        }
    }
    m
}

/// A file's code: comments and literal contents blanked, lines kept.
fn code_text(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let line = strip_literals_keep(line);
        out.push_str(line.find("//").map_or(&line[..], |i| &line[..i]));
        out.push('\n');
    }
    out
}

/// A line with string contents made spaces and quotes
/// stay, so columns and the shape of the line are kept.
fn strip_literals_keep(line: &str) -> String {
    let mut out = String::new();
    let mut in_str = false;
    let mut escaped = false;
    let mut skip = 0;
    for (at, c) in line.char_indices() {
        if skip > 0 {
            skip -= 1;
            out.push(if c == '\'' { '\'' } else { ' ' });
            continue;
        }
        if in_str {
            if escaped {
                escaped = false;
                out.push(' ');
            } else if c == '\\' {
                escaped = true;
                out.push(' ');
            } else if c == '"' {
                in_str = false;
                out.push('"');
            } else {
                out.push(' ');
            }
        } else if c == '\'' && matches!(line.get(at + 1..at + 3), Some("\"'")) {
            // The character literal '"'.
            skip = 2;
            out.push_str("' ");
        } else {
            if c == '"' {
                in_str = true;
            }
            out.push(c);
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// One `use` of a file: the path as written (segments; the last may be
/// `*`), the name it brings in, whether it is `pub`, its line.
#[derive(Debug)]
struct Use {
    path: Vec<String>,
    name: String,
    public: bool,
    line: usize,
}

/// The `use` statements of a file's code, groups expanded, `as` kept; the
/// code with those statements blanked out is returned beside them.
fn uses(code: &str) -> (Vec<Use>, String) {
    let bytes: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut rest: Vec<char> = bytes.clone();
    let mut i = 0;
    while i + 3 < bytes.len() {
        let word = bytes[i..i + 3].iter().collect::<String>() == "use";
        let before_ok = i == 0 || !is_ident(bytes[i - 1]);
        let after_ok = bytes[i + 3].is_whitespace();
        if !(word && before_ok && after_ok) {
            i += 1;
            continue;
        }
        // What stands before: a statement boundary, `pub` or `pub(…)`.
        let head: String = bytes[..i].iter().collect();
        let head = head.trim_end();
        let public = head.ends_with("pub") || (head.ends_with(')') && head.contains("pub("));
        let boundary = public
            || head.is_empty()
            || head.ends_with(';')
            || head.ends_with('{')
            || head.ends_with('}')
            || head.ends_with(']');
        if !boundary {
            i += 1;
            continue;
        }
        let Some(len) = bytes[i..].iter().position(|&c| c == ';') else {
            break;
        };
        let stmt: String = bytes[i + 3..i + len].iter().collect();
        let line = bytes[..i].iter().filter(|&&c| c == '\n').count() + 1;
        let tokens = use_tokens(&stmt);
        let mut k = 0;
        let mut found = Vec::new();
        use_tree(&tokens, &mut k, Vec::new(), &mut found);
        for (path, name) in found {
            out.push(Use {
                path,
                name,
                public,
                line,
            });
        }
        for c in rest.iter_mut().skip(i).take(len + 1) {
            if *c != '\n' {
                *c = ' ';
            }
        }
        i += len + 1;
    }
    (out, rest.into_iter().collect())
}

fn use_tokens(stmt: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut cur = String::new();
    let mut chars = stmt.chars().peekable();
    while let Some(c) = chars.next() {
        if is_ident(c) {
            cur.push(c);
            continue;
        }
        if !cur.is_empty() {
            tokens.push(std::mem::take(&mut cur));
        }
        match c {
            ':' if chars.peek() == Some(&':') => {
                chars.next();
                tokens.push("::".into());
            }
            '{' | '}' | ',' | '*' => tokens.push(c.to_string()),
            _ => {}
        }
    }
    if !cur.is_empty() {
        tokens.push(cur);
    }
    tokens
}

/// Reads one use tree at `tokens[*k]` under `prefix`.
fn use_tree(
    tokens: &[String],
    k: &mut usize,
    mut prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, String)>,
) {
    while let Some(t) = tokens.get(*k) {
        match t.as_str() {
            "{" => {
                *k += 1;
                while let Some(t) = tokens.get(*k) {
                    match t.as_str() {
                        "}" => {
                            *k += 1;
                            return;
                        }
                        "," => *k += 1,
                        _ => use_tree(tokens, k, prefix.clone(), out),
                    }
                }
                return;
            }
            "*" => {
                *k += 1;
                prefix.push("*".into());
                out.push((prefix, "*".into()));
                return;
            }
            "::" => *k += 1,
            "," | "}" => return,
            ident => {
                prefix.push(ident.to_string());
                *k += 1;
                if tokens.get(*k).map(String::as_str) == Some("::") {
                    continue;
                }
                let mut name = ident.to_string();
                if tokens.get(*k).map(String::as_str) == Some("as") {
                    name = tokens.get(*k + 1).cloned().unwrap_or_default();
                    *k += 2;
                }
                if prefix.last().map(String::as_str) == Some("self") {
                    prefix.pop();
                    if name == "self" {
                        name = prefix.last().cloned().unwrap_or_default();
                    }
                }
                out.push((prefix, name));
                return;
            }
        }
    }
}

/// What the crate's modules define and re-export.
#[derive(Default)]
struct Modules {
    /// Every module, as a `::` path.
    modules: std::collections::HashSet<String>,
    /// `module::name` for every item a module defines itself.
    items: std::collections::HashSet<String>,
    /// `module::name` → the path it re-exports (`pub use`, `pub type X = path`).
    reexports: std::collections::HashMap<String, Vec<String>>,
    /// module → the paths it re-exports whole (`pub use path::*`).
    globs: std::collections::HashMap<String, Vec<Vec<String>>>,
}

/// A path written in module `module`, made absolute (`crate::…`); `None`
/// for paths into other crates.
fn absolute(module: &[String], path: &[String], mods: &Modules) -> Option<Vec<String>> {
    let first = path.first()?;
    match first.as_str() {
        "crate" => Some(path.to_vec()),
        "self" => Some([module, &path[1..]].concat()),
        "super" => {
            let mut m = module.to_vec();
            let mut rest = path;
            while rest.first().map(String::as_str) == Some("super") {
                m.pop();
                rest = &rest[1..];
            }
            Some([&m[..], rest].concat())
        }
        _ => {
            let child = [module, &path[..1]].concat().join("::");
            mods.modules
                .contains(&child)
                .then(|| [module, path].concat())
        }
    }
}

fn modules(files: &[(String, String)]) -> Modules {
    let mut mods = Modules::default();
    for (rel, _) in files {
        mods.modules.insert(module_of(rel).join("::"));
    }
    let item = |t: &str| {
        let t = t.trim_start();
        let t = if let Some(r) = t.strip_prefix("pub(") {
            r.split_once(") ").map_or("", |(_, r)| r)
        } else {
            t.strip_prefix("pub ")?
        };
        let mut words = t.split_whitespace();
        let mut w = words.next()?;
        while matches!(w, "unsafe" | "async" | "const" | "extern") {
            match words.clone().next() {
                Some("fn") | Some("unsafe") | Some("async") => w = words.next()?,
                _ => break,
            }
        }
        matches!(
            w,
            "struct" | "enum" | "fn" | "trait" | "const" | "static" | "mod" | "union" | "type"
        )
        .then(|| words.next())
        .flatten()
        .map(|n| n.chars().take_while(|&c| is_ident(c)).collect::<String>())
    };
    for (rel, text) in files {
        let module = module_of(rel);
        let m = module.join("::");
        let code = code_text(text);
        for line in code.lines() {
            if let Some(name) = item(line) {
                mods.items.insert(format!("{m}::{name}"));
                // `pub type Name = some::path;` re-exports the path.
                if let Some((_, rhs)) = line.split_once(&format!("type {name} =")) {
                    let rhs = rhs.trim().trim_end_matches(';').trim();
                    let path: Vec<String> = rhs.split("::").map(str::to_string).collect();
                    if path.len() > 1
                        && path
                            .iter()
                            .all(|s| !s.is_empty() && s.chars().all(is_ident))
                    {
                        mods.reexports.insert(format!("{m}::{name}"), path);
                    }
                }
            }
        }
        for u in uses(&code).0.into_iter().filter(|u| u.public) {
            let Some(target) = absolute(&module, &u.path, &mods) else {
                continue;
            };
            if u.name == "*" {
                let mut t = target;
                t.pop();
                mods.globs.entry(m.clone()).or_default().push(t);
            } else {
                mods.reexports.insert(format!("{m}::{}", u.name), target);
            }
        }
    }
    // Paths of `pub type` aliases are relative to their module too.
    let aliases: Vec<(String, Vec<String>)> = mods
        .reexports
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    for (k, v) in aliases {
        let module: Vec<String> = k
            .rsplit_once("::")
            .unwrap()
            .0
            .split("::")
            .map(str::to_string)
            .collect();
        if let Some(abs) = absolute(&module, &v, &mods) {
            mods.reexports.insert(k, abs);
        }
    }
    mods
}

/// Where an absolute path really leads: through every `pub use` (and
/// `pub type` alias) on the way, to the module that defines the item.
fn resolve(path: &[String], mods: &Modules, depth: usize) -> Vec<String> {
    if depth > 32 {
        return path.to_vec();
    }
    for k in 1..path.len() {
        let key = path[..=k].join("::");
        if let Some(target) = mods.reexports.get(&key) {
            if target.as_slice() != &path[..=k] {
                return resolve(&[&target[..], &path[k + 1..]].concat(), mods, depth + 1);
            }
        }
        let module = path[..k].join("::");
        let defined = mods.items.contains(&key) || mods.modules.contains(&key);
        if defined {
            continue;
        }
        for glob in mods.globs.get(&module).into_iter().flatten() {
            let there = format!("{}::{}", glob.join("::"), path[k]);
            let known = mods.items.contains(&there)
                || mods.modules.contains(&there)
                || mods.reexports.contains_key(&there)
                || mods.globs.contains_key(&glob.join("::"));
            if known {
                return resolve(&[&glob[..], &path[k..]].concat(), mods, depth + 1);
            }
        }
    }
    path.to_vec()
}

/// Every path into the crate a file names, made absolute, with its line:
/// its `use`s, and the paths in its code (`crate::…`, `super::…`, and
/// paths through a name a `use` brought in or a child module).
fn named_paths(rel: &str, text: &str, mods: &Modules) -> Vec<(usize, String, Vec<String>)> {
    let module = module_of(rel);
    let (file_uses, rest) = uses(&code_text(text));
    let mut out = Vec::new();
    let mut names = std::collections::HashMap::new();
    for u in &file_uses {
        let written = u.path.join("::");
        if let Some(abs) = absolute(&module, &u.path, mods) {
            let mut abs = abs;
            if abs.last().map(String::as_str) == Some("*") {
                abs.pop();
            } else {
                names.insert(u.name.clone(), abs.clone());
            }
            out.push((u.line, written, abs));
        }
    }
    for (n, line) in rest.lines().enumerate() {
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            if !is_ident(chars[i]) || (i > 0 && (is_ident(chars[i - 1]) || chars[i - 1] == ':')) {
                i += 1;
                continue;
            }
            let end = (i..chars.len())
                .find(|&j| !(is_ident(chars[j]) || chars[j] == ':'))
                .unwrap_or(chars.len());
            let written: String = chars[i..end].iter().collect();
            i = end;
            let segs: Vec<String> = written
                .trim_end_matches(':')
                .split("::")
                .map(str::to_string)
                .collect();
            if segs.len() < 2 || segs.iter().any(String::is_empty) {
                continue;
            }
            let abs = match names.get(&segs[0]) {
                Some(target) if !matches!(segs[0].as_str(), "crate" | "self" | "super") => {
                    Some([&target[..], &segs[1..]].concat())
                }
                _ => absolute(&module, &segs, mods),
            };
            if let Some(abs) = abs {
                out.push((n + 1, written.trim_end_matches(':').to_string(), abs));
            }
        }
    }
    out
}

/// The `.field` accesses (not method calls) a file's code makes.
fn field_uses(text: &str, field: &str) -> Vec<usize> {
    let mut out = Vec::new();
    for (n, line) in code_text(text).lines().enumerate() {
        let pat = format!(".{field}");
        let mut from = 0;
        while let Some(i) = line[from..].find(&pat) {
            let at = from + i;
            let after = line[at + pat.len()..].chars().next();
            let before = line[..at].chars().last();
            if !after.is_some_and(|c| is_ident(c) || c == '(') && before != Some('.') {
                out.push(n + 1);
            }
            from = at + pat.len();
        }
    }
    out
}

fn import_errors(files: &[(String, String)]) -> Vec<String> {
    let mods = modules(files);
    let mut errors = Vec::new();
    for (rel, text) in files {
        let Some(own) = layer_of(rel) else { continue };
        let mut seen = std::collections::HashSet::new();
        for (n, written, abs) in named_paths(rel, text, &mods) {
            let resolved = resolve(&abs, &mods, 0).join("::");
            let abs = abs.join("::");
            let through = if resolved != abs {
                format!(" (re-exported from {resolved})")
            } else {
                String::new()
            };
            let mut push = |e: String| {
                if seen.insert(e.clone()) {
                    errors.push(e);
                }
            };
            for path in [&abs, &resolved] {
                let top = path.split("::").nth(1).unwrap_or("");
                if path.split("::").count() < 2 {
                    continue;
                }
                match LAYERS.iter().position(|l| *l == top) {
                    Some(l) if l > own => push(format!(
                        "{}:{n}: {written}{through}: the {} layer imports the {} layer above it",
                        shown(rel),
                        LAYERS[own],
                        LAYERS[l]
                    )),
                    None => push(format!(
                        "{}:{n}: {written}: not a path through a layer folder",
                        shown(rel)
                    )),
                    _ => {}
                }
                for (from, to, why) in FORBIDDEN {
                    let allowed = ALLOWED
                        .iter()
                        .any(|(f, p, _)| rel.starts_with(f) && path.as_str() == *p);
                    if rel.starts_with(from) && path.starts_with(to) && !allowed {
                        push(format!("{}:{n}: {written}{through}: {why}", shown(rel)));
                    }
                }
            }
        }
        for (from, field, why) in FORBIDDEN_FIELDS {
            if rel.starts_with(from) {
                for n in field_uses(text, field) {
                    errors.push(format!("{}:{n}: .{field}: {why}", shown(rel)));
                }
            }
        }
    }
    errors
}

#[test]
fn imports_follow_the_layers() {
    let errors = import_errors(&sources());
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn the_checks_catch_what_they_should() {
    let files = vec![
        (
            "rules/lua/api.rs".to_string(),
            "use crate::engine::movegen::attacked_on; // ok in comments: crate::front".to_string(),
        ),
        (
            "record/view.rs".to_string(),
            "use crate::rules::lua::Effect;\n// crate::front::net\n".to_string(),
        ),
        (
            "engine/apply.rs".to_string(),
            "use crate::base::state::GameState;\nuse crate::rules::lua::Rules;".to_string(),
        ),
    ];
    let errors = import_errors(&files);
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert!(errors[0].contains("the rules layer imports the engine layer"));
    assert!(errors[1].contains("views are computed by the host alone"));
}

/// The network may reach the game only through the session's methods, and
/// a re-export does not launder a forbidden import: a path through a
/// module that re-exports from a forbidden layer counts as that layer.
#[test]
fn the_checks_see_through_re_exports_and_engine_fields() {
    let file = |rel: &str, text: &str| (rel.to_string(), text.to_string());
    let base = vec![
        file("lib.rs", "pub mod base;\npub mod engine;\npub mod record;\npub mod front;\n"),
        file("base/state.rs", "pub type PlayerId = u8;\npub struct GameState;\n"),
        file("engine/mod.rs", "mod action;\npub use action::{Action, Event};\npub struct Engine;\n"),
        file("engine/action.rs", "pub enum Event {}\npub enum Action {}\n"),
        file(
            "record/view.rs",
            "pub use crate::base::state::{GameState as Position, PlayerId};\npub use crate::engine::Event;\npub enum Viewer {}\npub type Moves = crate::engine::Action;\n",
        ),
        file("record/mod.rs", "pub mod view;\npub use view::*;\n"),
        file("front/session/mod.rs", "pub struct Session { pub engine: Engine }\n"),
    ];
    let errors_with = |extra: &[(String, String)]| {
        let mut files = base.clone();
        files.extend(extra.iter().cloned());
        import_errors(&files)
    };
    // The clean shape passes: views' own names, the allowed seat number,
    // a method called `state()`, a field named in a comment or a string.
    let clean = file(
        "front/net/host.rs",
        "use crate::record::view::{PlayerId, Viewer};\nfn f(c: &Conn) { c.state().x(); let s = \".engine.\"; } // s.engine.x()\n",
    );
    assert_eq!(errors_with(&[clean]), Vec::<String>::new());
    let planted = [
        (
            "fn f(s: &Session) { s.engine.acting_player(); }\n",
            ".engine",
        ),
        (
            "fn f(g: &Shared) { let n = g\n    .session\n    .engine\n    .variant; }\n",
            ".engine",
        ),
        (
            "fn f(g: &Shared) { g.session.state.outcome.is_some(); }\n",
            ".state",
        ),
        (
            "use crate::record::view::{Event, Viewer};\n",
            "re-exported from crate::engine::action::Event",
        ),
        (
            "use crate::record::view::Position;\n",
            "re-exported from crate::base::state::GameState",
        ),
        (
            "use crate::record::view;\nfn f(e: &[view::Event]) {}\n",
            "re-exported from crate::engine::action::Event",
        ),
        (
            "use crate::record::Event;\n",
            "re-exported from crate::engine::action::Event",
        ),
        (
            "fn f(e: crate::record::view::Moves) {}\n",
            "re-exported from crate::engine::action::Action",
        ),
        (
            "use crate::record::{\n    view::{\n        Viewer,\n        Event as E,\n    },\n};\n",
            "re-exported from crate::engine::action::Event",
        ),
        (
            "use crate::engine::Engine;\n",
            "the network works from views and sessions",
        ),
    ];
    for (text, expected) in planted {
        let errors = errors_with(&[file("front/net/host.rs", text)]);
        assert!(
            errors.len() == 1 && errors[0].contains(expected),
            "{text:?} should give one error with {expected:?}: {errors:#?}"
        );
    }
    // Re-exports count for the layer order too.
    let up = file("base/x.rs", "use crate::record::view::Viewer;\n");
    let errors = errors_with(&[up]);
    assert!(
        errors
            .iter()
            .any(|e| e.contains("the base layer imports the record layer")),
        "{errors:#?}"
    );
}

/// The public functions (`pub fn`, `pub(…) fn`) defined in `src/` whose
/// name no code names anywhere else: not in `src/`, `tests/`, `benches/`,
/// `examples/` or `fuzz/` (comments and strings left out, but a string
/// that names a function for serde counts).
fn unused_public_functions(defined: &[(String, String)], all: &[(String, String)]) -> Vec<String> {
    use std::collections::HashMap;
    let mut uses: HashMap<String, usize> = HashMap::new();
    for (_, text) in all {
        let mut code = code_text(text);
        // serde names functions in strings: `skip_serializing_if = "f"`.
        for line in text.lines() {
            for key in [
                "skip_serializing_if = \"",
                "default = \"",
                "with = \"",
                "deserialize_with = \"",
                "serialize_with = \"",
            ] {
                if let Some(i) = line.find(key) {
                    code.push_str(&line[i + key.len()..].replace('"', " "));
                    code.push('\n');
                }
            }
        }
        let chars: Vec<char> = code.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            if !is_ident(chars[i]) {
                i += 1;
                continue;
            }
            let end = (i..chars.len())
                .find(|&j| !is_ident(chars[j]))
                .unwrap_or(chars.len());
            let word: String = chars[i..end].iter().collect();
            let before: String = chars[..i].iter().rev().take(3).collect();
            if before != " nf" {
                *uses.entry(word).or_default() += 1;
            }
            i = end;
        }
    }
    let mut out = Vec::new();
    for (rel, text) in defined {
        for (n, line) in code_text(text).lines().enumerate() {
            let t = line.trim_start();
            let t = match t.strip_prefix("pub(") {
                Some(r) => r.split_once(") ").map_or("", |(_, r)| r),
                None => t.strip_prefix("pub ").unwrap_or(""),
            };
            let t = t.trim_start_matches("const ").trim_start_matches("unsafe ");
            let Some(rest) = t.strip_prefix("fn ") else {
                continue;
            };
            let name: String = rest.chars().take_while(|&c| is_ident(c)).collect();
            if uses.get(&name).copied().unwrap_or(0) == 0 {
                out.push(format!(
                    "{}:{}: pub fn {name} is used nowhere",
                    shown(rel),
                    n + 1
                ));
            }
        }
    }
    out
}

#[test]
fn no_public_function_is_unused() {
    let mut all = Vec::new();
    for folder in ["src", "crates", "tests", "benches", "examples", "fuzz"] {
        all.extend(rust_files(folder));
    }
    let unused = unused_public_functions(&sources(), &all);
    assert!(unused.is_empty(), "{}", unused.join("\n"));
    // The check itself: a planted function nobody calls is found, one
    // called (or named by serde) is not.
    let planted = vec![(
        "x.rs".to_string(),
        "pub fn lonely() {}\npub(crate) fn called() {}\npub fn by_serde() -> bool { true }\n// lonely()\nfn f() { called(); let s = \"lonely\"; }\n#[serde(skip_serializing_if = \"by_serde\")]\n".to_string(),
    )];
    let found = unused_public_functions(&planted, &planted);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("pub fn lonely"), "{found:?}");
}

/// The workspace's crates and the `sandtable-*` crates each depends on,
/// read from their `Cargo.toml`s.
fn crate_arrows() -> Vec<(String, Vec<String>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates");
    let mut out = Vec::new();
    for layer in LAYERS {
        let manifest = fs::read_to_string(root.join(layer).join("Cargo.toml")).unwrap();
        let deps = manifest
            .split("\n[dependencies]\n")
            .nth(1)
            .unwrap_or("")
            .split("\n[")
            .next()
            .unwrap_or("");
        let mut on: Vec<String> = deps
            .lines()
            .filter_map(|l| l.strip_prefix("sandtable-"))
            .filter_map(|l| l.split([' ', '=', '.']).next())
            .map(String::from)
            .collect();
        on.sort_by_key(|d| LAYERS.iter().position(|l| l == d));
        out.push((layer.to_string(), on));
    }
    out
}

/// The arrows ARCHITECTURE.md's `## Crate map` draws, one line a crate:
/// `` - `engine` → `base`, `rules` ``.
fn drawn_arrows(doc: &str) -> Vec<(String, Vec<String>)> {
    let start = doc
        .find("\n## Crate map\n")
        .expect("ARCHITECTURE.md has no `## Crate map`");
    let body = &doc[start + 1..];
    let body = &body[..body[3..].find("\n## ").map_or(body.len(), |e| e + 3)];
    body.lines()
        .filter_map(|l| l.strip_prefix("- `"))
        .filter(|l| l.contains('→'))
        .map(|l| {
            let (from, to) = l.split_once('→').unwrap();
            let names = |s: &str| -> Vec<String> {
                s.split('`').skip(1).step_by(2).map(String::from).collect()
            };
            let from = from.split('`').next().unwrap().to_string();
            (from, names(to))
        })
        .collect()
}

#[test]
fn the_crates_depend_down_the_layers_as_the_crate_map_draws() {
    let arrows = crate_arrows();
    for (i, (layer, on)) in arrows.iter().enumerate() {
        for dep in on {
            let below = LAYERS[..i].contains(&dep.as_str());
            assert!(
                below,
                "crates/{layer} depends on sandtable-{dep}, which is not below it"
            );
        }
    }
    let drawn = drawn_arrows(
        &fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md")).unwrap(),
    );
    let mut drawn_all: Vec<_> = drawn.clone();
    drawn_all.sort();
    let mut actual: Vec<_> = arrows
        .into_iter()
        .filter(|(_, on)| !on.is_empty())
        .collect();
    actual.sort();
    assert_eq!(
        drawn_all, actual,
        "ARCHITECTURE.md's crate map (left) is not what the Cargo.tomls say (right)"
    );
    // The reader itself.
    let doc = "x\n## Crate map\n\n- `engine` → `base`, `rules`\n- `base`: nothing\n\n## Next\n- `a` → `b`\n";
    assert_eq!(
        drawn_arrows(doc),
        vec![(
            "engine".to_string(),
            vec!["base".to_string(), "rules".to_string()]
        )]
    );
}
