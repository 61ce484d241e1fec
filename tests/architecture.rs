//! ARCHITECTURE.md stays true to the tree, and the documents point at files
//! that exist.
//!
//! - Every folder of a crate's sources (`crates/*/src/`, recursively) has
//!   a heading `` ### `crates/…/src/…/` `` in the code map (the section
//!   `## Code map`), and every such heading names a folder that exists.
//! - Every test ARCHITECTURE.md cites as `` `tests/FILE.rs::NAME` `` (or
//!   `` `crates/…rs::NAME` ``) is a function of that file, and every
//!   `src/`, `crates/` or `tests/` file it names exists.
//! - Every rules reading a variant, a script, an example or a document
//!   cites (a `….md` path with `rules` in it, such as
//!   `docs/rules/classic_stratego.md`) is a file of this repository.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(rel: &str) -> String {
    fs::read_to_string(Path::new(ROOT).join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Every folder under `dir`, as `crates/x/src/a/` paths.
fn folders(root: &Path, dir: &Path, out: &mut BTreeSet<String>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            out.insert(format!("{rel}/"));
            folders(root, &path, out);
        }
    }
}

/// The text of the section `## TITLE` (up to the next `## `).
fn section<'a>(doc: &'a str, title: &str) -> &'a str {
    let head = format!("\n## {title}\n");
    let start = doc
        .find(&head)
        .unwrap_or_else(|| panic!("ARCHITECTURE.md has no section `## {title}`"));
    let body = &doc[start + head.len()..];
    match body.find("\n## ") {
        Some(end) => &body[..end],
        None => body,
    }
}

/// The folders the code map gives a heading: `` ### `src/x/` ``.
fn mapped(code_map: &str) -> BTreeSet<String> {
    code_map
        .lines()
        .filter_map(|l| l.strip_prefix("### `"))
        .filter_map(|l| l.split('`').next())
        .filter(|p| p.starts_with("crates/"))
        .map(|p| {
            if p.ends_with('/') {
                p.to_string()
            } else {
                format!("{p}/")
            }
        })
        .collect()
}

/// What the code map lacks, and what it names that is not there.
fn code_map_errors(tree: &BTreeSet<String>, map: &BTreeSet<String>) -> Vec<String> {
    let mut out = Vec::new();
    for f in tree.difference(map) {
        out.push(format!(
            "{f} is a folder under src/ with no heading \"### `{f}`\" in ARCHITECTURE.md's code map"
        ));
    }
    for f in map.difference(tree) {
        out.push(format!(
            "ARCHITECTURE.md's code map names {f}, which is no folder"
        ));
    }
    out
}

#[test]
fn every_folder_of_the_crates_sources_is_in_the_code_map() {
    let root = Path::new(ROOT);
    let mut tree = BTreeSet::new();
    for krate in fs::read_dir(root.join("crates")).unwrap() {
        let src = krate.unwrap().path().join("src");
        tree.insert(format!("{}/", src.strip_prefix(root).unwrap().display()));
        folders(root, &src, &mut tree);
    }
    assert!(tree.contains("crates/engine/src/") && tree.contains("crates/front/src/web/assets/"));
    let doc = read("ARCHITECTURE.md");
    let map = mapped(section(&doc, "Code map"));
    let errors = code_map_errors(&tree, &map);
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// The check itself: a folder the map lacks, and a heading for a folder
/// that is gone, are both caught.
#[test]
fn the_code_map_check_catches_a_missing_and_a_stale_folder() {
    let tree: BTreeSet<String> = ["crates/a/", "crates/a/b/", "crates/c/"]
        .map(String::from)
        .into();
    let map: BTreeSet<String> = ["crates/a/", "crates/c/", "crates/gone/"]
        .map(String::from)
        .into();
    let errors = code_map_errors(&tree, &map);
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[0].contains("crates/a/b/") && errors[1].contains("crates/gone/"));
    let doc =
        "x\n## Code map\n### `crates/a/`\ntext\n### `crates/c`\n## Invariants\n### `crates/no/`\n";
    assert_eq!(
        mapped(section(doc, "Code map")),
        ["crates/a/", "crates/c/"].map(String::from).into()
    );
}

/// `` `PATH` `` and `` `PATH::NAME` `` spans of a document, for paths under
/// `src/`, `crates/` or `tests/` ending in `.rs`.
fn cited(doc: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    for span in doc.split('`').skip(1).step_by(2) {
        if !["src/", "crates/", "tests/"]
            .iter()
            .any(|p| span.starts_with(p))
        {
            continue;
        }
        let (path, name) = match span.split_once(".rs::") {
            Some((p, n)) => (format!("{p}.rs"), Some(n.to_string())),
            None => (span.to_string(), None),
        };
        if path.ends_with(".rs") && !path.contains(['*', ' ']) {
            out.push((path, name));
        }
    }
    out
}

