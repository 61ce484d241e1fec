//! Network play: the host holds the only copy of the game; clients get only
//! their seat's view, send actions and chat. Line-delimited JSON over TCP;
//! see docs/protocol.md.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex, MutexGuard};

use serde::{Deserialize, Serialize};

use crate::front::session::Session;
use crate::record::view::{Event, PlayerId, Viewer};

pub const PROTOCOL_VERSION: u32 = 1;
/// The longest message a client may send, in bytes.
pub const MAX_LINE: usize = 16 * 1024;

/// What a client sends.
#[derive(Debug, Deserialize, Serialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    Hello {
        version: u32,
        name: String,
        #[serde(default)]
        seat: Option<String>,
        #[serde(default)]
        token: Option<String>,
        #[serde(default)]
        spectator: bool,
    },
    Action {
        text: String,
    },
    Chat {
        text: String,
    },
    Bye,
}

/// What the host sends.
#[derive(Debug, Deserialize, Serialize, Clone)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum HostMsg {
    Welcome {
        version: u32,
        variant: String,
        players: Vec<String>,
        /// The seat taken, or none for a spectator.
        seat: Option<String>,
        /// Give it back in `hello` to take the seat again after a disconnect.
        token: Option<String>,
    },
    State {
        view: Box<crate::record::view::View>,
        /// The view drawn as text (from the same view).
        board: String,
        /// What happened in the last action, as this seat may know it.
        events: Vec<String>,
        /// This seat's legal actions, when it must act.
        legal: Vec<String>,
        clock: Option<String>,
    },
    Chat {
        from: String,
        text: String,
    },
    Error {
        message: String,
    },
    End {
        outcome: String,
    },
    Closing {
        reason: String,
    },
}

/// The state message the host sends a seat (`None`: a spectator) after an
/// action whose events are `last_events`: built only from that viewer's
/// view, that viewer's event lines and that seat's legal actions. It never
/// holds the seed.
pub fn state_message(session: &Session, seat: Option<PlayerId>, last_events: &[Event]) -> HostMsg {
    let s = session;
    let viewer = seat.map(Viewer::Player).unwrap_or(Viewer::Public);
    let view = s.engine.view(&s.state, viewer);
    let legal = match seat {
        Some(p) => s
            .engine
            .legal_actions_for(&s.state, p)
            .iter()
            .map(|a| s.engine.action_text(&s.state, a))
            .collect(),
        None => Vec::new(),
    };
    HostMsg::State {
        board: s.engine.render(&view, None),
        view: Box::new(view),
        events: s.engine.event_lines(&s.state, last_events, viewer),
        legal,
        clock: s.clock_text(),
    }
}

struct Client {
    id: u64,
    name: String,
    seat: Option<PlayerId>,
    tx: Sender<String>,
}

#[derive(Default, Clone)]
struct Seat {
    token: Option<String>,
    name: Option<String>,
    client: Option<u64>,
    /// Played by the host itself (its terminal or an agent).
    local: bool,
    /// The agent the host plays this seat with, if any.
    agent: Option<crate::play::agent::AgentSpec>,
}

struct Shared {
    session: Session,
    seats: Vec<Seat>,
    clients: Vec<Client>,
    next_id: u64,
    save: Option<PathBuf>,
    last_events: Vec<Event>,
    ended: bool,
}

/// A running host.
pub struct Server {
    shared: Arc<Mutex<Shared>>,
    pub addr: SocketAddr,
}

fn lock(m: &Arc<Mutex<Shared>>) -> MutexGuard<'_, Shared> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn line(msg: &HostMsg) -> String {
    let mut s = serde_json::to_string(msg).expect("host messages serialize");
    s.push('\n');
    s
}

fn token() -> String {
    use rand::Rng;
    // Not game randomness: a secret for reconnecting, from the OS generator.
    format!(
        "{:016x}{:016x}",
        rand::rng().random::<u64>(),
        rand::rng().random::<u64>()
    )
}

impl Shared {
    /// The state message for one seat (or a spectator), from the view function.
    fn state_msg(&self, seat: Option<PlayerId>) -> HostMsg {
        state_message(&self.session, seat, &self.last_events)
    }

