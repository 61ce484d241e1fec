//! The REPL loop: how each line is run, printed and followed (quit, watch
//! files), the same for a terminal and for piped input; where the lines come
//! from is a `LineSource`.

use std::io::{BufRead, IsTerminal, Read};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use super::editor::ReplHelper;
use crate::base::limits::{escape_controls, escape_controls_keep_colour};
use crate::session::{Flow, Session};
use crate::watch::Watch;

/// The lines of standard input, with the line editor when it is a terminal.
pub fn repl(
    variant: &str,
    seed: Option<u64>,
    overrides: &[(String, String)],
    clock: Option<&str>,
) -> Result<(), String> {
    let seed = seed.unwrap_or_else(crate::base::state::secret_seed);
    let mut session = Session::new(variant, overrides, seed)?;
    session.set_clock(clock)?;
    let interactive = std::io::stdin().is_terminal();
    session.color = std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let session = Arc::new(Mutex::new(session));
    if interactive {
        println!("{}", lock(&session).open_interactive(seed));
        run_lines(&session, Editor::open()?)
    } else {
        // Scripted: one command per line, no line editor; errors are printed
        // and reading goes on, but the exit code reports them.
        run_lines(&session, StdinLines::new())
    }
}

/// Where the REPL's lines come from, and where messages from the file
/// watcher go while it reads them.
trait LineSource {
    /// The next line to run, or why that line cannot be read (an error of
    /// that line only); `None` ends the session.
    fn next_line(&mut self, session: &Arc<Mutex<Session>>) -> Result<Option<LineRead>, String>;
    /// Prints the watcher's messages (from another thread).
    fn watch_printer(&mut self) -> Result<Box<dyn FnMut(String) + Send>, String>;
    /// Ends the session; `failed` tells whether a command failed.
    fn finish(self, failed: bool) -> Result<(), String>;
}

/// A line as read: its text, or why it could not be read.
type LineRead = Result<String, String>;

/// Runs every line of `source` in the session. What is printed has its
/// control characters escaped (a name in a variant file, a line typed):
/// only the host's own colour sequences reach the terminal, and none in
/// error messages.
fn run_lines(session: &Arc<Mutex<Session>>, mut source: impl LineSource) -> Result<(), String> {
    let mut watcher: Option<Watch> = None;
    let mut failed = false;
    while let Some(line) = source.next_line(session)? {
        let result = line.and_then(|line| lock(session).execute(&line));
        match result {
            Ok((out, flow)) => {
                if !out.is_empty() {
                    println!("{}", escape_controls_keep_colour(&out));
                }
                match flow {
                    Flow::Quit => break,
                    Flow::Watch(on) => {
                        watcher = None;
                        if on {
                            watcher = Some(start_watch(session, source.watch_printer()?)?);
                        }
                    }
                    Flow::Continue => {}
                }
            }
            Err(e) => {
                failed = true;
                println!("error: {}", escape_controls(&e));
            }
        }
    }
    drop(watcher);
    source.finish(failed)
}

/// The terminal: the line editor, with a prompt naming the side to act and
/// a history kept in `~/.sandtable_history`. Failed commands do not change
/// the exit code.
struct Editor {
    rl: rustyline::Editor<ReplHelper, rustyline::history::DefaultHistory>,
    history: Option<PathBuf>,
}

impl Editor {
    fn open() -> Result<Editor, String> {
        let mut rl: rustyline::Editor<ReplHelper, rustyline::history::DefaultHistory> =
            rustyline::Editor::new().map_err(|e| e.to_string())?;
        rl.set_helper(Some(ReplHelper {
            commands: crate::session::command_names(),
            words: Default::default(),
        }));
        let history = std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".sandtable_history"));
        if let Some(h) = &history {
            let _ = rl.load_history(h);
        }
        Ok(Editor { rl, history })
    }

    /// The prompt: the clocks and the player to act.
    fn prompt(&self, session: &Arc<Mutex<Session>>) -> String {
        let s = lock(session);
        if let Some(h) = self.rl.helper() {
            h.refresh(&s);
        }
        let clock = s
            .clock_text()
            .map(|c| format!("[{c}] "))
            .unwrap_or_default();
        if let Some(prompt) = s.pending_text() {
            return format!("{clock}{}> ", escape_controls(&prompt));
        }
        match s.engine.acting_player(&s.state) {
            Some(p) => format!("{clock}{}> ", escape_controls(s.engine.player_name(p))),
            None => "over> ".to_string(),
        }
    }
}

