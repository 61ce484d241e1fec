//! Which browser each of `serve --web`'s relayed connections stands for.
//! The web front relays every browser through a TCP connection of its own
//! to the host on loopback, so to the host every browser would come from
//! 127.0.0.1, and one crowded address would share the per-address caps of
//! all. The relay runs in the host's own process: before it connects, it
//! says so here, and once connected it records its connection's local
//! address (unique while the connection is open) with the browser's
//! address. The host's gate looks a peer up by that socket address; a
//! peer not recorded here is counted by its own address. Nothing a client
//! sends is taken for its address.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr, TcpStream};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long the gate waits for a relay's record of a loopback connection
/// while a relay is connecting (it is recorded right after `connect`).
const RECORD_WAIT: Duration = Duration::from_secs(1);

/// The relay's connections by their local address, and the browsers'
/// addresses.
#[derive(Default)]
pub struct Relayed {
    inner: Mutex<State>,
    changed: Condvar,
}

#[derive(Default)]
struct State {
    by_local: HashMap<SocketAddr, IpAddr>,
    /// Relays between `connect` and their record.
    connecting: usize,
}

/// A relayed connection's record; dropped when the connection ends.
pub struct Recorded {
    relayed: Arc<Relayed>,
    local: Option<SocketAddr>,
}

impl Drop for Recorded {
    fn drop(&mut self) {
        if let Some(local) = self.local {
            self.relayed.state().by_local.remove(&local);
        }
    }
}

impl Relayed {
    fn state(&self) -> MutexGuard<'_, State> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Connects to the host at `host` for a browser at `browser`, and
    /// records the connection as that browser's until the record is
    /// dropped.
    pub fn connect(
        self: &Arc<Self>,
        host: SocketAddr,
        browser: IpAddr,
    ) -> std::io::Result<(TcpStream, Recorded)> {
        self.state().connecting += 1;
        let stream = TcpStream::connect(host);
        let local = stream.as_ref().ok().and_then(|s| s.local_addr().ok());
        {
            let mut g = self.state();
            g.connecting -= 1;
            if let Some(l) = local {
                g.by_local.insert(l, browser);
            }
        }
        self.changed.notify_all();
        let recorded = Recorded {
            relayed: self.clone(),
            local,
        };
        Ok((stream?, recorded))
    }

    /// The address a connection from `peer` is counted by: the browser's
    /// when it is a relayed connection, else the peer's own.
    pub(super) fn address_of(&self, peer: SocketAddr) -> IpAddr {
        let end = Instant::now() + RECORD_WAIT;
        let mut g = self.state();
        loop {
            if let Some(ip) = g.by_local.get(&peer) {
                return *ip;
            }
            let left = end.saturating_duration_since(Instant::now());
            if !peer.ip().is_loopback() || g.connecting == 0 || left.is_zero() {
                return peer.ip();
            }
            g = self
                .changed
                .wait_timeout(g, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_relayed_connection_counts_as_its_browser_until_it_ends() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let relayed = Arc::new(Relayed::default());
        let browser: IpAddr = "192.0.2.7".parse().unwrap();
        let (_s, recorded) = relayed
            .connect(listener.local_addr().unwrap(), browser)
            .unwrap();
        let (_accepted, peer) = listener.accept().unwrap();
        assert_eq!(relayed.address_of(peer), browser);
        // Another loopback connection counts as loopback.
        let _other = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (_a, other_peer) = listener.accept().unwrap();
        assert_eq!(relayed.address_of(other_peer), other_peer.ip());
        drop(recorded);
        assert_eq!(relayed.address_of(peer), peer.ip());
    }
}
