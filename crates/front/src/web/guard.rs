//! Who a web server answers. A browser visiting another site still reaches
//! loopback: a page of `evil.example` may open a WebSocket to
//! `ws://127.0.0.1:8080/ws`, a sandboxed frame or a file sends
//! `Origin: null`, and DNS rebinding makes `rebind.example` resolve to
//! 127.0.0.1 so that even the page's own requests carry a foreign `Host`.
//! So every request must name the server by an address that cannot be
//! rebound (an IP literal or `localhost`) or by a name the user allowed
//! (`--allow-origin`), on the listening port; a WebSocket must come from
//! such an origin too.
//!
//! And no few clients may lock the others out ([`Slots`]): a server holds
//! at most [`MAX_CONNECTIONS`] connections, [`MAX_PER_ADDRESS`] from one
//! client address, [`MAX_HALF_OPEN`] whose request head is still coming
//! and [`MAX_IDLE_SOCKETS`] idle WebSockets (no data message from the page
//! for [`IDLE_AFTER`]; pongs do not count). Past a cap, a newcomer takes
//! the place of another connection, closed for it: an address at its own
//! cap, its own oldest half-open one; otherwise, from the address holding
//! the most connections (more than the newcomer's own), its oldest
//! half-open connection, else its longest idle socket, else (only when the
//! server is full) its socket longest without a message, so that a page in
//! use goes last. A closed socket is told why (close code 1013, try again
//! later). When no address holds more than the newcomer's, it is answered
//! 503 at once. A socket whose page sends no message for
//! [`SOCKET_IDLE_LIMIT`] is closed even when nobody waits (the pages of
//! `serve --web` take a seat back by its token, and the session page
//! reconnects by itself).

use std::collections::HashMap;
use std::net::{IpAddr, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// At most this many connections (page loads and sockets) at once.
pub const MAX_CONNECTIONS: usize = 256;
/// At most this many of them from one client address (a browser opens a
/// few at a time for a page and keeps one socket per tab).
pub const MAX_PER_ADDRESS: usize = 32;
/// At most this many connections whose request head has not all come yet.
pub const MAX_HALF_OPEN: usize = 64;
/// A socket whose page has sent no message for this long is idle (it may
/// still answer pings).
pub const IDLE_AFTER: Duration = Duration::from_secs(60);
/// At most this many idle sockets: past that, a newcomer closes one.
pub const MAX_IDLE_SOCKETS: usize = 128;
/// A socket whose page has sent no message for this long is closed,
/// pongs or not.
pub const SOCKET_IDLE_LIMIT: Duration = Duration::from_secs(15 * 60);

/// The names a server answers to, besides IP literals and `localhost`.
#[derive(Clone, Debug, Default)]
pub struct Guard {
    port: u16,
    /// Allowed names, lower case, each with the port it must come with
    /// (none: the listening port).
    allowed: Vec<(String, Option<u16>)>,
}

impl Guard {
    /// A guard for a server listening on `port`, also answering to the
    /// names in `allow` (`host`, `host:port` or an origin such as
    /// `https://game.example`).
    pub fn new(port: u16, allow: &[String]) -> Result<Guard, String> {
        let mut allowed = Vec::new();
        for a in allow {
            let bad = || {
                format!(
                    "--allow-origin `{}`: expected a host name, HOST:PORT or an origin such as http://HOST:PORT",
                    crate::net::clean(a)
                )
            };
            let (scheme, rest) = match a.split_once("://") {
                Some((s, r)) => (Some(s.to_ascii_lowercase()), r),
                None => (None, a.as_str()),
            };
            let rest = rest.trim_end_matches('/');
            let (host, port) = split_authority(rest).ok_or_else(bad)?;
            if host.is_empty()
                || !host
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-._[]:".contains(c))
            {
                return Err(bad());
            }
            let port = match (port, scheme.as_deref()) {
                (Some(p), _) => Some(p),
                (None, Some("https")) => Some(443),
                (None, Some("http")) => Some(80),
                (None, Some(_)) => return Err(bad()),
                (None, None) => None,
            };
            allowed.push((host.to_ascii_lowercase(), port));
        }
        Ok(Guard { port, allowed })
    }

    /// Whether `authority` (a `Host` header, or an origin without its
    /// scheme) names this server.
    fn names_us(&self, authority: &str, default_port: u16) -> bool {
        let Some((host, port)) = split_authority(authority) else {
            return false;
        };
        let port = port.unwrap_or(default_port);
        let host = host.to_ascii_lowercase();
        let literal = host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<IpAddr>()
            .is_ok();
        if (literal || host == "localhost") && port == self.port {
            return true;
        }
        self.allowed
            .iter()
            .any(|(h, p)| *h == host && p.unwrap_or(self.port) == port)
    }

    /// Checks a request's `Host` header (a request without one, which no
    /// browser sends, passes: it cannot be a rebinding).
    pub fn check_host(&self, host: Option<&str>) -> Result<(), String> {
        match host {
            None => Ok(()),
            Some(h) if self.names_us(h, 80) => Ok(()),
            Some(h) => Err(format!(
                "this server answers only to its own address (an IP address or localhost, port {}), not to `{}`; start it with --allow-origin NAME to add a name",
                self.port,
                crate::net::clean(h)
            )),
        }
    }

    /// Checks a WebSocket's `Origin` header: a page of this server, or of
    /// an allowed name. `null` (a sandboxed frame, a file) is refused; a
    /// request without one comes from a program, not a page, and passes.
    pub fn check_origin(&self, origin: Option<&str>) -> Result<(), String> {
        let Some(o) = origin else { return Ok(()) };
        let ok = match o.split_once("://") {
            Some((scheme, rest)) if scheme.eq_ignore_ascii_case("http") => self.names_us(rest, 80),
            Some((scheme, rest)) if scheme.eq_ignore_ascii_case("https") => {
                self.names_us(rest, 443)
            }
            _ => false,
        };
        if ok {
            Ok(())
        } else {
            Err(format!(
                "a WebSocket from the origin `{}` is refused: only this server's own pages may connect",
                crate::net::clean(o)
            ))
        }
    }
}

/// Splits `host[:port]` (`[v6]:port` for IPv6); `None` when the port is
/// not a number.
fn split_authority(s: &str) -> Option<(&str, Option<u16>)> {
    let (host, port) = if let Some(rest) = s.strip_prefix('[') {
        let (inside, after) = rest.split_once(']')?;
        let port = match after.strip_prefix(':') {
            Some(p) => Some(p),
            None if after.is_empty() => None,
            None => return None,
        };
        (&s[..inside.len() + 2], port)
    } else {
        match s.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (s, None),
        }
    };
    let port = match port {
        Some(p) => Some(p.parse::<u16>().ok()?),
        None => None,
    };
    Some((host, port))
}

