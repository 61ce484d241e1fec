//! Applying an action: the transaction (the action performed, the rule
//! hooks, the draw counters, the turn passed), the move itself with its
//! strike and captures, and the promotion it may trigger.

use crate::action::DRAW_OFFER;
use crate::base::effect::{Effect, Strike};
use crate::base::geometry::Cell;
use crate::base::state::{GameState, KindId, Outcome, PieceId, PlayerId, Shuttle};
use crate::rules::lua::{ActionInfo, ActionKind};
use crate::rules::lua::{ActionScope, RuleHook};
use crate::turn::Next;
use crate::{Action, ActionError, Engine, Event};

impl Engine {
    /// Applies an action for the acting player. On any error the state is
    /// exactly as before.
    pub fn apply(&self, s: &mut GameState, a: &Action) -> Result<Vec<Event>, ActionError> {
        // Checking the action and applying it are one step's script time.
        let _step = ActionScope::open();
        if !self.try_legal_actions(s)?.contains(a) {
            return Err(ActionError::Illegal(self.explain_illegal(s, a)));
        }
        let mut next = s.clone();
        let events = self.apply_unchecked(&mut next, a)?;
        *s = next;
        Ok(events)
    }

    /// Applies an action known to be legal, on a state the caller may throw
    /// away if an error comes back (a rule script failed).
    pub fn apply_unchecked(
        &self,
        s: &mut GameState,
        a: &Action,
    ) -> Result<Vec<Event>, ActionError> {
        self.apply_listing(s, a, None).map(|r| r.0)
    }

    /// [`Engine::apply_unchecked`] that also lists, into `next`, the legal
    /// actions of the position it leaves when the turn passes (the turn
    /// rule has to look for them anyway); the `bool` says whether `next`
    /// holds them (else the caller lists them itself).
    pub fn apply_listing(
        &self,
        s: &mut GameState,
        a: &Action,
        next: Option<&mut Vec<Action>>,
    ) -> Result<(Vec<Event>, bool), ActionError> {
        let next = match next {
            Some(list) => Next::List(list),
            None => Next::Check,
        };
        let mut events = Vec::new();
        let listed = self.apply_next(s, a, next, &mut events)?;
        Ok((events, listed))
    }

    /// [`Engine::apply_listing`] with the turn rule's question (can the next
    /// player move?) answered as `next` says; the `bool` says whether `next`
    /// describes the position left (a filled list, a drawn action). The
    /// events go to `events` (cleared first), a buffer the caller may keep.
    pub(super) fn apply_next(
        &self,
        s: &mut GameState,
        a: &Action,
        next: Next,
        events: &mut Vec<Event>,
    ) -> Result<bool, ActionError> {
        let _step = ActionScope::open();
        let mut listed = false;
        events.clear();
        let mut effects = Vec::new();
        let mover = self.acting_player(s).unwrap_or(s.to_move);
        if self.variant.repetition_draw.is_some() && s.positions.is_empty() && s.pending.is_empty()
        {
            // The first position of a game (or after a capture) counts too.
            let h = self.position_hash(s);
            s.positions.push(h);
        }
        let moving = match *a {
            Action::Move { from, to } => s.piece_at(from).map(|id| (id, from, to)),
            Action::Jumps { from, .. } => {
                let to = self.jump_landings(s, a).last().copied().unwrap_or(from);
                s.piece_at(from).map(|id| (id, from, to))
            }
            _ => None,
        };
        let board_before = s.board_key();
        let moving_kind = moving.map(|(id, _, _)| s.pieces[id as usize].kind);
        let (info, if_captures) = self.after_action_info(s, a, mover, moving, moving_kind);
        if self.variant.draw_offers
            && matches!(a, Action::Move { .. })
            && s.counter(DRAW_OFFER, None) - 1 != mover as i64
        {
            // A move instead of an answer declines a standing offer.
            s.counters.remove(DRAW_OFFER, None);
        }
        let reacting = !s.windows.is_empty() && s.pending.is_empty();
        let landed = self.perform(s, a, mover, events, &mut effects)?;
        if let (true, Some(c)) = (self.lang.custody, landed) {
            self.custody(s, mover, c, &mut effects);
        }
        self.declared_win(s);
        if self.lang.on || self.lang.ends {
            self.lang_ends(s, a, mover, landed, events, &effects);
            self.remember_board(s, board_before);
        }
        if !self.variant.reactions.is_empty() {
            self.settle_windows(s, a, reacting, &mut effects)?;
        }
        let captured = captured_count(events, &effects);
        if let Some(mut info) = info {
            if s.outcome.is_none() && (!if_captures || captured > 0) {
                info.captured = captured;
                info.captures = captured_cells(events, &effects);
                if let (Action::Place { at, .. }, None) = (a, info.piece) {
                    info.piece = s.piece_at(*at);
                }
                self.rules
                    .after_action(s, &self.variant, &mut effects, &info)
                    .map_err(ActionError::Script)?;
            }
        }
        if self.lang.counts {
            self.counter_ends(s, mover);
        }
        self.count_no_progress(s, moving_kind, captured);
        events.extend(effects.into_iter().map(Event::Effect));
        s.ply += 1;
        if s.holds_turn() {
            // The rules keep the turn (a turn of several actions).
            s.set_hold_turn(false);
            if s.outcome.is_none() && s.ply >= self.variant.max_plies {
                s.outcome = Some(Outcome {
                    winners: vec![],
                    reason: format!("draw: the {}-ply limit was reached", self.variant.max_plies),
                });
            }
        } else if *a != Action::OfferDraw {
            listed = self.advance_turn(s, next, events)?;
        }
        self.count_repetition(s, a, events);
        if let Some(o) = &s.outcome {
            events.push(Event::Ended(o.clone()));
            listed = false;
        }
        Ok(listed)
    }

