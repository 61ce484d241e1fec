//! Actions as text: the canonical text of an action, reading it back, and
//! the explanation of why an action is not legal.

use crate::base::geometry::Cell;
use crate::base::state::{GameState, PieceId};
use crate::rules::lua::RuleHook;
use crate::rules::variant::MovePattern;
use crate::{Action, ActionError, Engine};

impl Engine {
    /// The canonical text of an action.
    pub fn action_text(&self, s: &GameState, a: &Action) -> String {
        let b = &self.variant.board;
        match a {
            Action::Move { from, to } => match self.race_text(s, *from, *to) {
                Some(t) => t,
                None => format!("{}-{}", b.cell_name(*from), b.cell_name(*to)),
            },
            Action::Choose { index } => s
                .pending
                .first()
                .and_then(|c| c.options.get(*index as usize))
                .cloned()
                .unwrap_or_else(|| format!("#{index}")),
            Action::OfferDraw => "offer-draw".into(),
            Action::AcceptDraw => "accept-draw".into(),
            Action::Scripted { index } => self
                .rules
                .actions(s, &self.variant)
                .ok()
                .and_then(|l| l.get(*index as usize).cloned())
                .unwrap_or_else(|| format!("#{index}")),
            Action::Declared { .. } => self.declared_text(a),
            Action::Pass => "pass".into(),
            Action::Place { .. } | Action::Jumps { .. } => {
                self.lang_text(s, a).unwrap_or_else(|| "?".into())
            }
        }
    }

    /// Reads an action's text (`a4-a5`, `a4xa5`, `a4a5`, or a choice's
    /// label), or a move in the variant's notation (`Wb6`, `e4e5:d5:f5`).
    pub fn parse_action(&self, s: &GameState, text: &str) -> Result<Action, ActionError> {
        match self.parse_canonical(s, text) {
            Ok(a) => Ok(a),
            Err(e)
                if self.variant.notation.style
                    == crate::rules::variant::NotationStyle::Coordinates =>
            {
                Err(e)
            }
            Err(e) => match self.parse_notation(s, text) {
                Ok((a, _)) => Ok(a),
                Err(ActionError::Ambiguous(m)) => Err(ActionError::Ambiguous(m)),
                Err(ne) if matches!(e, ActionError::Parse(_)) => Err(ne),
                Err(_) => Err(e),
            },
        }
    }

    /// Reads the canonical forms only.
    pub(crate) fn parse_canonical(&self, s: &GameState, text: &str) -> Result<Action, ActionError> {
        let t = text.trim();
        if t == "pass" && !s.windows.is_empty() && s.pending.is_empty() {
            return Ok(Action::Pass);
        }
        if let Some(c) = s.pending.first() {
            if let Some(i) = c.options.iter().position(|o| o == t) {
                return Ok(Action::Choose { index: i as u16 });
            }
            if let Some(i) = t.strip_prefix('#').and_then(|n| n.parse::<u16>().ok()) {
                if (i as usize) < c.options.len() {
                    return Ok(Action::Choose { index: i });
                }
            }
            return Err(ActionError::Illegal(format!(
                "{} must first choose: {} [{}]",
                self.player_name(c.player),
                self.variant.words.question(&c.reason),
                c.options.join(" ")
            )));
        }
        match t {
            "offer-draw" => return Ok(Action::OfferDraw),
            "accept-draw" => return Ok(Action::AcceptDraw),
            _ => {}
        }
        if t == "pass" && self.variant.pass.is_some() {
            return Ok(Action::Pass);
        }
        if let Some(r) = self.parse_declared(t) {
            return r;
        }
        if self.lang.on {
            if let Some(r) = self.parse_lang(s, t) {
                return r;
            }
        }
        if self.rules.has(RuleHook::Actions) {
            let list = self
                .rules
                .actions(s, &self.variant)
                .map_err(ActionError::Script)?;
            if let Some(i) = list.iter().position(|l| l == t) {
                return Ok(Action::Scripted { index: i as u16 });
            }
            // Not a label: a declared move, if any kind moves natively.
            let native = self.variant.kinds.iter().any(|k| k.is_mobile());
            if !native || !t.contains('-') || t.contains(' ') {
                return Err(ActionError::Parse(format!(
                    "`{t}` is not an action here (actions: {})",
                    list.join(", ")
                )));
            }
        }
        let b = &self.variant.board;
        let (l, r) = if let Some((l, r)) = t.split_once(['-', 'x', 'X', ':']) {
            (l.to_string(), r.to_string())
        } else {
            // `a4a5`: split before the second letter.
            let i = t
                .char_indices()
                .skip(1)
                .find(|(_, c)| c.is_ascii_alphabetic())
                .map(|(i, _)| i)
                .ok_or_else(|| {
                    ActionError::Parse(format!("`{t}`: expected FROM-TO such as a4-a5"))
                })?;
            (t[..i].to_string(), t[i..].to_string())
        };
        let from = b
            .parse_cell(&l)
            .ok_or_else(|| ActionError::Parse(format!("`{l}` is not a cell of the {b} board")))?;
        let to = b
            .parse_cell(&r)
            .ok_or_else(|| ActionError::Parse(format!("`{r}` is not a cell of the {b} board")))?;
        Ok(Action::Move { from, to })
    }

