//! One connection: accepting it under the connection cap, its writer (a
//! bounded queue), and its reader (the hello within its time, then actions,
//! arrangements and chat, with rate limits).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::host::{lock, SharedRef};
use super::limits::{Bucket, Limits};
use super::proto::{line, ClientMsg, HostMsg, MAX_LINE};
use super::relayed::Relayed;
use super::server::Hello;

/// A connection that has not said hello yet.
struct Unsaid {
    id: u64,
    ip: IpAddr,
    since: Instant,
    stream: TcpStream,
    counted: Arc<AtomicBool>,
}

/// Who is connected: how many connections are counted against the cap,
/// those still to say hello, by address, and the spectators, by address.
/// Connections that have not said hello never keep another out: when the
/// host is full or one address holds its share of them, the oldest of the
/// busiest address's is closed for the newcomer. Spectators are capped in
/// all and per address, below the connection cap (see
/// [`Limits::spectator_cap`]), so players and spectators never fill the
/// host: a returning player with a token always gets in, while silent
/// connections cycle out. A connection relayed by `serve --web` counts by
/// its browser's address ([`Relayed`]).
pub(super) struct Gate {
    inner: Mutex<GateState>,
    relayed: Arc<Relayed>,
    /// The most spectators at once.
    spectators: usize,
}

#[derive(Default)]
struct GateState {
    open: usize,
    next: u64,
    unsaid: Vec<Unsaid>,
    /// The spectators' connections and addresses.
    watching: Vec<(u64, IpAddr)>,
}

/// Why a hello was refused, and whether the connection closes for it.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Refusal {
    pub(super) message: String,
    pub(super) close: bool,
}