    /// What `rules.after_action` will be told about the action, when the
    /// rules have the hook and the variant's `after_action_when` (if any)
    /// holds for the moving piece. `moving`: the piece, from and to of a
    /// move; `captured` is counted once the action is performed. The `bool`:
    /// only the clauses that need a capture hold, so the hook is called
    /// only if the move captures.
    #[inline]
    fn after_action_info(
        &self,
        s: &GameState,
        a: &Action,
        mover: PlayerId,
        moving: Option<(PieceId, Cell, Cell)>,
        moving_kind: Option<KindId>,
    ) -> (Option<ActionInfo>, bool) {
        if !self.rules.has(RuleHook::AfterAction) {
            return (None, false);
        }
        let (wanted, if_captures) = match (&self.variant.after_action_when, moving) {
            (Some(w), Some((id, from, to))) => {
                let p = &s.pieces[id as usize];
                let mut holding = w
                    .iter()
                    .filter(|w| w.holds(p.kind, p.owner, from, to, |c| s.counter(c, None)));
                let first = holding.next();
                let plain = first.is_some_and(|w| !w.captures) || holding.any(|w| !w.captures);
                (first.is_some(), !plain)
            }
            _ => (true, false),
        };
        if !wanted {
            return (None, false);
        }
        let placed = match *a {
            Action::Place { kind, at } => Some((kind, at)),
            _ => None,
        };
        let info = ActionInfo {
            kind: match a {
                Action::Move { .. } => ActionKind::Move,
                Action::Jumps { .. } => ActionKind::Jump,
                Action::Place { .. } => ActionKind::Place,
                Action::Choose { .. } => ActionKind::Choice,
                Action::Scripted { .. } | Action::Declared { .. } => ActionKind::Scripted,
                Action::Pass => ActionKind::Pass,
                Action::OfferDraw | Action::AcceptDraw => ActionKind::Draw,
            },
            text: (!matches!(a, Action::Move { .. })).then(|| self.action_text(s, a)),
            player: mover,
            from: moving.map(|m| m.1),
            // A placement's cell; its piece is known once it is placed.
            to: moving.map(|m| m.2).or(placed.map(|p| p.1)),
            piece: moving.map(|m| m.0),
            piece_kind: moving_kind.or(placed.map(|p| p.0)),
            // A jump sequence's every landing (a move's path is from and
            // to, a placement's its cell: the table makes them).
            path: match *a {
                Action::Jumps { from, .. } => std::iter::once(from)
                    .chain(self.jump_landings(s, a))
                    .collect(),
                _ => Vec::new(),
            },
            ..ActionInfo::default()
        };
        (Some(info), if_captures)
    }

