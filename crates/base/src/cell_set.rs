//! A set of cells as bits, one word per 64 cells: membership in a few
//! instructions whatever the board's size (a zone kept as a list of cells
//! would be scanned).
//!
//! Changes when sets of cells need another operation.

use crate::geometry::Cell;

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

    /// Whether the set has no cell.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The set's cells, lowest first.
    pub fn cells(&self) -> Vec<Cell> {
        let words = self.words.iter().enumerate();
        words
            .flat_map(|(i, &w)| Bits(w).map(move |b| (i * 64 + b) as Cell))
            .collect()
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
/// the first 128 (from the state's mask, one word after the other), then
/// every cell beyond them.
#[derive(Clone, Debug)]
pub struct MaybeOccupied {
    low: Bits,
    high: Bits,
    beyond: std::ops::Range<usize>,
}

impl Iterator for MaybeOccupied {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        self.low
            .next()
            .or_else(|| self.high.next().map(|c| c + 64))
            .or_else(|| self.beyond.next())
    }
}

/// [`MaybeOccupied`] of a board of `cells` cells whose first 128 are
/// occupied as `occupied` says.
#[inline]
pub fn maybe_occupied(occupied: u128, cells: usize) -> MaybeOccupied {
    MaybeOccupied {
        low: Bits(occupied as u64),
        high: Bits((occupied >> 64) as u64),
        beyond: 128..cells.max(128),
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
        assert_eq!(
            CellSet::of(&[200, 5, 64, 0, 63, 5]).cells(),
            [0, 5, 63, 64, 200]
        );
        assert!(CellSet::of(&[]).is_empty() && !set.is_empty());
    }

    #[test]
    fn bits_and_the_cells_beyond_come_in_order() {
        let got: Vec<usize> = maybe_occupied(0b1010_0001, 40).collect();
        assert_eq!(got, [0, 5, 7]);
        let got: Vec<usize> = maybe_occupied(1 << 63 | 1, 67).collect();
        assert_eq!(got, [0, 63]);
        let got: Vec<usize> = maybe_occupied(1 << 100 | 1 << 64 | 1 << 3, 131).collect();
        assert_eq!(got, [3, 64, 100, 128, 129, 130]);
    }
}
