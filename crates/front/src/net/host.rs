//! The game a host holds: seats, clients and their queues, the setup phase,
//! the log of what every action did as each viewer knows it, clocks.
//! Connections are read in `conn`; agents think in `bots`.

use std::net::TcpStream;
use std::sync::mpsc::{Sender, SyncSender, TrySendError};
use std::sync::{Arc, Mutex, MutexGuard};

use super::limits::{AwayPolicy, HostOptions};
use super::proto::{clean, line, HostMsg};
use crate::play::agent::AgentSpec;
use crate::record::journal::{Entry, Journal};
use crate::record::view::{PlayerId, Viewer};
use crate::session::{Arrangement, Session};

/// How many past actions a joining or returning client is told of.
pub const CATCH_UP: usize = 20;

/// The state message the host sends a seat (`None`: a spectator) after
/// the action played at ply `played` (`None`: no events): built only from
/// that viewer's view, that viewer's event lines and that seat's legal
/// actions. It never holds the seed.
pub fn state_message(session: &Session, seat: Option<PlayerId>, played: Option<usize>) -> HostMsg {
    let viewer = seat.map(Viewer::Player).unwrap_or(Viewer::Public);
    let events = played
        .map(|i| session.played_lines(i, viewer))
        .unwrap_or_default();
    state_with(session, seat, events)
}

fn state_with(session: &Session, seat: Option<PlayerId>, events: Vec<String>) -> HostMsg {
    let s = session;
    let viewer = seat.map(Viewer::Player).unwrap_or(Viewer::Public);
    let view = s.view(viewer);
    let legal = seat.map(|p| s.legal_texts(p)).unwrap_or_default();
    let board = s.plain_board(&view, viewer);
    HostMsg::State {
        seq: s.ply(),
        board,
        view: Box::new(view),
        events,
        legal,
        clock: s.clock_text(),
    }
}

pub(super) struct Client {
    pub(super) id: u64,
    pub(super) name: String,
    pub(super) seat: Option<PlayerId>,
    tx: SyncSender<String>,
    /// The socket, to close it when the client is dropped or replaced.
    stream: Option<TcpStream>,
    /// How many entries of the event log this client has been sent.
    seen: usize,
}

#[derive(Default, Clone)]
pub(super) struct Seat {
    pub(super) token: Option<String>,
    pub(super) name: Option<String>,
    pub(super) client: Option<u64>,
    /// The agent the host plays this seat with, if any.
    pub(super) agent: Option<AgentSpec>,
    /// Played from the host's own terminal.
    pub(super) terminal: bool,
}

impl Seat {
    fn local(&self) -> bool {
        self.agent.is_some()
    }
}

/// A seat's part of the setup phase.
pub(super) enum SetupSlot {
    /// Dealt from the seed (no setup zone, or an agent's seat).
    Dealt,
    Waiting,
    Ready(Option<Arrangement>),
}

pub(super) struct Shared {
    pub(super) session: Session,
    pub(super) seats: Vec<Seat>,
    pub(super) clients: Vec<Client>,
    next_id: u64,
    /// Where each action is written before anyone hears of it.
    journal: Option<Journal>,
    /// Why the journal cannot be written: no more moves are accepted.
    journal_error: Option<String>,
    /// Per action played: its event lines for each player, then for
    /// spectators.
    log: Vec<Vec<Vec<String>>>,
    ended: bool,
    /// The setup phase, while it lasts.
    pub(super) setups: Option<Vec<SetupSlot>>,
    pub(super) opts: HostOptions,
    /// Wakes the thread that plays the agents' seats.
    pub(super) bot_kick: Option<Sender<()>>,
    clock_on: bool,
    clock_started: bool,
    /// Whether the host is closing (no more deliveries).
    pub(super) closed: bool,
}

pub(super) type SharedRef = Arc<Mutex<Shared>>;

pub(super) fn lock(m: &SharedRef) -> MutexGuard<'_, Shared> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

pub(super) fn token() -> String {
    use rand::Rng;
    // Not game randomness: a secret for reconnecting, from the OS generator.
    format!(
        "{:016x}{:016x}",
        rand::rng().random::<u64>(),
        rand::rng().random::<u64>()
    )
}

