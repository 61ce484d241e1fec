//! `sandtable schema`: the JSON Schema of the variant YAML that editors
//! read (through yaml-language-server).
//!
//! The committed `schema/variant.schema.json` is the command's output; every
//! variant YAML of the repository names it on its first line and validates
//! against it; and on a bad file the schema refuses what `check` refuses.

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_sandtable");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const SCHEMA: &str = "schema/variant.schema.json";
const REGENERATE: &str = "cargo run -- schema --output schema/variant.schema.json";

/// Variant files kept malformed on purpose (for error tests), which need
/// not validate; each must exist. None today: the error tests write their
/// bad variants into temporary folders.
const DELIBERATELY_MALFORMED: &[&str] = &[];

/// Folders never searched for variants: build output and version control.
const NOT_SEARCHED: &[&str] = &["target", ".git", "node_modules"];

fn schema_command() -> String {
    let out = Command::new(BIN).arg("schema").output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn validator() -> jsonschema::Validator {
    let text = std::fs::read_to_string(Path::new(ROOT).join(SCHEMA)).unwrap();
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    jsonschema::validator_for(&schema).expect("the schema is a valid JSON Schema")
}

/// The YAML as the loader reads it (`strict_booleans`, as
/// `Variant::load`), as JSON.
fn yaml_as_json(text: &str) -> serde_json::Value {
    let options = serde_saphyr::options! { strict_booleans: true };
    serde_saphyr::from_str_with_options(text, options).unwrap()
}

/// The schema's complaints about a YAML text, one line each.
fn schema_errors(v: &jsonschema::Validator, text: &str) -> Vec<String> {
    v.iter_errors(&yaml_as_json(text))
        .map(|e| format!("{}: {e}", e.instance_path))
        .collect()
}

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            if !NOT_SEARCHED.contains(&name.as_str()) {
                yaml_files(&path, out);
            }
        } else if name.ends_with(".yaml") || name.ends_with(".yml") {
            out.push(path);
        }
    }
}

/// Every YAML file of the repository that is a variant: all but positions
/// and game records, which name the variant they belong to at the top
/// (`variant:`, a key no variant has: the schema refuses it).
fn variant_files() -> Vec<PathBuf> {
    let mut all = Vec::new();
    yaml_files(Path::new(ROOT), &mut all);
    all.sort();
    all.into_iter()
        .filter(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            !text.lines().any(|l| l.starts_with("variant:"))
        })
        .collect()
}

fn relative(path: &Path) -> String {
    path.strip_prefix(ROOT)
        .unwrap()
        .to_string_lossy()
        .replace('\\', "/")
}

/// The modeline a file at `rel` (from the repository's root) carries.
fn modeline(rel: &str) -> String {
    let up = "../".repeat(rel.matches('/').count());
    format!("# yaml-language-server: $schema={up}{SCHEMA}")
}

#[test]
fn committed_schema_is_the_schema_command_output() {
    let committed = std::fs::read_to_string(Path::new(ROOT).join(SCHEMA)).unwrap_or_default();
    assert!(
        committed == schema_command(),
        "{SCHEMA} is not what `sandtable schema` prints (a key of crates/rules/src/variant/raw.rs \
         changed?): regenerate it with `{REGENERATE}` and commit it"
    );
}

#[test]
fn every_key_of_the_schema_has_its_doc() {
    let schema: serde_json::Value = serde_json::from_str(&schema_command()).unwrap();
    let mut objects = vec![("the top".to_string(), &schema)];
    for (name, def) in schema["definitions"].as_object().unwrap() {
        objects.push((name.clone(), def));
    }
    let mut undocumented = Vec::new();
    for (name, object) in objects {
        for (key, prop) in object["properties"].as_object().into_iter().flatten() {
            if prop["description"].as_str().is_none_or(str::is_empty) {
                undocumented.push(format!("{name}.{key}"));
            }
        }
    }
    assert!(
        undocumented.is_empty(),
        "keys without a doc comment in crates/rules/src/variant/raw.rs: {undocumented:?}"
    );
}

#[test]
fn schema_output_writes_the_named_file_and_prints_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("v.json");
    let out = Command::new(BIN)
        .args(["schema", "--output"])
        .arg(&file)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), schema_command());
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1, "only the named file is written");
}