    fn send(&self, client: u64, msg: &HostMsg) {
        if let Some(c) = self.clients.iter().find(|c| c.id == client) {
            let _ = c.tx.send(line(msg));
        }
    }

    fn broadcast_state(&mut self) {
        for c in &self.clients {
            let _ = c.tx.send(line(&self.state_msg(c.seat)));
        }
        if let Some(o) = &self.session.state.outcome {
            if !self.ended {
                self.ended = true;
                let outcome = self.session.engine.outcome_text(o);
                for c in &self.clients {
                    let _ = c.tx.send(line(&HostMsg::End {
                        outcome: outcome.clone(),
                    }));
                }
                self.save_record();
            }
        }
    }

    fn save_record(&self) {
        if let Some(path) = &self.save {
            if let Ok(text) = crate::record::to_yaml(&self.session.record()) {
                let _ = std::fs::write(path, text);
            }
        }
    }

    /// Plays an action for a seat; the error goes back to that client only.
    fn act(&mut self, seat: Option<PlayerId>, text: &str) -> Result<(), String> {
        let Some(p) = seat else {
            return Err("spectators cannot act".into());
        };
        let s = &self.session;
        match s.engine.acting_player(&s.state) {
            None => return Err("the game is over".into()),
            Some(q) if q != p => {
                return Err(format!(
                    "it is {}'s turn, not {}'s",
                    s.engine.player_name(q),
                    s.engine.player_name(p)
                ))
            }
            _ => {}
        }
        let before = self.session.history.len();
        let result = self.session.play(text);
        self.last_events = match self.session.history.get(before) {
            Some(played) => played.events.clone(),
            None => Vec::new(),
        };
        result?;
        self.play_local_seats();
        self.broadcast_state();
        Ok(())
    }

    /// Seats the host plays with a random agent move at once.
    fn play_local_seats(&mut self) {
        use rand::Rng;
        let mut rng = rand::rng();
        while let Some(p) = self.session.engine.acting_player(&self.session.state) {
            if !self.seats[p as usize].local {
                break;
            }
            let spec = self.seats[p as usize]
                .agent
                .clone()
                .unwrap_or(crate::play::agent::AgentSpec::Random);
            // The agent sees only what its seat's player knows.
            let mut agent = spec.build(rng.random());
            let engine = &self.session.engine;
            let Ok(Some(a)) =
                crate::play::agent::agent_action(engine, agent.as_mut(), &self.session.state)
            else {
                break;
            };
            let text = engine.action_text(&self.session.state, &a);
            let before = self.session.history.len();
            if self.session.play(&text).is_err() {
                break;
            }
            self.last_events = self.session.history[before].events.clone();
        }
    }
}

impl Server {
    /// Hosts `session` on `addr` (port 0 picks a free port). `local` marks
    /// seats the host plays itself with a random agent.
    pub fn start(
        session: Session,
        addr: &str,
        local: Vec<bool>,
        save: Option<PathBuf>,
    ) -> Result<Server, String> {
        let agents = local
            .iter()
            .map(|&l| l.then_some(crate::play::agent::AgentSpec::Random))
            .collect();
        Server::start_with_agents(session, addr, agents, save)
    }

