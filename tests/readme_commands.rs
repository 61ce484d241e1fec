//! Every shell command README.md shows runs as written.
//!
//! The rule: a command is a line of a fenced code block of README.md that
//! starts with `sandtable` or `cargo run`, or that pipes (`|`) into
//! `sandtable`; a trailing `# comment` is part of the line as the shell
//! reads it. Each runs with `sh -c`, in order, in one temporary folder that
//! holds links to the repository's `variants/`, `scripts/`, `tests/`,
//! `examples/` and `docs/` (so files one command writes, such as a record,
//! are there for the next), with `sandtable` on the PATH as the binary this
//! test builds and `cargo run --release [--]` read as `sandtable`, and
//! `/tmp/` (where the README's examples write their files) read as a `tmp/`
//! folder inside the temporary folder. Standard
//! input is `quit`, which leaves the REPL and `play`. A command fails the
//! test when it exits non-zero, prints `error`, or runs longer than
//! [`TIMEOUT`]. Commands in [`SKIPPED`] are not run, each for the reason
//! given there; a skipped command that is no longer in the README fails the
//! test too, so the list stays true. The commands leave nothing in the
//! folder they run in (what they write goes where they say: `/tmp/...`).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_sandtable");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const TIMEOUT: Duration = Duration::from_secs(20);

/// Commands not run, by how they start, and why.
const SKIPPED: &[(&str, &str)] = &[
    ("cargo test --release", "the test suite itself"),
    (
        "sandtable web classic_stratego --port 8080",
        "a server that runs until stopped (tests/web.rs drives it in a browser)",
    ),
    (
        "sandtable serve classic_stratego --port 7878",
        "needs a second terminal or machine to join (tests/net_play.rs plays serve and join)",
    ),
    (
        "sandtable join 127.0.0.1:7878",
        "needs the host of the line before it (tests/net_play.rs)",
    ),
    (
        "sandtable serve classic_stratego --web 8080",
        "a server that runs until stopped (tests/web.rs)",
    ),
    (
        "sandtable serve ultimate_lightning --seat blue=mcts:200",
        "a server that waits for a player to join (tests/net_play.rs)",
    ),
    (
        "sandtable simulate ultimate_lightning --games 200",
        "200 MCTS games: minutes of CPU (tests/simulate.rs runs small ones)",
    ),
    (
        "sandtable simulate classic_stratego --games 1000",
        "250 MCTS games per shard: minutes (tests/simulate.rs shards small runs)",
    ),
    (
        "sandtable simulate merge s0.json",
        "merges the shards of the skipped line before it (tests/simulate.rs)",
    ),
];

/// The commands of README.md's code blocks, by the rule above.
fn readme_commands(readme: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_block = false;
    for line in readme.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        let line = line.trim();
        if in_block
            && (line.starts_with("sandtable")
                || line.starts_with("cargo run")
                || line.contains("| sandtable "))
        {
            out.push(line.to_string());
        }
    }
    out
}

fn link_repository(dir: &Path) {
    for sub in ["variants", "scripts", "tests", "examples", "docs"] {
        std::os::unix::fs::symlink(Path::new(ROOT).join(sub), dir.join(sub)).unwrap();
    }
}

/// Runs `command` as the README shows it; the failure, if any.
fn run(dir: &Path, bin_dir: &Path, command: &str) -> Result<(), String> {
    let tmp = format!("{}/", dir.join("tmp").display());
    let shell = command
        .replacen("cargo run --release --", "sandtable", 1)
        .replacen("cargo run --release", "sandtable", 1)
        .replace("/tmp/", &tmp);
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new("sh")
        .args(["-c", &shell])
        .current_dir(dir)
        .env("PATH", path)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A command that does not read its input closes the pipe: not an error.
    let _ = child.stdin.take().unwrap().write_all(b"quit\n");
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("still running after {TIMEOUT:?}"));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let o = child.wait_with_output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    if !o.status.success() {
        return Err(format!("exit {:?}:\n{text}", o.status.code()));
    }
    if text.lines().any(|l| l.contains("error")) {
        return Err(format!("printed an error:\n{text}"));
    }
    Ok(())
}

#[test]
fn every_command_in_the_readme_runs_as_written() {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let commands = readme_commands(&readme);
    assert!(commands.len() > 20, "found only {commands:?}");
    for (skip, why) in SKIPPED {
        assert!(
            commands.iter().any(|c| c.starts_with(skip)) || readme.contains(skip),
            "SKIPPED names `{skip}` ({why}), which README.md no longer shows"
        );
    }
    assert!(
        !readme.contains("../shared/"),
        "README.md names a path outside the repository"
    );
    let dir = tempfile::tempdir().unwrap();
    link_repository(dir.path());
    // `sandtable` on the PATH: the binary cargo built for this test.
    let bin_dir = dir.path().join("bin");
    std::fs::create_dir(&bin_dir).unwrap();
    std::os::unix::fs::symlink(BIN, bin_dir.join("sandtable")).unwrap();
    std::fs::create_dir(dir.path().join("tmp")).unwrap();
    let mut failures = Vec::new();
    let mut ran = 0;
    for c in &commands {
        if SKIPPED.iter().any(|(s, _)| c.starts_with(s)) {
            continue;
        }
        ran += 1;
        if let Err(e) = run(dir.path(), &bin_dir, c) {
            failures.push(format!("`{c}`: {e}"));
        }
    }
    assert!(ran > 15, "ran only {ran} commands");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // Nothing written into the folder the commands ran in.
    let mut left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| {
            ![
                "variants", "scripts", "tests", "examples", "docs", "bin", "tmp",
            ]
            .contains(&n.as_str())
        })
        .collect();
    left.sort();
    assert!(
        left.is_empty(),
        "README commands wrote {left:?} into the folder they ran in"
    );
    assert!(
        std::fs::read_dir(dir.path().join("tmp")).unwrap().count() > 0,
        "no README command wrote into /tmp/ (the test reads /tmp/ as its own folder)"
    );
}

/// The first screen (before "Using it") gives exactly the two commands a
/// fresh machine needs (the REPL, the tests), and "Using it" first puts
/// `sandtable`, which every command below it runs, on the PATH.
#[test]
fn the_first_screen_has_two_commands_and_using_it_installs_first() {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let (first, rest) = readme
        .split_once("## Using it")
        .expect("a section `## Using it`");
    let commands = |text: &str| -> Vec<String> {
        text.split("```")
            .skip(1)
            .step_by(2)
            .flat_map(|block| block.lines().skip(1))
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(str::to_string)
            .collect()
    };
    let first = commands(first);
    assert_eq!(first.len(), 2, "the first screen's commands: {first:?}");
    assert!(first[0].starts_with("cargo run --release"), "{first:?}");
    assert!(first[1].starts_with("cargo test --release"), "{first:?}");
    let using = commands(rest);
    assert!(
        using
            .first()
            .is_some_and(|l| l.starts_with("cargo install --path .")),
        "\"Using it\" does not first put `sandtable` on the PATH: {:?}",
        using.first()
    );
}