impl Gate {
    pub(super) fn new(relayed: Arc<Relayed>, limits: &Limits, seats: usize) -> Gate {
        Gate {
            inner: Mutex::default(),
            relayed,
            spectators: limits.spectator_cap(seats),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, GateState> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Lets a new connection in (closing an older silent one if need be);
    /// `None`: the host is full of players and spectators.
    fn admit(&self, stream: &TcpStream, limits: &Limits) -> Option<(u64, Arc<AtomicBool>)> {
        let ip = self.relayed.address_of(stream.peer_addr().ok()?);
        let mut g = self.state();
        let mine = g.unsaid.iter().filter(|u| u.ip == ip).count();
        if mine >= limits.hello_per_address || g.open >= limits.max_connections {
            let victim_ip = if mine >= limits.hello_per_address {
                Some(ip)
            } else {
                busiest(&g.unsaid)
            };
            let victim = victim_ip.and_then(|v| {
                g.unsaid
                    .iter()
                    .enumerate()
                    .filter(|(_, u)| u.ip == v)
                    .min_by_key(|(_, u)| u.since)
                    .map(|(i, _)| i)
            });
            match victim {
                Some(i) => {
                    let u = g.unsaid.remove(i);
                    let _ = u.stream.shutdown(std::net::Shutdown::Both);
                    if u.counted.swap(false, Ordering::SeqCst) {
                        g.open -= 1;
                    }
                }
                None if g.open >= limits.max_connections => return None,
                None => {}
            }
        }
        if g.open >= limits.max_connections {
            return None;
        }
        g.open += 1;
        g.next += 1;
        let id = g.next;
        let counted = Arc::new(AtomicBool::new(true));
        if let Ok(s) = stream.try_clone() {
            g.unsaid.push(Unsaid {
                id,
                ip,
                since: Instant::now(),
                stream: s,
                counted: counted.clone(),
            });
        }
        Some((id, counted))
    }

    /// Runs `greet` for connection `id`; if it seats the client, the
    /// connection is no longer closed for newcomers. `greet` is handed the
    /// check to make before seating a spectator (the caps on spectators,
    /// in all and from this connection's address). The gate stays locked
    /// meanwhile, so no newcomer is admitted between the client being told
    /// it is in and the gate knowing it (a newcomer it lets in then could
    /// otherwise close it, though it is welcome), and no two spectators
    /// pass one cap at once.
    fn greet<T>(
        &self,
        id: u64,
        limits: &Limits,
        greet: impl FnOnce(&mut dyn FnMut() -> Result<(), String>) -> Result<T, String>,
    ) -> Result<T, Refusal> {
        let mut g = self.state();
        let Some(ip) = g.unsaid.iter().find(|u| u.id == id).map(|u| u.ip) else {
            // Closed for a newcomer meanwhile.
            return Err(Refusal {
                message: "this connection was closed for a newcomer".into(),
                close: true,
            });
        };
        let (mut watches, mut capped) = (false, false);
        let r = {
            let g = &g;
            let mut may_watch = || {
                let mine = g.watching.iter().filter(|(_, w)| *w == ip).count();
                let problem = if g.watching.len() >= self.spectators {
                    Some(format!(
                        "the host has as many spectators as it takes ({}): try again later",
                        self.spectators
                    ))
                } else if mine >= limits.spectators_per_address {
                    Some(format!(
                        "too many spectators from your address (at most {})",
                        limits.spectators_per_address
                    ))
                } else {
                    None
                };
                capped = problem.is_some();
                watches = !capped;
                problem.map_or(Ok(()), Err)
            };
            greet(&mut may_watch)
        };
        match r {
            Ok(t) => {
                g.unsaid.retain(|u| u.id != id);
                if watches {
                    g.watching.push((id, ip));
                }
                Ok(t)
            }
            Err(message) => Err(Refusal {
                message,
                close: capped,
            }),
        }
    }

    /// The connection has ended.
    fn done(&self, id: u64, counted: &AtomicBool) {
        let mut g = self.state();
        g.unsaid.retain(|u| u.id != id);
        g.watching.retain(|(w, _)| *w != id);
        if counted.swap(false, Ordering::SeqCst) {
            g.open -= 1;
        }
    }
}

/// The address with the most connections still to say hello.
fn busiest(unsaid: &[Unsaid]) -> Option<IpAddr> {
    let mut counts: std::collections::HashMap<IpAddr, usize> = Default::default();
    for u in unsaid {
        *counts.entry(u.ip).or_default() += 1;
    }
    counts.into_iter().max_by_key(|(_, n)| *n).map(|(ip, _)| ip)
}

/// Accepts connections on a thread of its own.
pub(super) fn spawn_listener(
    listener: TcpListener,
    shared: SharedRef,
    limits: Limits,
    relayed: Arc<Relayed>,
) {
    let seats = lock(&shared).seats.len();
    let gate = Arc::new(Gate::new(relayed, &limits, seats));
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else {
                // Out of file descriptors, most likely: breathe.
                std::thread::sleep(Duration::from_millis(50));
                continue;
            };
            if lock(&shared).closed {
                continue;
            }
            let Some((id, counted)) = gate.admit(&stream, &limits) else {
                let full = line(&HostMsg::Error {
                    message: format!("the host is full ({} connections)", limits.max_connections),
                });
                // Told, then closed once it has stopped sending (a close
                // with unread bytes would reset the connection first).
                std::thread::spawn(move || {
                    let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
                    let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
                    let _ = stream.write_all(full.as_bytes());
                    let _ = stream.shutdown(std::net::Shutdown::Write);
                    let _ = std::io::copy(&mut (&stream).take(64 * 1024), &mut std::io::sink());
                });
                continue;
            };
            let (sh, gate, limits) = (shared.clone(), gate.clone(), limits.clone());
            std::thread::spawn(move || {
                handle(sh, stream, &limits, (&gate, id));
                gate.done(id, &counted);
            });
        }
    });
}

