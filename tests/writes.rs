//! Writes that stay where they were asked: a symbolic link planted at the
//! name a file is written to, or at the temporary file beside it, is never
//! written through (a variant folder unpacked from an archive or cloned
//! from a repository may carry such links). The file the link points at is
//! left as it was, and the link stays a link.

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Command;

use sandtable::base::write::{Access, Held};
use sandtable::front::session::Session;
use sandtable::front::web::desk::DeskSite;
use sandtable::front::web::editor::Editor;

const OUTSIDE: &str = "# the user's own file\nexport PATH=$PATH\n";

/// A folder holding a copy of Connect Four (`v.yaml`), and a file outside
/// it standing for the user's `~/.bashrc`.
fn folder() -> (tempfile::TempDir, tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let bundled = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/connect_four.yaml");
    let text = std::fs::read_to_string(bundled).unwrap().replace(
        "# yaml-language-server: $schema=../schema/variant.schema.json\n",
        "",
    );
    std::fs::write(dir.path().join("v.yaml"), text).unwrap();
    let outside = home.path().join(".bashrc");
    std::fs::write(&outside, OUTSIDE).unwrap();
    (dir, home, outside)
}

fn is_link(p: &Path) -> bool {
    std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink())
}

/// Links at every temporary name a writer in this process could take
/// first: the editor's old `NAME.sandtable-edit`, `.NAME.part`, and the
/// first numbered names of `base::write`.
fn plant_temporaries(dir: &Path, name: &str, target: &Path) {
    let mut names = vec![
        format!("{name}.sandtable-edit"),
        format!(".{name}.part"),
        format!(
            "{}.sandtable-edit",
            Path::new(name).extension().unwrap().to_str().unwrap()
        ),
    ];
    let stem = Path::new(name).file_stem().unwrap().to_str().unwrap();
    names.push(format!("{stem}.yaml.sandtable-edit"));
    for n in 0..512 {
        names.push(format!(".{name}.{}-{n}.part", std::process::id()));
    }
    for n in names {
        let p = dir.join(n);
        if !p.exists() && !is_link(&p) {
            symlink(target, p).unwrap();
        }
    }
}

#[test]
fn the_editor_saves_through_no_link_at_its_temporary_file() {
    let (dir, _home, outside) = folder();
    plant_temporaries(dir.path(), "v.yaml", &outside);
    let path = dir.path().join("v.yaml");
    let mut s = Session::new(path.to_str().unwrap(), &[], 1).unwrap();
    let mut editor = Editor::default();
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("name: Connect Four", "name: Connect Four (edited)");
    let saved = editor.save(&mut s, "v.yaml", &text).unwrap();
    assert_eq!(saved["type"], "saved", "{saved}");
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), OUTSIDE);
    assert!(!is_link(&path), "the variant file became a link");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    // A second save (and a restore) still writes the folder's own file.
    editor.restore(&mut s, "v.yaml").unwrap();
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), OUTSIDE);
    assert!(!is_link(&path));
    assert!(!std::fs::read_to_string(&path).unwrap().contains("(edited)"));
}

#[test]
fn the_editor_refuses_a_variant_file_that_is_a_link_out_of_its_folder() {
    let (dir, _home, outside) = folder();
    // The user's file is a valid variant here, so that it loads.
    let variant = std::fs::read_to_string(dir.path().join("v.yaml")).unwrap();
    std::fs::write(&outside, &variant).unwrap();
    let link = dir.path().join("w.yaml");
    symlink(&outside, &link).unwrap();
    let mut s = Session::new(link.to_str().unwrap(), &[], 1).unwrap();
    let mut editor = Editor::default();
    for name in ["w.yaml", "./w.yaml"] {
        let e = editor.save(&mut s, name, "name: X\n").unwrap_err();
        assert!(e.contains("symbolic link out of its folder"), "{e}");
        let e = editor.open(&s, name).unwrap_err();
        assert!(e.contains("symbolic link out of its folder"), "{e}");
    }
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), variant);
    assert!(is_link(&link), "the link was replaced");
    // A link to a file of the same folder is the folder's own file.
    symlink(dir.path().join("v.yaml"), dir.path().join("alias.yaml")).unwrap();
    assert!(editor.open(&s, "alias.yaml").is_ok());
}

#[test]
fn web_save_keeps_its_record_through_no_link_at_its_temporary_file() {
    let (dir, _home, outside) = folder();
    let record = dir.path().join("session.yaml");
    plant_temporaries(dir.path(), "session.yaml", &outside);
    let s = Session::new("connect_four", &[], 3).unwrap();
    let held = Held::take(&record, "session.yaml", Access::Shared, true).unwrap();
    let site = DeskSite::new(s).keep_in(held).unwrap();
    let (ok, out) = site.run_line("random 3");
    assert!(ok, "{out}");
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), OUTSIDE);
    assert!(!is_link(&record));
    let kept = std::fs::read_to_string(&record).unwrap();
    assert!(kept.contains("actions:"), "{kept}");
}

#[test]
fn a_link_at_a_named_output_is_refused_and_its_target_untouched() {
    let (dir, _home, outside) = folder();
    let bin = env!("CARGO_BIN_EXE_sandtable");
    let link = dir.path().join("out.txt");
    symlink(&outside, &link).unwrap();
    let l = link.to_str().unwrap();
    let runs: Vec<Vec<&str>> = vec![
        vec!["schema", "--output", l],
        vec!["render", "connect_four", "-o", l],
        vec![
            "simulate",
            "connect_four",
            "--games",
            "2",
            "--games-out",
            l,
            "-q",
        ],
        vec!["web", "connect_four", "--port", "0", "--save", l],
        vec!["serve", "connect_four", "--port", "0", "--save", l],
    ];
    for args in runs {
        let o = Command::new(bin)
            .args(&args)
            .current_dir(dir.path())
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{args:?}: succeeded");
        assert!(err.contains("symbolic link"), "{args:?}: {err}");
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), OUTSIDE);
        assert!(is_link(&link), "{args:?}: the link was replaced");
    }
    // A REPL line that saves does the same.
    let out = Command::new(bin)
        .args(["repl", "connect_four", "--seed", "1"])
        .current_dir(dir.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(
                format!("random 2\nsave-record {l}\nsave-position {l}\nsvg {l}\n").as_bytes(),
            )?;
            c.wait_with_output()
        })
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.matches("symbolic link").count() >= 3, "{text}");
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), OUTSIDE);
    assert!(is_link(&link));
}

#[test]
fn a_second_web_session_on_a_kept_record_is_refused_and_changes_nothing() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("s.yaml");
    let r = record.to_str().unwrap();
    let bin = env!("CARGO_BIN_EXE_sandtable");
    let mut first = Command::new(bin)
        .args(["web", "connect_four", "--port", "0", "--save", r])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let out = std::io::BufReader::new(first.stdout.take().unwrap());
    let serving = out
        .lines()
        .map_while(Result::ok)
        .any(|l| l.contains("serving"));
    assert!(serving, "the first session did not start");
    let before = std::fs::read(&record).unwrap();
    let second = Command::new(bin)
        .args(["web", "--resume", r, "--port", "0"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let _ = first.kill();
    let _ = first.wait();
    let err = String::from_utf8_lossy(&second.stderr);
    assert!(!second.status.success(), "a second session started");
    assert!(
        err.contains("another sandtable process is using this file"),
        "{err}"
    );
    assert_eq!(std::fs::read(&record).unwrap(), before);
    // Once the first has stopped, the record is free to go on with.
    let o = Command::new(bin).args(["replay", r]).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}