    /// Like [`Server::start`], with the agent the host plays each of its
    /// own seats with (`None`: the seat is not the host's agent's).
    pub fn start_with_agents(
        session: Session,
        addr: &str,
        agents: Vec<Option<crate::play::agent::AgentSpec>>,
        save: Option<PathBuf>,
    ) -> Result<Server, String> {
        let listener =
            TcpListener::bind(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let n = session.engine.variant.players.len();
        let mut seats = vec![Seat::default(); n];
        for (i, a) in agents.into_iter().enumerate().take(n) {
            seats[i].local = a.is_some();
            seats[i].agent = a;
        }
        let shared = Arc::new(Mutex::new(Shared {
            session,
            seats,
            clients: Vec::new(),
            next_id: 1,
            save,
            last_events: Vec::new(),
            ended: false,
        }));
        lock(&shared).play_local_seats();
        let sh = shared.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let sh = sh.clone();
                std::thread::spawn(move || handle(sh, stream));
            }
        });
        Ok(Server { shared, addr })
    }

    /// Tells every client the host is stopping and saves the record.
    pub fn stop(&self, reason: &str) {
        let g = lock(&self.shared);
        for c in &g.clients {
            let _ = c.tx.send(line(&HostMsg::Closing {
                reason: reason.to_string(),
            }));
        }
        g.save_record();
    }

    /// Runs `f` on the hosted session (for the host's own terminal and tests).
    pub fn with_session<R>(&self, f: impl FnOnce(&mut Session) -> R) -> R {
        f(&mut lock(&self.shared).session)
    }

    /// Plays an action for a seat from the host's terminal.
    pub fn act_local(&self, seat: PlayerId, text: &str) -> Result<(), String> {
        lock(&self.shared).act(Some(seat), text)
    }

    /// Sends a chat line from the host to every client.
    pub fn chat(&self, from: &str, text: &str) {
        let g = lock(&self.shared);
        for c in &g.clients {
            let _ = c.tx.send(line(&HostMsg::Chat {
                from: from.to_string(),
                text: text.to_string(),
            }));
        }
    }

    /// Seats the host's own terminal: it gets the messages of that seat (or
    /// of a spectator) like any client.
    pub fn local_client(
        &self,
        name: &str,
        seat: Option<PlayerId>,
    ) -> std::sync::mpsc::Receiver<String> {
        let (tx, rx) = channel();
        let mut g = lock(&self.shared);
        let id = g.next_id;
        g.next_id += 1;
        if let Some(p) = seat {
            // Taken by the host's terminal: a token nobody has.
            g.seats[p as usize].token = Some(token());
            g.seats[p as usize].client = Some(id);
        }
        let _ = tx.send(line(&g.state_msg(seat)));
        g.clients.push(Client {
            id,
            name: name.to_string(),
            seat,
            tx,
        });
        rx
    }

    pub fn is_over(&self) -> bool {
        lock(&self.shared).session.state.outcome.is_some()
    }
}