    /// Does what the action itself does, by its kind: a scripted action's
    /// `rules.perform`, a draw offer or acceptance, a choice (a promotion,
    /// or `rules.on_choice`), or a move with the promotion it may trigger.
    #[inline]
    fn perform(
        &self,
        s: &mut GameState,
        a: &Action,
        mover: PlayerId,
        events: &mut Vec<Event>,
        effects: &mut Vec<Effect>,
    ) -> Result<Option<Cell>, ActionError> {
        let mut landed = None;
        if !matches!(
            a,
            Action::Move { .. } | Action::Choose { .. } | Action::OfferDraw | Action::AcceptDraw
        ) {
            self.clear_passed(s);
        }
        match *a {
            Action::Scripted { index } => {
                let list = self
                    .rules
                    .actions(s, &self.variant)
                    .map_err(ActionError::Script)?;
                let label = list.get(index as usize).cloned().ok_or_else(|| {
                    ActionError::Illegal(format!("there is no listed action number {index} here"))
                })?;
                self.rules
                    .perform(s, &self.variant, effects, &label)
                    .map_err(ActionError::Script)?;
            }
            Action::Declared { .. } => self.perform_declared(s, a, mover, effects)?,
            Action::Pass if s.windows.is_empty() => self.pass_turn(s, mover, effects),
            Action::Pass => self.pass_window(s, effects)?,
            Action::Place { kind, at } => {
                self.apply_place(s, mover, kind, at, effects)?;
                landed = Some(at);
            }
            Action::Jumps { from, .. } => {
                if let Some(to) = self.apply_jumps(s, a, events, effects) {
                    landed = Some(to);
                    self.promote_or_ask(s, from, to);
                }
            }
            Action::OfferDraw => {
                s.set_counter(DRAW_OFFER, None, mover as i64 + 1);
                events.push(Event::Effect(Effect::Note(format!(
                    "{} offers a draw",
                    self.player_name(mover)
                ))));
            }
            Action::AcceptDraw => {
                s.counters.remove(DRAW_OFFER, None);
                s.outcome = Some(Outcome {
                    winners: vec![],
                    reason: "draw by agreement".into(),
                });
            }
            Action::Choose { index } => {
                let choice = s.pending.remove(0);
                let label = choice.options[index as usize].clone();
                events.push(Event::Chose {
                    player: choice.player,
                    label: label.clone(),
                    public: choice.public,
                });
                match choice.piece {
                    // A promotion: the piece becomes the chosen kind.
                    Some(id) => {
                        if let Some(k) = self.variant.kind_index(&label) {
                            s.set_kind(id, k as KindId);
                        }
                    }
                    None => self
                        .rules
                        .answer_choice(s, &self.variant, effects, &choice, &label)
                        .map_err(ActionError::Script)?,
                }
            }
            Action::Move { from, to } if self.lang.race.is_some() => {
                self.apply_race(s, mover, from, to, effects)?;
                landed = Some(to);
            }
            Action::Move { from, to } => {
                let side = self.extra_side_captures(s, from, to)?;
                let kind = s.piece_at(from).map(|id| s.pieces[id as usize].kind);
                let partner = self.joint_partner(s, from, to);
                self.do_move(s, mover, from, to, &side, events, effects)?;
                if let Some(kind) = kind {
                    self.after_joint_move(s, (mover, kind, from, to), partner, effects);
                }
                self.promote_or_ask(s, from, to);
                landed = Some(to);
            }
        }
        Ok(landed)
    }

    /// The promotion a move to `to` triggers: a single kind to become is
    /// taken at once, a choice of several is asked.
    fn promote_or_ask(&self, s: &mut GameState, from: Cell, to: Cell) {
        if let Some(c) = self.promotion(s, from, to) {
            match (c.options.as_slice(), c.piece) {
                ([only], Some(id)) => {
                    if let Some(k) = self.variant.kind_index(only) {
                        s.set_kind(id, k as KindId);
                    }
                }
                _ => s.pending.insert(0, c),
            }
        }
    }

