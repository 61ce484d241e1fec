//! Jump sequences: a piece leaps over the next cell to the one beyond,
//! and with `repeat` goes on while it can; the whole sequence is one
//! action named by every landing. A sequence never jumps a piece twice,
//! ends where the piece would promote, and is at most
//! [`JumpPath::MAX`] jumps long.

use crate::action::JumpPath;
use crate::base::cell_set::maybe_occupied;
use crate::base::effect::Effect;
use crate::base::geometry::Cell;
use crate::base::state::{GameState, Loc, PlayerId};
use crate::lang::oriented;
use crate::rules::variant::forms::{Form, Holds, JumpForm};
use crate::{Action, Engine, Event};

/// The most jump sequences one position lists: a declaration whose
/// sequences branch beyond it is refused when listed, instead of growing
/// the list without bound.
pub(super) const MAX_SEQUENCES: usize = 1 << 16;

/// One search for sequences: the piece's start and the pieces jumped so
/// far.
struct Walk<'a> {
    from: Cell,
    form: u8,
    f: &'a JumpForm,
    p: PlayerId,
    jumped: [Cell; JumpPath::MAX],
}

impl Engine {
    /// The jump form `form` of the piece on `from`.
    fn jump_form(&self, s: &GameState, from: Cell, form: u8) -> Option<&JumpForm> {
        let id = s.piece_at(from)?;
        match self.variant.kinds[s.pieces[id as usize].kind as usize]
            .forms
            .get(form as usize)?
        {
            Form::Jump(j) => Some(j),
            _ => None,
        }
    }

    /// Player `p`'s jump sequences, of the compulsory forms only (`Some(true)`),
    /// of the others only (`Some(false)`) or of all (`None`).
    pub(crate) fn jump_moves(
        &self,
        s: &GameState,
        p: PlayerId,
        frozen: &[Cell],
        compulsory: Option<bool>,
        out: &mut Vec<Action>,
    ) {
        // Only the pieces that can start a jump, when the masks know them.
        let starts = match self.jump_starts(s, p, compulsory) {
            Some(mask) => maybe_occupied(mask.into(), 0),
            None => maybe_occupied(s.occupied_wide(), s.board().len()),
        };
        for from in starts {
            let Some(id) = s.board()[from] else { continue };
            let piece = &s.pieces[id as usize];
            let from = from as Cell;
            if piece.owner != p || !frozen.is_empty() && frozen.contains(&from) {
                continue;
            }
            for &i in &self.lang.jumpers[piece.kind as usize] {
                let Form::Jump(f) = &self.variant.kinds[piece.kind as usize].forms[i] else {
                    continue;
                };
                if compulsory.is_some_and(|c| c != f.compulsory) {
                    continue;
                }
                let mut w = Walk {
                    from,
                    form: i as u8,
                    f,
                    p,
                    jumped: [Cell::MAX; JumpPath::MAX],
                };
                self.walk(s, &mut w, from, JumpPath::default(), 0, out);
            }
        }
    }

    /// On a board of at most 64 cells without blocking terrain: the cells
    /// of player `p`'s pieces that can make a first jump (of the forms
    /// `compulsory` picks), as a mask, found by shifting masks; `None`
    /// where that cannot be told so (every piece is then walked).
    fn jump_starts(&self, s: &GameState, p: PlayerId, compulsory: Option<bool>) -> Option<u64> {
        let m = self.lang.masks.as_ref()?;
        if self.variant.board.blocking != 0 {
            return None;
        }
        let kinds = &self.variant.kinds;
        const KINDS: usize = 16;
        if kinds.len() > KINDS {
            return None;
        }
        let mut own_kind = [0u64; KINDS];
        let mut own = 0u64;
        let occupied = s.occupied();
        // From the piece list (no board lookups); the masks hold at most
        // 64 cells, so every board piece's cell has its bit.
        for piece in &s.pieces {
            if let (Loc::Cell(c), true) = (piece.loc, piece.owner == p) {
                let bit = 1u64 << (c & 63);
                own |= bit;
                own_kind[piece.kind as usize % KINDS] |= bit;
            }
        }
        let enemy = occupied & !own;
        let empty = m.all & !occupied;
        let mut starts = 0u64;
        for (k, mask) in own_kind.iter().enumerate().take(kinds.len()) {
            if *mask == 0 {
                continue;
            }
            for &i in &self.lang.jumpers[k] {
                let Form::Jump(f) = &kinds[k].forms[i] else {
                    continue;
                };
                if compulsory.is_some_and(|c| c != f.compulsory) {
                    continue;
                }
                let over = match (f.over, &f.over_kinds) {
                    (Holds::Enemy, None) => enemy,
                    (Holds::Own, None) => own,
                    (Holds::Piece, None) => occupied,
                    _ => return None,
                };
                let land = match f.onto {
                    Holds::Empty => empty,
                    Holds::Enemy => enemy,
                    Holds::Any => m.all,
                    _ => return None,
                };
                for &d in &f.deltas {
                    let (x, y) = oriented(d, f.relative, p);
                    if x.abs() > 1 || y.abs() > 1 {
                        return None;
                    }
                    starts |= mask & m.shift(over, (-x, -y)) & m.shift(land, (-2 * x, -2 * y));
                }
            }
        }
        Some(starts)
    }

