//! Board geometry: cells and their names, terrain tags, named directions, zones.
//!
//! A board is a rectangle of `files × ranks` cells. Cells are numbered
//! `rank * files + file`, so `a1` is cell 0 and the first rank is the first
//! player's side. Terrain tags (for example `lake`) are small bit flags; the
//! variant says which tags block movement.
//!
//! A graph board is a sparse rectangle: only its points are on the board
//! (the other cells carry the blocking terrain tag [`OFF_BOARD`] and are
//! not named, drawn or listed), and when it declares lines, a step in a
//! direction goes to the next point of a line through the cell in that
//! direction ([`Board::offset`] reads the table [`Graph::next`]).

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
        // The six neighbours of a hex board on an axial grid (drawn with
        // each rank shifted half a cell from the one below).
        set("hex", HEX.to_vec(), false),
    ]
}

/// The six directions of a hex board: a cell's neighbours on an axial grid.
pub const HEX: [(i8, i8); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];

/// The terrain tag of a graph board's cells that are not points.
pub const OFF_BOARD: &str = "off_board";

/// How a board is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Shape {
    /// Squares in rows and columns.
    #[default]
    Square,
    /// Hexagons, each rank shifted half a cell from the one below.
    Hex,
}

/// The points of a graph board and the lines joining them.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    /// Per cell: whether it is a point of the board.
    pub points: Vec<bool>,
    /// The declared lines, each its points in order (empty: moves go from
    /// cell to cell as on a rectangle, off-board cells blocking).
    pub lines: Vec<Vec<Cell>>,
    /// Per cell: the unit directions `(dx, dy)` along its lines and the
    /// next point that way.
    pub next: Vec<Vec<((i8, i8), Cell)>>,
}

fn gcd(a: i32, b: i32) -> i32 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

/// A delta as a whole number of steps along one unit direction.
pub fn unit_steps(d: (i32, i32)) -> ((i32, i32), i32) {
    let k = gcd(d.0, d.1).max(1);
    ((d.0 / k, d.1 / k), k)
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
    /// Cell counters at the start of a game: (counter, cell, value).
    pub counts: Vec<(String, Cell, i64)>,
    pub directions: Vec<Directions>,
    /// How the board is drawn.
    pub shape: Shape,
    /// A graph board's points and lines (`None`: every cell is on the board).
    pub graph: Option<Box<Graph>>,
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
            counts: Vec::new(),
            directions: builtin_directions(),
            shape: Shape::Square,
            graph: None,
        }
    }

    /// Whether a cell is on the board (every cell but a graph board's
    /// non-points).
    pub fn is_point(&self, cell: Cell) -> bool {
        match &self.graph {
            None => (cell as usize) < self.cell_count(),
            Some(g) => g.points.get(cell as usize).copied().unwrap_or(false),
        }
    }

    /// Makes this a graph board of the given points and lines (each its
    /// points in order, consecutive points on one grid direction). Marks
    /// the other cells with the blocking tag [`OFF_BOARD`]. Errors name the
    /// index of the offending line.
    pub fn set_graph(
        &mut self,
        points: &[Cell],
        lines: Vec<Vec<Cell>>,
    ) -> Result<(), (usize, String)> {
        let n = self.cell_count();
        if self.terrain_names.len() >= 32 {
            return Err((
                lines.len(),
                "a graph board leaves room for at most 31 terrain tags".into(),
            ));
        }
        let mut g = Graph {
            points: vec![false; n],
            lines: Vec::new(),
            next: vec![Vec::new(); n],
        };
        for &p in points {
            g.points[p as usize] = true;
        }
        for (i, line) in lines.iter().enumerate() {
            let name = |c: Cell| self.cell_name(c);
            if line.len() < 2 {
                return Err((i, "a line joins at least two points".into()));
            }
            let unit = |a: Cell, b: Cell| {
                let ((a0, a1), (b0, b1)) = (self.coords(a), self.coords(b));
                unit_steps((b0 - a0, b1 - a1))
            };
            let (u, _) = unit(line[0], line[1]);
            for w in line.windows(2) {
                let (v, k) = unit(w[0], w[1]);
                if k == 0 {
                    return Err((i, format!("`{}` appears twice in a row", name(w[0]))));
                }
                if v != u {
                    return Err((
                        i,
                        format!(
                            "the points of a line lie in order along one direction: `{}` to `{}` turns",
                            name(w[0]),
                            name(w[1])
                        ),
                    ));
                }
                let (u, back) = ((u.0 as i8, u.1 as i8), (-u.0 as i8, -u.1 as i8));
                for (from, dir, to) in [(w[0], u, w[1]), (w[1], back, w[0])] {
                    let links = &mut g.next[from as usize];
                    match links.iter().find(|l| l.0 == dir) {
                        Some(&(_, other)) if other != to => {
                            return Err((
                                i,
                                format!(
                                    "`{}` already has a line toward `{}` that way, not `{}`",
                                    name(from),
                                    name(other),
                                    name(to)
                                ),
                            ));
                        }
                        Some(_) => {}
                        None => links.push((dir, to)),
                    }
                }
            }
        }
        g.lines = lines;
        let bit = 1u32 << self.terrain_names.len();
        self.terrain_names.push(OFF_BOARD.into());
        self.blocking |= bit;
        for (c, on) in g.points.iter().enumerate() {
            if !on {
                self.terrain[c] |= bit;
            }
        }
        self.graph = Some(Box::new(g));
        Ok(())
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
    /// On a graph board with lines, a delta of `k` unit steps goes `k`
    /// times to the next point along a line.
    #[inline]
    pub fn offset(&self, cell: Cell, delta: (i8, i8)) -> Option<Cell> {
        if let Some(g) = &self.graph {
            if !g.lines.is_empty() {
                return g.offset(cell, delta);
            }
        }
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
            .filter(|&c| self.is_point(c))
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
                    out.extend(self.cell(f, r).filter(|&c| self.is_point(c)));
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

impl Graph {
    /// Per cell: how a line crosses it when it is not a point, for a text
    /// drawing (`-`, `|`, `/`, `\`), else a space.
    pub fn crossings(&self, board: &Board) -> Vec<char> {
        let mut out = vec![' '; self.points.len()];
        for line in &self.lines {
            for w in line.windows(2) {
                let ((a0, a1), (b0, b1)) = (board.coords(w[0]), board.coords(w[1]));
                let ((dx, dy), k) = unit_steps((b0 - a0, b1 - a1));
                let glyph = match (dx, dy) {
                    (_, 0) => '-',
                    (0, _) => '|',
                    _ if dx == dy => '/',
                    _ => '\\',
                };
                for i in 1..k {
                    if let Some(c) = board.cell(a0 + dx * i, a1 + dy * i) {
                        if !self.points[c as usize] {
                            out[c as usize] = glyph;
                        }
                    }
                }
            }
        }
        out
    }

    #[cold]
    fn offset(&self, cell: Cell, delta: (i8, i8)) -> Option<Cell> {
        let (u, k) = unit_steps((delta.0 as i32, delta.1 as i32));
        let u = (u.0 as i8, u.1 as i8);
        let mut at = cell;
        for _ in 0..k {
            at = self.next.get(at as usize)?.iter().find(|l| l.0 == u)?.1;
        }
        Some(at)
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
