//! Network play as people rely on it: each player sets up their own army
//! (a Gravon line, or piece by piece in `join`) and nobody sees the other's;
//! every event reaches its client once and in order even when a bot answers
//! at once; clocks that wait for the players and end the game for all;
//! seats taken back by token; text from the wire that cannot drive a
//! terminal; a host that bounds hellos and connections.

mod net_common;

use sandtable::record::view::Views;
use std::io::Write;
use std::time::{Duration, Instant};

use net_common::{action, hello, join, spectator, wait_for, TestClient};
use sandtable::front::net::{HostMsg, HostOptions, Limits, Server};
use sandtable::front::session::Session;
use sandtable::play::agent::AgentSpec;

fn gravon_lines() -> Vec<String> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/gravon-classic-sample.txt"
    ))
    .unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

fn start(session: Session, opts: HostOptions) -> (Server, String) {
    let server = Server::start_with(session, "127.0.0.1:0", opts).unwrap();
    let addr = server.addr.to_string();
    (server, addr)
}

/// The kind letter on each of a player's setup cells, from the host.
fn army_letters(server: &Server, player: u8) -> String {
    server.with_session(|s| {
        let prompt = s.setup_prompt(player);
        prompt
            .cells
            .iter()
            .map(|c| {
                let cell = s.engine.variant.board.parse_cell(c).unwrap();
                s.state.piece_at(cell).map_or('.', |id| {
                    let p = &s.state.pieces[id as usize];
                    assert_eq!(p.owner, player);
                    s.engine.variant.kinds[p.kind as usize].code.unwrap()
                })
            })
            .collect()
    })
}

