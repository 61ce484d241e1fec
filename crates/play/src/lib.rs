//! Players the host runs: what a player knows and the worlds consistent
//! with it ([`determinize`]), agents, and many-game simulation.

// The layers below, under the names the code spells them with
// (`crate::base::…`).
use sandtable_base as base;
use sandtable_engine as engine;
use sandtable_rules as rules;
pub mod agent;
pub mod compare;
pub mod determinize;
pub mod fog;
pub mod games_out;
pub mod searcher;
pub mod simulate;
