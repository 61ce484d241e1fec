//! A client that never reads cannot grow the host: while another floods the
//! chat, the silent one's queue fills, it is dropped, and the host's memory
//! stays under a fixed bound; the players' game goes on. (A file of its own:
//! the bound is read from this process's RSS.)

mod net_common;

use std::time::Duration;

use net_common::{action, hello, spectator, TestClient};
use sandtable::front::net::{HostMsg, HostOptions, Limits, Server};
use sandtable::front::session::Session;

/// The host may grow by at most this much while 40,000 chat lines of 500
/// characters (20 MB, times every client) are relayed: a queue of 10,000
/// such lines is about 6 MB.
const BOUND_MIB: u64 = 64;

fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

#[test]
fn a_client_that_never_reads_is_dropped_and_the_host_stays_small() {
    let session = Session::new("classic_stratego", &[], 15).unwrap();
    let opts = HostOptions {
        limits: Limits {
            // The flood is let through, to test the queues themselves;
            // queues long enough that readers on a busy test machine keep
            // up, and a silent client still fills its own.
            chat_per_10s: 1_000_000,
            queue: 10_000,
            ..Limits::default()
        },
        ..HostOptions::default()
    };
    let server = Server::start_with(session, "127.0.0.1:0", opts).unwrap();
    let addr = server.addr.to_string();
    let mut red = TestClient::connect(&addr, &hello("alice", "red"));
    let mut blue = TestClient::connect(&addr, &hello("bob", "blue"));
    red.until(|m| matches!(m, HostMsg::State { .. }));
    blue.until(|m| matches!(m, HostMsg::State { .. }));
    // Never reads a byte.
    let silent = TestClient::connect(&addr, &spectator("silent"));
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(server.client_count(), 3);
    let before = rss_kib();
    // The players read everything on threads of their own.
    let readers: Vec<_> = [red, blue]
        .into_iter()
        .map(|mut c| {
            std::thread::spawn(move || {
                while c.poll(Duration::from_secs(2)).is_some() {
                    c.raw.clear();
                }
                c
            })
        })
        .collect();
    let mut spammer = TestClient::connect(&addr, &spectator("spammer"));
    spammer.until(|m| matches!(m, HostMsg::Welcome { .. }));
    let spam_reader = std::thread::spawn({
        let mut r = TestClient {
            w: spammer.w.try_clone().unwrap(),
            r: std::io::BufReader::new(spammer.w.try_clone().unwrap()),
            raw: Vec::new(),
        };
        move || {
            while r.poll(Duration::from_secs(2)).is_some() {
                r.raw.clear();
            }
        }
    });
    let text = "x".repeat(500);
    let mut peak = before;
    for i in 0..40_000 {
        spammer.send(&format!(r#"{{"type":"chat","text":"{text}"}}"#));
        if i % 500 == 0 {
            peak = peak.max(rss_kib());
            // Bursts, so that readers sharing the test machine's cores
            // keep up; the silent one falls behind all the same.
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    std::thread::sleep(Duration::from_millis(500));
    peak = peak.max(rss_kib());
    let grown = peak.saturating_sub(before) / 1024;
    eprintln!("host grew by {grown} MiB while relaying the flood");
    assert!(grown < BOUND_MIB, "grew by {grown} MiB");
    // The silent client was dropped; the others are still here.
    assert_eq!(
        server.client_count(),
        3,
        "the silent client is still seated"
    );
    drop(silent);
    let mut players: Vec<TestClient> = readers.into_iter().map(|h| h.join().unwrap()).collect();
    // The players' game goes on.
    let first = server.with_session(|s| {
        let a = s.engine.legal_actions(&s.state)[0];
        s.engine.action_text(&s.state, &a)
    });
    players[0].send(&action(&first));
    players[1].until(|m| matches!(m, HostMsg::State { legal, .. } if !legal.is_empty()));
    drop(spammer);
    let _ = spam_reader.join();
}
