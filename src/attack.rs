//! "Could a piece of player P move onto this cell?" answered from the cell
//! outwards instead of by generating every piece's moves.
//!
//! Built once per variant from the declared movement: for every step delta,
//! the kinds that step that way; for every slide direction, the kinds that
//! slide that way. An attacker with a step `d` can only stand on `cell - d`;
//! one with a (non-jumping) slide along `d` can only be the first piece met
//! walking from `cell` along `-d`. Each candidate found is then confirmed by
//! the exact test (`reaches`), so the answer is the same as generating all
//! moves. Kinds with paths or jumping slides are looked up piece by piece.

use crate::geometry::Board;
use crate::variant::{Kind, MovePattern};

/// A set of kinds as a bit mask (the table is only built for at most 128
/// kinds).
type KindSet = u128;

/// Reverse movement tables for one variant.
#[derive(Clone, Debug, Default)]
pub struct AttackTable {
    /// Per owner parity (0: as declared, 1: relative directions flipped):
    /// step deltas and the kinds that have them.
    steps: [Vec<((i8, i8), KindSet)>; 2],
    /// Per owner parity: slide directions and the kinds that slide along them.
    slides: [Vec<((i8, i8), KindSet)>; 2],
    /// Kinds whose moves are not steps or plain slides (paths, jumping
    /// slides): every such piece is tested.
    others: KindSet,
    /// Whether the table can be used (at most 128 kinds).
    pub usable: bool,
    /// Per owner parity and cell: the cells a stepping attacker could stand
    /// on, with the kinds that step from there.
    step_from: [Vec<Vec<(u16, KindSet)>>; 2],
    /// Per owner parity and cell: the lines a sliding attacker could come
    /// along (the kinds, and a range of `ray_cells`, nearest cell first).
    slide_rays: [Vec<Vec<(KindSet, u32, u32)>>; 2],
    ray_cells: Vec<u16>,
}

fn add(list: &mut Vec<((i8, i8), KindSet)>, d: (i8, i8), kind: usize) {
    match list.iter_mut().find(|e| e.0 == d) {
        Some(e) => e.1 |= 1 << kind,
        None => list.push((d, 1 << kind)),
    }
}

impl AttackTable {
    pub fn new(kinds: &[Kind], board: &Board) -> AttackTable {
        let mut t = AttackTable {
            usable: kinds.len() <= 128,
            ..AttackTable::default()
        };
        if !t.usable {
            return t;
        }
        for (k, kind) in kinds.iter().enumerate() {
            for pat in &kind.moves {
                for parity in 0..2 {
                    match pat {
                        MovePattern::Step { deltas, target } => {
                            for &d in deltas {
                                let d = if target.relative && parity == 1 {
                                    (d.0, -d.1)
                                } else {
                                    d
                                };
                                add(&mut t.steps[parity], d, k);
                            }
                        }
                        MovePattern::Slide {
                            deltas,
                            target,
                            jump: None,
                            ..
                        } => {
                            for &d in deltas {
                                let d = if target.relative && parity == 1 {
                                    (d.0, -d.1)
                                } else {
                                    d
                                };
                                add(&mut t.slides[parity], d, k);
                            }
                        }
                        _ => t.others |= 1 << k,
                    }
                }
            }
        }
        let n = board.cell_count() as u16;
        for parity in 0..2 {
            t.step_from[parity] = (0..n)
                .map(|c| {
                    t.steps[parity]
                        .iter()
                        .filter_map(|&(d, set)| board.offset(c, (-d.0, -d.1)).map(|f| (f, set)))
                        .collect()
                })
                .collect();
            let mut rays = Vec::with_capacity(n as usize);
            for c in 0..n {
                let mut here = Vec::new();
                for &(d, set) in &t.slides[parity].clone() {
                    let start = t.ray_cells.len() as u32;
                    let mut at = c;
                    while let Some(next) = board.offset(at, (-d.0, -d.1)) {
                        t.ray_cells.push(next);
                        at = next;
                    }
                    let len = t.ray_cells.len() as u32 - start;
                    if len > 0 {
                        here.push((set, start, len));
                    }
                }
                rays.push(here);
            }
            t.slide_rays[parity] = rays;
        }
        t
    }