#[test]
fn the_tests_and_files_architecture_md_names_exist() {
    let doc = read("ARCHITECTURE.md");
    let cites = cited(&doc);
    assert!(
        cites.iter().filter(|(_, n)| n.is_some()).count() >= 10,
        "ARCHITECTURE.md cites fewer than 10 tests as `tests/FILE.rs::NAME`"
    );
    let mut errors = Vec::new();
    for (path, name) in cites {
        let Ok(text) = fs::read_to_string(Path::new(ROOT).join(&path)) else {
            errors.push(format!("`{path}` does not exist"));
            continue;
        };
        if let Some(name) = name {
            if !text.contains(&format!("fn {name}(")) {
                errors.push(format!("`{path}` has no function `{name}`"));
            }
        }
    }
    assert!(errors.is_empty(), "ARCHITECTURE.md: {}", errors.join("\n"));
}

/// The files whose text may cite a rules reading.
fn citing_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path
                .extension()
                .is_some_and(|e| ["yaml", "lua", "luau", "md"].contains(&e.to_str().unwrap_or("")))
            {
                out.push(path);
            }
        }
    }
    let root = Path::new(ROOT);
    let mut out = Vec::new();
    for dir in ["variants", "scripts", "examples", "docs", "tests/variants"] {
        walk(&root.join(dir), &mut out);
    }
    for f in ["README.md", "ARCHITECTURE.md"] {
        out.push(root.join(f));
    }
    out
}

/// The `….md` paths in `text` that name a rules reading (`rules` in the
/// path, any case).
fn rules_citations(text: &str) -> Vec<String> {
    let path_char = |c: char| c.is_ascii_alphanumeric() || "_-./".contains(c);
    let mut out = Vec::new();
    for (i, _) in text.match_indices(".md") {
        let start = text[..i]
            .char_indices()
            .rev()
            .find(|(_, c)| !path_char(*c))
            .map_or(0, |(j, c)| j + c.len_utf8());
        let path = &text[start..i + 3];
        if path.to_ascii_lowercase().contains("rules") {
            out.push(path.trim_start_matches("./").to_string());
        }
    }
    out
}

#[test]
fn every_cited_rules_reading_is_a_file_of_the_repository() {
    let root = Path::new(ROOT);
    let mut errors = Vec::new();
    let mut seen = 0;
    for file in citing_files() {
        let Ok(text) = fs::read_to_string(&file) else {
            continue;
        };
        let rel = file.strip_prefix(root).unwrap().display().to_string();
        for cite in rules_citations(&text) {
            seen += 1;
            let here = file.parent().unwrap().join(&cite);
            if !root.join(&cite).is_file() && !here.is_file() {
                errors.push(format!(
                    "{rel} cites `{cite}`, which is not a file of the repository"
                ));
            }
        }
    }
    assert!(seen >= 5, "only {seen} citations of a rules reading found");
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn rules_citations_are_found_where_they_are_written() {
    assert_eq!(
        rules_citations(
            "# Ultima, as read in shared/RULES.md §4.\n(docs/rules/ultima.md) README.md"
        ),
        ["shared/RULES.md", "docs/rules/ultima.md"]
    );
}

/// Where `text` speaks of a session by number (`session 9`): history, which
/// belongs to the commit log.
fn session_numbers(text: &str) -> Vec<String> {
    let lower = text.to_ascii_lowercase();
    lower
        .match_indices("session ")
        .filter(|(i, m)| {
            lower[i + m.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit())
        })
        .map(|(i, _)| text[i..(i + 12).min(text.len())].to_string())
        .collect()
}

/// The README is a manual (under 450 lines, no history); the performance
/// figures are in docs/performance.md, current ones only, each with the
/// command that gives it.
#[test]
fn the_readme_is_a_manual_and_the_figures_are_current() {
    let readme = read("README.md");
    let lines = readme.lines().count();
    assert!(
        lines < 450,
        "README.md has {lines} lines (a manual: under 450)"
    );
    assert!(
        session_numbers(&readme).is_empty(),
        "README.md tells history: {:?}",
        session_numbers(&readme)
    );
    assert!(
        readme.contains("docs/performance.md"),
        "README.md does not point to docs/performance.md"
    );
    let perf = read("docs/performance.md");
    assert!(
        session_numbers(&perf).is_empty(),
        "docs/performance.md tells history: {:?}",
        session_numbers(&perf)
    );
    // Each row of a figures table starts with the command that gives it.
    for row in perf.lines().filter(|l| l.starts_with("| `")) {
        let cmd = row[3..].split('`').next().unwrap_or("");
        assert!(
            cmd.starts_with("sandtable ")
                || cmd.starts_with("cargo ")
                || cmd.starts_with("valgrind "),
            "docs/performance.md: a figure without its command: {row}"
        );
    }
    assert_eq!(
        session_numbers("in Session 10, and session x"),
        ["Session 10, "]
    );
}