/// What a connection is doing, for the caps and for choosing whom to
/// close for a newcomer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Its request head has not all come yet (half-open).
    Head,
    /// Being answered (a file, a document): over soon, never closed.
    Answer,
    /// A WebSocket, with when its page last sent a data message (or when
    /// it opened).
    Socket(Instant),
}

/// Whom a newcomer may close, in order: half-open connections, idle
/// sockets, then sockets in use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tier {
    Head,
    Idle,
    InUse,
}

struct Held {
    id: u64,
    ip: IpAddr,
    since: Instant,
    phase: Phase,
    /// To close a half-open connection.
    stream: Option<TcpStream>,
    /// Set when the connection was closed for a newcomer (a socket sees
    /// it and closes itself with a reason).
    closed: Arc<AtomicBool>,
}

impl Held {
    fn tier(&self, now: Instant) -> Option<Tier> {
        match self.phase {
            Phase::Head => Some(Tier::Head),
            Phase::Answer => None,
            Phase::Socket(heard) if now.duration_since(heard) >= IDLE_AFTER => Some(Tier::Idle),
            Phase::Socket(_) => Some(Tier::InUse),
        }
    }

    /// Which of one address's connections of a tier goes first: the
    /// oldest half-open, the longest idle socket.
    fn age(&self) -> Instant {
        match self.phase {
            Phase::Socket(heard) => heard,
            _ => self.since,
        }
    }
}

#[derive(Default)]
struct Table {
    next: u64,
    held: Vec<Held>,
}

/// The connections a server holds, in all and per client address, and
/// whom a newcomer may close: see the module's caps
/// ([`MAX_CONNECTIONS`], [`MAX_PER_ADDRESS`], [`MAX_HALF_OPEN`],
/// [`MAX_IDLE_SOCKETS`]).
#[derive(Clone, Default)]
pub struct Slots {
    inner: Arc<Mutex<Table>>,
}