    /// Explains why an action is not legal in this state.
    pub fn explain_illegal(&self, s: &GameState, a: &Action) -> String {
        if let Some(o) = &s.outcome {
            return format!("the game is over ({})", o.reason);
        }
        if let Some(why) = self
            .waits_for_window(s, a)
            .or_else(|| self.explain_lang(s, a))
        {
            return why;
        }
        match *a {
            Action::OfferDraw | Action::AcceptDraw if !self.variant.draw_offers => {
                "this variant has no draw offers".into()
            }
            Action::OfferDraw => "a draw offer is already standing".into(),
            Action::AcceptDraw => "there is no draw offer from the opponent to accept".into(),
            Action::Scripted { index } => {
                format!("there is no listed action number {index} here")
            }
            Action::Pass => "no reaction window is open: there is nothing to pass".into(),
            Action::Place { .. } | Action::Jumps { .. } => "this variant has no such move".into(),
            Action::Declared { .. } => match s.pending.first() {
                Some(c) => format!(
                    "{} must first choose ({})",
                    self.player_name(c.player),
                    c.reason
                ),
                None => self.explain_declared(s, a),
            },
            Action::Choose { index } => match s.pending.first() {
                None => "there is no choice to make".into(),
                Some(c) => format!(
                    "choice {index} is not one of the {} options",
                    c.options.len()
                ),
            },
            Action::Move { from, to } => self.explain_move(s, a, from, to),
        }
    }

    /// Why a move is not legal here.
    fn explain_move(&self, s: &GameState, a: &Action, from: Cell, to: Cell) -> String {
        let b = &self.variant.board;
        let (fname, tname) = (b.cell_name(from), b.cell_name(to));
        if let Some(c) = s.pending.first() {
            return format!(
                "{} must first choose ({})",
                self.player_name(c.player),
                c.reason
            );
        }
        let Some(id) = s.piece_at(from) else {
            return format!("there is no piece on {fname}");
        };
        let piece = &s.pieces[id as usize];
        let kind = &self.variant.kinds[piece.kind as usize];
        if piece.owner != s.to_move {
            return format!(
                "the piece on {fname} belongs to {}, and it is {}'s turn",
                self.player_name(piece.owner),
                self.player_name(s.to_move)
            );
        }
        if !kind.is_mobile() {
            return format!("a {} never moves", kind.display);
        }
        if !self.passable(s, to) {
            let names: Vec<&str> = (b.terrain_names.iter().enumerate())
                .filter(|(i, _)| s.terrain()[to as usize] & b.blocking & (1 << i) != 0)
                .map(|(_, n)| n.as_str())
                .collect();
            return match names.is_empty() {
                true => format!("{tname} cannot be entered"),
                false => format!(
                    "{tname} is a {} cell: no piece may enter it",
                    names.join(", ")
                ),
            };
        }
        if let Some(why) = self.terrain_refusal(s, kind, from, to) {
            return why;
        }
        if let Some(t) = s.piece_at(to) {
            if s.pieces[t as usize].owner == piece.owner {
                return format!("{tname} holds your own piece");
            }
        }
        if self
            .frozen_cells(s, piece.owner)
            .is_ok_and(|f| f.contains(&from))
        {
            return format!("the {} on {fname} is frozen and cannot move", kind.display);
        }
        let mut reachable = false;
        self.piece_moves(s, id, from, &mut |c| reachable |= c == to);
        if let (false, Some(why)) = (reachable, self.waiting_refusal(s, kind, piece.owner)) {
            return why;
        }
        if let (false, Some(at)) = (reachable, self.blocker(s, id, from, to)) {
            return format!(
                "the piece on {} blocks the way from {fname} to {tname}",
                b.cell_name(at)
            );
        }
        if !reachable {
            return format!(
                "the {} on {fname} cannot reach {tname} (it moves: {})",
                kind.display,
                describe_moves(&self.variant, &kind.moves)
            );
        }
        let side = self.extra_side_captures(s, from, to).unwrap_or_default();
        if self.has_royal
            && self.variant.blast.is_some()
            && !self.blast_allows(s, piece.owner, from, to, &side)
        {
            return "that would blast your own royal piece or leave it capturable (check)".into();
        }
        if self.has_royal
            && self.variant.blast.is_none()
            && self
                .exposes_royal(s, piece.owner, from, to, &side)
                .unwrap_or(false)
        {
            return "that would leave your royal piece capturable (check)".into();
        }
        if let Some(limit) = self.variant.repetition_limit {
            let n = self.shuttle_count(s, a);
            if n > limit {
                return format!(
                    "this piece may not move back and forth between {fname} and {tname} more than {limit} times in a row"
                );
            }
        }
        match self.filter_refusal(s, a) {
            Some(Some(why)) => format!("rules.filter refuses it: {why}"),
            Some(None) => "rules.filter refuses it".into(),
            None => "not a legal action here".into(),
        }
    }

