//! Board tables the language's listing reads instead of computing
//! coordinates: each cell's neighbour by every small delta ([`Hops`]), and
//! for boards of at most 64 cells, shifts of 64-bit cell masks
//! ([`Masks`]).

use crate::base::geometry::{Board, Cell};

/// Deltas of at most this much either way have a table.
const REACH: i8 = 2;
const SIDE: usize = (2 * REACH + 1) as usize;

/// Each cell's neighbour by each delta of at most [`REACH`] either way
/// (`Cell::MAX`: off the board).
#[derive(Debug, Default)]
pub(super) struct Hops {
    cells: usize,
    next: Vec<Cell>,
}

impl Hops {
    pub(super) fn new(b: &Board) -> Hops {
        let cells = b.cell_count();
        let mut next = vec![Cell::MAX; SIDE * SIDE * cells];
        for dx in -REACH..=REACH {
            for dy in -REACH..=REACH {
                let k = Self::slot((dx, dy)).unwrap_or(0);
                for c in 0..cells {
                    next[k * cells + c] = b.offset(c as Cell, (dx, dy)).unwrap_or(Cell::MAX);
                }
            }
        }
        Hops { cells, next }
    }

    #[inline]
    fn slot(d: (i8, i8)) -> Option<usize> {
        let (x, y) = (d.0 + REACH, d.1 + REACH);
        ((0..SIDE as i8).contains(&x) && (0..SIDE as i8).contains(&y))
            .then(|| x as usize * SIDE + y as usize)
    }

    /// The cell `d` away from `c`, if on the board; `b` answers for
    /// deltas beyond the table.
    #[inline]
    pub(super) fn hop(&self, b: &Board, c: Cell, d: (i8, i8)) -> Option<Cell> {
        match Self::slot(d) {
            Some(k) => {
                let n = self.next[k * self.cells + c as usize];
                (n != Cell::MAX).then_some(n)
            }
            None => b.offset(c, d),
        }
    }
}

/// A board of at most 64 cells as masks: bit `c` for cell `c`.
#[derive(Debug)]
pub(super) struct Masks {
    files: i32,
    /// Every cell.
    pub(super) all: u64,
    /// Per delta slot: the cells whose neighbour by it is on the board.
    from: [u64; SIDE * SIDE],
}

impl Masks {
    pub(super) fn new(b: &Board) -> Option<Masks> {
        let cells = b.cell_count();
        // Shifting masks moves along the rectangle, not a graph's lines.
        if cells > 64 || b.graph.is_some() {
            return None;
        }
        let mut from = [0u64; SIDE * SIDE];
        for dx in -REACH..=REACH {
            for dy in -REACH..=REACH {
                let k = Hops::slot((dx, dy))?;
                for c in 0..cells {
                    if b.offset(c as Cell, (dx, dy)).is_some() {
                        from[k] |= 1 << c;
                    }
                }
            }
        }
        Some(Masks {
            files: b.files as i32,
            all: if cells == 64 {
                u64::MAX
            } else {
                (1u64 << cells) - 1
            },
            from,
        })
    }

    /// The cells of `m` moved by `d` (cells it would take off the board
    /// are dropped). `d` must be within the table.
    #[inline]
    pub(super) fn shift(&self, m: u64, d: (i8, i8)) -> u64 {
        let Some(k) = Hops::slot(d) else { return 0 };
        let m = m & self.from[k];
        let by = d.1 as i32 * self.files + d.0 as i32;
        if by >= 0 {
            m << by
        } else {
            m >> -by
        }
    }

    /// The cells whose neighbour by `d` is off the board.
    #[inline]
    pub(super) fn edge(&self, d: (i8, i8)) -> u64 {
        Hops::slot(d).map_or(self.all, |k| self.all & !self.from[k])
    }
}

/// The board's occupied cells and each player's, as masks.
pub(super) fn occupancy(s: &crate::base::state::GameState, p: u8) -> (u64, u64) {
    let mut own = 0u64;
    let mut all = 0u64;
    for (c, slot) in s.board().iter().enumerate().take(64) {
        if let Some(id) = slot {
            all |= 1 << c;
            if s.pieces[*id as usize].owner == p {
                own |= 1 << c;
            }
        }
    }
    (own, all)
}

/// Each cell's neighbours along a set of lines (`Cell::MAX` where one is
/// off the board), for walks that go along the same lines again and again
/// (groups, regions).
#[derive(Clone, Debug)]
pub(crate) struct Adj {
    pub(super) lines: Vec<(i8, i8)>,
    k: usize,
    next: Vec<Cell>,
}

impl Adj {
    pub(super) fn new(b: &Board, lines: &[(i8, i8)]) -> Adj {
        let k = lines.len();
        let mut next = Vec::with_capacity(k * b.cell_count());
        for c in 0..b.cell_count() {
            for &d in lines {
                next.push(b.offset(c as Cell, d).unwrap_or(Cell::MAX));
            }
        }
        Adj {
            lines: lines.to_vec(),
            k,
            next,
        }
    }

    #[inline]
    pub(super) fn of(&self, c: Cell) -> &[Cell] {
        let at = c as usize * self.k;
        self.next.get(at..at + self.k).unwrap_or(&[])
    }
}
