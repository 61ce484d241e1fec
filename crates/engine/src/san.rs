//! Standard algebraic notation (the `san` notation style): writing a move
//! (`Nbxd7`, `exd5`, `e8=Q+`, a named move such as `O-O`) and reading one
//! back, with every lenient spelling a player may type (the origin given in
//! full, the capture mark left out, check marks and annotations).
//!
//! Changes when the SAN style learns a new form.

use super::notation::{least_origin, rivals};
use crate::base::geometry::Cell;
use crate::base::state::{GameState, KindId, PlayerId};
use crate::rules::variant::NotationStyle;
use crate::{Action, ActionError, Engine};

/// What a move looks like to SAN, before it is written.
struct Mover {
    kind: KindId,
    owner: PlayerId,
}

impl Engine {
    /// Reads what a player types for one turn's worth of actions: an
    /// action (see [`Engine::parse_action`]), or in the `san` style a move
    /// with the promotion it names (`e8=Q`: the move, then the choice).
    pub fn parse_turn(&self, s: &GameState, text: &str) -> Result<Vec<Action>, ActionError> {
        if self.variant.notation.style == NotationStyle::San
            && s.pending.is_empty()
            && self.parse_canonical(s, text).is_err()
        {
            if let Ok(v) = self.parse_san(s, &self.strip_marks(text)) {
                return Ok(v);
            }
        }
        self.parse_action(s, text).map(|a| vec![a])
    }

    fn mover(&self, s: &GameState, from: Cell) -> Option<Mover> {
        let id = s.piece_at(from)?;
        let p = &s.pieces[id as usize];
        Some(Mover {
            kind: p.kind,
            owner: p.owner,
        })
    }

    /// The letter of a kind (empty for kinds written without one).
    fn san_letter(&self, kind: KindId) -> &str {
        self.variant.kinds[kind as usize]
            .letter
            .as_deref()
            .unwrap_or("")
    }

    /// The origin part SAN needs so that no other legal move of a piece of
    /// the same kind to `to` reads the same: nothing, the file, the rank or
    /// the whole cell. A capture by a kind without a letter always names
    /// its file (`exd5`).
    fn san_origin(
        &self,
        s: &GameState,
        legal: &[Action],
        m: &Mover,
        from: Cell,
        to: Cell,
        capture: bool,
    ) -> String {
        let b = &self.variant.board;
        let rivals = rivals(legal, from, to, |f| {
            self.mover(s, f).is_some_and(|r| r.kind == m.kind)
        });
        let letterless_capture = capture && self.san_letter(m.kind).is_empty();
        if rivals.is_empty() {
            return if letterless_capture {
                least_origin(b, from, &[], true) // its file
            } else {
                String::new()
            };
        }
        least_origin(b, from, &rivals, letterless_capture)
    }

    /// A move in SAN; `then` is the promotion choice that completes it, if
    /// known. `legal` are the legal actions of `s`.
    pub(crate) fn san_text(
        &self,
        s: &GameState,
        legal: &[Action],
        a: &Action,
        then: Option<&Action>,
    ) -> String {
        let n = &self.variant.notation;
        let Action::Move { from, to } = *a else {
            let mut text = self.action_text(s, a);
            if let Action::Place { .. } = a {
                // A drop (`N@f3`) gives check or mate as a move does.
                let mut next = s.clone();
                if self.apply_unchecked(&mut next, a).is_ok() {
                    text.push_str(&self.check_suffix(s, &next, s.to_move));
                }
            }
            return text;
        };
        let Some(m) = self.mover(s, from) else {
            return self.action_text(s, a);
        };
        let b = &self.variant.board;
        let mut next = s.clone();
        let Ok(events) = self.apply_unchecked(&mut next, a) else {
            return self.action_text(s, a);
        };
        let capture = !Self::captured_cells(&events).is_empty();
        let mut text = match n.named(m.kind, from, to) {
            Some(named) => named.name.clone(),
            None => {
                let mut t = self.san_letter(m.kind).to_string();
                t.push_str(&self.san_origin(s, legal, &m, from, to, capture));
                if capture {
                    t.push_str(&n.capture_mark);
                }
                t.push_str(&b.cell_name(to));
                t
            }
        };
        let promoting = next
            .pending
            .first()
            .is_some_and(|c| c.piece.is_some() && c.player == m.owner);
        if promoting {
            let Some(choice @ Action::Choose { index }) = then else {
                // The new kind is not chosen yet: no check mark either.
                return text;
            };
            let label = next.pending[0]
                .options
                .get(*index as usize)
                .cloned()
                .unwrap_or_default();
            if self.apply_unchecked(&mut next, choice).is_err() {
                return text;
            }
            let letter = self
                .variant
                .kind_index(&label)
                .map(|k| self.san_letter(k as KindId).to_string())
                .filter(|l| !l.is_empty())
                .unwrap_or(label);
            text.push_str(&n.promotion_mark);
            text.push_str(&letter);
        }
        text.push_str(&self.check_suffix(s, &next, m.owner));
        text
    }