    /// The variant's `no_progress` rule after a move of a piece of
    /// `moving_kind` that captured `captured` pieces: the counter restarts
    /// on a capture or a move of a resetting kind, else grows, and the game
    /// is drawn when it reaches the limit. Actions that are not moves leave
    /// it alone.
    #[inline]
    fn count_no_progress(&self, s: &mut GameState, moving_kind: Option<KindId>, captured: usize) {
        if let (Some(np), Some(id), Some(kind)) = (
            &self.variant.no_progress,
            &self.counters.no_progress,
            moving_kind,
        ) {
            let n = if captured > 0 || np.reset_kinds.contains(&kind) {
                0
            } else {
                s.counter_id(id, None) + 1
            };
            s.set_counter_id(id, None, n);
            if n >= np.plies as i64 && s.outcome.is_none() {
                s.outcome = Some(Outcome {
                    winners: vec![],
                    reason: format!("draw: {}", np.reason),
                });
            }
        }
    }

    /// The variant's `repetition_draw` rule after an action (`events`: what
    /// it did): the position left is recorded (the record restarts after a
    /// capture), and the game is drawn when it has occurred often enough.
    #[inline]
    fn count_repetition(&self, s: &mut GameState, a: &Action, events: &[Event]) {
        if let Some(n) = self.variant.repetition_draw {
            if s.outcome.is_none() && s.pending.is_empty() && !a.is_social() {
                let captured = events.iter().any(|e| {
                    matches!(
                        e,
                        Event::Struck { .. } | Event::Effect(Effect::Captured { .. })
                    )
                });
                if captured {
                    s.positions.clear();
                }
                let h = self.position_hash(s);
                let seen = s.positions.count(h) as u32 + 1;
                s.positions.push(h);
                if seen >= n {
                    s.outcome = Some(Outcome {
                        winners: vec![],
                        reason: format!("draw: the same position occurred {n} times"),
                    });
                }
            }
        }
    }

    /// What `rules.captures` says the move `from`→`to` captures besides
    /// what it lands on, in `s` before the move: nothing without the hook,
    /// or when the variant's `captures_when` holds for none of its clauses.
    pub(super) fn scripted_captures(
        &self,
        s: &GameState,
        from: Cell,
        to: Cell,
    ) -> Result<Vec<Cell>, String> {
        if !self.rules.has(RuleHook::Captures) {
            return Ok(Vec::new());
        }
        if let (Some(when), Some(id)) = (&self.variant.captures_when, s.piece_at(from)) {
            let p = &s.pieces[id as usize];
            let asked = when
                .iter()
                .any(|w| w.holds(p.kind, p.owner, from, to, |c| s.counter(c, None)));
            if !asked {
                return Ok(Vec::new());
            }
        }
        self.rules.captures(s, &self.variant, from, to)
    }

