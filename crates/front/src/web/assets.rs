//! The page's files, compiled into the binary (no CDN, no build step):
//! served under `/assets/NAME`.

/// The session page (`sandtable web`).
pub const SESSION_PAGE: &str = include_str!("assets/session.html");
/// The play-by-URL page (`sandtable serve --web`).
pub const PLAY_PAGE: &str = include_str!("assets/play.html");

const FILES: &[(&str, &str)] = &[
    ("style.css", include_str!("assets/style.css")),
    ("board.js", include_str!("assets/board.js")),
    ("editor.js", include_str!("assets/editor.js")),
    ("session.js", include_str!("assets/session.js")),
    ("setup.js", include_str!("assets/setup.js")),
    ("play.js", include_str!("assets/play.js")),
];

/// A bundled file by name, with its content type.
pub fn asset(name: &str) -> Option<(&'static str, &'static str)> {
    let body = FILES.iter().find(|(n, _)| *n == name)?.1;
    let kind = match name.rsplit('.').next() {
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        _ => "text/plain; charset=utf-8",
    };
    Some((kind, body))
}
