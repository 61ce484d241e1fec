//! Declared actions (`actions:` in the variant): listing them natively
//! from their parameters' sources and filters, whether one is available
//! under the turn's budget, why one is not, and performing one (cost, turn
//! steps, then its `rules` function).

use crate::base::effect::Effect;
use crate::base::geometry::Cell;
use crate::base::state::{Choice, GameState, PlayerId};
use crate::rules::cells::cells_of;
use crate::rules::variant::actions::{ActionChoose, ActionDecl, Does, Filter};
use crate::{Action, ActionError, Engine};

impl Engine {
    /// Appends the available declared actions of the player to move (in
    /// the current phase; reactions wait for their windows); `frozen`: that
    /// player's frozen pieces, as the listing found them.
    pub(super) fn declared_actions(
        &self,
        s: &GameState,
        frozen: &[Cell],
        out: &mut Vec<Action>,
    ) -> Result<(), ActionError> {
        let phase = self.variant.phases.get(s.phase as usize);
        // The parameters' values, in buffers kept across the kinds.
        let mut bufs = (Vec::new(), Vec::new());
        for k in 0..self.variant.actions.len() {
            let in_phase = phase
                .and_then(|ph| ph.actions.as_ref())
                .is_none_or(|l| l.contains(&(k as u8)));
            if in_phase && !self.is_reaction(k) {
                self.declared_of_kind_into(s, (s.to_move, Some(frozen)), k, out, &mut bufs)?;
            }
        }
        Ok(())
    }

    /// Appends the available actions of declared kind `k` for player `p`
    /// (`frozen`: `p`'s frozen pieces when already known).
    pub(super) fn declared_of_kind(
        &self,
        s: &GameState,
        p: PlayerId,
        k: usize,
        frozen: Option<&[Cell]>,
        out: &mut Vec<Action>,
    ) -> Result<(), ActionError> {
        self.declared_of_kind_into(s, (p, frozen), k, out, &mut (Vec::new(), Vec::new()))
    }

