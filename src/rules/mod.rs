//! What a variant is: the YAML schema and its validation ([`variant`]), and
//! the rules a script adds ([`lua`]). Knows nothing of the engine.
pub mod cells;
pub mod freeze;
pub mod lua;
pub mod variant;