/// One held slot; it is given back when dropped.
pub struct Slot {
    slots: Slots,
    id: u64,
    closed: Arc<AtomicBool>,
}

impl Slots {
    /// Takes a slot for a connection from `ip` (`stream`: to close it if
    /// a newcomer needs its place while its head is still coming),
    /// closing another connection for it if the caps say so, or says why
    /// not.
    pub fn take(&self, ip: IpAddr, stream: Option<&TcpStream>) -> Result<Slot, String> {
        self.take_at(ip, stream, Instant::now())
    }

    fn take_at(
        &self,
        ip: IpAddr,
        stream: Option<&TcpStream>,
        now: Instant,
    ) -> Result<Slot, String> {
        let mut g = super::lock(&self.inner);
        let held = &mut g.held;
        let count = |held: &[Held], f: &dyn Fn(&Held) -> bool| held.iter().filter(|h| f(h)).count();
        if count(held, &|h| h.ip == ip) >= MAX_PER_ADDRESS {
            // Its own oldest half-open connection, else nothing.
            let own = held
                .iter()
                .enumerate()
                .filter(|(_, h)| h.ip == ip && h.phase == Phase::Head)
                .min_by_key(|(_, h)| h.since)
                .map(|(i, _)| i);
            match own {
                Some(i) => close(held, i),
                None => {
                    return Err(format!(
                        "too many connections from your address (at most {MAX_PER_ADDRESS})"
                    ))
                }
            }
        }
        if count(held, &|h| h.phase == Phase::Head) >= MAX_HALF_OPEN {
            match victim(held, ip, &[Tier::Head], now) {
                Some(i) => close(held, i),
                None => {
                    return Err(format!(
                        "too many requests still coming in (at most {MAX_HALF_OPEN})"
                    ))
                }
            }
        }
        if count(held, &|h| h.tier(now) == Some(Tier::Idle)) >= MAX_IDLE_SOCKETS {
            if let Some(i) = victim(held, ip, &[Tier::Idle], now) {
                close(held, i);
            }
        }
        if held.len() >= MAX_CONNECTIONS {
            match victim(held, ip, &[Tier::Head, Tier::Idle, Tier::InUse], now) {
                Some(i) => close(held, i),
                None => return Err(format!("too many connections (at most {MAX_CONNECTIONS})")),
            }
        }
        g.next += 1;
        let (id, closed) = (g.next, Arc::new(AtomicBool::new(false)));
        g.held.push(Held {
            id,
            ip,
            since: now,
            phase: Phase::Head,
            stream: stream.and_then(|s| s.try_clone().ok()),
            closed: closed.clone(),
        });
        Ok(Slot {
            slots: self.clone(),
            id,
            closed,
        })
    }

    fn set(&self, id: u64, phase: Phase) {
        let mut g = super::lock(&self.inner);
        if let Some(h) = g.held.iter_mut().find(|h| h.id == id) {
            h.phase = phase;
            if phase != Phase::Head {
                h.stream = None;
            }
        }
    }
}

/// The connection a newcomer from `ip` closes, from the first of `tiers`
/// that has one: of the addresses holding more connections than `ip`, the
/// busiest with a connection of that tier, and of its connections of that
/// tier the oldest half-open or the longest idle. `None`: nobody holds
/// more than the newcomer's address (it waits its turn like the rest).
fn victim(held: &[Held], ip: IpAddr, tiers: &[Tier], now: Instant) -> Option<usize> {
    let mut per: HashMap<IpAddr, usize> = HashMap::new();
    for h in held {
        *per.entry(h.ip).or_default() += 1;
    }
    let mine = per.get(&ip).copied().unwrap_or(0);
    tiers.iter().find_map(|&tier| {
        held.iter()
            .enumerate()
            .filter(|(_, h)| per[&h.ip] > mine && h.tier(now) == Some(tier))
            // The busiest address first, then the oldest of its.
            .min_by_key(|(_, h)| (std::cmp::Reverse(per[&h.ip]), h.age()))
            .map(|(i, _)| i)
    })
}

/// Closes connection `i` for a newcomer and gives its slot back now (a
/// half-open one is shut; a socket closes itself, with a reason).
fn close(held: &mut Vec<Held>, i: usize) {
    let h = held.swap_remove(i);
    h.closed.store(true, Ordering::SeqCst);
    if let Some(s) = h.stream {
        let _ = s.shutdown(std::net::Shutdown::Both);
    }
}

