//! What leaves the engine: per-viewer views, the written forms of moves and
//! positions, and game records.
pub mod exchange;
mod flow_pos;
pub mod fog;
pub mod game;
mod items;
pub mod journal;
mod legend;
pub mod movetext;
mod pgn;
mod seen;
mod sgf;
mod variant_ref;
pub mod view;
mod viewers;

pub use flow_pos::{FlowPos, ItemsPos, WindowPos};
pub use game::*;
pub use seen::{read_record, read_record_noted, RecordFile};
pub use variant_ref::{resolve_variant_ref, variant_ref};
