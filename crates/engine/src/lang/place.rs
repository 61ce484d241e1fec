//! Placements: which empty cells a new piece may go to (its zone, where
//! a falling piece lands, flanking, groups and ko), and placing it with
//! its flips and captures.

use crate::base::effect::Effect;
use crate::base::geometry::Cell;
use crate::base::state::{GameState, KindId, PlayerId};
use crate::lang::groups::GroupMap;
use crate::lang::masks::{occupancy, Masks};
use crate::rules::variant::forms::{Flank, Form, PlaceForm};
use crate::{Action, ActionError, Engine};

impl Engine {
    /// The kind's placement form.
    pub(crate) fn place_form(&self, kind: KindId) -> Option<&PlaceForm> {
        self.variant.kinds[kind as usize]
            .forms
            .iter()
            .find_map(|f| match f {
                Form::Place(p) => Some(p),
                _ => None,
            })
    }

    /// Player `p`'s placements of `kind` (its `form`-th form), in cell
    /// order.
    pub(crate) fn placements(
        &self,
        s: &GameState,
        p: PlayerId,
        kind: KindId,
        form: usize,
        out: &mut Vec<Action>,
    ) -> Result<(), ActionError> {
        let Form::Place(f) = &self.variant.kinds[kind as usize].forms[form] else {
            return Ok(());
        };
        if self.supply_spent(s, p, kind, f) {
            return Ok(());
        }
        let held = match f.from_hand {
            true => match self.in_hand(s, p, kind) {
                Some(id) => Some(id),
                None => return Ok(()),
            },
            false => None,
        };
        let start = out.len();
        self.placement_cells(s, p, kind, f, out);
        if !f.not_in_file_with.is_empty() {
            self.keep_free_files(s, p, &f.not_in_file_with, out, start);
        }
        if let Some(id) = held.filter(|_| self.has_royal()) {
            self.keep_safe_drops(s, p, id, out, start)?;
            if f.no_mate {
                self.keep_non_mating_drops(s, p, id, out, start)?;
            }
        }
        Ok(())
    }

    /// The cells of [`Engine::placements`], without the hand and check.
    fn placement_cells(
        &self,
        s: &GameState,
        p: PlayerId,
        kind: KindId,
        f: &PlaceForm,
        out: &mut Vec<Action>,
    ) {
        let b = &self.variant.board;
        if let (Some(m), 0) = (&self.lang.masks, b.blocking) {
            if f.groups.is_none() {
                return self.placements_masked(s, p, kind, f, m, out);
            }
        }
        let adj = f.groups.as_ref().map(|g| self.lang.adj(b, &g.lines));
        let groups = adj.as_deref().map(|adj| {
            let mut m = GroupMap::new(s, b, adj);
            m.sorted = !self.lang.boards_in_order;
            m
        });
        for c in 0..b.cell_count() as Cell {
            if !self.admits_cell(s, p, f, c) {
                continue;
            }
            if let (Some(g), Some(map)) = (&f.groups, &groups) {
                if map.placement_key(s, c, kind, p, g).is_none() {
                    continue;
                }
            }
            out.push(Action::Place { kind, at: c });
        }
    }

    /// Whether the empty-cell rules of placement form `f` let a piece of
    /// `p` go to `c` (all but groups and ko, which need the groups).
    #[inline(always)]
    pub(super) fn admits_cell(&self, s: &GameState, p: PlayerId, f: &PlaceForm, c: Cell) -> bool {
        let b = &self.variant.board;
        if s.board()[c as usize].is_some() || s.terrain()[c as usize] & b.blocking != 0 {
            return false;
        }
        if let Some(z) = &f.zone {
            if !z[p as usize].contains(&c) {
                return false;
            }
        }
        if f.outside
            .as_ref()
            .is_some_and(|z| z[p as usize].contains(&c))
        {
            return false;
        }
        if let Some(d) = f.falls {
            // Only where a falling piece comes to rest.
            if self.lang.hops.hop(b, c, d).is_some_and(|below| {
                s.board()[below as usize].is_none() && s.terrain()[below as usize] & b.blocking == 0
            }) {
                return false;
            }
        }
        if let Some(fl) = &f.flank {
            if fl.needed && !self.flanks_any(s, c, p, fl) {
                return false;
            }
        }
        true
    }

