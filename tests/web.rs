//! The board in a browser (issue 21): `sandtable web` and `serve --web`
//! run as the real binary, their HTTP and WebSocket answers to bad input,
//! and headless Chromium playing by clicks, answering a choice by its
//! button, seeing a reload's report, and three clients (two browsers and
//! `join`) sharing one game with no page holding what its player does not
//! know; the designer's workbench (issue 35: readable pieces, what the
//! state holds drawn, a phone, the rule editor) is in `workbench`.
//! Without Chromium the browser tests are skipped (see `browser`).

mod browser;
mod common;
mod running;
mod workbench;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::{Duration, Instant};

use browser::{screenshot_path, Browser, Page};
use running::{serve_web, Running};
use serde_json::{json, Value};

fn web(args: &[&str]) -> (Running, String) {
    let mut all = vec!["web", "--port", "0"];
    all.extend_from_slice(args);
    let mut r = Running::start(&all);
    let url = r.url("serving");
    (r, url)
}

fn host_of(url: &str) -> String {
    url.trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string()
}

/// Sends raw bytes as a request; the status of the answer.
fn raw_status(host: &str, request: &[u8]) -> u16 {
    let mut s = TcpStream::connect(host).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
    let _ = s.write_all(request);
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    out.split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

type Socket = tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<TcpStream>>;

/// The session's secret, read from its page as the browser does.
fn secret_of(host: &str) -> String {
    secret_in(&get_from(None, host, "/"))
}

/// The secret a session page carries.
fn secret_in(page: &str) -> String {
    let at = page
        .find("name=\"sandtable-secret\" content=\"")
        .expect("the page carries the secret");
    let rest = &page[at + "name=\"sandtable-secret\" content=\"".len()..];
    rest[..rest.find('"').unwrap()].to_string()
}

/// A WebSocket to `host` at `path` from the loopback address `from`.
fn socket_from(from: &str, host: &str, path: &str) -> tungstenite::WebSocket<TcpStream> {
    let stream = connect_from(Some(from), host);
    stream
        .set_read_timeout(Some(Duration::from_secs(15)))
        .unwrap();
    tungstenite::client(format!("ws://{host}{path}"), stream)
        .expect("the socket opens")
        .0
}

/// A GET from `from` (a loopback address of the client's; none: any), the
/// whole answer, head and body.
fn get_from(from: Option<&str>, host: &str, path: &str) -> String {
    let mut s = connect_from(from, host);
    s.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
    write!(s, "GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n").unwrap();
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    out
}

/// A TCP connection to `host` from the local address `from` (Linux routes
/// all of 127.0.0.0/8 to loopback, so 127.0.0.2 is a second client).
fn connect_from(from: Option<&str>, host: &str) -> TcpStream {
    let Some(from) = from else {
        return TcpStream::connect(host).unwrap();
    };
    use socket2::{Domain, Socket as Raw, Type};
    let to: std::net::SocketAddr = host.parse().unwrap();
    let s = Raw::new(Domain::IPV4, Type::STREAM, None).unwrap();
    let local: std::net::SocketAddr = format!("{from}:0").parse().unwrap();
    s.bind(&local.into()).unwrap();
    s.connect(&to.into()).unwrap();
    s.into()
}

/// A session console socket, with the page's secret.
fn socket(host: &str) -> Socket {
    let secret = secret_of(host);
    let (ws, _) = tungstenite::connect(format!("ws://{host}/ws?secret={secret}")).unwrap();
    if let tungstenite::stream::MaybeTlsStream::Plain(s) = ws.get_ref() {
        s.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
    }
    ws
}

/// The next JSON message of `kind` on a socket.
fn next_of<S: Read + Write>(ws: &mut tungstenite::WebSocket<S>, kind: &str) -> Value {
    loop {
        let m = ws.read().expect("a message");
        if let tungstenite::Message::Text(t) = m {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if v["type"] == kind {
                return v;
            }
        }
    }
}

#[test]
fn bad_requests_get_clear_errors_and_change_nothing() {
    let (_srv, url) = web(&["classic_stratego", "--seed", "3"]);
    let host = host_of(&url);
    assert_eq!(
        raw_status(
            &host,
            format!("GET / HTTP/1.1\r\nHost: {host}\r\n\r\n").as_bytes()
        ),
        200
    );
    assert_eq!(
        raw_status(&host, b"GET /assets/board.js HTTP/1.1\r\n\r\n"),
        200
    );
    assert_eq!(
        raw_status(&host, b"POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n"),
        405
    );
    assert_eq!(
        raw_status(&host, b"\x16\x03\x01 not http at all\r\n\r\n"),
        400
    );
    assert_eq!(
        raw_status(&host, b"GET /../../etc/passwd HTTP/1.1\r\n\r\n"),
        404
    );
    let huge = format!("GET / HTTP/1.1\r\nX-Big: {}\r\n\r\n", "a".repeat(20_000));
    assert_eq!(raw_status(&host, huge.as_bytes()), 431);
    let wrong = b"GET /other HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
    assert_eq!(raw_status(&host, wrong), 404);

    let mut ws = socket(&host);
    assert_eq!(next_of(&mut ws, "frame")["plies"], 0);
    let send = |ws: &mut Socket, text: &str| ws.send(tungstenite::Message::text(text)).unwrap();
    send(&mut ws, "not json");
    let e = next_of(&mut ws, "error");
    assert!(e["message"].as_str().unwrap().contains("malformed"), "{e}");
    send(&mut ws, r#"{"type":"act","text":"z9-z10"}"#);
    assert_eq!(next_of(&mut ws, "output")["ok"], false);
    send(&mut ws, r#"{"type":"command","line":"quit"}"#);
    let q = next_of(&mut ws, "output");
    assert!(q["text"].as_str().unwrap().contains("cannot stop"), "{q}");
    send(&mut ws, r#"{"type":"goto","ply":99}"#);
    send(
        &mut ws,
        // (The session page takes files from its editor: up to about
        // 400 KB a message.)
        &format!(r#"{{"type":"command","line":"{}"}}"#, "x".repeat(500_000)),
    );
    let e = next_of(&mut ws, "error");
    assert!(e["message"].as_str().unwrap().contains("too large"), "{e}");

    // Nothing changed, and the server still answers.
    let mut again = socket(&host);
    let f = next_of(&mut again, "frame");
    assert_eq!(
        (f["plies"].clone(), f["browsing"].clone()),
        (json!(0), json!(false))
    );

    // Connections are bounded: an address past its limit of silent ones
    // has its oldest closed, so its next request is still answered.
    let mut idle: Vec<TcpStream> = (0..70)
        .filter_map(|_| TcpStream::connect(&host).ok())
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(raw_status(&host, b"GET / HTTP/1.1\r\n\r\n"), 200);
    idle[0]
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    assert!(
        matches!(idle[0].read(&mut [0u8; 64]), Ok(0)),
        "the oldest silent connection was closed"
    );
    drop(idle);
    let end = Instant::now() + Duration::from_secs(10);
    while raw_status(&host, b"GET / HTTP/1.1\r\n\r\n") != 200 {
        assert!(
            Instant::now() < end,
            "the server did not recover after the idle connections left"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Sends a console line on a session socket; its output.
fn console(ws: &mut Socket, line: &str) -> Value {
    ws.send(tungstenite::Message::text(
        json!({ "type": "command", "line": line }).to_string(),
    ))
    .unwrap();
    next_of(ws, "output")
}

#[test]
fn a_kept_session_survives_a_killed_server_and_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let keep = dir.path().join("session.yaml");
    let keep_s = keep.to_str().unwrap();
    let (mut srv, url) = web(&["classic_stratego", "--seed", "3", "--save", keep_s]);
    srv.wait_for("keeping the session in", 10);
    let mut ws = socket(&host_of(&url));
    assert_eq!(console(&mut ws, "random 7")["ok"], true);
    while next_of(&mut ws, "frame")["plies"] != 7 {}
    let log = console(&mut ws, "history");
    // Killed without warning: nothing is written on the way down.
    srv.child.kill().unwrap();
    srv.child.wait().unwrap();
    drop(ws);

    // Starting over on the same file would lose it: refused.
    let o = Command::new(env!("CARGO_BIN_EXE_sandtable"))
        .args(["web", "classic_stratego", "--port", "0", "--save", keep_s])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--resume"));

    let (_again, url) = web(&["--resume", keep_s]);
    let mut ws = socket(&host_of(&url));
    assert_eq!(next_of(&mut ws, "frame")["plies"], 7);
    assert_eq!(console(&mut ws, "history")["text"], log["text"]);
    assert_eq!(console(&mut ws, "random 2")["ok"], true);
    let text = std::fs::read_to_string(&keep).unwrap();
    assert!(text.contains("actions:"), "{text}");
    // Only the record is left in the folder (the write goes through a
    // temporary file beside it, renamed over it).
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("session.yaml")]);
}

#[test]
fn web_save_to_a_place_that_cannot_be_written_stops_before_serving() {
    for bad in ["/dev/full", "/nonexistent-folder/s.yaml"] {
        let o = Command::new(env!("CARGO_BIN_EXE_sandtable"))
            .args(["web", "classic_stratego", "--port", "0", "--save", bad])
            .output()
            .unwrap();
        assert!(!o.status.success(), "{bad}");
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(!out.contains("serving"), "{bad}: {out}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("cannot write"),
            "{bad}"
        );
    }
}

/// A WebSocket handshake for `path` naming `host`, with `extra` headers.
fn ws_head(host: &str, extra: &str, path: &str) -> Vec<u8> {
    format!(
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n{extra}\r\n"
    )
    .into_bytes()
}

/// Sends a request and reads only the status line of the answer (a
/// WebSocket that opens is left open until the stream is dropped).
fn status_of(from: Option<&str>, host: &str, request: &[u8]) -> (u16, TcpStream) {
    let mut s = connect_from(from, host);
    s.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
    s.write_all(request).unwrap();
    let mut line = String::new();
    let _ = BufReader::new(&s).read_line(&mut line);
    let code = line
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (code, s)
}

#[test]
fn only_the_servers_own_origin_reaches_the_console() {
    let dir = tempfile::tempdir().unwrap();
    let (srv, url) = web(&[
        "classic_stratego",
        "--seed",
        "3",
        "--allow-origin",
        "table.lan",
    ]);
    let host = host_of(&url);
    let port = host.rsplit(':').next().unwrap().to_string();
    let secret = secret_of(&host);
    let with_secret = format!("/ws?secret={secret}");
    let status = |host_header: &str, extra: &str, path: &str| {
        status_of(None, &host, &ws_head(host_header, extra, path)).0
    };

    // DNS rebinding: a name that resolves to this machine gets neither the
    // page nor a socket, even with the secret.
    let rebound = format!("rebind.example:{port}");
    let mut s = connect_from(None, &host);
    write!(s, "GET / HTTP/1.1\r\nHost: {rebound}\r\n\r\n").unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    assert!(out.starts_with("HTTP/1.1 403"), "{out}");
    assert!(out.contains("only to its own address"), "{out}");
    assert!(!out.contains(&secret));
    assert_eq!(status(&rebound, "", &with_secret), 403);
    let rebound_origin = format!("Origin: http://{rebound}\r\n");
    assert_eq!(status(&rebound, &rebound_origin, &with_secret), 403);

    // Another site's page, a sandboxed frame or a file, another port.
    for origin in [
        "http://evil.example".to_string(),
        format!("http://evil.example:{port}"),
        "null".to_string(),
        "http://127.0.0.1:1".to_string(),
        format!("https://127.0.0.1.evil.example:{port}"),
    ] {
        let o = format!("Origin: {origin}\r\n");
        assert_eq!(status(&host, &o, &with_secret), 403, "{origin}");
    }

    // The page's own origin needs the page's secret.
    let own = format!("Origin: http://{host}\r\n");
    assert_eq!(status(&host, &own, "/ws"), 403);
    assert_eq!(status(&host, &own, "/ws?secret=00000000"), 403);
    assert_eq!(status(&host, &own, &with_secret), 101);
    let lh = format!("localhost:{port}");
    assert_eq!(
        status(&lh, &format!("Origin: http://{lh}\r\n"), &with_secret),
        101
    );
    // A name the user allowed.
    let named = format!("table.lan:{port}");
    assert_eq!(
        status(&named, &format!("Origin: http://{named}\r\n"), &with_secret),
        101
    );

    // What a refused page would have asked for was not done.
    let target = dir.path().join("stolen.yaml");
    let line = json!({ "type": "command", "line": format!("save-record {}", target.display()) });
    let mut evil = connect_from(None, &host);
    evil.write_all(&ws_head(
        &host,
        "Origin: http://evil.example\r\n",
        &with_secret,
    ))
    .unwrap();
    let mut frame = vec![0x81u8];
    let body = line.to_string().into_bytes();
    frame.push(0x80 | 126);
    frame.extend_from_slice(&(body.len() as u16).to_be_bytes());
    frame.extend_from_slice(&[0, 0, 0, 0]);
    frame.extend_from_slice(&body);
    let _ = evil.write_all(&frame);
    std::thread::sleep(Duration::from_millis(300));
    assert!(!target.exists(), "a foreign page's command was run");
    let mut ws = socket(&host);
    assert_eq!(next_of(&mut ws, "frame")["plies"], 0);
    drop(srv);
}

/// Holds `n` WebSockets and `n` half-sent request heads open from
/// 127.0.0.1 against `host` (a WebSocket path with `path`).
fn flood(host: &str, path: &str, n: usize) -> Vec<TcpStream> {
    let mut held = Vec::new();
    for _ in 0..n {
        let (_, s) = status_of(Some("127.0.0.1"), host, &ws_head(host, "", path));
        held.push(s);
        let mut half = connect_from(Some("127.0.0.1"), host);
        let _ = half.write_all(b"GET / HTTP/1.1\r\nHo");
        held.push(half);
    }
    held
}

#[test]
fn one_address_holding_sockets_and_heads_does_not_lock_another_out() {
    // The session page: a second address loads the page and plays.
    let (_srv, url) = web(&["classic_stratego", "--seed", "3"]);
    let host = host_of(&url);
    let held = flood(&host, &format!("/ws?secret={}", secret_of(&host)), 64);
    let page = get_from(Some("127.0.0.2"), &host, "/");
    assert!(
        page.starts_with("HTTP/1.1 200"),
        "{}",
        &page[..page.len().min(200)]
    );
    let secret = secret_in(&page);
    let mut ws = socket_from("127.0.0.2", &host, &format!("/ws?secret={secret}"));
    assert_eq!(next_of(&mut ws, "frame")["plies"], 0);
    ws.send(tungstenite::Message::text(
        json!({ "type": "command", "line": "random 2" }).to_string(),
    ))
    .unwrap();
    assert_eq!(next_of(&mut ws, "output")["ok"], true);
    assert_eq!(next_of(&mut ws, "frame")["plies"], 2);
    drop(held);

    // Play by URL: a second address loads the page and joins.
    let mut srv = serve_web(&[]);
    let host = host_of(&srv.url("browsers join at"));
    let held = flood(&host, "/ws", 64);
    let page = get_from(Some("127.0.0.2"), &host, "/");
    assert!(
        page.starts_with("HTTP/1.1 200"),
        "{}",
        &page[..page.len().min(200)]
    );
    let mut ws = socket_from("127.0.0.2", &host, "/ws");
    ws.send(tungstenite::Message::text(
        json!({ "type": "hello", "version": 2, "name": "zed" }).to_string(),
    ))
    .unwrap();
    let welcome = next_of(&mut ws, "welcome");
    assert!(welcome["token"].is_string(), "{welcome}");
    drop(held);
}

/// A page of another site: a second server on another port.
fn foreign_site(body: &'static str) -> String {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let at = l.local_addr().unwrap();
    std::thread::spawn(move || {
        for s in l.incoming() {
            let Ok(mut s) = s else { continue };
            let mut head = [0u8; 4096];
            let _ = s.read(&mut head);
            let _ = write!(
                s,
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    format!("http://{at}/")
}

#[test]
fn a_page_of_another_site_cannot_open_the_console() {
    let Some(mut b) = Browser::launch("a_page_of_another_site_cannot_open_the_console") else {
        return;
    };
    let (_srv, url) = web(&["classic_stratego", "--seed", "3"]);
    let host = host_of(&url);
    let port = host.rsplit(':').next().unwrap().to_string();
    let secret = secret_of(&host);
    let try_socket = |to: &str| {
        format!(
            "new Promise((done) => {{ const s = new WebSocket('ws://' + {to} + '/ws?secret={secret}'); s.onmessage = () => done('open'); s.onerror = () => done('refused'); setTimeout(() => done('timeout'), 8000); }})"
        )
    };

    // Another site's page (even one that knew the secret) is refused.
    let evil = b.open(
        &foreign_site("<title>elsewhere</title><p>another site</p>"),
        "",
    );
    b.wait(&evil, "document.title === 'elsewhere'", 10);
    assert_eq!(
        b.eval(&evil, &try_socket(&format!("'{host}'"))),
        json!("refused")
    );

    // A rebinding name that resolves to this machine (Chromium sends every
    // *.localhost to loopback) gets no page.
    let rebound = b.open(&format!("http://rebind.localhost:{port}/"), "");
    b.wait(
        &rebound,
        "document.body && document.body.innerText.includes('only to its own address')",
        10,
    );
    assert!(!b.html(&rebound).contains(&secret));

    // The page's own origin works, by its address and by localhost.
    for own in [url.clone(), format!("http://localhost:{port}/")] {
        let page = b.open(&own, "");
        b.wait(&page, "document.querySelector('#board g[data-cell]') && document.querySelector('#connection').hidden", 20);
        // (The page's own policy lets it reach only its own origin.)
        assert_eq!(
            b.eval(&page, &try_socket("location.host")),
            json!("open"),
            "{own}"
        );
    }
}

/// Clicks the pieces on `rank` until one lights up targets; returns its
/// cell and its first target.
fn select_by_click(b: &mut Browser, page: &Page, rank: u8) -> (String, String) {
    for file in "abcdefghij".chars() {
        let from = format!("{file}{rank}");
        if b.eval(
            page,
            &format!("!!document.querySelector('#board g[data-cell={from}]')"),
        ) != json!(true)
        {
            continue;
        }
        b.click(page, &format!("#board g[data-cell={from}]"));
        let to = b.eval(page, "(document.querySelector('#board rect.target') || {getAttribute: () => null}).getAttribute('data-cell')");
        if let Some(to) = to.as_str() {
            return (from, to.to_string());
        }
    }
    panic!("no piece on rank {rank} can move");
}

/// Plays a move from `rank` by clicks: the piece, then its first target.
fn move_by_clicks(b: &mut Browser, page: &Page, rank: u8) -> (String, String) {
    let (from, to) = select_by_click(b, page, rank);
    b.click(page, &format!("#board rect[data-cell={to}]"));
    (from, to)
}

#[test]
fn a_game_is_played_by_clicks_in_the_session_page() {
    let Some(mut b) = Browser::launch("a_game_is_played_by_clicks_in_the_session_page") else {
        return;
    };
    let t0 = Instant::now();
    let (_srv, url) = web(&["classic_stratego", "--seed", "3"]);
    let page = b.open(&url, "");
    b.wait(
        &page,
        "document.querySelector('#board svg [data-cell=a4]')",
        20,
    );
    let (from, to) = move_by_clicks(&mut b, &page, 4);
    b.wait(&page, &format!("document.querySelector('#board g[data-cell={to}]') && !document.querySelector('#board g[data-cell={from}]')"), 10);
    b.wait(
        &page,
        "document.querySelector('#plies').textContent === '1 / 1'",
        10,
    );
    let log = b.eval(&page, "document.querySelector('#log').textContent");
    assert!(
        log.as_str().unwrap().contains(&format!("{from}-{to}")),
        "{log}"
    );
    // The last move is outlined (the renderer's orange frame).
    assert!(b.html(&page).contains("#f39c12"));

    // History: back shows the start, forward the present; undo takes back.
    b.click(&page, "#back");
    b.wait(&page, &format!("document.querySelector('#board g[data-cell={from}]') && document.querySelector('#plies').textContent === '0 / 1'"), 10);
    b.click(&page, "#present");
    b.wait(
        &page,
        "document.querySelector('#plies').textContent === '1 / 1'",
        10,
    );
    b.click(&page, "#undo");
    b.wait(
        &page,
        "document.querySelector('#plies').textContent === '0 / 0'",
        10,
    );

    // A few moves by clicks for each side (the omniscient viewer may play
    // for whoever must act).
    for (ply, rank) in [(1, 4), (2, 7), (3, 4), (4, 7)] {
        let (from, to) = move_by_clicks(&mut b, &page, rank);
        b.wait(
            &page,
            &format!("document.querySelector('#plies').textContent === '{ply} / {ply}' && document.querySelector('#board g[data-cell={to}]') && !document.querySelector('#board g[data-cell={from}]')"),
            10,
        );
    }
    b.type_line(&page, "#console-input", "undo 4");
    b.wait(
        &page,
        "document.querySelector('#plies').textContent === '0 / 0'",
        10,
    );

    // The console runs any REPL command, Lua included.
    b.type_line(&page, "#console-input", "= 6*7");
    b.wait(
        &page,
        "document.querySelector('#console-output').textContent.includes('42')",
        10,
    );
    b.type_line(&page, "#console-input", "random 12");
    b.wait(
        &page,
        "document.querySelector('#plies').textContent === '12 / 12'",
        10,
    );

    // Seen as blue, the page holds no kind of a red piece blue has not seen.
    b.type_line(&page, "#console-input", "as blue");
    b.wait(
        &page,
        "document.querySelector('#viewer').value === 'blue'",
        10,
    );
    let html = b.html(&page).to_lowercase();
    let hidden = html.matches("red piece (unknown)").count();
    assert!(
        hidden > 30,
        "red's army is hidden from blue ({hidden} backs)"
    );
    b.type_line(&page, "#console-input", "as red");
    b.wait(
        &page,
        "document.querySelector('#viewer').value === 'red'",
        10,
    );
    select_by_click(&mut b, &page, 4);
    assert_eq!(
        b.eval(
            &page,
            "document.querySelectorAll('#board .selected').length"
        ),
        2,
        "the selected piece and its cell are marked"
    );
    if let Some(path) = screenshot_path("web_session.png") {
        b.screenshot(&page, &path);
    }
    eprintln!(
        "a_game_is_played_by_clicks_in_the_session_page: {:.1} s",
        t0.elapsed().as_secs_f64()
    );
}

#[test]
fn a_promotion_is_chosen_by_its_button() {
    let Some(mut b) = Browser::launch("a_promotion_is_chosen_by_its_button") else {
        return;
    };
    let t0 = Instant::now();
    let (_srv, url) = web(&["chess", "--seed", "1"]);
    let page = b.open(&url, "");
    b.wait(
        &page,
        "document.querySelector('#board svg [data-cell=a7]')",
        20,
    );
    b.type_line(
        &page,
        "#console-input",
        "position 7k/P7/8/8/8/8/8/K7 w - - 0 1",
    );
    b.wait(&page, "document.querySelector('#board g[data-cell=a7]') && !document.querySelector('#board g[data-cell=e2]')", 10);
    b.click(&page, "#board g[data-cell=a7]");
    b.click(&page, "#board rect[data-cell=a8]");
    let q = b.wait(&page, "!document.querySelector('#question').hidden && document.querySelector('#question').textContent", 10);
    assert!(q.as_str().unwrap().contains("choose"), "{q}");
    let labels = b.wait(&page, "Array.from(document.querySelectorAll('#buttons button')).map(b => b.textContent).join(',')", 10);
    assert_eq!(labels, "queen,rook,bishop,knight");
    b.click(&page, "#buttons button:nth-child(4)");
    let title = b.wait(&page, "document.querySelector('#question').hidden && document.querySelector('#board g[data-cell=a8] title').textContent", 10);
    assert!(title.as_str().unwrap().contains("knight"), "{title}");
    eprintln!(
        "a_promotion_is_chosen_by_its_button: {:.1} s",
        t0.elapsed().as_secs_f64()
    );
}

/// The cells of the board's elements matching `selector`, sorted, joined
/// by commas.
fn cells_marked(b: &mut Browser, page: &Page, selector: &str) -> String {
    let js = format!(
        "Array.from(document.querySelectorAll({})).map(e => e.getAttribute('data-cell')).sort().join(',')",
        json!(selector)
    );
    b.eval(page, &js).as_str().unwrap_or_default().to_string()
}

#[test]
fn placements_and_jump_sequences_are_played_by_clicks() {
    let Some(mut b) = Browser::launch("placements_and_jump_sequences_are_played_by_clicks") else {
        return;
    };
    let t0 = Instant::now();
    let (_srv, url) = web(&["othello", "--seed", "1"]);
    let page = b.open(&url, "");
    b.wait(
        &page,
        "document.querySelector('#board svg [data-cell=d3]') && document.querySelector('#board rect.place')",
        20,
    );
    // The legal placements are lit cells, not buttons.
    assert_eq!(
        cells_marked(&mut b, &page, "#board rect.place"),
        "c4,d3,e6,f5"
    );
    assert_eq!(
        b.eval(&page, "document.querySelectorAll('#buttons button').length"),
        0
    );
    // An empty cell that is no legal placement does nothing.
    b.click(&page, "#board rect[data-cell=a1]");
    b.click(&page, "#board rect[data-cell=d3]");
    b.wait(
        &page,
        "document.querySelector('#plies').textContent === '1 / 1' && document.querySelector('#board g[data-cell=d3]')",
        10,
    );
    let d4 = b.eval(
        &page,
        "document.querySelector('#board g[data-cell=d4] title').textContent",
    );
    assert_eq!(d4, json!("black disc"), "d4 is flipped");
    let log = b.eval(&page, "document.querySelector('#log').textContent");
    assert!(
        log.as_str().unwrap().contains("flip: Disc on d4 to black"),
        "{log}"
    );
    assert!(!log.as_str().unwrap().contains("a1"), "{log}");
    assert_eq!(cells_marked(&mut b, &page, "#board rect.place"), "c3,c5,e3");

    // Draughts: a white man on d6 has two sequences to d2, by b4 or by f4;
    // d2 alone is ambiguous, so the landings are clicked in turn.
    b.type_line(&page, "#console-input", "load english_draughts");
    b.wait(
        &page,
        "document.querySelectorAll('#board g[data-cell]').length === 24",
        10,
    );
    b.type_line(
        &page,
        "#console-input",
        "position 8/8/3m4/2M1M3/8/2M1M3/8/8 white",
    );
    b.wait(
        &page,
        "document.querySelectorAll('#board g[data-cell]').length === 5",
        10,
    );
    assert_eq!(cells_marked(&mut b, &page, "#board rect.place"), "");
    b.click(&page, "#board g[data-cell=d6]");
    assert_eq!(cells_marked(&mut b, &page, "#board rect.target"), "b4,f4");
    b.click(&page, "#board rect[data-cell=b4]");
    assert_eq!(cells_marked(&mut b, &page, "#board rect.target"), "d2");
    assert_eq!(cells_marked(&mut b, &page, "#board rect.via"), "b4");
    b.click(&page, "#board rect[data-cell=d2]");
    b.wait(
        &page,
        "document.querySelector('#plies').textContent === '1 / 1' && document.querySelector('#board g[data-cell=d2]')",
        10,
    );
    assert_eq!(
        cells_marked(&mut b, &page, "#board g[data-cell]"),
        "d2,e3,e5",
        "c5 and c3 are taken"
    );
    let log = b.eval(&page, "document.querySelector('#log').textContent");
    assert!(log.as_str().unwrap().contains("d6xb4xd2"), "{log}");

    // Only one sequence ends on f8: the man, then f8, plays b4xd6xf8.
    b.type_line(
        &page,
        "#console-input",
        "position 8/4m1m1/8/2m5/1M6/8/8/8 black",
    );
    b.wait(
        &page,
        "document.querySelectorAll('#board g[data-cell]').length === 4",
        10,
    );
    b.click(&page, "#board g[data-cell=b4]");
    assert_eq!(cells_marked(&mut b, &page, "#board rect.target"), "d6,f8");
    b.click(&page, "#board rect[data-cell=f8]");
    let f8 = b.wait(
        &page,
        "document.querySelector('#plies').textContent === '1 / 1' && document.querySelector('#board g[data-cell=f8] title').textContent",
        10,
    );
    assert_eq!(f8, json!("black king"), "crowned");
    let log = b.eval(&page, "document.querySelector('#log').textContent");
    assert!(log.as_str().unwrap().contains("b4xd6xf8"), "{log}");
    eprintln!(
        "placements_and_jump_sequences_are_played_by_clicks: {:.1} s",
        t0.elapsed().as_secs_f64()
    );
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.path().is_file() {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// A web host on a copy of the bundled variants and scripts (so a test may
/// edit them), classic Stratego loaded, and the reload transcripts'
/// position written beside them.
pub(crate) struct ReloadFixture {
    pub tmp: tempfile::TempDir,
    pub yaml: std::path::PathBuf,
    pub pos_file: std::path::PathBuf,
    pub url: String,
    _srv: Running,
}

impl ReloadFixture {
    pub fn new() -> ReloadFixture {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let tmp = tempfile::tempdir().unwrap();
        copy_dir(&root.join("variants"), &tmp.path().join("variants"));
        copy_dir(&root.join("scripts"), &tmp.path().join("scripts"));
        let yaml = tmp.path().join("variants/classic_stratego.yaml");
        let pos = std::fs::read_to_string(root.join("tests/transcripts/reload_pos.yaml"))
            .unwrap()
            .replace("TMPDIR", &tmp.path().display().to_string());
        let pos_file = tmp.path().join("pos.yaml");
        std::fs::write(&pos_file, pos).unwrap();
        let (srv, url) = web(&[yaml.to_str().unwrap(), "--seed", "1"]);
        ReloadFixture {
            tmp,
            yaml,
            pos_file,
            url,
            _srv: srv,
        }
    }
}

#[test]
fn a_script_edit_shows_the_reload_report_in_the_page() {
    let Some(mut b) = Browser::launch("a_script_edit_shows_the_reload_report_in_the_page") else {
        return;
    };
    let t0 = Instant::now();
    let f = ReloadFixture::new();
    let (tmp, pos_file) = (&f.tmp, &f.pos_file);
    let page = b.open(&f.url, "");
    b.wait(
        &page,
        "document.querySelector('#board svg [data-cell=a4]')",
        20,
    );
    b.type_line(
        &page,
        "#console-input",
        &format!("load-position {}", pos_file.display()),
    );
    b.wait(&page, "document.querySelector('#board g[data-cell=e7]') && !document.querySelector('#board g[data-cell=b1]')", 10);
    b.type_line(
        &page,
        "#console-input",
        "play a4-a5 e7-e6 a5-a6 e6-e5 e4-e5",
    );
    b.wait(
        &page,
        "document.querySelector('#plies').textContent === '5 / 5'",
        10,
    );
    b.type_line(&page, "#console-input", "watch");
    b.wait(&page, "!document.querySelector('#watching').hidden", 10);
    std::thread::sleep(Duration::from_millis(400));
    let script = tmp.path().join("scripts/classic_stratego.lua");
    let text = std::fs::read_to_string(&script).unwrap();
    assert!(text.contains("return \"both\""));
    std::fs::write(
        &script,
        text.replace("return \"both\"", "return \"attacker\""),
    )
    .unwrap();
    let report = b.wait(&page, "!document.querySelector('#report-box').hidden && document.querySelector('#report').textContent", 20);
    let report = report.as_str().unwrap();
    assert!(
        report.contains("action 5 (e4-e5) now plays differently"),
        "{report}"
    );
    assert!(
        report.contains("before:") && report.contains("now:"),
        "{report}"
    );
    // Under the new rule the striking captain stands on e5.
    b.wait(
        &page,
        "document.querySelector('#board g[data-cell=e5]')",
        10,
    );
    if let Some(path) = screenshot_path("web_reload.png") {
        b.screenshot(&page, &path);
    }
    eprintln!(
        "a_script_edit_shows_the_reload_report_in_the_page: {:.1} s",
        t0.elapsed().as_secs_f64()
    );
}

/// Run in each play page before its own scripts: keeps every WebSocket
/// message the page receives, to check the frames as well as the DOM.
const RECORD_FRAMES: &str = r#"(() => {
  const Real = window.WebSocket;
  window.__frames = [];
  function Recorded(url, protocols) {
    const s = protocols === undefined ? new Real(url) : new Real(url, protocols);
    s.addEventListener("message", (e) => window.__frames.push(String(e.data)));
    return s;
  }
  Recorded.prototype = Real.prototype;
  for (const k of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) Recorded[k] = Real[k];
  window.WebSocket = Recorded;
})();"#;

/// Joins the game from a fresh page as `name` in `seat`.
fn join_page(b: &mut Browser, url: &str, name: &str, seat: &str) -> Page {
    let page = b.open(url, RECORD_FRAMES);
    b.wait(&page, &format!("!document.querySelector('#join').hidden && Array.from(document.querySelectorAll('#seat-choice option')).some(o => o.value === '{seat}')"), 20);
    b.eval(&page, &format!("document.querySelector('#name').value = '{name}'; document.querySelector('#seat-choice').value = '{seat}'"));
    b.click(&page, "#join-button");
    b.wait(&page, &format!("document.querySelector('#seat').textContent === 'you play {seat}' && document.querySelector('#board svg')"), 20);
    page
}

/// Checks that a page's DOM and every frame it received hold no kind of
/// `other`'s pieces (none has been revealed in these games).
fn assert_knows_nothing_of(b: &mut Browser, page: &Page, me: &str, other: &str, kinds: &[String]) {
    let html = b.html(page).to_lowercase();
    for k in kinds {
        let leak = format!("{other} {}", k.to_lowercase());
        assert!(!html.contains(&leak), "{me}'s page shows `{leak}`");
    }
    assert!(
        html.contains(&format!("{other} piece (unknown)")),
        "{me} sees {other}'s backs"
    );
    let frames = b.eval(page, "window.__frames");
    let frames = frames.as_array().expect("recorded frames");
    let mut states = 0;
    for f in frames {
        let msg: Value = serde_json::from_str(f.as_str().unwrap()).unwrap();
        if msg["type"] != "state" {
            continue;
        }
        states += 1;
        for cell in msg["view"]["cells"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| !c.is_null())
        {
            if cell["owner"] == other {
                assert!(
                    cell["kind"].is_null(),
                    "{me} was sent the kind of {other}'s piece: {cell}"
                );
            }
        }
        let svg = msg["svg"]
            .as_str()
            .expect("state frames carry the SVG")
            .to_lowercase();
        for k in kinds {
            assert!(
                !svg.contains(&format!("{other} {}", k.to_lowercase())),
                "{me}'s SVG frame names {other} {k}"
            );
        }
    }
    assert!(states >= 2, "{me} got {states} state frames");
}

/// The `setup_request` a page received (from its recorded frames).
fn setup_request(b: &mut Browser, page: &Page) -> Value {
    let js = "(window.__frames || []).map(f => JSON.parse(f)).find(m => m.type === 'setup_request') || null";
    b.wait(page, js, 20)
}

/// The army's letters in placement order: what moves first (the front
/// row), bombs and flags last.
fn army_order(req: &Value) -> Vec<(char, usize)> {
    let mut army: Vec<(char, usize, bool)> = req["army"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| {
            let name = k["name"].as_str().unwrap();
            let code = k["code"].as_str().unwrap().chars().next().unwrap();
            let still = name == "Bomb" || name == "Flag";
            (code, k["count"].as_u64().unwrap() as usize, still)
        })
        .collect();
    army.sort_by_key(|k| k.2);
    army.into_iter().map(|(c, n, _)| (c, n)).collect()
}

/// Places the whole army by clicks, kind by kind from the palette, then
/// swaps the first and the last cell by two clicks and submits (`done`).
fn place_by_clicks(b: &mut Browser, page: &Page) {
    let req = setup_request(b, page);
    let cells: Vec<String> = serde_json::from_value(req["cells"].clone()).unwrap();
    let mut next = cells.iter();
    let mut shot = false;
    for (code, n) in army_order(&req) {
        b.click(page, &format!("#palette button[data-code='{code}']"));
        for _ in 0..n {
            let cell = next.next().expect("a cell for every piece");
            b.click(page, &format!("#board rect[data-cell={cell}]"));
        }
        if next.len() < cells.len() / 2 && !shot {
            shot = true;
            if let Some(path) = screenshot_path("web_setup_red.png") {
                b.screenshot(page, &path);
            }
        }
    }
    let title = |b: &mut Browser, c: &str| {
        b.eval(
            page,
            &format!("document.querySelector('#board g[data-cell={c}] title').textContent"),
        )
    };
    let (first, last) = (&cells[0], &cells[cells.len() - 1]);
    let (was_first, was_last) = (title(b, first), title(b, last));
    assert_ne!(
        was_first, was_last,
        "the first and last cells hold different kinds"
    );
    b.click(page, &format!("#board rect[data-cell={first}]"));
    b.click(page, &format!("#board rect[data-cell={last}]"));
    assert_eq!(
        (title(b, first), title(b, last)),
        (was_last, was_first),
        "swapped by two clicks"
    );
    b.wait(page, "!document.querySelector('#setup-done').disabled", 5);
    b.click(page, "#setup-done");
}

/// Submits a setup string typed into the page (no clicks on the board).
fn paste_setup(b: &mut Browser, page: &Page) {
    let req = setup_request(b, page);
    b.type_line(page, "#setup-text", "LL");
    b.wait(
        page,
        "document.querySelector('#setup-sent').textContent.startsWith('refused: ')",
        10,
    );
    b.eval(page, "document.querySelector('#setup-text').value = ''");
    let text: String = army_order(&req)
        .into_iter()
        .flat_map(|(c, n)| std::iter::repeat_n(c, n))
        .collect();
    b.type_line(page, "#setup-text", &text);
}

#[test]
fn two_browsers_and_a_join_client_share_one_game_and_see_only_their_own() {
    let Some(mut b) =
        Browser::launch("two_browsers_and_a_join_client_share_one_game_and_see_only_their_own")
    else {
        return;
    };
    let t0 = Instant::now();
    let tmp = tempfile::tempdir().unwrap();
    let save = tmp.path().join("game.yaml");
    let mut host = serve_web(&["--save", save.to_str().unwrap()]);
    let url = host.url("browsers join at");
    let hosting = host.wait_for("hosting on", 10);
    let tcp = hosting.split_whitespace().nth(2).unwrap().to_string();

    let red = join_page(&mut b, &url, "alice", "red");
    let blue = join_page(&mut b, &url, "bob", "blue");
    let mut carol = Running::start(&["join", &tcp, "--name", "carol", "--spectate"]);
    carol.wait_for("spectat", 20);

    // Each browser arranges its own army: red by clicks (and a swap), blue
    // by a pasted string; play begins when both are in.
    place_by_clicks(&mut b, &red);
    b.wait(
        &blue,
        "document.querySelector('#setup-status').textContent.includes('waiting for blue')",
        10,
    );
    paste_setup(&mut b, &blue);
    for p in [&red, &blue] {
        b.wait(p, "document.querySelector('#setup').hidden && document.querySelector('#board g[data-cell]') && document.querySelector('#status').textContent.includes('ply 0')", 20);
    }

    // Red moves by clicks; blue's page and the join client see it.
    let (from, to) = move_by_clicks(&mut b, &red, 4);
    b.wait(&blue, &format!("document.querySelector('#board g[data-cell={to}]') && !document.querySelector('#board g[data-cell={from}]')"), 10);
    carol.wait_for(&format!("{from}-{to}"), 10);
    b.wait(
        &blue,
        "document.querySelector('#status').textContent.includes('your turn')",
        10,
    );
    let (bfrom, bto) = move_by_clicks(&mut b, &blue, 7);
    b.wait(&red, &format!("document.querySelector('#board g[data-cell={bto}]') && !document.querySelector('#board g[data-cell={bfrom}]')"), 10);
    carol.wait_for(&format!("{bfrom}-{bto}"), 10);

    // Chat goes everywhere: from the terminal to the browsers and back.
    carol.say("say hello from the terminal");
    for p in [&red, &blue] {
        b.wait(p, "document.querySelector('#chat').textContent.includes('carol: hello from the terminal')", 10);
    }
    b.type_line(&blue, "#chat-input", "<b>bold</b> hi");
    carol.wait_for("<b>bold</b> hi", 10);
    b.wait(&red, "document.querySelector('#chat').textContent.includes('bob: <b>bold</b> hi') && !document.querySelector('#chat b')", 10);

    // An illegal action from a page is refused with the host's reason.
    b.eval(&red, "document.querySelector('#chat-input').value = ''");

    // Neither page holds a kind of the other's army, in the DOM or in the
    // frames it received; nor does the spectator's terminal.
    let kinds: Vec<String> = common::engine("classic_stratego", &[])
        .variant
        .kinds
        .iter()
        .map(|k| k.name.clone())
        .collect();
    assert_knows_nothing_of(&mut b, &red, "red", "blue", &kinds);
    assert_knows_nothing_of(&mut b, &blue, "blue", "red", &kinds);
    let spectator = carol.seen.join("\n").to_lowercase();
    for k in &kinds {
        for side in ["red", "blue"] {
            assert!(
                !spectator.contains(&format!("{side} {}", k.to_lowercase())),
                "the spectator saw {side} {k}"
            );
        }
    }
    if let Some(path) = screenshot_path("web_play_red.png") {
        b.screenshot(&red, &path);
    }

    // A reload of the page takes the seat back (the token is in the page's
    // storage) and shows the game as it stands.
    b.reload(&red);
    b.wait(&red, &format!("document.querySelector('#seat').textContent === 'you play red' && document.querySelector('#board g[data-cell={to}]') && document.querySelector('#status').textContent.includes('ply 2')"), 20);
    // The log is filled again by the host's catch-up.
    b.wait(&red, &format!("document.querySelector('#log').textContent.includes('{from}-{to}') && document.querySelector('#log').textContent.includes('{bfrom}-{bto}')"), 10);
    b.wait(
        &red,
        "document.querySelector('#status').textContent.includes('your turn')",
        10,
    );
    b.wait(
        &blue,
        "document.querySelector('#chat').textContent.includes('alice (red) is here')",
        10,
    );

    // Red's token in another browser takes the seat: the first tab is told
    // it was replaced and does not fight back; the new one catches up.
    let stored = b.eval(&red, "JSON.stringify(Object.entries(localStorage))");
    let copy = format!(
        "for (const [k, v] of JSON.parse({})) localStorage.setItem(k, v);",
        serde_json::to_string(stored.as_str().unwrap()).unwrap()
    );
    let other = b.open(&url, &copy);
    b.wait(&other, &format!("document.querySelector('#seat').textContent === 'you play red' && document.querySelector('#log').textContent.includes('{bfrom}-{bto}')"), 20);
    b.wait(&red, "!document.querySelector('#replaced').hidden && document.querySelector('#chat').textContent.includes('this tab was replaced')", 10);
    std::thread::sleep(Duration::from_millis(1800));
    b.wait(&other, "document.querySelector('#status').textContent.includes('your turn') && document.querySelector('#connection').hidden && document.querySelector('#replaced').hidden", 5);
    host.say("quit");
    eprintln!(
        "two_browsers_and_a_join_client_share_one_game_and_see_only_their_own: {:.1} s",
        t0.elapsed().as_secs_f64()
    );
}
