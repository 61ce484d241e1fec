//! `sandtable simulate`: statistics on a game with a known answer, compare,
//! shards run as separate processes and merged, JSON output.

use std::process::Command;

fn sandtable(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sandtable"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run sandtable");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn ok(args: &[&str]) -> String {
    let (success, out, err) = sandtable(args);
    assert!(success, "sandtable {args:?} failed: {err}");
    out
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut a = args.to_vec();
    a.push("--json");
    serde_json::from_str(&ok(&a)).expect("JSON output")
}

const REACH: &str = "tests/variants/reach.yaml";

#[test]
fn known_answer_and_compare() {
    // A search agent always strikes at range and wins in one ply.
    let r = json(&[
        "simulate",
        REACH,
        "--games",
        "30",
        "--seats",
        "mcts:20,random",
        "-q",
    ]);
    let arm = &r["arms"][0];
    assert_eq!(arm["games"], 30);
    assert_eq!(arm["seats"][0]["wins"]["count"], 30);
    assert_eq!(arm["seats"][1]["wins"]["count"], 0);
    assert_eq!(arm["draws"]["count"], 0);
    assert_eq!(arm["length"]["mean"], 1.0);
    assert_eq!(
        arm["endings"],
        serde_json::json!([{ "winners": ["red"], "ending": "blue cannot move", "games": 30 }])
    );
    // Wilson interval of 30/30.
    let lo = arm["seats"][0]["wins"]["ci95"][0].as_f64().unwrap();
    assert!((lo - 0.8865).abs() < 1e-3, "{lo}");

    // Random Red wins about half; without reach it never wins.
    let r = json(&[
        "simulate",
        REACH,
        "--games",
        "200",
        "--seats",
        "random",
        "--compare",
        "reach=false",
        "-q",
    ]);
    let a = &r["arms"][0];
    let red = a["seats"][0]["wins"]["count"].as_u64().unwrap();
    assert!((70..=130).contains(&red), "{red}");
    // Red wins exactly the games that last one ply.
    let mean = a["length"]["mean"].as_f64().unwrap();
    assert!((mean - (1.0 + (200 - red) as f64 / 200.0)).abs() < 1e-9);
    let b = &r["arms"][1];
    assert_eq!(b["options"][0], "reach=false");
    assert_eq!(b["seats"][0]["wins"]["count"], 0);
    assert_eq!(b["seats"][1]["wins"]["count"], 200);
    let diffs = r["compare"].as_array().unwrap();
    let red_diff = &diffs[0];
    assert_eq!(red_diff["test"], "exact McNemar");
    assert_eq!(red_diff["significant"], true);
    assert!((red_diff["diff"].as_f64().unwrap() + red as f64 / 200.0).abs() < 1e-9);
    let draws = diffs.iter().find(|d| d["name"] == "draws").unwrap();
    assert_eq!(draws["significant"], false);

    // The text report says the same.
    let text = ok(&[
        "simulate",
        REACH,
        "--games",
        "20",
        "--seats",
        "random",
        "--compare",
        "reach=false",
        "-q",
    ]);
    assert!(text.contains("95% CI"), "{text}");
    assert!(
        text.contains("B - A") && text.contains("significant"),
        "{text}"
    );
}

/// Who won how: the same ending reached by either seat is two endings, in
/// the table and in the JSON (a leading player name is not stripped).
#[test]
fn endings_say_who_won_how() {
    let args = [
        "simulate", REACH, "--games", "40", "--seats", "random", "-q",
    ];
    let r = json(&args);
    let endings = r["arms"][0]["endings"]
        .as_array()
        .expect("a list of endings");
    let games = |winner: &str, ending: &str| {
        endings
            .iter()
            .find(|e| e["winners"] == serde_json::json!([winner]) && e["ending"] == ending)
            .and_then(|e| e["games"].as_u64())
    };
    let red = games("red", "blue cannot move").expect("red wins when blue cannot move");
    let blue = games("blue", "red cannot move").expect("blue wins when red cannot move");
    assert_eq!(endings.len(), 2, "{endings:?}");
    assert_eq!(red + blue, 40);
    assert_eq!(r["arms"][0]["seats"][0]["wins"]["count"], red);
    let text = ok(&args);
    assert!(
        text.contains(&format!("{red:>6}  red won: blue cannot move"))
            && text.contains(&format!("{blue:>6}  blue won: red cannot move")),
        "{text}"
    );
}

