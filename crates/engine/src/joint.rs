//! Declared moves beyond one piece's pattern: joint moves (two pieces at
//! once under a right kept in a counter, `rules.bookkeeping.joint_moves`) and captures
//! of a piece that passed a cell (`rules.bookkeeping.passing`). They are listed with
//! the rules' extra moves, and the host keeps their counters after each
//! move, so no script is asked.

use crate::base::effect::Effect;
use crate::base::geometry::Cell;
use crate::base::state::{GameState, KindId, PlayerId};
use crate::movegen::{attacked_on, piece_moves_on, reaches};
use crate::rules::lua::RuleHook;
use crate::rules::variant::JointMove;
use crate::slide_masks::blocked_cells;
use crate::Engine;

/// An extra move: from, to, and the cells it captures besides `to`.
pub(crate) type ExtraMove = (Cell, Cell, Vec<Cell>);

/// What the host's bookkeeping after a move looks up rather than works
/// out, built once per variant.
#[derive(Clone, Debug, Default)]
pub(super) struct JointTables {
    /// Per cell: the joint-move rights a move that leaves or enters it
    /// ends (those whose mover or partner starts there).
    touch: Vec<i64>,
    /// The passing kinds, a bit each (the 128th standing for all beyond).
    passing_kinds: u128,
}

impl JointTables {
    pub(super) fn new(v: &crate::rules::variant::Variant) -> JointTables {
        let mut touch = Vec::new();
        if let Some(j) = &v.joint_moves {
            touch = vec![0; v.board.cell_count()];
            for m in &j.moves {
                for c in [m.from, m.partner_from] {
                    if let Some(t) = touch.get_mut(c as usize) {
                        *t |= m.right;
                    }
                }
            }
        }
        let passing_kinds = v.passing.as_ref().map_or(0, |p| {
            crate::tables::kind_set(p.kinds.iter().map(|&k| k as usize))
        });
        JointTables {
            touch,
            passing_kinds,
        }
    }
}

impl Engine {
    /// Whether moves beyond the pieces' patterns may be listed: the rules'
    /// `extra_moves`, or declared joint or passing moves.
    pub(crate) fn has_extra_moves(&self) -> bool {
        self.rules.has(RuleHook::ExtraMoves)
            || self.variant.joint_moves.is_some()
            || self.variant.passing.is_some()
    }

    /// Appends `player`'s declared joint and passing moves to `out`.
    pub(super) fn declared_extras(
        &self,
        s: &GameState,
        player: PlayerId,
        out: &mut Vec<ExtraMove>,
    ) {
        if let (Some(j), Some(id)) = (&self.variant.joint_moves, &self.counters.joint) {
            let rights = s.counter_id(id, None);
            if rights != 0 {
                for m in &j.moves {
                    if m.player == player && rights & m.right != 0 && self.joint_open(s, m) {
                        out.push((m.from, m.to, Vec::new()));
                    }
                }
            }
        }
        if let Some(id) = &self.counters.passing {
            let v = s.counter_id(id, None);
            if v > 0 && ((v - 1) as usize) < s.board().len() {
                self.passing_captures(s, player, (v - 1) as Cell, out, false);
            }
        }
    }

    /// Whether a joint move whose right is open can be made now: both
    /// pieces in place, the cells to cross empty, the mover safe on each
    /// of its `safe` cells.
    fn joint_open(&self, s: &GameState, m: &JointMove) -> bool {
        let own = |c: Cell, k: KindId| {
            s.piece_at(c).is_some_and(|id| {
                let p = &s.pieces[id as usize];
                p.owner == m.player && p.kind == k
            })
        };
        if !own(m.from, m.piece)
            || !own(m.partner_from, m.partner)
            || m.empty.iter().any(|&c| s.piece_at(c).is_some())
        {
            return false;
        }
        let players = s.players as PlayerId;
        let attacked = |board: &[Option<_>], c: Cell| {
            if self.variant.blast.is_some() {
                return self.blast_threatened(s, board, c, m.player);
            }
            (0..players).any(|q| q != m.player && attacked_on(&self.moves, s, board, c, q))
        };
        let mover = s.board()[m.from as usize];
        let mut board = None;
        m.safe.iter().all(|&c| {
            if c == m.from {
                return !attacked(s.board(), c);
            }
            let b = board.get_or_insert_with(|| {
                let mut b = s.board().to_vec();
                b[m.from as usize] = None;
                b
            });
            let before = std::mem::replace(&mut b[c as usize], mover);
            let safe = !attacked(b, c);
            b[c as usize] = before;
            safe
        })
    }

