//! How a saved file names its variant so that it loads again: a bundled
//! variant (in the program's own `variants/`) by its name, any other by a path relative to the saved file when
//! the two share a folder above them, else by an absolute path.

use std::path::{Component, Path, PathBuf};

/// What a file saved to `file` writes as its variant, for a variant loaded
/// from `variant_path` whose name (file stem) is `id`.
pub fn variant_ref(variant_path: &Path, id: &str, file: &Path) -> String {
    let Ok(variant) = std::fs::canonicalize(variant_path) else {
        return id.to_string();
    };
    // Bundled: the one the name finds from any folder (a `variants/`
    // folder under the working folder is found by name only from there).
    let bundled =
        std::fs::canonicalize(crate::base::bundled::variants().join(format!("{id}.yaml"))).ok();
    if bundled.as_deref() == Some(variant.as_path()) {
        return id.to_string();
    }
    let dir = match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    match std::fs::canonicalize(&dir)
        .ok()
        .and_then(|d| relative(&variant, &d))
    {
        Some(rel) => rel.to_string_lossy().replace('\\', "/"),
        None => variant.display().to_string(),
    }
}

/// `to` written relative to the folder `from` (both absolute), when they
/// share a folder other than the root.
fn relative(to: &Path, from: &Path) -> Option<PathBuf> {
    let a: Vec<Component> = to.components().collect();
    let b: Vec<Component> = from.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    // Only the root (and a drive prefix) in common: an absolute path is clearer.
    let roots = a
        .iter()
        .take_while(|c| matches!(c, Component::RootDir | Component::Prefix(_)))
        .count();
    if common <= roots {
        return None;
    }
    let mut rel = PathBuf::new();
    for _ in common..b.len() {
        rel.push("..");
    }
    for c in &a[common..] {
        rel.push(c.as_os_str());
    }
    Some(rel)
}

/// The variant a file read from `file` names, as [`Engine::load`] takes it:
/// a relative path is read from the file's folder when a file is there
/// (else as written: a bundled name, or a path from the working folder).
///
/// [`Engine::load`]: crate::engine::Engine::load
pub fn resolve_variant_ref(written: &str, file: &Path) -> String {
    let p = Path::new(written);
    let looks_like_path =
        written.contains('/') || written.contains('\\') || written.ends_with(".yaml");
    if !looks_like_path || p.is_absolute() {
        return written.to_string();
    }
    match file.parent() {
        Some(dir) if dir.join(p).is_file() => dir.join(p).display().to_string(),
        _ => written.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_share_a_folder_other_than_the_root() {
        let r = |a: &str, b: &str| relative(Path::new(a), Path::new(b));
        assert_eq!(r("/a/b/v.yaml", "/a/b"), Some(PathBuf::from("v.yaml")));
        assert_eq!(
            r("/a/b/v.yaml", "/a/c/d"),
            Some(PathBuf::from("../../b/v.yaml"))
        );
        assert_eq!(r("/a/v.yaml", "/b"), None);
    }
}
