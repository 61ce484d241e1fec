//! Check: whether a royal piece is attacked, and the self-check test every
//! move of a variant with royal pieces must pass (the [`Guard`] with its
//! shortcuts, and the full test on a scratch board).

use crate::base::geometry::Cell;
use crate::base::state::{GameState, PieceId, PlayerId};
use crate::bits::CellMask;
use crate::guard::{Guard, Rays, GUARD_POOL};
use crate::legal::ROYAL_CELL;
use crate::movegen::{attacked_except, attacked_masked, capture_map, kind_owner, reaches};
use crate::rules::lua::RuleHook;
use crate::slide_masks::blocked_cells;
use crate::{ActionError, Engine};

thread_local! {
    /// A game state whose buffers the full self-check test reuses.
    static SPARE: std::cell::Cell<Option<GameState>> = const { std::cell::Cell::new(None) };
}

impl Engine {
    /// What the self-check test needs to know about a position, found once
    /// per position: the royal cells and, when check is native, no royal
    /// piece is attacked now and every slide is plain, the lines from the
    /// royal pieces (so that most moves need no test at all).
    /// Fails when `rules.check_cells` does. The guard comes from the
    /// thread's pool, to which [`return_guard`](super::guard::return_guard) gives it back.
    pub(crate) fn guard(
        &self,
        s: &GameState,
        player: PlayerId,
        with_rays: bool,
    ) -> Result<Box<Guard>, ActionError> {
        let mut g = GUARD_POOL.with(|p| p.take()).unwrap_or_default();
        self.prepare_guard(&mut g, s, player, with_rays, None, with_rays)?;
        Ok(g)
    }

    /// [`Engine::guard`] in the caller's guard, whose buffers it reuses,
    /// with the cells of `player`'s royal pieces when the caller knows
    /// them. `constrain`: find what the royal piece asks of every move
    /// (`legal.rs`), worth it when most moves are tested, not for a few
    /// random draws.
    pub(crate) fn prepare_guard(
        &self,
        g: &mut Guard,
        s: &GameState,
        player: PlayerId,
        with_rays: bool,
        known_royals: Option<&[Cell]>,
        constrain: bool,
    ) -> Result<(), ActionError> {
        g.reset();
        let with_rays = with_rays && self.shortcuts && self.variant.blast.is_none();
        let native = self.native_check();
        g.native = native;
        // Scripted check: the cells the rules say can matter.
        if with_rays && !native && self.rules.has(RuleHook::CheckCells) {
            if let Some(list) = self
                .rules
                .check_cells(s, &self.variant, player)
                .map_err(ActionError::Script)?
            {
                let mut mask = vec![false; s.board().len()];
                for c in list {
                    mask[c as usize] = true;
                }
                g.enemy_relevant = mask.iter().enumerate().any(|(c, &m)| {
                    m && s.board()[c].is_some_and(|id| s.pieces[id as usize].owner != player)
                });
                g.relevant = Some(mask);
            }
        }
        // From the piece list (shorter than the board), in cell order.
        match known_royals {
            Some(cells) => g.royals.extend_from_slice(cells),
            None => self.royals_into(s, player, &mut g.royals),
        }
        g.royals.sort_unstable();
        // The exhaustive test walks the board instead: it checks the masks too.
        let masks = (native && self.moves.attack.bits.is_some() && self.shortcuts)
            .then(|| board_masks(self, s));
        g.masks = masks;
        // One royal piece and plain movement: the moves of the others are
        // decided by what the position asks of them (`legal.rs`).
        let constrain = constrain && with_rays && native && g.royals.len() == 1;
        g.legal = constrain && self.constrains();
        if g.legal {
            let c = g.constraints.get_or_insert_with(Default::default);
            self.constrain(c, s, player, g.royals[0], stops(masks), &mut g.scratch);
        }
        let lines = self.slide_lines.as_deref().unwrap_or(&[]);
        let rays = with_rays
            && !g.legal
            && native
            && self.slide_lines.is_some()
            && lines.len() < 32
            && !g.royals.iter().any(|&r| {
                (0..s.players).any(|q| {
                    q != player
                        && s.eliminated & (1 << q) == 0
                        && attacked_masked(&self.moves, s, s.board(), stops(masks), r, q)
                })
            });
        if rays {
            g.rays = Some(match (&g.royals[..], self.royal_lines.is_empty()) {
                ([r], false) => Rays::Row(*r as usize * s.board().len()),
                _ => {
                    let mut rays = std::mem::take(&mut g.spare_rays);
                    rays.resize(s.board().len(), 0);
                    for &r in &g.royals {
                        rays[r as usize] = ROYAL_CELL;
                        for (i, next) in self.line_next.iter().enumerate() {
                            let mut c = next[r as usize];
                            while c != Cell::MAX {
                                rays[c as usize] |= 1 << i;
                                c = next[c as usize];
                            }
                        }
                    }
                    Rays::Built(rays)
                }
            });
        }
        Ok(())
    }

