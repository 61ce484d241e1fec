//! sandtable: a scripting-driven rules sandbox for board games.
//!
//! The crate is in layers; a layer uses only the layers listed before it
//! (`tests/layers.rs` holds the code to this):
//!
//! 1. [`base`]: board geometry and the game state, plain data.
//! 2. [`rules`]: the variant schema (YAML, `extends`, options, validation)
//!    and the Lua bridge (sandbox, the `g` API, hook calls).
//! 3. [`engine`]: movement tables and generation, legality, applying
//!    actions, turns and outcomes, perft and playouts.
//! 4. [`record`]: what leaves the engine: per-viewer views, notation,
//!    positions and game records.
//! 5. [`play`]: players the host runs: determinization, agents, simulation.
//! 6. [`front`]: the front ends: CLI, REPL session, network, rendering,
//!    clocks, file watching.
pub mod base;
pub mod engine;
pub mod front;
pub mod play;
pub mod record;
pub mod rules;
