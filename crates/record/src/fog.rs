//! Fog of war in views and event lines: a cell outside a viewer's sight
//! (`Engine::sight`, from the variant's `sight:`) shows nothing to them —
//! no piece, no back, no "empty", no mark, no counter — and the pieces of
//! others carry no id a viewer could follow them by.
//!
//! A player sees their own sight; a spectator sees only the cells every
//! player always sees (those in every player's declared zones: none in
//! dark chess), never the cells both players happen to see, which depend
//! on where each player's pieces stand (a player watching as a spectator
//! would learn what the other sees); the omniscient viewer sees every
//! cell. An action seen only
//! in part reads as what was seen after it: another player's piece that
//! comes into sight appears (`appear: black knight on f6`), one that goes
//! out of it leaves (`leave: black piece from g8`), one of yours that is
//! taken out of sight is taken (`capture: black piece xd4 white pawn`);
//! what happened out of sight is not told. The viewer's own action is told
//! whole (they chose it, and its captures come from cells they saw).

use crate::base::effect::Effect;
use crate::base::geometry::Cell;
use crate::base::state::{GameState, Loc, PieceId};
use crate::engine::{Event, Seen};
use crate::view::{View, Viewer, Views};

/// What another player's action is shown as under fog (per-viewer records,
/// replays, logs): what was seen of it is in its event lines.
pub const HIDDEN_ACTION: &str = "(unseen)";