#[test]
fn schema_output_into_a_missing_folder_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(BIN)
        .args(["schema", "--output", "no/such/dir/v.json"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("no/such/dir/v.json: cannot write: no such file or folder"));
}

#[test]
fn every_variant_in_the_repository_has_the_modeline_and_validates() {
    let v = validator();
    let files = variant_files();
    let rels: Vec<String> = files.iter().map(|p| relative(p)).collect();
    for must in [
        "variants/chess.yaml",
        "examples/variants/pond.yaml",
        "tests/variants/mixed.yaml",
    ] {
        assert!(rels.iter().any(|r| r == must), "{must} not found: {rels:?}");
    }
    for m in DELIBERATELY_MALFORMED {
        assert!(rels.iter().any(|r| r == m), "{m} is listed but gone");
    }
    let mut problems = Vec::new();
    for (path, rel) in files.iter().zip(&rels) {
        let text = std::fs::read_to_string(path).unwrap();
        let want = modeline(rel);
        if text.lines().next() != Some(want.as_str()) {
            problems.push(format!("{rel}: the first line is not `{want}`"));
        }
        if DELIBERATELY_MALFORMED.contains(&rel.as_str()) {
            continue;
        }
        for e in schema_errors(&v, &text) {
            problems.push(format!("{rel}: {e}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// `sandtable check` on a file holding `text`: its exit code and what it
/// printed.
fn check(text: &str) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.yaml");
    std::fs::write(&file, text).unwrap();
    let out = Command::new(BIN).arg("check").arg(&file).output().unwrap();
    let said =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), said)
}

/// A copy of Drop Four (which both `check` and the schema accept) with
/// `edit` applied; then `check` on it: its exit code and what it printed.
fn check_edited(edit: impl Fn(&str) -> String) -> (String, Option<i32>, String) {
    let orig =
        std::fs::read_to_string(Path::new(ROOT).join("examples/variants/drop_four.yaml")).unwrap();
    assert_eq!(check(&orig).0, Some(0), "{}", check(&orig).1);
    assert_eq!(schema_errors(&validator(), &orig), Vec::<String>::new());
    let text = edit(&orig);
    assert_ne!(text, orig);
    let (code, said) = check(&text);
    (text, code, said)
}

#[test]
fn schema_and_check_both_refuse_a_misspelt_key() {
    let (text, code, said) = check_edited(|t| t.replace("falls: down", "fals: down"));
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("unknown field `fals`"), "{said}");
    let errors = schema_errors(&validator(), &text);
    assert!(
        errors
            .iter()
            .any(|e| e.starts_with("/pieces/disc") && e.contains("\"fals\"")),
        "{errors:?}"
    );
}

#[test]
fn schema_and_check_both_refuse_a_key_of_another_way_of_travelling() {
    // `steps` belongs to a path: a placement may not take it, though the
    // loader reads every move into one struct (`check_edited` holds the
    // unedited placement valid to both).
    let (text, code, said) = check_edited(|t| t.replace("falls: down", "falls: down, steps: 2"));
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains("`steps` is not a key of a `place` move"),
        "{said}"
    );
    let errors = schema_errors(&validator(), &text);
    assert!(
        errors.iter().any(|e| e.starts_with("/pieces/disc")),
        "{errors:?}"
    );
}

#[test]
fn schema_and_check_both_refuse_a_wrong_type() {
    let (text, code, said) = check_edited(|t| t.replace("files: 7", "files: seven"));
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("bad.yaml:"), "{said}");
    let errors = schema_errors(&validator(), &text);
    assert!(
        errors.iter().any(|e| e.starts_with("/board/files:")),
        "{errors:?}"
    );
}

#[test]
fn schema_takes_an_option_name_where_a_literal_may_be_and_no_other_text() {
    let v = validator();
    let with = |value: &str| {
        format!(
            "name: T\nrules: {{ bookkeeping: {{ repetition_limit: {value} }} }}\n\
             actions: {{ a: {{ closes: \"!$flag\", enabled: $flag }} }}\n"
        )
    };
    assert_eq!(schema_errors(&v, &with("3")), Vec::<String>::new());
    assert_eq!(schema_errors(&v, &with("$limit")), Vec::<String>::new());
    let errors = schema_errors(&v, &with("three"));
    assert!(
        errors
            .iter()
            .any(|e| e.starts_with("/rules/bookkeeping/repetition_limit:")),
        "{errors:?}"
    );
}
