//! Lock-outs (issue 57): a few addresses holding many connections must not
//! keep a returning player or a fresh page out, on the TCP host (`serve`),
//! on play by URL (`serve --web`) and on the session page (`web`). Every
//! client here is on loopback: Linux routes all of 127.0.0.0/8 there, so
//! 127.0.0.N is another client address.

mod net_common;
mod running;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use net_common::{spectator, TestClient};
use running::Running;
use sandtable::front::net::{HostMsg, HostOptions, Server};
use sandtable::front::session::Session;
use serde_json::{json, Value};

/// A TCP connection to `to` from the loopback address `from`.
fn connect_from(from: [u8; 4], to: SocketAddr) -> TcpStream {
    use socket2::{Domain, Socket, Type};
    let s = Socket::new(Domain::IPV4, Type::STREAM, None).unwrap();
    s.bind(&SocketAddr::from((from, 0)).into()).unwrap();
    s.connect(&to.into()).unwrap();
    let s: TcpStream = s.into();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s
}

fn with_token(token: &str) -> String {
    format!(r#"{{"type":"hello","version":2,"name":"back","token":"{token}"}}"#)
}

#[test]
fn a_returning_player_gets_in_while_400_spectators_from_one_address_hold_the_host() {
    let started = Instant::now();
    let session = Session::new("classic_stratego", &[], 3).unwrap();
    let server = Server::start_with(session, "127.0.0.1:0", HostOptions::default()).unwrap();
    let addr = server.addr.to_string();
    let mut red = TestClient::connect(&addr, &net_common::hello("red", "red"));
    let token = match red.until(|m| matches!(m, HostMsg::Welcome { .. })) {
        HostMsg::Welcome { token, .. } => token.unwrap(),
        _ => unreachable!(),
    };
    red.send(r#"{"type":"bye"}"#);
    red.until_closed();
    // 400 spectators (as many as the host has connections) from 127.0.0.1,
    // each answered before the next comes.
    let (mut welcomed, mut refused) = (0, 0);
    let mut held = Vec::new();
    for i in 0..400 {
        let mut c = TestClient::connect(&addr, &spectator(&format!("s{i}")));
        match c.try_next() {
            Some(HostMsg::Welcome { .. }) => welcomed += 1,
            Some(HostMsg::Error { message }) => {
                assert!(message.contains("spectators"), "{message}");
                refused += 1;
            }
            other => panic!("{other:?}"),
        }
        held.push(c);
    }
    assert_eq!(
        (welcomed, refused),
        (16, 384),
        "spectators from one address"
    );
    // Red comes back, from the same address.
    let mut back = TestClient::connect(&addr, &with_token(&token));
    match back.next() {
        HostMsg::Welcome { seat, .. } => assert_eq!(seat.as_deref(), Some("red")),
        other => panic!("red was not let back in: {other:?}"),
    }
    drop(held);
    assert!(started.elapsed() < Duration::from_secs(20));
}

/// The address of the `http://…/` that `r` printed on the line holding
/// `marker`.
fn web_addr(r: &mut Running, marker: &str) -> SocketAddr {
    let url = r.url(marker);
    url.trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .unwrap()
}

/// `serve classic_stratego --web` on loopback, with `extra` arguments,
/// and where browsers join it.
fn serve_web(extra: &[&str]) -> (Running, SocketAddr) {
    let mut r = running::serve_web(extra);
    let at = web_addr(&mut r, "browsers join at");
    (r, at)
}

type Ws = tungstenite::WebSocket<TcpStream>;

/// A WebSocket to `web` at `path` from `from`; `None` when refused.
fn socket_from(from: [u8; 4], web: SocketAddr, path: &str) -> Option<Ws> {
    let s = connect_from(from, web);
    tungstenite::client(format!("ws://{web}{path}"), s)
        .ok()
        .map(|(ws, _)| ws)
}

/// The whole answer to `GET path` from `from`.
fn get_from(from: [u8; 4], web: SocketAddr, path: &str) -> String {
    let mut s = connect_from(from, web);
    write!(s, "GET {path} HTTP/1.1\r\nHost: {web}\r\n\r\n").unwrap();
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    out
}

/// The next JSON message on a socket (`None`: it closed).
fn next_json(ws: &mut Ws) -> Option<Value> {
    loop {
        match ws.read() {
            Ok(tungstenite::Message::Text(t)) => return serde_json::from_str(t.as_str()).ok(),
            Ok(_) => {}
            Err(_) => return None,
        }
    }
}

fn next_of(ws: &mut Ws, kind: &str) -> Value {
    loop {
        let m = next_json(ws).unwrap_or_else(|| panic!("closed before a `{kind}`"));
        if m["type"] == kind {
            return m;
        }
    }
}

fn send(ws: &mut Ws, msg: Value) {
    ws.send(tungstenite::Message::text(msg.to_string()))
        .unwrap();
}

fn watch_hello(i: usize) -> Value {
    json!({ "type": "hello", "version": 2, "name": format!("w{i}"), "spectator": true })
}

#[test]
fn a_returning_player_and_a_fresh_page_get_in_while_256_idle_sockets_from_10_addresses_hold_play_by_url(
) {
    let started = Instant::now();
    // Spectators as many per address as the web server lets one address
    // hold, so that they fill it.
    let (_srv, web) = serve_web(&["--spectators-per-address", "32"]);
    let mut red = socket_from([127, 0, 0, 50], web, "/ws").unwrap();
    send(
        &mut red,
        json!({ "type": "hello", "version": 2, "name": "rosa", "seat": "red" }),
    );
    let token = next_of(&mut red, "welcome")["token"]
        .as_str()
        .unwrap()
        .to_string();
    drop(red);
    std::thread::sleep(Duration::from_millis(200));
    // 256 spectators' sockets from 127.0.0.10 to 127.0.0.19, each welcomed,
    // then silent (an address's opened one after another, the addresses
    // side by side).
    let mut held: Vec<Ws> = std::thread::scope(|scope| {
        let each: Vec<_> = (0..10usize)
            .map(|a| {
                scope.spawn(move || {
                    (a..256)
                        .step_by(10)
                        .map(|i| {
                            let from = [127, 0, 0, 10 + a as u8];
                            let mut ws =
                                socket_from(from, web, "/ws").expect("room for the idle sockets");
                            send(&mut ws, watch_hello(i));
                            next_of(&mut ws, "welcome");
                            ws
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        each.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    // A fresh page from another address: the page, then its socket, and
    // the seat back by its token.
    let page = get_from([127, 0, 0, 99], web, "/");
    assert!(
        page.starts_with("HTTP/1.1 200"),
        "{}",
        &page[..page.len().min(200)]
    );
    let mut back = socket_from([127, 0, 0, 99], web, "/ws").expect("the page's socket");
    send(
        &mut back,
        json!({ "type": "hello", "version": 2, "name": "rosa", "token": token }),
    );
    assert_eq!(next_of(&mut back, "welcome")["seat"], "red");
    // Those closed for it (one for the page, one for its socket; only one
    // when a slot came free meanwhile, as the red page's closing) were told
    // why.
    // (The close frames may still be on their way: passes over the held
    // sockets until both are read, for a few seconds at most.)
    let mut told = 0;
    let mut done = vec![false; held.len()];
    let until = Instant::now() + Duration::from_secs(3);
    while told < 2 && Instant::now() < until {
        for (i, ws) in held.iter_mut().enumerate() {
            if done[i] || told == 2 {
                continue;
            }
            ws.get_ref()
                .set_read_timeout(Some(Duration::from_millis(5)))
                .unwrap();
            loop {
                match ws.read() {
                    Ok(tungstenite::Message::Close(Some(f))) => {
                        assert!(f.reason.contains("closed for a newcomer"), "{f:?}");
                        told += 1;
                        done[i] = true;
                        break;
                    }
                    Ok(_) => {}
                    Err(tungstenite::Error::Io(e))
                        if matches!(
                            e.kind(),
                            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                        ) =>
                    {
                        break
                    }
                    Err(_) => {
                        done[i] = true;
                        break;
                    }
                }
            }
        }
    }
    assert!(
        (1..=2).contains(&told),
        "{told} sockets told they were closed for the newcomer"
    );
    drop(held);
    assert!(started.elapsed() < Duration::from_secs(25));
}

#[test]
fn a_relayed_browser_counts_as_its_own_address_not_the_relays() {
    // Spectators are capped at 16 per address: two browser addresses get
    // 16 each (counted as the relay's loopback address, 16 in all).
    let (_srv, web) = serve_web(&[]);
    let mut held = Vec::new();
    let mut welcomed = [0, 0];
    for i in 0..40 {
        let who = i % 2;
        let mut ws = socket_from([127, 0, 0, 20 + who as u8], web, "/ws").unwrap();
        send(&mut ws, watch_hello(i));
        match next_json(&mut ws) {
            Some(m) if m["type"] == "welcome" => welcomed[who] += 1,
            Some(m) => assert!(
                m["message"]
                    .as_str()
                    .is_some_and(|e| e.contains("from your address")),
                "{m}"
            ),
            None => panic!("closed without a word"),
        }
        held.push(ws);
    }
    assert_eq!(welcomed, [16, 16]);
}

#[test]
fn half_sent_heads_from_10_addresses_do_not_keep_the_session_page_out() {
    let started = Instant::now();
    let mut srv = Running::start(&["web", "classic_stratego", "--port", "0", "--seed", "3"]);
    let web = web_addr(&mut srv, "serving");
    // As many half-sent heads as the server holds connections, and more,
    // from ten addresses.
    let mut held = Vec::new();
    for i in 0..300 {
        let mut s = connect_from([127, 0, 0, 30 + (i % 10) as u8], web);
        let _ = s.write_all(b"GET / HTTP/1.1\r\nHo");
        held.push(s);
    }
    let page = get_from([127, 0, 0, 99], web, "/");
    assert!(
        page.starts_with("HTTP/1.1 200"),
        "{}",
        &page[..page.len().min(200)]
    );
    let at = page.find("name=\"sandtable-secret\" content=\"").unwrap() + 33;
    let secret = &page[at..at + page[at..].find('"').unwrap()];
    let mut ws = socket_from([127, 0, 0, 99], web, &format!("/ws?secret={secret}"))
        .expect("the page's socket");
    assert_eq!(next_of(&mut ws, "frame")["plies"], 0);
    drop(held);
    assert!(started.elapsed() < Duration::from_secs(15));
}
