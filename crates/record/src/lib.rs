//! What leaves the engine: per-viewer views, the written forms of moves and
//! positions, and game records.

// The layers below, under the names the code spells them with
// (`crate::base::…`).
use sandtable_base as base;
use sandtable_engine as engine;
use sandtable_rules as rules;
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
