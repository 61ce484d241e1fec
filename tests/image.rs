//! The container image: `.ci/image` builds `sandtable:<crate version>` when
//! a container builder works, says why it skipped otherwise, and fails when
//! the build itself fails; `docs/scaling.md` names the image it builds.
//!
//! The builder is a stub script (`CONTAINER_BUILDER`), so no test needs
//! docker, podman or a network.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Runs `.ci/image` with a stub builder whose body is `script` (it gets the
/// builder's arguments as `$@`); returns the exit code, the output and the
/// calls the stub logged.
fn run_image(script: &str) -> (Option<i32>, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("calls");
    let stub = dir.path().join("builder");
    std::fs::write(
        &stub,
        format!("#!/bin/sh\necho \"$*\" >> '{}'\n{script}\n", log.display()),
    )
    .unwrap();
    std::fs::set_permissions(&stub, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = Command::new("bash")
        .arg(Path::new(ROOT).join(".ci/image"))
        .env("CONTAINER_BUILDER", &stub)
        .output()
        .unwrap();
    let said =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    let calls = std::fs::read_to_string(&log).unwrap_or_default();
    (out.status.code(), said, calls)
}

#[test]
fn image_build_is_skipped_with_the_reason_when_the_builder_does_not_work() {
    let (code, said, calls) =
        run_image(r#"[ "$1" = info ] && { echo "Cannot connect to the daemon" >&2; exit 1; }"#);
    assert_eq!(code, Some(0), "{said}");
    assert!(
        said.contains("image: skipped: `") && said.contains("Cannot connect to the daemon"),
        "{said}"
    );
    assert!(!calls.contains("build"), "{calls}");
}

#[test]
fn image_build_is_skipped_when_the_base_images_cannot_be_pulled() {
    let (code, said, calls) = run_image(
        r#"case "$1" in image) exit 1;; pull) echo "registry unreachable" >&2; exit 1;; esac"#,
    );
    assert_eq!(code, Some(0), "{said}");
    assert!(
        said.contains("image: skipped: base image rust:") && said.contains("registry unreachable"),
        "{said}"
    );
    assert!(!calls.contains("build"), "{calls}");
}

#[test]
fn image_is_built_tagged_with_the_crate_version_and_tried() {
    let (code, said, calls) = run_image("exit 0");
    assert_eq!(code, Some(0), "{said}");
    assert!(
        calls.contains(&format!("build -t sandtable:{VERSION} .")),
        "{calls}"
    );
    assert!(
        calls.contains(&format!(
            "run --rm sandtable:{VERSION} check classic_stratego"
        )),
        "{calls}"
    );
    assert!(
        said.contains(&format!("image: built sandtable:{VERSION}")),
        "{said}"
    );
}

#[test]
fn a_failed_image_build_fails_the_step() {
    let (code, said, _) = run_image(r#"[ "$1" = build ] && exit 3; exit 0"#);
    assert_eq!(code, Some(3), "{said}");
    assert!(!said.contains("skipped"), "{said}");
}

#[test]
fn the_scaling_doc_uses_the_image_the_dockerfile_builds() {
    let doc = std::fs::read_to_string(Path::new(ROOT).join("docs/scaling.md")).unwrap();
    let tag = format!("sandtable:{VERSION}");
    let images: Vec<&str> = doc
        .lines()
        .filter(|l| l.trim_start().starts_with("image:"))
        .collect();
    assert!(!images.is_empty());
    for line in images {
        assert!(line.contains(&tag), "{line}: not {tag}");
    }
    assert!(doc.contains(".ci/image") && doc.contains("docker build -t"));
    let dockerfile = std::fs::read_to_string(Path::new(ROOT).join("Dockerfile")).unwrap();
    for copied in [
        "COPY variants ",
        "COPY scripts ",
        "target/release/sandtable",
    ] {
        assert!(dockerfile.contains(copied), "Dockerfile lacks `{copied}`");
    }
}