    /// Moves a piece (a strike when `to` holds an enemy) and removes what
    /// the move captures as a side effect (`rules.captures`, as
    /// [`Engine::scripted_captures`] asks it).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn do_move(
        &self,
        s: &mut GameState,
        mover: PlayerId,
        from: Cell,
        to: Cell,
        extra_side: &[Cell],
        events: &mut Vec<Event>,
        effects: &mut Vec<Effect>,
    ) -> Result<(), ActionError> {
        let id = s.piece_at(from).ok_or_else(|| {
            ActionError::Illegal(format!(
                "there is no piece on {}",
                self.variant.board.cell_name(from)
            ))
        })?;
        let mut side = if self.rules.has(RuleHook::Captures) {
            self.scripted_captures(s, from, to)
                .map_err(ActionError::Script)?
        } else {
            Vec::new()
        };
        side.extend_from_slice(extra_side);
        let mut captures = false;
        match s.piece_at(to) {
            None => {
                self.move_to_empty(s, mover, id, from, to, effects);
                events.push(Event::Moved {
                    piece: id,
                    from,
                    to,
                });
            }
            Some(def) => {
                let result = self.strike(s, id, def, from, to, effects)?;
                events.push(Event::Struck {
                    attacker: id,
                    defender: def,
                    from,
                    to,
                    result,
                });
                captures = true;
                s.shuttles[mover as usize] = Shuttle::default();
            }
        }

        for c in side {
            if let Some(victim) = s.piece_at(c) {
                if victim != id {
                    captures = true;
                    self.take(s, victim, mover);
                    effects.push(Effect::Captured {
                        piece: victim,
                        cell: Some(c),
                    });
                }
            }
        }
        if captures && self.variant.blast.is_some() {
            self.blast(s, mover, id, to, effects);
        }
        Ok(())
    }

    /// A move onto an empty cell: the piece goes there (revealed if it
    /// slid far), and the mover's back-and-forth count goes on or restarts.
    #[inline]
    fn move_to_empty(
        &self,
        s: &mut GameState,
        mover: PlayerId,
        id: PieceId,
        from: Cell,
        to: Cell,
        effects: &mut Vec<Effect>,
    ) {
        s.place(id, to);
        s.pieces[id as usize].moved = true;
        self.reveal_by_distance(s, id, from, to, effects);
        let sh = &mut s.shuttles[mover as usize];
        if sh.piece == Some(id) && sh.to == from && sh.from == to {
            sh.count += 1;
        } else {
            *sh = Shuttle {
                piece: Some(id),
                from,
                to,
                count: 1,
            };
        }
        sh.from = from;
        sh.to = to;
    }

    /// The piece `id` on `from` strikes `def` on `to`: both are revealed if
    /// the variant says so, `rules.strike` (or else the declared `strike:`)
    /// decides, and the loser (or both)
    /// is captured; an attacker that wins takes the cell. Returns the
    /// strike's result (`attacker`, `defender`, `both` or `none`).
    #[inline]
    fn strike(
        &self,
        s: &mut GameState,
        id: PieceId,
        def: PieceId,
        from: Cell,
        to: Cell,
        effects: &mut Vec<Effect>,
    ) -> Result<Strike, ActionError> {
        s.pieces[id as usize].moved = true;
        self.reveal_by_distance(s, id, from, to, effects);
        if self.variant.strike_reveals {
            let all = s.all_players();
            for p in [id, def] {
                // Once is enough: a piece the move itself showed to all
                // (a move longer than any hidden kind could make) is not revealed again.
                let shown = Effect::Revealed { piece: p, to: all };
                if !effects.contains(&shown) {
                    s.reveal(p, all);
                    effects.push(shown);
                }
            }
        }
        let result = match &self.variant.strike {
            // The script's hook decides where it is defined.
            Some(table) if !self.rules.has(RuleHook::Strike) => {
                table.resolve(s, &self.variant.kinds, id, def)
            }
            _ => self
                .rules
                .strike(s, &self.variant, effects, (id, def), (from, to))
                .map_err(ActionError::Script)?,
        };
        match result {
            Strike::AttackerWins => {
                self.take(s, def, s.pieces[id as usize].owner);
                if s.piece_at(to).is_none() && s.cell_of(id) == Some(from) {
                    s.place(id, to);
                }
            }
            Strike::DefenderWins => self.take(s, id, s.pieces[def as usize].owner),
            Strike::BothRemoved => {
                s.capture(id);
                s.capture(def);
            }
            Strike::NoEffect => {}
        }
        Ok(result)
    }

    fn reveal_by_distance(
        &self,
        s: &mut GameState,
        id: PieceId,
        from: Cell,
        to: Cell,
        effects: &mut Vec<Effect>,
    ) {
        let kind = s.pieces[id as usize].kind as usize;
        let Some(n) = self.moves.steps.reveal_beyond(kind) else {
            return;
        };
        let b = &self.variant.board;
        let (f1, r1) = b.coords(from);
        let (f2, r2) = b.coords(to);
        let dist = (f1 - f2).abs().max((r1 - r2).abs());
        if dist > n as i32 {
            let all = s.all_players();
            if s.pieces[id as usize].known_by != all {
                s.reveal(id, all);
                effects.push(Effect::Revealed { piece: id, to: all });
            }
        }
    }

    /// The promotion choice a move triggers: the piece (of a kind with
    /// `promote:`) ended its move in its owner's promotion zone.
    fn promotion(&self, s: &GameState, from: Cell, to: Cell) -> Option<crate::base::state::Choice> {
        let id = s.piece_at(to)?;
        let piece = &s.pieces[id as usize];
        let (to_kinds, keep) = self.promotion_kinds(piece.kind, piece.owner, from, to)?;
        let mut options: Vec<String> = (to_kinds.iter())
            .map(|&k| self.variant.kinds[k as usize].name.clone())
            .collect();
        if keep {
            options.push(self.variant.kinds[piece.kind as usize].name.clone());
        }
        Some(crate::base::state::Choice {
            player: piece.owner,
            reason: "promotion".into(),
            options,
            piece: Some(id),
            // The promoted kind shows on the board unless identities hide.
            public: !self.variant.hidden_identities,
            handler: None,
            data: Vec::new(),
            passes_turn: false,
        })
    }

    /// How many choices a legal move leads to when a promotion follows it
    /// (else 1), without applying it.
    #[inline]
    pub(super) fn promotion_options(&self, s: &GameState, a: &Action) -> u64 {
        let Action::Move { from, to } = *a else {
            return 1;
        };
        if !self.may_promote(s, from, to) {
            return 1;
        }
        let Some(id) = s.piece_at(from) else { return 1 };
        if self.variant.blast.is_some() && s.piece_at(to).is_some() {
            // The capture blasts the piece that would promote.
            return 1;
        }
        let piece = &s.pieces[id as usize];
        match self.promotion_kinds(piece.kind, piece.owner, from, to) {
            Some((to_kinds, keep)) => to_kinds.len() as u64 + u64::from(keep),
            None => 1,
        }
    }

    /// Whether the piece moving `from`→`to` could promote (the move ends,
    /// or for some kinds starts, in a zone of its owner's for a kind that
    /// promotes): most moves are ruled out in a few instructions, the
    /// cells of no player's zone without looking at the piece.
    #[inline]
    pub(super) fn may_promote(&self, s: &GameState, from: Cell, to: Cell) -> bool {
        let n = self.variant.board.cell_count();
        let flag = |block: usize, c: Cell, f: u8| {
            (c as usize) < n
                && (self.promote_cells.get(block * n + c as usize)).is_some_and(|&x| x & f != 0)
        };
        if !flag(0, to, PROMOTES_ENTERING) && !flag(0, from, PROMOTES_LEAVING) {
            return false;
        }
        let Some(id) = s.piece_at(from) else {
            return false;
        };
        let owner = s.pieces[id as usize].owner as usize + 1;
        flag(owner, to, PROMOTES_ENTERING) || flag(owner, from, PROMOTES_LEAVING)
    }

    /// Per cell, whether a move there (or from there) may promote for some
    /// owner: the first block of [`promotion_cells`]; empty when no kind
    /// promotes.
    pub(super) fn promotion_cells(&self) -> &[u8] {
        let n = self.variant.board.cell_count();
        self.promote_cells.get(..n).unwrap_or(&[])
    }

    /// [`promotion_masks`] of the variant.
    #[inline]
    pub(super) fn promotion_masks(&self) -> (u64, bool) {
        self.promote_masks
    }

    /// The kinds a piece of `kind` and `owner` moving `from`→`to` may
    /// promote to, and whether it may also stay as it is (an optional
    /// promotion, where the piece could still move); `None`: no promotion.
    #[inline]
    fn promotion_kinds(
        &self,
        kind: KindId,
        owner: PlayerId,
        from: Cell,
        to: Cell,
    ) -> Option<(&[KindId], bool)> {
        let pr = self.variant.kinds[kind as usize].promote.as_ref()?;
        let zone = &pr.zone_set[owner as usize];
        if pr.to.is_empty() || !(zone.contains(to) || pr.leaving && zone.contains(from)) {
            return None;
        }
        Some((&pr.to, pr.optional && self.could_move_from(kind, owner, to)))
    }

    /// Whether a piece of `kind` and `owner` on `cell` has a declared move
    /// that stays on the board (on an empty board): a pawn on its last
    /// rank has none.
    fn could_move_from(&self, kind: KindId, owner: PlayerId, cell: Cell) -> bool {
        use crate::rules::variant::MovePattern;
        let k = &self.variant.kinds[kind as usize];
        let b = &self.variant.board;
        let jumps =
            (k.forms.iter()).any(|f| matches!(f, crate::rules::variant::forms::Form::Jump(_)));
        jumps
            || k.moves.iter().any(|m| {
                let (MovePattern::Step { deltas, target, .. }
                | MovePattern::Slide { deltas, target, .. }
                | MovePattern::Path { deltas, target, .. }) = m;
                deltas.iter().any(|&d| {
                    let d = super::lang::oriented(d, target.relative, owner);
                    b.offset(cell, d).is_some()
                })
            })
    }
}

