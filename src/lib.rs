//! sandtable: a scripting-driven rules sandbox for board games.
pub mod agent;
pub mod cli;
pub mod clock;
pub mod determinize;
pub mod engine;
pub mod geometry;
pub mod lua;
pub mod net;
pub mod notation;
pub mod record;
pub mod render;
pub mod session;
pub mod simulate;
pub mod state;
pub mod variant;
pub mod view;
pub mod watch;