    /// Whether the player to move has a compulsory jump.
    pub(crate) fn forced_jump(&self, s: &GameState) -> bool {
        if !self.lang.compulsory {
            return false;
        }
        let mut out = Vec::new();
        self.jump_moves(s, s.to_move, &[], Some(true), &mut out);
        !out.is_empty()
    }

    /// Extends a sequence that stands on `at` after `n` jumps; a sequence
    /// that can go no further is a move.
    fn walk(
        &self,
        s: &GameState,
        w: &mut Walk,
        at: Cell,
        path: JumpPath,
        n: usize,
        out: &mut Vec<Action>,
    ) {
        if out.len() >= MAX_SEQUENCES {
            return;
        }
        let b = &self.variant.board;
        let hops = &self.lang.hops;
        let mut went = false;
        if (n == 0 || w.f.repeat)
            && n < JumpPath::MAX
            && !(n > 0 && self.promotes_on(s, w.from, at))
        {
            for (i, &d) in w.f.deltas.iter().enumerate() {
                let d = oriented(d, w.f.relative, w.p);
                let Some(over) = hops.hop(b, at, d) else {
                    continue;
                };
                // Most cells next to a piece hold nothing to jump.
                if s.board()[over as usize].is_none()
                    && matches!(w.f.over, Holds::Enemy | Holds::Own | Holds::Piece)
                {
                    continue;
                }
                let Some(land) = hops.hop(b, over, d) else {
                    continue;
                };
                if !self.may_jump(s, w, over, n) || !self.may_land(s, w, land) {
                    continue;
                }
                let Some(next) = path.then(i) else { continue };
                went = true;
                w.jumped[n] = over;
                self.walk(s, w, land, next, n + 1, out);
                w.jumped[n] = Cell::MAX;
            }
        }
        if !went && n > 0 {
            out.push(Action::Jumps {
                from: w.from,
                form: w.form,
                path,
            });
        }
    }

    /// Whether the piece on `from` would promote on `at`.
    fn promotes_on(&self, s: &GameState, from: Cell, at: Cell) -> bool {
        let Some(id) = s.piece_at(from) else {
            return false;
        };
        let piece = &s.pieces[id as usize];
        self.variant.kinds[piece.kind as usize]
            .promote
            .as_ref()
            .is_some_and(|pr| !pr.to.is_empty() && pr.zone_set[piece.owner as usize].contains(at))
    }

    fn may_jump(&self, s: &GameState, w: &Walk, over: Cell, n: usize) -> bool {
        if w.jumped[..n].contains(&over) || over == w.from {
            return false;
        }
        let Some(id) = s.piece_at(over) else {
            return w.f.over == Holds::Any || w.f.over == Holds::Empty;
        };
        let piece = &s.pieces[id as usize];
        let fits = match w.f.over {
            Holds::Enemy => piece.owner != w.p,
            Holds::Own => piece.owner == w.p,
            Holds::Piece | Holds::Any => true,
            Holds::Empty => false,
        };
        fits && w
            .f
            .over_kinds
            .as_ref()
            .is_none_or(|k| k.contains(&piece.kind))
    }

