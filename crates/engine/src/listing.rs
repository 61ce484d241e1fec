//! Which actions are legal: listing them (declared moves, the script's
//! extra and filtered moves, frozen pieces, the back-and-forth ban, draw
//! offers) and asking whether any exists.

use crate::action::DRAW_OFFER;
use crate::base::cell_set::maybe_occupied;
use crate::base::geometry::Cell;
use crate::base::state::{GameState, PieceId, PlayerId};
use crate::guard::Guard;
use crate::joint::ExtraMove;
use crate::leaves::MoveSink;
use crate::legal::Need;
use crate::movegen::{piece_moves_on, piece_targets};
use crate::rules::freeze::frozen_by_declaration;
use crate::rules::lua::{ActionInfo, ActionKind, ActionScope, RuleHook};
use crate::rules::variant::MovePattern;
use crate::slide_masks::{blocked_cells, stops_and_enemies, Mask};
use crate::{Action, ActionError, Engine};

impl Engine {
    /// The player who acts now: the one owing the first pending choice, else
    /// the player to move. `None` when the game is over.
    pub fn acting_player(&self, s: &GameState) -> Option<PlayerId> {
        if s.outcome.is_some() {
            None
        } else if let Some(c) = s.pending.first() {
            Some(c.player)
        } else if let Some(w) = s.windows.last() {
            w.asked.first().copied()
        } else {
            Some(s.to_move)
        }
    }

    /// All legal actions, sorted and unique. A query hook that fails
    /// (`rules.filter`, `rules.frozen`...) lists nothing: nothing is legal
    /// that the rules could not vouch for. [`Engine::try_legal_actions`]
    /// says why.
    pub fn legal_actions(&self, s: &GameState) -> Vec<Action> {
        self.try_legal_actions(s).unwrap_or_default()
    }

    /// All legal actions, sorted and unique, or the error of the query hook
    /// that failed while listing them (the message names the script line).
    pub fn try_legal_actions(&self, s: &GameState) -> Result<Vec<Action>, ActionError> {
        let mut out = Vec::with_capacity(64);
        self.try_legal_actions_into(s, &mut out)?;
        Ok(out)
    }

    /// Like [`Engine::legal_actions`], reusing a buffer (left empty when a
    /// query hook fails).
    pub fn legal_actions_into(&self, s: &GameState, out: &mut Vec<Action>) {
        if self.try_legal_actions_into(s, out).is_err() {
            out.clear();
        }
    }

    /// Like [`Engine::try_legal_actions`], reusing a buffer.
    pub fn try_legal_actions_into(
        &self,
        s: &GameState,
        out: &mut Vec<Action>,
    ) -> Result<(), ActionError> {
        out.clear();
        if s.outcome.is_some() {
            return Ok(());
        }
        let _step = ActionScope::open();
        if let Some(c) = s.pending.first() {
            out.extend((0..c.options.len() as u16).map(|index| Action::Choose { index }));
            return Ok(());
        }
        if let Some(w) = s.windows.last() {
            return self.window_actions(s, w, out);
        }
        let p = s.to_move;
        let frozen = self.frozen_cells(s, p)?;
        if self.lang.on && self.lang_forced(s, p, &frozen, out)? {
            // A compulsory move exists: only those are legal (and only
            // those of them the rules' filter allows).
            if self.rules.has(RuleHook::Filter) {
                self.apply_filter(s, out)?;
            }
            return Ok(());
        }
        // Cells in order, and each piece's targets sorted: the list comes out
        // sorted without sorting it whole, unless extra moves join it.
        let extras = (!self.lang.on || self.lang.steps)
            && self.visit_moves(s, p, &frozen, true, &mut |a| {
                out.push(a);
                false
            })?;
        if self.lang.on {
            self.lang_moves(s, p, &frozen, out)?;
        }
        if extras {
            out.sort_unstable();
            out.dedup();
        }
        if self.rules.has(RuleHook::Filter) {
            self.apply_filter(s, out)?;
        }
        if self.rules.has(RuleHook::Actions) {
            let list = self
                .rules
                .actions(s, &self.variant)
                .map_err(ActionError::Script)?;
            out.extend((0..list.len() as u16).map(|index| Action::Scripted { index }));
        }
        if !self.variant.actions.is_empty() {
            self.declared_actions(s, &frozen, out)?;
        }
        if self.lang.on {
            self.lang_pass(out);
        }
        if self.variant.draw_offers && !out.is_empty() {
            match s.counter(DRAW_OFFER, None) {
                0 => out.push(Action::OfferDraw),
                n if n - 1 != p as i64 => out.push(Action::AcceptDraw),
                _ => {}
            }
        }
        Ok(())
    }

