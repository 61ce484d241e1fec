//! The terminal client (`join`): prints what the host sends, cleaned of
//! every control character; reads actions, chat and the army's
//! arrangement from standard input.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::sync::{Arc, Mutex};

use super::proto::{clean, clean_lines, ClientMsg, HostMsg, PROTOCOL_VERSION};
use crate::placement::{read_spec, Placement, Step, HELP};

/// What printing one host message leads to.
#[derive(Debug, PartialEq, Eq)]
pub enum Printed {
    Go,
    /// The host closed this connection or refused it: stop, with this exit
    /// code.
    Stop(i32),
}

/// What the client keeps between messages.
#[derive(Default)]
pub struct ClientState {
    pub welcomed: bool,
    /// The arrangement in progress, when the host asked for one.
    pub placing: Option<Placement>,
    /// A spec to submit as soon as the host asks (`--setup`).
    pub auto_setup: Option<String>,
}

/// Prints one host message for a person (every text from the wire cleaned
/// of control characters) and returns what to do next.
pub fn print_host_line(l: &str, st: &mut ClientState) -> Printed {
    let msg = match serde_json::from_str::<HostMsg>(l) {
        Ok(m) => m,
        Err(_) => {
            println!("(unreadable message from the host)");
            return Printed::Go;
        }
    };
    match msg {
        HostMsg::Welcome {
            seat,
            token,
            variant,
            ..
        } => {
            st.welcomed = true;
            println!(
                "joined {} as {}",
                clean(&variant),
                seat.as_deref().map_or("a spectator".into(), clean)
            );
            if let Some(t) = token {
                println!("(to come back after a disconnect: --token {})", clean(&t));
            }
        }
        HostMsg::SetupRequest { prompt } => {
            let p = Placement::new(prompt);
            println!("set up your army: `setup SPEC` (letters, FILE, FILE:LINE or random), or place it piece by piece: {HELP}");
            println!("{}", clean_lines(&p.show()));
            st.placing = Some(p);
        }
        HostMsg::SetupStatus { ready, waiting } => {
            let names = |v: &[String]| v.iter().map(|s| clean(s)).collect::<Vec<_>>().join(", ");
            println!(
                "setup: ready {} / waiting for {}",
                if ready.is_empty() {
                    "nobody".into()
                } else {
                    names(&ready)
                },
                if waiting.is_empty() {
                    "nobody".into()
                } else {
                    names(&waiting)
                }
            );
        }
        HostMsg::CatchUp { events } => {
            println!("what happened lately:");
            for e in events {
                println!("  {}", clean(&e));
            }
        }
        HostMsg::State {
            board,
            events,
            legal,
            clock,
            ..
        } => {
            st.placing = None;
            for e in events {
                println!("  {}", clean(&e));
            }
            print!("{}", clean_lines(&board));
            if let Some(c) = clock {
                println!("clock: {}", clean(&c));
            }
            if !legal.is_empty() {
                println!("your move ({} legal; type one, or `say TEXT`)", legal.len());
            }
        }
        HostMsg::Chat { from, text } => println!("[{}] {}", clean(&from), clean(&text)),
        HostMsg::Presence { seat, name, here } => println!(
            "* {} ({}) {}",
            clean(&name),
            clean(&seat),
            if here {
                "is here"
            } else {
                "left; the seat waits for its token"
            }
        ),
        HostMsg::Replaced { reason } => {
            println!("this connection is closed: {}", clean(&reason));
            return Printed::Stop(1);
        }
        HostMsg::Error { message } if !st.welcomed => {
            println!("the host refused: {}", clean(&message));
            return Printed::Stop(1);
        }
        HostMsg::Error { message } => println!("error: {}", clean(&message)),
        HostMsg::End { outcome } => println!("game over: {}", clean(&outcome)),
        HostMsg::Closing { reason } => {
            println!("the host is closing: {}", clean(&reason));
            return Printed::Stop(0);
        }
    }
    Printed::Go
}

fn send(w: &mut TcpStream, msg: &ClientMsg) -> Result<(), String> {
    let text = serde_json::to_string(msg).map_err(|e| e.to_string())?;
    writeln!(w, "{text}").map_err(|e| format!("the host is gone: {e}"))
}

