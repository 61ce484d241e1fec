//! `sandtable serve --web`: play by URL. Each browser's WebSocket is
//! relayed to a TCP connection of its own to the host on loopback, one JSON
//! message per WebSocket text message each way, so a browser is a client
//! like `join` under every rule and limit of the host. On the way to the
//! browser, `state` messages gain the board parts the page draws (the SVG,
//! clickable moves, buttons, the question), made from that message's own
//! view: nothing the seat does not already know.

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};

use tungstenite::WebSocket;

use super::{frame, lock, ws, Site};
use crate::engine::Engine;
use crate::net::{Relayed, MAX_LINE};

/// The play-by-URL site: where the host listens, and the rules (to draw).
pub struct RelaySite {
    host: SocketAddr,
    engine: Mutex<Engine>,
    info: String,
    /// Where each connection to the host is recorded as its browser's.
    relayed: Arc<Relayed>,
}

impl RelaySite {
    /// A site relaying to the TCP host at `host`; `engine` is the game's
    /// (loaded apart, to draw views); `relayed` is the host's
    /// ([`crate::net::Server::relayed`]), so that it counts each
    /// browser by the browser's address.
    pub fn new(host: SocketAddr, engine: Engine, relayed: Arc<Relayed>) -> RelaySite {
        let info = serde_json::json!({
            "variant": engine.variant.name,
            "players": engine.variant.players,
        })
        .to_string();
        RelaySite {
            host,
            engine: Mutex::new(engine),
            info,
            relayed,
        }
    }
}

/// Checks one message from a browser before it goes to the host as a line.
pub fn checked_line(text: &str) -> Result<String, String> {
    if text.len() > MAX_LINE {
        return Err(format!("message longer than {MAX_LINE} bytes"));
    }
    if text.contains(['\n', '\r']) {
        return Err("one JSON message per WebSocket message, without line breaks".into());
    }
    Ok(format!("{text}\n"))
}

impl Site for RelaySite {
    fn page(&self) -> std::borrow::Cow<'static, str> {
        super::assets::PLAY_PAGE.into()
    }

    fn json(&self, path: &str) -> Option<String> {
        (path == "info.json").then(|| self.info.clone())
    }

    fn socket(&self, mut socket: WebSocket<TcpStream>) {
        let browser = socket.get_ref().peer_addr().map(|a| a.ip());
        let connected = browser.and_then(|ip| self.relayed.connect(self.host, ip));
        let Ok((mut to_host, _recorded)) = connected else {
            let _ = socket.send(tungstenite::Message::text(ws::error_json(
                "the game host is not reachable",
            )));
            let _ = socket.close(None);
            return;
        };
        let Ok(from_host) = to_host.try_clone() else {
            return;
        };
        let (tx, rx) = channel::<String>();
        let reader_tx = tx.clone();
        let engine = &self.engine;
        std::thread::scope(|scope| {
            scope.spawn(move || {
                let mut seen = frame::Relayed::default();
                for line in BufReader::new(from_host).lines() {
                    let Ok(line) = line else { break };
                    let out = frame::augment(&lock(engine), &line, &mut seen);
                    if reader_tx.send(out).is_err() {
                        break;
                    }
                }
            });
            // Only the reader holds a sender: when the host closes, the
            // socket sees the end.
            drop(tx);
            ws::run(&mut socket, &rx, |text| match checked_line(&text) {
                Ok(l) => to_host
                    .write_all(l.as_bytes())
                    .map(|()| None)
                    .map_err(|_| ()),
                Err(e) => Ok(Some(ws::error_json(&e))),
            });
            let _ = to_host.shutdown(std::net::Shutdown::Both);
        });
    }
}

/// Serves play by URL on `bind:port` for the TCP host listening at `host`
/// (an unspecified address is reached on loopback), recording its
/// connections in the host's `relayed`.
pub fn start(
    bind: &str,
    port: u16,
    host: SocketAddr,
    relayed: Arc<Relayed>,
    variant: &str,
    overrides: &[(String, String)],
    allow: &[String],
) -> Result<super::WebServer, String> {
    let engine = Engine::load(variant, overrides).map_err(|e| e.to_string())?;
    let mut host = host;
    if host.ip().is_unspecified() {
        host.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
    }
    let site = Arc::new(RelaySite::new(host, engine, relayed));
    super::WebServer::start(&format!("{bind}:{port}"), site, allow)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_browser_message_is_one_bounded_line() {
        assert_eq!(
            checked_line(r#"{"type":"bye"}"#).unwrap(),
            "{\"type\":\"bye\"}\n"
        );
        let two = "{\"type\":\"chat\",\"text\":\"a\"}\n{\"type\":\"bye\"}";
        assert!(checked_line(two).unwrap_err().contains("line breaks"));
        assert!(checked_line(&"x".repeat(MAX_LINE + 1))
            .unwrap_err()
            .contains("longer"));
    }
}
