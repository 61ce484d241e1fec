//! The reference the self-check and listing shortcuts are held equal to:
//! [`Exhaustive`] holds an engine of the same variant built without them.
//!
//! Changes when what the reference offers the differential tests changes.

use crate::base::state::GameState;
use crate::rules::variant::LoadError;
use crate::{Action, Engine};

/// The reference listing the self-check shortcuts are held equal to: an
/// engine's legal actions found by testing every move for self-check on a
/// scratch board, without the lines from the royal piece, the attack masks
/// or `rules.check_cells`. It is a second engine of the same variant,
/// built by [`Engine::reference`]; the engine a game is played with has
/// its shortcuts on, and no switch reaches it. The differential tests
/// (`tests/common::shortcuts_agree`) list with both.
pub struct Exhaustive {
    engine: Engine,
}

impl Exhaustive {
    /// The reference of `engine`'s variant.
    pub fn new(engine: &Engine) -> Result<Self, LoadError> {
        Ok(Exhaustive {
            engine: engine.reference()?,
        })
    }

    /// The legal actions of `s`, each move tested in full.
    pub fn legal_actions(&self, s: &GameState) -> Vec<Action> {
        self.engine.legal_actions(s)
    }

    /// Runs `f` on the reference engine: the self-check test walks every
    /// move, and the listing and the sampler find a piece's targets by the
    /// cell-by-cell scan instead of the masks.
    pub fn run<T>(&self, f: impl FnOnce(&Engine) -> T) -> T {
        f(&self.engine)
    }
}
