//! The reference the self-check and listing shortcuts are held equal to:
//! [`Exhaustive`] turns them off on the current thread.
//!
//! Changes when what the shortcuts may skip changes.

use crate::base::state::GameState;
use crate::engine::{Action, Engine};

thread_local! {
    /// Set while an [`Exhaustive`] lists: the self-check test then walks
    /// every move without its shortcuts.
    static EXHAUSTIVE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the self-check shortcuts are off on this thread now.
pub(crate) fn exhaustive() -> bool {
    EXHAUSTIVE.with(std::cell::Cell::get)
}

/// The reference listing the self-check shortcuts are held equal to: an
/// engine's legal actions found by testing every move for self-check on a
/// scratch board, without the lines from the royal piece, the attack masks
/// or `rules.check_cells`. The engine itself has no such switch; the
/// differential tests (`tests/common::shortcuts_agree`) list with both.
pub struct Exhaustive<'e> {
    engine: &'e Engine,
}

impl<'e> Exhaustive<'e> {
    pub fn new(engine: &'e Engine) -> Self {
        Exhaustive { engine }
    }

    /// The legal actions of `s`, each move tested in full.
    pub fn legal_actions(&self, s: &GameState) -> Vec<Action> {
        self.run(|e| e.legal_actions(s))
    }

    /// Runs `f` on the engine with the shortcuts off on this thread: the
    /// self-check test's, and the masks the listing and the sampler find
    /// a piece's targets with (every target then comes from the
    /// cell-by-cell scan).
    pub fn run<T>(&self, f: impl FnOnce(&Engine) -> T) -> T {
        struct Off;
        impl Drop for Off {
            fn drop(&mut self) {
                EXHAUSTIVE.with(|e| e.set(false));
            }
        }
        EXHAUSTIVE.with(|e| e.set(true));
        let _off = Off;
        f(self.engine)
    }
}
