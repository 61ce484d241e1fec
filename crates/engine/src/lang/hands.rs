//! Hands: pieces a player holds off the board, to drop (`place: hand`).
//! A capture sends the captured piece to its captor's hand, as its kind's
//! `demotes_to`, when the variant's `hands.captures` says so; a drop takes
//! one from the mover's hand onto an empty cell, and while the mover is in
//! check only a drop that blocks it is legal.

use crate::base::geometry::Cell;
use crate::base::state::{GameState, KindId, PieceId, PlayerId};
use crate::{Action, ActionError, Engine};

thread_local! {
    /// Set while a drop is tested for mate (`no_mate`): the answers'
    /// own drops are then not tested so in turn.
    static MATE_TEST: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}
use crate::rules::variant::forms::HAND;

impl Engine {
    /// Removes `victim` from the board, captured by `captor`: to the
    /// captor's hand (changing owner, demoted) when captures go to hands,
    /// else to its owner's pile of captured pieces.
    pub(crate) fn take(&self, s: &mut GameState, victim: PieceId, captor: PlayerId) {
        let to_hand = self.variant.hands.as_ref().is_some_and(|h| h.captures);
        if !to_hand || s.pieces[victim as usize].owner == captor {
            // One's own piece taken (a blast, a script) leaves play.
            s.capture(victim);
            return;
        }
        let hand = s.container_id(HAND, Some(captor));
        s.send_to(victim, hand);
        let all = s.all_players();
        let p = &mut s.pieces[victim as usize];
        if let Some(d) = self.variant.kinds[p.kind as usize].demotes_to {
            p.kind = d;
        }
        p.owner = captor;
        p.known_by |= 1 << captor;
        if !self.variant.hidden_identities {
            p.known_by = all;
        }
    }

    /// The first of `p`'s pieces of `kind` in hand, if any.
    pub(crate) fn in_hand(&self, s: &GameState, p: PlayerId, kind: KindId) -> Option<PieceId> {
        held(s, p).find(|&id| s.pieces[id as usize].kind == kind)
    }

    /// Keeps, of the drops of `piece` in `out[start..]`, those that leave
    /// `p`'s royal pieces safe (only a drop that blocks a check, while in
    /// check).
    pub(crate) fn keep_safe_drops(
        &self,
        s: &GameState,
        p: PlayerId,
        piece: PieceId,
        out: &mut Vec<Action>,
        start: usize,
    ) -> Result<(), ActionError> {
        if out.len() == start || !self.try_royal_attacked(s, p)? {
            return Ok(());
        }
        keep_placements(out, start, |at| Ok(!self.drop_exposes(s, p, piece, at)?))
    }

    /// Keeps, of the placements in `out[start..]`, those into a file that
    /// holds none of `p`'s pieces of `kinds`.
    pub(crate) fn keep_free_files(
        &self,
        s: &GameState,
        p: PlayerId,
        kinds: &[KindId],
        out: &mut Vec<Action>,
        start: usize,
    ) {
        if kinds.is_empty() {
            return;
        }
        let taken = self.files_taken(s, p, kinds);
        // The test never fails: there is no error to pass on.
        let _ = keep_placements(out, start, |at| Ok(!taken[self.file_of(at)]));
    }

    /// Per file: whether it holds one of `p`'s pieces of `kinds`.
    pub(crate) fn files_taken(&self, s: &GameState, p: PlayerId, kinds: &[KindId]) -> [bool; 26] {
        let mut taken = [false; 26];
        for (c, slot) in s.board().iter().enumerate() {
            let Some(id) = *slot else { continue };
            let piece = &s.pieces[id as usize];
            if piece.owner == p && kinds.contains(&piece.kind) {
                taken[self.file_of(c as Cell)] = true;
            }
        }
        taken
    }

    /// A cell's file, as an index of [`Engine::files_taken`].
    pub(crate) fn file_of(&self, c: Cell) -> usize {
        self.variant.board.coords(c).0 as usize % 26
    }

    /// Keeps, of the drops of `piece` in `out[start..]`, those that do not
    /// checkmate at once. Inside that test the opponent's own drops are
    /// not tested so again (a drop that answers a check by mating back is
    /// counted as an answer).
    pub(crate) fn keep_non_mating_drops(
        &self,
        s: &GameState,
        p: PlayerId,
        piece: PieceId,
        out: &mut Vec<Action>,
        start: usize,
    ) -> Result<(), ActionError> {
        if MATE_TEST.with(|m| m.get()) {
            return Ok(());
        }
        keep_placements(out, start, |at| Ok(!self.drop_mates(s, p, piece, at)?))
    }

