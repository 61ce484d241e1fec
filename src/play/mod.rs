//! Players the host runs: what a player knows and the worlds consistent
//! with it ([`determinize`]), agents, and many-game simulation.
pub mod agent;
pub mod compare;
pub mod determinize;
pub mod fog;
pub mod games_out;
pub mod searcher;
pub mod simulate;