impl Views<'_> {
    /// Whether `viewer` may not read the text of the action played in
    /// `before` (under fog, another player's action).
    pub fn hides_action(&self, before: &GameState, viewer: Viewer) -> bool {
        self.engine.has_sight()
            && match viewer {
                Viewer::Omniscient => false,
                Viewer::Public => true,
                Viewer::Player(p) => self.engine.acting_player(before) != Some(p),
            }
    }

    /// The cells `viewer` sees in `s`, or `None` when every cell is seen
    /// (no fog in the variant, or the omniscient viewer).
    pub fn seen_cells(&self, s: &GameState, viewer: Viewer) -> Option<Seen> {
        if !self.engine.has_sight() {
            return None;
        }
        match viewer {
            Viewer::Omniscient => None,
            Viewer::Player(p) => self.engine.sight(s, p),
            Viewer::Public => self.engine.public_sight(),
        }
    }

    /// Blanks in `view` what `viewer` does not see (`seen`: the cells they
    /// see; see the module docs).
    pub(crate) fn fog_view(&self, seen: &[bool], viewer: Viewer, view: &mut View) {
        let b = &self.engine.variant.board;
        let me = match viewer {
            Viewer::Player(p) => Some(self.engine.player_name(p)),
            _ => None,
        };
        let mine = |owner: &str| me == Some(owner);
        for (c, cell) in view.cells.iter_mut().enumerate() {
            if !seen[c] {
                *cell = None;
                view.terrain[c].clear();
                view.unseen.push(b.cell_name(c as Cell));
            } else if let Some(p) = cell.as_mut().filter(|p| !mine(&p.owner)) {
                p.id = fog_id(c);
                p.moved = false;
            }
        }
        for (i, k) in view.containers.iter_mut().enumerate() {
            for (j, p) in k.pieces.iter_mut().enumerate() {
                if !mine(&p.owner) {
                    p.id = fog_id(b.cell_count() + 64 * i + j);
                    p.moved = false;
                }
            }
        }
        let unseen = |name: &str| b.parse_cell(name).is_some_and(|c| !seen[c as usize]);
        view.marks.retain(|m| !unseen(&m.cell));
        view.cell_counters.retain(|(_, c, _)| !unseen(c));
    }

    /// The events of one action as `viewer` sees them under fog (`seen`:
    /// the cells they see after it).
    pub(crate) fn fog_event_lines(
        &self,
        after: &GameState,
        events: &[Event],
        viewer: Viewer,
        seen: &Seen,
    ) -> Vec<String> {
        let owner = |id: PieceId| after.pieces.get(id as usize).map(|p| p.owner);
        let me = match viewer {
            Viewer::Player(p) => Some(p),
            _ => None,
        };
        // The viewer's own action is told whole.
        let own = events.iter().any(|e| match e {
            Event::Moved { piece, .. } => me.is_some() && owner(*piece) == me,
            Event::Struck { attacker, .. } => me.is_some() && owner(*attacker) == me,
            _ => false,
        });
        if own {
            return self.plain_event_lines(after, events, viewer);
        }
        let sees = |c: Cell| seen[c as usize];
        let b = &self.engine.variant.board;
        let w = |label: &'static str| self.engine.variant.words.event(label, label);
        let mut out = Vec::new();
        for e in events {
            match e {
                Event::Moved { piece, from, to } => {
                    let who = self.engine.player_name(owner(*piece).unwrap_or(0));
                    match (sees(*from), sees(*to)) {
                        (true, true) => out.extend(self.plain_event_lines(
                            after,
                            std::slice::from_ref(e),
                            viewer,
                        )),
                        (false, true) => out.push(format!(
                            "{}: {} on {}",
                            w("appear"),
                            self.piece_words(after, *piece, viewer),
                            b.cell_name(*to)
                        )),
                        (true, false) => out.push(format!(
                            "{}: {who} piece from {}",
                            w("leave"),
                            b.cell_name(*from)
                        )),
                        (false, false) => {}
                    }
                }
                Event::Struck {
                    attacker,
                    defender,
                    from,
                    to,
                    ..
                } => {
                    let theirs = me.is_some() && owner(*defender) == me;
                    if sees(*from) && sees(*to) {
                        out.extend(self.plain_event_lines(after, std::slice::from_ref(e), viewer));
                    } else if sees(*to) || theirs {
                        let who = self.engine.player_name(owner(*attacker).unwrap_or(0));
                        let from = if sees(*from) {
                            b.cell_name(*from)
                        } else {
                            String::new()
                        };
                        let a = if sees(*to) {
                            self.piece_words(after, *attacker, viewer)
                        } else {
                            format!("{who} piece")
                        };
                        out.push(format!(
                            "{}: {a} {from}x{} {}",
                            w("strike"),
                            b.cell_name(*to),
                            self.piece_words(after, *defender, viewer)
                        ));
                    }
                }
                Event::Effect(Effect::Captured { piece, cell }) => {
                    if cell.is_some_and(sees) || (me.is_some() && owner(*piece) == me) {
                        out.extend(self.plain_event_lines(after, std::slice::from_ref(e), viewer));
                    }
                }
                // A piece shown to all where this viewer cannot see it:
                // that it was shown would tell what happened out of sight.
                Event::Effect(Effect::Revealed { piece, .. })
                    if owner(*piece) != me
                        && after
                            .pieces
                            .get(*piece as usize)
                            .is_some_and(|p| matches!(p.loc, Loc::Cell(c) if !sees(c))) => {}
                Event::Effect(Effect::Moved { to, .. }) if !sees(*to) => {}
                Event::Effect(Effect::Flipped { cell, .. }) if !sees(*cell) => {}
                _ => out.extend(self.plain_event_lines(after, std::slice::from_ref(e), viewer)),
            }
        }
        out
    }
}

/// The id a piece of another player shows under fog: one per place in the
/// view, so that nobody can follow a piece through the dark by its id.
fn fog_id(place: usize) -> PieceId {
    PieceId::MAX - (place as PieceId)
}

/// Which cells of `view` are unseen, by cell index.
pub fn unseen_cells(view: &View, board: &crate::base::geometry::Board) -> Vec<bool> {
    let mut out = vec![false; view.cells.len()];
    for name in &view.unseen {
        if let Some(c) = board.parse_cell(name) {
            if let Some(x) = out.get_mut(c as usize) {
                *x = true;
            }
        }
    }
    out
}
