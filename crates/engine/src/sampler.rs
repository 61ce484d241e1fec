//! A uniformly random legal move without listing the moves, for random
//! playouts in variants whose moves are declared, or added by the script's
//! `extra_moves`, and limited only by the back-and-forth ban and royal
//! safety (no script lists or filters moves, nothing is frozen, no turning
//! paths: [`Engine::samples_moves`]).
//!
//! Each piece gets as many "slots" as its kind could ever have moves from
//! its cell ([`MoveTables::span`](crate::tables::MoveTables::span): each
//! direction's reach cut at the board's edge), and slot `i` is its `i`-th
//! move if it has that many. The sampler keeps each player's pieces in
//! groups by the largest span of their kind (over all cells); a draw picks
//! one of the player's pieces and one of its group's slots (pieces times
//! the group's width) uniformly, and throws the draw away and draws again
//! if the slot is beyond the piece's span on its cell or names no legal
//! move. Every legal move owns exactly one slot, so every legal move is
//! equally likely, as with a pick from the full list (rejection sampling).
//! Keeping the groups from ply to ply costs a swap in a list per changed
//! cell. After [`TRIES`] throws in a row the sampler lists the moves
//! instead, so a position with few moves among many slots, or none at
//! all, costs one listing.

use rand::Rng;

use crate::base::cell_set::maybe_occupied;
use crate::base::geometry::Cell;
use crate::base::state::{GameState, KindId, PlayerId};
use crate::guard::Guard;
use crate::lang::PlaceDraw;
use crate::movegen::piece_targets;
use crate::slide_masks::{blocked_cells, nth_cell, stops_and_enemies};
use crate::{Action, ActionError, Engine};

const NOBODY: u8 = u8::MAX;

/// `v` as `n` copies of `x`, in the memory it already holds.
fn refill<T: Copy>(v: &mut Vec<T>, n: usize, x: T) {
    v.clear();
    v.resize(n, x);
}

/// `lists` as `n` empty lists, keeping the memory of those it had.
fn empty_lists<T>(lists: &mut Vec<Vec<T>>, n: usize) {
    lists.truncate(n);
    lists.iter_mut().for_each(Vec::clear);
    lists.resize_with(n, Vec::new);
}
/// The group of a kind that has no slots anywhere.
const NONE: u8 = u8::MAX;

/// Draws thrown away before the sampler lists the moves instead.
pub const TRIES: u32 = 48;

/// Each player's pieces, grouped by the largest span of their kind, kept up
/// to date with [`Sampler::sync`]. A sampler follows one state through its
/// plies (the state's change log says what changed since the last sync);
/// use a new one for another state.
#[derive(Clone, Debug, Default)]
pub struct Sampler {
    ready: bool,
    /// Per cell: the owner of its piece (`NOBODY` if empty), the piece's
    /// kind, and the cell's place in its group's list.
    owner: Vec<u8>,
    kind: Vec<KindId>,
    at: Vec<u16>,
    /// Per kind: its group (`NONE` if it has no slots).
    group_of: Vec<u8>,
    /// Per group: the slots each of its pieces is drawn with (the largest
    /// span of its kinds).
    width: Vec<u32>,
    /// Per player and group: the cells of the player's pieces in it.
    cells: Vec<Vec<u16>>,
    /// Per player: slots drawn from (pieces times their group's width).
    total: Vec<u32>,
    /// Per kind: whether it is royal (empty when none is); per player: the
    /// cells of their royal pieces (for the check test).
    royal: Vec<bool>,
    royals: Vec<Vec<Cell>>,
    buf: Vec<Cell>,
    list: Vec<Action>,
    /// The kinds the player to move could drop, each with a piece in hand.
    drops: Vec<(KindId, crate::base::state::PieceId)>,
    /// The check test's buffers, kept from draw to draw.
    guard: Guard,
    /// The error of a query hook that failed during the last draw.
    error: Option<ActionError>,
    /// The buffers of a variant whose moves are placements.
    places: PlaceDraw,
    /// The cells among the first 128 whose terrain blocks movement, found
    /// when the groups are built (a change of terrain rebuilds them).
    blocked: u128,
}

