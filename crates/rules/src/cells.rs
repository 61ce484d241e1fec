//! Evaluating declared cell sets against a state: an action parameter's or
//! a named query's source, conditions and preferences (see
//! [`ParamDecl`]). Used by the engine to list actions and by the Lua
//! bridge to answer `g:query`.
//!
//! Changes when the vocabulary of sources and conditions grows.

use crate::base::geometry::{Board, Cell};
use crate::base::state::{GameState, PlayerId};
use crate::variant::actions::{Filter, ParamDecl, Source};

const ORTH: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// The value of a cell's mark, if any.
pub fn mark_of<'a>(s: &'a GameState, cell: Cell, name: &str) -> Option<&'a str> {
    s.marks.of(cell, name).map(|m| m.value.as_str())
}

/// The cells of a declared set for player `p` (cell order), given the
/// cells of the earlier parameters: the source's cells that pass every
/// condition (from the fallback source when none does), narrowed to those
/// that also pass the preferences when any does. `frozen`: the cells of
/// `p`'s pieces that cannot move (asked only when a condition needs them,
/// see [`ParamDecl::uses_frozen`]).
pub fn cells_of(
    b: &Board,
    s: &GameState,
    (p, frozen): (PlayerId, &[Cell]),
    param: &ParamDecl,
    earlier: &[Cell],
    out: &mut Vec<Cell>,
) {
    out.clear();
    let pass = |c: &Cell| param.filters.iter().all(|f| holds(s, (p, frozen), f, *c));
    source_cells(b, s, p, &param.source, earlier, &pass, out);
    if out.is_empty() {
        if let Some(fb) = &param.fallback {
            source_cells(b, s, p, fb, earlier, &pass, out);
        }
    }
    if !param.prefer.is_empty() {
        let preferred = |c: &Cell| param.prefer.iter().all(|f| holds(s, (p, frozen), f, *c));
        if out.iter().any(preferred) {
            out.retain(preferred);
        }
    }
}

/// The cells of a source that pass `pass`.
fn source_cells(
    b: &Board,
    s: &GameState,
    p: PlayerId,
    src: &Source,
    earlier: &[Cell],
    pass: &dyn Fn(&Cell) -> bool,
    out: &mut Vec<Cell>,
) {
    let n = b.cell_count();
    if let Source::FirstZone(zones) = src {
        // The first zone with a cell that passes; its passing cells.
        let start = out.len();
        for z in zones {
            out.extend(z.iter().copied().filter(|c| pass(c)));
            if out.len() > start {
                // Sorted, without repeats (a zone may name a cell twice).
                out[start..].sort_unstable();
                let mut w = start;
                for r in start..out.len() {
                    if r == start || out[r] != out[w - 1] {
                        out[w] = out[r];
                        w += 1;
                    }
                }
                out.truncate(w);
                return;
            }
        }
        return;
    }
    let mut hit = Hits::new(n);
    let own = |c: usize| s.board()[c].is_some_and(|id| s.pieces[id as usize].owner == p);
    match src {
        Source::Cells => (0..n).for_each(|c| hit.set(c)),
        Source::Zone(cells) => cells.iter().for_each(|&c| hit.set(c as usize)),
        Source::OwnZone(zones) => zones
            .get(p as usize)
            .into_iter()
            .flatten()
            .for_each(|&c| hit.set(c as usize)),
        Source::FirstZone(_) => {}
        Source::OwnPieces => (0..n).filter(|&c| own(c)).for_each(|c| hit.set(c)),
        Source::NextTo(i) => {
            for d in ORTH {
                if let Some(c) = b.offset(earlier[*i], d) {
                    hit.set(c as usize);
                }
            }
        }
        Source::NearOwn => {
            for c in (0..n).filter(|&c| own(c)) {
                for d in ORTH {
                    if let Some(x) = b.offset(c as Cell, d) {
                        hit.set(x as usize);
                    }
                }
            }
        }
        Source::Flood { from, through } => flood(b, s, earlier[*from], *through, &mut hit),
        Source::Sight => {
            for c in (0..n).filter(|&c| own(c)) {
                for d in ORTH {
                    let mut x = b.offset(c as Cell, d);
                    while let Some(y) = x {
                        if s.board()[y as usize].is_some() {
                            hit.set(y as usize);
                            break;
                        }
                        x = b.offset(y, d);
                    }
                }
            }
        }
    }
    out.extend(
        (0..n)
            .filter(|&c| hit.get(c))
            .map(|c| c as Cell)
            .filter(pass),
    );
}

