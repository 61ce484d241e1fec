//! What a newcomer tripped over (issue 60): each test is one of the
//! surprises, run the way the newcomer met it.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn text(o: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// `sandtable ARGS | head -0`: standard output is a pipe whose reader has
/// gone before the first line is written.
fn into_closed_pipe(args: &[&str]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sandtable"))
        .args(args)
        .current_dir(ROOT)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

#[test]
fn a_closed_output_pipe_ends_every_command_quietly() {
    for args in [
        &["check", "classic_stratego", "chess"][..],
        &["rules", "chess"],
        &["perft", "chess", "--depth", "2"],
        &["apply", "chess", "e2e4"],
        &["schema"],
    ] {
        let o = into_closed_pipe(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            !err.contains("panicked") && !err.contains("Broken pipe"),
            "{args:?}: {err}"
        );
        assert_ne!(o.status.code(), Some(101), "{args:?}: {err}");
        // Ended by SIGPIPE (13), as `cat` is, or done before it wrote.
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt;
            assert!(
                o.status.success() || o.status.signal() == Some(13),
                "{args:?}: {:?} {err}",
                o.status
            );
        }
    }
}
