//! Finding and reading variant files: bundled names and paths, the
//! `extends` chain, the scripts beside them, and the YAML parse itself.
//!
//! Changes when where variants are looked for, or how files are read and
//! parsed (and their syntax errors placed), changes.

use std::path::{Path, PathBuf};

use super::child::child_problems;
use super::merge::{merge, Origins};
use super::raw::RawVariant;
use super::validate::validate;
use super::{Diagnostic, LoadError, Variant};
use crate::base::limits::{read_text_capped, size_text, MAX_FILE_BYTES, MAX_SCRIPT_BYTES};

/// Names a file the way messages print it: relative to the working directory
/// when it lies below it.
pub fn display_path(path: &Path) -> String {
    if let Ok(cwd) = std::env::current_dir() {
        if let Ok(rel) = path.strip_prefix(&cwd) {
            return rel.display().to_string();
        }
    }
    path.display().to_string()
}

/// Finds a variant by bundled name or path.
pub fn resolve_variant_path(name_or_path: &str) -> Result<PathBuf, String> {
    let p = Path::new(name_or_path);
    if p.is_file() {
        return Ok(p.to_path_buf());
    }
    let file = if name_or_path.ends_with(".yaml") {
        name_or_path.to_string()
    } else {
        format!("{name_or_path}.yaml")
    };
    for dir in [PathBuf::from("variants"), crate::base::bundled::variants()] {
        let candidate = dir.join(&file);
        if candidate.is_file() {
            return Ok(candidate);
        }
    }
    Err(format!(
        "no variant `{name_or_path}`: not a file, and not bundled (try one of: {})",
        bundled_variants().join(", ")
    ))
}

/// The names of the bundled variants.
pub fn bundled_variants() -> Vec<String> {
    let mut names = Vec::new();
    for dir in [PathBuf::from("variants"), crate::base::bundled::variants()] {
        if let Ok(rd) = std::fs::read_dir(&dir) {
            for e in rd.flatten() {
                let p = e.path();
                if p.extension().is_some_and(|x| x == "yaml") {
                    if let Some(s) = p.file_stem().and_then(|s| s.to_str()) {
                        if !names.iter().any(|n| n == s) {
                            names.push(s.to_string());
                        }
                    }
                }
            }
        }
    }
    names.sort();
    names
}

/// The files of a variant, base first, each with the variant it holds.
type Chain = Vec<(PathBuf, RawVariant)>;

/// The merged variant, which file set each item, the files (base first) and
/// the scripts (with how messages name them).
type Merged = (RawVariant, Origins, Vec<PathBuf>, Vec<(PathBuf, String)>);

impl Variant {
    /// Loads a variant from a bundled name or a path, applying option overrides
    /// given as `name=value` pairs. A variant that `extends` another is laid
    /// over it (recursively).
    pub fn load(name_or_path: &str, overrides: &[(String, String)]) -> Result<Variant, LoadError> {
        let path = resolve_variant_path(name_or_path).map_err(|m| {
            // No file to point at: the message alone.
            LoadError(vec![Diagnostic {
                file: String::new(),
                line: 1,
                column: 1,
                message: m,
            }])
        })?;
        let text = read_text(&path)?;
        Variant::from_str(&text, &path, overrides)
    }

    /// Parses and validates variant YAML text; `path` is used for messages and
    /// to find the script and the base variant.
    pub fn from_str(
        text: &str,
        path: &Path,
        overrides: &[(String, String)],
    ) -> Result<Variant, LoadError> {
        let chain = read_chain(text, path)?;
        let (merged, origins, files, scripts) = lay_chain(chain)?;
        validate(merged, origins, files, scripts, overrides)
    }
}

/// Reads the file at `path` (whose text is `text`) and the bases it
/// `extends`, recursively; base first.
fn read_chain(text: &str, path: &Path) -> Result<Chain, LoadError> {
    let tree = variant_tree(path);
    // Child first while reading.
    let mut chain: Chain = vec![(path.to_path_buf(), parse_raw(text, path)?)];
    while let Some(ext) = chain.last().and_then(|(_, r)| r.extends.as_ref()) {
        let (from, loc) = (chain.last().unwrap().0.clone(), ext.referenced);
        let err = |m: String| {
            LoadError(vec![Diagnostic {
                file: display_path(&from),
                line: loc.line().max(1),
                column: loc.column().max(1),
                message: m,
            }])
        };
        if chain.len() > 8 {
            return Err(err("`extends` chain is longer than 8 (a cycle?)".into()));
        }
        let folder = from.parent().unwrap_or(Path::new("."));
        let base_path = base_of(&ext.value, folder).map_err(|m| err(format!("extends: {m}")))?;
        let base_path = base_path.canonicalize().unwrap_or(base_path);
        if !allowed(&tree, &base_path) {
            return Err(err(outside("extends", &ext.value, &tree)));
        }
        if chain
            .iter()
            .any(|(p, _)| p.canonicalize().ok().as_ref() == Some(&base_path))
        {
            return Err(err(format!("`extends: {}` makes a cycle", ext.value)));
        }
        let text = read_text(&base_path)?;
        let raw = parse_raw(&text, &base_path)?;
        chain.push((base_path, raw));
    }
    chain.reverse();
    Ok(chain)
}