    fn may_land(&self, s: &GameState, w: &Walk, land: Cell) -> bool {
        let b = &self.variant.board;
        if s.terrain()[land as usize] & b.blocking != 0 {
            return false;
        }
        // The jumping piece has left its start; jumped pieces stay until
        // the sequence ends.
        let holder = if land == w.from {
            None
        } else {
            s.piece_at(land)
        };
        match (w.f.onto, holder) {
            (Holds::Empty, None) | (Holds::Any, _) => true,
            (Holds::Enemy, Some(id)) => s.pieces[id as usize].owner != w.p,
            _ => false,
        }
    }

    /// The cells a jump sequence lands on, in order (empty when the action
    /// is none, or its piece is gone).
    pub(crate) fn jump_landings(&self, s: &GameState, a: &Action) -> Vec<Cell> {
        let Action::Jumps { from, form, path } = *a else {
            return Vec::new();
        };
        self.jump_cells(s, from, form, path)
            .map(|v| v.into_iter().map(|(_, land)| land).collect())
            .unwrap_or_default()
    }

    /// Each jump's (jumped, landing) cells, or `None` when the path leaves
    /// the board or the piece is not there.
    fn jump_cells(
        &self,
        s: &GameState,
        from: Cell,
        form: u8,
        path: JumpPath,
    ) -> Option<Vec<(Cell, Cell)>> {
        let f = self.jump_form(s, from, form)?;
        let p = s.pieces[s.piece_at(from)? as usize].owner;
        let b = &self.variant.board;
        let mut at = from;
        let mut out = Vec::with_capacity(path.len());
        for i in path.directions() {
            let d = oriented(*f.deltas.get(i)?, f.relative, p);
            let over = self.lang.hops.hop(b, at, d)?;
            at = self.lang.hops.hop(b, over, d)?;
            out.push((over, at));
        }
        Some(out)
    }

    /// The jump sequence of the piece on `cells[0]` through the landings
    /// `cells[1..]`, when its kind has a jump form that makes it.
    pub(crate) fn jumps_through(&self, s: &GameState, cells: &[Cell]) -> Option<Action> {
        let from = cells[0];
        let id = s.piece_at(from)?;
        let piece = &s.pieces[id as usize];
        let b = &self.variant.board;
        'forms: for &i in &self.lang.jumpers[piece.kind as usize] {
            let Form::Jump(f) = &self.variant.kinds[piece.kind as usize].forms[i] else {
                continue;
            };
            let mut path = JumpPath::default();
            let mut at = from;
            for &land in &cells[1..] {
                let step = f.deltas.iter().position(|&d| {
                    let d = oriented(d, f.relative, piece.owner);
                    b.offset(at, d)
                        .and_then(|over| b.offset(over, d))
                        .is_some_and(|c| c == land)
                });
                match step.and_then(|k| path.then(k)) {
                    Some(p) => path = p,
                    None => continue 'forms,
                }
                at = land;
            }
            return Some(Action::Jumps {
                from,
                form: i as u8,
                path,
            });
        }
        None
    }

    /// Makes a jump sequence: the piece goes to its last landing, and the
    /// jumped pieces are captured when the form says so.
    pub(crate) fn apply_jumps(
        &self,
        s: &mut GameState,
        a: &Action,
        events: &mut Vec<Event>,
        effects: &mut Vec<Effect>,
    ) -> Option<Cell> {
        let Action::Jumps { from, form, path } = *a else {
            return None;
        };
        let capture = self.jump_form(s, from, form)?.capture;
        let cells = self.jump_cells(s, from, form, path)?;
        let id = s.piece_at(from)?;
        let to = cells.last()?.1;
        s.place(id, to);
        s.pieces[id as usize].moved = true;
        events.push(Event::Moved {
            piece: id,
            from,
            to,
        });
        if capture {
            let jumper = s.pieces[id as usize].owner;
            for &(over, _) in &cells {
                if let Some(j) = s.piece_at(over) {
                    self.take(s, j, jumper);
                    effects.push(Effect::Captured {
                        piece: j,
                        cell: Some(over),
                    });
                }
            }
        }
        Some(to)
    }
}
