//! The attack table's fast path for boards of at most 64 cells: the board
//! given as a mask of the cells that stop movement (pieces, and terrain
//! that blocks), the cells a stepping attacker could stand on as a mask
//! per kind set, and each line a sliding attacker could come along as a
//! mask whose nearest stopping cell is one bit scan away, instead of a walk
//! cell by cell. Built by [`AttackTable::new`](super::tables::AttackTable::new)
//! when the board is small enough and every kind steps or slides plainly;
//! larger boards use the walk.

use crate::engine::tables::KindSet;

/// A set of cells of a board of at most 64 cells, bit `c` for cell `c`.
pub type CellMask = u64;

/// Per cell: the lines a sliding attacker could come along (the kinds,
/// then the line's cells, nearest first).
pub(crate) type Lines<'a> = Vec<Vec<(KindSet, &'a [u16])>>;

/// The most cells a board may have for [`AttackBits`].
pub const MASK_CELLS: usize = 64;

/// Reverse movement as masks (see the module's text).
#[derive(Clone, Debug, Default)]
pub struct AttackBits {
    /// Per owner parity and cell: the cells a stepping attacker could stand
    /// on, one mask per set of kinds that step from there.
    steps: [Vec<Vec<(CellMask, KindSet)>>; 2],
    /// Per owner parity and cell: the lines a sliding attacker could come
    /// along (its cells, the kinds that slide along it, and whether the
    /// cells' numbers grow going out from the cell).
    slides: [Vec<Vec<(CellMask, KindSet, bool)>>; 2],
}

impl AttackBits {
    /// From the attack table's lists, per owner parity and cell: the cells
    /// stepping attackers stand on with their kinds, and the lines (the
    /// kinds, then the cells nearest first). `None` when the board is too
    /// large or a line's cell numbers do not run one way.
    pub(crate) fn new(
        cells: usize,
        step_from: &[Vec<Vec<(u16, KindSet)>>; 2],
        lines: [Lines; 2],
    ) -> Option<AttackBits> {
        if cells > MASK_CELLS {
            return None;
        }
        let mut bits = AttackBits::default();
        for parity in 0..2 {
            bits.steps[parity] = step_from[parity]
                .iter()
                .map(|from| {
                    let mut groups: Vec<(CellMask, KindSet)> = Vec::new();
                    for &(c, set) in from {
                        match groups.iter_mut().find(|g| g.1 == set) {
                            Some(g) => g.0 |= 1 << c,
                            None => groups.push((1 << c, set)),
                        }
                    }
                    groups
                })
                .collect();
            let mut slides = Vec::with_capacity(cells);
            for (c, here) in lines[parity].iter().enumerate() {
                let mut out = Vec::with_capacity(here.len());
                for &(set, ray) in here {
                    let up = ray.windows(2).all(|w| w[0] < w[1]) && ray[0] as usize > c;
                    let down = ray.windows(2).all(|w| w[0] > w[1]) && (ray[0] as usize) < c;
                    if !up && !down {
                        return None;
                    }
                    let mask = ray.iter().fold(0, |m, &x| m | 1 << x);
                    out.push((mask, set, up));
                }
                slides.push(out);
            }
            bits.slides[parity] = slides;
        }
        Some(bits)
    }

    /// Calls `candidate(from)` for every cell whose piece might reach `cell`
    /// (owned by `by`, of a kind that could), stopping at the first `true`,
    /// as [`AttackTable::any_candidate`](super::tables::AttackTable::any_candidate)
    /// does: `stops` holds the cells with a piece and those whose terrain
    /// blocks movement (`blocked`), `by_cells` at least the cells of `by`'s
    /// pieces among them (others are skipped unasked); `kind_owner(c)`
    /// gives the kind and owner of the piece on `c`.
    #[inline]
    pub fn any_candidate(
        &self,
        cell: u16,
        by: u8,
        masks: (CellMask, CellMask),
        kind_owner: impl Fn(u16) -> Option<(u16, u8)>,
        blocked: impl Fn(u16) -> bool,
        candidate: impl FnMut(u16) -> bool,
    ) -> bool {
        let kinds = KindSet::MAX;
        self.any_candidate_of(kinds, cell, by, masks, kind_owner, blocked, candidate)
    }

