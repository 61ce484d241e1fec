//! A set of cells as bits, one word per 64 cells: membership in a few
//! instructions whatever the board's size (a zone kept as a list of cells
//! would be scanned).
//!
//! Changes when sets of cells need another operation.

use crate::base::geometry::Cell;

/// A set of cells; cells beyond the words it holds are not in it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CellSet {
    words: Box<[u64]>,
}

impl CellSet {
    /// The set of `cells` (any order, repeats allowed).
    pub fn of(cells: &[Cell]) -> CellSet {
        let len = cells
            .iter()
            .map(|&c| c as usize / 64 + 1)
            .max()
            .unwrap_or(0);
        let mut words = vec![0u64; len];
        for &c in cells {
            words[c as usize / 64] |= 1 << (c % 64);
        }
        CellSet {
            words: words.into_boxed_slice(),
        }
    }

    /// Whether `c` is in the set.
    #[inline]
    pub fn contains(&self, c: Cell) -> bool {
        self.words
            .get(c as usize / 64)
            .is_some_and(|w| w >> (c % 64) & 1 == 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_its_cells_and_no_other() {
        let cells = [0, 5, 63, 64, 200];
        let set = CellSet::of(&cells);
        for c in 0..300 {
            assert_eq!(set.contains(c), cells.contains(&c), "cell {c}");
        }
        assert!(!CellSet::of(&[]).contains(0));
    }
}