/// The file `extends: VALUE` names: VALUE relative to the extending
/// file's `folder` (with `.yaml` added, or as written) when it exists,
/// else, for a plain name, the
/// bundled variant of that name. Never the working directory's
/// `variants/`: a bundled name means the same file wherever the command
/// runs (docs/variant-format.md, "How `extends` merges").
fn base_of(value: &str, folder: &Path) -> Result<PathBuf, String> {
    let yaml = if value.ends_with(".yaml") {
        ""
    } else {
        ".yaml"
    };
    let beside = folder.join(format!("{value}{yaml}"));
    if beside.is_file() {
        return Ok(beside);
    }
    // A path written whole, without `.yaml` (refused later if it lies
    // outside the variant's tree).
    let written = folder.join(value);
    if value.contains(['/', '\\']) && written.is_file() {
        return Ok(written);
    }
    let bundled = crate::base::bundled::variants();
    let file = bundled.join(beside.file_name().unwrap_or_default());
    if !value.contains(['/', '\\']) && file.is_file() {
        return Ok(file);
    }
    Err(match value.contains(['/', '\\']) {
        true => format!(
            "`{value}`: no such file (a path is read from the extending file's folder: {})",
            display_path(&beside)
        ),
        false => format!(
            "no variant `{value}` beside this file nor bundled (bundled: {})",
            bundled_names(&bundled).join(", ")
        ),
    })
}

/// The names of the variants in the bundled folder.
fn bundled_names(bundled: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(bundled)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let p = e.path();
            let stem = p.file_stem()?.to_str()?.to_string();
            p.extension().is_some_and(|x| x == "yaml").then_some(stem)
        })
        .collect();
    names.sort();
    names
}

/// Lays each file of `chain` over the one before, noting where each item
/// came from and finding each file's script beside it.
fn lay_chain(chain: Chain) -> Result<Merged, LoadError> {
    let tree = chain
        .last()
        .map(|(p, _)| variant_tree(p))
        .unwrap_or_default();
    let mut origins = Origins::default();
    let mut scripts = Vec::new();
    let mut files = Vec::new();
    let mut merged = RawVariant::default();
    let mut chain_errors = Vec::new();
    for (i, (p, raw)) in chain.into_iter().enumerate() {
        origins.mark(&raw, i);
        if let Some(sc) = &raw.script {
            let sp = p.parent().unwrap_or(Path::new(".")).join(&sc.value);
            let sp = sp.canonicalize().unwrap_or(sp);
            let problem = if !sp.is_file() {
                Some(format!("script `{}` not found", sc.value))
            } else if !allowed(&tree, &sp) {
                Some(outside("script", &sc.value, &tree))
            } else if sp.metadata().map_or(0, |m| m.len()) > MAX_SCRIPT_BYTES {
                Some(format!(
                    "script `{}` is larger than {}",
                    sc.value,
                    size_text(MAX_SCRIPT_BYTES)
                ))
            } else {
                None
            };
            if let Some(message) = problem {
                chain_errors.push(Diagnostic {
                    file: display_path(&p),
                    line: sc.referenced.line().max(1),
                    column: sc.referenced.column().max(1),
                    message,
                });
            }
            if !scripts.iter().any(|(q, _): &(PathBuf, String)| q == &sp) {
                let shown = display_path(&sp);
                scripts.push((sp, shown));
            }
        }
        chain_errors.extend(child_problems(&merged, &raw, &display_path(&p)));
        files.push(p);
        merged = merge(merged, raw);
    }
    if !chain_errors.is_empty() {
        return Err(LoadError(chain_errors));
    }
    Ok((merged, origins, files, scripts))
}

/// The folder a variant's files must lie in: the top variant file's
/// folder's parent (for `variants/x.yaml`, the project holding `variants/`
/// and `scripts/`). A script or a base variant elsewhere is refused, except
/// the bundled `variants/` and `scripts/` themselves.
pub(super) fn variant_tree(top: &Path) -> PathBuf {
    let top = top.canonicalize().unwrap_or_else(|_| top.to_path_buf());
    let folder = top.parent().unwrap_or(Path::new("."));
    folder.parent().unwrap_or(folder).to_path_buf()
}