impl Sampler {
    pub fn new() -> Sampler {
        Sampler::default()
    }

    /// The error of the query hook that failed during the last
    /// [`Sampler::sample`] (which then drew nothing), if any.
    pub fn take_error(&mut self) -> Option<ActionError> {
        self.error.take()
    }

    /// Brings the groups up to date with `s`, from the cells its change
    /// log lists (which it empties).
    pub fn sync(&mut self, e: &Engine, s: &mut GameState) {
        let touched = s.take_touched();
        match touched.filter(|_| self.ready && self.total.len() == s.players as usize) {
            Some((cells, n)) => {
                for &c in &cells[..n] {
                    self.set(s, c as usize);
                }
            }
            None => self.rebuild(e, s),
        }
    }

    /// Forgets the state followed so far: the next [`Sampler::sync`]
    /// builds the groups anew (into the buffers already held), for a
    /// sampler reused on another state.
    pub fn restart(&mut self) {
        self.ready = false;
    }

    fn rebuild(&mut self, e: &Engine, s: &GameState) {
        let n = s.board().len();
        let tables = &e.moves.steps;
        self.width.clear();
        self.group_of.clear();
        for k in 0..e.variant.kinds.len() {
            let g = match tables.max_span(k) as u32 {
                0 => NONE,
                w => match self.width.iter().position(|&x| x == w) {
                    Some(g) => g as u8,
                    None => {
                        self.width.push(w);
                        (self.width.len() - 1) as u8
                    }
                },
            };
            self.group_of.push(g);
        }
        refill(&mut self.owner, n, NOBODY);
        // Read only where `owner` names someone, so left as they were.
        self.kind.resize(n, 0);
        self.at.resize(n, 0);
        refill(&mut self.total, s.players as usize, 0);
        empty_lists(&mut self.cells, s.players as usize * self.width.len());
        self.royal.clear();
        if e.has_royal() {
            self.royal.extend(e.variant.kinds.iter().map(|k| k.royal));
        }
        empty_lists(&mut self.royals, s.players as usize);
        self.blocked = blocked_cells(s, e.variant.board.blocking);
        // Every cell starts empty, so each piece only arrives.
        for c in maybe_occupied(s.occupied_wide(), n) {
            if let Some(id) = s.board()[c] {
                let p = &s.pieces[id as usize];
                self.arrive(p.owner, p.kind, c);
            }
        }
        self.ready = true;
    }

    /// Files the piece on cell `i` (if any) in its group, after taking
    /// out what stood there before.
    fn set(&mut self, s: &GameState, i: usize) {
        let piece = s.board()[i].map(|id| {
            let p = &s.pieces[id as usize];
            (p.owner, p.kind)
        });
        let was = (self.owner[i] != NOBODY).then(|| (self.owner[i], self.kind[i]));
        if piece == was {
            return;
        }
        if let Some((o, k)) = was {
            let g = self.group_of[k as usize];
            if g != NONE {
                let list = &mut self.cells[o as usize * self.width.len() + g as usize];
                let at = self.at[i] as usize;
                list.swap_remove(at);
                if let Some(&moved) = list.get(at) {
                    self.at[moved as usize] = at as u16;
                }
                self.total[o as usize] -= self.width[g as usize];
            }
            if !self.royal.is_empty() && self.royal[k as usize] {
                self.set_royal(o, i, false);
            }
            self.owner[i] = NOBODY;
        }
        if let Some((o, k)) = piece {
            self.arrive(o, k, i);
        }
    }

    /// Files a piece of `o` and `kind` arriving on the empty cell `i`.
    #[inline(always)]
    fn arrive(&mut self, o: PlayerId, k: KindId, i: usize) {
        self.owner[i] = o;
        self.kind[i] = k;
        let g = self.group_of[k as usize];
        if g != NONE {
            let list = &mut self.cells[o as usize * self.width.len() + g as usize];
            self.at[i] = list.len() as u16;
            list.push(i as u16);
            self.total[o as usize] += self.width[g as usize];
        }
        if !self.royal.is_empty() && self.royal[k as usize] {
            self.set_royal(o, i, true);
        }
    }

