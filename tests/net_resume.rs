//! A host that loses nothing: `serve --save FILE` journals every action
//! before anyone hears of it; a destination it cannot write is an error
//! before the first move (and one that fails mid-game stops the game); a
//! host killed with SIGKILL at any point goes on with `serve --resume FILE`,
//! each player back on their seat by token, and the game ends as it would
//! have without the kills.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sandtable::front::net::HostMsg;
use sandtable::record::journal;

/// A `sandtable serve` process and what it printed.
struct Host {
    child: Child,
    addr: String,
    out: Arc<Mutex<String>>,
}

impl Host {
    fn spawn(args: &[&str], dir: &Path) -> Host {
        Host::spawn_with(Command::new(env!("CARGO_BIN_EXE_sandtable")), args, dir)
    }

    fn spawn_with(mut cmd: Command, args: &[&str], dir: &Path) -> Host {
        let mut child = cmd
            .arg("serve")
            .args(args)
            .args(["--port", "0", "--bind", "127.0.0.1"])
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let out = Arc::new(Mutex::new(String::new()));
        let (tx, rx) = channel();
        for pipe in [
            Box::new(child.stdout.take().unwrap()) as Box<dyn std::io::Read + Send>,
            Box::new(child.stderr.take().unwrap()),
        ] {
            let (o, tx) = (out.clone(), tx.clone());
            std::thread::spawn(move || {
                for l in BufReader::new(pipe).lines() {
                    let Ok(l) = l else { break };
                    if let Some(a) = l.split_whitespace().find(|w| w.starts_with("127.0.0.1:")) {
                        let _ = tx.send(a.to_string());
                    }
                    o.lock().unwrap().push_str(&format!("{l}\n"));
                }
            });
        }
        drop(tx);
        let addr = rx.recv_timeout(Duration::from_secs(20)).unwrap_or_default();
        Host { child, addr, out }
    }

    fn output(&self) -> String {
        self.out.lock().unwrap().clone()
    }

    fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn hello_seat(name: &str, seat: &str) -> String {
    format!(r#"{{"type":"hello","version":2,"name":"{name}","seat":"{seat}"}}"#)
}

fn hello_token(name: &str, token: &str) -> String {
    format!(r#"{{"type":"hello","version":2,"name":"{name}","token":"{token}"}}"#)
}

fn action(text: &str) -> String {
    serde_json::json!({"type": "action", "text": text}).to_string()
}

const SETUP: &str = r#"{"type":"setup","text":"random"}"#;

/// A connection whose messages a thread of its own passes on, tagged with
/// the player and the host's generation.
fn connect(
    addr: &str,
    hello: &str,
    who: usize,
    generation: usize,
    tx: &Sender<(usize, usize, Option<HostMsg>)>,
) -> TcpStream {
    let s = TcpStream::connect(addr).unwrap();
    let mut w = s.try_clone().unwrap();
    w.write_all(format!("{hello}\n").as_bytes()).unwrap();
    let tx = tx.clone();
    std::thread::spawn(move || {
        let mut r = BufReader::new(s);
        loop {
            let mut l = String::new();
            match r.read_line(&mut l) {
                Ok(n) if n > 0 => {
                    let m: HostMsg =
                        serde_json::from_str(&l).unwrap_or_else(|e| panic!("{e}: {l}"));
                    if tx.send((who, generation, Some(m))).is_err() {
                        return;
                    }
                }
                _ => {
                    let _ = tx.send((who, generation, None));
                    return;
                }
            }
        }
    });
    w
}

fn send(w: &mut TcpStream, line: &str) {
    let _ = w.write_all(format!("{line}\n").as_bytes());
}

/// The action a player picks among `legal` at ply `seq`: the same on every
/// run of the same game.
fn pick(seed: u64, seq: usize, legal: &[String]) -> String {
    let mut z = seed ^ (seq as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    legal[(z % legal.len() as u64) as usize].clone()
}

#[derive(Default, Debug)]
struct Figures {
    kills: usize,
    kills_in_setup: usize,
    kills_in_choice: usize,
    actions_lost: usize,
    setups_lost: usize,
    actions: usize,
}

/// Plays a hosted game through the protocol, every seat a client picking
/// with [`pick`]; kills the host with SIGKILL after each decision (a setup
/// or an action sent) whose number is in `kills`, after a pause of a few
/// hundred microseconds, and resumes it from its journal. Returns the
/// final record (YAML) and the figures.
fn play(variant: &str, extra: &[&str], seed: u64, kills: &[(usize, u64)]) -> (String, Figures) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.jsonl");
    let file_s = file.to_str().unwrap().to_string();
    let seed_s = seed.to_string();
    let mut args = vec![variant, "--seed", &seed_s, "--save", &file_s];
    args.extend_from_slice(extra);
    let mut host = Host::spawn(&args, dir.path());
    assert!(!host.addr.is_empty(), "no address: {}", host.output());
    let seats: Vec<String> = {
        let session =
            sandtable::front::session::Session::new(variant, &overrides(extra), seed).unwrap();
        session.engine.variant.players.clone()
    };
    let n = seats.len();
    let (tx, rx): (_, Receiver<(usize, usize, Option<HostMsg>)>) = channel();
    let mut generation = 0;
    let mut writers: Vec<TcpStream> = (0..n)
        .map(|i| {
            connect(
                &host.addr,
                &hello_seat(&format!("p{i}"), &seats[i]),
                i,
                0,
                &tx,
            )
        })
        .collect();
    // A spectator watches too, and comes back after each kill.
    let watch = r#"{"type":"hello","version":2,"name":"w","spectator":true}"#;
    writers.push(connect(&host.addr, watch, n, 0, &tx));
    let mut watched = None;
    let mut tokens = vec![None; n];
    let mut figures = Figures::default();
    let mut decisions = 0;
    let mut max_seq: usize = 0;
    let mut max_ready: usize = 0;
    let mut begun = false;
    let mut pending = false;
    let mut kill_at = kills.iter().copied().peekable();
    let mut waiting: Vec<(usize, String)> = Vec::new();
    let result;
    loop {
        // Decisions are sent once every seat has its token.
        if tokens.iter().all(Option::is_some) {
            for (i, l) in waiting.drain(..) {
                send(&mut writers[i], &l);
                decisions += 1;
                if kill_at.peek().is_some_and(|&(k, _)| k == decisions) {
                    let (_, micros) = kill_at.next().unwrap();
                    std::thread::sleep(Duration::from_micros(micros));
                    host.kill();
                    figures.kills += 1;
                    if !begun {
                        figures.kills_in_setup += 1;
                    }
                    if pending {
                        figures.kills_in_choice += 1;
                    }
                    // What the journal kept against what players were told.
                    let entries = journal::read(&file).unwrap().entries;
                    let acts = entries
                        .iter()
                        .filter(|e| matches!(e, journal::Entry::Action { .. }))
                        .count();
                    let setups = entries
                        .iter()
                        .filter(|e| matches!(e, journal::Entry::Setup { .. }))
                        .count();
                    figures.actions_lost += max_seq.saturating_sub(acts);
                    figures.setups_lost += max_ready.saturating_sub(setups);
                    let out = host.output();
                    host = Host::spawn(&["--resume", &file_s], dir.path());
                    assert!(
                        !host.addr.is_empty(),
                        "no resume: {}\n(before: {out})",
                        host.output()
                    );
                    generation += 1;
                    writers = (0..n)
                        .map(|i| {
                            let t = tokens[i].as_deref().unwrap();
                            connect(
                                &host.addr,
                                &hello_token(&format!("p{i}"), t),
                                i,
                                generation,
                                &tx,
                            )
                        })
                        .collect();
                    writers.push(connect(&host.addr, watch, n, generation, &tx));
                    break;
                }
            }
        }
        let (who, g, m) = rx
            .recv_timeout(Duration::from_secs(30))
            .unwrap_or_else(|_| panic!("nothing for 30 s: {}", host.output()));
        if g != generation {
            continue;
        }
        let Some(m) = m else {
            panic!("the host closed p{who}: {}", host.output());
        };
        match m {
            HostMsg::Welcome { token, seat, .. } if who == n => {
                assert!(token.is_none() && seat.is_none());
                watched = Some(g);
            }
            HostMsg::Welcome { token, .. } => {
                let t = token.expect("a seat's token");
                if let Some(old) = &tokens[who] {
                    assert_eq!(old, &t, "the seat's token changed");
                }
                tokens[who] = Some(t);
            }
            HostMsg::SetupRequest { .. } => waiting.push((who, SETUP.to_string())),
            HostMsg::SetupStatus { ready, .. } => max_ready = max_ready.max(ready.len()),
            HostMsg::State {
                seq, legal, view, ..
            } => {
                begun = true;
                max_seq = max_seq.max(seq);
                pending = view.pending.is_some();
                if !legal.is_empty() {
                    waiting.push((who, action(&pick(seed, seq, &legal))));
                }
            }
            HostMsg::End { outcome } => {
                result = outcome;
                break;
            }
            HostMsg::Error { message } => panic!("p{who}: {message}"),
            _ => {}
        }
    }
    // The spectator is back on the last host too.
    while watched != Some(generation) {
        let (who, g, m) = rx.recv_timeout(Duration::from_secs(10)).expect("a message");
        if let (true, Some(HostMsg::Welcome { .. })) = (who == n && g == generation, m) {
            watched = Some(g);
        }
    }
    host.kill();
    let entries = journal::read(&file).unwrap().entries;
    let rec = journal::record(&entries).expect("a record");
    assert_eq!(rec.result.as_deref(), Some(result.as_str()));
    figures.actions = rec.actions.len();
    (sandtable::record::to_yaml(&rec).unwrap(), figures)
}

fn overrides(extra: &[&str]) -> Vec<(String, String)> {
    extra
        .windows(2)
        .filter(|w| w[0] == "-o")
        .filter_map(|w| w[1].split_once('='))
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

/// Kill points: `count` decisions among the first `within`, each with a
/// pause of 0 to 2 ms before the kill, from `seed`.
fn kill_points(seed: u64, count: usize, within: usize) -> Vec<(usize, u64)> {
    let mut z = seed;
    let mut next = || {
        z = z
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        z >> 33
    };
    let mut ks: Vec<(usize, u64)> = (0..count)
        .map(|_| (1 + (next() as usize) % within, next() % 2000))
        .collect();
    ks.sort();
    ks.dedup_by_key(|k| k.0);
    ks
}

/// The record of the game [`play`] plays, played without a host: every
/// army dealt as `random` deals it, each action picked by [`pick`].
fn uninterrupted(variant: &str, extra: &[&str], seed: u64) -> (String, usize) {
    let mut s = sandtable::front::session::Session::new(variant, &overrides(extra), seed).unwrap();
    let n = s.engine.variant.players.len();
    s.begin_with(vec![None; n]);
    while s.state.outcome.is_none() {
        let p = s.engine.acting_player(&s.state).unwrap();
        let legal: Vec<String> = s
            .engine
            .legal_actions_for(&s.state, p)
            .iter()
            .map(|a| s.engine.action_text(&s.state, a))
            .collect();
        let text = pick(seed, s.history.len(), &legal);
        s.play(&text).unwrap();
    }
    let rec = s.record();
    (sandtable::record::to_yaml(&rec).unwrap(), rec.actions.len())
}

fn survives(
    variant: &str,
    extra: &[&str],
    seed: u64,
    kills: usize,
    within: usize,
    first: &[usize],
) {
    let (clean, actions) = uninterrupted(variant, extra, seed);
    let mut points = kill_points(seed, kills, within.min(actions + 4));
    for &k in first {
        points.push((k, 0));
    }
    points.sort();
    points.dedup_by_key(|k| k.0);
    let (killed, f) = play(variant, extra, seed, &points);
    println!(
        "{variant}: {} actions; kills survived: {} ({} during setup, {} during a pending choice); actions lost: {}; setups lost: {}",
        f.actions, f.kills, f.kills_in_setup, f.kills_in_choice, f.actions_lost, f.setups_lost
    );
    assert_eq!(f.actions_lost, 0);
    assert_eq!(f.setups_lost, 0);
    assert!(f.kills >= points.len().min(1));
    assert_eq!(
        killed, clean,
        "the record differs from the uninterrupted game's"
    );
}

#[test]
fn a_killed_classic_host_resumes_and_the_game_ends_as_without_the_kills() {
    // Decision 1 is the first army: a kill during setup.
    survives("classic_stratego", &[], 10, 4, 120, &[1]);
}

#[test]
fn a_killed_ultimate_lightning_host_resumes_and_the_game_ends_as_without_the_kills() {
    survives("ultimate_lightning", &[], 6, 4, 120, &[1]);
}

#[test]
fn a_killed_four_player_lost_island_host_resumes_and_the_game_ends_as_without_the_kills() {
    survives("lost_island", &["-o", "players=4"], 7, 4, 120, &[2]);
}

#[test]
#[ignore = "long: many kills in each game (cargo test --test net_resume -- --ignored)"]
fn hosts_killed_many_times_resume_and_their_games_end_as_without_the_kills() {
    for seed in 1..4 {
        survives("classic_stratego", &[], seed, 40, 2000, &[1, 2]);
        survives("ultimate_lightning", &[], seed, 40, 2000, &[1]);
        survives("lost_island", &["-o", "players=4"], seed, 40, 2000, &[1, 3]);
    }
}

#[test]
fn serve_on_a_full_or_unwritable_destination_stops_before_the_first_move() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a-file"), "x").unwrap();
    for dest in ["/dev/full", "a-file/game.jsonl", "no/such/dir/game.jsonl"] {
        let out = Command::new(env!("CARGO_BIN_EXE_sandtable"))
            .args([
                "serve",
                "classic_stratego",
                "--port",
                "0",
                "--bind",
                "127.0.0.1",
            ])
            .args(["--save", dest])
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{dest}: served");
        assert!(err.contains("journal"), "{dest}: {err}");
        assert!(!String::from_utf8_lossy(&out.stdout).contains("hosting on"));
    }
    // An existing file is not overwritten.
    let out = Command::new(env!("CARGO_BIN_EXE_sandtable"))
        .args([
            "serve",
            "classic_stratego",
            "--port",
            "0",
            "--save",
            "a-file",
        ])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--resume"));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a-file")).unwrap(),
        "x"
    );
}

