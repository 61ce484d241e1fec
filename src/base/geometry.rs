//! Board geometry: cells and their names, terrain tags, named directions, zones.
//!
//! A board is a rectangle of `files × ranks` cells. Cells are numbered
//! `rank * files + file`, so `a1` is cell 0 and the first rank is the first
//! player's side. Terrain tags (for example `lake`) are small bit flags; the
//! variant says which tags block movement.

use std::fmt;

/// Index of a cell on the board.
pub type Cell = u16;

/// A set of named directions as `(file delta, rank delta)` pairs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Directions {
    pub name: String,
    pub deltas: Vec<(i8, i8)>,
    /// Relative to the mover: written for the first player (toward higher
    /// ranks); for every odd-numbered player (the second of two) the rank
    /// deltas are mirrored (toward lower ranks).
    pub relative: bool,
}

/// The built-in direction sets every variant may name.
pub fn builtin_directions() -> Vec<Directions> {
    let orth = vec![(0, 1), (0, -1), (1, 0), (-1, 0)];
    let diag = vec![(1, 1), (1, -1), (-1, 1), (-1, -1)];
    let mut all = orth.clone();
    all.extend(diag.iter().copied());
    let knight = vec![
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    let set = |name: &str, deltas: Vec<(i8, i8)>, relative: bool| Directions {
        name: name.into(),
        deltas,
        relative,
    };
    vec![
        set("orthogonal", orth, false),
        set("diagonal", diag, false),
        set("all", all, false),
        set("knight", knight, false),
        // The board's own up and down (toward higher and lower ranks),
        // the same for every player.
        set("up", vec![(0, 1)], false),
        set("down", vec![(0, -1)], false),
        // Per player: the first player's forward is toward higher ranks.
        set("forward", vec![(0, 1)], true),
        set("forward_diagonal", vec![(1, 1), (-1, 1)], true),
        set("backward", vec![(0, -1)], true),
        set("backward_diagonal", vec![(1, -1), (-1, -1)], true),
    ]
}

/// A rectangular board with terrain tags and zones.
#[derive(Clone, Debug)]
pub struct Board {
    pub files: u8,
    pub ranks: u8,
    /// Names of terrain tags; tag `i` is bit `1 << i`.
    pub terrain_names: Vec<String>,
    /// Terrain bits of each cell at the start of a game.
    pub terrain: Vec<u32>,
    /// Terrain bits that nothing may enter or cross.
    pub blocking: u32,
    /// Named sets of cells (setup areas, back rows, ...).
    pub zones: Vec<(String, Vec<Cell>)>,
    pub directions: Vec<Directions>,
}

impl Board {
    pub fn new(files: u8, ranks: u8) -> Board {
        Board {
            files,
            ranks,
            terrain_names: Vec::new(),
            terrain: vec![0; files as usize * ranks as usize],
            blocking: 0,
            zones: Vec::new(),
            directions: builtin_directions(),
        }
    }

    pub fn cell_count(&self) -> usize {
        self.files as usize * self.ranks as usize
    }

    pub fn cell(&self, file: i32, rank: i32) -> Option<Cell> {
        if file < 0 || rank < 0 || file >= self.files as i32 || rank >= self.ranks as i32 {
            None
        } else {
            Some((rank * self.files as i32 + file) as Cell)
        }
    }

    pub fn coords(&self, cell: Cell) -> (i32, i32) {
        let f = self.files as i32;
        (cell as i32 % f, cell as i32 / f)
    }

    /// The cell `steps` times `delta` away from `cell`, if on the board.
    pub fn offset(&self, cell: Cell, delta: (i8, i8)) -> Option<Cell> {
        let (f, r) = self.coords(cell);
        self.cell(f + delta.0 as i32, r + delta.1 as i32)
    }

    /// The name of a cell: file letter then rank number (`a1`, `j10`).
    pub fn cell_name(&self, cell: Cell) -> String {
        let (f, r) = self.coords(cell);
        format!("{}{}", (b'a' + f as u8) as char, r + 1)
    }

    /// Parses a cell name; `None` if malformed or off the board.
    pub fn parse_cell(&self, text: &str) -> Option<Cell> {
        let text = text.trim();
        let mut chars = text.chars();
        let file = chars.next()?.to_ascii_lowercase();
        if !file.is_ascii_lowercase() {
            return None;
        }
        let rest = chars.as_str();
        if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) || rest.len() > 3 {
            return None;
        }
        let rank: i32 = rest.parse().ok()?;
        self.cell((file as u8 - b'a') as i32, rank - 1)
    }

    /// Parses a cell or a rectangle `a1:j4` into a list of cells.
    pub fn parse_cells(&self, text: &str) -> Result<Vec<Cell>, String> {
        if let Some((a, b)) = text.split_once(':') {
            let a = self
                .parse_cell(a)
                .ok_or_else(|| format!("`{a}` is not a cell of this {self} board"))?;
            let b = self
                .parse_cell(b)
                .ok_or_else(|| format!("`{b}` is not a cell of this {self} board"))?;
            let (fa, ra) = self.coords(a);
            let (fb, rb) = self.coords(b);
            let mut out = Vec::new();
            for r in ra.min(rb)..=ra.max(rb) {
                for f in fa.min(fb)..=fa.max(fb) {
                    out.push(self.cell(f, r).expect("inside rectangle"));
                }
            }
            Ok(out)
        } else {
            self.parse_cell(text)
                .map(|c| vec![c])
                .ok_or_else(|| format!("`{text}` is not a cell of this {self} board"))
        }
    }

    pub fn terrain_bit(&self, name: &str) -> Option<u32> {
        self.terrain_names
            .iter()
            .position(|n| n == name)
            .map(|i| 1u32 << i)
    }

    pub fn zone(&self, name: &str) -> Option<&[Cell]> {
        self.zones
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, c)| c.as_slice())
    }

    pub fn directions(&self, name: &str) -> Option<&Directions> {
        self.directions.iter().find(|d| d.name == name)
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.files, self.ranks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_names_round_trip() {
        let b = Board::new(10, 10);
        for c in 0..100 {
            assert_eq!(b.parse_cell(&b.cell_name(c)), Some(c));
        }
        assert_eq!(b.parse_cell("a1"), Some(0));
        assert_eq!(b.parse_cell("j10"), Some(99));
        assert_eq!(b.parse_cell("k1"), None);
        assert_eq!(b.parse_cell("a11"), None);
        assert_eq!(b.parse_cell("a"), None);
    }

    #[test]
    fn rectangles() {
        let b = Board::new(10, 10);
        assert_eq!(b.parse_cells("a1:j4").unwrap().len(), 40);
        assert_eq!(b.parse_cells("c5:d6").unwrap(), vec![42, 43, 52, 53]);
        assert!(b.parse_cells("a1:z9").is_err());
    }
}
