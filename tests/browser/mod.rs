#![allow(dead_code)]
//! A headless Chromium driven over the DevTools protocol (CDP) for the web
//! tests: its own small client on the WebSocket crate the project already
//! uses, rather than a driver crate and its async runtime.
//!
//! Without a Chromium on the machine the browser tests are skipped (and say
//! so), unless `SANDTABLE_BROWSER_TESTS=require` (what `.ci/run` sets)
//! makes a missing browser a failure.

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// The flags Chromium needs here: headless, no sandbox (root in a
/// container), and nothing that reaches for the network on its own.
const FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1300,950",
    "--remote-debugging-port=0",
];

/// How long an evaluation is tried again while its page navigates.
const NAVIGATION: Duration = Duration::from_secs(20);

/// Whether a failed evaluation (a DevTools error or the exception it
/// reports) failed because its page navigated away or had no document yet,
/// rather than because of the script.
fn cut_off_by_navigation(failure: &Value) -> bool {
    let text = failure.to_string();
    [
        "Inspected target navigated or closed",
        "Execution context was destroyed",
        "Cannot find context with specified id",
        "Cannot find default execution context",
    ]
    .iter()
    .any(|m| text.contains(m))
}

/// One browser test at a time: the machine has two cores.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn find_chromium() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("SANDTABLE_CHROMIUM") {
        return Some(PathBuf::from(p)).filter(|p| p.is_file());
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser", "google-chrome", "chrome"] {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// Whether a missing browser fails the tests instead of skipping them.
fn required() -> bool {
    std::env::var("SANDTABLE_BROWSER_TESTS").is_ok_and(|v| v == "require")
}

pub struct Browser {
    child: Child,
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
    next_id: u64,
    _profile: tempfile::TempDir,
    _turn: MutexGuard<'static, ()>,
}

/// One page (tab) in a browser context of its own: its storage is its own,
/// as if it were another person's browser.
pub struct Page {
    session: String,
}

