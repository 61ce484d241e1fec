//! A running host: starting it (the listener, the agents' thread, the
//! clock's watch), seating clients that say hello, and what the host's own
//! terminal does.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::host::{lock, token, Shared, SharedRef, CATCH_UP};
use super::limits::HostOptions;
use super::proto::{name_problem, HostMsg, PROTOCOL_VERSION};
use super::relayed::Relayed;
use crate::play::agent::AgentSpec;
use crate::record::journal::{Entry, Journal};
use crate::record::view::PlayerId;
use crate::session::Session;

/// A running host.
pub struct Server {
    shared: SharedRef,
    pub addr: SocketAddr,
    /// Where a resumed journal's reading stopped before its end (a damaged
    /// line), for the host's terminal.
    pub note: Option<String>,
    relayed: Arc<Relayed>,
}

/// What a client asks for in its hello.
pub(super) struct Hello {
    pub(super) version: u32,
    pub(super) name: String,
    pub(super) seat: Option<String>,
    pub(super) token: Option<String>,
    pub(super) spectator: bool,
}

impl Server {
    /// Hosts `session` on `addr` (port 0 picks a free port), every army
    /// dealt from the seed. `local` marks seats the host plays itself with
    /// a random agent.
    pub fn start(
        session: Session,
        addr: &str,
        local: Vec<bool>,
        save: Option<PathBuf>,
    ) -> Result<Server, String> {
        let agents = local
            .iter()
            .map(|&l| l.then_some(AgentSpec::Random))
            .collect();
        Server::start_with_agents(session, addr, agents, save)
    }

    /// Like [`Server::start`], with the agent the host plays each of its
    /// own seats with (`None`: the seat is not the host's agent's).
    pub fn start_with_agents(
        session: Session,
        addr: &str,
        agents: Vec<Option<AgentSpec>>,
        save: Option<PathBuf>,
    ) -> Result<Server, String> {
        let opts = HostOptions {
            save,
            agents,
            ..HostOptions::default()
        };
        Server::start_with(session, addr, opts)
    }