#[test]
fn a_journal_that_cannot_be_written_mid_game_stops_the_moves_and_says_so() {
    // The file may not grow past 8 KiB (`ulimit -f` counts 512-byte
    // blocks; the signal is ignored so that the write fails instead).
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::new("sh");
    cmd.args([
        "-c",
        "trap '' XFSZ; ulimit -f 16; exec \"$0\" \"$@\"",
        env!("CARGO_BIN_EXE_sandtable"),
    ]);
    let mut host = Host::spawn_with(
        cmd,
        &[
            "classic_stratego",
            "--seed",
            "3",
            "--deal",
            "--save",
            "g.jsonl",
        ],
        dir.path(),
    );
    assert!(!host.addr.is_empty(), "{}", host.output());
    let (tx, rx) = channel();
    let mut w = [
        connect(&host.addr, &hello_seat("a", "red"), 0, 0, &tx),
        connect(&host.addr, &hello_seat("b", "blue"), 1, 0, &tx),
    ];
    let mut told = 0;
    let mut refused = None;
    let mut errors = [false; 2];
    while errors.iter().any(|e| !e) {
        let (who, _, m) = rx.recv_timeout(Duration::from_secs(20)).expect("a message");
        match m.expect("open") {
            HostMsg::State { seq, legal, .. } => {
                assert!(refused.is_none(), "a state after the journal failed");
                told = told.max(seq);
                if !legal.is_empty() {
                    send(&mut w[who], &action(&pick(1, seq, &legal)));
                }
            }
            HostMsg::Error { message } => {
                assert!(message.contains("cannot write its journal"), "{message}");
                errors[who] = true;
                if refused.is_none() {
                    refused = Some(told);
                    // Another move is refused too.
                    send(&mut w[who], &action("a1-a2"));
                }
            }
            _ => {}
        }
    }
    let entries = journal::read(&dir.path().join("g.jsonl")).unwrap().entries;
    let acts = entries
        .iter()
        .filter(|e| matches!(e, journal::Entry::Action { .. }))
        .count();
    assert!(told > 0, "no move was played before the file was full");
    assert_eq!(
        acts, told,
        "every move anyone was told of is in the journal"
    );
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        host.output().contains("cannot write its journal"),
        "{}",
        host.output()
    );
    host.kill();
}