    /// [`AttackBits::any_candidate`] among the kinds `kinds` only.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn any_candidate_of(
        &self,
        kinds: KindSet,
        cell: u16,
        by: u8,
        (stops, by_cells): (CellMask, CellMask),
        kind_owner: impl Fn(u16) -> Option<(u16, u8)>,
        blocked: impl Fn(u16) -> bool,
        mut candidate: impl FnMut(u16) -> bool,
    ) -> bool {
        let parity = (by % 2) as usize;
        let c = cell as usize;
        let mine = |c: u16, set: KindSet| {
            kind_owner(c).is_some_and(|(k, o)| o == by && (set >> k) & 1 == 1)
        };
        for &(mask, set) in &self.steps[parity][c] {
            let set = set & kinds;
            if set == 0 {
                continue;
            }
            let mut m = mask & stops & by_cells;
            while m != 0 {
                let from = m.trailing_zeros() as u16;
                m &= m - 1;
                if mine(from, set) && candidate(from) {
                    return true;
                }
            }
        }
        for &(mask, set, up) in &self.slides[parity][c] {
            let set = set & kinds;
            let m = mask & stops;
            if m == 0 || set == 0 {
                continue;
            }
            // The nearest stopping cell: a piece, or terrain that blocks.
            let at = if up {
                m.trailing_zeros()
            } else {
                63 - m.leading_zeros()
            } as u16;
            if by_cells >> at & 1 == 1 && !blocked(at) && mine(at, set) && candidate(at) {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use crate::base::geometry::Cell;
    use crate::engine::movegen::{attacked_masked, attacked_on};
    use crate::engine::{Action, Engine};

    /// The masks give the walk's answer for every cell and player along
    /// random games: a bundled 8x8 variant with royal pieces and joint
    /// moves, and a small board with blocking terrain and slides of
    /// limited reach.
    #[test]
    fn masks_answer_as_the_walk_does() {
        for name in ["chess", "examples/variants/mini_battle.yaml"] {
            let e = Engine::load(name, &[]).unwrap_or_else(|err| panic!("{err}"));
            assert!(e.moves.attack.bits.is_some(), "{name} has no masks");
            let blocking = e.variant.board.blocking;
            let mut compared = 0;
            let mut attacked = 0;
            for seed in 0..4 {
                let mut s = e.new_game(seed, &[]);
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                for _ in 0..150 {
                    let walls = (s.terrain().iter().enumerate())
                        .filter(|(_, &t)| t & blocking != 0)
                        .fold(0, |m, (c, _)| m | 1 << c);
                    let stops = Some(s.occupied() | walls);
                    for c in 0..s.board().len() as Cell {
                        for q in 0..s.players {
                            let walk = attacked_on(&e.moves, &s, s.board(), c, q);
                            let masked = attacked_masked(&e.moves, &s, s.board(), stops, c, q);
                            assert_eq!(masked, walk, "{name}, seed {seed}, cell {c}, by {q}");
                            compared += 1;
                            attacked += walk as usize;
                        }
                    }
                    let list: Vec<Action> = (e.legal_actions(&s).into_iter())
                        .filter(|a| !a.is_social())
                        .collect();
                    if list.is_empty() || s.outcome.is_some() {
                        break;
                    }
                    let a = list[rng.random_range(0..list.len())];
                    e.apply(&mut s, &a).unwrap();
                }
            }
            assert!(compared > 5_000, "{name}: only {compared} compared");
            assert!(attacked * 10 > compared, "{name}: only {attacked} attacked");
        }
    }
}