    /// [`Engine::placements`] on a board of at most 64 cells without
    /// blocking terrain, as masks: the empty cells, less those a falling
    /// piece passes, less those outside the zone, less those that flank
    /// nothing.
    fn placements_masked(
        &self,
        s: &GameState,
        p: PlayerId,
        kind: KindId,
        f: &PlaceForm,
        m: &Masks,
        out: &mut Vec<Action>,
    ) {
        // The mover's own cells only where flanking asks for them.
        let (own, occupied) = match f.flank {
            Some(_) => occupancy(s, p),
            None => (0, s.occupied() & m.all),
        };
        let empty = m.all & !occupied;
        let mut can = empty;
        if let Some(d) = f.falls {
            can &= m.edge(d) | m.shift(occupied, (-d.0, -d.1));
        }
        if let Some(z) = &f.zone {
            can &= z[p as usize].iter().fold(0u64, |z, &c| z | 1 << c);
        }
        if let Some(z) = &f.outside {
            can &= !z[p as usize].iter().fold(0u64, |z, &c| z | 1 << c);
        }
        if let Some(fl) = f.flank.as_ref().filter(|fl| fl.needed) {
            let theirs = occupied & !own;
            let mut flanking = 0u64;
            for &(x, y) in &fl.lines {
                // From the mover's pieces back across a run of theirs.
                let back = (-x, -y);
                let mut run = m.shift(own, back) & theirs;
                let mut grown = 0;
                while run != grown {
                    grown = run;
                    run |= m.shift(run, back) & theirs;
                }
                flanking |= m.shift(run, back) & empty;
            }
            can &= flanking;
        }
        while can != 0 {
            let c = can.trailing_zeros() as Cell;
            can &= can - 1;
            out.push(Action::Place { kind, at: c });
        }
    }

    /// Whether a piece of `p` on `c` would flank an enemy line.
    fn flanks_any(&self, s: &GameState, c: Cell, p: PlayerId, fl: &Flank) -> bool {
        fl.lines.iter().any(|&d| self.flanked(s, c, p, d) > 0)
    }

    /// How many enemy pieces a piece of `p` on `c` flanks along `d` (the
    /// run of enemy pieces from `c` that ends on one of `p`'s).
    fn flanked(&self, s: &GameState, c: Cell, p: PlayerId, d: (i8, i8)) -> usize {
        let b = &self.variant.board;
        let mut n = 0;
        let mut at = c;
        while let Some(next) = self.lang.hops.hop(b, at, d) {
            match s.board()[next as usize] {
                Some(id) if s.pieces[id as usize].owner == p => return n,
                Some(_) => n += 1,
                None => return 0,
            }
            at = next;
        }
        0
    }