/// The message to send for a `setup SPEC` line, read on this computer.
fn setup_msg(spec: &str) -> Result<ClientMsg, String> {
    let (spec, back_first) = match spec.trim().strip_suffix("--back-first") {
        Some(s) => (s.trim(), true),
        None => (spec.trim(), false),
    };
    Ok(ClientMsg::Setup {
        text: read_spec(spec)?,
        back_first,
    })
}

/// What one line typed by the player means: a message to send, nothing (a
/// placement step, shown here), or leaving.
fn typed(l: &str, st: &Mutex<ClientState>) -> Result<Option<ClientMsg>, String> {
    if l == "quit" {
        return Ok(Some(ClientMsg::Bye));
    }
    if let Some(t) = l.strip_prefix("say ").or_else(|| l.strip_prefix("/say ")) {
        return Ok(Some(ClientMsg::Chat {
            text: t.to_string(),
        }));
    }
    if let Some(spec) = l.strip_prefix("setup ") {
        return setup_msg(spec).map(Some);
    }
    let mut g = st.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = g.placing.as_mut() {
        return match p.command(l)? {
            Step::Show(text) => {
                println!("{text}");
                Ok(None)
            }
            Step::Done(text) => Ok(Some(ClientMsg::Setup {
                text,
                back_first: false,
            })),
        };
    }
    Ok(Some(ClientMsg::Action {
        text: l.to_string(),
    }))
}

/// A terminal client: prints boards, events and chat; reads actions,
/// `say TEXT` and the army's arrangement from standard input. `setup`: a
/// spec submitted as soon as the host asks for the army.
pub fn join(
    addr: &str,
    name: &str,
    seat: Option<&str>,
    token: Option<&str>,
    spectator: bool,
    setup: Option<&str>,
) -> Result<(), String> {
    let stream = TcpStream::connect(addr).map_err(|e| format!("cannot connect to {addr}: {e}"))?;
    let mut w = stream.try_clone().map_err(|e| e.to_string())?;
    send(
        &mut w,
        &ClientMsg::Hello {
            version: PROTOCOL_VERSION,
            name: name.to_string(),
            seat: seat.map(str::to_string),
            token: token.map(str::to_string),
            spectator,
        },
    )?;
    let st = Arc::new(Mutex::new(ClientState {
        auto_setup: setup.map(str::to_string),
        ..ClientState::default()
    }));
    let (st2, mut w2) = (st.clone(), w.try_clone().map_err(|e| e.to_string())?);
    std::thread::spawn(move || {
        let r = BufReader::new(stream);
        for l in r.lines() {
            let Ok(l) = l else { break };
            let mut g = st2.lock().unwrap_or_else(|e| e.into_inner());
            if let Printed::Stop(code) = print_host_line(&l, &mut g) {
                let _ = std::io::stdout().flush();
                std::process::exit(code);
            }
            if g.placing.is_some() {
                if let Some(spec) = g.auto_setup.take() {
                    match setup_msg(&spec).and_then(|m| send(&mut w2, &m)) {
                        Ok(()) => println!("army submitted"),
                        Err(e) => println!("error: {e}"),
                    }
                }
            }
            let _ = std::io::stdout().flush();
        }
        println!("the connection to the host is closed");
        let _ = std::io::stdout().flush();
        std::process::exit(0);
    });
    let stdin = std::io::stdin();
    for l in stdin.lock().lines() {
        let l = l.map_err(|e| e.to_string())?;
        let l = l.trim();
        if l.is_empty() {
            continue;
        }
        match typed(l, &st) {
            Ok(Some(msg)) => {
                let bye = matches!(msg, ClientMsg::Bye);
                send(&mut w, &msg)?;
                if bye {
                    return Ok(());
                }
            }
            Ok(None) => {}
            Err(e) => println!("error: {e}"),
        }
        let _ = std::io::stdout().flush();
    }
    // Input ended: keep watching until the host closes.
    loop {
        std::thread::park();
    }
}
