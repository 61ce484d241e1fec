//! Reaction windows (`reactions:` in the variant): opening one after a
//! declared action or when a rule asks, whom it asks and in what order,
//! what the asked player may do (the window's actions, or `pass`), and
//! closing it (the turn goes on, or passes, as it would have).
//!
//! While a window is open the player it asks is the one to act: listing,
//! views, prompts, bots and the network all follow
//! [`Engine::acting_player`].

use crate::base::effect::Effect;
use crate::base::state::{GameState, PlayerId, Window};
use crate::rules::variant::flow::Who;
use crate::{Action, ActionError, Engine};

use crate::base::limits::MAX_WINDOWS as WINDOWS_MAX;

impl Engine {
    /// Whether declared action `k` is a reaction (offered only in a
    /// window that names it).
    pub(super) fn is_reaction(&self, k: usize) -> bool {
        self.variant
            .reactions
            .iter()
            .any(|r| r.actions.contains(&(k as u8)))
    }

    /// The actions of the player a window asks: the window's declared
    /// actions that player can take, then `pass`.
    pub(super) fn window_actions(
        &self,
        s: &GameState,
        w: &Window,
        out: &mut Vec<Action>,
    ) -> Result<(), ActionError> {
        let p = w.asked[0];
        let r = &self.variant.reactions[w.kind as usize];
        for &k in &r.actions {
            self.declared_of_kind(s, p, k as usize, None, out)?;
        }
        out.sort_unstable();
        out.push(Action::Pass);
        Ok(())
    }

    /// Opens the windows declared to follow declared action `kind` (their
    /// data: the action's parameters), then settles every window opened
    /// during the action: whom it asks, and whether the turn stays once it
    /// closes. A window that asks nobody closes at once (as if all passed).
    pub(super) fn settle_windows(
        &self,
        s: &mut GameState,
        a: &Action,
        reacting: bool,
        effects: &mut Vec<Effect>,
    ) -> Result<(), ActionError> {
        if let (Action::Declared { kind, .. }, false) = (*a, reacting) {
            for (i, r) in self.variant.reactions.iter().enumerate() {
                if r.after.contains(&kind) && s.windows.len() < WINDOWS_MAX {
                    let d = &self.variant.actions[kind as usize];
                    let data = self
                        .declared_args(d, a)
                        .into_iter()
                        .map(|(k, c)| {
                            let name = self.variant.board.cell_name(c);
                            (k.to_string(), crate::base::state::Plain::Text(name))
                        })
                        .collect();
                    s.windows.push(Window {
                        kind: i as u8,
                        asked: Vec::new(),
                        hold: false,
                        fresh: true,
                        data,
                    });
                }
            }
        }
        // Settling may close a window whose `on_pass` opens another.
        let mut last_closed = None;
        for _ in 0..64 {
            let Some(i) = s
                .windows
                .iter()
                .position(|w| w.fresh && s.outcome.is_none())
            else {
                return Ok(());
            };
            let asked = self.asked_players(s, s.windows[i].kind as usize)?;
            let hold = s.holds_turn();
            let w = &mut s.windows[i];
            w.fresh = false;
            w.hold = hold;
            w.asked = asked;
            if w.asked.is_empty() {
                let w = s.windows.remove(i);
                last_closed = Some(w.kind as usize);
                self.close_window(s, w, true, effects)?;
            }
        }
        let culprit = last_closed
            .map(|k| &self.variant.reactions[k])
            .map(|r| match &r.on_pass {
                Some(f) => format!(
                    " (each time reaction `{}` closes asking nobody, rules.{f} opens another)",
                    r.name
                ),
                None => format!(" (reaction `{}` keeps opening)", r.name),
            })
            .unwrap_or_default();
        Err(ActionError::Script(format!(
            "reaction windows keep opening: over 64 in one action{culprit}"
        )))
    }

    /// The players window `kind` asks, in order: clockwise from the player
    /// after the one whose turn it is (that player last, for `who: all`;
    /// first, with `from: mover`),
    /// players out of the game left out, and (with `ask: able`) those who
    /// could take none of its actions.
    fn asked_players(&self, s: &GameState, kind: usize) -> Result<Vec<PlayerId>, ActionError> {
        let r = &self.variant.reactions[kind];
        let n = s.players.max(1);
        let mut out = Vec::new();
        let mut list = Vec::new();
        let first = if r.mover_first { 0 } else { 1 };
        for i in first..first + n {
            let p = (s.to_move + i) % n;
            if s.eliminated & (1 << p) != 0 || (p == s.to_move && r.who == Who::Others) {
                continue;
            }
            if r.only_able {
                list.clear();
                for &k in &r.actions {
                    self.declared_of_kind(s, p, k as usize, None, &mut list)?;
                }
                if list.is_empty() {
                    continue;
                }
            }
            out.push(p);
        }
        Ok(out)
    }

    /// `pass` in the open window: the asked player is done; when nobody is
    /// left the window closes and its `on_pass` runs.
    pub(super) fn pass_window(
        &self,
        s: &mut GameState,
        effects: &mut Vec<Effect>,
    ) -> Result<(), ActionError> {
        let Some(w) = s.windows.last_mut() else {
            return Err(ActionError::Illegal("no reaction window is open".into()));
        };
        w.asked.remove(0);
        if w.asked.is_empty() {
            let w = s.windows.pop().expect("open");
            self.close_window(s, w, true, effects)?;
        } else {
            s.set_hold_turn(true);
        }
        Ok(())
    }

    /// After a reaction in the open window: the window closes, or (with
    /// `after_react: next`) asks the next player.
    pub(super) fn after_reaction(
        &self,
        s: &mut GameState,
        effects: &mut Vec<Effect>,
    ) -> Result<(), ActionError> {
        let Some(w) = s.windows.last_mut() else {
            return Ok(());
        };
        let r = &self.variant.reactions[w.kind as usize];
        if r.keep_asking && w.asked.len() > 1 {
            w.asked.remove(0);
            s.set_hold_turn(true);
            return Ok(());
        }
        let w = s.windows.pop().expect("open");
        self.close_window(s, w, false, effects)
    }

    /// A window closed: the turn stays or passes as it would have when the
    /// window opened; when everyone passed, `rules.<on_pass>(g, data)`.
    fn close_window(
        &self,
        s: &mut GameState,
        w: Window,
        all_passed: bool,
        effects: &mut Vec<Effect>,
    ) -> Result<(), ActionError> {
        s.set_hold_turn(w.hold);
        let r = &self.variant.reactions[w.kind as usize];
        if let (true, Some(f)) = (all_passed, &r.on_pass) {
            self.rules
                .call_with_data(s, &self.variant, effects, f, &w.data, None)
                .map_err(ActionError::Script)?;
            self.declared_win(s);
        }
        Ok(())
    }

    /// Why `a` must wait: a window is open and `a` is neither `pass` nor
    /// one of its reactions.
    pub(super) fn waits_for_window(&self, s: &GameState, a: &Action) -> Option<String> {
        let (Some(w), None) = (s.windows.last(), s.pending.first()) else {
            return None;
        };
        let r = &self.variant.reactions[w.kind as usize];
        let reaction = matches!(*a, Action::Declared { kind, .. } if r.actions.contains(&kind));
        if reaction || *a == Action::Pass {
            return None;
        }
        let who = w.asked.first().map_or("?", |&p| self.player_name(p));
        Some(format!(
            "{who} is asked to react first ({}): `pass` or a reaction",
            r.name
        ))
    }
}
