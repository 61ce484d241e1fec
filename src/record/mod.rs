//! What leaves the engine: per-viewer views, the written forms of moves and
//! positions, and game records.
mod game;
pub mod notation;
pub mod view;

pub use game::*;
