//! The board in a browser. One small HTTP/1.1 server ([`WebServer`]) serves
//! a page and its bundled files ([`assets`]) and upgrades `/ws` to a
//! WebSocket; what the socket does is the [`Site`]'s:
//!
//! - [`desk::DeskSite`] (`sandtable web`): one REPL session, with the board
//!   as SVG, clicks for moves, history, live reload and a console;
//! - [`relay::RelaySite`] (`sandtable serve --web`): each browser gets a TCP
//!   connection to the host on loopback and speaks the protocol of
//!   docs/protocol.md, so browsers and `join` clients share one game and
//!   every rule of the host applies to both.

pub mod assets;
pub mod desk;
pub mod editor;
pub mod frame;
pub mod guard;
pub mod http;
pub mod relay;
mod ws;

use std::borrow::Cow;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;

use tungstenite::WebSocket;

use guard::{Guard, Slot, Slots};
pub use guard::{
    IDLE_AFTER, MAX_CONNECTIONS, MAX_HALF_OPEN, MAX_IDLE_SOCKETS, MAX_PER_ADDRESS,
    SOCKET_IDLE_LIMIT,
};

/// What a web server serves besides the bundled files.
pub trait Site: Send + Sync + 'static {
    /// The HTML at `/`.
    fn page(&self) -> Cow<'static, str>;
    /// Whether a WebSocket request (its origin already checked) may
    /// connect: `Err` says why not.
    fn admit(&self, _req: &http::Request) -> Result<(), String> {
        Ok(())
    }
    /// A JSON document at `/PATH`, if the site has one there.
    fn json(&self, _path: &str) -> Option<String> {
        None
    }
    /// The longest message a page may send on its socket.
    fn max_message(&self) -> usize {
        http::MAX_MESSAGE
    }
    /// Runs one WebSocket at `/ws` until it closes.
    fn socket(&self, ws: WebSocket<TcpStream>);
}

/// A running web server (it stops with the process).
pub struct WebServer {
    pub addr: SocketAddr,
}

impl WebServer {
    /// Listens on `addr` (`127.0.0.1:8080`) and serves `site`, one thread
    /// per connection, to requests that name it by an IP address,
    /// `localhost` or one of the names in `allow` (see [`guard`]).
    pub fn start(addr: &str, site: Arc<dyn Site>, allow: &[String]) -> Result<WebServer, String> {
        let listener =
            TcpListener::bind(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let guard = Arc::new(Guard::new(addr.port(), allow)?);
        let slots = Slots::default();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let Ok(peer) = stream.peer_addr() else {
                    continue;
                };
                let slot = match slots.take(peer.ip(), Some(&stream)) {
                    Ok(s) => s,
                    Err(message) => {
                        // Answered on a thread of its own: a client that
                        // reads nothing must not hold up the accept loop.
                        std::thread::spawn(move || {
                            let _ =
                                stream.set_write_timeout(Some(std::time::Duration::from_secs(2)));
                            http::respond_error(
                                &mut stream,
                                &http::BadRequest {
                                    status: 503,
                                    message,
                                },
                            );
                        });
                        continue;
                    }
                };
                let (site, guard) = (site.clone(), guard.clone());
                std::thread::spawn(move || {
                    serve_one(site.as_ref(), &guard, stream, &slot);
                    drop(slot);
                });
            }
        });
        Ok(WebServer { addr })
    }
}

/// Answers one connection: a file, a JSON document, or a WebSocket.
fn serve_one(site: &dyn Site, guard: &Guard, mut stream: TcpStream, slot: &Slot) {
    let req = match http::read_request(&mut stream) {
        Ok(r) => r,
        Err(_) if slot.closed() => return,
        Err(e) => return http::respond_error(&mut stream, &e),
    };
    slot.answering();
    let not = |status: u16, message: String| http::BadRequest { status, message };
    if let Err(e) = guard.check_host(req.host.as_deref()) {
        return http::respond_error(&mut stream, &not(403, e));
    }
    if req.method != "GET" {
        let e = not(405, format!("{} is not served here: only GET", req.method));
        return http::respond_error(&mut stream, &e);
    }
    if let Some(key) = &req.ws_key {
        if req.path != "/ws" {
            return http::respond_error(&mut stream, &not(404, "the WebSocket is at /ws".into()));
        }
        if let Err(e) = guard
            .check_origin(req.origin.as_deref())
            .and_then(|()| site.admit(&req))
        {
            return http::respond_error(&mut stream, &not(403, e));
        }
        let _ = stream.set_read_timeout(None);
        if let Ok(ws) = http::accept_websocket(stream, key, site.max_message()) {
            slot.socket();
            // The socket's loop (`ws::run`, on this thread) tells the slot
            // of the page's messages and hears when it is closed for a
            // newcomer.
            ws::with_slot(slot.watch(), || site.socket(ws));
        }
        return;
    }
    let html = "text/html; charset=utf-8";
    match req.path.as_str() {
        "/" | "/index.html" => http::respond(&mut stream, 200, html, site.page().as_bytes()),
        p => {
            let name = p.trim_start_matches('/');
            if let Some((kind, body)) = name.strip_prefix("assets/").and_then(assets::asset) {
                http::respond(&mut stream, 200, kind, body.as_bytes());
            } else if let Some(doc) = site.json(name) {
                http::respond(&mut stream, 200, "application/json", doc.as_bytes());
            } else {
                let e = not(404, format!("nothing at {p}"));
                http::respond_error(&mut stream, &e);
            }
        }
    }
}

/// Locks a mutex, carrying on after a panic elsewhere (the data stays
/// consistent: every change under these locks is whole or not made).
pub(crate) fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}