/// A [`Engine::may_promote`] flag: a move ending on the cell may promote.
pub(super) const PROMOTES_ENTERING: u8 = 1;
/// A [`Engine::may_promote`] flag: a move starting on the cell may promote.
pub(super) const PROMOTES_LEAVING: u8 = 2;

/// Per cell, for the kinds that promote (to some kind), the cells of
/// their promotion zones: [`PROMOTES_ENTERING`] on each zone cell, and
/// [`PROMOTES_LEAVING`] too when the kind promotes on leaving. A first
/// block of the board's cells holds the union over all owners, then one
/// block per player. Empty when no kind promotes.
pub(super) fn promotion_cells(variant: &crate::rules::variant::Variant) -> Vec<u8> {
    let n = variant.board.cell_count();
    let mut cells = Vec::new();
    for pr in variant.kinds.iter().filter_map(|k| k.promote.as_ref()) {
        if pr.to.is_empty() {
            continue;
        }
        let flags = PROMOTES_ENTERING | if pr.leaving { PROMOTES_LEAVING } else { 0 };
        for (player, zone) in pr.zone.iter().enumerate() {
            cells.resize(cells.len().max((player + 2) * n), 0);
            for &c in zone.iter().filter(|&&c| (c as usize) < n) {
                cells[c as usize] |= flags;
                cells[(player + 1) * n + c as usize] |= flags;
            }
        }
    }
    cells
}

