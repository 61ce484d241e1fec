//! Movetext as records hold it: the numbered moves of a game in the
//! variant's notation, replayed from a position and checked against the
//! captures each one writes; and a game's status line.

use crate::base::geometry::Cell;
use crate::base::state::GameState;
use crate::engine::notation::movetext_tokens;
use crate::engine::{Action, Engine, Event};
use crate::view::Views;

/// One move of a replayed movetext.
#[derive(Clone, Debug)]
pub struct ReplayedMove {
    /// `12.` or `12...`
    pub number: String,
    /// The token as written.
    pub written: String,
    /// The move in the variant's notation, as the engine writes it.
    pub engine_text: String,
    pub action: Action,
    pub events: Vec<Event>,
}

/// A game's movetext (numbered moves in the variant's notation, with
/// comments and annotations) replayed and checked, and where a game stands,
/// for one engine: `Movetext::new(&engine).play(&mut s, text, |_, _| {})`.
#[derive(Clone, Copy)]
pub struct Movetext<'e> {
    pub engine: &'e Engine,
}

impl<'e> Movetext<'e> {
    pub fn new(engine: &'e Engine) -> Self {
        Movetext { engine }
    }

    /// Plays movetext (see [`movetext_tokens`]) from `state`, checking each
    /// move is legal and that the captures it writes are exactly those the
    /// engine made. Stops at the first difference with the move number and
    /// both lists.
    pub fn play(
        &self,
        state: &mut GameState,
        text: &str,
        mut each: impl FnMut(&ReplayedMove, &GameState),
    ) -> Result<Vec<ReplayedMove>, String> {
        let n = &self.engine.variant.notation;
        let marks = [n.mate.as_str(), n.check.as_str(), "#", "+"];
        let mut out = Vec::new();
        let first = state.to_move;
        let mut tokens = movetext_tokens(text, &marks).into_iter().peekable();
        let mut i = 0;
        while let Some(mut tok) = tokens.next() {
            // A label of two words (`suicide e5`).
            if self.engine.parse_notation(state, &tok).is_err() {
                if let Some(next) = tokens.peek() {
                    let joined = format!("{tok} {next}");
                    if self.engine.parse_notation(state, &joined).is_ok() {
                        tok = joined;
                        tokens.next();
                    }
                }
            }
            let full = (i + first as usize) / 2 + 1;
            let number = if (i + first as usize).is_multiple_of(2) {
                format!("{full}.")
            } else {
                format!("{full}...")
            };
            let (action, written) = self
                .engine
                .parse_notation(state, &tok)
                .map_err(|e| format!("move {number} `{tok}`: {e}"))?;
            let engine_text = self.engine.notation(state, &action);
            let events = self
                .engine
                .apply(state, &action)
                .map_err(|e| format!("move {number} `{tok}`: {e}"))?;
            let made = Engine::captured_cells(&events);
            let mut said = written.clone().unwrap_or_default();
            said.sort_unstable();
            said.dedup();
            if said != made {
                let names = |c: &[Cell]| {
                    let v = self.engine.cells_text(c);
                    if v.is_empty() {
                        "nothing".to_string()
                    } else {
                        v.join(", ")
                    }
                };
                return Err(format!(
                    "move {number} `{tok}`: the text captures {} but the engine captured {} ({engine_text})",
                    names(&said),
                    names(&made)
                ));
            }
            let m = ReplayedMove {
                number,
                written: tok,
                engine_text,
                action,
                events,
            };
            each(&m, state);
            out.push(m);
            i += 1;
        }
        Ok(out)
    }

    /// Where a game stands: the outcome, or who is to act and whether their
    /// royal piece is attacked.
    pub fn status_text(&self, s: &GameState) -> String {
        match &s.outcome {
            Some(o) => Views::new(self.engine).outcome_text(o),
            None => {
                let p = self.engine.acting_player(s).unwrap_or(s.to_move);
                let check = if self.engine.royal_attacked(s, p) {
                    ", in check"
                } else {
                    ""
                };
                format!(
                    "still playing: {} to move{check}",
                    self.engine.player_name(p)
                )
            }
        }
    }
}