    /// The guard for testing a few randomly drawn moves of `player`, whose
    /// royal pieces stand on `royals`. Where the masks can tell whether a
    /// move leaves the single royal piece attacked
    /// ([`Engine::exposed_by_masks`]), nothing is found beforehand and
    /// each drawn move gets one attack test on them, where the line
    /// shortcut would need one for the position (is the royal piece in
    /// check?) besides. Elsewhere as [`Engine::prepare_guard`] makes it,
    /// the royal piece's first move tested in full, without the map of
    /// enemy reach.
    pub(crate) fn prepare_draws(
        &self,
        g: &mut Guard,
        s: &GameState,
        player: PlayerId,
        royals: &[Cell],
    ) -> Result<(), ActionError> {
        let masked = royals.len() == 1
            && self.variant.blast.is_none()
            && self.native_check()
            && self.moves.attack.bits.is_some()
            && self.slide_lines.is_some()
            && self.shortcuts;
        if masked {
            g.reset();
            g.native = true;
            g.royals.extend_from_slice(royals);
            g.masks = Some(board_masks(self, s));
            g.draws = true;
        } else {
            self.prepare_guard(g, s, player, true, Some(royals), false)?;
        }
        g.royal_moves = 0;
        Ok(())
    }

    /// Whether moving `from`→`to` (capturing `side` besides `to`) leaves
    /// `player`'s royal pieces safe. A query hook that fails on the way
    /// (`rules.attacked`) forbids the move and leaves its error in the guard
    /// ([`Guard::result`]).
    pub(crate) fn guard_allows(
        &self,
        g: &mut Guard,
        s: &GameState,
        player: PlayerId,
        from: Cell,
        to: Cell,
        side: &[Cell],
    ) -> bool {
        if self.variant.blast.is_some() {
            return self.blast_allows(s, player, from, to, side);
        }
        if g.draws && side.iter().all(|&c| (c as usize) < 64) {
            let side = side.iter().fold(0, |m, &c| m | 1 << c);
            if let Some(exposed) = self.exposed_by_masks(g, s, player, (from, to, side), !0) {
                return !exposed;
            }
        }
        if let (Some(c), true, true) = (&g.constraints, g.legal, side.is_empty()) {
            if from != c.royal {
                return c.allows(from, to);
            }
            if let Some(exposed) = self.exposed_by_masks(g, s, player, (from, to, 0), CellMask::MAX)
            {
                return !exposed;
            }
            // Without masks the map of enemy reach serves the royal
            // piece's moves; with them, the full test is as cheap.
            if g.masks.is_none() {
                if let Some(safe) = self.royal_map_safe(g, s, player, from, to) {
                    return safe;
                }
            }
        } else if let (Some(rays), true) = (&g.rays, side.is_empty()) {
            let m = match rays {
                Rays::Row(row) => self.royal_lines[row + from as usize],
                Rays::Built(rays) => rays[from as usize],
            };
            if m == 0 {
                // On no line from a royal piece: it opens none (steps do
                // not depend on other pieces).
                return true;
            }
            if g.royals.len() == 1 {
                // The royal piece's new cell, or the lines through `from`.
                let through = if m == ROYAL_CELL {
                    CellMask::MAX
                } else {
                    1 << from
                };
                if let Some(exposed) = self.exposed_by_masks(g, s, player, (from, to, 0), through) {
                    return !exposed;
                }
            }
            if g.scratch.is_empty() {
                g.scratch.extend_from_slice(s.board());
            }
            if m == ROYAL_CELL && g.royals.len() == 1 {
                if let Some(safe) = self.royal_map_safe(g, s, player, from, to) {
                    return safe;
                }
            }
            if m != ROYAL_CELL && g.royals.len() == 1 {
                // Only the lines through `from` can open: look along each
                // for the first piece, on the board after the move.
                return !self.opens_line(g, s, player, from, to, m);
            }
        }
        if self.outside_check_cells(g, s, from, to, side) {
            return true;
        }
        if g.native {
            if g.scratch.is_empty() {
                g.scratch.extend_from_slice(s.board());
            }
            let royals = std::mem::take(&mut g.royals);
            let board = (&mut g.scratch[..], g.masks);
            let exposed = self.exposes_royal_on(s, board, &royals, player, from, to, side);
            g.royals = royals;
            !exposed
        } else {
            match self.exposes_royal(s, player, from, to, side) {
                Ok(exposed) => !exposed,
                Err(e) => {
                    g.error.get_or_insert(e);
                    false
                }
            }
        }
    }

