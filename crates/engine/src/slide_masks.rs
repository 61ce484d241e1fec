//! Steps, slides and paths as masks: for a kind whose every declared move
//! is a plain step, slide or path (no lame leap, leap over pieces, screens, landing
//! zone, `when`, cell condition, kind filter or terrain rule of its own),
//! a piece's targets are found with a few operations on 64-bit masks per
//! direction instead of a walk cell by cell: a slide's cells up to its
//! first blocker are the ray's cells on the near side of it, and the
//! blocker is one bit scan away; a path's cells grow step by step as the
//! union of one step's cells from those reached. The targets come out as one mask, so in
//! cell order and without repeats, as the general scan lists them after
//! sorting. On boards of at most 64 cells in 64-bit masks, up to 128 in
//! 128-bit ones (9×9 and 10×10 boards), where every line's cell numbers
//! run one way; blocking terrain (which may change during a game) is
//! given with the occupied cells at each listing. Held equal to the
//! general scan by the perft counts and by `tests/listing.rs` (through
//! [`crate::Exhaustive`], which turns it off).
//!
//! Changes when what counts as a plain step, slide or path changes.

use std::ops::{BitAnd, BitOr, BitOrAssign, Not};

use crate::base::cell_set::maybe_occupied;
use crate::base::state::{GameState, KindId, PlayerId};
use crate::quiet::QuietSteps;
use crate::rules::variant::{MovePattern, Variant};
use crate::tables::MoveTables;

/// A set of cells as the bits of an unsigned integer.
pub trait Mask:
    Copy
    + Eq
    + std::fmt::Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitOrAssign
    + Not<Output = Self>
{
    const ZERO: Self;
    /// How many cells it holds.
    const CELLS: usize;
    /// Cell `c`'s bit.
    fn bit(c: usize) -> Self;
    /// The lowest cell.
    fn lowest(self) -> usize;
    /// The highest cell.
    fn highest(self) -> usize;
    /// Every cell below `c`.
    fn below(c: usize) -> Self;
    /// Every cell above `c`.
    fn above(c: usize) -> Self;
}

macro_rules! mask {
    ($t:ty) => {
        impl Mask for $t {
            const ZERO: $t = 0;
            const CELLS: usize = <$t>::BITS as usize;
            #[inline]
            fn bit(c: usize) -> $t {
                1 << c
            }
            #[inline]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline]
            fn highest(self) -> usize {
                (<$t>::BITS - 1 - self.leading_zeros()) as usize
            }
            #[inline]
            fn below(c: usize) -> $t {
                (1 as $t).wrapping_shl(c as u32).wrapping_sub(1)
            }
            #[inline]
            fn above(c: usize) -> $t {
                !(2 as $t).wrapping_shl(c as u32).wrapping_sub(1)
            }
        }
    };
}
mask!(u64);
mask!(u128);

/// One pattern of a kind, as masks.
#[derive(Clone, Debug)]
struct Pattern<M> {
    /// It may end on an empty cell, on an enemy.
    empty: bool,
    enemy: bool,
    /// A slide may strike an enemy beyond empty cells (else only next to
    /// it).
    strike_at_range: bool,
    /// A path's most steps (turning freely through empty cells; `steps`
    /// holds one step's cells), 0 for a step or slide.
    path: u8,
    /// Per player: the cells it may start from (`from_zone`), else every cell.
    from: Vec<M>,
    /// Per owner parity and cell: a step's cells.
    steps: Vec<M>,
    /// Per owner parity and cell: a slide's rays (the cells it could
    /// cross on an empty board, up to its `max`) with their line.
    rays: Vec<Vec<(M, u16)>>,
}

/// One kind's plain moves from one cell for one player, folded together
/// at load: its steps by what they may land on, and its rays (a slice of
/// [`Masks::rays`]), so that a piece's targets take no walk over its
/// patterns, their zones or their directions.
#[derive(Clone, Copy, Debug)]
struct Entry<M> {
    /// Steps' cells that must be empty, hold an enemy, or may be either.
    onto_empty: M,
    onto_enemy: M,
    onto_either: M,
    /// The entry's rays: `rays[first..first + count]`.
    first: u32,
    count: u32,
}

/// A slide's cells from one cell on an empty board (up to its `max`),
/// with what it may end on.
#[derive(Clone, Copy, Debug)]
struct Ray<M> {
    cells: M,
    /// Its cell numbers grow away from the start.
    up: bool,
    empty: bool,
    enemy: bool,
    /// It may strike an enemy beyond empty cells (else only next to it).
    strike_at_range: bool,
}

/// A kind's moves as masks: the folded steps and slides by
/// `player * cells + cell`, and its paths, pattern by pattern.
#[derive(Clone, Debug)]
struct KindMasks<M> {
    entries: Vec<Entry<M>>,
    paths: Vec<Pattern<M>>,
}

/// Per kind (when its moves are all plain steps, slides and paths), its
/// moves as masks.
#[derive(Clone, Debug)]
pub struct Masks<M> {
    cells: usize,
    kinds: Vec<Option<KindMasks<M>>>,
    rays: Vec<Ray<M>>,
}