impl Slot {
    /// The request head has come: it is being answered.
    pub fn answering(&self) {
        self.slots.set(self.id, Phase::Answer);
    }

    /// The connection is a WebSocket now; it counts as heard from.
    pub fn socket(&self) {
        self.heard();
    }

    /// The page sent a data message.
    pub fn heard(&self) {
        self.slots.set(self.id, Phase::Socket(Instant::now()));
    }

    /// Whether the connection was closed for a newcomer.
    pub fn closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }

    /// A handle for the socket's loop.
    pub fn watch(&self) -> SocketSlot {
        SocketSlot {
            slots: self.slots.clone(),
            id: self.id,
            closed: self.closed.clone(),
        }
    }
}

/// What a socket's loop does with its slot: tells it when the page sends
/// a data message, and learns whether it was closed for a newcomer.
#[derive(Clone)]
pub struct SocketSlot {
    slots: Slots,
    id: u64,
    closed: Arc<AtomicBool>,
}

impl SocketSlot {
    /// The page sent a data message.
    pub fn heard(&self) {
        self.slots.set(self.id, Phase::Socket(Instant::now()));
    }

    /// Whether the connection was closed for a newcomer.
    pub fn closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut g = super::lock(&self.slots.inner);
        g.held.retain(|h| h.id != self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_must_name_the_server_by_an_unrebindable_address() {
        let g = Guard::new(8080, &[]).unwrap();
        for ok in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST:8080",
            "[::1]:8080",
            "10.1.2.3:8080",
        ] {
            assert!(g.check_host(Some(ok)).is_ok(), "{ok}");
        }
        assert!(g.check_host(None).is_ok());
        for bad in [
            "rebind.example:8080",
            "127.0.0.1:9090",
            "127.0.0.1",
            "localhost.evil:8080",
            "x:y",
            "[::1",
            "",
        ] {
            assert!(g.check_host(Some(bad)).is_err(), "{bad}");
        }
        let e = g.check_host(Some("rebind.example:8080")).unwrap_err();
        assert!(e.contains("--allow-origin"), "{e}");
    }

    #[test]
    fn origins_must_be_the_servers_own_or_allowed() {
        let g = Guard::new(8080, &["table.lan".into(), "https://game.example".into()]).unwrap();
        for ok in [
            "http://127.0.0.1:8080",
            "http://localhost:8080",
            "http://table.lan:8080",
            "https://game.example",
        ] {
            assert!(g.check_origin(Some(ok)).is_ok(), "{ok}");
        }
        assert!(g.check_origin(None).is_ok());
        for bad in [
            "null",
            "http://evil.example",
            "http://evil.example:8080",
            "http://127.0.0.1:9999",
            "file://",
            "http://game.example",
            "http://table.lan:9999",
        ] {
            assert!(g.check_origin(Some(bad)).is_err(), "{bad}");
        }
        assert!(g.check_host(Some("table.lan:8080")).is_ok());
        assert!(Guard::new(1, &["ftp://x".into()]).is_err());
        assert!(Guard::new(1, &["a b".into()]).is_err());
        assert!(Guard::new(1, &["h:notaport".into()]).is_err());
    }

    fn ip(last: u8) -> IpAddr {
        IpAddr::from([127, 0, 0, last])
    }

    fn held(s: &Slots) -> usize {
        super::super::lock(&s.inner).held.len()
    }

    #[test]
    fn slots_are_bounded_per_address_and_given_back() {
        let s = Slots::default();
        let (a, b) = (ip(1), ip(2));
        let sockets: Vec<Slot> = (0..MAX_PER_ADDRESS)
            .map(|_| {
                let slot = s.take(a, None).unwrap();
                slot.socket();
                slot
            })
            .collect();
        assert!(s.take(a, None).err().unwrap().contains("your address"));
        let other = s.take(b, None).unwrap();
        drop(sockets);
        // An address at its cap closes its own oldest half-open one.
        let heads: Vec<Slot> = (0..MAX_PER_ADDRESS)
            .map(|_| s.take(a, None).unwrap())
            .collect();
        let next = s.take(a, None).unwrap();
        assert!(heads[0].closed() && !heads[1].closed() && !next.closed());
        drop((heads, next, other));
        assert_eq!(held(&s), 0);
    }

