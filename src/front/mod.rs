//! The front ends: the command line, the REPL session, network play,
//! rendering, simulation reports, game clocks, reload on save, and the board in a browser.
pub mod charts;
pub mod cli;
pub mod clock;
pub mod net;
pub mod palette;
pub mod placement;
pub mod render;
pub mod report;
pub mod session;
pub mod watch;
pub mod web;
