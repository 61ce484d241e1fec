//! The rule editor of `sandtable web` (never of `serve --web`): the
//! variant's own files opened, checked and saved from the page, over the
//! session's WebSocket (so behind the same origin check and secret as the
//! console). Paths are strict: a file the editor names must be one of the
//! variant's files (its YAML, those it extends, its scripts) or a variant
//! or script file under the variant's folder, after every `..` and link is
//! resolved; anything else is refused. A save keeps the file's previous
//! text, so that it can be restored, and reloads the game in place.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::rules::variant::{display_path, Diagnostic};
use crate::session::Session;

/// The largest file the editor opens or saves, in bytes.
pub const MAX_EDIT_BYTES: usize = 200 * 1024;
/// How many earlier versions of each file are kept for restoring.
const MAX_VERSIONS: usize = 20;
/// How many files of the variant's folder are listed at most.
const MAX_LISTED: usize = 60;
/// The kinds of files the editor opens besides the variant's own.
const EXTENSIONS: &[&str] = &["yaml", "yml", "lua", "luau"];

/// The declarations of the Lua API, whose `Game` fields are the `g:`
/// methods offered for completion.
const LUA_TYPES: &str = include_str!("../../../../scripts/types/sandtable.d.luau");

/// The editor's memory: earlier versions of the files it saved.
#[derive(Default)]
pub struct Editor {
    previous: HashMap<PathBuf, Vec<String>>,
}

/// The folder a session's variant lives in, which names are relative to.
fn folder(s: &Session) -> PathBuf {
    let p = &s.engine.variant.path;
    match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The variant's own files, resolved.
fn own_files(s: &Session) -> Vec<PathBuf> {
    s.watched_files()
        .iter()
        .filter_map(|p| p.canonicalize().ok())
        .collect()
}

/// How the page names `file`: relative to the variant's folder (`x.yaml`,
/// `../scripts/x.lua`) when it can be, else in full.
fn name_of(dir: &Path, file: &Path) -> String {
    let mut up = String::new();
    let mut base = dir.to_path_buf();
    for _ in 0..3 {
        if let Ok(rest) = file.strip_prefix(&base) {
            return format!("{up}{}", rest.display());
        }
        if !base.pop() {
            break;
        }
        up.push_str("../");
    }
    file.display().to_string()
}

/// The file the page means by `name`, if the editor may touch it.
pub fn resolve(s: &Session, name: &str) -> Result<PathBuf, String> {
    let refused = || {
        format!(
            "`{}` is not one of this variant's files: the editor opens only the variant's YAML, the files it extends, its scripts and the variant and script files under its folder",
            crate::net::clean(name)
        )
    };
    if name.is_empty() || name.chars().any(char::is_control) {
        return Err(refused());
    }
    let dir = folder(s).canonicalize().map_err(|_| refused())?;
    let named = dir.join(name);
    link_within_its_folder(&named, name)?;
    let file = named.canonicalize().map_err(|_| refused())?;
    if !file.is_file() {
        return Err(refused());
    }
    let editable_kind = file
        .extension()
        .and_then(|x| x.to_str())
        .is_some_and(|x| EXTENSIONS.contains(&x));
    if own_files(s).contains(&file) || (file.starts_with(&dir) && editable_kind) {
        Ok(file)
    } else {
        Err(refused())
    }
}

/// Refuses a file whose name is a symbolic link out of the folder it sits
/// in (a variant folder unpacked or cloned may carry one to `~/.bashrc`):
/// the editor neither shows nor writes what lies outside.
fn link_within_its_folder(named: &Path, name: &str) -> Result<(), String> {
    let (Some(parent), Some(own)) = (named.parent(), named.file_name()) else {
        return Ok(());
    };
    let Ok(parent) = parent.canonicalize() else {
        return Ok(());
    };
    let entry = parent.join(own);
    let is_link = std::fs::symlink_metadata(&entry).is_ok_and(|m| m.file_type().is_symlink());
    if !is_link {
        return Ok(());
    }
    let inside = entry
        .canonicalize()
        .is_ok_and(|t| t.parent() == Some(parent.as_path()));
    if inside {
        Ok(())
    } else {
        Err(format!(
            "`{}` is a symbolic link out of its folder: the editor does not open or save through it (replace the link with the file itself)",
            crate::net::clean(name)
        ))
    }
}

/// The files the editor lists: the variant's own first, then the others
/// of its folder it may open.
fn listed(s: &Session) -> Vec<PathBuf> {
    let mut out = own_files(s);
    if let Ok(dir) = folder(s).canonicalize() {
        let mut more: Vec<PathBuf> = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.is_file()
                    && link_within_its_folder(p, "").is_ok()
                    && p.extension()
                        .and_then(|x| x.to_str())
                        .is_some_and(|x| EXTENSIONS.contains(&x))
            })
            .filter_map(|p| p.canonicalize().ok())
            .filter(|p| !out.contains(p))
            .collect();
        more.sort();
        out.extend(more);
    }
    out.truncate(MAX_LISTED);
    out
}