impl Shared {
    pub(super) fn new(mut session: Session, opts: HostOptions, journal: Option<Journal>) -> Shared {
        let n = session.player_count();
        let mut seats = vec![Seat::default(); n];
        for (i, a) in opts.agents.iter().enumerate().take(n) {
            seats[i].agent = a.clone();
        }
        let setups = opts.setup_phase.then(|| {
            let asked = session.setup_seats();
            (0..n)
                .map(|i| {
                    if asked.contains(&(i as PlayerId)) && !seats[i].local() {
                        SetupSlot::Waiting
                    } else {
                        SetupSlot::Dealt
                    }
                })
                .collect::<Vec<_>>()
        });
        session.pause_clock();
        let mut shared = Shared {
            session,
            seats,
            clients: Vec::new(),
            next_id: 1,
            journal,
            journal_error: None,
            log: Vec::new(),
            ended: false,
            setups,
            opts,
            bot_kick: None,
            clock_on: false,
            clock_started: false,
            closed: false,
        };
        shared.begin_if_ready();
        shared
    }

    pub(super) fn begun(&self) -> bool {
        self.setups.is_none()
    }

    /// Sends each client the line `f` makes for it (none: nothing); a
    /// client whose queue is full is dropped.
    pub(super) fn deliver(&mut self, f: impl Fn(&Shared, &Client) -> Option<String>) {
        if self.closed {
            return;
        }
        let mut behind = Vec::new();
        for c in &self.clients {
            if let Some(l) = f(self, c) {
                match c.tx.try_send(l) {
                    Ok(()) => {}
                    Err(TrySendError::Full(_)) | Err(TrySendError::Disconnected(_)) => {
                        behind.push(c.id)
                    }
                }
            }
        }
        for id in behind {
            self.drop_client(id);
        }
    }

    pub(super) fn send(&mut self, id: u64, msg: &HostMsg) {
        let l = line(msg);
        self.deliver(|_, c| (c.id == id).then(|| l.clone()));
    }

    pub(super) fn send_all(&mut self, msg: &HostMsg) {
        let l = line(msg);
        self.deliver(|_, _| Some(l.clone()));
    }

    /// Closes a client that fell behind (or was replaced): its socket is
    /// shut, its seat waits for its token.
    pub(super) fn drop_client(&mut self, id: u64) {
        if let Some(c) = self.clients.iter().find(|c| c.id == id) {
            if let Some(s) = &c.stream {
                let _ = s.shutdown(std::net::Shutdown::Both);
            }
        }
        self.leave(id);
    }

