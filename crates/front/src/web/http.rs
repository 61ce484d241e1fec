//! Just enough HTTP/1.1 for the web front: read one bounded request head,
//! answer it with a whole response and close, or turn the connection into a
//! WebSocket (RFC 6455 handshake; the framing is tungstenite's).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use tungstenite::protocol::{Role, WebSocketConfig};
use tungstenite::WebSocket;

/// The longest request head we read, in bytes.
pub const MAX_HEAD: usize = 8 * 1024;
/// The most headers a request may have.
const MAX_HEADERS: usize = 32;
/// The longest WebSocket message a page may send (as the TCP host's line).
pub const MAX_MESSAGE: usize = crate::net::MAX_LINE;
/// How long a client may take to send its request head.
const HEAD_TIMEOUT: Duration = Duration::from_secs(10);

/// A request head: what the routes need of it.
#[derive(Debug, PartialEq, Eq)]
pub struct Request {
    pub method: String,
    /// The path without its query string.
    pub path: String,
    /// The query string (after `?`, without it; empty when none).
    pub query: String,
    /// The `Host` header, when there is one.
    pub host: Option<String>,
    /// The `Origin` header, when there is one.
    pub origin: Option<String>,
    /// `Sec-WebSocket-Key`, when the request asks for a WebSocket.
    pub ws_key: Option<String>,
}

impl Request {
    /// The value of `name` in the query string (`a=1&b=2`), undecoded.
    pub fn query_value(&self, name: &str) -> Option<&str> {
        self.query
            .split('&')
            .filter_map(|kv| kv.split_once('='))
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v)
    }
}

/// Why a request head could not be read; the status to answer with.
#[derive(Debug, PartialEq, Eq)]
pub struct BadRequest {
    pub status: u16,
    pub message: String,
}

fn bad(status: u16, message: &str) -> BadRequest {
    BadRequest {
        status,
        message: message.to_string(),
    }
}

/// Parses a complete request head (`buf` ends at or after its blank line).
/// `Ok(None)`: the head is not complete yet.
pub fn parse_head(buf: &[u8]) -> Result<Option<Request>, BadRequest> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut req = httparse::Request::new(&mut headers);
    match req.parse(buf) {
        Ok(httparse::Status::Partial) => Ok(None),
        Err(httparse::Error::TooManyHeaders) => Err(bad(431, "too many headers")),
        Err(e) => Err(bad(400, &format!("malformed request: {e}"))),
        Ok(httparse::Status::Complete(_)) => {
            let method = req.method.unwrap_or_default().to_string();
            let target = req.path.unwrap_or("/");
            let target = target.split('#').next().unwrap_or("/");
            let (path, query) = target.split_once('?').unwrap_or((target, ""));
            let (path, query) = (path.to_string(), query.to_string());
            let header = |name: &str| {
                req.headers
                    .iter()
                    .find(|h| h.name.eq_ignore_ascii_case(name))
                    .and_then(|h| std::str::from_utf8(h.value).ok())
                    .map(str::trim)
            };
            let upgrade = header("upgrade").is_some_and(|u| u.eq_ignore_ascii_case("websocket"));
            let ws_key = match (upgrade, header("sec-websocket-key")) {
                (true, Some(k)) if !k.is_empty() => Some(k.to_string()),
                (true, _) => return Err(bad(400, "a WebSocket request needs Sec-WebSocket-Key")),
                _ => None,
            };
            Ok(Some(Request {
                method,
                path,
                query,
                host: header("host").map(str::to_string),
                origin: header("origin").map(str::to_string),
                ws_key,
            }))
        }
    }
}

/// Reads one request head from the stream, at most [`MAX_HEAD`] bytes and
/// `HEAD_TIMEOUT` long.
pub fn read_request(stream: &mut TcpStream) -> Result<Request, BadRequest> {
    // One deadline for the whole head: a client trickling a byte at a time
    // does not keep a thread past it.
    let deadline = std::time::Instant::now() + HEAD_TIMEOUT;
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 1024];
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            return Err(bad(408, "the request did not come in time"));
        }
        let _ = stream.set_read_timeout(Some(left));
        let n = stream
            .read(&mut chunk)
            .map_err(|_| bad(408, "the request did not come in time"))?;
        if n == 0 {
            return Err(bad(400, "the connection closed before the request ended"));
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(r) = parse_head(&buf)? {
            return Ok(r);
        }
        if buf.len() > MAX_HEAD {
            return Err(bad(431, "request head too large"));
        }
    }
}

/// Writes a whole response and closes the connection.
pub fn respond(stream: &mut TcpStream, status: u16, content_type: &str, body: &[u8]) {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Error",
    };
    let head = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nContent-Security-Policy: default-src 'self'; img-src 'self' data:; style-src 'self'; connect-src 'self'\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body);
    let _ = stream.flush();
    let _ = stream.shutdown(std::net::Shutdown::Write);
}

/// A plain-text error response.
pub fn respond_error(stream: &mut TcpStream, e: &BadRequest) {
    respond(
        stream,
        e.status,
        "text/plain; charset=utf-8",
        format!("{}\n", e.message).as_bytes(),
    );
}

/// Answers a WebSocket request and wraps the stream, with messages and
/// frames bounded by `max` bytes ([`MAX_MESSAGE`] unless the site says).
pub fn accept_websocket(
    mut stream: TcpStream,
    key: &str,
    max: usize,
) -> std::io::Result<WebSocket<TcpStream>> {
    let accept = tungstenite::handshake::derive_accept_key(key.as_bytes());
    let head = format!(
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: {accept}\r\n\r\n"
    );
    stream.write_all(head.as_bytes())?;
    let config = WebSocketConfig::default()
        .max_message_size(Some(max))
        .max_frame_size(Some(max));
    Ok(WebSocket::from_raw_socket(
        stream,
        Role::Server,
        Some(config),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_are_read_bounded_and_checked() {
        let r = parse_head(b"GET /app.js?x=1 HTTP/1.1\r\nHost: a\r\n\r\n")
            .unwrap()
            .unwrap();
        assert_eq!((r.method.as_str(), r.path.as_str()), ("GET", "/app.js"));
        assert_eq!((r.query_value("x"), r.query_value("y")), (Some("1"), None));
        assert_eq!((r.host.as_deref(), r.origin.as_deref()), (Some("a"), None));
        assert_eq!(r.ws_key, None);
        assert_eq!(parse_head(b"GET / HTTP/1.1\r\nHost: a\r\n").unwrap(), None);
        assert_eq!(
            parse_head(b"\x00\x01 nonsense\r\n\r\n").unwrap_err().status,
            400
        );
        let ws = parse_head(
            b"GET /ws HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
        )
        .unwrap()
        .unwrap();
        assert_eq!(ws.ws_key.as_deref(), Some("dGhlIHNhbXBsZSBub25jZQ=="));
        let no_key = parse_head(b"GET /ws HTTP/1.1\r\nUpgrade: websocket\r\n\r\n");
        assert_eq!(no_key.unwrap_err().status, 400);
        let many: String = (0..40).map(|i| format!("X-{i}: y\r\n")).collect();
        let r = parse_head(format!("GET / HTTP/1.1\r\n{many}\r\n").as_bytes());
        assert_eq!(r.unwrap_err().status, 431);
    }
}
