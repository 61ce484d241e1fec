//! Network play: the host holds the only copy of the game; clients get only
//! their seat's view, arrange their army, send actions and chat.
//! Line-delimited JSON over TCP; see docs/protocol.md.
//!
//! `proto`: the messages and text hygiene; `limits`: what the host allows;
//! `host`: the game, seats, queues, event log, setup phase and clocks;
//! `server`: starting a host and seating clients; `conn`: one connection;
//! `relayed`: which browser each of `serve --web`'s relayed connections
//! stands for; `bots`: agents that think off the game's lock; `client`:
//! `join`.

mod bots;
mod client;
mod conn;
mod host;
mod limits;
mod proto;
mod relayed;
mod server;

pub use client::{join, print_host_line, ClientState, Printed};
pub use host::{state_message, CATCH_UP};
pub use limits::{AwayPolicy, HostOptions, Limits};
pub use proto::{clean, clean_lines, name_problem, ClientMsg, HostMsg, MAX_LINE, PROTOCOL_VERSION};
pub use relayed::{Recorded, Relayed};
pub use server::Server;
