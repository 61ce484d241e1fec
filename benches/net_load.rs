//! Load test of network play: one host (`sandtable serve`, its own process)
//! and 200 clients over loopback: two players moving every 50 ms and 198
//! spectators chatting every 2 s. Reports the host's memory (RSS from
//! /proc) and the latency of actions (sent → the mover's next state) and
//! chat (sent → own line back).
//!
//! `cargo bench --bench net_load`; NET_LOAD_SECS (default 180) sets the
//! duration, NET_LOAD_CLIENTS (default 200) the number of clients.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn connect(addr: &str, hello: &str) -> (TcpStream, BufReader<TcpStream>) {
    let s = TcpStream::connect(addr).expect("connect");
    let mut w = s.try_clone().unwrap();
    writeln!(w, "{hello}").unwrap();
    (w, BufReader::new(s))
}

type Samples = Arc<Mutex<Vec<Duration>>>;

fn player(addr: String, seat: &'static str, stop: Arc<AtomicBool>, lat: Samples) {
    let hello = format!(r#"{{"type":"hello","version":2,"name":"{seat}-p","seat":"{seat}"}}"#);
    let (mut w, mut r) = connect(&addr, &hello);
    let mut sent: Option<Instant> = None;
    let mut n = 0u64;
    let mut line = String::new();
    while !stop.load(Ordering::Relaxed) {
        line.clear();
        if r.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let v: serde_json::Value = serde_json::from_str(&line).unwrap_or_default();
        if v["type"] == "end" {
            return;
        }
        if v["type"] != "state" {
            continue;
        }
        if let Some(t) = sent.take() {
            lat.lock().unwrap().push(t.elapsed());
        }
        let legal: Vec<&str> = v["legal"]
            .as_array()
            .map(|a| a.iter().filter_map(|x| x.as_str()).collect())
            .unwrap_or_default();
        let moves: Vec<&str> = legal.into_iter().filter(|a| !a.ends_with("draw")).collect();
        if moves.is_empty() {
            continue;
        }
        std::thread::sleep(Duration::from_millis(50));
        n += 1;
        let a = moves[(n as usize * 7919) % moves.len()];
        sent = Some(Instant::now());
        let _ = writeln!(w, r#"{{"type":"action","text":"{a}"}}"#);
    }
}

fn spectator(addr: String, i: usize, stop: Arc<AtomicBool>, lat: Samples) {
    let name = format!("s{i}");
    let hello = format!(r#"{{"type":"hello","version":2,"name":"{name}","spectator":true}}"#);
    let (mut w, r) = connect(&addr, &hello);
    let pending: Arc<Mutex<Vec<(String, Instant)>>> = Arc::default();
    let p2 = pending.clone();
    let stop2 = stop.clone();
    std::thread::spawn(move || {
        for line in r.lines() {
            let Ok(line) = line else { return };
            if stop2.load(Ordering::Relaxed) {
                return;
            }
            if !line.contains(r#""type":"chat""#) {
                continue;
            }
            let mut p = p2.lock().unwrap();
            if let Some(k) = p.iter().position(|(tag, _)| line.contains(tag.as_str())) {
                let (_, t) = p.remove(k);
                lat.lock().unwrap().push(t.elapsed());
            }
        }
    });
    std::thread::sleep(Duration::from_millis((i as u64 * 37) % 2000));
    let mut k = 0;
    while !stop.load(Ordering::Relaxed) {
        k += 1;
        let tag = format!("{name}-{k}");
        pending.lock().unwrap().push((tag.clone(), Instant::now()));
        if writeln!(w, r#"{{"type":"chat","text":"hello from {tag}"}}"#).is_err() {
            return;
        }
        std::thread::sleep(Duration::from_secs(2));
    }
}

fn summary(what: &str, lat: &Samples) {
    let mut v = lat.lock().unwrap().clone();
    v.sort();
    if v.is_empty() {
        println!("{what}: no samples");
        return;
    }
    let q = |f: f64| v[((v.len() - 1) as f64 * f) as usize];
    println!(
        "{what}: {} samples, median {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        v.len(),
        q(0.5).as_secs_f64() * 1e3,
        q(0.99).as_secs_f64() * 1e3,
        v[v.len() - 1].as_secs_f64() * 1e3
    );
}

fn main() {
    let secs = env("NET_LOAD_SECS", 180);
    let clients = env("NET_LOAD_CLIENTS", 200).max(2) as usize;
    let dir = tempfile::tempdir().unwrap();
    let mut host = Command::new(env!("CARGO_BIN_EXE_sandtable"))
        .args([
            "serve",
            "classic_stratego",
            "--port",
            "0",
            "--bind",
            "127.0.0.1",
        ])
        .args(["--deal", "--seed", "15"])
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("sandtable serve");
    let mut out = BufReader::new(host.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    let addr = first
        .split_whitespace()
        .find(|w| w.starts_with("127.0.0.1:"))
        .expect("the host's address")
        .to_string();
    // The host's terminal output is drained so that it never blocks.
    std::thread::spawn(move || for _ in out.lines() {});
    let pid = host.id();
    let idle = rss_kib(pid);
    let stop = Arc::new(AtomicBool::new(false));
    let (moves, chats): (Samples, Samples) = Default::default();
    let mut threads = Vec::new();
    for seat in ["red", "blue"] {
        let (a, s, l) = (addr.clone(), stop.clone(), moves.clone());
        threads.push(std::thread::spawn(move || player(a, seat, s, l)));
    }
    for i in 0..clients - 2 {
        let (a, s, l) = (addr.clone(), stop.clone(), chats.clone());
        threads.push(std::thread::spawn(move || spectator(a, i, s, l)));
    }
    let t = Instant::now();
    let mut peak = 0;
    while t.elapsed() < Duration::from_secs(secs) {
        std::thread::sleep(Duration::from_secs(1));
        peak = peak.max(rss_kib(pid));
    }
    let end = rss_kib(pid);
    stop.store(true, Ordering::Relaxed);
    println!("net_load: {clients} clients, {secs} s");
    println!(
        "host RSS: idle {} MiB, peak {} MiB, at the end {} MiB",
        idle / 1024,
        peak / 1024,
        end / 1024
    );
    summary("action → next state", &moves);
    summary("chat → own line back", &chats);
    drop(host.stdin.take());
    let _ = host.kill();
    let _ = host.wait();
}