    /// Whether moving `from`→`to` (capturing the pieces on the cells of
    /// `side` besides `to`) leaves the single royal piece attacked, from
    /// the masks alone
    /// ([`AttackBits::attacks`](crate::bits::AttackBits::attacks)):
    /// the royal piece's new cell when it moves; `through`: only the lines
    /// through these cells and no step (`1 << from` where no royal piece
    /// is attacked now, so only the lines a move opens can matter), or
    /// every line and step (`CellMask::MAX`: the whole test, as a random
    /// draw's guard makes it, in check or not). `None` when the masks
    /// cannot tell (no masks, a candidate to confirm, terrain that blocks
    /// under the royal piece, the royal piece among `side`): test in full.
    #[inline]
    fn exposed_by_masks(
        &self,
        g: &Guard,
        s: &GameState,
        player: PlayerId,
        (from, to, side): (Cell, Cell, CellMask),
        through: CellMask,
    ) -> Option<bool> {
        let (occupied, walls) = g.masks?;
        let bits = self.moves.attack.bits.as_ref()?;
        // Royal pieces that may not face each other need the full test.
        self.slide_lines.as_ref()?;
        let r = match g.royals[..] {
            [r] if r == from => to,
            [r] => r,
            _ => return None,
        };
        let blocking = self.variant.board.blocking;
        if s.terrain()[r as usize] & blocking != 0 || side >> r & 1 == 1 {
            return None;
        }
        // The board after the move; the pieces looked at are neither the
        // mover nor the captured ones, so the state's board tells them.
        let stops = occupied & !(1 << from) & !side | 1 << to | walls;
        let blocked = |c: Cell| s.terrain()[c as usize] & blocking != 0;
        for q in 0..s.players {
            if q == player || s.eliminated & (1 << q) != 0 {
                continue;
            }
            let masks = (stops, s.owned_by(q) & !(1 << to) & !side);
            let owner = kind_owner(s, s.board());
            if bits.attacks(r, q, masks, owner, blocked, through)? {
                return Some(true);
            }
        }
        Some(false)
    }

    /// The (single) royal piece moves: is its new cell reachable by an
    /// enemy once it has left the old one? One map per position; a guard
    /// for random draws makes it for the second move tested (a draw often
    /// tests one, which the full test answers for less). `None`: test it
    /// in full.
    #[inline]
    fn royal_map_safe(
        &self,
        g: &mut Guard,
        s: &GameState,
        player: PlayerId,
        from: Cell,
        to: Cell,
    ) -> Option<bool> {
        if g.scratch.is_empty() {
            g.scratch.extend_from_slice(s.board());
        }
        g.royal_moves = g.royal_moves.saturating_add(1);
        if g.royal_moves > 1 {
            return self.royal_move_safe(g, s, player, from, to);
        }
        None
    }