    /// Calls `candidate(from)` for every cell whose piece might reach `cell`
    /// (owned by `by`, of a kind that could), stopping at the first `true`.
    /// `kind_owner(c)` gives the kind and owner of the piece on `c`;
    /// `blocked(c)` whether terrain stops movement through `c`.
    pub fn any_candidate(
        &self,
        board: &Board,
        cell: u16,
        by: u8,
        kind_owner: impl Fn(u16) -> Option<(u16, u8)>,
        blocked: impl Fn(u16) -> bool,
        mut candidate: impl FnMut(u16) -> bool,
    ) -> bool {
        let parity = (by % 2) as usize;
        let c = cell as usize;
        let mine = |c: u16, set: KindSet| {
            kind_owner(c).is_some_and(|(k, o)| o == by && (set >> k) & 1 == 1)
        };
        for &(from, set) in &self.step_from[parity][c] {
            if mine(from, set) && candidate(from) {
                return true;
            }
        }
        for &(set, start, len) in &self.slide_rays[parity][c] {
            for &at in &self.ray_cells[start as usize..(start + len) as usize] {
                if blocked(at) {
                    break;
                }
                if kind_owner(at).is_some() {
                    if mine(at, set) && candidate(at) {
                        return true;
                    }
                    break;
                }
            }
        }
        if self.others != 0 {
            for c in 0..board.cell_count() as u16 {
                if mine(c, self.others) && candidate(c) {
                    return true;
                }
            }
        }
        false
    }
}

/// One of the cells a piece's move may end on: `dist` steps in direction
/// `dir` from its cell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Slot {
    pub to: u16,
    pub dir: u16,
    pub dist: u8,
}

/// Neighbour tables for movement: for every direction a pattern uses (as
/// seen by either owner parity), the next cell from each cell, so that move
/// generation steps by table lookup instead of coordinate arithmetic.
#[derive(Clone, Debug, Default)]
pub struct MoveTables {
    /// Per direction: the next cell from each cell (`u16::MAX` off board).
    next: Vec<Vec<u16>>,
    /// Per kind, per pattern, per owner parity: the direction numbers of
    /// the pattern's deltas, in order.
    dirs: Vec<Vec<[Vec<u16>; 2]>>,
    /// Per kind, per owner parity, per direction: how many cells away the
    /// kind's moves in that direction can end (0: none).
    reach: Vec<[Vec<u8>; 2]>,
    /// Per kind, per owner parity, per cell: at most how many cells the
    /// kind's moves can end on from that cell, on any board (the sum over
    /// directions of its reach, cut at the board's edge).
    span: Vec<[Vec<u16>; 2]>,
    /// Per direction, per cell: how many steps in that direction stay on
    /// the board.
    edge: Vec<Vec<u8>>,
    /// Per kind: whether its moves are one step or non-jumping slide
    /// pattern, from anywhere, in distinct directions, so that a slot of
    /// its span names one move ([`MoveTables::slot`]).
    direct: Vec<bool>,
    /// For direct kinds, per kind and owner parity, per cell: where that
    /// cell's slots start in `slots` (`cells + 1` entries per kind and
    /// parity; empty for other kinds).
    slot_start: Vec<u32>,
    slots: Vec<Slot>,
    cells: usize,
    /// Whether some kind moves by paths (turning steps).
    has_path: bool,
}

