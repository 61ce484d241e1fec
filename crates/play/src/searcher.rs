//! A bot that thinks away from the game: its own copy of the rules, so that
//! a host can search on a copy of the state without holding the game while
//! it does.

use crate::agent::{agent_action, AgentSpec};
use crate::base::state::GameState;
use crate::engine::Engine;

/// The rules of one variant, loaded again for searching.
pub struct Searcher {
    engine: Engine,
}

impl Searcher {
    /// Loads the variant (with its options) once more.
    pub fn load(variant: &str, overrides: &[(String, String)]) -> Result<Searcher, String> {
        Ok(Searcher {
            engine: Engine::load(variant, overrides).map_err(|e| e.to_string())?,
        })
    }

    /// The text of the action an agent of `spec` takes in `state` for the
    /// acting player (it sees only that player's observation), or `None`.
    pub fn choose(&self, state: &GameState, spec: &AgentSpec, seed: u64) -> Option<String> {
        let mut agent = spec.build(seed);
        let a = agent_action(&self.engine, agent.as_mut(), state).ok()??;
        Some(self.engine.action_text(state, &a))
    }
}