impl Browser {
    /// Starts Chromium, or returns `None` (after saying the test is
    /// skipped) when there is none and none is required.
    pub fn launch(test: &str) -> Option<Browser> {
        let turn = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
        let Some(bin) = find_chromium() else {
            if required() {
                panic!("{test}: no chromium found, and SANDTABLE_BROWSER_TESTS=require");
            }
            // Straight to the process's standard error: the test harness
            // would hide eprintln! output of a passing test.
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED {test}: no chromium on PATH (apt-get install chromium; SANDTABLE_BROWSER_TESTS=require makes this a failure)"
            );
            return None;
        };
        let profile = tempfile::tempdir().unwrap();
        let mut child = Command::new(&bin)
            .args(FLAGS)
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", bin.display()));
        let url = devtools_url(&mut child);
        let (mut ws, _) = tungstenite::connect(url.as_str()).expect("connect to DevTools");
        if let MaybeTlsStream::Plain(s) = ws.get_mut() {
            s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        }
        Some(Browser {
            child,
            ws,
            next_id: 0,
            _profile: profile,
            _turn: turn,
        })
    }

    /// Sends a command and waits for its answer (events are dropped).
    pub fn call(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.try_call(session, method, params)
            .unwrap_or_else(|e| panic!("{method}: {e}"))
    }

    /// Sends a command and waits for its answer, or the error DevTools gave.
    fn try_call(
        &mut self,
        session: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<Value, Value> {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({ "id": id, "method": method, "params": params });
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        self.ws
            .send(Message::text(msg.to_string()))
            .expect("send to DevTools");
        loop {
            let m = self
                .ws
                .read()
                .unwrap_or_else(|e| panic!("{method}: DevTools: {e}"));
            let Message::Text(t) = m else { continue };
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if v["id"] == json!(id) {
                if let Some(e) = v.get("error") {
                    return Err(e.clone());
                }
                return Ok(v["result"].clone());
            }
        }
    }

    /// Opens `url` in a new page of its own; `before_load` is a script run
    /// in it before the page's own.
    pub fn open(&mut self, url: &str, before_load: &str) -> Page {
        let ctx =
            self.call(None, "Target.createBrowserContext", json!({}))["browserContextId"].clone();
        let target = self.call(
            None,
            "Target.createTarget",
            json!({ "url": "about:blank", "browserContextId": ctx }),
        )["targetId"]
            .clone();
        let session = self.call(
            None,
            "Target.attachToTarget",
            json!({ "targetId": target, "flatten": true }),
        )["sessionId"]
            .as_str()
            .unwrap()
            .to_string();
        let s = Some(session.as_str());
        self.call(s, "Page.enable", json!({}));
        self.call(
            s,
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": 1300, "height": 950, "deviceScaleFactor": 1, "mobile": false }),
        );
        if !before_load.is_empty() {
            self.call(
                s,
                "Page.addScriptToEvaluateOnNewDocument",
                json!({ "source": before_load }),
            );
        }
        self.call(s, "Page.navigate", json!({ "url": url }));
        Page { session }
    }

    /// Evaluates JavaScript in the page; its value (promises awaited).
    ///
    /// While the page navigates (a reload, a new document) an evaluation
    /// can be cut off with the old document ("Inspected target navigated or
    /// closed", "Execution context was destroyed") or find no document yet
    /// ("Cannot find context with specified id"): then it is tried again,
    /// for at most [`NAVIGATION`], in the page as it is then. So `js` is
    /// read as a question about the page, not a one-off action (to reload,
    /// use [`Browser::reload`]).
    pub fn eval(&mut self, page: &Page, js: &str) -> Value {
        let end = Instant::now() + NAVIGATION;
        loop {
            let r = self.try_call(
                Some(&page.session),
                "Runtime.evaluate",
                json!({ "expression": js, "returnByValue": true, "awaitPromise": true }),
            );
            let failure = match r {
                Ok(r) => match r.get("exceptionDetails") {
                    None => return r["result"]["value"].clone(),
                    Some(e) => e.clone(),
                },
                Err(e) => e,
            };
            if !cut_off_by_navigation(&failure) {
                panic!("Runtime.evaluate `{js}`: {failure}");
            }
            if Instant::now() > end {
                panic!(
                    "Runtime.evaluate `{js}`: the page was still navigating after {} s: {failure}",
                    NAVIGATION.as_secs()
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Reloads the page (as the browser's reload button does) and returns
    /// once the new document is there, so what is asked next is asked of
    /// it and not of the old one.
    pub fn reload(&mut self, page: &Page) {
        self.eval(page, "window.__sandtableOldDocument = true");
        self.call(Some(&page.session), "Page.reload", json!({}));
        self.wait(
            page,
            "window.__sandtableOldDocument !== true && document.readyState !== 'loading'",
            NAVIGATION.as_secs(),
        );
    }

    /// Waits until `js` is truthy (at most `secs` seconds); its value.
    pub fn wait(&mut self, page: &Page, js: &str, secs: u64) -> Value {
        let end = Instant::now() + Duration::from_secs(secs);
        loop {
            let v = self.eval(
                page,
                &format!("(() => {{ try {{ return {js}; }} catch (e) {{ return null; }} }})()"),
            );
            if !(v.is_null() || v == json!(false) || v == json!("") || v == json!(0)) {
                return v;
            }
            if Instant::now() > end {
                let text = self.eval(page, "document.body ? document.body.innerText : ''");
                panic!(
                    "timed out waiting for `{js}`; the page says:\n{}",
                    text.as_str().unwrap_or("")
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Clicks the middle of the first element matching `selector`, with the
    /// mouse, as a person would.
    pub fn click(&mut self, page: &Page, selector: &str) {
        let js = format!(
            "(() => {{ const e = document.querySelector({sel}); if (!e) return null; e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()",
            sel = json!(selector)
        );
        let at = self.wait(page, &js, 10);
        let (x, y) = (at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                Some(&page.session),
                "Input.dispatchMouseEvent",
                json!({ "type": kind, "x": x, "y": y, "button": "left", "clickCount": 1 }),
            );
        }
    }

    /// Types `text` into the element matching `selector` and presses Enter.
    pub fn type_line(&mut self, page: &Page, selector: &str, text: &str) {
        self.eval(
            page,
            &format!("document.querySelector({}).focus()", json!(selector)),
        );
        let s = Some(page.session.as_str());
        self.call(s, "Input.insertText", json!({ "text": text }));
        for kind in ["keyDown", "keyUp"] {
            self.call(
                s,
                "Input.dispatchKeyEvent",
                json!({ "type": kind, "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13, "text": "\r" }),
            );
        }
    }

    /// Types `text` where the page's focus is, as a keyboard would.
    pub fn insert_text(&mut self, page: &Page, text: &str) {
        self.call(
            Some(page.session.as_str()),
            "Input.insertText",
            json!({ "text": text }),
        );
    }

    /// The page's whole DOM as HTML (the SVG included).
    pub fn html(&mut self, page: &Page) -> String {
        let v = self.eval(page, "document.documentElement.outerHTML");
        v.as_str().unwrap_or_default().to_string()
    }

    /// Writes a PNG of the page to `path`.
    pub fn screenshot(&mut self, page: &Page, path: &Path) {
        let r = self.call(
            Some(&page.session),
            "Page.captureScreenshot",
            json!({ "format": "png" }),
        );
        let png = data_encoding::BASE64
            .decode(r["data"].as_str().unwrap().as_bytes())
            .unwrap();
        std::fs::write(path, png).unwrap();
    }
}

impl Browser {
    /// Sets the page's window to `width` by `height` CSS pixels, as a
    /// phone's (`mobile`: the viewport meta tag is obeyed, touch is on)
    /// or a desktop's.
    pub fn resize(&mut self, page: &Page, width: u32, height: u32, mobile: bool) {
        let s = Some(page.session.as_str());
        self.call(
            s,
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": width, "height": height, "deviceScaleFactor": if mobile { 2 } else { 1 }, "mobile": mobile }),
        );
        self.call(
            s,
            "Emulation.setTouchEmulationEnabled",
            json!({ "enabled": mobile }),
        );
    }

    /// Writes a PNG of the whole page, below the window's bottom too.
    pub fn screenshot_page(&mut self, page: &Page, path: &Path) {
        let size = self.eval(
            page,
            "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]",
        );
        let r = self.call(
            Some(&page.session),
            "Page.captureScreenshot",
            json!({ "format": "png", "captureBeyondViewport": true, "clip": {
                "x": 0, "y": 0, "width": size[0], "height": size[1], "scale": 1 } }),
        );
        let png = data_encoding::BASE64
            .decode(r["data"].as_str().unwrap().as_bytes())
            .unwrap();
        std::fs::write(path, png).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads Chromium's standard error until it names its DevTools address,
/// then keeps draining it (a full pipe would stall the browser).
fn devtools_url(child: &mut Child) -> String {
    let err = child.stderr.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut sent = false;
        for line in BufReader::new(err).lines() {
            let Ok(line) = line else { break };
            if !sent {
                if let Some(i) = line.find("ws://") {
                    let _ = tx.send(line[i..].trim().to_string());
                    sent = true;
                }
            }
        }
    });
    rx.recv_timeout(Duration::from_secs(60))
        .expect("chromium did not print its DevTools address within 60 s")
}

/// Whether the tests should write the README's screenshots
/// (`SANDTABLE_SCREENSHOTS=1`), and where.
pub fn screenshot_path(name: &str) -> Option<PathBuf> {
    std::env::var("SANDTABLE_SCREENSHOTS")
        .ok()
        .filter(|v| v == "1")?;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/images");
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir.join(name))
}