#[test]
fn two_humans_set_up_their_own_armies_and_neither_sees_the_other() {
    let session = Session::new("classic_stratego", &[], 77).unwrap();
    let opts = HostOptions {
        setup_phase: true,
        ..HostOptions::default()
    };
    let (server, addr) = start(session, opts);
    let lines = gravon_lines();
    let mut watcher = TestClient::connect(&addr, &spectator("eve"));
    // Red: a line of a Gravon collection, as a raw client.
    let mut red = TestClient::connect(&addr, &hello("alice", "red"));
    match red.until(|m| matches!(m, HostMsg::SetupRequest { .. })) {
        HostMsg::SetupRequest { prompt } => {
            assert_eq!(prompt.cells.len(), 40);
            assert_eq!(prompt.army.iter().map(|k| k.count).sum::<u32>(), 40);
        }
        _ => unreachable!(),
    }
    // Refused arrangements change nothing.
    red.send(r#"{"type":"setup","text":"LLLL"}"#);
    red.until(|m| matches!(m, HostMsg::Error { message } if message.contains("40 letters")));
    red.send(&action("a4-a5"));
    red.until(|m| matches!(m, HostMsg::Error { message } if message.contains("set up")));
    red.send(&format!(r#"{{"type":"setup","text":"{}"}}"#, lines[0]));
    red.until(|m| matches!(m, HostMsg::SetupStatus { ready, .. } if ready == &["red"]));
    assert!(!server.has_begun());
    // Blue: piece by piece in `join`, with a swap.
    let cells = server.with_session(|s| s.setup_prompt(1).cells);
    let (mut blue, out) = join(&[&addr, "--name", "bob", "--seat", "blue"]);
    wait_for(&out, "set up your army");
    let mut input = String::new();
    for (cell, letter) in cells.iter().zip(lines[1].chars()) {
        input.push_str(&format!("place {cell} {letter}\n"));
    }
    input.push_str(&format!("swap {} {}\nshow\ndone\n", cells[0], cells[39]));
    let mut stdin = blue.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    let t = Instant::now();
    while !server.has_begun() {
        assert!(t.elapsed() < Duration::from_secs(20), "blue never set up");
        std::thread::sleep(Duration::from_millis(20));
    }
    // Each army is the one its player submitted.
    assert_eq!(army_letters(&server, 0), lines[0]);
    let mut swapped: Vec<char> = lines[1].chars().collect();
    swapped.swap(0, 39);
    assert_eq!(army_letters(&server, 1), swapped.iter().collect::<String>());
    // Red moves; blue sees it; nobody was sent a kind of the other army.
    red.until(|m| matches!(m, HostMsg::State { legal, .. } if !legal.is_empty()));
    let first = server.with_session(|s| {
        let a = s.engine.legal_actions(&s.state)[0];
        s.engine.action_text(&s.state, &a)
    });
    red.send(&action(&first));
    wait_for(&out, "move: red");
    red.send(r#"{"type":"bye"}"#);
    red.until_closed();
    watcher.until(|m| matches!(m, HostMsg::State { seq: 1, .. }));
    for (who, raw, other) in [("red", &red.raw, "blue"), ("eve", &watcher.raw, "")] {
        for l in raw {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            for c in v["view"]["cells"].as_array().into_iter().flatten() {
                if !c.is_null() && (other.is_empty() || c["owner"] == other) {
                    assert!(c["kind"].is_null(), "{who} was sent a kind: {l}");
                }
            }
        }
    }
    let printed = String::from_utf8_lossy(&out.lock().unwrap()).to_string();
    for word in printed.split_whitespace() {
        // Red pieces are drawn `R` + their symbol: blue may only see `R?`.
        let leak = word.len() > 1 && word.starts_with('R') && !word.starts_with("R?");
        let symbols = [
            "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "RS", "RB", "RF",
        ];
        assert!(
            !(leak && symbols.iter().any(|s| word.starts_with(s))),
            "blue saw {word}"
        );
    }
    let _ = blue.kill();
}

/// The human's own strike or move is shown even though the bot replied
/// before the human read anything; every action's events reach the human
/// exactly once, in order.
#[test]
fn a_bot_that_answers_at_once_does_not_hide_the_humans_own_events() {
    let session = Session::new("classic_stratego", &[], 4).unwrap();
    let opts = HostOptions {
        agents: vec![None, Some(AgentSpec::Random)],
        ..HostOptions::default()
    };
    let (server, addr) = start(session, opts);
    let mut red = TestClient::connect(&addr, &hello("alice", "red"));
    let mut lines = Vec::new();
    let mut last_seq = 0;
    let mut mine = Vec::new();
    for _ in 0..30 {
        let legal = loop {
            match red.next() {
                HostMsg::State {
                    seq, events, legal, ..
                } => {
                    assert!(seq >= last_seq, "out of order");
                    assert!(events.is_empty() || seq > last_seq, "sent twice");
                    last_seq = seq;
                    lines.extend(events);
                    if !legal.is_empty() {
                        break legal;
                    }
                }
                HostMsg::End { .. } => break Vec::new(),
                _ => {}
            }
        };
        let Some(a) = legal.iter().find(|a| !a.ends_with("draw")) else {
            break;
        };
        mine.push(a.clone());
        red.send(&action(a));
    }
    while let Some(m) = red.poll(Duration::from_millis(500)) {
        if let HostMsg::State { events, .. } = m {
            lines.extend(events);
        }
    }
    // Every own action's event is there, each once, in order.
    let mut at = 0;
    for a in &mine {
        let (from, to) = a.split_once('-').unwrap();
        let pos = lines[at..]
            .iter()
            .position(|l| {
                l.contains(&format!("{from}-{to}")) || l.contains(&format!("{from}x{to}"))
            })
            .unwrap_or_else(|| panic!("red never saw its own {a}: {lines:?}"));
        at += pos + 1;
    }
    // As many lines as the host's history makes for red.
    let expected = server.with_session(|s| {
        s.history
            .iter()
            .map(|h| {
                Views::new(&s.engine)
                    .event_lines(
                        &s.state,
                        &h.events,
                        sandtable::record::view::Viewer::Player(0),
                    )
                    .len()
            })
            .sum::<usize>()
    });
    assert_eq!(lines.len(), expected);
}

#[test]
fn clocks_wait_for_every_seat_and_time_out_ends_the_game_for_all() {
    let mut session = Session::new("classic_stratego", &[], 3).unwrap();
    session.set_clock(Some("1s")).unwrap();
    let (server, addr) = start(session, HostOptions::default());
    let mut red = TestClient::connect(&addr, &hello("alice", "red"));
    red.until(|m| matches!(m, HostMsg::State { .. }));
    // Blue comes late: red's clock has not run meanwhile.
    std::thread::sleep(Duration::from_millis(1300));
    assert!(!server.is_over(), "red's clock ran before blue came");
    let mut blue = TestClient::connect(&addr, &hello("bob", "blue"));
    let mut eve = TestClient::connect(&addr, &spectator("eve"));
    for c in [&mut red, &mut blue, &mut eve] {
        match c.until(|m| matches!(m, HostMsg::End { .. })) {
            HostMsg::End { outcome } => assert!(outcome.contains("time"), "{outcome}"),
            _ => unreachable!(),
        }
    }
}

#[test]
fn a_token_takes_the_seat_back_and_the_others_hear_of_it() {
    let session = Session::new("classic_stratego", &[], 3).unwrap();
    let (_server, addr) = start(session, HostOptions::default());
    let mut red = TestClient::connect(&addr, &hello("alice", "red"));
    let token = match red.until(|m| matches!(m, HostMsg::Welcome { .. })) {
        HostMsg::Welcome { token, .. } => token.unwrap(),
        _ => unreachable!(),
    };
    let mut blue = TestClient::connect(&addr, &hello("bob", "blue"));
    blue.until(|m| matches!(m, HostMsg::State { .. }));
    let again = format!(r#"{{"type":"hello","version":2,"name":"alice","token":"{token}"}}"#);
    let mut red2 = TestClient::connect(&addr, &again);
    red2.until(|m| matches!(m, HostMsg::State { legal, .. } if !legal.is_empty()));
    red.until(|m| matches!(m, HostMsg::Replaced { .. }));
    red.until_closed();
    blue.until(|m| matches!(m, HostMsg::Presence { seat, here: true, .. } if seat == "red"));
    // Only the new connection plays for red.
    drop(red2);
    blue.until(|m| matches!(m, HostMsg::Presence { seat, here: false, .. } if seat == "red"));
}

#[test]
fn join_with_a_bad_token_exits_with_a_clear_message() {
    let session = Session::new("classic_stratego", &[], 3).unwrap();
    let (_server, addr) = start(session, HostOptions::default());
    let (mut child, out) = join(&[&addr, "--name", "x", "--token", "nope"]);
    let t = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(t.elapsed() < Duration::from_secs(10), "join did not exit");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(1));
    let printed = String::from_utf8_lossy(&out.lock().unwrap()).to_string();
    assert!(printed.contains("refused: unknown token"), "{printed}");
    assert!(!printed.contains("hello first"), "{printed}");
}

#[test]
fn join_prints_no_control_character_from_the_wire() {
    let session = Session::new("classic_stratego", &[], 3).unwrap();
    let (_server, addr) = start(session, HostOptions::default());
    // A name with an escape is refused.
    let mut bad = TestClient::connect(
        &addr,
        r#"{"type":"hello","version":2,"name":"host\u001b[2J","spectator":true}"#,
    );
    bad.until(|m| matches!(m, HostMsg::Error { message } if message.contains("control")));
    let mut bad = TestClient::connect(&addr, &spectator("host"));
    bad.until(|m| matches!(m, HostMsg::Error { message } if message.contains("host")));
    let (mut child, out) = join(&[&addr, "--name", "watcher", "--spectate"]);
    wait_for(&out, "joined");
    let mut mallory = TestClient::connect(&addr, &spectator("mallory"));
    mallory.until(|m| matches!(m, HostMsg::Welcome { .. }));
    mallory.send(
        r#"{"type":"chat","text":"\u001b[2J\u001b[H\r\nthe host is closing\u0007\u009b31m\u202eevil\u0000 end-of-chat"}"#,
    );
    wait_for(&out, "end-of-chat");
    let _ = child.kill();
    let bytes = out.lock().unwrap().clone();
    for (i, b) in bytes.iter().enumerate() {
        assert!(
            *b >= 0x20 || *b == b'\n' || *b == b'\t',
            "byte {b:#x} at {i} in {}",
            String::from_utf8_lossy(&bytes)
        );
    }
    let text = String::from_utf8_lossy(&bytes);
    assert!(!text.contains('\u{9b}') && !text.contains('\u{202e}'));
    // The forged line stays inside the chat line.
    assert!(!text.lines().any(|l| l.starts_with("the host is closing")));
}

#[test]
fn hellos_are_timed_and_connections_capped() {
    let session = Session::new("classic_stratego", &[], 3).unwrap();
    let opts = HostOptions {
        limits: Limits {
            max_connections: 8,
            max_spectators: 3,
            // Long enough that a loaded machine's client, descheduled
            // between connecting and saying hello, is not taken for silent.
            hello_timeout: Duration::from_millis(1000),
            chat_per_10s: 5,
            ..Limits::default()
        },
        ..HostOptions::default()
    };
    let (_server, addr) = start(session, opts);
    // Silent: told and closed.
    let mut silent = TestClient::connect(&addr, "");
    silent.until(|m| matches!(m, HostMsg::Error { message } if message.contains("no hello")));
    silent.until_closed();
    std::thread::sleep(Duration::from_millis(100));
    // Three spectators may stay; a fourth is told so and closed.
    let mut kept: Vec<TestClient> = (0..3)
        .map(|i| TestClient::connect(&addr, &spectator(&format!("s{i}"))))
        .collect();
    for c in kept.iter_mut() {
        c.until(|m| matches!(m, HostMsg::Welcome { .. }));
    }
    let mut fourth = TestClient::connect(&addr, &spectator("late"));
    fourth.until(
        |m| matches!(m, HostMsg::Error { message } if message.contains("as many spectators")),
    );
    fourth.until_closed();
    // Chat is rate limited.
    for _ in 0..8 {
        kept[0].send(r#"{"type":"chat","text":"spam"}"#);
    }
    kept[0].until(|m| matches!(m, HostMsg::Error { message } if message.contains("too much chat")));
}

/// A connection to `addr` from the local address `from` (any 127.x.y.z is
/// this machine on Linux).
fn connect_from(from: [u8; 4], addr: std::net::SocketAddr) -> std::net::TcpStream {
    use socket2::{Domain, Socket, Type};
    let s = Socket::new(Domain::IPV4, Type::STREAM, None).unwrap();
    let local = std::net::SocketAddr::from((from, 0));
    s.bind(&local.into()).unwrap();
    s.connect(&addr.into()).unwrap();
    s.into()
}

#[test]
fn silent_connections_never_keep_a_returning_seat_out() {
    let session = Session::new("classic_stratego", &[], 3).unwrap();
    let opts = HostOptions {
        limits: Limits {
            max_connections: 40,
            ..Limits::default()
        },
        ..HostOptions::default()
    };
    let (server, addr) = start(session, opts);
    let mut tokens = Vec::new();
    for seat in ["red", "blue"] {
        let mut c = TestClient::connect(&addr, &hello(seat, seat));
        match c.until(|m| matches!(m, HostMsg::Welcome { .. })) {
            HostMsg::Welcome { token, .. } => tokens.push(token.unwrap()),
            _ => unreachable!(),
        }
        c.send(r#"{"type":"bye"}"#);
        c.until_closed();
    }
    // More silent connections from 127.0.0.1 than the host holds.
    let silent: Vec<_> = (0..60)
        .map(|_| std::net::TcpStream::connect(&addr).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let with_token =
        |t: &str| format!(r#"{{"type":"hello","version":2,"name":"back","token":"{t}"}}"#);
    // Red comes back from another address, blue from the same one.
    let s = connect_from([127, 0, 0, 2], server.addr);
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut red = TestClient {
        w: s.try_clone().unwrap(),
        r: std::io::BufReader::new(s),
        raw: Vec::new(),
    };
    red.send(&with_token(&tokens[0]));
    let mut blue = TestClient::connect(&addr, &with_token(&tokens[1]));
    for (who, c) in [("red", &mut red), ("blue", &mut blue)] {
        match c.next() {
            HostMsg::Welcome { seat, .. } => assert_eq!(seat.as_deref(), Some(who)),
            other => panic!("{who} was not let in: {other:?}"),
        }
    }
    drop(silent);
}