/// Boards of at most 64 cells.
pub type SlideMasks = Masks<u64>;
/// Boards of 65 to 128 cells.
pub type WideSlideMasks = Masks<u128>;

/// Whether every move of the kind is a plain step, slide or path.
fn plain(kind: &crate::rules::variant::Kind) -> bool {
    !kind.moves.is_empty()
        && kind.barred == 0
        && kind.no_stop == 0
        && !kind.conditioned
        && kind.moves.iter().all(|m| {
            let t = m.target();
            let form = match m {
                MovePattern::Step { lame, .. } => !lame,
                MovePattern::Slide {
                    jump: None,
                    screens: 0,
                    ..
                } => true,
                MovePattern::Path { .. } => true,
                _ => false,
            };
            form && t.enemy_kinds.is_none() && t.to_zone.is_none() && t.when.is_none()
        })
}

impl<M: Mask> Masks<M> {
    /// The masks of the variant's kinds whose moves are all plain steps and
    /// slides, but not only quiet steps (`quiet` has those); `None` when no
    /// kind's are, or the board is too large for `M` (or small enough for
    /// a narrower one: `wide`), or has a line whose cell numbers turn back.
    pub fn new(
        v: &Variant,
        tables: &MoveTables,
        quiet: Option<&QuietSteps>,
        wide: bool,
    ) -> Option<Masks<M>> {
        let b = &v.board;
        let cells = b.cell_count();
        if cells > M::CELLS || (wide && cells <= 64) || b.graph.is_some() {
            return None;
        }
        let lines = tables.lines();
        let mut up = vec![true; lines];
        for (d, up) in up.iter_mut().enumerate() {
            let line = tables.line(d as u16);
            let mut way = None;
            for c in 0..cells {
                let mut at = c;
                while let Some(&n) = line.get(at).filter(|&&n| (n as usize) < cells) {
                    if *way.get_or_insert(n as usize > at) != (n as usize > at) {
                        return None;
                    }
                    at = n as usize;
                }
            }
            *up = way.unwrap_or(true);
        }
        let players = v.players.len().max(1);
        let mut rays = Vec::new();
        let kinds: Vec<Option<KindMasks<M>>> = (v.kinds.iter().enumerate())
            .map(|(k, kind)| {
                let quiet = quiet.is_some_and(|q| q.covers(k));
                (plain(kind) && !quiet).then(|| {
                    let patterns = (kind.moves.iter().enumerate())
                        .map(|(pi, m)| pattern(tables, k, pi, m, cells, players))
                        .collect();
                    fold(patterns, cells, players, &up, &mut rays)
                })
            })
            .collect();
        if kinds.iter().all(Option::is_none) {
            return None;
        }
        Some(Masks { cells, kinds, rays })
    }

    /// The cells a piece of `kind` of player `p` on `from` may move to, as
    /// a mask, given the cells that stop movement (pieces and blocking
    /// terrain) and the enemies' among them; `None` when the kind has
    /// other moves.
    #[inline(always)]
    pub fn targets(&self, kind: KindId, p: PlayerId, from: usize, stops: M, enemy: M) -> Option<M> {
        let km = self.kinds.get(kind as usize)?.as_ref()?;
        let e = km.entries.get(p as usize * self.cells + from)?;
        let empty = !stops;
        let mut out =
            (e.onto_empty & empty) | (e.onto_enemy & enemy) | (e.onto_either & (empty | enemy));
        for r in &self.rays[e.first as usize..][..e.count as usize] {
            let blockers = r.cells & stops;
            if blockers == M::ZERO {
                if r.empty {
                    out |= r.cells;
                }
                continue;
            }
            // The ray's cell numbers run one way: the cells before the
            // first blocker are those on the near side of it.
            let (b, before) = match r.up {
                true => (blockers.lowest(), r.cells & M::below(blockers.lowest())),
                false => (blockers.highest(), r.cells & M::above(blockers.highest())),
            };
            if r.empty {
                out |= before;
            }
            if r.enemy && enemy & M::bit(b) != M::ZERO && (before == M::ZERO || r.strike_at_range) {
                out |= M::bit(b);
            }
        }
        for pat in &km.paths {
            if pat.from[p as usize] & M::bit(from) != M::ZERO {
                let base = (p % 2) as usize * self.cells;
                out |= path_targets(pat, base, from, stops, enemy);
            }
        }
        Some(out)
    }
}