    /// The legal actions of one player (empty unless that player acts now).
    pub fn legal_actions_for(&self, s: &GameState, player: PlayerId) -> Vec<Action> {
        if self.acting_player(s) == Some(player) {
            self.legal_actions(s)
        } else {
            Vec::new()
        }
    }

    /// Whether the player to move has at least one legal action (stops
    /// early), or the error of a query hook that failed.
    pub fn has_legal_action(&self, s: &GameState) -> Result<bool, ActionError> {
        if !s.pending.is_empty() || !s.windows.is_empty() {
            return Ok(true);
        }
        if self.rules.has(RuleHook::Filter)
            || self.rules.has(RuleHook::Actions)
            || !self.variant.actions.is_empty()
            || self.lang.on
        {
            return Ok(self.try_legal_actions(s)?.iter().any(|a| !a.is_social()));
        }
        // The listing's own path, stopping at the first legal move.
        let frozen = self.frozen_cells(s, s.to_move)?;
        let mut found = false;
        self.visit_moves(s, s.to_move, &frozen, false, &mut |_| {
            found = true;
            true
        })?;
        Ok(found)
    }

    /// Whether a player's moves are found from what that player sees
    /// whatever kinds the other players' hidden pieces have: from their own
    /// pieces, which cells hold whose pieces, terrain, counters and the
    /// moves made. Not so when the check test reads the enemies' kinds (a
    /// royal kind), a move strikes or jumps only some kinds or tests cells
    /// (`where`, `through`), pieces freeze, extra or joint moves join, or
    /// the move language, declared actions, reactions or the script's
    /// `filter` or `actions` take part. (A search that deals hidden kinds
    /// lists the moves at its root once when this holds.)
    pub fn moves_ignore_hidden_kinds(&self) -> bool {
        let plain = |m: &MovePattern| {
            let t = m.target();
            let jumps_some =
                matches!(m, MovePattern::Slide { jump: Some(j), .. } if j.kinds.is_some());
            t.enemy_kinds.is_none() && !t.conditioned() && !jumps_some
        };
        let v = &self.variant;
        v.kinds.iter().flat_map(|k| &k.moves).all(plain)
            && !self.has_royal
            && !self.has_freeze()
            && !self.has_extra_moves()
            && !self.lang.on
            && v.actions.is_empty()
            && v.reactions.is_empty()
            && !self.rules.has(RuleHook::Filter)
            && !self.rules.has(RuleHook::Actions)
    }