    /// Hosts `session` on `addr` as `opts` say. With `opts.save`, the
    /// journal is created first (an error if it cannot be), and every
    /// action is written to it before anyone hears of it.
    pub fn start_with(session: Session, addr: &str, opts: HostOptions) -> Result<Server, String> {
        let journal = match &opts.save {
            Some(path) => Some(Journal::create(path)?),
            None => None,
        };
        let listener =
            TcpListener::bind(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let journal = match journal {
            Some(mut j) => {
                j.write(&host_entry(&session, &opts))
                    .map_err(|e| format!("cannot write the journal: {e}"))?;
                Some(j)
            }
            None => None,
        };
        let searcher = searcher_for(&session, &opts)?;
        let limits = opts.limits.clone();
        let shared = Shared::new(session, opts, journal);
        Server::launch(listener, shared, searcher, limits)
    }

    /// Continues the game of the journal at `path` on `addr`: the same
    /// variant, options, seed, seats and clocks, the arrangements and
    /// actions played again; each seat's token takes it back. The journal
    /// goes on in the same file. Also returns the seat the host's terminal
    /// plays.
    pub fn resume(
        path: &std::path::Path,
        addr: &str,
        limits: super::limits::Limits,
    ) -> Result<(Server, Option<PlayerId>), String> {
        // Held first: while another host runs on it, nothing is read or
        // changed.
        let crate::record::journal::Resumed { mut journal, read } = Journal::resume(path)?;
        let shown = crate::record::journal::shown(path);
        let note = read.note(&shown);
        let (entries, whole) = (read.entries, read.whole);
        let Some(Entry::Host {
            variant,
            options,
            seed,
            clock,
            setup_phase,
            agents,
            terminal,
            away,
        }) = entries.first().cloned()
        else {
            return Err(format!("{shown}: not a host's journal"));
        };
        let mut session = Session::new(&variant, &options, seed)?;
        session.set_clock(clock.as_deref())?;
        let agents = agents
            .iter()
            .map(|a| a.as_deref().map(AgentSpec::parse).transpose())
            .collect::<Result<Vec<_>, _>>()?;
        let opts = HostOptions {
            save: Some(path.to_path_buf()),
            agents,
            setup_phase,
            away: away.parse()?,
            terminal,
            limits: limits.clone(),
        };
        let listener =
            TcpListener::bind(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let searcher = searcher_for(&session, &opts)?;
        let mut shared = Shared::new(session, opts, None);
        shared
            .replay(&entries[1..])
            .map_err(|e| format!("{shown}: {e}"))?;
        journal.cut(whole as u64)?;
        shared.attach_journal(journal, &entries)?;
        let mut server = Server::launch(listener, shared, searcher, limits)?;
        server.note = note;
        Ok((server, terminal))
    }

    fn launch(
        listener: TcpListener,
        shared: Shared,
        searcher: Option<crate::play::searcher::Searcher>,
        limits: super::limits::Limits,
    ) -> Result<Server, String> {
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let shared = Arc::new(Mutex::new(shared));
        if let Some(searcher) = searcher {
            super::bots::spawn(&shared, searcher);
        }
        spawn_flag_watch(&shared);
        let relayed = Arc::new(Relayed::default());
        super::conn::spawn_listener(listener, shared.clone(), limits, relayed.clone());
        Ok(Server {
            shared,
            addr,
            note: None,
            relayed,
        })
    }

    /// Where a relay in this process (`serve --web`) records which browser
    /// each of its connections stands for, so that the host counts those
    /// connections by the browser's address.
    pub fn relayed(&self) -> Arc<Relayed> {
        self.relayed.clone()
    }

    /// Tells every client the host is stopping (the journal has every
    /// action already).
    pub fn stop(&self, reason: &str) {
        let mut g = lock(&self.shared);
        g.send_all(&HostMsg::Closing {
            reason: reason.to_string(),
        });
        g.closed = true;
    }

    /// Runs `f` on the hosted session (for the host's own terminal and tests).
    pub fn with_session<R>(&self, f: impl FnOnce(&mut Session) -> R) -> R {
        f(&mut lock(&self.shared).session)
    }

    /// Plays an action for a seat from the host's terminal.
    pub fn act_local(&self, seat: PlayerId, text: &str) -> Result<(), String> {
        lock(&self.shared).act(Some(seat), text)
    }

    /// Submits the army of a seat played from the host's terminal.
    pub fn setup_local(&self, seat: PlayerId, text: &str, back_first: bool) -> Result<(), String> {
        lock(&self.shared).submit_setup(Some(seat), text, back_first)
    }

    /// Sends a chat line from the host to every client.
    pub fn chat(&self, from: &str, text: &str) {
        let mut g = lock(&self.shared);
        g.send_all(&HostMsg::Chat {
            from: from.to_string(),
            text: super::proto::clean(text),
        });
    }

    /// Seats the host's own terminal: it gets the messages of that seat (or
    /// of a spectator) like any client.
    pub fn local_client(&self, name: &str, seat: Option<PlayerId>) -> Receiver<String> {
        let mut g = lock(&self.shared);
        let (tx, rx) = sync_channel(g.opts.limits.queue.max(16));
        if let Some(p) = seat {
            // Taken by the host's terminal: a token nobody has.
            g.seats[p as usize].token = Some(token());
            g.seats[p as usize].terminal = true;
        }
        let id = g.add_client(name.to_string(), seat, tx, None);
        if let Some(p) = seat {
            g.seats[p as usize].client = Some(id);
        }
        g.ask_setup(id, seat);
        g.send_state(id);
        g.update_clock();
        rx
    }

    pub fn is_over(&self) -> bool {
        lock(&self.shared).session.is_over()
    }

    /// Whether the setup phase is over and play has begun.
    pub fn has_begun(&self) -> bool {
        lock(&self.shared).begun()
    }

    /// How many clients are connected (the host's terminal included).
    pub fn client_count(&self) -> usize {
        lock(&self.shared).clients.len()
    }
}

/// The journal's first line: how `session` is hosted as `opts` say.
fn host_entry(session: &Session, opts: &HostOptions) -> Entry {
    let (variant, options) = session.variant_arg();
    Entry::Host {
        variant: variant.to_string(),
        options: options.to_vec(),
        seed: session.seed(),
        clock: session.clock_spec().map(str::to_string),
        setup_phase: opts.setup_phase,
        agents: opts
            .agents
            .iter()
            .map(|a| a.as_ref().map(AgentSpec::text))
            .collect(),
        terminal: opts.terminal,
        away: match opts.away {
            super::limits::AwayPolicy::Pause => "pause".into(),
            super::limits::AwayPolicy::Run => "run".into(),
        },
    }
}

/// The searcher the agents' seats need, if any.
fn searcher_for(
    session: &Session,
    opts: &HostOptions,
) -> Result<Option<crate::play::searcher::Searcher>, String> {
    if opts.agents.iter().any(Option::is_some) {
        let (variant, overrides) = session.variant_arg();
        Ok(Some(crate::play::searcher::Searcher::load(
            variant, overrides,
        )?))
    } else {
        Ok(None)
    }
}

/// Ends the game when the acting player's time runs out, even if nobody
/// sends anything; stops with the host.
fn spawn_flag_watch(shared: &SharedRef) {
    let weak = Arc::downgrade(shared);
    std::thread::spawn(move || loop {
        std::thread::sleep(Duration::from_millis(100));
        let Some(sh) = weak.upgrade() else { return };
        let mut g = lock(&sh);
        if g.closed || g.session.is_over() && g.begun() {
            return;
        }
        g.check_flag();
    });
}

impl Shared {
    /// Seats a client that said hello: a returning seat by token (a
    /// connection already on it is replaced), a named free seat, the first
    /// free seat, or a spectator (if `may_watch` lets it in). Sends the
    /// welcome and what the client needs next; returns its id, or what to
    /// tell it.
    pub(super) fn greet(
        &mut self,
        tx: &SyncSender<String>,
        stream: Option<TcpStream>,
        hello: Hello,
        may_watch: &mut dyn FnMut() -> Result<(), String>,
    ) -> Result<u64, String> {
        let Hello {
            version,
            name,
            seat,
            token: tok,
            spectator,
        } = hello;
        if version != PROTOCOL_VERSION {
            return Err(format!(
                "protocol version {version} is not {PROTOCOL_VERSION}"
            ));
        }
        if let Some(problem) = name_problem(&name, self.opts.limits.name_chars) {
            return Err(problem);
        }
        if name.trim().eq_ignore_ascii_case("host") {
            return Err("the name `host` is the host's own".into());
        }
        let chosen = self.choose_seat(&seat, &tok, spectator)?;
        if chosen.is_none() {
            may_watch()?;
        }
        // A seat's new token is journaled before anyone is told of it.
        let new_token = match chosen {
            Some(i) if self.seats[i].token.is_none() => {
                let t = token();
                self.journal(&Entry::Seat {
                    seat: i as PlayerId,
                    token: t.clone(),
                    name: name.clone(),
                })?;
                Some(t)
            }
            _ => None,
        };
        if let Some(i) = chosen {
            if let Some(old) = self.seats[i].client {
                self.replace(old);
            }
        }
        let id = self.add_client(
            name.clone(),
            chosen.map(|i| i as PlayerId),
            tx.clone(),
            stream,
        );
        let seat_token = chosen.map(|i| {
            let s = &mut self.seats[i];
            let t = s.token.clone().or(new_token).unwrap_or_else(token);
            s.token = Some(t.clone());
            s.name = Some(name.clone());
            s.client = Some(id);
            t
        });
        let s = &self.session;
        let welcome = HostMsg::Welcome {
            version: PROTOCOL_VERSION,
            variant: s.variant_name().to_string(),
            players: s.player_names().to_vec(),
            seat: chosen.map(|i| s.player_name(i as PlayerId).to_string()),
            token: seat_token,
        };
        self.send(id, &welcome);
        self.after_welcome(id, chosen.map(|i| i as PlayerId), name);
        Ok(id)
    }

    /// The seat a hello asks for, or why it cannot have it.
    fn choose_seat(
        &self,
        seat: &Option<String>,
        tok: &Option<String>,
        spectator: bool,
    ) -> Result<Option<usize>, String> {
        let players = self.session.player_names();
        if let Some(t) = tok {
            return match self
                .seats
                .iter()
                .position(|s| !s.terminal && s.token.as_deref() == Some(t.as_str()))
            {
                Some(i) => Ok(Some(i)),
                None => Err("unknown token: no seat of this game has it".to_string()),
            };
        }
        let free = |s: &super::host::Seat| s.token.is_none() && s.agent.is_none() && !s.terminal;
        if spectator {
            Ok(None)
        } else if let Some(name) = seat {
            match players.iter().position(|p| p == name) {
                Some(i) if free(&self.seats[i]) => Ok(Some(i)),
                Some(_) => Err(format!("seat {name} is taken")),
                None => Err(format!("no seat {name} (seats: {})", players.join(", "))),
            }
        } else {
            Ok(self.seats.iter().position(free))
        }
    }

    /// Tells the connection on a seat that another took it, and closes it.
    fn replace(&mut self, old: u64) {
        self.send(
            old,
            &HostMsg::Replaced {
                reason: "another connection took this seat with its token".into(),
            },
        );
        if let Some(i) = self.clients.iter().position(|c| c.id == old) {
            let c = self.clients.remove(i);
            // The writer sends what is queued, then closes the socket.
            drop(c);
        }
    }

    /// After the welcome: the setup request or the catch-up and the state,
    /// the end if the game is over; the others hear of a seat's return.
    fn after_welcome(&mut self, id: u64, seat: Option<PlayerId>, name: String) {
        if self.begun() {
            let from = self.session.ply().saturating_sub(CATCH_UP);
            let events = self.log_lines(from, seat);
            if !events.is_empty() {
                self.send(id, &HostMsg::CatchUp { events });
            }
            self.send_state(id);
        } else {
            self.ask_setup(id, seat);
            self.setup_status();
        }
        if let Some(outcome) = self.session.outcome_text() {
            self.send(id, &HostMsg::End { outcome });
        }
        if let Some(p) = seat {
            let seat = self.session.player_name(p).to_string();
            let msg = super::proto::line(&HostMsg::Presence {
                seat,
                name,
                here: true,
            });
            self.deliver(|_, c| (c.id != id).then(|| msg.clone()));
        }
        self.update_clock();
    }
}
