#![allow(dead_code)]
//! A raw test client for the network tests, and running `join`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sandtable::front::net::HostMsg;

pub struct TestClient {
    pub w: TcpStream,
    pub r: BufReader<TcpStream>,
    /// Every line received.
    pub raw: Vec<String>,
}

impl TestClient {
    pub fn connect(addr: &str, hello: &str) -> TestClient {
        let s = TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let mut c = TestClient {
            w: s.try_clone().unwrap(),
            r: BufReader::new(s),
            raw: Vec::new(),
        };
        if !hello.is_empty() {
            c.send(hello);
        }
        c
    }
    /// Sends a line (a host that has closed the connection is not an
    /// error here: what it said is read next).
    pub fn send(&mut self, line: &str) {
        let _ = self.w.write_all(format!("{line}\n").as_bytes());
    }
    /// The next message, or `None` when the host closed the connection.
    pub fn try_next(&mut self) -> Option<HostMsg> {
        let mut l = String::new();
        match self.r.read_line(&mut l) {
            Ok(0) => return None,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return None,
            Err(e) => panic!("no message within 10 s: {e}"),
        }
        self.raw.push(l.clone());
        Some(serde_json::from_str(&l).unwrap_or_else(|e| panic!("{e}: {l}")))
    }
    /// The next message if one comes within `wait`.
    pub fn poll(&mut self, wait: Duration) -> Option<HostMsg> {
        self.r.get_ref().set_read_timeout(Some(wait)).unwrap();
        let mut l = String::new();
        let got = self.r.read_line(&mut l);
        self.r
            .get_ref()
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        match got {
            Ok(n) if n > 0 => {
                self.raw.push(l.clone());
                Some(serde_json::from_str(&l).unwrap_or_else(|e| panic!("{e}: {l}")))
            }
            _ => None,
        }
    }
    pub fn next(&mut self) -> HostMsg {
        self.try_next().expect("connection closed")
    }
    pub fn until(&mut self, f: impl Fn(&HostMsg) -> bool) -> HostMsg {
        loop {
            let m = self.next();
            if f(&m) {
                return m;
            }
        }
    }
    /// Reads until the host closes the connection.
    pub fn until_closed(&mut self) {
        while self.try_next().is_some() {}
    }
}

pub fn hello(name: &str, seat: &str) -> String {
    format!(r#"{{"type":"hello","version":2,"name":"{name}","seat":"{seat}"}}"#)
}

pub fn spectator(name: &str) -> String {
    format!(r#"{{"type":"hello","version":2,"name":"{name}","spectator":true}}"#)
}

pub fn action(text: &str) -> String {
    format!(r#"{{"type":"action","text":"{text}"}}"#)
}

/// `sandtable join` with piped standard input; everything it prints is
/// gathered in the returned buffer by a thread.
pub fn join(args: &[&str]) -> (Child, Arc<Mutex<Vec<u8>>>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sandtable"))
        .arg("join")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = Arc::new(Mutex::new(Vec::new()));
    for pipe in [
        Box::new(child.stdout.take().unwrap()) as Box<dyn Read + Send>,
        Box::new(child.stderr.take().unwrap()),
    ] {
        let o = out.clone();
        std::thread::spawn(move || {
            let mut pipe = pipe;
            let mut buf = [0u8; 4096];
            while let Ok(n) = pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                o.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
    }
    (child, out)
}

/// Waits (up to 20 s) until the output holds `text`.
pub fn wait_for(out: &Arc<Mutex<Vec<u8>>>, text: &str) {
    for _ in 0..2000 {
        if String::from_utf8_lossy(&out.lock().unwrap()).contains(text) {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!(
        "no `{text}` in:\n{}",
        String::from_utf8_lossy(&out.lock().unwrap())
    );
}