    /// The captures onto the passed cell `cell` that `player`'s pieces of a
    /// passing kind could make were the passer standing there, appended to
    /// `out`; `first`: stop at the first (nothing is appended). Whether
    /// there is one.
    fn passing_captures(
        &self,
        s: &GameState,
        player: PlayerId,
        cell: Cell,
        out: &mut Vec<ExtraMove>,
        first: bool,
    ) -> bool {
        if s.piece_at(cell).is_some() {
            return false;
        }
        let Some(victim) = self.passer(s, player, cell) else {
            return false;
        };
        let Some(p) = &self.variant.passing else {
            return false;
        };
        let mut board = s.board().to_vec();
        board[cell as usize] = board[victim as usize].take();
        let m = &*self.moves;
        let mut found = false;
        let mut take = |from: Cell| {
            let Some(id) = board[from as usize] else {
                return false;
            };
            let piece = &s.pieces[id as usize];
            if piece.owner == player
                && p.kinds.contains(&piece.kind)
                && reaches(m, s, &board, id, from, cell)
            {
                found = true;
                if first {
                    return true;
                }
                if !out.iter().any(|x| x.0 == from && x.1 == cell) {
                    out.push((from, cell, vec![victim]));
                }
            }
            false
        };
        let b = &self.variant.board;
        let blocked = |c: Cell| s.terrain()[c as usize] & b.blocking != 0;
        if let Some(bits) = &m.attack.bits {
            // The board after the passer's step back, as masks.
            let gone = 1u64 << victim;
            let stops = (s.occupied() & !gone) | 1u64 << cell | blocked_cells::<u64>(s, b.blocking);
            let kind_owner = crate::movegen::kind_owner(s, &board);
            let kinds = self.joint.passing_kinds;
            let masks = (stops, s.owned_by(player));
            bits.any_candidate_of(kinds, cell, player, masks, kind_owner, blocked, &mut take);
        } else if m.attack.usable {
            // Only the cells whose pieces of a passing kind might reach
            // the passed cell.
            m.attack.any_candidate_of(
                self.joint.passing_kinds,
                b,
                cell,
                player,
                crate::movegen::kind_owner(s, &board),
                blocked,
                &mut take,
            );
        } else {
            for from in 0..board.len() as Cell {
                if take(from) {
                    break;
                }
            }
        }
        found
    }

    /// The cell of the piece that passed `cell`: an enemy of `player` of a
    /// passing kind one step past it along its owner's direction.
    fn passer(&self, s: &GameState, player: PlayerId, cell: Cell) -> Option<Cell> {
        let p = self.variant.passing.as_ref()?;
        (0..s.players as PlayerId)
            .filter(|&q| q != player)
            .find_map(|q| {
                let c = self.variant.board.offset(cell, p.step[q as usize])?;
                let id = s.piece_at(c)?;
                let piece = &s.pieces[id as usize];
                (piece.owner == q && p.kinds.contains(&piece.kind)).then_some(c)
            })
    }

    /// The partner's move (from, to) when the move `from` → `to` of the
    /// player to move is a joint move (a declared move between the same
    /// cells wins), asked before the move is made.
    pub(super) fn joint_partner(
        &self,
        s: &GameState,
        from: Cell,
        to: Cell,
    ) -> Option<(Cell, Cell)> {
        let j = self.variant.joint_moves.as_ref()?;
        let rights = s.counter_id(self.counters.joint.as_ref()?, None);
        let id = s.piece_at(from)?;
        let piece = &s.pieces[id as usize];
        let m = j.moves.iter().find(|m| {
            m.from == from
                && m.to == to
                && m.player == piece.owner
                && m.piece == piece.kind
                && rights & m.right != 0
        })?;
        let mut declared = false;
        piece_moves_on(&self.moves, s, s.board(), id, from, &mut |c| {
            declared |= c == to
        });
        (!declared).then_some((m.partner_from, m.partner_to))
    }