    /// Adds a client; returns its id.
    pub(super) fn add_client(
        &mut self,
        name: String,
        seat: Option<PlayerId>,
        tx: SyncSender<String>,
        stream: Option<TcpStream>,
    ) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.clients.push(Client {
            id,
            name,
            seat,
            tx,
            stream,
            seen: self.log.len(),
        });
        id
    }

    /// Adds the event lines of the actions played since the log was last
    /// brought up to date, as each viewer knows them now.
    fn record_events(&mut self) {
        let s = &self.session;
        let n = s.player_count();
        while self.log.len() < s.ply() {
            let i = self.log.len();
            let lines = (0..=n)
                .map(|v| {
                    let viewer = if v < n {
                        Viewer::Player(v as PlayerId)
                    } else {
                        Viewer::Public
                    };
                    s.played_lines(i, viewer)
                })
                .collect();
            self.log.push(lines);
        }
    }

    fn viewer_index(&self, seat: Option<PlayerId>) -> usize {
        seat.map(|p| p as usize)
            .unwrap_or(self.session.player_count())
    }

    /// The log's lines from entry `from` on, for a seat.
    pub(super) fn log_lines(&self, from: usize, seat: Option<PlayerId>) -> Vec<String> {
        let v = self.viewer_index(seat);
        self.log[from.min(self.log.len())..]
            .iter()
            .flat_map(|e| e[v].iter().cloned())
            .collect()
    }

    /// The state message for one client: every event it has not been sent.
    fn state_for(&self, c: &Client) -> String {
        line(&state_with(
            &self.session,
            c.seat,
            self.log_lines(c.seen, c.seat),
        ))
    }

    /// Sends every client its state (with the events it has not seen), and
    /// `end` once when the game is over.
    pub(super) fn broadcast_state(&mut self) {
        if !self.begun() {
            return;
        }
        self.record_events();
        self.deliver(|g, c| Some(g.state_for(c)));
        let seen = self.log.len();
        for c in &mut self.clients {
            c.seen = seen;
        }
        if let Some(outcome) = self.session.outcome_text() {
            if !self.ended {
                self.ended = true;
                self.send_all(&HostMsg::End { outcome });
            }
        }
        self.update_clock();
        if let Some(k) = &self.bot_kick {
            let _ = k.send(());
        }
    }

    /// Sends one client its state now (after joining).
    pub(super) fn send_state(&mut self, id: u64) {
        if !self.begun() {
            return;
        }
        self.record_events();
        let seen = self.log.len();
        self.deliver(|g, c| (c.id == id).then(|| g.state_for(c)));
        if let Some(c) = self.clients.iter_mut().find(|c| c.id == id) {
            c.seen = seen;
        }
    }

    /// Writes an entry to the journal (if there is one). When it cannot be
    /// written, the host's terminal and every player are told, and no
    /// more moves are accepted.
    pub(super) fn journal(&mut self, entry: &Entry) -> Result<(), String> {
        if let Some(e) = &self.journal_error {
            return Err(e.clone());
        }
        let Some(j) = &mut self.journal else {
            return Ok(());
        };
        match j.write(entry) {
            Ok(()) => Ok(()),
            Err(e) => {
                let message = format!(
                    "the host cannot write its journal ({e}): the game stops here, no more moves are accepted"
                );
                eprintln!("error: {message}");
                self.journal_error = Some(message.clone());
                self.send_all(&HostMsg::Error {
                    message: message.clone(),
                });
                Err(message)
            }
        }
    }

    /// Plays a journal's entries (after its host line) again: the seats'
    /// tokens, the arrangements, the actions with the clocks as they were
    /// recorded, a flag that fell. Nothing is journaled meanwhile.
    pub(super) fn replay(&mut self, entries: &[Entry]) -> Result<(), String> {
        let n = self.seats.len();
        let mut clock = None;
        for (i, e) in entries.iter().enumerate() {
            let line = i + 2;
            match e {
                Entry::Host { .. } => return Err(format!("line {line}: a second host line")),
                Entry::Seat { seat, token, name } => {
                    let s = self
                        .seats
                        .get_mut(*seat as usize)
                        .filter(|_| (*seat as usize) < n)
                        .ok_or_else(|| format!("line {line}: no seat {seat}"))?;
                    s.token = Some(token.clone());
                    s.name = Some(name.clone());
                }
                Entry::Setup {
                    seat,
                    text,
                    back_first,
                } if (*seat as usize) < n => self
                    .submit_setup(Some(*seat), text, *back_first)
                    .map_err(|e| format!("line {line}: {e}"))?,
                Entry::Setup { seat, .. } => return Err(format!("line {line}: no seat {seat}")),
                Entry::Begin { .. } | Entry::End { .. } => {}
                Entry::Action { text, clock: c } => {
                    if !self.begun() {
                        return Err(format!("line {line}: an action before the armies are in"));
                    }
                    self.session
                        .play(text)
                        .map_err(|e| format!("line {line}: {e}"))?;
                    self.session.pause_clock();
                    clock = c.clone();
                }
                Entry::Flag { player } => {
                    if (*player as usize) >= n {
                        return Err(format!("line {line}: no player {player}"));
                    }
                    self.session.time_out(*player);
                }
            }
        }
        if let Some(c) = clock {
            self.session.set_clock_millis(&c);
        }
        self.ended = self.session.is_over();
        Ok(())
    }

    /// Attaches the journal after replaying `entries` from it, and writes
    /// what the replay found that it lacks (a host killed between two
    /// entries of one step): the start of play, the end.
    pub(super) fn attach_journal(
        &mut self,
        journal: Journal,
        entries: &[Entry],
    ) -> Result<(), String> {
        self.journal = Some(journal);
        let has = |f: fn(&Entry) -> bool| entries.iter().any(f);
        if self.begun() && !has(|e| matches!(e, Entry::Begin { .. })) {
            let start = Box::new(self.session.start_position());
            self.journal(&Entry::Begin { start })?;
        }
        if let Some(result) = self.session.outcome_text() {
            if !has(|e| matches!(e, Entry::End { .. })) {
                self.journal(&Entry::End { result })?;
            }
        }
        Ok(())
    }

    /// Journals what the last play did: the actions played since ply
    /// `from` (the clocks after the last), a flag that fell, the end.
    fn journal_played(
        &mut self,
        from: usize,
        acting: Option<PlayerId>,
        ended: bool,
    ) -> Result<(), String> {
        let n = self.session.ply();
        for i in from..n {
            let text = self.session.played_text(i).unwrap_or_default().to_string();
            let clock = if i + 1 == n {
                self.session.clock_millis()
            } else {
                None
            };
            self.journal(&Entry::Action { text, clock })?;
        }
        if let (Some(result), false) = (self.session.outcome_text(), ended) {
            if n == from {
                if let Some(p) = acting {
                    self.journal(&Entry::Flag { player: p })?;
                }
            }
            self.journal(&Entry::End { result })?;
        }
        Ok(())
    }

    /// Plays an action for a seat; the error goes back to that client only.
    pub(super) fn act(&mut self, seat: Option<PlayerId>, text: &str) -> Result<(), String> {
        let Some(p) = seat else {
            return Err("spectators cannot act".into());
        };
        if let Some(e) = &self.journal_error {
            return Err(e.clone());
        }
        if !self.begun() {
            return Err("the armies are still being set up".into());
        }
        let s = &self.session;
        match s.acting_player() {
            None => return Err("the game is over".into()),
            Some(q) if q != p => {
                return Err(format!(
                    "it is {}'s turn, not {}'s",
                    s.player_name(q),
                    s.player_name(p)
                ))
            }
            _ => {}
        }
        self.play(text)
    }

    /// Plays an action (already checked to be the acting seat's) and tells
    /// everyone.
    pub(super) fn play(&mut self, text: &str) -> Result<(), String> {
        if let Some(e) = &self.journal_error {
            return Err(e.clone());
        }
        let before = (self.session.ply(), self.session.is_over());
        let acting = self.session.acting_player();
        let result = self.session.play(text).map(|_| ());
        if !self.clock_on {
            // The session restarts the clock after an action; it stays
            // stopped while the clocks wait for the players.
            self.session.pause_clock();
        }
        // A refused action may still end the game (a flag that fell).
        let after = (self.session.ply(), self.session.is_over());
        if after != before {
            if let Err(e) = self.journal_played(before.0, acting, before.1) {
                // Not recorded: not played.
                self.session.take_back_to(before.0);
                return Err(e);
            }
            self.broadcast_state();
        }
        result
    }

    /// Whether the clocks should run now: the game has begun and is not
    /// over, and every person's seat is filled (or the policy lets them run
    /// once started).
    fn clock_wanted(&self) -> bool {
        let filled = self
            .seats
            .iter()
            .all(|s| s.local() || s.client.is_some() || s.terminal);
        self.begun()
            && !self.session.is_over()
            && (filled || (self.opts.away == AwayPolicy::Run && self.clock_started))
    }

    pub(super) fn update_clock(&mut self) {
        let want = self.clock_wanted();
        if want && !self.clock_on {
            self.session.resume_clock();
            self.clock_started = true;
        } else if !want && self.clock_on {
            self.session.pause_clock();
        }
        self.clock_on = want;
    }

    /// Ends the game if the acting player's time has run out.
    pub(super) fn check_flag(&mut self) {
        if self.clock_on {
            let acting = self.session.acting_player();
            let n = self.session.ply();
            if self.session.flag_fall() && self.journal_played(n, acting, false).is_ok() {
                self.broadcast_state();
            }
        }
    }

    /// Relays a client's chat line (cleaned, cut to the limit) to everyone.
    pub(super) fn chat(&mut self, id: u64, text: &str) {
        let from = self
            .clients
            .iter()
            .find(|c| c.id == id)
            .map(|c| c.name.clone())
            .unwrap_or_default();
        let text: String = clean(text)
            .chars()
            .take(self.opts.limits.chat_chars)
            .collect();
        if !text.trim().is_empty() {
            self.send_all(&HostMsg::Chat { from, text });
        }
    }

    /// A client has gone: its seat waits for its token, the others are
    /// told, and the clocks follow the away policy.
    pub(super) fn leave(&mut self, id: u64) {
        let Some(i) = self.clients.iter().position(|c| c.id == id) else {
            return;
        };
        let c = self.clients.remove(i);
        if let Some(p) = c.seat {
            if self.seats[p as usize].client == Some(id) {
                self.seats[p as usize].client = None;
                let seat = self.session.player_name(p).to_string();
                self.send_all(&HostMsg::Presence {
                    seat,
                    name: c.name,
                    here: false,
                });
                self.update_clock();
            }
        }
    }

    /// Records a seat's arrangement; the game begins when all are in.
    pub(super) fn submit_setup(
        &mut self,
        seat: Option<PlayerId>,
        text: &str,
        back_first: bool,
    ) -> Result<(), String> {
        let Some(p) = seat else {
            return Err("spectators have no army to set up".into());
        };
        let Some(slots) = &self.setups else {
            return Err("the game has begun: the armies are set up".into());
        };
        match slots[p as usize] {
            SetupSlot::Waiting => {}
            SetupSlot::Ready(_) => return Err("your army is already set up".into()),
            SetupSlot::Dealt => return Err("your army is dealt: there is nothing to set up".into()),
        }
        if let Some(e) = &self.journal_error {
            return Err(e.clone());
        }
        let a = self.session.check_setup(p, text, back_first)?;
        self.journal(&Entry::Setup {
            seat: p,
            text: text.to_string(),
            back_first,
        })?;
        if let Some(slots) = &mut self.setups {
            slots[p as usize] = SetupSlot::Ready(a);
        }
        self.setup_status();
        self.begin_if_ready();
        Ok(())
    }

    /// Tells everyone who is ready (names only).
    pub(super) fn setup_status(&mut self) {
        let Some(slots) = &self.setups else { return };
        let e = &self.session;
        let mut ready = Vec::new();
        let mut waiting = Vec::new();
        for (i, s) in slots.iter().enumerate() {
            let name = e.player_name(i as PlayerId).to_string();
            match s {
                SetupSlot::Waiting => waiting.push(name),
                SetupSlot::Ready(_) => ready.push(name),
                SetupSlot::Dealt => {}
            }
        }
        self.send_all(&HostMsg::SetupStatus { ready, waiting });
    }

    /// Starts play once every arrangement is in.
    fn begin_if_ready(&mut self) {
        let Some(slots) = &self.setups else { return };
        if slots.iter().any(|s| matches!(s, SetupSlot::Waiting)) {
            return;
        }
        let slots = self.setups.take().expect("checked above");
        let arrangements = slots
            .into_iter()
            .map(|s| match s {
                SetupSlot::Ready(a) => a,
                _ => None,
            })
            .collect();
        self.session.begin_with(arrangements);
        self.session.pause_clock();
        self.clock_on = false;
        self.log.clear();
        for c in &mut self.clients {
            c.seen = 0;
        }
        let start = Box::new(self.session.start_position());
        if self.journal(&Entry::Begin { start }).is_ok() {
            self.broadcast_state();
        }
    }

    /// Sends a seat that still has to arrange its army what to arrange.
    pub(super) fn ask_setup(&mut self, id: u64, seat: Option<PlayerId>) {
        let Some(p) = seat else { return };
        let waiting = matches!(
            self.setups.as_ref().map(|s| &s[p as usize]),
            Some(SetupSlot::Waiting)
        );
        if waiting {
            let prompt = self.session.setup_prompt(p);
            self.send(id, &HostMsg::SetupRequest { prompt });
        }
    }
}