    /// The first piece on the straight line between `from` and `to` whose
    /// removal (with the others between) would let piece `id` reach `to`:
    /// what blocks the way. Not under fog (`sight:`), where a refusal must
    /// not tell of a piece the mover cannot see.
    fn blocker(&self, s: &GameState, id: PieceId, from: Cell, to: Cell) -> Option<Cell> {
        let b = &self.variant.board;
        let square = b.graph.is_none() && b.shape == crate::base::geometry::Shape::Square;
        if self.variant.sight.is_some() || !square {
            return None;
        }
        let ((f0, r0), (f1, r1)) = (b.coords(from), b.coords(to));
        let (df, dr) = (f1 - f0, r1 - r0);
        if !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
            return None;
        }
        let between = (1..df.abs().max(dr.abs()))
            .filter_map(|i| b.cell(f0 + df.signum() * i, r0 + dr.signum() * i));
        let mut clear = s.clone();
        let mut first = None;
        for c in between {
            if let Some(p) = s.piece_at(c) {
                first.get_or_insert(c);
                clear.capture(p);
            }
        }
        let first = first?;
        let mut reachable = false;
        self.piece_moves(&clear, id, from, &mut |c| reachable |= c == to);
        reachable.then_some(first)
    }

    /// Why `kind` may not end a move from `from` on `to`'s terrain
    /// (`barred`, `no_stop`), if so.
    fn terrain_refusal(
        &self,
        s: &GameState,
        kind: &crate::rules::variant::Kind,
        from: Cell,
        to: Cell,
    ) -> Option<String> {
        let b = &self.variant.board;
        let (fname, tname) = (b.cell_name(from), b.cell_name(to));
        let terrain = |bits: u32| {
            let names: Vec<&str> = (b.terrain_names.iter().enumerate())
                .filter(|(i, _)| s.terrain()[to as usize] & bits & (1 << i) != 0)
                .map(|(_, n)| n.as_str())
                .collect();
            names.join(", ")
        };
        if s.terrain()[to as usize] & kind.barred != 0 {
            return Some(format!(
                "the {} on {fname} may not enter {tname} ({})",
                kind.display,
                terrain(kind.barred)
            ));
        }
        if s.terrain()[to as usize] & kind.no_stop != 0 {
            return Some(format!(
                "the {} on {fname} may pass over {tname} but not stop there ({})",
                kind.display,
                terrain(kind.no_stop)
            ));
        }
        None
    }

    /// Why `kind`'s moves wait (a `when:` that does not hold for `owner`),
    /// if they do.
    fn waiting_refusal(
        &self,
        s: &GameState,
        kind: &crate::rules::variant::Kind,
        owner: crate::base::state::PlayerId,
    ) -> Option<String> {
        let waiting = kind.moves.iter().find_map(|p| {
            let (MovePattern::Step { target, .. }
            | MovePattern::Slide { target, .. }
            | MovePattern::Path { target, .. }) = p;
            target.when.as_ref().filter(|w| !w.holds(s, owner))
        });
        if let Some(crate::rules::variant::When::PlacedAll {
            supply, counter, ..
        }) = waiting
        {
            return Some(format!(
                "a {} moves only once {} has placed all {supply} ({} placed so far)",
                kind.display,
                self.player_name(owner),
                s.counter(counter, Some(owner))
            ));
        }
        None
    }

    fn passable(&self, s: &GameState, c: Cell) -> bool {
        s.terrain()[c as usize] & self.variant.board.blocking == 0
    }
}

fn describe_moves(v: &crate::rules::variant::Variant, moves: &[MovePattern]) -> String {
    moves
        .iter()
        .map(|m| {
            let (base, target) = match m {
                MovePattern::Step {
                    target, lame: true, ..
                } => (
                    "one leap, blocked by a piece on a cell it passes".to_string(),
                    target,
                ),
                MovePattern::Step { target, .. } => ("one step".to_string(), target),
                MovePattern::Slide {
                    target,
                    screens: n @ 1..,
                    ..
                } => (format!("slides over exactly {n} piece(s)"), target),
                MovePattern::Slide {
                    strike_at_range,
                    target,
                    jump,
                    ..
                } => (
                    match (jump.is_some(), *strike_at_range) {
                        (true, _) => "slides, jumping enemies that have an empty cell behind them"
                            .to_string(),
                        (false, true) => "slides, may strike at the end".to_string(),
                        (false, false) => "slides through empty cells".to_string(),
                    },
                    target,
                ),
                MovePattern::Path { steps, target, .. } => {
                    (format!("up to {steps} steps through empty cells"), target)
                }
            };
            let base = match target.to_zone {
                Some(_) => format!("{base}, only within its zone"),
                None => base,
            };
            let conditions = crate::rules::variant::describe::cell_conditions;
            let base = match target.landing.as_slice() {
                [] => base,
                fs => format!("{base}, only onto a cell {}", conditions(v, fs)),
            };
            let base = match target.through.as_slice() {
                [] => base,
                fs => format!("{base}, passing only cells {}", conditions(v, fs)),
            };
            match (target.empty, target.enemy) {
                (true, false) => format!("{base}, only onto empty cells"),
                (false, true) => format!("{base}, only onto an enemy"),
                _ => base,
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}