/// Reads one line of at most `MAX_LINE` bytes. `Ok(None)` at the end of the
/// stream; `Err(())` for an oversized line (the rest of it is skipped).
fn read_line(reader: &mut BufReader<TcpStream>) -> std::io::Result<Option<Result<String, ()>>> {
    let mut buf = Vec::new();
    let n = reader
        .by_ref()
        .take(MAX_LINE as u64 + 1)
        .read_until(b'\n', &mut buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.len() > MAX_LINE && !buf.ends_with(b"\n") {
        // Skip to the end of the oversized line.
        let mut sink = Vec::new();
        loop {
            sink.clear();
            let m = reader
                .by_ref()
                .take(64 * 1024)
                .read_until(b'\n', &mut sink)?;
            if m == 0 || sink.ends_with(b"\n") {
                break;
            }
        }
        return Ok(Some(Err(())));
    }
    Ok(Some(Ok(String::from_utf8_lossy(&buf).trim().to_string())))
}

/// The writer: sends what is queued for the client, in order; closes the
/// socket when the queue is dropped (the client left, fell behind or was
/// replaced) or the client stops taking bytes for a minute.
fn spawn_writer(stream: TcpStream, queue: usize) -> SyncSender<String> {
    let (tx, rx) = sync_channel::<String>(queue);
    std::thread::spawn(move || {
        let mut w = stream;
        let _ = w.set_write_timeout(Some(Duration::from_secs(60)));
        for msg in rx {
            if w.write_all(msg.as_bytes()).is_err() {
                break;
            }
        }
        let _ = w.shutdown(std::net::Shutdown::Both);
    });
    tx
}

/// What the reader does with one message.
enum Next {
    Go,
    Stop,
}

struct Conn {
    shared: SharedRef,
    /// The queue until the client is greeted; then the host holds it (so
    /// that dropping the client closes the connection).
    tx: Option<SyncSender<String>>,
    me: Option<u64>,
    chat: Bucket,
    bad: Bucket,
    stream: TcpStream,
    /// Told when the client has said hello.
    gate: (Arc<Gate>, u64),
    limits: Limits,
}

impl Conn {
    /// Answers a refused message; false once the client has been refused
    /// too often (it is then closed).
    fn refuse(&mut self, message: String) -> Next {
        let msg = HostMsg::Error { message };
        match self.me {
            Some(id) => lock(&self.shared).send(id, &msg),
            None => {
                if let Some(tx) = &self.tx {
                    let _ = tx.try_send(line(&msg));
                }
            }
        }
        if self.bad.take() {
            Next::Go
        } else {
            Next::Stop
        }
    }

    fn on_message(&mut self, msg: &str) -> Next {
        let parsed: ClientMsg = match serde_json::from_str(msg) {
            Ok(m) => m,
            Err(e) => return self.refuse(format!("malformed message: {e}")),
        };
        let Some(id) = self.me else {
            let ClientMsg::Hello {
                version,
                name,
                seat,
                token,
                spectator,
            } = parsed
            else {
                return self.refuse("say hello first".into());
            };
            let hello = Hello {
                version,
                name,
                seat,
                token,
                spectator,
            };
            let stream = self.stream.try_clone().ok();
            let Some(tx) = &self.tx else {
                return Next::Stop;
            };
            let (gate, gate_id) = (&self.gate.0, self.gate.1);
            let shared = &self.shared;
            let greeted = gate.greet(gate_id, &self.limits, |may_watch| {
                lock(shared).greet(tx, stream, hello, may_watch)
            });
            return match greeted {
                Ok(id) => {
                    self.me = Some(id);
                    self.tx = None;
                    let _ = self.stream.set_read_timeout(None);
                    Next::Go
                }
                Err(Refusal {
                    message,
                    close: true,
                }) => {
                    self.refuse(message);
                    Next::Stop
                }
                Err(Refusal { message, .. }) => self.refuse(message),
            };
        };
        let result = {
            let mut g = lock(&self.shared);
            let Some(seat) = g.clients.iter().find(|c| c.id == id).map(|c| c.seat) else {
                // Dropped or replaced meanwhile.
                return Next::Stop;
            };
            match parsed {
                ClientMsg::Hello { .. } => Err("already greeted".to_string()),
                ClientMsg::Action { text } => g.act(seat, &text),
                ClientMsg::Setup { text, back_first } => g.submit_setup(seat, &text, back_first),
                ClientMsg::Chat { text } => {
                    if self.chat.take() {
                        g.chat(id, &text);
                        Ok(())
                    } else {
                        Err("too much chat: wait a little".into())
                    }
                }
                ClientMsg::Bye => return Next::Stop,
            }
        };
        match result {
            Ok(()) => Next::Go,
            Err(e) => self.refuse(e),
        }
    }
}

fn handle(shared: SharedRef, stream: TcpStream, limits: &Limits, gate: (&Arc<Gate>, u64)) {
    let (Ok(write_half), Ok(own)) = (stream.try_clone(), stream.try_clone()) else {
        return;
    };
    let tx = spawn_writer(write_half, limits.queue);
    let _ = stream.set_read_timeout(Some(limits.hello_timeout));
    let mut conn = Conn {
        shared,
        tx: Some(tx),
        me: None,
        chat: Bucket::new(limits.chat_per_10s),
        bad: Bucket::new(limits.bad_per_10s),
        stream: own,
        gate: (gate.0.clone(), gate.1),
        limits: limits.clone(),
    };
    let mut reader = BufReader::new(stream);
    loop {
        let next = match read_line(&mut reader) {
            Ok(Some(Ok(l))) if l.is_empty() => Next::Go,
            Ok(Some(Ok(l))) => conn.on_message(&l),
            Ok(Some(Err(()))) => conn.refuse(format!("message longer than {MAX_LINE} bytes")),
            Err(e)
                if conn.me.is_none()
                    && matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
            {
                let secs = limits.hello_timeout.as_secs_f64();
                conn.refuse(format!("no hello within {secs} s"));
                Next::Stop
            }
            _ => Next::Stop,
        };
        if let Next::Stop = next {
            break;
        }
    }
    // Before greeting, dropping `conn` lets the writer send the last error
    // and close.
    if let Some(id) = conn.me {
        lock(&conn.shared).leave(id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    /// A connected pair's server end, as the listener would accept it.
    fn accepted(listener: &TcpListener) -> (TcpStream, TcpStream) {
        let client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (server, _) = listener.accept().unwrap();
        (client, server)
    }

    #[test]
    fn a_newcomer_waits_while_a_hello_is_answered_and_never_closes_the_welcomed() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let limits = Limits {
            max_connections: 1,
            ..Limits::default()
        };
        let gate = Arc::new(Gate::new(Arc::default(), &limits, 0));
        let (_first_client, first) = accepted(&listener);
        let (first_id, _counted) = gate.admit(&first, &limits).unwrap();
        let (_late_client, late) = accepted(&listener);
        let (tx, rx) = std::sync::mpsc::channel();
        let welcomed = gate.greet(first_id, &limits, |_| {
            // A newcomer arrives while the host is answering the hello.
            let (gate, limits, tx) = (gate.clone(), limits.clone(), tx.clone());
            let late = late.try_clone().unwrap();
            std::thread::spawn(move || {
                let _ = tx.send(gate.admit(&late, &limits).is_some());
            });
            std::thread::sleep(Duration::from_millis(100));
            assert!(
                rx.try_recv().is_err(),
                "admitted while a hello was answered"
            );
            Ok(7)
        });
        assert_eq!(welcomed, Ok(7));
        let admitted = rx.recv_timeout(Duration::from_secs(10)).unwrap();
        assert!(!admitted, "the newcomer closed a welcomed connection");
        let mut byte = [0u8; 1];
        first.set_nonblocking(true).unwrap();
        assert!(
            matches!((&first).read(&mut byte), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock),
            "the welcomed connection was shut"
        );
    }

    #[test]
    fn spectators_are_capped_in_all_and_by_address_below_the_connection_cap() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let limits = Limits {
            max_connections: 10,
            max_spectators: 100,
            spectators_per_address: 2,
            ..Limits::default()
        };
        // Two seats: room for them, one closing on each, and one newcomer.
        assert_eq!(limits.spectator_cap(2), 5);
        let gate = Gate::new(Arc::default(), &limits, 2);
        let mut held = Vec::new();
        let watch = |gate: &Gate, held: &mut Vec<_>| {
            let (client, server) = accepted(&listener);
            let (id, counted) = gate.admit(&server, &limits).unwrap();
            let r = gate.greet(id, &limits, |may_watch| may_watch());
            held.push((client, server, id, counted));
            r
        };
        // All from 127.0.0.1: two, then refused (and closed) by address.
        assert_eq!(watch(&gate, &mut held), Ok(()));
        assert_eq!(watch(&gate, &mut held), Ok(()));
        let refused = watch(&gate, &mut held).unwrap_err();
        assert!(refused.close, "{refused:?}");
        assert!(
            refused.message.contains("from your address (at most 2)"),
            "{refused:?}"
        );
        // A spectator leaving makes room for another.
        let (_, _, id, counted) = held.remove(0);
        gate.done(id, &counted);
        assert_eq!(watch(&gate, &mut held), Ok(()));
        // A seat is not a spectator: never refused by these caps.
        let (_c, server) = accepted(&listener);
        let (id, _counted) = gate.admit(&server, &limits).unwrap();
        assert_eq!(gate.greet(id, &limits, |_| Ok(1)), Ok(1));
        // The cap in all, with the per-address cap out of the way.
        let wide = Limits {
            spectators_per_address: 100,
            ..limits.clone()
        };
        let gate = Gate::new(Arc::default(), &wide, 2);
        let mut ok = 0;
        for _ in 0..8 {
            let (c, server) = accepted(&listener);
            let (id, counted) = gate.admit(&server, &wide).unwrap();
            match gate.greet(id, &wide, |may_watch| may_watch()) {
                Ok(()) => ok += 1,
                Err(r) => assert!(r.message.contains("as many spectators"), "{r:?}"),
            }
            held.push((c, server, id, counted));
        }
        assert_eq!(ok, 5);
    }

    #[test]
    fn a_connection_closed_for_a_newcomer_is_not_greeted_after() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let limits = Limits {
            max_connections: 1,
            ..Limits::default()
        };
        let gate = Gate::new(Arc::default(), &limits, 0);
        let (_a, first) = accepted(&listener);
        let (first_id, _c1) = gate.admit(&first, &limits).unwrap();
        let (_b, second) = accepted(&listener);
        assert!(gate.admit(&second, &limits).is_some());
        let r = gate.greet(first_id, &limits, |_| Ok(()));
        assert!(r.is_err_and(|r| r.close));
    }
}
