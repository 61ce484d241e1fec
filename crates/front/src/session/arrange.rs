//! What network play and `play` need of a session besides the REPL: the
//! setup phase (who arranges an army, what they are asked, checking an
//! arrangement, starting the game from everyone's), and the fall of a flag.

use serde::{Deserialize, Serialize};

use super::Session;
use crate::base::geometry::Cell;
use crate::base::state::{KindId, PlayerId};
use crate::engine::Engine;

/// A player's checked arrangement of their army (kept opaque: only the
/// session reads it).
#[derive(Clone, Debug)]
pub struct Arrangement(Vec<(Cell, KindId)>);

/// One kind of a player's army, as a setup prompt shows it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ArmyKind {
    /// The letter of setup strings.
    pub code: char,
    pub name: String,
    pub count: u32,
}

/// What a player is asked to arrange: the cells of their setup zone in
/// setup-string order (front row first, each row left to right as that
/// player sees the board) and their army.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct SetupPrompt {
    pub cells: Vec<String>,
    pub army: Vec<ArmyKind>,
}

impl Session {
    /// The players who arrange their own army (see [`setup_seats`]).
    pub fn setup_seats(&self) -> Vec<PlayerId> {
        setup_seats(&self.engine)
    }

    /// What `player` is asked to arrange.
    pub fn setup_prompt(&self, player: PlayerId) -> SetupPrompt {
        setup_prompt(&self.engine, player)
    }

    /// Checks `player`'s setup string (`random`: dealt from the game's
    /// secret seed). `back_first`: the string starts at the back row.
    pub fn check_setup(
        &self,
        player: PlayerId,
        text: &str,
        back_first: bool,
    ) -> Result<Option<Arrangement>, String> {
        if text.trim() == "random" {
            return Ok(None);
        }
        super::game::parse_setup(&self.engine, player, text, back_first)
            .map(|a| Some(Arrangement(a)))
    }

    /// Starts the game again from the same seed with these arrangements
    /// (one per player; `None`: dealt from the seed).
    pub fn begin_with(&mut self, setups: Vec<Option<Arrangement>>) {
        let specs: Vec<_> = setups.into_iter().map(|a| a.map(|a| a.0)).collect();
        let state = self.engine.new_game(self.state.seed, &specs);
        self.reset_to(state);
    }

    /// `player` loses on time (a resumed game whose journal says so).
    pub fn time_out(&mut self, player: PlayerId) {
        if let Some((_, clock)) = &mut self.clock {
            clock.stop();
        }
        self.engine.lose_on_time(&mut self.state, player);
    }

    /// If the player who must act has run out of time: stops the clock,
    /// ends the game and returns true.
    pub fn flag_fall(&mut self) -> bool {
        let Some(p) = self.engine.acting_player(&self.state) else {
            return false;
        };
        let Some((_, clock)) = &mut self.clock else {
            return false;
        };
        if !clock.flagged(p) {
            return false;
        }
        clock.stop();
        self.engine.lose_on_time(&mut self.state, p);
        true
    }
}

/// The players who arrange their own army: every player with a setup zone,
/// unless the variant starts from a fixed position or a kind of its army
/// has no setup letter.
pub fn setup_seats(e: &Engine) -> Vec<PlayerId> {
    let v = &e.variant;
    let coded = v.kinds.iter().all(|k| k.count == 0 || k.code.is_some());
    if v.start.is_some() || !coded {
        return Vec::new();
    }
    (0..v.players.len() as PlayerId)
        .filter(|&p| !v.setup_zones[p as usize].is_empty())
        .collect()
}

/// What `player` is asked to arrange.
pub fn setup_prompt(e: &Engine, player: PlayerId) -> SetupPrompt {
    SetupPrompt {
        cells: e
            .setup_cells(player)
            .into_iter()
            .map(|c| e.variant.board.cell_name(c))
            .collect(),
        army: e
            .variant
            .kinds
            .iter()
            .filter(|k| k.count > 0)
            .filter_map(|k| {
                Some(ArmyKind {
                    code: k.code?,
                    name: k.display.clone(),
                    count: k.count,
                })
            })
            .collect(),
    }
}