    /// The one legality path for moves: calls `take` with each legal move
    /// of player `p` (the pieces' declared moves, then the extra moves:
    /// joint moves, passing captures, `rules.extra_moves`), leaving out the
    /// moves of `frozen` pieces, the one the back-and-forth ban forbids and
    /// those that leave a royal piece capturable. `take` answers whether to
    /// stop (the question "is there any" stops at the first). With `all`
    /// (a whole listing), each piece's targets come sorted. Returns whether
    /// any extra move was a candidate (the list then needs sorting), or the
    /// error of a query hook.
    pub(super) fn visit_moves(
        &self,
        s: &GameState,
        p: PlayerId,
        frozen: &[Cell],
        all: bool,
        take: &mut impl MoveSink,
    ) -> Result<bool, ActionError> {
        let banned = self.banned_by_repetition(s);
        let mut guard = self.has_royal.then(|| self.guard(s, p, all)).transpose()?;
        let mut stop = false;
        // `free`: the piece's moves need no self-check test.
        let legal = |guard: &mut Option<Box<Guard>>, from: Cell, to: Cell, side: &[Cell], free| {
            let a = Action::Move { from, to };
            banned != Some(a)
                && (free
                    || guard
                        .as_mut()
                        .is_none_or(|g| self.guard_allows(g, s, p, from, to, side)))
        };
        let mut targets = Vec::new();
        let masked = all && self.shortcuts;
        let quiet = self.moves.quiet.as_ref().filter(|_| masked);
        let empty = quiet.map_or(0, |q| q.all & !s.occupied());
        let slides = self.moves.slides.as_ref().filter(|_| masked);
        let blocking = self.variant.board.blocking;
        let (stops, enemy) = slides.map_or((0, 0), |_| small_masks(s, p, blocking));
        let wide = self.moves.wide.as_ref().filter(|_| masked);
        let (wide_stops, wide_enemy) = wide.map_or((0, 0), |_| wide_masks(s, p, blocking));
        for from in maybe_occupied(s.owned_by_wide(p), s.board().len()) {
            let Some(id) = s.board()[from] else { continue };
            let piece = &s.pieces[id as usize];
            if piece.owner != p {
                continue;
            }
            let kind = piece.kind;
            let from = from as Cell;
            if !frozen.is_empty() && frozen.contains(&from) {
                continue;
            }
            // Without a royal piece no move is tested.
            let free = match guard.as_ref().map_or(Need::Free, |g| g.need(from)) {
                Need::Barred => continue,
                need => need == Need::Free,
            };
            // Only quiet steps (the empty cells among them), or plain
            // steps and slides: their cells, in order, as a mask.
            let masked = (quiet
                .and_then(|q| q.of(kind, p, from as usize))
                .map(|m| m & empty))
            .or_else(|| slides.and_then(|m| m.targets(kind, p, from as usize, stops, enemy)));
            if let Some(to_cells) = masked {
                stop = if free && banned.is_none() {
                    // Every one of them is legal.
                    take.all_of(from, to_cells)
                } else {
                    any_cell_of(to_cells, &mut |to| {
                        legal(&mut guard, from, to, &[], free)
                            && take.one(Action::Move { from, to })
                    })
                };
            } else if all {
                let mut offer = |to| {
                    legal(&mut guard, from, to, &[], free) && take.one(Action::Move { from, to })
                };
                stop = match wide
                    .and_then(|m| m.targets(kind, p, from as usize, wide_stops, wide_enemy))
                {
                    Some(to_cells) => any_cell_of(to_cells, &mut offer),
                    None => {
                        piece_targets(&self.moves, s, id, from, &mut targets);
                        targets.iter().any(|&to| offer(to))
                    }
                };
            } else {
                self.piece_moves(s, id, from, &mut |to| {
                    stop = stop
                        || (legal(&mut guard, from, to, &[], free)
                            && take.one(Action::Move { from, to }));
                });
            }
            if stop {
                break;
            }
        }
        let mut extras = false;
        if !stop {
            for (from, to, side) in self.extra_moves(s, p)? {
                extras = true;
                if !frozen.contains(&from)
                    && legal(&mut guard, from, to, &side, false)
                    && take.one(Action::Move { from, to })
                {
                    break;
                }
            }
        }
        if let Some(mut g) = guard {
            let failed = g.result();
            super::guard::return_guard(g);
            failed?;
        }
        Ok(extras)
    }

    /// Removes the moves `rules.filter` forbids; a failing filter fails the
    /// listing.
    fn apply_filter(&self, s: &GameState, out: &mut Vec<Action>) -> Result<(), ActionError> {
        let mut drop: Vec<usize> = self
            .filter_vetoes(s, out)?
            .into_iter()
            .map(|v| v.0)
            .collect();
        drop.sort_unstable();
        drop.dedup();
        for i in drop.into_iter().rev() {
            if i >= 1 && i <= out.len() {
                out.remove(i - 1);
            }
        }
        Ok(())
    }

    /// What `rules.filter` says of the moves among `list`: the 1-based
    /// indices (among `list`) it forbids, each with its reason if it gave one.
    fn filter_vetoes(
        &self,
        s: &GameState,
        list: &[Action],
    ) -> Result<Vec<(usize, Option<String>)>, ActionError> {
        // Every move of the list, each with its place in the list.
        let mut at = Vec::new();
        let mut moves = Vec::new();
        for (i, a) in list.iter().enumerate() {
            if let Some(c) = self.candidate(s, a) {
                at.push(i + 1);
                moves.push(c);
            }
        }
        let vetoes = self
            .rules
            .filter(s, &self.variant, &moves)
            .map_err(ActionError::Script)?;
        Ok(vetoes
            .into_iter()
            .filter_map(|(i, why)| Some((*at.get(i.checked_sub(1)?)?, why)))
            .collect())
    }