    /// Reads a move in SAN: the move, and the promotion choice it names
    /// (`e8=Q`), as actions to play in order. Check and mate marks and
    /// `!`/`?` annotations are ignored; the capture mark and the origin may
    /// be left out or given in full when the move stays unambiguous.
    pub(crate) fn parse_san(&self, s: &GameState, text: &str) -> Result<Vec<Action>, ActionError> {
        let n = &self.variant.notation;
        let t = self.strip_marks(text);
        let (body, promo) = match t.split_once(n.promotion_mark.as_str()) {
            Some((a, b)) if !n.promotion_mark.is_empty() => {
                (a.to_string(), Some(b.trim().to_string()))
            }
            _ => (t.clone(), None),
        };
        let legal = self.legal_actions(s);
        let b = &self.variant.board;
        let mut found: Vec<Action> = Vec::new();
        for a in &legal {
            let Action::Move { from, to } = *a else {
                continue;
            };
            let Some(m) = self.mover(s, from) else {
                continue;
            };
            let hit = match n.named(m.kind, from, to) {
                Some(named) if named.name == body || named.also.contains(&body) => true,
                _ => {
                    let letter = self.san_letter(m.kind);
                    let dest = b.cell_name(to);
                    let origin = b.cell_name(from);
                    let split = origin.find(|c: char| c.is_ascii_digit()).unwrap_or(1);
                    // The capture mark, if written, stands just before the
                    // destination.
                    body.strip_prefix(letter)
                        .and_then(|r| r.strip_suffix(dest.as_str()))
                        .map(|o| match o.strip_suffix(n.capture_mark.as_str()) {
                            Some(o) if !n.capture_mark.is_empty() => o,
                            _ => o,
                        })
                        .is_some_and(|o| {
                            o.is_empty()
                                || o == origin
                                || o == &origin[..split]
                                || o == &origin[split..]
                        })
                }
            };
            if hit {
                found.push(*a);
            }
        }
        let a = match found.len() {
            1 => found[0],
            0 => {
                return Err(ActionError::Illegal(format!(
                    "`{}` is no legal move here",
                    text.trim()
                )))
            }
            _ => {
                return Err(ActionError::Ambiguous(format!(
                    "`{}` is ambiguous: {}",
                    text.trim(),
                    found
                        .iter()
                        .map(|a| self.san_text(s, &legal, a, None))
                        .collect::<Vec<_>>()
                        .join(" or ")
                )))
            }
        };
        let Some(promo) = promo else {
            return Ok(vec![a]);
        };
        let Action::Move { from, to } = a else {
            return Ok(vec![a]);
        };
        let kind = self.mover(s, from).map(|m| m.kind);
        let choices = kind
            .and_then(|k| self.variant.kinds[k as usize].promote.as_ref())
            .filter(|pr| {
                self.mover(s, from)
                    .is_some_and(|m| pr.zone_set[m.owner as usize].contains(to))
            })
            .map(|pr| pr.to.clone())
            .unwrap_or_default();
        let index = choices.iter().position(|&k| {
            let kd = &self.variant.kinds[k as usize];
            kd.letter.as_deref() == Some(promo.as_str()) || kd.name.eq_ignore_ascii_case(&promo)
        });
        match index {
            Some(i) => Ok(vec![a, Action::Choose { index: i as u16 }]),
            None if choices.is_empty() => Err(ActionError::Illegal(format!(
                "`{}`: this move promotes nothing",
                text.trim()
            ))),
            None => Err(ActionError::Illegal(format!(
                "`{}`: `{promo}` is not a kind this piece promotes to ({})",
                text.trim(),
                choices
                    .iter()
                    .map(|&k| self.variant.kinds[k as usize]
                        .letter
                        .clone()
                        .unwrap_or_else(|| self.variant.kinds[k as usize].name.clone()))
                    .collect::<Vec<_>>()
                    .join(" ")
            ))),
        }
    }
}
