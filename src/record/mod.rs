//! What leaves the engine: per-viewer views, the written forms of moves and
//! positions, and game records.
mod game;
mod legend;
pub mod notation;
mod san;
mod seen;
pub mod view;

pub use game::*;
pub use seen::{read_record, RecordFile};