    /// Whether dropping `piece` on `at` checkmates `p`'s opponent.
    fn drop_mates(
        &self,
        s: &GameState,
        p: PlayerId,
        piece: PieceId,
        at: Cell,
    ) -> Result<bool, ActionError> {
        let mut t = s.clone();
        t.place(piece, at);
        let q = t.next_player(p);
        if !self.try_royal_attacked(&t, q)? {
            return Ok(false);
        }
        t.to_move = q;
        MATE_TEST.with(|m| m.set(true));
        let answer = self.has_legal_action(&t);
        MATE_TEST.with(|m| m.set(false));
        Ok(!answer?)
    }

    /// The kinds `p` could drop now, each with one of its pieces in hand,
    /// in kind order (a random draw's slots for drops).
    pub(crate) fn drop_kinds(&self, s: &GameState, p: PlayerId, out: &mut Vec<(KindId, PieceId)>) {
        out.clear();
        for &(kind, _) in &self.lang.placers {
            if let Some(id) = self.in_hand(s, p, kind) {
                out.push((kind, id));
            }
        }
    }

    /// Whether `p` may drop `piece` (of `kind`, in hand) on `at`, as the
    /// listing would list it: `in_check` says whether `p` is in check.
    pub(crate) fn drop_legal(
        &self,
        s: &GameState,
        p: PlayerId,
        (kind, piece): (KindId, PieceId),
        at: Cell,
        in_check: bool,
    ) -> Result<bool, ActionError> {
        let Some(f) = self.place_form(kind).filter(|f| f.from_hand) else {
            return Ok(false);
        };
        if !self.admits_cell(s, p, f, at) {
            return Ok(false);
        }
        if !f.not_in_file_with.is_empty()
            && self.files_taken(s, p, &f.not_in_file_with)[self.file_of(at)]
        {
            return Ok(false);
        }
        if in_check && self.drop_exposes(s, p, piece, at)? {
            return Ok(false);
        }
        if f.no_mate && self.has_royal() && !MATE_TEST.with(|m| m.get()) {
            return Ok(!self.drop_mates(s, p, piece, at)?);
        }
        Ok(true)
    }

    /// A hash of what every player holds in hand (kinds and owners, in no
    /// order), for repetition: 0 without hands.
    pub(crate) fn hands_key(&self, s: &GameState) -> u64 {
        if self.variant.hands.is_none() {
            return 0;
        }
        let mut key = 0u64;
        for c in s.containers.iter().filter(|c| c.name == HAND) {
            for &id in &c.pieces {
                let p = &s.pieces[id as usize];
                let v = 0x68a4_d000_0000_0000 | (p.kind as u64) << 8 | p.owner as u64;
                key = key.wrapping_add(crate::base::state::mix64(v));
            }
        }
        key
    }

    /// How many pieces of `kind` player `p` holds in hand.
    pub fn hand_count(&self, s: &GameState, p: PlayerId, kind: KindId) -> usize {
        held(s, p)
            .filter(|&id| s.pieces[id as usize].kind == kind)
            .count()
    }

    /// Puts a new piece of `kind` in `p`'s hand (a position read from text).
    pub(crate) fn add_to_hand(
        &self,
        s: &mut GameState,
        p: PlayerId,
        kind: KindId,
    ) -> Result<PieceId, String> {
        let hand = s.container_id(HAND, Some(p));
        let known = if self.variant.hidden_identities {
            1 << p
        } else {
            s.all_players()
        };
        s.add_piece_to(kind, p, hand, known)
    }

    /// Drops `p`'s piece of `kind` from hand on `at`.
    pub(crate) fn drop_from_hand(
        &self,
        s: &mut GameState,
        p: PlayerId,
        kind: KindId,
        at: Cell,
    ) -> Result<PieceId, ActionError> {
        let id = self.in_hand(s, p, kind).ok_or_else(|| {
            ActionError::Illegal(format!(
                "{} holds no {} in hand",
                self.player_name(p),
                self.variant.kinds[kind as usize].display
            ))
        })?;
        s.place(id, at);
        Ok(id)
    }
}

/// Keeps, of the actions in `out[start..]`, the placements whose cell
/// passes `test` (and every other action); the first error stops.
fn keep_placements(
    out: &mut Vec<Action>,
    start: usize,
    mut test: impl FnMut(Cell) -> Result<bool, ActionError>,
) -> Result<(), ActionError> {
    let mut kept = start;
    for i in start..out.len() {
        let keep = match out[i] {
            Action::Place { at, .. } => test(at)?,
            _ => true,
        };
        if keep {
            out[kept] = out[i];
            kept += 1;
        }
    }
    out.truncate(kept);
    Ok(())
}

/// `p`'s pieces in hand, in the order they came.
fn held(s: &GameState, p: PlayerId) -> impl Iterator<Item = PieceId> + '_ {
    (s.containers.iter())
        .filter(move |c| c.owner == Some(p) && c.name == HAND)
        .flat_map(|c| c.pieces.iter().copied())
}