/// Whether `file` (canonical) lies in `tree` or the bundled folders.
pub(super) fn allowed(tree: &Path, file: &Path) -> bool {
    let root = crate::base::bundled::root();
    let bundled = ["variants", "scripts"].map(|d| root.join(d).canonicalize().ok());
    file.starts_with(tree) || bundled.iter().flatten().any(|b| file.starts_with(b))
}

pub(super) fn outside(what: &str, value: &str, tree: &Path) -> String {
    format!(
        "{what} `{value}` lies outside {} (a variant's files stay in the folder above its own, or the bundled variants/ and scripts/)",
        tree.display()
    )
}

fn read_text(path: &Path) -> Result<String, LoadError> {
    read_text_capped(path, MAX_FILE_BYTES).map_err(|message| {
        LoadError(vec![Diagnostic {
            file: display_path(path),
            line: 1,
            column: 1,
            message,
        }])
    })
}

fn parse_raw(text: &str, path: &Path) -> Result<RawVariant, LoadError> {
    // Booleans are `true` and `false` only (not YAML 1.1's yes/no/on/off).
    let options = serde_saphyr::options! { strict_booleans: true };
    serde_saphyr::from_str_with_options(text, options).map_err(|e| {
        let (line, column, message) = yaml_error(&e);
        LoadError(vec![Diagnostic {
            file: display_path(path),
            line,
            column,
            message,
        }])
    })
}

/// A YAML error as line, column and a message in our words: the parser's
/// type names and settings (`invalid u8`, `DuplicateKeyPolicy`, `budget
/// breached`) are replaced by what the writer of the file can act on.
pub fn yaml_error(e: &serde_saphyr::Error) -> (u64, u64, String) {
    let (line, column) = e
        .location()
        .map(|l| (l.line().max(1), l.column().max(1)))
        .unwrap_or((1, 1));
    let msg = e.without_snippet().to_string();
    let msg = msg.lines().next().unwrap_or("").trim();
    // serde-saphyr appends " at line L column C"; we print it in front instead.
    let msg = match msg.rfind(" at line ") {
        Some(i) => &msg[..i],
        None => msg,
    };
    (line, column, moved_rules_key(plain_yaml_message(msg)))
}

/// A key that stood directly under `rules:` before the keys were grouped by
/// purpose: the message says which group it belongs to now.
fn moved_rules_key(msg: String) -> String {
    let Some(key) = msg
        .strip_prefix("unknown field `")
        .and_then(|m| m.split('`').next())
    else {
        return msg;
    };
    if !msg.contains("expected one of ends, bookkeeping") {
        return msg;
    }
    match super::raw_rules::RULES_GROUPS
        .iter()
        .find(|(_, keys)| keys.contains(&key))
    {
        Some((group, _)) => format!(
            "`rules.{key}` is now `rules.{group}.{key}`: write `rules: {{ {group}: {{ {key}: ... }} }}`"
        ),
        None => msg,
    }
}

