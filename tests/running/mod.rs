#![allow(dead_code)]
//! A `sandtable` process that a test starts (`web`, `serve --web`), its
//! output read line by line: shared by the tests of the web front.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// A running `sandtable` process, its output read line by line.
pub struct Running {
    pub child: Child,
    pub stdin: Option<ChildStdin>,
    pub lines: Receiver<String>,
    pub seen: Vec<String>,
}

impl Running {
    pub fn start(args: &[&str]) -> Running {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sandtable"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start sandtable");
        let out = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Running {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    /// Waits for a line containing `text`; returns it.
    pub fn wait_for(&mut self, text: &str, secs: u64) -> String {
        if let Some(l) = self.seen.iter().find(|l| l.contains(text)) {
            return l.clone();
        }
        let end = Instant::now() + Duration::from_secs(secs);
        while let Ok(l) = self
            .lines
            .recv_timeout(end.saturating_duration_since(Instant::now()))
        {
            self.seen.push(l.clone());
            if l.contains(text) {
                return l;
            }
        }
        panic!(
            "no line with `{text}` within {secs} s; saw:\n{}",
            self.seen.join("\n")
        );
    }

    pub fn say(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// The `http://…/` a `web` or `serve --web` process printed.
    pub fn url(&mut self, marker: &str) -> String {
        let line = self.wait_for(marker, 60);
        let start = line.find("http://").expect("a URL");
        line[start..].split_whitespace().next().unwrap().to_string()
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `serve classic_stratego` on loopback with play by URL, seed 5, and
/// `extra` arguments.
pub fn serve_web(extra: &[&str]) -> Running {
    let mut args = vec![
        "serve",
        "classic_stratego",
        "--bind",
        "127.0.0.1",
        "--port",
        "0",
        "--web",
        "0",
        "--seed",
        "5",
    ];
    args.extend_from_slice(extra);
    Running::start(&args)
}
