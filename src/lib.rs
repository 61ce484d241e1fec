//! sandtable: a scripting-driven rules sandbox for board games.
//!
//! The host is a workspace of crates in layers; a crate depends only on
//! the crates listed before it, so a dependency running back up does not
//! compile (`ARCHITECTURE.md` draws the map):
//!
//! 1. [`base`] (`crates/base`): board geometry and the game state, plain
//!    data.
//! 2. [`rules`] (`crates/rules`): the variant schema (YAML, `extends`,
//!    options, validation) and the Lua bridge (sandbox, the `g` API, hook
//!    calls).
//! 3. [`engine`] (`crates/engine`): movement tables and generation,
//!    legality, applying actions, turns and outcomes, perft and playouts.
//! 4. [`record`] (`crates/record`): what leaves the engine: per-viewer
//!    views, notation, positions and game records.
//! 5. [`play`] (`crates/play`): players the host runs: determinization,
//!    agents, simulation.
//! 6. [`front`] (`crates/front`): the front ends: CLI, REPL session,
//!    network, rendering, clocks, file watching.
//!
//! This crate re-exports them under those names for the tests, benches,
//! fuzz targets and the `sandtable` binary.
pub use sandtable_base as base;
pub use sandtable_engine as engine;
pub use sandtable_front as front;
pub use sandtable_play as play;
pub use sandtable_record as record;
pub use sandtable_rules as rules;
