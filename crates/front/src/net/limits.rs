//! What a host allows each client, and how it is hosted (setup phase,
//! agents, clocks while a player is away).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::play::agent::AgentSpec;

/// The bounds that keep one client from hurting the host or the others.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Open connections at once (players, spectators and those still
    /// saying hello); more are told the host is full and closed.
    pub max_connections: usize,
    /// Spectators at once. Whatever this says, spectators leave room for
    /// a connection on every seat, another closing on each, and one still
    /// to say hello: at most `max_connections - 2 × seats - 1`, so players
    /// and spectators never fill the host and a returning player can
    /// always take the place of a connection that has not said hello.
    pub max_spectators: usize,
    /// Spectators from one address at once (a browser relayed by
    /// `serve --web` counts by the browser's address).
    pub spectators_per_address: usize,
    /// Connections from one address that have not said hello yet; past
    /// that, its oldest such connection is closed for the newcomer.
    pub hello_per_address: usize,
    /// Messages waiting to be written to one client; a client that falls
    /// this far behind is dropped (its seat waits for its token).
    pub queue: usize,
    /// Time to say hello after connecting.
    pub hello_timeout: Duration,
    /// Chat lines a client may send per 10 seconds (more get an error).
    pub chat_per_10s: u32,
    /// Refused messages a client may send per 10 seconds (more close it).
    pub bad_per_10s: u32,
    /// Characters of a chat line (the rest is cut).
    pub chat_chars: usize,
    /// Characters of a name.
    pub name_chars: usize,
}

impl Limits {
    /// The most spectators a host with `seats` seats lets in at once.
    pub(crate) fn spectator_cap(&self, seats: usize) -> usize {
        self.max_spectators
            .min(self.max_connections.saturating_sub(2 * seats + 1))
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_connections: 400,
            max_spectators: 256,
            spectators_per_address: 16,
            hello_per_address: 16,
            queue: 256,
            hello_timeout: Duration::from_secs(10),
            chat_per_10s: 20,
            bad_per_10s: 50,
            chat_chars: 500,
            name_chars: 32,
        }
    }
}

/// What a player's clock does while that player is away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum AwayPolicy {
    /// The clocks stop until every seat is filled again.
    #[default]
    Pause,
    /// The clocks keep running (once they have started).
    Run,
}

impl std::str::FromStr for AwayPolicy {
    type Err = String;
    fn from_str(s: &str) -> Result<AwayPolicy, String> {
        match s {
            "pause" => Ok(AwayPolicy::Pause),
            "run" => Ok(AwayPolicy::Run),
            _ => Err(format!("`{s}`: expected pause or run")),
        }
    }
}

/// How a game is hosted.
#[derive(Clone, Debug, Default)]
pub struct HostOptions {
    /// The journal: every action is written to it, and synced, before
    /// anyone hears of it (`None`: the game is kept nowhere).
    pub save: Option<PathBuf>,
    /// The agent the host plays each seat with (`None`: a person's seat).
    pub agents: Vec<Option<AgentSpec>>,
    /// Each player with a setup zone arranges their own army before play
    /// (agents' seats are dealt from the seed). Off: every army is dealt.
    pub setup_phase: bool,
    pub away: AwayPolicy,
    /// The seat the host's own terminal plays (kept in the journal).
    pub terminal: Option<crate::record::view::PlayerId>,
    pub limits: Limits,
}

/// A token bucket: `per_10s` events per 10 seconds, with bursts of as many.
pub(crate) struct Bucket {
    per_10s: f64,
    tokens: f64,
    at: Instant,
}

impl Bucket {
    pub(crate) fn new(per_10s: u32) -> Bucket {
        Bucket {
            per_10s: per_10s as f64,
            tokens: per_10s as f64,
            at: Instant::now(),
        }
    }

    /// Takes one token; false when none is left.
    pub(crate) fn take(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.at).as_secs_f64() * self.per_10s / 10.0;
        self.tokens = (self.tokens + refill).min(self.per_10s);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}