/// Folds a kind's patterns into one [`Entry`] per player and cell (its
/// paths kept apart), pushing their rays on `rays`.
fn fold<M: Mask>(
    patterns: Vec<Pattern<M>>,
    cells: usize,
    players: usize,
    up: &[bool],
    rays: &mut Vec<Ray<M>>,
) -> KindMasks<M> {
    let (paths, plain): (Vec<_>, Vec<_>) = patterns.into_iter().partition(|p| p.path > 0);
    let mut entries = Vec::with_capacity(players * cells);
    for p in 0..players {
        for c in 0..cells {
            let at = (p % 2) * cells + c;
            let first = rays.len() as u32;
            let mut e = Entry {
                onto_empty: M::ZERO,
                onto_enemy: M::ZERO,
                onto_either: M::ZERO,
                first,
                count: 0,
            };
            for pat in plain
                .iter()
                .filter(|pat| pat.from[p] & M::bit(c) != M::ZERO)
            {
                match (pat.empty, pat.enemy) {
                    (true, true) => e.onto_either |= pat.steps[at],
                    (true, false) => e.onto_empty |= pat.steps[at],
                    (false, true) => e.onto_enemy |= pat.steps[at],
                    (false, false) => {}
                }
                for &(cells, d) in &pat.rays[at] {
                    rays.push(Ray {
                        cells,
                        up: up[d as usize],
                        empty: pat.empty,
                        enemy: pat.enemy,
                        strike_at_range: pat.strike_at_range,
                    });
                }
            }
            e.count = rays.len() as u32 - first;
            entries.push(e);
        }
    }
    KindMasks { entries, paths }
}

/// The cells of `s` whose terrain has a bit of `blocking` (no move enters
/// them), among the first `M::CELLS`: read only where the state's mask
/// says a cell has terrain.
pub fn blocked_cells<M: Mask>(s: &GameState, blocking: u32) -> M {
    let mut out = M::ZERO;
    if blocking != 0 {
        let terrain = s.terrain();
        for c in maybe_occupied(s.terrained(), 0) {
            if c < M::CELLS && terrain[c] & blocking != 0 {
                out |= M::bit(c);
            }
        }
    }
    out
}

/// What [`Masks::targets`] is given: the cells that stop movement (pieces
/// and blocked cells) and the enemies' among them (a piece standing on a
/// blocked cell is not one: no move enters it), from the occupied cells,
/// the mover's and the blocked ones.
#[inline]
pub fn stops_and_enemies<M: Mask>(occupied: M, own: M, blocked: M) -> (M, M) {
    (occupied | blocked, occupied & !own & !blocked)
}

/// The `r`-th cell of `m`, lowest first, if it has that many.
#[inline]
pub fn nth_cell<M: Mask>(mut m: M, r: u32) -> Option<usize> {
    for _ in 0..r {
        if m == M::ZERO {
            return None;
        }
        m = m & !M::bit(m.lowest());
    }
    (m != M::ZERO).then(|| m.lowest())
}

/// One pattern's masks.
fn pattern<M: Mask>(
    tables: &MoveTables,
    k: usize,
    pi: usize,
    m: &MovePattern,
    cells: usize,
    players: usize,
) -> Pattern<M> {
    let t = m.target();
    let all = (0..cells).fold(M::ZERO, |m, c| m | M::bit(c));
    let from = (0..players)
        .map(|p| match &t.from_zone {
            Some(z) => z[p].iter().fold(M::ZERO, |m, &c| m | M::bit(c as usize)),
            None => all,
        })
        .collect();
    let (mut steps, mut rays) = (vec![M::ZERO; 2 * cells], vec![Vec::new(); 2 * cells]);
    let path = match m {
        MovePattern::Path { steps, .. } => *steps,
        _ => 0,
    };
    let (max, strike_at_range) = match m {
        MovePattern::Slide {
            max,
            strike_at_range,
            ..
        } => (Some(*max), *strike_at_range),
        _ => (None, false),
    };
    for parity in 0..2 {
        for c in 0..cells {
            for &d in tables.dirs(k, pi, parity as PlayerId) {
                let line = tables.line(d);
                match max {
                    None => {
                        if let Some(&to) = line.get(c).filter(|&&n| (n as usize) < cells) {
                            steps[parity * cells + c] |= M::bit(to as usize);
                        }
                    }
                    Some(max) => {
                        let (mut at, mut ray) = (c, M::ZERO);
                        for _ in 0..max {
                            match line.get(at).filter(|&&n| (n as usize) < cells) {
                                Some(&n) => {
                                    ray |= M::bit(n as usize);
                                    at = n as usize;
                                }
                                None => break,
                            }
                        }
                        if ray != M::ZERO {
                            rays[parity * cells + c].push((ray, d));
                        }
                    }
                }
            }
        }
    }
    Pattern {
        empty: t.empty,
        enemy: t.enemy,
        strike_at_range,
        path,
        from,
        steps,
        rays,
    }
}

/// A path's targets: up to `pat.path` single steps from `from`, turning
/// freely through empty cells (each entered once), the last cell of each
/// step empty or an enemy.
#[inline(never)]
fn path_targets<M: Mask>(pat: &Pattern<M>, base: usize, from: usize, stops: M, enemy: M) -> M {
    let (mut out, mut seen, mut frontier) = (M::ZERO, M::bit(from), M::bit(from));
    for _ in 0..pat.path {
        let mut reach = M::ZERO;
        let mut f = frontier;
        while f != M::ZERO {
            let c = f.lowest();
            f = f & !M::bit(c);
            reach |= pat.steps[base + c];
        }
        if pat.enemy {
            out |= reach & enemy;
        }
        frontier = reach & !stops & !seen;
        seen |= frontier;
        if pat.empty {
            out |= frontier;
        }
        if frontier == M::ZERO {
            break;
        }
    }
    out
}
