//! What a host needs of a session to serve it over a network: texts,
//! counts and views, each for one viewer. The network layer reaches the
//! game only through these (`tests/layers.rs` holds it to that: no
//! `session.engine`, `session.state`, `session.start` or
//! `session.history` in `front/net`).

use super::Session;
use crate::base::state::{GameState, PlayerId};
use crate::record::game::Positions;
use crate::record::view::{View, Viewer};
use crate::record::Position;

impl Session {
    /// The player who must act now; `None` when the game is over.
    pub fn acting_player(&self) -> Option<PlayerId> {
        self.engine.acting_player(&self.state)
    }

    pub fn player_count(&self) -> usize {
        self.engine.variant.players.len()
    }

    pub fn player_name(&self, p: PlayerId) -> &str {
        self.engine.player_name(p)
    }

    /// The players' names, in seat order.
    pub fn player_names(&self) -> &[String] {
        &self.engine.variant.players
    }

    pub fn variant_name(&self) -> &str {
        &self.engine.variant.name
    }

    /// The seed the game was started from.
    pub fn seed(&self) -> u64 {
        self.state.seed
    }

    /// How many actions have been played.
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// The text of the action played at ply `i`.
    pub fn played_text(&self, i: usize) -> Option<&str> {
        self.history.get(i).map(|p| p.text.as_str())
    }

    pub fn is_over(&self) -> bool {
        self.state.outcome.is_some()
    }

    /// How the game ended, as words; `None` while it goes on.
    pub fn outcome_text(&self) -> Option<String> {
        self.state
            .outcome
            .as_ref()
            .map(|o| self.views().outcome_text(o))
    }

    /// The position as `viewer` sees it.
    pub fn view(&self, viewer: Viewer) -> View {
        self.views().view(&self.state, viewer)
    }

    /// The texts of the actions player `p` may play now.
    pub fn legal_texts(&self, p: PlayerId) -> Vec<String> {
        self.engine
            .legal_actions_for(&self.state, p)
            .iter()
            .map(|a| self.engine.action_text(&self.state, a))
            .collect()
    }

    /// `view` drawn without colours or highlights, followed by every
    /// container `viewer` is told of.
    pub fn plain_board(&self, view: &View, viewer: Viewer) -> String {
        let mut board = self.views().render(view, None);
        for l in self.views().captured_summary(&self.state, viewer) {
            board.push_str(&l);
            board.push('\n');
        }
        board
    }

    /// What the action played at ply `i` did, as `viewer` knows it now
    /// (none for a ply not played).
    pub fn played_lines(&self, i: usize, viewer: Viewer) -> Vec<String> {
        // Under fog, what was seen right after the action, not now.
        let after = match self.history.get(i + 1) {
            Some(n) if self.engine.has_sight() => &n.before,
            _ => &self.state,
        };
        match self.history.get(i) {
            Some(p) => self.views().event_lines(after, &p.events, viewer),
            None => Vec::new(),
        }
    }

    /// The position the game started from, as records keep it.
    pub fn start_position(&self) -> Position {
        Positions::new(&self.engine).to_position(&self.start)
    }

    /// A copy of the whole state, for an agent the host runs (it sees
    /// only what its seat may, through determinization).
    pub fn state_copy(&self) -> GameState {
        self.state.clone()
    }

    /// Takes back every action after the first `ply`.
    pub fn take_back_to(&mut self, ply: usize) {
        while self.history.len() > ply {
            let played = self.history.pop().expect("longer than ply");
            self.state = played.before;
        }
        self.last = None;
    }
}