impl MoveTables {
    pub fn new(kinds: &[Kind], board: &Board) -> MoveTables {
        let mut t = MoveTables::default();
        let mut seen: Vec<(i8, i8)> = Vec::new();
        let table = |d: (i8, i8)| -> Vec<u16> {
            (0..board.cell_count() as u16)
                .map(|c| board.offset(c, d).unwrap_or(u16::MAX))
                .collect()
        };
        let mut id = |t: &mut MoveTables, d: (i8, i8)| -> u16 {
            if let Some(i) = seen.iter().position(|&e| e == d) {
                return i as u16;
            }
            seen.push(d);
            t.next.push(table(d));
            (seen.len() - 1) as u16
        };
        let mut reaches = Vec::new();
        for kind in kinds {
            let mut per_pattern = Vec::new();
            for pat in &kind.moves {
                let (MovePattern::Step { deltas, target }
                | MovePattern::Slide { deltas, target, .. }
                | MovePattern::Path { deltas, target, .. }) = pat;
                let far = match pat {
                    MovePattern::Step { .. } => 1,
                    MovePattern::Slide { max, .. } => *max,
                    MovePattern::Path { steps, .. } => {
                        t.has_path = true;
                        *steps
                    }
                };
                let mut both: [Vec<u16>; 2] = [Vec::new(), Vec::new()];
                for (parity, list) in both.iter_mut().enumerate() {
                    for &d in deltas {
                        let d = if target.relative && parity == 1 {
                            (d.0, -d.1)
                        } else {
                            d
                        };
                        let n = id(&mut t, d);
                        list.push(n);
                        reaches.push((t.dirs.len(), parity, n, far));
                    }
                }
                per_pattern.push(both);
            }
            t.dirs.push(per_pattern);
        }
        let dirs = t.next.len();
        t.reach = vec![[vec![0; dirs], vec![0; dirs]]; kinds.len()];
        for (kind, parity, d, far) in reaches {
            let r = &mut t.reach[kind][parity][d as usize];
            *r = (*r).max(far);
        }
        let cells = board.cell_count();
        t.cells = cells;
        t.edge = (0..dirs)
            .map(|d| {
                (0..cells)
                    .map(|c| {
                        let mut n = 0u8;
                        let mut at = t.next[d][c];
                        while at != u16::MAX && n < u8::MAX {
                            n += 1;
                            at = t.next[d][at as usize];
                        }
                        n
                    })
                    .collect()
            })
            .collect();
        t.span = (0..kinds.len())
            .map(|k| {
                [0, 1].map(|parity| {
                    (0..cells)
                        .map(|c| {
                            (0..dirs)
                                .map(|d| t.reach[k][parity][d].min(t.edge[d][c]) as u16)
                                .sum()
                        })
                        .collect()
                })
            })
            .collect();
        t.direct = kinds
            .iter()
            .enumerate()
            .map(|(k, kind)| {
                let plain = match kind.moves.as_slice() {
                    [MovePattern::Step { target, .. }] => target.from_zone.is_none(),
                    [MovePattern::Slide { target, jump, .. }] => {
                        target.from_zone.is_none() && jump.is_none()
                    }
                    _ => false,
                };
                plain
                    && t.dirs[k][0]
                        .iter()
                        .all(|dirs| dirs.iter().enumerate().all(|(i, d)| !dirs[..i].contains(d)))
            })
            .collect();
        for k in 0..kinds.len() {
            for parity in 0..2 {
                let first = t.slot_start.len();
                for c in 0..cells {
                    t.slot_start.push(t.slots.len() as u32);
                    if !t.direct[k] {
                        continue;
                    }
                    for d in 0..dirs {
                        let mut at = c as u16;
                        for dist in 1..=t.reach[k][parity][d].min(t.edge[d][c]) {
                            at = t.next[d][at as usize];
                            t.slots.push(Slot {
                                to: at,
                                dir: d as u16,
                                dist,
                            });
                        }
                    }
                }
                t.slot_start.push(t.slots.len() as u32);
                debug_assert_eq!(t.slot_start.len() - first, cells + 1);
            }
        }
        t
    }

    /// Whether slots of the kind's span name its moves one to one (its
    /// moves are one step or non-jumping slide pattern, from anywhere, in
    /// distinct directions).
    #[inline]
    pub fn direct(&self, kind: usize) -> bool {
        self.direct[kind]
    }

    /// For a direct kind: the `r`-th of the cells its moves from `cell`
    /// may end on (`r` below the kind's span there), in direction order,
    /// nearest first.
    #[inline]
    pub fn slot(&self, kind: usize, owner: u8, cell: u16, r: u32) -> Option<Slot> {
        let row = (kind * 2 + (owner % 2) as usize) * (self.cells + 1) + cell as usize;
        let start = *self.slot_start.get(row)?;
        let end = *self.slot_start.get(row + 1)?;
        (start + r < end).then(|| self.slots[(start + r) as usize])
    }

    /// How many steps in direction `dir` from `cell` stay on the board.
    #[inline]
    pub fn edge(&self, dir: u16, cell: u16) -> u8 {
        self.edge[dir as usize][cell as usize]
    }

    /// At most how many cells a kind's declared moves can end on from
    /// `cell`, for an owner, whatever stands on the board (an upper bound:
    /// counting each direction's cells up to its reach and the board's
    /// edge). Moves by paths are not counted.
    #[inline]
    pub fn span(&self, kind: usize, owner: u8, cell: u16) -> u16 {
        self.span[kind][(owner % 2) as usize][cell as usize]
    }

    /// Whether some kind moves by paths of turning steps.
    pub fn has_path(&self) -> bool {
        self.has_path
    }

    /// The direction numbers of a kind's pattern for an owner.
    #[inline]
    pub fn dirs(&self, kind: usize, pattern: usize, owner: u8) -> &[u16] {
        &self.dirs[kind][pattern][(owner % 2) as usize]
    }

    /// The next cell from each cell in direction `dir` (`u16::MAX` off the
    /// board).
    #[inline]
    pub fn line(&self, dir: u16) -> &[u16] {
        &self.next[dir as usize]
    }

    /// The next cell from `cell` in direction `dir`, if on the board.
    #[inline]
    pub fn next(&self, dir: u16, cell: u16) -> Option<u16> {
        let c = self.next[dir as usize][cell as usize];
        (c != u16::MAX).then_some(c)
    }
}