/// The parser's words → ours.
fn plain_yaml_message(msg: &str) -> String {
    let lower = msg.to_ascii_lowercase();
    if lower.contains("budget") || lower.contains("depth") || lower.contains("recursion") {
        if lower.contains("depth") || lower.contains("recursion") {
            return "nested too deeply".into();
        }
        return "the file is too large or too complex to read".into();
    }
    if lower.contains("strict mode expects true/false") {
        return "invalid boolean (expected true or false)".into();
    }
    if lower.contains("duplicate") {
        // `duplicate mapping key: name, set DuplicateKeyPolicy in Options…`
        let key = msg
            .split_once("key: ")
            .map(|(_, k)| k.split(", set ").next().unwrap_or(k).trim())
            .filter(|k| !k.is_empty());
        return match key {
            Some(k) => format!("duplicate key `{k}`"),
            None => "duplicate key".into(),
        };
    }
    let mut out = msg.to_string();
    for (ty, words) in [
        ("u8", "a number from 0 to 255"),
        ("u16", "a number from 0 to 65535"),
        ("u32", "a number from 0 to 4294967295"),
        ("u64", "a whole number from 0 up"),
        ("i64", "a whole number"),
        ("usize", "a whole number from 0 up"),
        ("f64", "a number"),
        ("char", "a single character"),
    ] {
        for form in [
            format!("expected {ty}"),
            format!("invalid {ty}"),
            format!("an {ty}"),
            format!("a {ty}"),
            format!("`{ty}`"),
        ] {
            if out.contains(&form) {
                out = out.replace(&form, &format!("expected {words}"));
            }
        }
    }
    out
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A small variant for tests: two players, one kind, one option.
    pub(in crate::variant) const MINI: &str = "name: Mini\nplayers: [a, b]\nboard: { files: 3, ranks: 3 }\noptions:\n  n: { default: 2 }\npieces:\n  man: { symbol: M, moves: [{ step: orthogonal }] }\nrules:\n  bookkeeping: { repetition_limit: $n }\n";

    /// Loads `text` as `mini.yaml` with the option overrides `o`.
    pub(in crate::variant) fn load(text: &str, o: &[(&str, &str)]) -> Result<Variant, LoadError> {
        let o: Vec<(String, String)> = o
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        Variant::from_str(text, Path::new("mini.yaml"), &o)
    }

    #[test]
    fn two_kinds_with_one_code_are_refused_at_the_second() {
        let text = MINI.replace(
            "  man: { symbol: M, moves: [{ step: orthogonal }] }\n",
            "  man: { symbol: M, code: M, moves: [{ step: orthogonal }] }\n  mate: { symbol: T, code: M, moves: [{ step: orthogonal }] }\n",
        );
        let e = load(&text, &[]).unwrap_err();
        assert_eq!(e.0.len(), 1, "{e}");
        assert_eq!((e.0[0].file.as_str(), e.0[0].line), ("mini.yaml", 8), "{e}");
        assert!(
            e.0[0].message.contains("`code: M`") && e.0[0].message.contains("`man`"),
            "{e}"
        );
        load(&text.replace("T, code: M", "T, code: N"), &[]).unwrap();
    }

    #[test]
    fn no_progress_takes_its_plies_from_an_option() {
        let text = MINI.replace(
            "  bookkeeping: { repetition_limit: $n }",
            "  ends: { no_progress: { plies: $n, counter: quiet } }",
        );
        let v = Variant::from_str(&text, Path::new("m.yaml"), &[]).unwrap();
        assert_eq!(v.no_progress.as_ref().unwrap().plies, 2);
        let set = |n: &str| [("n".to_string(), n.to_string())];
        let v = Variant::from_str(&text, Path::new("m.yaml"), &set("40")).unwrap();
        assert_eq!(v.no_progress.as_ref().unwrap().plies, 40);
        let e = Variant::from_str(&text, Path::new("m.yaml"), &set("0")).unwrap_err();
        assert!(e.0[0].message.contains("a number of plies from 1"), "{e}");
    }

    #[test]
    fn a_key_from_before_the_rules_groups_is_told_where_it_went() {
        let text = MINI.replace(
            "  bookkeeping: { repetition_limit: $n }",
            "  no_moves: draw",
        );
        let e = Variant::from_str(&text, Path::new("m.yaml"), &[]).unwrap_err();
        assert_eq!(e.0[0].line, 9, "{e}");
        assert!(
            e.0[0]
                .message
                .contains("`rules.no_moves` is now `rules.ends.no_moves`"),
            "{e}"
        );
    }

    #[test]
    fn the_rules_groups_table_names_every_key_of_the_groups_and_no_other() {
        let schema: serde_json::Value = serde_json::from_str(&super::super::schema_json()).unwrap();
        let defs = &schema["definitions"];
        let def = |prop: &serde_json::Value| -> String {
            let r = prop["$ref"]
                .as_str()
                .or_else(|| prop["allOf"][0]["$ref"].as_str());
            r.unwrap_or_else(|| panic!("no $ref in {prop}"))
                .rsplit('/')
                .next()
                .unwrap()
                .to_string()
        };
        let rules = &defs[def(&schema["properties"]["rules"])]["properties"];
        let mut from_schema = Vec::new();
        for (group, prop) in rules.as_object().unwrap() {
            let mut keys: Vec<String> = defs[def(prop)]["properties"]
                .as_object()
                .unwrap()
                .keys()
                .cloned()
                .collect();
            keys.sort();
            from_schema.push((group.clone(), keys));
        }
        from_schema.sort();
        let mut table: Vec<(String, Vec<String>)> = super::super::raw_rules::RULES_GROUPS
            .iter()
            .map(|(g, ks)| {
                let mut ks: Vec<String> = ks.iter().map(|k| k.to_string()).collect();
                ks.sort();
                (g.to_string(), ks)
            })
            .collect();
        table.sort();
        assert_eq!(table, from_schema);
    }

    #[test]
    fn errors_carry_line_and_column() {
        let e = load(&MINI.replace("symbol: M", "symbol: M, speed: 3"), &[]).unwrap_err();
        assert_eq!(e.0[0].file, "mini.yaml");
        assert_eq!(e.0[0].line, 7);
        assert!(e.0[0].message.contains("unknown field `speed`"), "{}", e);
        let e = load(
            &MINI.replace("name: Mini\n", "name: Mini\nname: Again\n"),
            &[],
        )
        .unwrap_err();
        assert!(e.to_string().to_lowercase().contains("duplicate"), "{e}");
        let e = load(&MINI.replace("$n", "$nope"), &[]).unwrap_err();
        assert_eq!(
            (
                e.0[0].line,
                e.0[0].message.contains("unknown option `nope`")
            ),
            (9, true),
            "{e}"
        );
    }
}