    /// Notes that a royal piece of `owner` arrived on cell `i` or left it.
    #[inline(never)]
    fn set_royal(&mut self, owner: PlayerId, i: usize, arrived: bool) {
        let royals = &mut self.royals[owner as usize];
        if arrived {
            royals.push(i as Cell);
        } else {
            royals.retain(|&c| c as usize != i);
        }
    }

    /// The cell of the piece player `p`'s slot number `r` falls on, and the
    /// slot's number among that piece's: each piece of a group has the
    /// group's width of slots, of which those beyond its span name no move.
    #[inline(always)]
    fn find(&self, p: usize, mut r: u32) -> Option<(usize, u32)> {
        let groups = self.width.len();
        let lists = &self.cells[p * groups..][..groups];
        for (list, &w) in lists.iter().zip(&self.width) {
            let size = list.len() as u32 * w;
            if r < size {
                return list.get((r / w) as usize).map(|&c| (c as usize, r % w));
            }
            r -= size;
        }
        None
    }

    /// The move player `p`'s slot number `r` names, if its piece has it
    /// (not yet checked against the back-and-forth ban or royal safety).
    #[inline(always)]
    fn piece_move(
        &mut self,
        e: &Engine,
        s: &GameState,
        p: PlayerId,
        r: u32,
    ) -> Option<(Cell, Cell)> {
        let (c, r) = self.find(p as usize, r)?;
        let from = c as Cell;
        let kind = self.kind[c] as usize;
        let to = if e.moves.steps.direct(kind).is_some() {
            direct_move(e, s, kind, p, from, r)
        } else {
            self.other_move(e, s, kind as KindId, p, c, r)
        };
        to.map(|to| (from, to))
    }

    /// The `r`-th cell (lowest first) the piece of `kind` on `c` may move
    /// to, when its kind is not drawn directly: from the masks of its plain
    /// steps, slides and paths when they cover it (and the shortcuts are
    /// on), else from the cells [`piece_targets`] lists, in the same order.
    /// Kept out of line: most draws take the direct path.
    #[inline(never)]
    fn other_move(
        &mut self,
        e: &Engine,
        s: &GameState,
        kind: KindId,
        p: PlayerId,
        c: usize,
        r: u32,
    ) -> Option<Cell> {
        let masked = if !e.shortcuts {
            None
        } else if let Some(m) = &e.moves.slides {
            let (stops, enemy) =
                stops_and_enemies(s.occupied(), s.owned_by(p), self.blocked as u64);
            m.targets(kind, p, c, stops, enemy).map(|t| nth_cell(t, r))
        } else if let Some(m) = &e.moves.wide {
            let (stops, enemy) =
                stops_and_enemies(s.occupied_wide(), s.owned_by_wide(p), self.blocked);
            m.targets(kind, p, c, stops, enemy).map(|t| nth_cell(t, r))
        } else {
            None
        };
        if let Some(to) = masked {
            return to.map(|c| c as Cell);
        }
        let id = s.board().get(c).copied().flatten()?;
        piece_targets(&e.moves, s, id, c as Cell, &mut self.buf);
        self.buf.get(r as usize).copied()
    }

    /// A uniformly random legal move of the player to move (after a sync),
    /// or `None` if that player has none, or a query hook failed
    /// ([`Sampler::take_error`] says so).
    pub fn sample(&mut self, e: &Engine, s: &GameState, rng: &mut impl Rng) -> Option<Action> {
        if s.outcome.is_some() {
            return None;
        }
        if e.draws_placements() {
            return e.draw_placement(s, rng, &mut self.places);
        }
        if e.has_royal() || e.has_extra_moves() || e.lang.drops_only {
            return self.sample_checked(e, s, rng);
        }
        let p = s.to_move;
        let total = self.total.get(p as usize).copied().unwrap_or(0);
        if total > 0 {
            let banned = match e.banned_by_repetition(s) {
                Some(Action::Move { from, to }) => Some((from, to)),
                _ => None,
            };
            for _ in 0..TRIES {
                let r = rng.random_range(0..total);
                match self.piece_move(e, s, p, r) {
                    Some(m) if banned != Some(m) => {
                        return Some(Action::Move { from: m.0, to: m.1 })
                    }
                    _ => {}
                }
            }
        }
        self.listed(e, s, rng)
    }

