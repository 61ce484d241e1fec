//! A script cannot hold the host: besides each call's instruction budget,
//! the calls of one engine step (listing the legal actions, or applying an
//! action with its hooks, reactions and the next listing) share a total
//! (`ACTION_BUDGET`). A script whose every hook stays just under the
//! call's budget fails at its first step, at the script line, instead of
//! running `check` for a minute; and while a session page runs a slow
//! script, another page still gets its first frame at once.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use sandtable::engine::Engine;
use sandtable::rules::lua::{ACTION_BUDGET, DEFAULT_BUDGET};
use serde_json::{json, Value};

/// A copy of chess whose script `slow.lua` spins `ticks` loop iterations in
/// `rules.filter` and in `rules.after_action`.
fn slow_chess(ticks: i64) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let yaml = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/variants/chess.yaml"))
        .unwrap()
        .replace(
            "# yaml-language-server: $schema=../schema/variant.schema.json\n",
            "",
        );
    let path = dir.path().join("slow.yaml");
    let yaml = yaml.replace("script: ../scripts/chess.lua", "script: slow.lua");
    std::fs::write(&path, yaml).unwrap();
    // Chess's own script (its FEN fields), then the slow hooks.
    let lua = format!(
        "{}\nlocal function spin()\n  local n = 0\n  for i = 1, {ticks} do n = n + 1 end\n  return n\nend\n\
         function rules.filter(g, moves)\n  spin()\n  return nil\nend\n\
         function rules.after_action(g, action)\n  spin()\nend\n",
        chess_script().trim_end()
    );
    std::fs::write(dir.path().join("slow.lua"), lua).unwrap();
    (dir, path)
}

fn chess_script() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/chess.lua")).unwrap()
}

/// `slow.lua:N:`, the line of the spinning loop.
fn spin_line() -> String {
    format!(
        "slow.lua:{}:",
        chess_script().trim_end().lines().count() + 3
    )
}

/// Near the call's budget in every hook: 95% of it.
fn near_the_call_budget() -> i64 {
    DEFAULT_BUDGET * 95 / 100
}

#[test]
fn the_budget_of_one_step_is_declared_and_below_two_calls() {
    const { assert!(ACTION_BUDGET >= DEFAULT_BUDGET) };
    assert!(ACTION_BUDGET < 2 * near_the_call_budget());
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/lua-api.md")).unwrap();
    let shown = |n: i64| {
        let s = n.to_string();
        let mut out = String::new();
        for (i, c) in s.chars().enumerate() {
            if i > 0 && (s.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    };
    assert!(
        doc.contains(&shown(ACTION_BUDGET)),
        "docs/lua-api.md does not declare the step's budget"
    );
    assert!(doc.contains(&shown(DEFAULT_BUDGET)));
}

#[test]
fn a_step_whose_hooks_each_stay_under_the_call_budget_fails_at_the_script_line() {
    let (_dir, path) = slow_chess(near_the_call_budget());
    let e = Engine::load(path.to_str().unwrap(), &[]).unwrap();
    let mut s = e.new_game(1, &[]);
    let before = s.clone();
    let started = Instant::now();
    let a = e.parse_action(&s, "e2-e4");
    let err = match a {
        Ok(a) => e.apply(&mut s, &a).unwrap_err().to_string(),
        Err(err) => err.to_string(),
    };
    assert!(err.contains(&spin_line()), "{err}");
    assert!(err.contains("instruction budget exceeded"), "{err}");
    assert!(err.contains(&ACTION_BUDGET.to_string()), "{err}");
    assert_eq!(s, before, "a failed step changed the game");
    // One step's worth of script time, not a minute.
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    // Under the total, the same hooks run.
    let (_dir, path) = slow_chess(1000);
    let e = Engine::load(path.to_str().unwrap(), &[]).unwrap();
    let mut s = e.new_game(1, &[]);
    let a = e.parse_action(&s, "e2-e4").unwrap();
    e.apply(&mut s, &a).unwrap();
}

#[test]
fn check_stops_at_the_first_step_over_the_total_and_names_the_line() {
    let (dir, path) = slow_chess(near_the_call_budget());
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_sandtable"))
        .args(["check", path.to_str().unwrap()])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let took = started.elapsed();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains(&spin_line()), "{text}");
    assert!(text.contains("instruction budget exceeded"), "{text}");
    // Loading, and one step of at most ACTION_BUDGET ticks (tens of
    // milliseconds), far from the minute it took before.
    assert!(took < Duration::from_secs(15), "check took {took:?}");
}

/// A `sandtable web` process on `variant`, and its `host:port`.
struct Web {
    child: std::process::Child,
    host: String,
}

impl Drop for Web {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn web(variant: &Path) -> Web {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sandtable"))
        .args(["web", variant.to_str().unwrap(), "--port", "0"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let out = BufReader::new(child.stdout.take().unwrap());
    let mut host = String::new();
    for l in out.lines().map_while(Result::ok) {
        if let Some(at) = l.find("http://") {
            host = l[at + 7..].split('/').next().unwrap().to_string();
            break;
        }
    }
    assert!(!host.is_empty(), "web printed no address");
    Web { child, host }
}

type Socket = tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<TcpStream>>;

/// A session page's socket, with the secret its page carries.
fn page(host: &str) -> Socket {
    let mut s = TcpStream::connect(host).unwrap();
    write!(s, "GET / HTTP/1.1\r\nHost: {host}\r\n\r\n").unwrap();
    let mut body = String::new();
    s.read_to_string(&mut body).unwrap();
    let key = "name=\"sandtable-secret\" content=\"";
    let at = body.find(key).expect("the page carries the secret") + key.len();
    let secret = &body[at..at + body[at..].find('"').unwrap()];
    let (ws, _) = tungstenite::connect(format!("ws://{host}/ws?secret={secret}")).unwrap();
    if let tungstenite::stream::MaybeTlsStream::Plain(s) = ws.get_ref() {
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    }
    ws
}

fn next_of(ws: &mut Socket, kind: &str) -> Value {
    loop {
        if let tungstenite::Message::Text(t) = ws.read().expect("a message") {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if v["type"] == kind {
                return v;
            }
        }
    }
}

#[test]
fn a_second_page_gets_its_first_frame_while_the_session_runs_a_slow_script() {
    // Each step stays under the total, but a long console line plays many.
    let (_dir, path) = slow_chess(ACTION_BUDGET / 4);
    let w = web(&path);
    let mut first = page(&w.host);
    next_of(&mut first, "frame");
    first
        .send(tungstenite::Message::text(
            json!({ "type": "command", "line": "random 150" }).to_string(),
        ))
        .unwrap();
    // The session is busy with the line for seconds; a page that connects
    // meanwhile is answered at once.
    std::thread::sleep(Duration::from_millis(500));
    let started = Instant::now();
    let mut second = page(&w.host);
    let frame = next_of(&mut second, "frame");
    let took = started.elapsed();
    assert_eq!(frame["variant"], "Chess", "{frame}");
    assert!(
        took < Duration::from_secs(2),
        "the second page waited {took:?}"
    );
    // The first page's line did run long (else this test shows nothing).
    let out = next_of(&mut first, "output");
    let busy = started.elapsed();
    eprintln!("the second page waited {took:?}; the line ran {busy:?} after it came");
    assert!(busy > took, "the line ended before the second page came");
    assert!(out["ok"] == true, "{out}");
}
