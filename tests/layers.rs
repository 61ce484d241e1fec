//! The source tree's shape, held to the layers `src/lib.rs` names: imports
//! go down the layer order only, no file is over 800 lines, and no
//! function over about 100.
//!
//! The checks read `src/**.rs` as text: every `crate::LAYER::…` path in code
//! (comments left out) is an import of that layer.

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
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
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

/// Every `crate::a::b…` path in a line of code.
fn crate_paths(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find("crate::") {
        let before = rest[..i].chars().last();
        let tail = &rest[i..];
        let end = tail
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(tail.len());
        if !before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            out.push(tail[..end].to_string());
        }
        rest = &tail[end.max(7)..];
    }
    out
}

fn import_errors(files: &[(String, String)]) -> Vec<String> {
    let mut errors = Vec::new();
    for (rel, text) in files {
        let Some(own) = layer_of(rel) else { continue };
        for (n, line) in text.lines().enumerate() {
            for path in crate_paths(code(line)) {
                let Some(top) = path.strip_prefix("crate::") else {
                    continue;
                };
                let top = top.split("::").next().unwrap_or("");
                match LAYERS.iter().position(|l| *l == top) {
                    Some(l) if l > own => errors.push(format!(
                        "src/{rel}:{}: {path}: the {} layer imports the {} layer above it",
                        n + 1,
                        LAYERS[own],
                        LAYERS[l]
                    )),
                    None => errors.push(format!(
                        "src/{rel}:{}: {path}: not a path through a layer folder",
                        n + 1
                    )),
                    _ => {}
                }
                for (from, to, why) in FORBIDDEN {
                    if rel.starts_with(from) && path.starts_with(to) {
                        errors.push(format!("src/{rel}:{}: {path}: {why}", n + 1));
                    }
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