    /// [`Sampler::sample`] where the script adds moves or a royal piece
    /// must not be left capturable.
    #[inline(never)]
    fn sample_checked(&mut self, e: &Engine, s: &GameState, rng: &mut impl Rng) -> Option<Action> {
        let p = s.to_move;
        let total = self.total.get(p as usize).copied().unwrap_or(0);
        // The extra moves (joint moves, passing captures) own one slot
        // each, before the pieces' slots.
        let extras = match e.extra_moves(s, p) {
            Ok(x) => x,
            Err(err) => {
                self.error = Some(err);
                return None;
            }
        };
        let extra = extras.len() as u32;
        // Drops own a slot per kind in hand and cell, after the pieces'.
        let cells = s.board().len() as u32;
        if e.lang.drops_only {
            e.drop_kinds(s, p, &mut self.drops);
        }
        let drops = self.drops.len() as u32 * cells;
        let mut in_check = None;
        if total + extra + drops > 0 {
            let banned = match e.banned_by_repetition(s) {
                Some(Action::Move { from, to }) => Some((from, to)),
                _ => None,
            };
            let royal = e.has_royal();
            // The check test's guard, made for the first draw it tests.
            let mut guarded = false;
            for _ in 0..TRIES {
                let r = rng.random_range(0..total + extra + drops);
                if r >= total + extra {
                    match self.drop_slot(e, s, r - total - extra, &mut in_check) {
                        Ok(Some(a)) => return Some(a),
                        Ok(None) => continue,
                        Err(err) => {
                            self.error = Some(err);
                            return None;
                        }
                    }
                }
                let (from, to, side) = if r < extra {
                    let (from, to, side) = &extras[r as usize];
                    // A move listed twice, or also declared, is one move:
                    // its first slot stands for it.
                    if extras[..r as usize]
                        .iter()
                        .any(|x| x.0 == *from && x.1 == *to)
                    {
                        continue;
                    }
                    if let Some(id) = s.piece_at(*from) {
                        piece_targets(&e.moves, s, id, *from, &mut self.buf);
                        if self.buf.contains(to) {
                            continue;
                        }
                    }
                    (*from, *to, &side[..])
                } else {
                    let Some((from, to)) = self.piece_move(e, s, p, r - extra) else {
                        continue;
                    };
                    // As listed: a declared move also listed as extra is
                    // tested with what the extra captures besides.
                    let side = match extras.iter().find(|x| x.0 == from && x.1 == to) {
                        Some(x) => &x.2[..],
                        None => &[][..],
                    };
                    (from, to, side)
                };
                if banned == Some((from, to)) {
                    continue;
                }
                if royal {
                    if !guarded {
                        let royals = &self.royals[p as usize][..];
                        if let Err(err) = e.prepare_draws(&mut self.guard, s, p, royals) {
                            self.error = Some(err);
                            return None;
                        }
                        guarded = true;
                    }
                    let allowed = e.guard_allows(&mut self.guard, s, p, from, to, side);
                    if let Err(err) = self.guard.result() {
                        self.error = Some(err);
                        return None;
                    }
                    if !allowed {
                        continue;
                    }
                }
                return Some(Action::Move { from, to });
            }
        }
        self.listed(e, s, rng)
    }

    /// The drop slot `d` names (a kind in hand, then a cell), if it is
    /// legal; `in_check` caches whether the player to move is in check.
    fn drop_slot(
        &self,
        e: &Engine,
        s: &GameState,
        d: u32,
        in_check: &mut Option<bool>,
    ) -> Result<Option<Action>, ActionError> {
        let cells = s.board().len() as u32;
        let (held, at) = (self.drops[(d / cells) as usize], (d % cells) as Cell);
        let checked = match *in_check {
            Some(c) => c,
            None => e.try_royal_attacked(s, s.to_move)?,
        };
        *in_check = Some(checked);
        Ok(e.drop_legal(s, s.to_move, held, at, checked)?
            .then_some(Action::Place { kind: held.0, at }))
    }