    /// A move as `rules.filter` is asked about it: a move, a jump sequence
    /// or a placement (other actions are not moves), with the fields
    /// `rules.after_action` will get (all but what it captured).
    fn candidate(&self, s: &GameState, a: &Action) -> Option<ActionInfo> {
        let player = s.to_move;
        Some(match *a {
            Action::Move { from, to } => {
                let piece = s.piece_at(from)?;
                ActionInfo {
                    kind: ActionKind::Move,
                    player,
                    from: Some(from),
                    to: Some(to),
                    piece: Some(piece),
                    piece_kind: Some(s.pieces[piece as usize].kind),
                    ..ActionInfo::default()
                }
            }
            Action::Jumps { from, .. } => {
                let piece = s.piece_at(from)?;
                let landings = self.jump_landings(s, a);
                ActionInfo {
                    kind: ActionKind::Jump,
                    text: Some(self.action_text(s, a)),
                    player,
                    from: Some(from),
                    to: Some(landings.last().copied().unwrap_or(from)),
                    path: std::iter::once(from).chain(landings).collect(),
                    piece: Some(piece),
                    piece_kind: Some(s.pieces[piece as usize].kind),
                    ..ActionInfo::default()
                }
            }
            Action::Place { kind, at } => ActionInfo {
                kind: ActionKind::Place,
                text: Some(self.action_text(s, a)),
                player,
                to: Some(at),
                piece_kind: Some(kind),
                ..ActionInfo::default()
            },
            _ => return None,
        })
    }

    /// Whether `rules.filter` forbids move `a` here (`Some`, with its
    /// reason if it gave one): the filter is asked about the moves it would
    /// see while listing.
    pub(super) fn filter_refusal(&self, s: &GameState, a: &Action) -> Option<Option<String>> {
        if !self.rules.has(RuleHook::Filter) || !s.pending.is_empty() || !s.windows.is_empty() {
            return None;
        }
        let frozen = self.frozen_cells(s, s.to_move).ok()?;
        let mut list = Vec::new();
        let extras = (!self.lang.on || self.lang.steps)
            && self
                .visit_moves(s, s.to_move, &frozen, true, &mut |m| {
                    list.push(m);
                    false
                })
                .ok()?;
        if self.lang.on {
            self.lang_moves(s, s.to_move, &frozen, &mut list).ok()?;
        }
        if extras {
            list.sort_unstable();
            list.dedup();
        }
        let i = list.iter().position(|m| m == a)? + 1;
        let vetoes = self.filter_vetoes(s, &list).ok()?;
        let mine: Vec<&(usize, Option<String>)> = vetoes.iter().filter(|v| v.0 == i).collect();
        if mine.is_empty() {
            return None;
        }
        Some(mine.iter().find_map(|v| v.1.clone()))
    }

    /// The one move the back-and-forth limit forbids now, if any: the piece
    /// that shuttled `limit` times going back once more.
    pub(crate) fn banned_by_repetition(&self, s: &GameState) -> Option<Action> {
        let limit = self.variant.repetition_limit?;
        let sh = &s.shuttles[s.to_move as usize];
        let piece = sh.piece?;
        (sh.count >= limit && s.piece_at(sh.to) == Some(piece) && s.piece_at(sh.from).is_none())
            .then_some(Action::Move {
                from: sh.to,
                to: sh.from,
            })
    }

    /// How many consecutive back-and-forth moves between the same two cells
    /// the piece would have made after this action.
    pub(super) fn shuttle_count(&self, s: &GameState, a: &Action) -> u32 {
        let Action::Move { from, to } = *a else {
            return 0;
        };
        let sh = &s.shuttles[s.to_move as usize];
        match s.piece_at(from) {
            Some(id)
                if sh.piece == Some(id)
                    && sh.to == from
                    && sh.from == to
                    && s.piece_at(to).is_none() =>
            {
                sh.count + 1
            }
            _ => 1,
        }
    }

    /// The moves declared as joint or passing and those `rules.extra_moves`
    /// adds for `player`, with the cells each captures besides its target,
    /// or the hook's error; moves of pieces that are not the player's are
    /// dropped.
    pub(crate) fn extra_moves(
        &self,
        s: &GameState,
        player: PlayerId,
    ) -> Result<Vec<ExtraMove>, ActionError> {
        let mut v = Vec::new();
        self.declared_extras(s, player, &mut v);
        if self.rules.has(RuleHook::ExtraMoves)
            && (self.variant.extra_moves_when.is_empty()
                || self
                    .variant
                    .extra_moves_when
                    .iter()
                    .any(|c| s.counters.get(c, None).is_some_and(|v| v != 0)))
        {
            v.extend(
                self.rules
                    .extra_moves(s, &self.variant, player)
                    .map_err(ActionError::Script)?,
            );
        }
        v.retain(|&(from, to, _)| {
            from != to
                && s.piece_at(from)
                    .is_some_and(|id| s.pieces[id as usize].owner == player)
                && s.piece_at(to)
                    .is_none_or(|id| s.pieces[id as usize].owner != player)
        });
        Ok(v)
    }