    /// The line shortcut when the (single) royal piece itself moves
    /// `from`→`to`: is its new cell out of every enemy's reach once it has
    /// left the old one? One map per position, made on the first such move;
    /// `None` when no map can be made (the move is tested in full).
    #[inline]
    fn royal_move_safe(
        &self,
        g: &mut Guard,
        s: &GameState,
        player: PlayerId,
        from: Cell,
        to: Cell,
    ) -> Option<bool> {
        if g.reach.is_none() {
            let board = &mut g.scratch;
            let royal = board[from as usize].take();
            let victim = royal.map_or(0, |id| s.pieces[id as usize].kind);
            let mut map = std::mem::take(&mut g.spare_map);
            map.resize(s.board().len(), false);
            let usable = (0..s.players).all(|q| {
                q == player
                    || s.eliminated & (1 << q) != 0
                    || capture_map(&self.moves, s, board, q, victim, &mut map)
            });
            board[from as usize] = royal;
            g.reach = Some(usable.then_some(map));
        }
        match &g.reach {
            Some(Some(map)) => Some(!map[to as usize]),
            _ => None,
        }
    }

    /// The line shortcut when another piece moves `from`→`to`, `from` being
    /// on the lines `lines` (bits, see [`Guard::rays`]) from the (single)
    /// royal piece: only those lines can open. Looks along each for the
    /// first piece, on the board after the move; whether one is an enemy
    /// that then reaches the royal piece.
    #[inline]
    fn opens_line(
        &self,
        g: &mut Guard,
        s: &GameState,
        player: PlayerId,
        from: Cell,
        to: Cell,
        lines: u32,
    ) -> bool {
        let r = g.royals[0];
        let saved_to = g.scratch[to as usize];
        g.scratch[to as usize] = g.scratch[from as usize].take();
        let mut exposed = false;
        for (i, next) in self.line_next.iter().enumerate() {
            if lines & (1 << i) == 0 {
                continue;
            }
            let mut c = next[r as usize];
            while c != Cell::MAX {
                if s.terrain()[c as usize] & self.variant.board.blocking != 0 {
                    break;
                }
                if let Some(id) = g.scratch[c as usize] {
                    let q = s.pieces[id as usize].owner;
                    exposed = q != player
                        && s.eliminated & (1 << q) == 0
                        && reaches(&self.moves, s, &g.scratch, id, c, r);
                    break;
                }
                c = next[c as usize];
            }
            if exposed {
                break;
            }
        }
        g.scratch[from as usize] = g.scratch[to as usize];
        g.scratch[to as usize] = saved_to;
        exposed
    }

    /// The scripted-check shortcut (`rules.check_cells`): whether the move
    /// touches none of the cells that can matter, and captures none of them
    /// either (asked only when an enemy stands on one), so that it is safe.
    #[inline]
    fn outside_check_cells(
        &self,
        g: &Guard,
        s: &GameState,
        from: Cell,
        to: Cell,
        side: &[Cell],
    ) -> bool {
        let Some(mask) = &g.relevant else {
            return false;
        };
        let outside = |c: &Cell| !mask[*c as usize];
        if outside(&from) && outside(&to) && side.iter().all(outside) {
            // Only what the move captures is left to look at, and only
            // when an enemy stands on a cell that matters.
            let captures_outside = !g.enemy_relevant
                || !self.rules.has(RuleHook::Captures)
                || self
                    .scripted_captures(s, from, to)
                    .is_ok_and(|c| c.iter().all(outside));
            if captures_outside {
                return true;
            }
        }
        false
    }

    /// Whether check is decided natively (no rule hook changes captures,
    /// attacks or mobility).
    fn native_check(&self) -> bool {
        !self.rules.has(RuleHook::Captures)
            && !self.rules.has(RuleHook::Attacked)
            && !self.has_freeze()
    }

    /// The cells of `player`'s royal pieces.
    fn royal_cells(&self, s: &GameState, player: PlayerId) -> Vec<Cell> {
        s.board()
            .iter()
            .enumerate()
            .filter_map(|(c, slot)| {
                let p = &s.pieces[(*slot)? as usize];
                (p.owner == player && self.variant.kinds[p.kind as usize].royal)
                    .then_some(c as Cell)
            })
            .collect()
    }