/// Reads one line of at most `MAX_LINE` bytes. `Ok(None)` at the end of the
/// stream; `Err(())` for an oversized line (the rest of it is skipped).
fn read_line(reader: &mut BufReader<TcpStream>) -> std::io::Result<Option<Result<String, ()>>> {
    let mut buf = Vec::new();
    let n = reader
        .by_ref()
        .take(MAX_LINE as u64 + 1)
        .read_until(b'\n', &mut buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.len() > MAX_LINE && !buf.ends_with(b"\n") {
        // Skip to the end of the oversized line.
        let mut sink = Vec::new();
        loop {
            sink.clear();
            let m = reader
                .by_ref()
                .take(64 * 1024)
                .read_until(b'\n', &mut sink)?;
            if m == 0 || sink.ends_with(b"\n") {
                break;
            }
        }
        return Ok(Some(Err(())));
    }
    Ok(Some(Ok(String::from_utf8_lossy(&buf).trim().to_string())))
}

impl Shared {
    /// Seats a client that said hello: a returning seat by token, a named
    /// free seat, the first free seat, or a spectator. Sends the welcome
    /// and the state; returns the client's id, or what to tell it.
    fn greet(
        &mut self,
        tx: &Sender<String>,
        version: u32,
        name: String,
        seat: Option<String>,
        tok: Option<String>,
        spectator: bool,
    ) -> Result<u64, String> {
        if version != PROTOCOL_VERSION {
            return Err(format!(
                "protocol version {version} is not {PROTOCOL_VERSION}"
            ));
        }
        let players = self.session.engine.variant.players.clone();
        let by_token = tok.as_ref().and_then(|t| {
            self.seats
                .iter()
                .position(|s| s.token.as_deref() == Some(t.as_str()))
        });
        let chosen = if spectator {
            None
        } else if let Some(i) = by_token {
            Some(i)
        } else if let Some(name) = &seat {
            match players.iter().position(|p| p == name) {
                Some(i) if self.seats[i].token.is_none() && !self.seats[i].local => Some(i),
                Some(_) => return Err(format!("seat {name} is taken")),
                None => return Err(format!("no seat {name} (seats: {})", players.join(", "))),
            }
        } else {
            self.seats
                .iter()
                .position(|s| s.token.is_none() && !s.local)
        };
        if tok.is_some() && by_token.is_none() {
            return Err("unknown token".to_string());
        }
        let id = self.next_id;
        self.next_id += 1;
        let seat_token = chosen.map(|i| {
            let s = &mut self.seats[i];
            let t = s.token.clone().unwrap_or_else(token);
            s.token = Some(t.clone());
            s.name = Some(name.clone());
            s.client = Some(id);
            t
        });
        self.clients.push(Client {
            id,
            name,
            seat: chosen.map(|i| i as PlayerId),
            tx: tx.clone(),
        });
        let engine = &self.session.engine;
        let _ = tx.send(line(&HostMsg::Welcome {
            version: PROTOCOL_VERSION,
            variant: engine.variant.name.clone(),
            players,
            seat: chosen.map(|i| engine.player_name(i as PlayerId).to_string()),
            token: seat_token,
        }));
        if by_token.is_some() {
            self.session.resume_clock();
        }
        let _ = tx.send(line(&self.state_msg(chosen.map(|i| i as PlayerId))));
        if let Some(o) = &self.session.state.outcome {
            let _ = tx.send(line(&HostMsg::End {
                outcome: self.session.engine.outcome_text(o),
            }));
        }
        Ok(id)
    }

    /// Relays a client's chat line (cut to 500 characters) to everyone.
    fn chat(&self, id: u64, text: &str) {
        let from = self
            .clients
            .iter()
            .find(|c| c.id == id)
            .map(|c| c.name.clone())
            .unwrap_or_default();
        let text: String = text.chars().take(500).collect();
        for c in &self.clients {
            let _ = c.tx.send(line(&HostMsg::Chat {
                from: from.clone(),
                text: text.clone(),
            }));
        }
    }

    /// A client has gone: its seat waits for its token, and the clock
    /// pauses while its player is away.
    fn leave(&mut self, id: u64) {
        let seat = self
            .clients
            .iter()
            .find(|c| c.id == id)
            .and_then(|c| c.seat);
        self.clients.retain(|c| c.id != id);
        if let Some(p) = seat {
            self.seats[p as usize].client = None;
            if self.session.engine.acting_player(&self.session.state) == Some(p) {
                self.session.pause_clock();
            }
        }
    }
}

fn handle(shared: Arc<Mutex<Shared>>, stream: TcpStream) {
    let Ok(write_half) = stream.try_clone() else {
        return;
    };
    let (tx, rx) = channel::<String>();
    std::thread::spawn(move || {
        let mut w = write_half;
        for msg in rx {
            if w.write_all(msg.as_bytes()).is_err() {
                break;
            }
        }
        let _ = w.shutdown(std::net::Shutdown::Both);
    });
    let mut reader = BufReader::new(stream);
    let err = |m: &str| {
        line(&HostMsg::Error {
            message: m.to_string(),
        })
    };
    // The hello.
    let mut me: Option<u64> = None;
    loop {
        let msg = match read_line(&mut reader) {
            Ok(Some(Ok(l))) => l,
            Ok(Some(Err(()))) => {
                let _ = tx.send(err(&format!("message longer than {MAX_LINE} bytes")));
                continue;
            }
            _ => break,
        };
        if msg.is_empty() {
            continue;
        }
        let parsed: Result<ClientMsg, _> = serde_json::from_str(&msg);
        let mut g = lock(&shared);
        match (parsed, me) {
            (Err(e), _) => {
                let _ = tx.send(err(&format!("malformed message: {e}")));
            }
            (
                Ok(ClientMsg::Hello {
                    version,
                    name,
                    seat,
                    token: tok,
                    spectator,
                }),
                None,
            ) => match g.greet(&tx, version, name, seat, tok, spectator) {
                Ok(id) => me = Some(id),
                Err(e) => {
                    let _ = tx.send(err(&e));
                }
            },
            (Ok(ClientMsg::Hello { .. }), Some(_)) => {
                let _ = tx.send(err("already greeted"));
            }
            (Ok(_), None) => {
                let _ = tx.send(err("say hello first"));
            }
            (Ok(ClientMsg::Action { text }), Some(id)) => {
                let seat = g.clients.iter().find(|c| c.id == id).and_then(|c| c.seat);
                if let Err(e) = g.act(seat, &text) {
                    g.send(id, &HostMsg::Error { message: e });
                }
            }
            (Ok(ClientMsg::Chat { text }), Some(id)) => g.chat(id, &text),
            (Ok(ClientMsg::Bye), Some(_)) => break,
        }
    }
    if let Some(id) = me {
        lock(&shared).leave(id);
    }
}

/// Prints one host message for a person; false when the host is closing.
pub fn print_host_line(l: &str) -> bool {
    match serde_json::from_str::<HostMsg>(l) {
        Ok(HostMsg::Welcome {
            seat,
            token,
            variant,
            ..
        }) => {
            println!(
                "joined {variant} as {}",
                seat.as_deref().unwrap_or("a spectator")
            );
            if let Some(t) = token {
                println!("(to come back after a disconnect: --token {t})");
            }
        }
        Ok(HostMsg::State {
            board,
            events,
            legal,
            clock,
            ..
        }) => {
            for e in events {
                println!("  {e}");
            }
            print!("{board}");
            if let Some(c) = clock {
                println!("clock: {c}");
            }
            if !legal.is_empty() {
                println!("your move ({} legal; type one, or `say TEXT`)", legal.len());
            }
        }
        Ok(HostMsg::Chat { from, text }) => println!("[{from}] {text}"),
        Ok(HostMsg::Error { message }) => println!("error: {message}"),
        Ok(HostMsg::End { outcome }) => println!("game over: {outcome}"),
        Ok(HostMsg::Closing { reason }) => {
            println!("the host is closing: {reason}");
            return false;
        }
        Err(_) => println!("(unreadable message from the host)"),
    }
    true
}

/// A terminal client: prints boards, events and chat; reads actions and
/// `say TEXT` from standard input.
pub fn join(
    addr: &str,
    name: &str,
    seat: Option<&str>,
    token: Option<&str>,
    spectator: bool,
) -> Result<(), String> {
    let stream = TcpStream::connect(addr).map_err(|e| format!("cannot connect to {addr}: {e}"))?;
    let mut w = stream.try_clone().map_err(|e| e.to_string())?;
    let hello = ClientMsg::Hello {
        version: PROTOCOL_VERSION,
        name: name.to_string(),
        seat: seat.map(str::to_string),
        token: token.map(str::to_string),
        spectator,
    };
    writeln!(
        w,
        "{}",
        serde_json::to_string(&hello).map_err(|e| e.to_string())?
    )
    .map_err(|e| e.to_string())?;
    let reader = std::thread::spawn(move || {
        let r = BufReader::new(stream);
        for l in r.lines() {
            let Ok(l) = l else { break };
            if !print_host_line(&l) {
                break;
            }
        }
        std::process::exit(0);
    });
    let stdin = std::io::stdin();
    for l in stdin.lock().lines() {
        let l = l.map_err(|e| e.to_string())?;
        let l = l.trim();
        let msg = if l.is_empty() {
            continue;
        } else if l == "quit" {
            ClientMsg::Bye
        } else if let Some(t) = l.strip_prefix("say ").or_else(|| l.strip_prefix("/say ")) {
            ClientMsg::Chat {
                text: t.to_string(),
            }
        } else {
            ClientMsg::Action {
                text: l.to_string(),
            }
        };
        let bye = matches!(msg, ClientMsg::Bye);
        writeln!(
            w,
            "{}",
            serde_json::to_string(&msg).map_err(|e| e.to_string())?
        )
        .map_err(|e| e.to_string())?;
        if bye {
            return Ok(());
        }
    }
    let _ = reader.join();
    Ok(())
}