fn language(file: &Path) -> &'static str {
    match file.extension().and_then(|x| x.to_str()) {
        Some("lua" | "luau") => "lua",
        _ => "yaml",
    }
}

fn diagnostics_json(diags: &[Diagnostic]) -> Value {
    json!(diags
        .iter()
        .map(|d| json!({
            "file": d.file,
            "line": d.line,
            "column": d.column,
            "message": d.message,
        }))
        .collect::<Vec<_>>())
}

/// The YAML keys of the host's schema, each with its description.
fn yaml_keys() -> Vec<(String, String)> {
    fn walk(v: &Value, out: &mut Vec<(String, String)>) {
        match v {
            Value::Object(m) => {
                if let Some(Value::Object(props)) = m.get("properties") {
                    for (k, p) in props {
                        if !out.iter().any(|(n, _)| n == k) {
                            let doc = p.get("description").and_then(Value::as_str);
                            out.push((k.clone(), doc.unwrap_or_default().to_string()));
                        }
                    }
                }
                m.values().for_each(|x| walk(x, out));
            }
            Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    let schema: Value =
        serde_json::from_str(&crate::rules::variant::schema_json()).unwrap_or(Value::Null);
    let mut out = Vec::new();
    walk(&schema, &mut out);
    out.sort();
    out
}

/// The `g:` methods of the Lua API, each with its signature.
fn lua_methods() -> Vec<(String, String)> {
    let Some(start) = LUA_TYPES.find("export type Game = {") else {
        return Vec::new();
    };
    let body = &LUA_TYPES[start..];
    let body = &body[..body.find("\n}").unwrap_or(body.len())];
    body.lines()
        .filter_map(|l| {
            let (name, sig) = l.trim().split_once(": (self: Game")?;
            let sig = sig.trim_end_matches(',');
            let sig = sig.strip_prefix(", ").unwrap_or(sig);
            Some((name.to_string(), format!("g:{name}({sig}")))
        })
        .collect()
}

/// The hooks a script may define on `rules`, each with its arguments.
fn lua_hooks() -> Vec<(String, String)> {
    let Some(start) = LUA_TYPES.find("export type Rules = {") else {
        return Vec::new();
    };
    let body = &LUA_TYPES[start..];
    let body = &body[..body.find("\n}").unwrap_or(body.len())];
    body.lines()
        .filter_map(|l| {
            let (name, sig) = l.trim().split_once(": ((")?;
            let args = sig.split_once(')').map_or("", |(a, _)| a);
            Some((name.to_string(), format!("function rules.{name}({args})")))
        })
        .collect()
}

impl Editor {
    /// The list of files, the completions and the limits (`files`).
    pub fn files(&self, s: &Session) -> Value {
        let dir = folder(s).canonicalize().unwrap_or_default();
        let own = own_files(s);
        let main = s.engine.variant.path.canonicalize().ok();
        let files: Vec<Value> = listed(s)
            .iter()
            .map(|f| {
                json!({
                    "name": name_of(&dir, f),
                    "shown": display_path(f),
                    "lang": language(f),
                    "own": own.contains(f),
                    "main": main.as_ref() == Some(f),
                    "versions": self.previous.get(f).map_or(0, Vec::len),
                })
            })
            .collect();
        json!({
            "type": "files",
            "files": files,
            "yaml_keys": yaml_keys(),
            "lua_methods": lua_methods(),
            "lua_hooks": lua_hooks(),
            "max_bytes": MAX_EDIT_BYTES,
        })
    }

    /// A file's text (`open`).
    pub fn open(&self, s: &Session, name: &str) -> Result<Value, String> {
        let file = resolve(s, name)?;
        let text = read(&file)?;
        Ok(json!({
            "type": "file",
            "name": name,
            "shown": display_path(&file),
            "lang": language(&file),
            "text": text,
            "versions": self.previous.get(&file).map_or(0, Vec::len),
        }))
    }

    /// Problems in the variant's own YAML if it held `text` (as you type):
    /// the schema's, which need no script to run. Other files: none.
    pub fn check(&self, s: &Session, name: &str, text: &str) -> Result<Value, String> {
        let file = resolve(s, name)?;
        let main = s.engine.variant.path.canonicalize().ok();
        let diags = if main.as_ref() == Some(&file) {
            s.check_variant_text(text)
        } else {
            Vec::new()
        };
        Ok(json!({ "type": "checked", "name": name, "diagnostics": diagnostics_json(&diags) }))
    }

    /// Writes `text` to the file, keeping its previous text; then loads the
    /// rules again and, when they load, replays the game under them. The
    /// answer holds the load's diagnostics and the reload report.
    pub fn save(&mut self, s: &mut Session, name: &str, text: &str) -> Result<Value, String> {
        let file = resolve(s, name)?;
        if text.len() > MAX_EDIT_BYTES || text.contains('\0') {
            return Err(format!(
                "{name}: not saved: at most {} KiB of text, with no NUL",
                MAX_EDIT_BYTES / 1024
            ));
        }
        let old = read(&file)?;
        write(&file, text)?;
        let versions = self.previous.entry(file.clone()).or_default();
        versions.push(old);
        if versions.len() > MAX_VERSIONS {
            versions.remove(0);
        }
        let n = versions.len();
        Ok(self.reloaded(s, name, &file, n, None))
    }

    /// Writes back the file's previous version (the one before the last
    /// save) and reloads as [`Editor::save`] does.
    pub fn restore(&mut self, s: &mut Session, name: &str) -> Result<Value, String> {
        let file = resolve(s, name)?;
        let versions = self.previous.entry(file.clone()).or_default();
        let Some(text) = versions.pop() else {
            return Err(format!(
                "{name}: no earlier version was saved from this page"
            ));
        };
        let n = versions.len();
        write(&file, &text)?;
        Ok(self.reloaded(s, name, &file, n, Some(text)))
    }

    fn reloaded(
        &self,
        s: &mut Session,
        name: &str,
        file: &Path,
        versions: usize,
        text: Option<String>,
    ) -> Value {
        let (diags, report, loaded) = match s.load_again() {
            Err(e) => (
                e.0,
                format!(
                    "{} saved; the rules do not load, the old rules stay",
                    display_path(file)
                ),
                false,
            ),
            Ok(engine) => {
                // `check`'s random games, for the rule errors that show
                // only when the rules run.
                let path = engine.variant.path.display().to_string();
                let overrides = s.variant_arg().1.to_vec();
                let played = crate::cli::check::play_some(&path, &engine, &overrides);
                let (diags, note) = match played {
                    Ok(n) => (Vec::new(), format!("check: {n} random games played")),
                    Err(m) => (vec![placed(&m)], format!("check: {m}")),
                };
                match s.replay_under(engine) {
                    Ok(r) => (diags, format!("{}\n{note}", s.report_text(&r)), true),
                    Err(e) => (
                        diags,
                        format!("saved; the old rules stay: {e}\n{note}"),
                        false,
                    ),
                }
            }
        };
        json!({
            "type": "saved",
            "name": name,
            "diagnostics": diagnostics_json(&diags),
            "report": report,
            "loaded": loaded,
            "versions": versions,
            "text": text,
        })
    }
}

/// A rule error of `check`'s games as a diagnostic, at the first
/// `NAME.lua:LINE:` its message names (else at the top of no file).
fn placed(message: &str) -> Diagnostic {
    let at = message.match_indices(".lua:").find_map(|(i, _)| {
        let start = message[..i]
            .rfind(|c: char| c.is_whitespace() || c == '[' || c == '"' || c == '(')
            .map_or(0, |j| j + 1);
        let rest = &message[i + 5..];
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        let line = digits.parse::<u64>().ok()?;
        Some((message[start..i + 4].to_string(), line))
    });
    let (file, line) = at.unwrap_or_default();
    Diagnostic {
        file,
        line: line.max(1),
        column: 1,
        message: message.to_string(),
    }
}

fn read(file: &Path) -> Result<String, String> {
    let shown = display_path(file);
    let text = crate::base::limits::read_text_capped(file, MAX_EDIT_BYTES as u64)
        .map_err(|e| format!("{shown}: {e}"))?;
    Ok(text)
}

/// Writes through a new temporary file beside it, renamed over it (see
/// [`crate::base::write`]), so that a failed write leaves the old text and
/// nothing is written through a link.
fn write(file: &Path, text: &str) -> Result<(), String> {
    let shown = display_path(file);
    crate::base::write::write_whole(file, &shown, text, crate::base::write::Access::Shared)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_variants_own_files_resolve() {
        let s = Session::new("lost_island", &[], 1).unwrap();
        assert!(resolve(&s, "lost_island.yaml").is_ok());
        assert!(resolve(&s, "../scripts/lost_island.lua").is_ok());
        assert!(resolve(&s, "chess.yaml").is_ok(), "a variant of its folder");
        for bad in [
            "../../etc/passwd",
            "/etc/passwd",
            "../Cargo.toml",
            "../scripts/chess.lua",
            "README.md",
            "",
            "x\u{0}y",
            "nonexistent.yaml",
        ] {
            let e = resolve(&s, bad).unwrap_err();
            assert!(e.contains("not one of this variant's files"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_child_variant_opens_first_and_its_base_may_be_opened() {
        let dir = tempfile::tempdir().unwrap();
        let base = crate::base::bundled::variants().join("othello.yaml");
        let child = dir.path().join("child.yaml");
        std::fs::write(
            &child,
            format!("extends: {}\nname: Child\n", base.display()),
        )
        .unwrap();
        let s = Session::new(child.to_str().unwrap(), &[], 1).unwrap();
        let files = Editor::default().files(&s);
        let files = files["files"].as_array().unwrap();
        let main: Vec<&Value> = files.iter().filter(|f| f["main"] == true).collect();
        assert_eq!(main.len(), 1);
        assert_eq!(main[0]["name"], "child.yaml");
        let base_name = files
            .iter()
            .find(|f| f["name"].as_str().unwrap().ends_with("othello.yaml"))
            .expect("the base is listed");
        assert_eq!(base_name["own"], true);
        assert!(resolve(&s, base_name["name"].as_str().unwrap()).is_ok());
        assert!(resolve(&s, "../../etc/passwd").is_err());
    }

    #[test]
    fn a_rule_error_is_placed_at_the_scripts_line() {
        let d = placed("v.yaml: a random game (seed 1) hit a rule error at ply 3: scripts/x.lua:42: attempt to index nil");
        assert_eq!((d.file.as_str(), d.line), ("scripts/x.lua", 42));
        let d = placed("no place in it");
        assert_eq!((d.file.as_str(), d.line), ("", 1));
    }

    #[test]
    fn completions_come_from_the_schema_and_the_api_declarations() {
        let keys = yaml_keys();
        assert!(keys
            .iter()
            .any(|(k, d)| k == "hidden_identities" && !d.is_empty()));
        assert!(keys.iter().any(|(k, _)| k == "colours"));
        let methods = lua_methods();
        assert!(methods
            .iter()
            .any(|(m, sig)| m == "ply" && sig == "g:ply() -> number"));
        assert!(methods.len() > 20, "{methods:?}");
        let hooks = lua_hooks();
        assert!(
            hooks.iter().any(|(h, sig)| h == "strike"
                && sig == "function rules.strike(g: Game, attacker: Piece, defender: Piece, action: Action)"),
            "{hooks:?}"
        );
    }
}