    /// Which of the placement's rules keeps a `kind` of the player to
    /// move off the empty cell `at`, in words (for explanations).
    pub(crate) fn placement_refusal(
        &self,
        s: &GameState,
        kind: KindId,
        at: Cell,
    ) -> Option<String> {
        let f = self.place_form(kind)?;
        let b = &self.variant.board;
        let p = s.to_move;
        if self.supply_spent(s, p, kind, f) {
            return Some(format!(
                "{} has placed all {} of theirs",
                self.player_name(p),
                f.supply.unwrap_or_default()
            ));
        }
        if f.from_hand && self.in_hand(s, p, kind).is_none() {
            return Some(format!(
                "{} holds no {} in hand",
                self.player_name(p),
                self.variant.kinds[kind as usize].display
            ));
        }
        if let Some(z) = &f.zone {
            if !z[p as usize].contains(&at) {
                return Some("it is not in the zone pieces are placed in".into());
            }
        }
        if f.outside
            .as_ref()
            .is_some_and(|z| z[p as usize].contains(&at))
        {
            return Some("pieces may not be placed in that zone".into());
        }
        if !f.not_in_file_with.is_empty()
            && self.files_taken(s, p, &f.not_in_file_with)[self.file_of(at)]
        {
            return Some("that file already holds one of the player's own pieces of a kind it may not share a file with".into());
        }
        if let (Some(id), true) = (self.in_hand(s, p, kind), f.no_mate) {
            let mut one = vec![Action::Place { kind, at }];
            if self.keep_non_mating_drops(s, p, id, &mut one, 0).is_ok() && one.is_empty() {
                return Some("it would checkmate at once, which a placement may not".into());
            }
        }
        if let Some(d) = f.falls {
            let mut rest = at;
            while let Some(below) = self.lang.hops.hop(b, rest, d) {
                if s.board()[below as usize].is_some()
                    || s.terrain()[below as usize] & b.blocking != 0
                {
                    break;
                }
                rest = below;
            }
            if rest != at {
                return Some(format!(
                    "a piece placed there falls to {}",
                    b.cell_name(rest)
                ));
            }
        }
        if let Some(fl) = f.flank.as_ref().filter(|fl| fl.needed) {
            if !self.flanks_any(s, at, p, fl) {
                return Some("it must flank a line of enemy pieces ending on one of yours".into());
            }
        }
        if let Some(g) = &f.groups {
            let adj = self.lang.adj(b, &g.lines);
            let map = GroupMap::new(s, b, &adj);
            let no_ko = crate::rules::variant::forms::Groups {
                ko: crate::rules::variant::forms::Ko::None,
                ..g.clone()
            };
            if map.placement_key(s, at, kind, p, &no_ko).is_none() {
                return Some("it would leave its own group without liberties".into());
            }
            return Some("it would repeat an earlier board (ko)".into());
        }
        None
    }

    /// Whether player `p` has placed every piece of the kind's supply.
    pub(super) fn supply_spent(
        &self,
        s: &GameState,
        p: PlayerId,
        kind: KindId,
        f: &PlaceForm,
    ) -> bool {
        f.supply
            .is_some_and(|n| s.counter(&self.lang.placed[kind as usize], Some(p)) >= n as i64)
    }

    /// Places a new piece: its flips and captures follow, as effects.
    pub(crate) fn apply_place(
        &self,
        s: &mut GameState,
        mover: PlayerId,
        kind: KindId,
        at: Cell,
        effects: &mut Vec<Effect>,
    ) -> Result<(), ActionError> {
        let Some(f) = self.place_form(kind) else {
            return Ok(());
        };
        let id = if f.from_hand {
            self.drop_from_hand(s, mover, kind, at)?
        } else {
            let public = !self.variant.hidden_identities;
            s.add_piece(kind, mover, at, public)
                .map_err(ActionError::Illegal)?
        };
        effects.push(Effect::Moved {
            piece: id,
            from: None,
            to: at,
        });
        if f.supply.is_some() {
            let name = &self.lang.placed[kind as usize];
            let n = s.counter(name, Some(mover)) + 1;
            s.set_counter(name, Some(mover), n);
        }
        if let Some(fl) = &f.flank {
            let b = &self.variant.board;
            for &d in &fl.lines {
                let n = self.flanked(s, at, mover, d);
                let mut c = at;
                for _ in 0..n {
                    c = self.lang.hops.hop(b, c, d).unwrap_or(c);
                    if let Some(other) = s.board()[c as usize] {
                        s.set_owner(other, mover);
                        effects.push(Effect::Flipped {
                            piece: other,
                            cell: c,
                            owner: mover,
                        });
                    }
                }
            }
        }
        if let Some(g) = &f.groups {
            self.capture_groups(s, at, mover, g, effects);
        }
        Ok(())
    }
}