    #[test]
    fn half_open_connections_of_the_busiest_address_make_room() {
        let s = Slots::default();
        // Ten addresses hold all the half-open room (the first the most).
        let mut heads = Vec::new();
        for i in 0..MAX_HALF_OPEN {
            heads.push(s.take(ip(10 + (i % 10) as u8), None).unwrap());
        }
        // A newcomer from an eleventh closes the busiest's oldest.
        let page = s.take(ip(99), None).unwrap();
        assert!(heads[0].closed(), "the busiest address's oldest");
        assert_eq!(heads.iter().filter(|h| h.closed()).count(), 1);
        // One of the ten, holding as many as the busiest, waits its turn.
        let e = s.take(ip(12), None).err().unwrap();
        assert!(e.contains("still coming in"), "{e}");
        assert!(!page.closed());
    }

    #[test]
    fn a_full_server_closes_idle_sockets_before_sockets_in_use_and_never_answers() {
        let s = Slots::default();
        let now = Instant::now() + 2 * IDLE_AFTER;
        // The whole server: ten addresses' sockets, address 10 the busiest;
        // its sockets in use, and one idle socket of address 11's.
        let set = |slot: &Slot, when: Instant| s.set(slot.id, Phase::Socket(when));
        let mut held = Vec::new();
        for i in 0..MAX_CONNECTIONS {
            let from = if i < 30 { 10 } else { 11 + (i % 9) as u8 };
            let slot = s.take_at(ip(from), None, now).unwrap();
            // Every socket in use (heard just now) ...
            set(&slot, now);
            held.push((from, slot));
        }
        // ... but for two idle ones of address 11, one idle longer.
        let idle: Vec<&Slot> = held
            .iter()
            .filter(|(f, _)| *f == 11)
            .map(|(_, s)| s)
            .take(2)
            .collect();
        set(idle[0], now - IDLE_AFTER);
        set(idle[1], now - 2 * IDLE_AFTER);
        // A newcomer closes the longest idle socket, though address 10 is
        // busier: an idle page goes before a page in use.
        let a = s.take_at(ip(99), None, now).unwrap();
        assert!(idle[1].closed() && !idle[0].closed());
        let b = s.take_at(ip(99), None, now).unwrap();
        assert!(idle[0].closed());
        // Then, only sockets in use left: the busiest address's longest
        // without a message.
        let busiest: Vec<&Slot> = held
            .iter()
            .filter(|(f, _)| *f == 10)
            .map(|(_, s)| s)
            .collect();
        set(busiest[5], now - Duration::from_secs(5));
        let c = s.take_at(ip(99), None, now).unwrap();
        assert!(busiest[5].closed());
        assert_eq!(held.iter().filter(|(_, s)| s.closed()).count(), 3);
        // Connections being answered are never closed: a server full of
        // them answers 503.
        drop((held, a, b, c));
        let answering: Vec<Slot> = (0..MAX_CONNECTIONS)
            .map(|i| {
                let slot = s.take(ip((i % 8) as u8 + 1), None).unwrap();
                slot.answering();
                slot
            })
            .collect();
        let e = s.take(ip(99), None).err().unwrap();
        assert!(e.contains("too many connections"), "{e}");
        assert!(answering.iter().all(|a| !a.closed()));
    }

    #[test]
    fn idle_sockets_past_their_cap_make_room_for_a_newcomer() {
        let s = Slots::default();
        let now = Instant::now() + 2 * IDLE_AFTER;
        let idle: Vec<Slot> = (0..MAX_IDLE_SOCKETS)
            .map(|i| {
                let slot = s.take_at(ip((i % 4) as u8 + 1), None, now).unwrap();
                s.set(
                    slot.id,
                    Phase::Socket(now - IDLE_AFTER - Duration::from_secs(i as u64)),
                );
                slot
            })
            .collect();
        // Far from full, but a newcomer closes the longest idle of the
        // busiest (all tie: the longest idle of all).
        let _page = s.take_at(ip(99), None, now).unwrap();
        let closed: Vec<usize> = (0..idle.len()).filter(|&i| idle[i].closed()).collect();
        assert_eq!(closed, vec![MAX_IDLE_SOCKETS - 1]);
    }
}
