//! Network play on loopback: a seeded game to its end between two clients,
//! no hidden fact in any byte sent to a seat, bad messages, reconnects, chat.

mod net_common;

use net_common::TestClient;
use rand::{Rng, SeedableRng};
use sandtable::front::net::{HostMsg, Server};
use sandtable::front::session::Session;
use sandtable::record::view::Views;
use std::io::{BufRead, BufReader};
use std::time::Duration;

fn host(variant: &str, seed: u64) -> Server {
    let session = Session::new(variant, &[], seed).unwrap();
    Server::start(session, "127.0.0.1:0", vec![false, false], None).unwrap()
}

fn hello(name: &str) -> String {
    format!(r#"{{"type":"hello","version":2,"name":"{name}"}}"#)
}

fn seat_hello(name: &str, seat: &str) -> String {
    format!(r#"{{"type":"hello","version":2,"name":"{name}","seat":"{seat}"}}"#)
}

fn action(text: &str) -> String {
    format!(r#"{{"type":"action","text":"{text}"}}"#)
}

/// Checks every state message a seat received against what it knows at the
/// end (knowledge only grows in classic Stratego): an enemy kind in the raw
/// bytes must belong to a piece that seat knew, and be its true kind.
fn check_no_leak(server: &Server, raw: &[String], seat: u8) {
    server.with_session(|s| {
        for l in raw {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            if v["type"] != "state" {
                continue;
            }
            let mut pieces: Vec<&serde_json::Value> = v["view"]["cells"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|c| !c.is_null())
                .collect();
            for c in v["view"]["containers"].as_array().unwrap() {
                pieces.extend(c["pieces"].as_array().unwrap().iter());
            }
            for p in pieces {
                let id = p["id"].as_u64().unwrap() as usize;
                if let Some(kind) = p["kind"].as_str() {
                    assert!(
                        s.state.knows(seat, id as u16),
                        "seat {seat} was sent the kind of piece {id}: {l}"
                    );
                    let truth = &s.engine.variant.kinds[s.state.pieces[id].kind as usize].name;
                    assert_eq!(kind, truth);
                }
            }
        }
    });
}

/// Seed 15 (host and players) is a game of 112 plies that ends when blue
/// strikes red's flag, with strikes that reveal kinds along the way: the
/// whole game in a few seconds (seed 5 took 1,325 plies and a minute).
#[test]
fn two_clients_play_a_seeded_game_to_its_end_and_see_nothing_hidden() {
    let server = host("classic_stratego", 15);
    let addr = server.addr.to_string();
    let mut red = TestClient::connect(&addr, &seat_hello("alice", "red"));
    let mut blue = TestClient::connect(&addr, &seat_hello("bob", "blue"));
    let token_of = |m: HostMsg| match m {
        HostMsg::Welcome { seat, token, .. } => (seat.unwrap(), token.unwrap()),
        other => panic!("{other:?}"),
    };
    let (rs, _) = token_of(red.until(|m| matches!(m, HostMsg::Welcome { .. })));
    let (bs, _) = token_of(blue.until(|m| matches!(m, HostMsg::Welcome { .. })));
    assert_eq!((rs.as_str(), bs.as_str()), ("red", "blue"));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(15);
    let mut plies = 0;
    'game: loop {
        for c in [&mut red, &mut blue] {
            loop {
                match c.next() {
                    HostMsg::End { .. } => break 'game,
                    HostMsg::State { legal, .. } if !legal.is_empty() => {
                        let moves: Vec<&String> =
                            legal.iter().filter(|a| !a.ends_with("draw")).collect();
                        let a = moves[rng.random_range(0..moves.len())].clone();
                        c.send(&action(&a));
                        plies += 1;
                        break;
                    }
                    _ => {}
                }
            }
        }
        assert!(plies < 20_000, "the game does not end");
    }
    // Both hear the end.
    for c in [&mut red, &mut blue] {
        if !c.raw.iter().any(|l| l.contains(r#""type":"end""#)) {
            c.until(|m| matches!(m, HostMsg::End { .. }));
        }
    }
    assert!(server.is_over());
    check_no_leak(&server, &red.raw, 0);
    check_no_leak(&server, &blue.raw, 1);
    assert!(red.raw.len() > 10 && blue.raw.len() > 10);
    // Kinds were revealed by strikes, so the check above checked some.
    assert!(red.raw.iter().any(|l| l.contains("strike: ")));
}

#[test]
fn bad_messages_get_an_error_and_the_connection_stays() {
    let server = host("classic_stratego", 3);
    let addr = server.addr.to_string();
    let mut red = TestClient::connect(&addr, "this is not json");
    assert!(matches!(red.next(), HostMsg::Error { message } if message.contains("malformed")));
    red.send(&action("a4-a5"));
    assert!(matches!(red.next(), HostMsg::Error { message } if message.contains("hello first")));
    red.send(&"x".repeat(sandtable::front::net::MAX_LINE + 100));
    assert!(matches!(red.next(), HostMsg::Error { message } if message.contains("longer than")));
    red.send(&seat_hello("alice", "red"));
    red.until(|m| matches!(m, HostMsg::State { .. }));
    let mut blue = TestClient::connect(&addr, &seat_hello("bob", "blue"));
    blue.until(|m| matches!(m, HostMsg::State { .. }));
    // Out of turn, and illegal.
    blue.send(&action("a7-a6"));
    assert!(
        matches!(blue.until(|m| matches!(m, HostMsg::Error { .. })), HostMsg::Error { message } if message.contains("red's turn"))
    );
    red.send(&action("a1-a9"));
    assert!(
        matches!(red.until(|m| matches!(m, HostMsg::Error { .. })), HostMsg::Error { message } if message.contains("illegal"))
    );
    red.send(r#"{"type":"action"}"#);
    assert!(matches!(red.next(), HostMsg::Error { .. }));
    // Still connected: a legal action goes through.
    let legal = server.with_session(|s| {
        let a = s.engine.legal_actions(&s.state)[0];
        s.engine.action_text(&s.state, &a)
    });
    red.send(&action(&legal));
    blue.until(|m| matches!(m, HostMsg::State { legal, .. } if !legal.is_empty()));
}

#[test]
fn a_client_can_reconnect_to_its_seat_and_chat_reaches_everyone() {
    let server = host("ultimate_lightning", 9);
    let addr = server.addr.to_string();
    let mut red = TestClient::connect(&addr, &seat_hello("alice", "red"));
    let token = match red.until(|m| matches!(m, HostMsg::Welcome { .. })) {
        HostMsg::Welcome { token, .. } => token.unwrap(),
        _ => unreachable!(),
    };
    let mut blue = TestClient::connect(&addr, &seat_hello("bob", "blue"));
    blue.until(|m| matches!(m, HostMsg::State { .. }));
    let mut watcher = TestClient::connect(
        &addr,
        r#"{"type":"hello","version":2,"name":"eve","spectator":true}"#,
    );
    assert!(matches!(
        watcher.next(),
        HostMsg::Welcome { seat: None, .. }
    ));
    red.send(r#"{"type":"chat","text":"good luck"}"#);
    for c in [&mut blue, &mut watcher] {
        assert!(
            matches!(c.until(|m| matches!(m, HostMsg::Chat { .. })), HostMsg::Chat { from, text } if from == "alice" && text == "good luck")
        );
    }
    // Red drops; the seat is not free for someone else; red comes back with the token.
    drop(red);
    std::thread::sleep(Duration::from_millis(100));
    let mut thief = TestClient::connect(
        &addr,
        r#"{"type":"hello","version":2,"name":"mallory","seat":"red"}"#,
    );
    assert!(matches!(thief.next(), HostMsg::Error { message } if message.contains("taken")));
    let mut red = TestClient::connect(
        &addr,
        &format!(r#"{{"type":"hello","version":2,"name":"alice","token":"{token}"}}"#),
    );
    assert!(matches!(red.next(), HostMsg::Welcome { seat: Some(s), .. } if s == "red"));
    match red.next() {
        HostMsg::State { legal, .. } => assert!(!legal.is_empty(), "red is to move"),
        other => panic!("{other:?}"),
    }
    // With every seat taken, a plain hello makes a spectator.
    let mut late = TestClient::connect(&addr, &hello("carol"));
    assert!(matches!(
        late.next(),
        HostMsg::Welcome {
            seat: None,
            token: None,
            ..
        }
    ));
    // The spectator sees only what everyone knows.
    check_no_leak_public(&server, &watcher.raw);
}

fn check_no_leak_public(server: &Server, raw: &[String]) {
    server.with_session(|s| {
        for l in raw {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            if v["type"] != "state" {
                continue;
            }
            for c in v["view"]["cells"].as_array().unwrap() {
                if !c.is_null() {
                    assert!(
                        c["kind"].is_null()
                            || s.state.pieces[c["id"].as_u64().unwrap() as usize].known_by == 3
                    );
                }
            }
        }
    });
}

/// A four-seat game of Lost Island over loopback, every seat a client
/// choosing random legal actions, to its end; then every byte each seat
/// received is checked: no scout value it did not know (on the island or in
/// a boat), no face-down tile's content.
#[test]
fn four_clients_play_lost_island_to_its_end_and_see_nothing_hidden() {
    let session = Session::new("lost_island", &[("players".into(), "4".into())], 11).unwrap();
    let server = Server::start(session, "127.0.0.1:0", vec![false; 4], None).unwrap();
    let addr = server.addr.to_string();
    let names = ["red", "blue", "green", "yellow"];
    let mut clients: Vec<TestClient> = names
        .iter()
        .map(|n| TestClient::connect(&addr, &seat_hello(&format!("{n}-player"), n)))
        .collect();
    for c in clients.iter_mut() {
        c.until(|m| matches!(m, HostMsg::Welcome { .. }));
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let mut plies = 0;
    while !server.is_over() {
        let (acting, ply) =
            server.with_session(|s| (s.engine.acting_player(&s.state), s.state.ply));
        let Some(p) = acting else { break };
        let c = &mut clients[p as usize];
        let legal = loop {
            match c.next() {
                HostMsg::State { legal, view, .. } if !legal.is_empty() && view.ply == ply => {
                    break legal
                }
                HostMsg::End { .. } => break Vec::new(),
                _ => {}
            }
        };
        if legal.is_empty() {
            break;
        }
        let a = legal[rng.random_range(0..legal.len())].clone();
        c.send(&action(&a));
        // Wait for the host to apply it.
        while server.with_session(|s| s.state.ply) == ply && !server.is_over() {
            std::thread::sleep(Duration::from_millis(1));
        }
        plies += 1;
        assert!(plies < 5_000, "the game does not end");
    }
    assert!(server.is_over());
    for c in clients.iter_mut() {
        if !c.raw.iter().any(|l| l.contains(r#""type":"end""#)) {
            c.until(|m| matches!(m, HostMsg::End { .. }));
        }
    }
    for (seat, c) in clients.iter().enumerate() {
        check_no_leak(&server, &c.raw, seat as u8);
        for l in &c.raw {
            assert!(
                !l.contains(r#""name":"content""#),
                "seat {seat} was sent a face-down tile's content: {l}"
            );
        }
        assert!(c.raw.len() > 20);
    }
    // Other boats are sent with their length, not their hidden values.
    let some_hidden_boat = clients[0].raw.iter().any(|l| {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        v["type"] == "state"
            && v["view"]["containers"].as_array().unwrap().iter().any(|c| {
                c["owner"] != "red"
                    && c["pieces"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|p| p["kind"].is_null())
            })
    });
    assert!(some_hidden_boat);
}

/// Starts `sandtable serve VARIANT` without `--seed` on a free port, joins
/// it as red and returns red's army (kind by cell) and every line received.
fn serve_unseeded_and_join(variant: &str) -> (Vec<(usize, String)>, Vec<String>) {
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_sandtable"))
        .args([
            "serve",
            variant,
            "--port",
            "0",
            "--bind",
            "127.0.0.1",
            "--deal",
        ])
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    let addr = first
        .split_whitespace()
        .find(|w| w.starts_with("127.0.0.1:"))
        .unwrap_or_else(|| panic!("no address in `{first}`"))
        .to_string();
    let mut c = TestClient::connect(&addr, &seat_hello("r", "red"));
    let m = c.until(|m| matches!(m, HostMsg::State { .. }));
    let HostMsg::State { view, .. } = m else {
        unreachable!()
    };
    let army = own_army(&view, "red");
    c.send(r#"{"type":"bye"}"#);
    drop(child.stdin.take());
    let _ = child.wait();
    (army, c.raw)
}

fn own_army(view: &sandtable::record::view::View, owner: &str) -> Vec<(usize, String)> {
    view.cells
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            c.as_ref()
                .filter(|p| p.owner == owner)
                .map(|p| (i, p.kind.clone().unwrap()))
        })
        .collect()
}

#[test]
fn serve_without_a_seed_deals_secret_armies_and_never_sends_the_seed() {
    let (a, raw_a) = serve_unseeded_and_join("classic_stratego");
    let (b, _) = serve_unseeded_and_join("classic_stratego");
    assert_eq!(a.len(), 40);
    assert_ne!(a, b, "two unseeded hosts dealt the same army");
    let seed1 = Session::new("classic_stratego", &[], 1).unwrap();
    let red1 = own_army(
        &Views::new(&seed1.engine).view(&seed1.state, sandtable::record::view::Viewer::Player(0)),
        "red",
    );
    assert!(
        a != red1 && b != red1,
        "an unseeded host dealt seed 1's army"
    );
    for l in &raw_a {
        assert!(!l.contains("seed"), "a message names the seed: {l}");
    }
    // With a known seed: its digits appear in no byte sent to a seat.
    let seed = 9_187_201_950_435_737_471u64;
    let server = host("classic_stratego", seed);
    let addr = server.addr.to_string();
    let mut red = TestClient::connect(&addr, &seat_hello("r", "red"));
    let mut blue = TestClient::connect(&addr, &seat_hello("b", "blue"));
    red.until(|m| matches!(m, HostMsg::State { .. }));
    blue.until(|m| matches!(m, HostMsg::State { .. }));
    red.send(&action("a4-a5"));
    red.send(&action("offer-draw"));
    std::thread::sleep(Duration::from_millis(200));
    let text = seed.to_string();
    for l in red.raw.iter().chain(&blue.raw) {
        assert!(!l.contains(&text) && !l.contains("seed"), "{l}");
    }
    server.stop("done");
}