/// The cells of [`promotion_cells`] a move may promote on entering, as a
/// mask (every bit on a board of more than 64 cells: each cell is then
/// looked up), and whether a move may promote on leaving some cell.
pub(super) fn promotion_masks(cells: &[u8], n: usize) -> (u64, bool) {
    let cells = cells.get(..n).unwrap_or(&[]);
    let leaving = cells.iter().any(|&f| f & PROMOTES_LEAVING != 0);
    if n > 64 {
        return (u64::MAX, leaving);
    }
    let entering = (cells.iter().enumerate())
        .filter(|(_, &f)| f & PROMOTES_ENTERING != 0)
        .fold(0u64, |m, (c, _)| m | 1 << c);
    (entering, leaving)
}

/// How many pieces an action captured: a strike's loser (both when both
/// lose) and each capture the hooks reported.
#[inline]
fn captured_count(events: &[Event], effects: &[Effect]) -> usize {
    events
        .iter()
        .map(|e| match e {
            Event::Struck { result, .. } => {
                usize::from(result.removes_attacker()) + usize::from(result.removes_defender())
            }
            _ => 0,
        })
        .sum::<usize>()
        + effects
            .iter()
            .filter(|e| matches!(e, Effect::Captured { .. }))
            .count()
}

/// The cells of the pieces an action captured, in the order they were
/// taken: a strike's loser (the defender on `to`, the attacker on `from`)
/// and each capture on a cell the hooks reported.
fn captured_cells(events: &[Event], effects: &[Effect]) -> Vec<Cell> {
    let mut cells = Vec::new();
    for e in events {
        if let Event::Struck {
            from, to, result, ..
        } = e
        {
            if result.removes_defender() {
                cells.push(*to);
            }
            if result.removes_attacker() {
                cells.push(*from);
            }
        }
    }
    for e in effects {
        if let Effect::Captured {
            cell: Some(cell), ..
        } = e
        {
            cells.push(*cell);
        }
    }
    cells
}