#[test]
fn serve_writes_nothing_where_it_is_started_without_save() {
    let dir = tempfile::tempdir().unwrap();
    let mut host = Host::spawn(&["classic_stratego", "--deal"], dir.path());
    assert!(host.output().contains("kept nowhere") || !host.addr.is_empty());
    let (tx, rx) = channel();
    let _a = connect(&host.addr, &hello_seat("a", "red"), 0, 0, &tx);
    let _ = rx.recv_timeout(Duration::from_secs(10));
    host.child
        .stdin
        .take()
        .unwrap()
        .write_all(b"quit\n")
        .unwrap();
    host.child.wait().unwrap();
    assert!(host.output().contains("kept nowhere"), "{}", host.output());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn a_host_killed_between_the_last_army_and_the_start_of_play_journals_the_start_on_resume() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.jsonl");
    let f = file.to_str().unwrap();
    let mut host = Host::spawn(
        &["classic_stratego", "--seed", "10", "--save", f],
        dir.path(),
    );
    let (rx, mut w) = red_and_blue(&host.addr);
    let mut tokens = [None, None];
    let mut states = 0;
    while states < 2 {
        let (who, _, m) = rx.recv_timeout(Duration::from_secs(20)).unwrap();
        match m.unwrap() {
            HostMsg::Welcome { token, .. } => tokens[who] = token,
            HostMsg::SetupRequest { .. } => send(&mut w[who], SETUP),
            HostMsg::State { .. } => states += 1,
            _ => {}
        }
    }
    host.kill();
    // The kill came after the last army was written, before the start.
    let text = std::fs::read_to_string(&file).unwrap();
    let entries = journal::parse(&text).unwrap().entries;
    let begin = journal::record(&entries).unwrap().start;
    let cut = text.find(r#"{"t":"begin""#).unwrap();
    std::fs::write(&file, &text[..cut]).unwrap();
    assert!(journal::record(&journal::read(&file).unwrap().entries).is_none());
    let mut host = Host::spawn(&["--resume", f], dir.path());
    let (tx, rx) = channel();
    let _red = connect(
        &host.addr,
        &hello_token("a", tokens[0].as_deref().unwrap()),
        0,
        1,
        &tx,
    );
    loop {
        let (_, _, m) = rx.recv_timeout(Duration::from_secs(20)).unwrap();
        if let HostMsg::State { .. } = m.unwrap() {
            break;
        }
    }
    host.kill();
    let rec = journal::record(&journal::read(&file).unwrap().entries).expect("the start journaled");
    assert_eq!(rec.start, begin);
}

/// Players `a` (red) and `b` (blue) connected to a classic host at
/// `addr`: their messages, tagged with who they are, and their writers.
#[allow(clippy::type_complexity)]
fn red_and_blue(addr: &str) -> (Receiver<(usize, usize, Option<HostMsg>)>, Vec<TcpStream>) {
    let (tx, rx) = channel();
    let w = [("a", "red"), ("b", "blue")]
        .iter()
        .enumerate()
        .map(|(i, (n, s))| connect(addr, &hello_seat(n, s), i, 0, &tx))
        .collect();
    (rx, w)
}

/// Plays `moves` seeded random actions on a two-seat classic host through
/// `red` and `blue` (their welcomes already read): each is acknowledged
/// by the state message that follows it.
fn play_some(rx: &Receiver<(usize, usize, Option<HostMsg>)>, w: &mut [TcpStream], moves: usize) {
    let mut played = 0;
    while played < moves {
        let (who, _, m) = rx.recv_timeout(Duration::from_secs(20)).unwrap();
        match m.expect("the host closed a connection") {
            HostMsg::SetupRequest { .. } => send(&mut w[who], SETUP),
            HostMsg::State { mut legal, .. } if !legal.is_empty() => {
                played += 1;
                legal.retain(|t| !t.contains("resign") && !t.contains("draw"));
                let a = pick(7, played, &legal);
                send(&mut w[who], &action(&a));
            }
            _ => {}
        }
    }
}

#[test]
fn a_second_host_on_a_held_journal_is_refused_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.jsonl");
    let f = file.to_str().unwrap();
    let host = Host::spawn(
        &["classic_stratego", "--seed", "4", "--save", f],
        dir.path(),
    );
    // The journal holds every seat's token: its owner's only.
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "the journal is readable by others");
    let (rx, mut w) = red_and_blue(&host.addr);
    play_some(&rx, &mut w, 4);
    std::thread::sleep(Duration::from_millis(300));
    let before = std::fs::read(&file).unwrap();
    // A second host, resuming the same file or saving to it, is refused.
    for args in [vec!["--resume", f], vec!["classic_stratego", "--save", f]] {
        let out = Command::new(env!("CARGO_BIN_EXE_sandtable"))
            .arg("serve")
            .args(&args)
            .args(["--port", "0", "--bind", "127.0.0.1"])
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}: a second host started");
        assert!(
            err.contains("another sandtable process is using this file"),
            "{args:?}: {err}"
        );
        assert!(!String::from_utf8_lossy(&out.stdout).contains("hosting on"));
    }
    assert_eq!(std::fs::read(&file).unwrap(), before, "the journal changed");
    // The first host goes on taking and journalling moves.
    play_some(&rx, &mut w, 4);
    std::thread::sleep(Duration::from_millis(300));
    let parsed = journal::read(&file).unwrap();
    assert_eq!(parsed.damage, None);
    let actions = parsed
        .entries
        .iter()
        .filter(|e| matches!(e, journal::Entry::Action { .. }))
        .count();
    assert!(actions >= 7, "only {actions} actions journalled");
    drop(host);
}