/// A set of cells: bits in place on boards of up to 256 cells (no
/// allocation while listing), else a vector.
struct Hits {
    small: [u64; 4],
    big: Vec<bool>,
}

impl Hits {
    fn new(n: usize) -> Hits {
        Hits {
            small: [0; 4],
            big: if n > 256 { vec![false; n] } else { Vec::new() },
        }
    }

    #[inline]
    fn set(&mut self, c: usize) {
        match self.big.get_mut(c) {
            Some(b) => *b = true,
            None => self.small[c >> 6] |= 1 << (c & 63),
        }
    }

    #[inline]
    fn get(&self, c: usize) -> bool {
        match self.big.get(c) {
            Some(b) => *b,
            None => self.small[c >> 6] & (1 << (c & 63)) != 0,
        }
    }
}

/// Marks the cells reached from `start` through orthogonally connected
/// cells with terrain `through`, ending on a cell without it.
fn flood(b: &Board, s: &GameState, start: Cell, through: u32, hit: &mut Hits) {
    let wet = |c: Cell| s.terrain()[c as usize] & through != 0;
    let mut seen = Hits::new(b.cell_count());
    let mut queue: Vec<Cell> = Vec::new();
    for d in ORTH {
        if let Some(c) = b.offset(start, d).filter(|&c| wet(c)) {
            seen.set(c as usize);
            queue.push(c);
        }
    }
    let mut i = 0;
    while i < queue.len() {
        let w = queue[i];
        i += 1;
        for d in ORTH {
            let Some(c) = b.offset(w, d) else { continue };
            if wet(c) {
                if !seen.get(c as usize) {
                    seen.set(c as usize);
                    queue.push(c);
                }
            } else if c != start {
                hit.set(c as usize);
            }
        }
    }
}

/// Whether cell `c` passes condition `f` for player `p` (`frozen`: the
/// cells of `p`'s pieces that cannot move, as for [`cells_of`]).
pub fn holds(s: &GameState, (p, frozen): (PlayerId, &[Cell]), f: &Filter, c: Cell) -> bool {
    let piece = s.board()[c as usize].map(|id| &s.pieces[id as usize]);
    match f {
        Filter::Empty => piece.is_none(),
        Filter::Enemy => piece.is_some_and(|q| q.owner != p),
        Filter::Own => piece.is_some_and(|q| q.owner == p),
        Filter::NotOwn => piece.is_none_or(|q| q.owner != p),
        Filter::Terrain(bit, has) => (s.terrain()[c as usize] & bit != 0) == *has,
        Filter::Mark(name, value, has) => {
            let m = mark_of(s, c, name);
            let ok = match value {
                Some(v) => m == Some(v.as_str()),
                None => m.is_some(),
            };
            ok == *has
        }
        Filter::Attr(a, has) => {
            let id = s.board()[c as usize];
            id.is_some_and(|id| s.attrs(id).iter().any(|(n, v)| n == a && *v != 0)) == *has
        }
        Filter::Counter(name, has) => (s.cell_counter(name, c) != 0) == *has,
        Filter::Zone(_, cells, has) => cells[p as usize].contains(c) == *has,
        Filter::Kind(kinds, has) => piece.is_some_and(|q| kinds.contains(&q.kind)) == *has,
        Filter::Frozen(has) => frozen.contains(&c) == *has,
        Filter::Not(f) => !holds(s, (p, frozen), f, c),
    }
}

#[cfg(test)]
mod tests {
    use super::Hits;

    #[test]
    fn hits_hold_cells_on_small_and_large_boards() {
        for n in [36, 256, 300] {
            let mut h = Hits::new(n);
            let mut want: Vec<usize> = [0, 5, 63, 64, 255, n - 1]
                .into_iter()
                .filter(|&c| c < n)
                .collect();
            want.dedup();
            for &c in &want {
                h.set(c);
            }
            let got: Vec<usize> = (0..n).filter(|&c| h.get(c)).collect();
            assert_eq!(got, want, "{n} cells");
        }
    }
}