impl LineSource for Editor {
    fn next_line(&mut self, session: &Arc<Mutex<Session>>) -> Result<Option<LineRead>, String> {
        loop {
            // The session is not locked while the line is read: the
            // watcher may reload meanwhile.
            let prompt = self.prompt(session);
            match self.rl.readline(&prompt) {
                Ok(line) => {
                    let _ = self.rl.add_history_entry(line.as_str());
                    return Ok(Some(Ok(line)));
                }
                Err(rustyline::error::ReadlineError::Interrupted) => continue,
                Err(_) => return Ok(None),
            }
        }
    }

    fn watch_printer(&mut self) -> Result<Box<dyn FnMut(String) + Send>, String> {
        let mut printer = self
            .rl
            .create_external_printer()
            .map_err(|e| e.to_string())?;
        Ok(Box::new(move |msg| {
            use rustyline::ExternalPrinter;
            let _ = printer.print(msg);
        }))
    }

    fn finish(mut self, _failed: bool) -> Result<(), String> {
        if let Some(h) = &self.history {
            let _ = self.rl.save_history(h);
        }
        Ok(())
    }
}

/// The lines of standard input without a line editor (piped input; also
/// what `play` and `serve` read).
pub(super) struct StdinLines(std::io::StdinLock<'static>);

/// The longest line read from standard input.
const MAX_LINE_BYTES: u64 = 1 << 20;

impl StdinLines {
    pub(super) fn new() -> StdinLines {
        StdinLines(std::io::stdin().lock())
    }

    /// The next line, with bytes that are not UTF-8 replaced; `None` at the
    /// end of the input.
    pub(super) fn next_line(&mut self) -> Result<Option<String>, String> {
        Ok(self.next_read()?.map(|l| l.unwrap_or_else(|e| e)))
    }

    /// The next line, or why it cannot be run (not UTF-8, too long);
    /// `None` at the end of the input.
    fn next_read(&mut self) -> Result<Option<LineRead>, String> {
        let mut buf = Vec::new();
        let n = (&mut self.0)
            .take(MAX_LINE_BYTES + 1)
            .read_until(b'\n', &mut buf)
            .map_err(|e| e.to_string())?;
        if n == 0 {
            return Ok(None);
        }
        if buf.last() != Some(&b'\n') && buf.len() as u64 > MAX_LINE_BYTES {
            // Skip the rest of the line, a bounded piece at a time.
            let mut rest = Vec::new();
            loop {
                rest.clear();
                let n = (&mut self.0)
                    .take(MAX_LINE_BYTES)
                    .read_until(b'\n', &mut rest)
                    .map_err(|e| e.to_string())?;
                if n == 0 || rest.last() == Some(&b'\n') {
                    break;
                }
            }
            return Ok(Some(Err(format!(
                "line longer than {}; skipped",
                crate::base::limits::size_text(MAX_LINE_BYTES)
            ))));
        }
        while matches!(buf.last(), Some(b'\n' | b'\r')) {
            buf.pop();
        }
        Ok(Some(String::from_utf8(buf).map_err(|e| {
            format!(
                "the line is not UTF-8 text (byte {}); skipped",
                e.utf8_error().valid_up_to() + 1
            )
        })))
    }
}

/// Piped input: no prompt, the watcher's messages on standard output, and
/// an exit code that reports failed commands.
impl LineSource for StdinLines {
    fn next_line(&mut self, _: &Arc<Mutex<Session>>) -> Result<Option<LineRead>, String> {
        self.next_read()
    }

    fn watch_printer(&mut self) -> Result<Box<dyn FnMut(String) + Send>, String> {
        Ok(Box::new(|msg| println!("{msg}")))
    }

    fn finish(self, failed: bool) -> Result<(), String> {
        if failed {
            Err("some commands failed".into())
        } else {
            Ok(())
        }
    }
}

fn lock(session: &Mutex<Session>) -> std::sync::MutexGuard<'_, Session> {
    session
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Watches the session's variant files; on a save, reloads and reports.
fn start_watch(
    session: &Arc<Mutex<Session>>,
    mut say: impl FnMut(String) + Send + 'static,
) -> Result<Watch, String> {
    let files = lock(session).watched_files();
    let target = session.clone();
    Watch::start(&files, move || {
        let mut s = lock(&target);
        let msg = match s.reload() {
            Ok(report) => format!("files changed: {}", s.report_text(&report)),
            Err(e) => format!("files changed, the old rules stay: {e}"),
        };
        say(msg);
    })
}
