//! `sandtable simulate`: statistics on a game with a known answer, compare,
//! shards run as separate processes and merged, JSON output.

use std::process::Command;

mod browser;

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
    let mut child = spawn_bounded(args, kib);
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

/// Starts sandtable under an address-space limit of `kib` KiB, its
/// standard error piped.
#[cfg(target_os = "linux")]
fn spawn_bounded(args: &[&str], kib: u64) -> std::process::Child {
    Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {kib}; exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_sandtable"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run sandtable")
}

/// A run that would take days, on one thread. What a run keeps grows
/// with the games it has played (about 100 bytes each), so the game is
/// chess, whose random games are slow enough that a few seconds of them fit
/// any limit below: a variant whose games take microseconds would fill it
/// on a fast machine.
#[cfg(target_os = "linux")]
const BILLION_GAMES: [&str; 7] = [
    "simulate",
    "chess",
    "--games",
    "1000000000",
    "--threads",
    "1",
    "-q",
];

#[test]
#[cfg(target_os = "linux")]
fn a_billion_games_start_playing_in_bounded_memory() {
    // Today's main collects the billion game indices first and aborts
    // (`memory allocation of ... failed`) within seconds under this limit.
    if let Some((code, err)) = run_bounded(&BILLION_GAMES, 256 << 10, 6) {
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

// ---- issue 36: games as data (--games-out) and the report (--report, --sweep)

/// Runs sandtable in `dir` (for what it writes there).
fn sandtable_in(dir: &std::path::Path, args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sandtable"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run sandtable");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A run of random seats on REACH, compared with `reach=false`.
fn reach_compared(games: &'static str) -> Vec<&'static str> {
    vec![
        "simulate",
        REACH,
        "--games",
        games,
        "--seats",
        "random",
        "--compare",
        "reach=false",
        "-q",
    ]
}

fn reach_path() -> String {
    format!("{}/{REACH}", env!("CARGO_MANIFEST_DIR"))
}

fn lines_of(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The marks of class `class` in an SVG or HTML text: each one's
/// attributes (unescaped).
fn marks(doc: &str, class: &str) -> Vec<std::collections::HashMap<String, String>> {
    let unescape = |v: &str| {
        v.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&amp;", "&")
    };
    let needle = format!("class=\"{class}\"");
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = doc[from..].find(&needle) {
        let at = from + at;
        let start = doc[..at].rfind('<').unwrap();
        let end = at + doc[at..].find('>').unwrap();
        let tag = &doc[start..end];
        let mut attrs = std::collections::HashMap::new();
        let mut rest = tag.split_once(' ').map_or("", |(_, r)| r);
        while let Some((name, after)) = rest.split_once("=\"") {
            let (value, after) = after.split_once('"').unwrap();
            attrs.insert(name.trim().to_string(), unescape(value));
            rest = after;
        }
        out.push(attrs);
        from = end;
    }
    out
}

/// A number of the report, read as the summary's JSON numbers are read.
fn f(v: &str) -> f64 {
    serde_json::from_str(v).unwrap_or_else(|_| panic!("not a number: {v}"))
}

#[test]
fn games_out_lines_add_up_to_the_summary_in_index_order_whatever_the_threads() {
    let dir = tempfile::tempdir().unwrap();
    let (g1, g3) = (dir.path().join("one.jsonl"), dir.path().join("three.jsonl"));
    let run = |out: &std::path::Path, threads: &str| -> serde_json::Value {
        let extra = ["--threads", threads, "--games-out", out.to_str().unwrap()];
        json(&[&reach_compared("60")[..], &extra].concat())
    };
    let summary = run(&g3, "3");
    assert_eq!(run(&g1, "1"), summary);
    assert_eq!(std::fs::read(&g1).unwrap(), std::fs::read(&g3).unwrap());
    let lines = lines_of(&g3);
    assert_eq!(lines.len(), 120);
    // Game by game, both arms of a seed together.
    let order: Vec<(u64, u64)> = lines
        .iter()
        .map(|l| (l["index"].as_u64().unwrap(), l["arm"].as_u64().unwrap()))
        .collect();
    let want: Vec<(u64, u64)> = (0..60).flat_map(|i| [(i, 0), (i, 1)]).collect();
    assert_eq!(order, want);
    for (a, arm) in summary["arms"].as_array().unwrap().iter().enumerate() {
        let mine: Vec<&serde_json::Value> = lines.iter().filter(|l| l["arm"] == a as u64).collect();
        assert_eq!(mine.len() as u64, arm["games"].as_u64().unwrap());
        for l in &mine {
            assert_eq!(l["options"], arm["options"], "{l}");
            assert_eq!(l["variant"], REACH);
            assert!(l.get("moves").is_none(), "moves only when asked: {l}");
        }
        // Wins per seat, each from the seat's result and from the winners.
        for (p, seat) in arm["seats"].as_array().unwrap().iter().enumerate() {
            let won = mine
                .iter()
                .filter(|l| l["seats"][p]["result"] == "won")
                .count() as u64;
            let named = mine
                .iter()
                .filter(|l| l["winners"].as_array().unwrap().contains(&seat["player"]))
                .count() as u64;
            assert_eq!(won, seat["wins"]["count"].as_u64().unwrap(), "{seat}");
            assert_eq!(named, won);
            assert!(mine.iter().all(|l| l["seats"][p]["agent"] == seat["agent"]));
        }
        let draws = mine
            .iter()
            .filter(|l| l["seats"][0]["result"] == "draw")
            .count() as u64;
        assert_eq!(draws, arm["draws"]["count"].as_u64().unwrap());
        // Who won how: the lines' (winners, ending) counted equal the summary's.
        let mut endings = std::collections::BTreeMap::new();
        for l in &mine {
            *endings
                .entry((
                    l["winners"].to_string(),
                    l["ending"].as_str().unwrap().to_string(),
                ))
                .or_insert(0u64) += 1;
        }
        let summary_endings: std::collections::BTreeMap<_, _> = arm["endings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    (
                        e["winners"].to_string(),
                        e["ending"].as_str().unwrap().to_string(),
                    ),
                    e["games"].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(endings, summary_endings);
        let plies: Vec<f64> = mine.iter().map(|l| l["plies"].as_f64().unwrap()).collect();
        let mean = plies.iter().sum::<f64>() / plies.len() as f64;
        assert!((mean - arm["length"]["mean"].as_f64().unwrap()).abs() < 1e-9);
    }
}

#[test]
fn games_out_moves_lists_each_games_actions() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g.jsonl");
    ok(&[
        "simulate",
        "examples/variants/mini_battle.yaml",
        "--games",
        "4",
        "--seats",
        "random",
        "-q",
        "--games-out",
        out.to_str().unwrap(),
        "--games-out-moves",
    ]);
    let lines = lines_of(&out);
    assert_eq!(lines.len(), 4);
    for l in &lines {
        let moves = l["moves"].as_array().expect("moves");
        assert_eq!(moves.len() as u64, l["plies"].as_u64().unwrap(), "{l}");
        assert!(moves.iter().all(|m| !m.as_str().unwrap().is_empty()));
    }
    // Replaying a game's moves ends it as the line says.
    let first = &lines[0];
    let moves: Vec<&str> = first["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let seed = first["seed"].as_u64().unwrap().to_string();
    let mut args = vec![
        "apply",
        "examples/variants/mini_battle.yaml",
        "--seed",
        &seed,
    ];
    args.extend(&moves);
    let text = ok(&args);
    let ending = first["ending"].as_str().unwrap();
    assert!(text.contains(ending), "{ending}: {text}");
}

#[test]
fn nothing_is_written_unless_asked_and_an_unwritable_path_stops_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let reach = reach_path();
    let (success, _, err) = sandtable_in(
        dir.path(),
        &[
            "simulate", &reach, "--games", "3", "--seats", "random", "-q",
        ],
    );
    assert!(success, "{err}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    // A billion games: refused at once, or this test would not end.
    let missing = dir.path().join("no/such/folder/x");
    for (flag, file) in [
        ("--games-out", "g.jsonl"),
        ("--report", "r.html"),
        ("--report", "r.svg"),
    ] {
        let path = format!("{}.{file}", missing.display());
        let args = [
            "simulate",
            &reach,
            "--games",
            "1000000000",
            flag,
            &path,
            "-q",
        ];
        let (code, err) = run_bounded(&args, 4 << 20, 20).expect("refused at once");
        assert_eq!(code, Some(1), "{args:?}: {err}");
        assert!(err.contains("cannot write"), "{args:?}: {err}");
    }
    let folder = dir.path().display().to_string();
    for (args, msg) in [
        (vec!["--report", "r.png"], ".html or .svg"),
        (vec!["--report", &folder], ".html or .svg"),
        (vec!["--games-out", &folder], "a folder"),
    ] {
        let mut a = vec!["simulate", &reach, "--games", "1000000000", "-q"];
        a.extend(args);
        let (code, err) = run_bounded(&a, 4 << 20, 20).expect("refused at once");
        assert_eq!(code, Some(1), "{a:?}: {err}");
        assert!(err.contains(msg), "{a:?}: {err}");
    }
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "a refused run left a file"
    );
    // A report replaces its file whole: a device is refused before play.
    let other = tempfile::tempdir().unwrap();
    let device = other.path().join("r.html");
    std::os::unix::fs::symlink("/dev/null", &device).unwrap();
    let args = [
        "simulate",
        &reach,
        "--games",
        "1000000000",
        "--report",
        device.to_str().unwrap(),
        "-q",
    ];
    let (code, err) = run_bounded(&args, 4 << 20, 20).expect("refused at once");
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("not a regular file"), "{err}");
}

/// The report's marks carry the summary's numbers: win rates and their
/// intervals, the paired tests, the length bins and the endings.
fn assert_report_matches(doc: &str, summary: &serde_json::Value, lines: &[serde_json::Value]) {
    let arms = summary["arms"].as_array().unwrap();
    let rates = marks(doc, "rate");
    assert_eq!(
        rates.len(),
        arms.iter()
            .map(|a| a["seats"].as_array().unwrap().len() + 1)
            .sum::<usize>()
    );
    for m in &rates {
        let arm = &arms[m["data-arm"].parse::<usize>().unwrap()];
        let rate = match m["data-kind"].as_str() {
            "draws" => &arm["draws"],
            _ => {
                let seat = arm["seats"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|s| s["player"] == m["data-seat"].as_str())
                    .unwrap();
                assert_eq!(seat["agent"], m["data-agent"].as_str());
                &seat["wins"]
            }
        };
        assert_eq!(f(&m["data-rate"]), rate["rate"].as_f64().unwrap(), "{m:?}");
        assert_eq!(f(&m["data-lo"]), rate["ci95"][0].as_f64().unwrap(), "{m:?}");
        assert_eq!(f(&m["data-hi"]), rate["ci95"][1].as_f64().unwrap(), "{m:?}");
        assert_eq!(m["data-count"], rate["count"].to_string());
        assert_eq!(m["data-games"], arm["games"].to_string());
    }
    let diffs = marks(doc, "diff");
    let compare = summary["compare"].as_array().map_or(&[][..], Vec::as_slice);
    assert_eq!(diffs.len(), compare.len());
    for (m, d) in diffs.iter().zip(compare) {
        assert_eq!(m["data-name"], d["name"].as_str().unwrap());
        assert_eq!(m["data-test"], d["test"].as_str().unwrap());
        assert_eq!(f(&m["data-p"]), d["p_value"].as_f64().unwrap(), "{m:?}");
        assert_eq!(f(&m["data-diff"]), d["diff"].as_f64().unwrap(), "{m:?}");
        assert_eq!(m["data-significant"], d["significant"].to_string());
    }
    // The histogram's bins hold each arm's games, by length, as the lines say.
    let bins = marks(doc, "bin");
    for (a, arm) in arms.iter().enumerate() {
        let mine: Vec<_> = bins
            .iter()
            .filter(|b| b["data-arm"] == a.to_string())
            .collect();
        let total: u64 = mine
            .iter()
            .map(|b| b["data-games"].parse::<u64>().unwrap())
            .sum();
        assert_eq!(total, arm["games"].as_u64().unwrap());
        for b in mine {
            let (lo, hi) = (f(&b["data-from"]), f(&b["data-to"]));
            let n = lines
                .iter()
                .filter(|l| l["arm"] == a as u64)
                .filter(|l| (lo..=hi).contains(&l["plies"].as_f64().unwrap()))
                .count();
            assert_eq!(b["data-games"], n.to_string(), "{b:?}");
        }
        let endings: Vec<(String, String, String)> = marks(doc, "ending")
            .into_iter()
            .filter(|e| e["data-arm"] == a.to_string())
            .map(|e| {
                (
                    e["data-who"].clone(),
                    e["data-ending"].clone(),
                    e["data-games"].clone(),
                )
            })
            .collect();
        let want: Vec<(String, String, String)> = arm["endings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                let w: Vec<&str> = e["winners"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|w| w.as_str().unwrap())
                    .collect();
                let who = if w.is_empty() {
                    "draw".to_string()
                } else {
                    format!("{} won", w.join(" and "))
                };
                (
                    who,
                    e["ending"].as_str().unwrap().into(),
                    e["games"].to_string(),
                )
            })
            .collect();
        assert_eq!(endings, want);
    }
}

#[test]
fn the_report_draws_the_numbers_of_the_run_in_html_and_svg() {
    let dir = tempfile::tempdir().unwrap();
    let (html, svg, games) = (
        dir.path().join("r.html"),
        dir.path().join("r.svg"),
        dir.path().join("g.jsonl"),
    );
    let run = reach_compared("50");
    let (html_s, svg_s, games_s) = (
        html.to_str().unwrap(),
        svg.to_str().unwrap(),
        games.to_str().unwrap(),
    );
    let summary = json(&[&run[..], &["--report", html_s, "--games-out", games_s]].concat());
    ok(&[&run[..], &["--report", svg_s]].concat());
    let lines = lines_of(&games);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"), "{page}");
    assert!(summary["compare"].as_array().is_some_and(|c| c.len() > 3));
    assert_report_matches(&page, &summary, &lines);
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert_report_matches(&picture, &summary, &lines);
    // Self-contained: no script, nothing fetched.
    for doc in [&page, &picture] {
        for banned in ["<script", "src=", "href=", "url(", "@import"] {
            assert!(!doc.contains(banned), "the report holds `{banned}`");
        }
        let without_ns = doc.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
        assert!(!without_ns.contains("http"), "the report names an address");
    }
}

#[test]
fn a_sweep_plays_one_arm_per_value_and_plots_the_rates_against_it() {
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("sweep.html");
    let summary = json(&[
        "simulate",
        REACH,
        "--games",
        "40",
        "--seats",
        "random",
        "--sweep",
        "reach=true,false",
        "-q",
        "--report",
        html.to_str().unwrap(),
    ]);
    assert_eq!(summary["sweep"], "reach");
    let arms = summary["arms"].as_array().unwrap();
    assert_eq!(arms.len(), 2);
    assert_eq!(arms[0]["options"], serde_json::json!(["reach=true"]));
    assert_eq!(arms[1]["options"], serde_json::json!(["reach=false"]));
    // Without reach Red never wins (as in known_answer_and_compare).
    assert_eq!(arms[1]["seats"][0]["wins"]["count"], 0);
    assert!(arms[0]["seats"][0]["wins"]["count"].as_u64().unwrap() > 0);
    let page = std::fs::read_to_string(&html).unwrap();
    let points = marks(&page, "sweep-point");
    assert_eq!(points.len(), 2 * 3, "two values, two seats and draws");
    for p in &points {
        let arm = p["data-arm"].parse::<usize>().unwrap();
        assert_eq!(
            format!("reach={}", p["data-value"]),
            arms[arm]["options"][0].as_str().unwrap()
        );
        let rate = match p["data-kind"].as_str() {
            "draws" => &arms[arm]["draws"],
            _ => {
                let s = if p["data-seat"] == "red" { 0 } else { 1 };
                &arms[arm]["seats"][s]["wins"]
            }
        };
        assert_eq!(f(&p["data-rate"]), rate["rate"].as_f64().unwrap());
        assert_eq!(f(&p["data-hi"]), rate["ci95"][1].as_f64().unwrap());
    }
    // A sweep is a run's setting: its shards merge into it.
    let text = ok(&[
        "simulate",
        REACH,
        "--games",
        "6",
        "--seats",
        "random",
        "--sweep",
        "reach=true,false",
        "-q",
    ]);
    assert!(
        text.contains("[reach=true]") && text.contains("[reach=false]"),
        "{text}"
    );
}

#[test]
#[cfg(target_os = "linux")]
fn a_bad_sweep_is_refused_before_any_game_is_played() {
    for (sweep, msg) in [
        ("nope=1,2", "nope"),
        ("reach=true,maybe", "maybe"),
        ("reach=true,,false", "empty value"),
        ("reach=true", "two values or more"),
        ("reach=true,true", "given twice"),
        ("reach", "expected NAME=a,b,c"),
        ("=1,2", "no option name"),
    ] {
        let args = [
            "simulate",
            REACH,
            "--games",
            "1000000000",
            "--sweep",
            sweep,
            "-q",
        ];
        let (code, err) = run_bounded(&args, 4 << 20, 20).expect("refused at once");
        assert_eq!(code, Some(1), "{sweep}: {err}");
        assert!(err.contains(msg), "{sweep}: {err}");
    }
    for (extra, msg) in [
        (["--compare", "reach=false"], "cannot be used together"),
        (["--option", "reach=false"], "both set `reach`"),
    ] {
        let mut args = vec![
            "simulate",
            REACH,
            "--games",
            "1000000000",
            "--sweep",
            "reach=true,false",
            "-q",
        ];
        args.extend(extra);
        let (code, err) = run_bounded(&args, 4 << 20, 20).expect("refused at once");
        assert_eq!(code, Some(1), "{args:?}: {err}");
        assert!(err.contains(msg), "{args:?}: {err}");
    }
}

#[test]
fn merged_shards_write_the_games_and_the_report_of_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).display().to_string();
    let args = reach_compared("20");
    let (games, report) = (p("whole.jsonl"), p("whole.html"));
    ok(&[&args[..], &["--games-out", &games, "--report", &report]].concat());
    for i in 0..2 {
        let shard = format!("{i}/2");
        let out = p(&format!("s{i}.json"));
        ok(&[&args[..], &["--shard", &shard, "--out", &out]].concat());
    }
    ok(&[
        "simulate",
        "merge",
        &p("s0.json"),
        &p("s1.json"),
        "--games-out",
        &p("merged.jsonl"),
        "--report",
        &p("merged.html"),
    ]);
    let read = |name: &str| std::fs::read_to_string(p(name)).unwrap();
    assert_eq!(read("merged.jsonl"), read("whole.jsonl"));
    assert_eq!(read("merged.html"), read("whole.html"));
}

