//! Where the bundled variants, scripts and test data live: the folder the
//! workspace was built in. The binary finds its bundled variants there
//! from any working folder (the container image keeps the same path).

use std::path::{Path, PathBuf};

/// The workspace's root folder (the one with `variants/` and `scripts/`).
pub fn root() -> &'static Path {
    // This crate is `crates/base` under the root.
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.parent().and_then(Path::parent).unwrap_or(here)
}

/// The bundled variants' folder.
pub fn variants() -> PathBuf {
    root().join("variants")
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_root_holds_the_bundled_variants_and_scripts() {
        assert!(super::variants().join("chess.yaml").is_file());
        assert!(super::root().join("scripts").is_dir());
    }
}