#[test]
fn shards_merge_into_the_unsharded_run() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "simulate",
        "examples/variants/mini_battle.yaml",
        "--games",
        "12",
        "--seats",
        "mcts:10,random",
        "--seed",
        "5",
        "-q",
    ];
    let whole = ok(&args);
    let whole_json = ok(&[&args[..], &["--json"]].concat());
    let mut files = Vec::new();
    let mut children = Vec::new();
    for i in 0..3 {
        let f = dir.path().join(format!("s{i}.json"));
        let shard = format!("{i}/3");
        let mut a: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        a.extend([
            "--shard".into(),
            shard,
            "--out".into(),
            f.display().to_string(),
        ]);
        // Separate processes, all at once, as on a cluster.
        children.push(
            Command::new(env!("CARGO_BIN_EXE_sandtable"))
                .args(&a)
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .output_async(),
        );
        files.push(f.display().to_string());
    }
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let mut m = vec!["simulate", "merge"];
    m.extend(files.iter().map(String::as_str));
    // Search speed is measured, not played: it differs from run to run.
    let untimed = |t: &str| -> String {
        t.lines()
            .filter(|l| !l.trim_start().starts_with("search iterations/s:"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(untimed(&ok(&m)), untimed(&whole));
    m.push("--json");
    assert_eq!(ok(&m), whole_json);

    // Merging a shard twice is refused.
    let (success, _, err) = sandtable(&["simulate", "merge", &files[0], &files[0]]);
    assert!(!success && err.contains("more than one file"), "{err}");
}

trait Spawn {
    fn output_async(&mut self) -> std::process::Child;
}

impl Spawn for Command {
    fn output_async(&mut self) -> std::process::Child {
        self.stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("spawn sandtable")
    }
}

#[test]
fn simulate_errors_are_clear() {
    for (args, msg) in [
        (
            vec!["simulate", REACH, "--seats", "minimax"],
            "unknown agent",
        ),
        (
            vec!["simulate", REACH, "--seats", "random,random,random"],
            "3 agents",
        ),
        (vec!["simulate", REACH, "--shard", "3/3"], "shard"),
        (vec!["simulate", REACH, "--compare", "nope=1"], "nope"),
        (vec!["simulate", "merge"], "shard files"),
        (vec!["simulate", REACH, "--games", "0"], "at least 1"),
    ] {
        let (success, _, err) = sandtable(&args);
        assert!(!success, "{args:?}");
        assert!(err.contains(msg), "{args:?}: {err}");
    }
}

#[test]
fn play_against_a_bot_from_the_cli() {
    // Two bots, no human: the game runs to the end without input.
    let out = ok(&[
        "play",
        "examples/variants/mini_battle.yaml",
        "--gold",
        "mcts:10",
        "--silver",
        "random",
    ]);
    assert!(out.contains("wins") || out.contains("draw"), "{out}");
}

#[test]
fn players_flag_sets_the_number_of_seats() {
    let r = json(&[
        "simulate",
        "lost_island",
        "--players",
        "3",
        "--games",
        "2",
        "--seats",
        "random",
        "-q",
    ]);
    assert_eq!(r["arms"][0]["seats"].as_array().unwrap().len(), 3, "{r}");
}

// ---- issue 38: a number on the command line never sizes an allocation

/// Runs sandtable for at most `secs` seconds under an address-space limit
/// of `kib` KiB; `None` if it was still running (then killed), else its
/// exit code and standard error.
#[cfg(target_os = "linux")]
fn run_bounded(args: &[&str], kib: u64, secs: u64) -> Option<(Option<i32>, String)> {
    use std::io::Read;
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {kib}; exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_sandtable"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run sandtable");
    let end = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    while std::time::Instant::now() < end {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            child.stderr.take().unwrap().read_to_string(&mut err).ok();
            return Some((status.code(), err));
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    child.kill().ok();
    child.wait().ok();
    None
}

#[test]
#[cfg(target_os = "linux")]
fn a_billion_games_start_playing_in_bounded_memory() {
    // Today's main collects the billion game indices first and aborts
    // (`memory allocation of ... failed`) within seconds under this limit.
    let args = [
        "simulate",
        REACH,
        "--games",
        "1000000000",
        "--threads",
        "1",
        "-q",
    ];
    if let Some((code, err)) = run_bounded(&args, 256 << 10, 6) {
        panic!("simulate ended early ({code:?}): {err}");
    }
}

#[test]
#[cfg(target_os = "linux")]
fn cli_numbers_that_would_take_forever_are_refused() {
    for (args, msg) in [
        (
            vec!["simulate", REACH, "--games", "2", "--threads", "1000000000"],
            "--threads is at most",
        ),
        (
            vec!["perft", REACH, "--depth", "1000000000"],
            "--depth is at most",
        ),
    ] {
        let (code, err) = run_bounded(&args, 4 << 20, 20).expect("ends at once");
        assert_eq!(code, Some(1), "{args:?}: {err}");
        assert!(err.contains(msg), "{args:?}: {err}");
    }
}
