//! Who a web server answers. A browser visiting another site still reaches
//! loopback: a page of `evil.example` may open a WebSocket to
//! `ws://127.0.0.1:8080/ws`, a sandboxed frame or a file sends
//! `Origin: null`, and DNS rebinding makes `rebind.example` resolve to
//! 127.0.0.1 so that even the page's own requests carry a foreign `Host`.
//! So every request must name the server by an address that cannot be
//! rebound (an IP literal or `localhost`) or by a name the user allowed
//! (`--allow-origin`), on the listening port; a WebSocket must come from
//! such an origin too. And each client address may hold only so many
//! connections, so that no one client can lock the others out.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// At most this many connections (page loads and sockets) at once.
pub const MAX_CONNECTIONS: usize = 256;
/// At most this many of them from one client address (a browser opens a
/// few at a time for a page and keeps one socket per tab).
pub const MAX_PER_ADDRESS: usize = 32;

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
                    crate::front::net::clean(a)
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
                crate::front::net::clean(h)
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
                crate::front::net::clean(o)
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

/// Connections held, in all and per client address.
#[derive(Clone, Default)]
pub struct Slots {
    inner: Arc<Mutex<(usize, HashMap<IpAddr, usize>)>>,
}

/// One held slot; it is given back when dropped.
pub struct Slot {
    slots: Slots,
    ip: IpAddr,
}

impl Slots {
    /// Takes a slot for a connection from `ip`, or says why not.
    pub fn take(&self, ip: IpAddr) -> Result<Slot, String> {
        let mut g = super::lock(&self.inner);
        let (total, per) = &mut *g;
        let mine = per.get(&ip).copied().unwrap_or(0);
        if mine >= MAX_PER_ADDRESS {
            return Err(format!(
                "too many connections from your address (at most {MAX_PER_ADDRESS})"
            ));
        }
        if *total >= MAX_CONNECTIONS {
            return Err(format!("too many connections (at most {MAX_CONNECTIONS})"));
        }
        *total += 1;
        per.insert(ip, mine + 1);
        Ok(Slot {
            slots: self.clone(),
            ip,
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut g = super::lock(&self.slots.inner);
        let (total, per) = &mut *g;
        *total -= 1;
        if let Some(n) = per.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                per.remove(&self.ip);
            }
        }
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

    #[test]
    fn slots_are_bounded_per_address_and_given_back() {
        let s = Slots::default();
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let b: IpAddr = "127.0.0.2".parse().unwrap();
        let held: Vec<Slot> = (0..MAX_PER_ADDRESS).map(|_| s.take(a).unwrap()).collect();
        assert!(s.take(a).err().unwrap().contains("your address"));
        let other = s.take(b).unwrap();
        drop(held);
        assert!(s.take(a).is_ok());
        drop(other);
        assert_eq!(super::super::lock(&s.inner).0, 0);
    }
}
