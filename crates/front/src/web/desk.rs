//! `sandtable web`: one REPL session behind a page. Every page connected
//! sees the same session (its viewer, its history) and may run any REPL
//! command from its console; the page's clicks and buttons are the same
//! commands. With `watch` on, saving the variant's files reloads it and
//! every page gets the new board and the reload report.

use std::borrow::Cow;
use std::net::TcpStream;
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex, Weak};

use serde::Deserialize;
use tungstenite::WebSocket;

use super::editor::Editor;
use super::frame::{desk_frame, DeskExtras};
use super::http::Request;
use super::{lock, ws, Site};
use crate::base::write::Held;
use crate::session::{Flow, Session};
use crate::watch::Watch;

/// What a session page sends.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum PageMsg {
    /// A REPL line, as typed in the console.
    Command { line: String },
    /// An action, by its text (a click, a button).
    Act { text: String },
    /// Step through history: show the position before ply `ply` (none:
    /// the present).
    Goto { ply: Option<usize> },
    /// Send the frame again (the clocks run).
    Refresh,
    /// The rules summary (`rules`).
    Rules,
    /// The editor's files and completions.
    Files,
    /// A file's text, by its name relative to the variant's folder.
    Open { name: String },
    /// The problems of the variant's YAML if it held `text` (as you type).
    Check { name: String, text: String },
    /// Write a file and reload the game under it.
    Save { name: String, text: String },
    /// Write back a file's version before its last save, and reload.
    Restore { name: String },
}

/// The pages connected, and the last frame sent to them: a page that
/// connects while the session is busy (a script running, a reload
/// replaying the game) is sent that frame at once, without waiting for
/// the session.
#[derive(Default)]
struct Pages {
    last: String,
    senders: Vec<Sender<String>>,
}

struct Desk {
    session: Session,
    /// Locked after the desk when both are (never the other way round).
    pages: Arc<Mutex<Pages>>,
    browse: Option<usize>,
    report: Option<String>,
    watch: Option<Watch>,
    /// Where the session is kept after every change (`web --save`), held
    /// for the server's life.
    keep: Option<Held>,
    editor: Editor,
}

impl Desk {
    fn frame(&self) -> String {
        let extras = DeskExtras {
            browse: self.browse,
            report: self.report.as_deref(),
            watching: self.watch.is_some(),
        };
        desk_frame(&self.session, &extras).to_string()
    }

    /// Keeps the record after a change (see
    /// [`Session::keep_or_take_back`]); a failure is also told on the
    /// server's terminal. The callers send the frame (after a failure the
    /// position is the one before the change).
    fn kept(&mut self, before: usize) -> Result<(), String> {
        let Some(file) = self.keep.as_mut() else {
            return Ok(());
        };
        let r = self.session.keep_or_take_back(file, before);
        if let Err(e) = &r {
            eprintln!("error: {e}");
        }
        r
    }

    fn broadcast(&mut self) {
        let f = self.frame();
        let mut pages = lock(&self.pages);
        pages.senders.retain(|p| p.send(f.clone()).is_ok());
        pages.last = f;
    }
}

/// The session page's site.
pub struct DeskSite {
    desk: Arc<Mutex<Desk>>,
    pages: Arc<Mutex<Pages>>,
    /// The session's secret: the page gets it on load and a socket must
    /// show it, so a page of another site, which cannot read our page,
    /// cannot act even where its origin passes for ours.
    secret: String,
}

impl DeskSite {
    pub fn new(session: Session) -> DeskSite {
        let pages = Arc::new(Mutex::new(Pages::default()));
        let desk = Desk {
            session,
            pages: pages.clone(),
            browse: None,
            report: None,
            watch: None,
            keep: None,
            editor: Editor::default(),
        };
        lock(&pages).last = desk.frame();
        DeskSite {
            pages,
            desk: Arc::new(Mutex::new(desk)),
            secret: format!(
                "{:016x}{:016x}",
                crate::base::state::secret_seed(),
                crate::base::state::secret_seed()
            ),
        }
    }

    /// Keeps the session's record in `file` after every change, replacing
    /// it whole; written once now, so that a place that cannot be written
    /// is an error before anyone plays.
    pub fn keep_in(self, mut file: Held) -> Result<DeskSite, String> {
        {
            let mut d = lock(&self.desk);
            d.session.keep_record(&mut file)?;
            d.keep = Some(file);
        }
        Ok(self)
    }

    /// The session's frame now, or, while the session is busy, the last
    /// frame sent (the next change sends every page a new one).
    fn current_frame(&self) -> String {
        match self.desk.try_lock() {
            Ok(d) => d.frame(),
            Err(std::sync::TryLockError::Poisoned(p)) => p.into_inner().frame(),
            Err(std::sync::TryLockError::WouldBlock) => lock(&self.pages).last.clone(),
        }
    }

    /// The secret a socket must show (`/ws?secret=...`), which the page at
    /// `/` carries.
    pub fn secret(&self) -> &str {
        &self.secret
    }

