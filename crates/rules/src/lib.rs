//! What a variant is: the YAML schema and its validation ([`variant`]), and
//! the rules a script adds ([`lua`]). Knows nothing of the engine.

// The layers below, under the names the code spells them with
// (`crate::base::…`).
use sandtable_base as base;
pub mod cells;
pub mod freeze;
pub mod lua;
pub mod variant;