    /// [`Engine::exposes_royal`] for native check, on `scratch` (a copy of
    /// the board, left as it was found, with its occupied and blocking
    /// cells as masks when the attack table has masks) with `royals` the
    /// royal cells.
    #[allow(clippy::too_many_arguments)]
    fn exposes_royal_on(
        &self,
        s: &GameState,
        (scratch, masks): (&mut [Option<PieceId>], Option<(CellMask, CellMask)>),
        royals: &[Cell],
        player: PlayerId,
        from: Cell,
        to: Cell,
        side: &[Cell],
    ) -> bool {
        let saved_to = scratch[to as usize];
        let saved_side: Vec<Option<PieceId>> =
            side.iter().map(|&c| scratch[c as usize].take()).collect();
        scratch[to as usize] = scratch[from as usize].take();
        let masks = masks.map(|(occupied, walls)| {
            let gone = side.iter().fold(1 << from, |m, &c| m | 1 << c);
            (occupied & !gone | 1 << to, walls)
        });
        let attacked = royals.iter().any(|&r| {
            let r = if r == from { to } else { r };
            (0..s.players).any(|q| {
                q != player
                    && s.eliminated & (1 << q) == 0
                    && attacked_masked(&self.moves, s, scratch, stops(masks), r, q)
            }) || self.faces_royal(s, scratch, r, player)
        });
        scratch[from as usize] = scratch[to as usize];
        scratch[to as usize] = saved_to;
        for (i, &c) in side.iter().enumerate().rev() {
            scratch[c as usize] = saved_side[i];
        }
        attacked
    }

    /// Whether moving `from`→`to` would leave one of `player`'s royal pieces
    /// capturable. The move is played on a scratch copy with its strike and
    /// its side captures (`rules.captures`), not `rules.after_action`.
    /// `side`: cells the move captures besides `to` (an extra move's).
    /// A rule that fails while the move is tried (its strike, its
    /// captures) leaves it to applying the move to report; a failing
    /// `rules.attacked` is the error.
    pub(super) fn exposes_royal(
        &self,
        s: &GameState,
        player: PlayerId,
        from: Cell,
        to: Cell,
        side: &[Cell],
    ) -> Result<bool, ActionError> {
        if self.native_check() {
            // Natively, on a copy of the board only.
            let royals = self.royal_cells(s, player);
            let masks =
                (self.moves.attack.bits.is_some() && self.shortcuts).then(|| board_masks(self, s));
            return Ok(self.exposes_royal_on(
                s,
                (&mut s.board().to_vec(), masks),
                &royals,
                player,
                from,
                to,
                side,
            ));
        }
        // On the thread's spare state (a copy into its buffers allocates
        // nothing); a nested test (a hook asking the engine) makes its own.
        let mut t = SPARE.with(|c| c.take()).unwrap_or_default();
        t.clone_from(s);
        let (mut ev, mut ef) = (Vec::new(), Vec::new());
        let exposed = match self.do_move(&mut t, player, from, to, side, &mut ev, &mut ef) {
            Err(_) => Ok(false),
            Ok(()) => self
                .try_royal_attacked(&t, player)
                .map(|a| a || self.royals_face(&t, player)),
        };
        SPARE.with(|c| c.set(Some(t)));
        exposed
    }

    /// Whether the piece on `r` (one of `player`'s, of a kind with
    /// `not_facing`) faces an enemy royal piece on the board `occupant`:
    /// the first piece along one of its kind's `not_facing` directions,
    /// past empty cells only, is royal and of a player still in the game.
    pub(crate) fn faces_royal(
        &self,
        s: &GameState,
        occupant: &[Option<PieceId>],
        r: Cell,
        player: PlayerId,
    ) -> bool {
        let Some(id) = occupant[r as usize] else {
            return false;
        };
        let kinds = &self.variant.kinds;
        let board = &self.variant.board;
        kinds[s.pieces[id as usize].kind as usize]
            .not_facing
            .iter()
            .any(|&d| {
                let mut at = r;
                while let Some(c) = board.offset(at, d) {
                    if s.terrain()[c as usize] & board.blocking != 0 {
                        return false;
                    }
                    if let Some(o) = occupant[c as usize] {
                        let o = &s.pieces[o as usize];
                        return o.owner != player
                            && s.eliminated & (1 << o.owner) == 0
                            && kinds[o.kind as usize].royal;
                    }
                    at = c;
                }
                false
            })
    }