    /// Runs a console line on the session (as the REPL would) and starts or
    /// stops watching when it says so. Returns whether it worked, and its
    /// output or error.
    pub fn run_line(&self, line: &str) -> (bool, String) {
        let mut d = lock(&self.desk);
        let before = d.session.history.len();
        let (ok, out) = match d.session.execute(line) {
            Ok((out, Flow::Continue)) => (true, out),
            Ok((_, Flow::Quit)) => (
                false,
                "the page cannot stop the server: press Ctrl-C in its terminal".to_string(),
            ),
            Ok((out, Flow::Watch(on))) => {
                // The old watch is dropped without the lock: its callback
                // may be waiting for it.
                let old = d.watch.take();
                drop(d);
                drop(old);
                d = lock(&self.desk);
                if on {
                    match start_watch(&self.desk, &d.session) {
                        Ok(w) => {
                            d.watch = Some(w);
                            (true, out)
                        }
                        Err(e) => (false, e),
                    }
                } else {
                    (true, out)
                }
            }
            Err(e) => (false, e),
        };
        let (ok, out) = match d.kept(before) {
            Ok(()) => (ok, out),
            Err(e) => (false, e),
        };
        if ok {
            d.browse = None;
        }
        d.broadcast();
        (ok, out)
    }

    fn act(&self, text: &str) -> (bool, String) {
        let mut d = lock(&self.desk);
        let before = d.session.history.len();
        match d
            .session
            .play(text)
            .and_then(|out| d.kept(before).map(|()| out))
        {
            Ok(out) => {
                d.browse = None;
                d.broadcast();
                (true, out)
            }
            // A refused action changes nothing, not even what is shown.
            Err(e) => (false, e),
        }
    }

    /// Answers one page message; the reply goes back to that page only.
    fn handle(&self, text: &str) -> String {
        let output = |line: &str, (ok, text): (bool, String)| {
            serde_json::json!({ "type": "output", "line": line, "ok": ok, "text": text })
                .to_string()
        };
        let msg = match serde_json::from_str::<PageMsg>(text) {
            Ok(m) => m,
            Err(e) => return ws::error_json(&format!("malformed message: {e}")),
        };
        match msg {
            PageMsg::Command { line } => output(&line, self.run_line(&line)),
            PageMsg::Act { text } => output(&text, self.act(&text)),
            PageMsg::Goto { ply } => {
                let mut d = lock(&self.desk);
                d.browse = ply.filter(|&k| k < d.session.history.len());
                d.broadcast();
                serde_json::json!({ "type": "ok" }).to_string()
            }
            PageMsg::Refresh => self.current_frame(),
            PageMsg::Rules => {
                let d = lock(&self.desk);
                let text =
                    crate::rules::variant::describe::rules_markdown(&d.session.engine.variant);
                serde_json::json!({ "type": "rules", "text": text }).to_string()
            }
            other => self.edit(other),
        }
    }

    /// Answers the editor's messages (see [`super::editor`]).
    fn edit(&self, msg: PageMsg) -> String {
        let mut guard = lock(&self.desk);
        let d = &mut *guard;
        let before = d.session.history.len();
        let r = match msg {
            PageMsg::Files => Ok(d.editor.files(&d.session)),
            PageMsg::Open { name } => d.editor.open(&d.session, &name),
            PageMsg::Check { name, text } => d.editor.check(&d.session, &name, &text),
            PageMsg::Save { name, text } => d.editor.save(&mut d.session, &name, &text),
            PageMsg::Restore { name } => d.editor.restore(&mut d.session, &name),
            _ => Err("not an editor message".to_string()),
        };
        match r {
            Ok(v) => {
                if v["type"] == "saved" {
                    let mut report = v["report"].as_str().unwrap_or_default().to_string();
                    if let Err(e) = d.kept(before) {
                        report = format!("{report}\n{e}");
                    }
                    d.report = Some(report);
                    d.browse = None;
                    d.broadcast();
                }
                v.to_string()
            }
            Err(e) => serde_json::json!({ "type": "edit_error", "message": e }).to_string(),
        }
    }
}

/// Watches the session's files; on a save, reloads and tells every page.
fn start_watch(desk: &Arc<Mutex<Desk>>, session: &Session) -> Result<Watch, String> {
    let weak: Weak<Mutex<Desk>> = Arc::downgrade(desk);
    Watch::start(&session.watched_files(), move || {
        let Some(desk) = weak.upgrade() else { return };
        let mut d = lock(&desk);
        let before = d.session.history.len();
        let text = match d.session.reload() {
            Ok(report) => d.session.report_text(&report),
            Err(e) => format!("files changed, the old rules stay: {e}"),
        };
        let text = match d.kept(before) {
            Ok(()) => text,
            Err(e) => format!("{text}\n{e}"),
        };
        d.report = Some(text);
        d.browse = None;
        d.broadcast();
    })
}

impl Site for DeskSite {
    fn page(&self) -> Cow<'static, str> {
        let meta = format!(
            "<meta charset=\"utf-8\">\n<meta name=\"sandtable-secret\" content=\"{}\">",
            self.secret
        );
        Cow::Owned(super::assets::SESSION_PAGE.replacen("<meta charset=\"utf-8\">", &meta, 1))
    }

    fn admit(&self, req: &Request) -> Result<(), String> {
        let shown = req.query_value("secret").unwrap_or("");
        // Compared in time independent of where they differ.
        let same = shown.len() == self.secret.len()
            && shown
                .bytes()
                .zip(self.secret.bytes())
                .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                == 0;
        if same {
            Ok(())
        } else {
            Err("the console needs this session's secret, which its page carries: open the page again".into())
        }
    }

    fn max_message(&self) -> usize {
        // A file saved from the editor, in JSON, with room to spare.
        2 * super::editor::MAX_EDIT_BYTES + 4096
    }

    fn socket(&self, mut socket: WebSocket<TcpStream>) {
        let (tx, rx) = channel();
        let _ = tx.send(self.current_frame());
        lock(&self.pages).senders.push(tx.clone());
        drop(tx);
        ws::run(&mut socket, &rx, |text| Ok(Some(self.handle(&text))));
    }
}