    /// The host's part after a move of `mover`'s piece of `kind` from
    /// `from` to `to` (`partner`: the joint move's second piece): the
    /// partner moves, rights touched by the move end, and the passed cell
    /// is set or cleared.
    pub(super) fn after_joint_move(
        &self,
        s: &mut GameState,
        (mover, kind, from, to): (PlayerId, KindId, Cell, Cell),
        partner: Option<(Cell, Cell)>,
        effects: &mut Vec<Effect>,
    ) {
        if let Some((pf, pt)) = partner {
            if let Some(id) = s.piece_at(pf) {
                if s.piece_at(pt).is_none() {
                    s.place(id, pt);
                    effects.push(Effect::Moved {
                        piece: id,
                        from: Some(pf),
                        to: pt,
                    });
                }
            }
        }
        if let (Some(_), Some(id)) = (&self.variant.joint_moves, &self.counters.joint) {
            let rights = s.counter_id(id, None);
            if rights != 0 {
                // The cells the move left, entered or blasted.
                let touch = |c: Cell| self.joint.touch.get(c as usize).copied().unwrap_or(0);
                let mut lost = touch(from) | touch(to);
                if self.variant.blast.is_some() {
                    for e in effects.iter() {
                        if let Effect::Captured { cell: Some(c), .. } = e {
                            lost |= touch(*c);
                        }
                    }
                }
                if rights & lost != 0 {
                    s.set_counter_id(id, None, rights & !lost);
                }
            }
        }
        if let Some(id) = &self.counters.passing {
            let passed = self
                .passed_cell(s, mover, kind, from, to)
                .map_or(0, |c| c as i64 + 1);
            if passed != 0 || s.counter_id(id, None) != 0 {
                s.set_counter_id(id, None, passed);
            }
        }
    }

    /// Clears the passed cell (`rules.bookkeeping.passing`): an action other than a move
    /// (a placement, a jump sequence, a pass, a declared or scripted
    /// action) gives up the capture of the piece that passed it, as a move
    /// that does not take it does.
    pub(super) fn clear_passed(&self, s: &mut GameState) {
        if let Some(id) = &self.counters.passing {
            if s.counter_id(id, None) != 0 {
                s.set_counter_id(id, None, 0);
            }
        }
    }

    /// The cell a move just made leaves passed: the move of a passing kind
    /// went straight along its owner's step two or more cells, and an enemy
    /// could take the passer there.
    fn passed_cell(
        &self,
        s: &GameState,
        mover: PlayerId,
        kind: KindId,
        from: Cell,
        to: Cell,
    ) -> Option<Cell> {
        let p = self.variant.passing.as_ref()?;
        if (self.joint.passing_kinds >> kind.min(127)) & 1 == 0 || !p.kinds.contains(&kind) {
            return None;
        }
        let b = &self.variant.board;
        let (sf, sr) = p.step[mover as usize];
        if (sf, sr) == (0, 0) {
            return None;
        }
        let ((f0, r0), (f1, r1)) = (b.coords(from), b.coords(to));
        let (df, dr) = (f1 - f0, r1 - r0);
        let k = if sf != 0 {
            df / sf as i32
        } else {
            dr / sr as i32
        };
        if k < 2 || df != k * sf as i32 || dr != k * sr as i32 {
            return None;
        }
        let cell = b.offset(to, (-sf, -sr))?;
        let mut out = Vec::new();
        let taken = (0..s.players as PlayerId)
            .filter(|&q| q != mover)
            .any(|q| self.passing_captures(s, q, cell, &mut out, true));
        taken.then_some(cell)
    }
}