    /// Whether one of `player`'s royal pieces faces an enemy royal piece
    /// ([`Engine::faces_royal`]) in `s`.
    fn royals_face(&self, s: &GameState, player: PlayerId) -> bool {
        if self.variant.kinds.iter().all(|k| k.not_facing.is_empty()) {
            return false;
        }
        self.royal_cells(s, player)
            .into_iter()
            .any(|r| self.faces_royal(s, s.board(), r, player))
    }

    /// Whether dropping `piece` (one of `player`'s, off the board) on the
    /// empty cell `at` leaves one of `player`'s royal pieces capturable:
    /// a drop adds a piece, so it only matters while in check, where it
    /// must block.
    pub(crate) fn drop_exposes(
        &self,
        s: &GameState,
        player: PlayerId,
        piece: PieceId,
        at: Cell,
    ) -> Result<bool, ActionError> {
        if self.native_check() {
            let masks = (self.moves.attack.bits.is_some() && self.shortcuts).then(|| {
                let (occupied, walls) = board_masks(self, s);
                (occupied | 1 << at, walls)
            });
            // With masks the dropped piece only blocks (it attacks none of
            // its own): the board itself serves, its cell set in the mask.
            let copy;
            let board = match masks {
                Some(_) => s.board(),
                None => {
                    let mut b = s.board().to_vec();
                    b[at as usize] = Some(piece);
                    copy = b;
                    &copy[..]
                }
            };
            let royals = self.royal_cells(s, player);
            return Ok(royals.iter().any(|&r| {
                (0..s.players).any(|q| {
                    q != player
                        && s.eliminated & (1 << q) == 0
                        && attacked_masked(&self.moves, s, board, stops(masks), r, q)
                })
            }));
        }
        let mut t = s.clone();
        t.place(piece, at);
        Ok(self.try_royal_attacked(&t, player)? || self.royals_face(&t, player))
    }

    /// Whether a royal piece of `player` could be captured by another player
    /// (not eliminated) moving now: "check". For display (a `+` in
    /// notation): a failing `rules.attacked` or `rules.frozen` reads as no.
    pub fn royal_attacked(&self, s: &GameState, player: PlayerId) -> bool {
        self.try_royal_attacked(s, player).unwrap_or(false)
    }

    /// [`Engine::royal_attacked`], or the error of the hook that failed.
    pub fn try_royal_attacked(&self, s: &GameState, player: PlayerId) -> Result<bool, ActionError> {
        if !self.has_royal {
            return Ok(false);
        }
        for (cell, slot) in s.board().iter().enumerate() {
            let Some(id) = *slot else { continue };
            let piece = &s.pieces[id as usize];
            if piece.owner != player || !self.variant.kinds[piece.kind as usize].royal {
                continue;
            }
            if self.variant.blast.is_some() && !self.rules.has(RuleHook::Attacked) {
                if self.blast_threatened(s, s.board(), cell as Cell, player) {
                    return Ok(true);
                }
                continue;
            }
            for q in 0..s.players {
                if q != player
                    && s.eliminated & (1 << q) == 0
                    && self.attacked(s, cell as Cell, q)?
                {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// Whether player `by`, moving now, could capture the piece on `cell`:
    /// `rules.attacked` when the variant defines it, else any declared move
    /// of an unfrozen piece of `by` that ends on `cell`.
    /// Fails when that hook (or `rules.frozen`) does.
    pub fn attacked(&self, s: &GameState, cell: Cell, by: PlayerId) -> Result<bool, ActionError> {
        if self.rules.has(RuleHook::Attacked) {
            return self
                .rules
                .attacked(s, &self.variant, cell, by)
                .map_err(ActionError::Script);
        }
        let frozen = self.frozen_cells(s, by)?;
        Ok(attacked_except(
            &self.moves,
            s,
            s.board(),
            cell,
            by,
            &frozen,
        ))
    }
}

/// The cells that stop movement, from a board's occupied cells and those
/// whose terrain blocks.
#[inline]
fn stops(masks: Option<(CellMask, CellMask)>) -> Option<CellMask> {
    masks.map(|(occupied, walls)| occupied | walls)
}

/// The occupied cells of `s`'s board and those whose terrain blocks
/// movement, as masks (a board of at most 64 cells).
fn board_masks(e: &Engine, s: &GameState) -> (CellMask, CellMask) {
    (s.occupied(), blocked_cells(s, e.variant.board.blocking))
}