#[test]
fn a_journal_damaged_in_its_middle_replays_and_resumes_up_to_the_damage() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("g.jsonl");
    let f = file.to_str().unwrap();
    let mut host = Host::spawn(
        &["classic_stratego", "--seed", "5", "--save", f],
        dir.path(),
    );
    let (rx, mut w) = red_and_blue(&host.addr);
    play_some(&rx, &mut w, 6);
    std::thread::sleep(Duration::from_millis(300));
    host.kill();
    // Two writers' lines run into each other in the middle of the file.
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let k = lines.len() - 3;
    let mut damaged = lines[..k].join("\n");
    damaged.push('\n');
    damaged.push_str(&lines[k][..lines[k].len() / 2]);
    damaged.push_str(lines[k + 1]);
    damaged.push('\n');
    damaged.push_str(lines[k + 2]);
    damaged.push('\n');
    std::fs::write(&file, &damaged).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_sandtable"))
        .args(["replay", f])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "replay refused the file: {err}\n{damaged}"
    );
    let want = format!("line {} does not read", k + 1);
    assert!(err.contains(&want), "{err}");
    assert!(
        err.contains(&format!("the {k} whole line(s) before it")),
        "{err}"
    );
    // Resumed: the game goes on from the lines before the damage, and the
    // journal is whole again.
    let host = Host::spawn(&["--resume", f], dir.path());
    assert!(host.output().contains(&want), "{}", host.output());
    assert!(!host.addr.is_empty(), "{}", host.output());
    let parsed = journal::read(&file).unwrap();
    assert_eq!(parsed.damage, None);
    assert_eq!(parsed.entries.len(), k);
}