    /// [`Engine::declared_of_kind`] with buffers for the parameters' values.
    fn declared_of_kind_into(
        &self,
        s: &GameState,
        (p, frozen): (PlayerId, Option<&[Cell]>),
        k: usize,
        out: &mut Vec<Action>,
        (first, second): &mut (Vec<Cell>, Vec<Cell>),
    ) -> Result<(), ActionError> {
        let d = &self.variant.actions[k];
        if !self.available(s, p, k, d) {
            return Ok(());
        }
        let kind = k as u8;
        match d.params.len() {
            0 => self.push_legal(s, p, out, d, Action::Declared { kind, a: 0, b: 0 })?,
            1 => {
                self.param_values(s, (p, frozen), d, 0, &[], first)?;
                for &a in first.iter() {
                    self.push_legal(s, p, out, d, Action::Declared { kind, a, b: 0 })?;
                }
            }
            _ => {
                self.param_values(s, (p, frozen), d, 0, &[], first)?;
                for &a in first.iter() {
                    self.param_values(s, (p, frozen), d, 1, &[a], second)?;
                    for &b in second.iter() {
                        self.push_legal(s, p, out, d, Action::Declared { kind, a, b })?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Keeps a listed declared action when its `legal` function agrees and,
    /// in a variant with royal pieces, it leaves `p`'s royal pieces safe.
    fn push_legal(
        &self,
        s: &GameState,
        p: PlayerId,
        out: &mut Vec<Action>,
        d: &ActionDecl,
        a: Action,
    ) -> Result<(), ActionError> {
        if self.has_royal() && self.declared_exposes_royal(s, p, &a)? {
            return Ok(());
        }
        if self.hook_refusal(s, d, &a)?.is_some() {
            return Ok(());
        }
        out.push(a);
        Ok(())
    }

    /// What the action's `legal` function says against it: `None` when it
    /// agrees (or there is none), else its reason (empty when it gave none).
    fn hook_refusal(
        &self,
        s: &GameState,
        d: &ActionDecl,
        a: &Action,
    ) -> Result<Option<String>, ActionError> {
        let Some(f) = &d.legal else {
            return Ok(None);
        };
        let args = self.declared_args(d, a);
        self.rules
            .legal_declared(s, &self.variant, f, &args)
            .map_err(ActionError::Script)
    }

    /// Whether some complete declared action of kind `kind` that starts
    /// with the parameter values `cells` has values for `p` that its
    /// `legal` function accepts (a value offered in a refusal must not be
    /// one the hook refuses; royal safety is explained on its own).
    fn completes(
        &self,
        s: &GameState,
        p: PlayerId,
        kind: u8,
        d: &ActionDecl,
        cells: &[Cell],
    ) -> bool {
        if cells.len() >= d.params.len() {
            let mut c = [0 as Cell; 2];
            c[..cells.len().min(2)].copy_from_slice(&cells[..cells.len().min(2)]);
            let a = Action::Declared {
                kind,
                a: c[0],
                b: c[1],
            };
            return self.hook_refusal(s, d, &a).is_ok_and(|r| r.is_none());
        }
        let mut next = Vec::new();
        if self
            .param_values(s, (p, None), d, cells.len(), cells, &mut next)
            .is_err()
        {
            return false;
        }
        next.into_iter().any(|v| {
            let mut more = cells.to_vec();
            more.push(v);
            self.completes(s, p, kind, d, &more)
        })
    }

    /// Whether declared action `k` can be taken now by `p` (as
    /// [`Engine::unavailable`] says, without making the reason).
    fn available(&self, s: &GameState, p: PlayerId, k: usize, d: &ActionDecl) -> bool {
        let pays = d
            .cost
            .as_ref()
            .is_none_or(|(c, n)| s.counter(c, Some(p)) >= *n)
            && d.needs.as_ref().is_none_or(|c| {
                s.containers
                    .iter()
                    .any(|x| x.name == *c && x.owner == Some(p) && !x.pieces.is_empty())
            });
        if self.is_reaction(k) {
            return pays
                && s.windows.last().is_some_and(|w| {
                    self.variant.reactions[w.kind as usize]
                        .actions
                        .contains(&(k as u8))
                });
        }
        let budget = self
            .variant
            .turn_actions
            .is_none_or(|n| s.steps.actions < n);
        !(d.counts && (s.steps.closed || !budget))
            && !(d.once && s.steps.taken & (1 << k) != 0)
            && pays
    }

    /// Why declared action `k` cannot be taken now by `p`, or `None`.
    pub(super) fn unavailable(
        &self,
        s: &GameState,
        p: PlayerId,
        k: usize,
        d: &ActionDecl,
    ) -> Option<String> {
        if self.is_reaction(k) {
            // A reaction answers a window: the turn's budget is not its.
            if !s.windows.last().is_some_and(|w| {
                self.variant.reactions[w.kind as usize]
                    .actions
                    .contains(&(k as u8))
            }) {
                return Some(format!("`{}` is a reaction: only in its window", d.name));
            }
            return self.cost_or_needs(s, p, d);
        }
        if d.counts && s.steps.closed {
            return Some("the action part of the turn is over".into());
        }
        if let Some(n) = self.variant.turn_actions {
            if d.counts && s.steps.actions >= n {
                return Some(format!("the turn's {n} actions are used"));
            }
        }
        if d.once && s.steps.taken & (1 << k) != 0 {
            return Some(format!("`{}` is taken at most once a turn", d.name));
        }
        self.cost_or_needs(s, p, d)
    }

    /// Why `p` cannot pay for `d` or lacks what it needs, or `None`.
    fn cost_or_needs(&self, s: &GameState, p: PlayerId, d: &ActionDecl) -> Option<String> {
        if let Some((c, n)) = &d.cost {
            let have = s.counter(c, Some(p));
            if have < *n {
                return Some(format!(
                    "it costs {n} {c} and {} has {have}",
                    self.player_name(p)
                ));
            }
        }
        if let Some(c) = &d.needs {
            let has = s
                .containers
                .iter()
                .any(|x| x.name == *c && x.owner == Some(p) && !x.pieces.is_empty());
            if !has {
                return Some(format!("{}'s {c} is empty", self.player_name(p)));
            }
        }
        None
    }

    /// The values of parameter `i` (cell order), given the earlier ones,
    /// for player `p` (with `p`'s frozen pieces when known), or the error
    /// of `rules.frozen` when a condition asks it.
    pub(super) fn param_values(
        &self,
        s: &GameState,
        (p, known): (PlayerId, Option<&[Cell]>),
        d: &ActionDecl,
        i: usize,
        earlier: &[Cell],
        out: &mut Vec<Cell>,
    ) -> Result<(), ActionError> {
        let param = &d.params[i];
        let found;
        let frozen = match known {
            _ if !param.uses_frozen() => &[][..],
            Some(f) => f,
            None => {
                found = self.frozen_cells(s, p)?;
                &found[..]
            }
        };
        if frozen.is_empty()
            && param.fallback.is_none()
            && param.filters.contains(&Filter::Frozen(true))
        {
            // Nothing of `p`'s is frozen: no cell passes.
            out.clear();
            return Ok(());
        }
        cells_of(&self.variant.board, s, (p, frozen), param, earlier, out);
        Ok(())
    }

    /// Whether taking declared action `a` would leave one of `p`'s royal
    /// pieces capturable: the action is performed on a copy (a rule that
    /// fails there leaves it to performing the action to report).
    pub(super) fn declared_exposes_royal(
        &self,
        s: &GameState,
        p: PlayerId,
        a: &Action,
    ) -> Result<bool, ActionError> {
        let mut t = s.clone();
        let mut effects = Vec::new();
        if self.perform_declared(&mut t, a, p, &mut effects).is_err() {
            return Ok(false);
        }
        self.try_royal_attacked(&t, p)
    }

    /// The parameters of a declared action by name, with their cells.
    pub(super) fn declared_args<'d>(&self, d: &'d ActionDecl, a: &Action) -> Vec<(&'d str, Cell)> {
        let Action::Declared { a: x, b: y, .. } = *a else {
            return Vec::new();
        };
        d.params
            .iter()
            .zip([x, y])
            .map(|(p, c)| (p.name.as_str(), c))
            .collect()
    }

    /// Performs a declared action: its cost, the turn's steps, then its
    /// `rules` function; the turn stays unless the action ends it.
    pub(super) fn perform_declared(
        &self,
        s: &mut GameState,
        a: &Action,
        mover: PlayerId,
        effects: &mut Vec<Effect>,
    ) -> Result<(), ActionError> {
        let Action::Declared { kind, .. } = *a else {
            return Ok(());
        };
        let d = &self.variant.actions[kind as usize];
        if let Some((c, n)) = &d.cost {
            let have = s.counter(c, Some(mover));
            s.set_counter(c, Some(mover), have - n);
        }
        if self.is_reaction(kind as usize) {
            if let Some(f) = &d.perform {
                let args = self.declared_args(d, a);
                self.rules
                    .perform_declared(s, &self.variant, effects, f, &args)
                    .map_err(ActionError::Script)?;
            }
            return self.after_reaction(s, effects);
        }
        if d.counts {
            s.steps.actions = s.steps.actions.saturating_add(1);
        }
        s.steps.taken |= 1 << kind;
        s.steps.closed |= d.closes;
        s.set_hold_turn(!d.ends_turn);
        if d.moves {
            let Action::Declared { a: from, b: to, .. } = *a else {
                return Ok(());
            };
            if let (Some(id), None) = (s.piece_at(from), s.piece_at(to)) {
                s.place(id, to);
                effects.push(Effect::Moved {
                    piece: id,
                    from: Some(from),
                    to,
                });
            }
        }
        if d.places {
            self.place_from_container(s, d, a, mover, effects);
        }
        for x in &d.does {
            does(s, x, a, mover, effects, &self.variant.board);
        }
        if let Some(c) = &d.choose {
            if self.declared_choice(s, c, mover, effects)? {
                return Ok(());
            }
        }
        if let (Some(f), true) = (&d.perform, self.perform_wanted(s, d, a, mover)) {
            let args = self.declared_args(d, a);
            self.rules
                .perform_declared(s, &self.variant, effects, f, &args)
                .map_err(ActionError::Script)?;
        }
        Ok(())
    }

    /// An action's `choose`: the cells of its query (none when the player
    /// must have a piece on the board and has none), sorted by name; two
    /// or more are a pending choice, one is answered at once. Returns
    /// whether it was asked or answered (else `perform` is called).
    fn declared_choice(
        &self,
        s: &mut GameState,
        c: &ActionChoose,
        mover: PlayerId,
        effects: &mut Vec<Effect>,
    ) -> Result<bool, ActionError> {
        let v = &self.variant;
        let Some(q) = v.queries.iter().find(|q| q.name == c.query) else {
            return Ok(false);
        };
        let mut cells = Vec::new();
        let has_piece = || {
            s.board()
                .iter()
                .flatten()
                .any(|&id| s.pieces[id as usize].owner == mover)
        };
        if !c.only_with_pieces || has_piece() {
            let frozen = if q.uses_frozen() {
                self.frozen_cells(s, mover)?
            } else {
                Vec::new()
            };
            cells_of(&v.board, s, (mover, &frozen), q, &[], &mut cells);
        }
        if cells.is_empty() {
            return Ok(false);
        }
        let mut options: Vec<String> = cells.iter().map(|&x| v.board.cell_name(x)).collect();
        options.sort_unstable();
        let choice = Choice {
            player: mover,
            reason: c.question.clone(),
            options,
            piece: None,
            public: c.public,
            handler: Some(c.handler.clone()),
            data: Vec::new(),
            passes_turn: !s.holds_turn(),
        };
        if choice.options.len() == 1 {
            let label = &choice.options[0];
            self.rules
                .answer_choice(s, v, effects, &choice, label)
                .map_err(ActionError::Script)?;
            self.declared_win(s);
        } else {
            s.pending.push(choice);
        }
        Ok(true)
    }

    /// A `places` action: the front piece of the mover's `needs`
    /// container goes onto the action's cell, if it is free.
    fn place_from_container(
        &self,
        s: &mut GameState,
        d: &ActionDecl,
        a: &Action,
        mover: PlayerId,
        effects: &mut Vec<Effect>,
    ) {
        let (Action::Declared { a: to, .. }, Some(name)) = (*a, &d.needs) else {
            return;
        };
        let front = s
            .containers
            .iter()
            .find(|x| x.name == *name && x.owner == Some(mover))
            .and_then(|x| x.pieces.first().copied());
        if let (Some(id), None) = (front, s.piece_at(to)) {
            s.place(id, to);
            effects.push(Effect::Moved {
                piece: id,
                from: None,
                to,
            });
        }
    }

    /// Whether a declared action's `perform` is to be called: always,
    /// unless its `perform_if` holds on none of its conditions.
    #[inline]
    fn perform_wanted(&self, s: &GameState, d: &ActionDecl, a: &Action, p: PlayerId) -> bool {
        let (Some((i, any)), Action::Declared { a: x, b: y, .. }) = (&d.perform_if, *a) else {
            return true;
        };
        let c = if *i == 0 { x } else { y };
        let frozen = if any.iter().any(|f| matches!(f, Filter::Frozen(_))) {
            self.frozen_cells(s, p).unwrap_or_default()
        } else {
            Vec::new()
        };
        any.iter()
            .any(|f| crate::rules::cells::holds(s, (p, &frozen), f, c))
    }

    /// The text of a declared action, from its declaration.
    pub(super) fn declared_text(&self, a: &Action) -> String {
        let Action::Declared { kind, .. } = *a else {
            return String::new();
        };
        let d = &self.variant.actions[kind as usize];
        let b = &self.variant.board;
        let args: Vec<String> = self
            .declared_args(d, a)
            .into_iter()
            .map(|x| b.cell_name(x.1))
            .collect();
        d.render(&args)
    }

    /// Reads a declared action's text: `None` when no declaration has
    /// this shape; an error when one has but a value is not a cell (and no
    /// other declaration reads it: `expert` has the shape `{from}x{to}`).
    pub(super) fn parse_declared(&self, t: &str) -> Option<Result<Action, ActionError>> {
        let b = &self.variant.board;
        let mut refused = None;
        'kinds: for (k, d) in self.variant.actions.iter().enumerate() {
            let Some(args) = d.read(t) else { continue };
            let mut cells = [0 as Cell; 2];
            for (i, v) in args.iter().enumerate() {
                match b.parse_cell(v) {
                    Some(c) => cells[i] = c,
                    None => {
                        refused.get_or_insert_with(|| {
                            Err(ActionError::Parse(format!(
                                "`{t}`: `{v}` is not a cell of the {b} board"
                            )))
                        });
                        continue 'kinds;
                    }
                }
            }
            let [a, b] = cells;
            return Some(Ok(Action::Declared {
                kind: k as u8,
                a,
                b,
            }));
        }
        refused
    }

    /// Why a declared action is not legal here.
    pub(super) fn explain_declared(&self, s: &GameState, a: &Action) -> String {
        let Action::Declared { kind, a: x, b: y } = *a else {
            return String::new();
        };
        let text = self.declared_text(a);
        let d = &self.variant.actions[kind as usize];
        let p = self.acting_player(s).unwrap_or(s.to_move);
        if let Some(why) = self.unavailable(s, p, kind as usize, d) {
            return format!("`{text}`: {why}");
        }
        let mut vals = Vec::new();
        let b = &self.variant.board;
        for (i, c) in [x, y].into_iter().enumerate().take(d.params.len()) {
            if let Err(e) = self.param_values(s, (p, None), d, i, &[x, y][..i], &mut vals) {
                return format!("`{text}`: {e}");
            }
            if !vals.contains(&c) {
                let name = &d.params[i].name;
                let what = match s.board()[c as usize] {
                    Some(id) => format!(
                        "{} has {}'s piece on it",
                        b.cell_name(c),
                        self.player_name(s.pieces[id as usize].owner)
                    ),
                    None => format!("{} is not one of its cells", b.cell_name(c)),
                };
                // Only the values that lead to an action the rules list.
                let earlier = &[x, y][..i];
                let list: Vec<String> = vals
                    .iter()
                    .filter(|&&v| {
                        let mut cells = earlier.to_vec();
                        cells.push(v);
                        self.completes(s, p, kind, d, &cells)
                    })
                    .map(|&v| b.cell_name(v))
                    .collect();
                return format!("`{text}`: {what} (`{name}` may be: {})", list.join(" "));
            }
        }
        if self.has_royal() && self.declared_exposes_royal(s, p, a).unwrap_or(false) {
            return format!(
                "`{text}`: it would leave {}'s royal piece capturable",
                self.player_name(p)
            );
        }
        match self.hook_refusal(s, d, a) {
            Ok(Some(why)) if !why.is_empty() => format!("`{text}`: {why}"),
            Ok(Some(_)) => format!(
                "`{text}`: rules.{} refuses it here",
                d.legal.as_deref().unwrap_or("legal")
            ),
            Err(e) => format!("`{text}`: {e}"),
            Ok(None) => format!("`{text}`: the rules refuse it here"),
        }
    }
}

/// One native effect of a declared action (`does:`), on the cell of one of
/// its parameters; nothing when that cell holds no piece (an effect on a
/// piece) or is off the board.
fn does(
    s: &mut GameState,
    x: &Does,
    a: &Action,
    mover: PlayerId,
    effects: &mut Vec<Effect>,
    board: &crate::base::geometry::Board,
) {
    let Action::Declared {
        a: first,
        b: second,
        ..
    } = *a
    else {
        return;
    };
    let cell = |i: usize| if i == 0 { first } else { second };
    match x {
        Does::Flip(i) => {
            let c = cell(*i);
            if let Some(id) = s
                .piece_at(c)
                .filter(|&id| s.pieces[id as usize].owner != mover)
            {
                s.set_owner(id, mover);
                effects.push(Effect::Flipped {
                    piece: id,
                    cell: c,
                    owner: mover,
                });
            }
        }
        Does::Capture(i) => {
            let c = cell(*i);
            if let Some(id) = s.piece_at(c) {
                s.capture(id);
                effects.push(Effect::Captured {
                    piece: id,
                    cell: Some(c),
                });
            }
        }
        Does::Send(i, to) => {
            let c = cell(*i);
            if let Some(id) = s.piece_at(c) {
                let k = s.container_id(to, Some(mover));
                s.send_to(id, k);
                effects.push(Effect::Captured {
                    piece: id,
                    cell: Some(c),
                });
            }
        }
        Does::Add(i, counter, n) => {
            let c = cell(*i);
            if (c as usize) < s.board().len() {
                let v = s.cell_counter(counter, c).saturating_add(*n);
                s.set_cell_counter(counter, c, v);
            }
        }
        Does::Sow(w) => super::sow::sow(s, w, cell(w.from), mover, board),
    }
}