    /// The cells a move captures besides its target when it is one of the
    /// rules' extra moves (a declared move with the same cells wins).
    pub(super) fn extra_side_captures(
        &self,
        s: &GameState,
        from: Cell,
        to: Cell,
    ) -> Result<Vec<Cell>, ActionError> {
        if !self.has_extra_moves() {
            return Ok(Vec::new());
        }
        let Some(id) = s.piece_at(from) else {
            return Ok(Vec::new());
        };
        let owner = s.pieces[id as usize].owner;
        let declared = |s: &GameState| {
            let mut declared = false;
            self.piece_moves(s, id, from, &mut |c| declared |= c == to);
            declared
        };
        if self.rules.has(RuleHook::ExtraMoves) {
            // A script adds moves: it is asked only for moves not declared.
            if declared(s) {
                return Ok(Vec::new());
            }
            return Ok(self
                .extra_moves(s, owner)?
                .into_iter()
                .find(|e| e.0 == from && e.1 == to)
                .map(|e| e.2)
                .unwrap_or_default());
        }
        // Only declared extras (native and cheap): a joint move captures
        // nothing besides, and a passing capture lands on the passed cell,
        // so other moves need no list.
        let passed = (self.counters.passing.as_ref()).map(|id| s.counter_id(id, None));
        if passed.is_none_or(|v| v != to as i64 + 1) {
            return Ok(Vec::new());
        }
        // Most moves are not among them, and then the piece's moves need
        // not be generated.
        let Some(extra) = self
            .extra_moves(s, owner)?
            .into_iter()
            .find(|e| e.0 == from && e.1 == to)
        else {
            return Ok(Vec::new());
        };
        Ok(if declared(s) { Vec::new() } else { extra.2 })
    }

    /// The cells of `player`'s pieces that cannot move (a declared freeze
    /// holds them, or `rules.frozen` says so), in cell order, or the hook's
    /// error.
    pub fn frozen_cells(&self, s: &GameState, player: PlayerId) -> Result<Vec<Cell>, ActionError> {
        let mut out = Vec::new();
        if self.declared_freeze {
            let v = &self.variant;
            frozen_by_declaration(&v.kinds, &v.board, s, player, &mut out);
        }
        if self.rules.has(RuleHook::Frozen) {
            let scripted = self
                .rules
                .frozen(s, &self.variant, player)
                .map_err(ActionError::Script)?;
            if out.is_empty() {
                return Ok(scripted);
            }
            out.extend(scripted);
            out.sort_unstable();
            out.dedup();
        }
        Ok(out)
    }

    /// Generates the target cells of one piece's declared moves.
    pub(super) fn piece_moves(
        &self,
        s: &GameState,
        id: PieceId,
        from: Cell,
        emit: &mut impl FnMut(Cell),
    ) {
        piece_moves_on(&self.moves, s, s.board(), id, from, emit)
    }
}

/// The cells that stop movement and the enemies' among them, for a
/// listing of player `p`'s moves on a board of at most 64 cells.
fn small_masks(s: &GameState, p: PlayerId, blocking: u32) -> (u64, u64) {
    let blocked = blocked_cells(s, blocking);
    stops_and_enemies(s.occupied(), s.owned_by(p), blocked)
}

/// [`small_masks`] on a board of 65 to 128 cells.
fn wide_masks(s: &GameState, p: PlayerId, blocking: u32) -> (u128, u128) {
    let blocked = blocked_cells(s, blocking);
    stops_and_enemies(s.occupied_wide(), s.owned_by_wide(p), blocked)
}

/// Offers the cells of a mask, lowest first, to `f` until it says stop: whether it did.
#[inline(always)]
fn any_cell_of<M: Mask>(mut mask: M, f: &mut impl FnMut(Cell) -> bool) -> bool {
    while mask != M::ZERO {
        let c = mask.lowest();
        mask = mask & !M::bit(c);
        if f(c as Cell) {
            return true;
        }
    }
    false
}
