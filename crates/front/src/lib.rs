//! The front ends: the command line, the REPL session, network play,
//! rendering, simulation reports, game clocks, reload on save, and the board in a browser.

// The layers below, under the names the code spells them with
// (`crate::base::…`).
use sandtable_base as base;
use sandtable_engine as engine;
use sandtable_play as play;
use sandtable_record as record;
use sandtable_rules as rules;
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
