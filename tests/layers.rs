//! The source tree's shape, held to the layers `src/lib.rs` names: imports
//! go down the layer order only, no file is over 800 lines, and no
//! function over about 100.
//!
//! The checks read `src/**.rs` as text (comments and string contents left
//! out). Every path into the crate a file names — its `use`s, groups
//! expanded, and the paths in its code, through `crate::`, `super::`, a
//! child module or a name a `use` brought in — is followed through every
//! `pub use` and `pub type` alias to where the item is defined: a path
//! through a module that re-exports from a forbidden layer counts as that
//! layer. Some folders also may not reach into some fields (the network
//! goes through the session's methods, never `session.engine`).

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

const MAX_FILE_LINES: usize = 800;
const MAX_FN_LINES: usize = 110;

fn sources() -> Vec<(String, String)> {
    rust_files("src")
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

/// A line without its `//` comment (string contents are kept, which is
/// good enough for paths).
fn code(line: &str) -> &str {
    let t = line.trim_start();
    if t.starts_with("//") {
        return "";
    }
    match line.find("//") {
        Some(i) if !line[..i].contains('"') => &line[..i],
        _ => line,
    }
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

/// Like [`strip_literals`], but string contents become spaces and quotes
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
                        "src/{rel}:{n}: {written}{through}: the {} layer imports the {} layer above it",
                        LAYERS[own], LAYERS[l]
                    )),
                    None => push(format!(
                        "src/{rel}:{n}: {written}: not a path through a layer folder"
                    )),
                    _ => {}
                }
                for (from, to, why) in FORBIDDEN {
                    let allowed = ALLOWED
                        .iter()
                        .any(|(f, p, _)| rel.starts_with(f) && path.as_str() == *p);
                    if rel.starts_with(from) && path.starts_with(to) && !allowed {
                        push(format!("src/{rel}:{n}: {written}{through}: {why}"));
                    }
                }
            }
        }
        for (from, field, why) in FORBIDDEN_FIELDS {
            if rel.starts_with(from) {
                for n in field_uses(text, field) {
                    errors.push(format!("src/{rel}:{n}: .{field}: {why}"));
                }
            }
        }
    }
    errors
}

/// Functions (`fn name … {`) and how many lines each spans, by counting
/// braces outside strings, characters and comments.
fn long_functions(rel: &str, text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let mut t = code(line).trim_start();
        if t.starts_with("pub(") {
            t = t.split_once(") ").map_or("", |(_, rest)| rest);
        }
        let is_fn = t
            .split_whitespace()
            .take_while(|w| !w.contains('('))
            .any(|w| w == "fn");
        if !is_fn {
            continue;
        }
        let (mut depth, mut started) = (0i32, false);
        for (j, l) in lines.iter().enumerate().skip(i) {
            let c = strip_literals(code(l));
            for ch in c.chars() {
                match ch {
                    '{' => {
                        depth += 1;
                        started = true;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            if !started && c.trim_end().ends_with(';') {
                break;
            }
            if started && depth <= 0 {
                let n = j - i + 1;
                if n > MAX_FN_LINES {
                    out.push(format!("src/{rel}:{}: a function of {n} lines", i + 1));
                }
                break;
            }
        }
    }
    out
}

/// A line with the contents of string and character literals removed.
fn strip_literals(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars().peekable();
    let mut in_str = false;
    while let Some(c) = chars.next() {
        if in_str {
            match c {
                '\\' => {
                    chars.next();
                }
                '"' => in_str = false,
                _ => {}
            }
        } else if c == '"' {
            in_str = true;
        } else if c == '\'' {
            // A character literal ('{', '\n') or a lifetime ('a).
            let rest: String = chars.clone().take(3).collect();
            if let Some(escaped) = rest.strip_prefix('\\') {
                if let Some(k) = escaped.find('\'') {
                    for _ in 0..k + 2 {
                        chars.next();
                    }
                }
            } else if rest.chars().nth(1) == Some('\'') {
                chars.next();
                chars.next();
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn imports_follow_the_layers() {
    let errors = import_errors(&sources());
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn no_file_over_800_lines() {
    let long: Vec<String> = sources()
        .iter()
        .filter(|(_, t)| t.lines().count() > MAX_FILE_LINES)
        .map(|(r, t)| format!("src/{r}: {} lines", t.lines().count()))
        .collect();
    assert!(long.is_empty(), "{}", long.join("\n"));
}

#[test]
fn no_function_over_about_100_lines() {
    let long: Vec<String> = sources()
        .iter()
        .flat_map(|(r, t)| long_functions(r, t))
        .collect();
    assert!(long.is_empty(), "{}", long.join("\n"));
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
    let body = "fn f() {\n".to_string() + &"    let a = '{';\n".repeat(120) + "}\n";
    assert_eq!(long_functions("x.rs", &body).len(), 1);
    let short = "fn f() {\n    let s = \"}}}\";\n}\nfn g();\n";
    let visible = "pub(crate) fn f() {\n".to_string() + &"    x();\n".repeat(120) + "}\n";
    assert_eq!(long_functions("x.rs", &visible).len(), 1);
    assert!(long_functions("x.rs", short).is_empty());
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
                    "src/{rel}:{}: pub fn {name} is used nowhere",
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
    for folder in ["src", "tests", "benches", "examples", "fuzz"] {
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

/// The files outside `src/engine/` that reopen `Engine` (`impl Engine`, or
/// a trait implemented for it): what another layer builds from an engine is
/// a type of that layer that borrows one, so a call site names the layer.
fn engine_reopened(files: &[(String, String)]) -> Vec<String> {
    let mut out = Vec::new();
    for (rel, text) in files {
        if rel.starts_with("engine/") {
            continue;
        }
        for (i, line) in code_text(text).lines().enumerate() {
            let t = line.trim_start();
            let reopens =
                t.starts_with("impl") && (t.contains(" Engine {") || t.contains(" for Engine"));
            if reopens {
                out.push(format!("src/{rel}:{}: reopens `Engine`: {t}", i + 1));
            }
        }
    }
    out
}

#[test]
fn engine_is_reopened_only_in_the_engine_layer() {
    let errors = engine_reopened(&sources());
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    let planted = [
        (
            "record/view.rs".to_string(),
            "impl Engine {\n    pub fn view(&self) {}\n}\n".to_string(),
        ),
        (
            "front/render.rs".to_string(),
            "impl Display for Engine {\n}\n".to_string(),
        ),
        (
            "record/movetext.rs".to_string(),
            "impl<'e> Movetext<'e> {\n    engine: &'e Engine,\n}\n".to_string(),
        ),
        (
            "engine/notation.rs".to_string(),
            "impl Engine {\n}\n".to_string(),
        ),
    ];
    let found = engine_reopened(&planted);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].starts_with("src/record/view.rs:1"), "{found:#?}");
    assert!(found[1].starts_with("src/front/render.rs:1"), "{found:#?}");
}
