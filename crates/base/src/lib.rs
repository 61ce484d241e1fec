//! The bottom layer: board geometry and the game state, plain data that
//! knows nothing of rules, scripts or play.
pub mod attrs;
pub mod bundled;
pub mod cell_set;
pub mod counters;
pub mod dice;
pub mod effect;
pub mod flow;
pub mod geometry;
pub mod limits;
pub mod marks;
pub mod positions;
pub mod size;
pub mod state;
pub mod suggest;
pub mod write;