/// The run: Ultimate Lightning with `--compare rescues=2`, its
/// games as lines and its report, opened in Chromium from the file alone.
#[test]
fn the_report_of_a_compared_run_opens_in_a_browser_without_the_network() {
    let Some(mut b) = browser::Browser::launch(
        "the_report_of_a_compared_run_opens_in_a_browser_without_the_network",
    ) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (html, games) = (
        dir.path().join("report.html"),
        dir.path().join("games.jsonl"),
    );
    let summary = json(&[
        "simulate",
        "ultimate_lightning",
        "--games",
        "40",
        "--seats",
        "random",
        "--seed",
        "1",
        "--compare",
        "rescues=2",
        "-q",
        "--games-out",
        games.to_str().unwrap(),
        "--report",
        html.to_str().unwrap(),
    ]);
    assert_eq!(lines_of(&games).len(), 80);
    let page = b.open(&format!("file://{}", html.display()), "");
    b.wait(&page, "document.readyState === 'complete'", 20);
    // Every chart is drawn (it has a size), nothing was fetched.
    let drawn = b.eval(
        &page,
        "[...document.querySelectorAll('svg.chart')].map(s => { const r = s.getBoundingClientRect(); return r.width > 100 && r.height > 50; })",
    );
    assert_eq!(
        drawn,
        serde_json::json!([true, true, true, true]),
        "rates, compare, length, endings"
    );
    let fetched = b.eval(&page, "performance.getEntriesByType('resource').length");
    assert_eq!(fetched, serde_json::json!(0));
    // What the page shows is the run's: the first p-value, read in the DOM.
    let p = b.eval(&page, "document.querySelector('g.diff').dataset.p");
    assert_eq!(
        f(p.as_str().unwrap()),
        summary["compare"][0]["p_value"].as_f64().unwrap()
    );
    if let Some(path) = browser::screenshot_path("simulate_report.png") {
        b.screenshot_page(&page, &path);
    }
}

#[test]
#[cfg(target_os = "linux")]
fn games_out_is_written_while_a_long_run_plays_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g.jsonl");
    let mut child = spawn_bounded(
        &[&BILLION_GAMES[..], &["--games-out", out.to_str().unwrap()]].concat(),
        256 << 10,
    );
    // Two batches of 4,096 games in the file while the run goes on. The
    // deadline is only a bound on a hung run (a busy machine's two cores may
    // take minutes); the test ends as soon as the second batch is there.
    let end = std::time::Instant::now() + std::time::Duration::from_secs(300);
    let mut lines = 0;
    while std::time::Instant::now() < end && lines <= 8192 {
        assert!(child.try_wait().unwrap().is_none(), "simulate ended early");
        lines = std::fs::read_to_string(&out).map_or(0, |t| t.lines().count());
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    child.kill().ok();
    child.wait().ok();
    assert!(lines > 8192, "only {lines} lines after 300 s");
    let text = std::fs::read_to_string(&out).unwrap();
    for (i, l) in text.lines().take(8192).enumerate() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        assert_eq!(v["index"], i as u64);
    }
}
