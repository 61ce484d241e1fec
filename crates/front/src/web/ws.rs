//! One WebSocket connection, run as a loop: text messages from the page go
//! to a handler, and lines that other threads queue go out to the page.
//! Reads wait at most a moment so that queued lines go out promptly. The
//! loop tells the connection's slot ([`super::guard::SocketSlot`], set for
//! the thread by [`with_slot`]) when the page sends a data message, closes
//! the socket with a reason when the slot was given to a newcomer, and
//! closes a socket whose page has sent no message for
//! [`SOCKET_IDLE_LIMIT`] (pongs do not count).

use std::cell::RefCell;

use std::io::ErrorKind;
use std::net::TcpStream;
use std::sync::mpsc::{Receiver, TryRecvError};
use std::time::{Duration, Instant};

use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::protocol::CloseFrame;
use tungstenite::{Error, Message, WebSocket};

use super::guard::{SocketSlot, SOCKET_IDLE_LIMIT};

thread_local! {
    /// The slot of the connection this thread serves, while its socket runs.
    static SLOT: RefCell<Option<SocketSlot>> = const { RefCell::new(None) };
}

/// Runs `f` (a site's socket) with `slot` as this thread's socket slot.
pub(super) fn with_slot<R>(slot: SocketSlot, f: impl FnOnce() -> R) -> R {
    SLOT.with(|s| *s.borrow_mut() = Some(slot));
    let r = f();
    SLOT.with(|s| *s.borrow_mut() = None);
    r
}

/// How long a read waits before the queue is looked at again.
const POLL: Duration = Duration::from_millis(40);
/// How long a send may block on a page that reads nothing.
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// After this long without a frame from the page, it is pinged (a
/// browser answers a ping by itself, open tab or background tab).
const PING_AFTER: Duration = Duration::from_secs(20);
/// After this long without a frame, not even a pong, the connection is
/// dead or held by something that is not a page: it is closed.
const IDLE_LIMIT: Duration = Duration::from_secs(60);

/// An error message in the shape every page reads (`{"type":"error"}`).
pub fn error_json(message: &str) -> String {
    serde_json::json!({ "type": "error", "message": message }).to_string()
}

/// Runs the connection until the page closes it, the queue's senders are
/// all gone, or `on_text` returns `Err`. What `on_text` returns in `Ok` is
/// sent straight back.
pub fn run(
    ws: &mut WebSocket<TcpStream>,
    outgoing: &Receiver<String>,
    mut on_text: impl FnMut(String) -> Result<Option<String>, ()>,
) {
    let _ = ws.get_mut().set_read_timeout(Some(POLL));
    let _ = ws.get_mut().set_write_timeout(Some(WRITE_TIMEOUT));
    let slot = SLOT.with(|s| s.borrow().clone());
    let mut heard = Instant::now();
    let mut spoke = Instant::now();
    let mut pinged = false;
    let mut farewell = None;
    loop {
        if slot.as_ref().is_some_and(SocketSlot::closed) {
            farewell = Some((
                CloseCode::Again,
                "the server is full: this page was closed for a newcomer",
            ));
            break;
        }
        if spoke.elapsed() >= SOCKET_IDLE_LIMIT {
            farewell = Some((
                CloseCode::Policy,
                "no message from this page for a long while: the connection closes",
            ));
            break;
        }
        let read = ws.read();
        if let Ok(Message::Text(_) | Message::Binary(_)) = &read {
            spoke = Instant::now();
            if let Some(s) = &slot {
                s.heard();
            }
        }
        if read.is_ok() {
            heard = Instant::now();
            pinged = false;
        } else if heard.elapsed() >= IDLE_LIMIT {
            break;
        } else if !pinged && heard.elapsed() >= PING_AFTER {
            pinged = true;
            if ws.send(Message::Ping(Default::default())).is_err() {
                return;
            }
        }
        match read {
            Ok(Message::Text(t)) => match on_text(t.as_str().to_string()) {
                Ok(Some(reply)) => {
                    if ws.send(Message::text(reply)).is_err() {
                        return;
                    }
                }
                Ok(None) => {}
                Err(()) => break,
            },
            Ok(Message::Binary(_)) => {
                let reply = error_json("binary messages are not read: send JSON text");
                if ws.send(Message::text(reply)).is_err() {
                    break;
                }
            }
            Ok(_) => {}
            Err(Error::Io(e))
                if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(Error::Capacity(e)) => {
                let _ = ws.send(Message::text(error_json(&format!(
                    "message too large ({e}); the connection closes"
                ))));
                linger(ws.get_mut());
                break;
            }
            Err(_) => return,
        }
        loop {
            match outgoing.try_recv() {
                Ok(line) => {
                    if ws.send(Message::text(line)).is_err() {
                        return;
                    }
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    let _ = ws.close(None);
                    let _ = ws.flush();
                    return;
                }
            }
        }
    }
    let _ = ws.close(farewell.map(|(code, reason)| CloseFrame {
        code,
        reason: reason.into(),
    }));
    let _ = ws.flush();
}

/// How long, and how much, the rest of a refused message is read before
/// the connection closes.
const LINGER: Duration = Duration::from_secs(2);
const LINGER_BYTES: usize = 8 << 20;

/// Reads and drops what the page is still sending (the rest of a message
/// too large), for at most [`LINGER`]: a socket closed with unread data is
/// reset, and the page would lose the error sent just before.
fn linger(stream: &mut TcpStream) {
    use std::io::Read;
    let end = Instant::now() + LINGER;
    let mut buf = [0u8; 16 * 1024];
    let mut read = 0;
    let mut heard = Instant::now();
    let _ = stream.set_read_timeout(Some(POLL));
    while Instant::now() < end && read < LINGER_BYTES {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                read += n;
                heard = Instant::now();
            }
            // Quiet for a while: the page has sent all it meant to.
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                if heard.elapsed() > Duration::from_millis(500) {
                    break;
                }
            }
            Err(_) => break,
        }
    }
}
