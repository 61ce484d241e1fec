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

/// The cells of a 64-bit mask, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let c = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(c)
    }
}

/// The cells that may hold a piece, in cell order: the occupied ones among
/// the first 64 (from the state's mask), then every cell beyond them.
#[inline]
pub fn maybe_occupied(
    occupied: u64,
    cells: usize,
) -> std::iter::Chain<Bits, std::ops::Range<usize>> {
    Bits(occupied).chain(64..cells.max(64))
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

    #[test]
    fn bits_and_the_cells_beyond_come_in_order() {
        let got: Vec<usize> = maybe_occupied(0b1010_0001, 40).collect();
        assert_eq!(got, [0, 5, 7]);
        let got: Vec<usize> = maybe_occupied(1 << 63 | 1, 67).collect();
        assert_eq!(got, [0, 63, 64, 65, 66]);
    }
}