    /// Too many misses (or no slots): a pick from the full list, which is
    /// as uniform (the misses say nothing about which move is next).
    #[inline(never)]
    fn listed(&mut self, e: &Engine, s: &GameState, rng: &mut impl Rng) -> Option<Action> {
        if let Err(err) = e.try_legal_actions_into(s, &mut self.list) {
            self.error = Some(err);
            return None;
        }
        self.list.retain(|a| !a.is_social());
        if self.list.is_empty() {
            return None;
        }
        Some(self.list[rng.random_range(0..self.list.len())])
    }
}

/// The move slot `r` of a piece of a direct kind names
/// ([`MoveTables::slot`](crate::tables::MoveTables::slot)), if legal: the
/// cells before its target are passable and empty and the target is
/// passable and open to the kind's one pattern (empty, or an enemy it may
/// strike from there), as [`piece_moves_on`](crate::movegen::piece_moves_on)
/// generates moves.
#[inline(always)]
pub(crate) fn direct_move(
    e: &Engine,
    s: &GameState,
    kind: usize,
    owner: PlayerId,
    from: Cell,
    r: u32,
) -> Option<Cell> {
    let tables = &e.moves.steps;
    let rule = tables.direct(kind)?;
    if rule
        .target
        .when
        .as_ref()
        .is_some_and(|w| !w.holds(s, owner))
    {
        return None;
    }
    let blocking = e.variant.board.blocking | e.variant.kinds[kind].barred;
    let slot = tables.slot(kind, owner, from, r)?;
    if slot.dist > 1 {
        let line = tables.line(slot.dir as u16);
        let mut at = from as usize;
        for _ in 1..slot.dist {
            at = line[at] as usize;
            if s.terrain()[at] & blocking != 0 || s.board()[at].is_some() {
                return None;
            }
        }
    }
    let to = slot.to;
    if s.terrain()[to as usize] & (blocking | e.variant.kinds[kind].no_stop) != 0 {
        return None;
    }
    match s.board()[to as usize] {
        None => rule.target.empty.then_some(to),
        Some(o) => {
            let o = &s.pieces[o as usize];
            (o.owner != owner
                && rule.target.strikes(o.kind as KindId)
                && (slot.dist == 1 || rule.strike_at_range))
                .then_some(to)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn engine(name: &str, options: &[(&str, &str)]) -> Engine {
        let o: Vec<(String, String)> = options
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        // Files are named from the workspace's root (unit tests run in
        // the crate's folder).
        let path = crate::base::bundled::root().join(name);
        let name = if name.contains('/') {
            path.to_str().unwrap()
        } else {
            name
        };
        Engine::load(name, &o).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Positions along random games (moves picked from the full list).
    fn positions(e: &Engine, games: u64, plies: u32) -> Vec<GameState> {
        let mut out = Vec::new();
        for seed in 0..games {
            let mut s = e.new_game(seed, &[]);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            for _ in 0..plies {
                let list: Vec<Action> = e
                    .legal_actions(&s)
                    .into_iter()
                    .filter(|a| !a.is_social())
                    .collect();
                if list.is_empty() || s.outcome.is_some() {
                    break;
                }
                out.push(s.clone());
                let a = list[rng.random_range(0..list.len())];
                e.apply(&mut s, &a).unwrap();
            }
        }
        out
    }

    /// Every piece has at most as many moves as slots, and the slots of a
    /// direct kind name exactly its moves, each once.
    fn slots_cover_moves(e: &Engine, states: &[GameState]) {
        let tables = &e.moves.steps;
        let mut direct_pieces = 0;
        let mut buf = Vec::new();
        for s in states {
            for (c, slot) in s.board().iter().enumerate() {
                let Some(id) = *slot else { continue };
                let p = &s.pieces[id as usize];
                let from = c as Cell;
                piece_targets(&e.moves, s, id, from, &mut buf);
                let span = tables.span(p.kind as usize, p.owner, from);
                assert!(buf.len() <= span as usize, "{buf:?} from {c}: span {span}");
                if tables.direct(p.kind as usize).is_none() {
                    continue;
                }
                direct_pieces += 1;
                let mut named: Vec<Cell> = (0..span as u32)
                    .filter_map(|r| direct_move(e, s, p.kind as usize, p.owner, from, r))
                    .collect();
                let n = named.len();
                named.sort_unstable();
                named.dedup();
                assert_eq!(named.len(), n, "a move named twice from {c}");
                assert_eq!(named, buf, "moves of the piece on {c}");
            }
        }
        assert!(direct_pieces > 1000, "only {direct_pieces} pieces tried");
    }

    #[test]
    fn slots_name_the_moves_of_every_declared_movement() {
        let e = engine("tests/variants/mixed.yaml", &[]);
        // Steps, striking and non-striking slides are direct; jumping
        // slides, overlapping patterns, zone moves and no moves are not.
        let listed: Vec<&str> = (0..e.variant.kinds.len())
            .filter(|&k| e.moves.steps.direct(k).is_none())
            .map(|k| e.variant.kinds[k].name.as_str())
            .collect();
        assert_eq!(listed, ["leaper", "hybrid", "pawn", "wall"]);
        slots_cover_moves(&e, &positions(&e, 12, 150));
    }

    /// The groups a sampler keeps ply by ply from the change log are the
    /// ones it would build afresh, and each cell knows its place.
    fn same_groups(kept: &Sampler, fresh: &Sampler) {
        assert_eq!(kept.total, fresh.total);
        assert_eq!(kept.width, fresh.width);
        for (a, b) in kept.cells.iter().zip(&fresh.cells) {
            let (mut a, mut b) = (a.clone(), b.clone());
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b);
        }
        for (i, list) in kept.cells.iter().enumerate() {
            for (at, &c) in list.iter().enumerate() {
                assert_eq!(kept.at[c as usize] as usize, at, "cell {c} in list {i}");
            }
        }
        assert_eq!(kept.owner, fresh.owner);
        for (a, b) in kept.royals.iter().zip(&fresh.royals) {
            let (mut a, mut b) = (a.clone(), b.clone());
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "royal cells");
        }
        assert_eq!(kept.royals.len(), fresh.royals.len());
    }

    #[test]
    fn groups_kept_from_the_change_log_match_a_rebuild() {
        // A bundled variant with royal pieces, captures, joint moves,
        // passing captures and promotion.
        for name in ["tests/variants/mixed.yaml", "chess"] {
            let e = engine(name, &[]);
            let mut checked = 0;
            for seed in 0..6 {
                let mut s = e.new_game(seed, &[]);
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let mut kept = Sampler::new();
                kept.sync(&e, &mut s);
                for _ in 0..200 {
                    let a = if s.pending.is_empty() {
                        match kept.sample(&e, &s, &mut rng) {
                            Some(a) => a,
                            None => break,
                        }
                    } else {
                        Action::Choose { index: 0 }
                    };
                    e.apply(&mut s, &a).unwrap();
                    kept.sync(&e, &mut s);
                    let mut fresh = Sampler::new();
                    fresh.rebuild(&e, &s);
                    same_groups(&kept, &fresh);
                    checked += 1;
                }
            }
            assert!(checked > 300, "{name}: only {checked} plies");
        }
    }

    #[test]
    fn no_move_is_found_where_there_is_none() {
        let e = engine("tests/variants/mixed.yaml", &[]);
        let mut s = e.new_game(3, &[]);
        // Only pieces that do not move left to the player to move.
        for (c, slot) in s.board().to_vec().iter().enumerate() {
            if let Some(id) = *slot {
                let p = &s.pieces[id as usize];
                if p.owner == s.to_move && e.variant.kinds[p.kind as usize].moves.is_empty() {
                    continue;
                }
                if p.owner == s.to_move {
                    s.capture(id);
                    assert!(s.board()[c].is_none());
                }
            }
        }
        let mut sampler = Sampler::new();
        sampler.sync(&e, &mut s);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        assert_eq!(sampler.sample(&e, &s, &mut rng), None);
    }
}
