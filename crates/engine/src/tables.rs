//! The movement tables built once per variant from its declared movement:
//! [`MoveTables`] (neighbours and slots for generating moves) and
//! [`AttackTable`] (reverse movement).
//!
//! The attack table answers "Could a piece of player P move onto this
//! cell?" from the cell outwards instead of by generating every piece's
//! moves. For every step delta, the kinds that step that way; for every
//! slide direction, the kinds that slide that way. An attacker with a step
//! `d` can only stand on `cell - d`; one with a (non-jumping) slide along
//! `d` can only be the first piece met walking from `cell` along `-d`. Each
//! candidate found is then confirmed by the exact test (`reaches`), so the
//! answer is the same as generating all moves. Kinds with paths or jumping
//! slides are looked up piece by piece.

use crate::base::geometry::Board;
use crate::bits::{AttackBits, MASK_CELLS};
use crate::rules::variant::{lame_legs, Kind, MovePattern, Target};

/// A set of kinds as a bit mask (the table is only built for at most 128
/// kinds).
pub(crate) type KindSet = u128;

/// The kinds `kinds` as a [`KindSet`], the 128th bit standing for every
/// kind beyond.
pub(crate) fn kind_set(kinds: impl IntoIterator<Item = usize>) -> KindSet {
    kinds.into_iter().fold(0, |set, k| set | 1 << k.min(127))
}

/// Reverse movement tables for one variant.
#[derive(Clone, Debug, Default)]
pub struct AttackTable {
    /// Per owner parity (0: as declared, 1: relative directions flipped):
    /// step deltas and the kinds that have them.
    steps: [Vec<((i8, i8), KindSet)>; 2],
    /// Per owner parity: slide directions and the kinds that slide along them.
    slides: [Vec<Slide>; 2],
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
    slide_rays: [Vec<Vec<SlideRay>>; 2],
    ray_cells: Vec<u16>,
    /// Per owner parity: the directions of slides over screens, their
    /// number of screens and the kinds that slide so.
    hops: [Vec<Hop>; 2],
    /// Per owner parity and cell: the lines a slide over screens could
    /// come along (the kinds, the screens, and a range of `ray_cells`).
    hop_rays: [Vec<Vec<HopRay>>; 2],
    /// The same as masks, for boards of at most 64 cells where every kind
    /// steps or slides plainly.
    pub bits: Option<AttackBits>,
}

pub(crate) fn add(list: &mut Vec<((i8, i8), KindSet)>, d: (i8, i8), kind: usize) {
    match list.iter_mut().find(|e| e.0 == d) {
        Some(e) => e.1 |= 1 << kind,
        None => list.push((d, 1 << kind)),
    }
}

/// A plain slide: its direction, its most cells, and the kinds that slide
/// so.
pub(crate) type Slide = ((i8, i8), u8, KindSet);

pub(crate) fn add_slide(list: &mut Vec<Slide>, d: (i8, i8), max: u8, kind: usize) {
    match list.iter_mut().find(|e| e.0 == d && e.1 == max) {
        Some(e) => e.2 |= 1 << kind,
        None => list.push((d, max, 1 << kind)),
    }
}

/// A line a plain slide could come along to a cell: the kinds, a range of
/// the table's `ray_cells`, and the slide's direction and most cells.
type SlideRay = (KindSet, u32, u32, ((i8, i8), u8));

/// A slide over screens: its direction, its number of screens, and the
/// kinds that slide so.
type Hop = ((i8, i8), u8, KindSet);

/// A line a slide over screens could come along to a cell: the kinds, the
/// screens, and a range of the table's `ray_cells`.
type HopRay = (KindSet, u8, u32, u32);

fn add_hop(list: &mut Vec<Hop>, d: (i8, i8), screens: u8, kind: usize) {
    match list.iter_mut().find(|e| e.0 == d && e.1 == screens) {
        Some(e) => e.2 |= 1 << kind,
        None => list.push((d, screens, 1 << kind)),
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
                if pat.target().conditioned() {
                    // Conditions on cells: every such piece is tested.
                    t.others |= 1 << k;
                    continue;
                }
                for parity in 0..2 {
                    match pat {
                        MovePattern::Step { deltas, target, .. } => {
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
                            screens,
                            max,
                            ..
                        } => {
                            for &d in deltas {
                                let d = if target.relative && parity == 1 {
                                    (d.0, -d.1)
                                } else {
                                    d
                                };
                                match *screens {
                                    0 => add_slide(&mut t.slides[parity], d, *max, k),
                                    n => add_hop(&mut t.hops[parity], d, n, k),
                                }
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
                for &(d, max, set) in &t.slides[parity].clone() {
                    // The cells a slider of at most `max` cells may stand on.
                    let start = t.ray_cells.len() as u32;
                    let mut at = c;
                    while let Some(next) = board.offset(at, (-d.0, -d.1)) {
                        if t.ray_cells.len() as u32 - start >= max as u32 {
                            break;
                        }
                        t.ray_cells.push(next);
                        at = next;
                    }
                    let len = t.ray_cells.len() as u32 - start;
                    if len > 0 {
                        here.push((set, start, len, (d, max)));
                    }
                }
                rays.push(here);
            }
            t.slide_rays[parity] = rays;
            t.hop_rays[parity] = t.lay_hop_rays(board, parity);
        }
        let hops = t.hops.iter().any(|h| !h.is_empty());
        if t.others == 0 && !hops && (n as usize) <= MASK_CELLS {
            let lines = [0, 1].map(|parity| {
                t.slide_rays[parity]
                    .iter()
                    .map(|here| {
                        here.iter()
                            .map(|&(set, start, len, slide)| {
                                let cells = &t.ray_cells[start as usize..(start + len) as usize];
                                (set, slide, cells)
                            })
                            .collect()
                    })
                    .collect()
            });
            t.bits = AttackBits::new(kinds, board, &t.steps, lines);
        }
        t
    }

    /// Per cell, the lines a slide over screens could come along (see
    /// [`AttackTable::hop_rays`]), their cells laid in `ray_cells`.
    fn lay_hop_rays(&mut self, board: &Board, parity: usize) -> Vec<Vec<HopRay>> {
        let hops = self.hops[parity].clone();
        (0..board.cell_count() as u16)
            .map(|c| {
                let mut here = Vec::new();
                for &(d, screens, set) in &hops {
                    let start = self.ray_cells.len() as u32;
                    let mut at = c;
                    while let Some(next) = board.offset(at, (-d.0, -d.1)) {
                        self.ray_cells.push(next);
                        at = next;
                    }
                    let len = self.ray_cells.len() as u32 - start;
                    if len > 0 {
                        here.push((set, screens, start, len));
                    }
                }
                here
            })
            .collect()
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
        candidate: impl FnMut(u16) -> bool,
    ) -> bool {
        self.any_candidate_of(
            KindSet::MAX,
            board,
            cell,
            by,
            kind_owner,
            blocked,
            candidate,
        )
    }

    /// [`AttackTable::any_candidate`] among the kinds `kinds` only: the
    /// lines no such kind could come along are not walked.
    #[allow(clippy::too_many_arguments)]
    pub fn any_candidate_of(
        &self,
        kinds: KindSet,
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
            if set & kinds != 0 && mine(from, set & kinds) && candidate(from) {
                return true;
            }
        }
        for &(set, start, len, _) in &self.slide_rays[parity][c] {
            let set = set & kinds;
            if set == 0 {
                continue;
            }
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
        for &(set, screens, start, len) in &self.hop_rays[parity][c] {
            let set = set & kinds;
            if set == 0 {
                continue;
            }
            // The piece met after `screens` others, if nothing blocks.
            let mut passed = 0;
            for &at in &self.ray_cells[start as usize..(start + len) as usize] {
                if blocked(at) {
                    break;
                }
                if kind_owner(at).is_some() {
                    if passed == screens {
                        if mine(at, set) && candidate(at) {
                            return true;
                        }
                        break;
                    }
                    passed += 1;
                }
            }
        }
        if self.others & kinds != 0 {
            for c in 0..board.cell_count() as u16 {
                if mine(c, self.others & kinds) && candidate(c) {
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
    pub dir: u8,
    pub dist: u8,
}

/// What a direct kind's one pattern may end on: the pattern's target and
/// whether a slide strikes at range.
#[derive(Clone, Debug)]
pub struct DirectRule {
    pub target: Target,
    pub strike_at_range: bool,
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
    /// Per kind and owner parity: where its rows start in `starts` (kinds
    /// that reach as far in every direction share them).
    row: Vec<[u32; 2]>,
    /// Per row, per cell (and one more): where the cell's slots start in
    /// `slots`, the cells the kind's moves from it may end on.
    starts: Vec<u32>,
    slots: Vec<Slot>,
    /// Per kind: its largest span over cells and owners.
    max_span: Vec<u16>,
    /// Per kind: the shortest distance beyond which its slides reveal it.
    reveal_beyond: Vec<Option<u8>>,
    /// Per kind: its one pattern's target rule, if a slot names one move
    /// ([`MoveTables::direct`]).
    direct: Vec<Option<DirectRule>>,
    /// Whether some kind moves by paths (turning steps).
    has_path: bool,
    /// Per direction: the directions (from the same start) of the cells a
    /// lame leap along it passes ([`lame_legs`]).
    legs: Vec<Vec<u16>>,
    /// Per kind, per owner parity, per cell: at most how many cells its
    /// path patterns can end on (empty for kinds without paths), added to
    /// the span: the cells within the paths' steps, whatever stands there.
    path_span: Vec<[Vec<u16>; 2]>,
}

impl MoveTables {
    pub fn new(kinds: &[Kind], board: &Board) -> MoveTables {
        let mut t = MoveTables::default();
        t.number_directions(kinds, board);
        t.lay_out_slots(kinds.len(), board.cell_count());
        t.path_span = t.path_spans(kinds, board.cell_count());
        t.max_span = t.spans(board.cell_count());
        t.reveal_beyond = kinds
            .iter()
            .map(|kind| {
                kind.moves
                    .iter()
                    .filter_map(|pat| match pat {
                        MovePattern::Slide { reveal_beyond, .. } => *reveal_beyond,
                        _ => None,
                    })
                    .min()
            })
            .collect();
        t.direct = t.direct_rules(kinds);
        t
    }

    /// Numbers the directions the patterns use (as seen by either owner
    /// parity) with their neighbour tables (`next`), and records each
    /// pattern's direction numbers (`dirs`), how far each kind reaches
    /// along each direction (`reach`) and whether some kind has paths.
    fn number_directions(&mut self, kinds: &[Kind], board: &Board) {
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
                let (MovePattern::Step { deltas, target, .. }
                | MovePattern::Slide { deltas, target, .. }
                | MovePattern::Path { deltas, target, .. }) = pat;
                let far = match pat {
                    MovePattern::Step { .. } => 1,
                    MovePattern::Slide { max, .. } => *max,
                    MovePattern::Path { steps, .. } => {
                        self.has_path = true;
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
                        let n = id(self, d);
                        list.push(n);
                        reaches.push((self.dirs.len(), parity, n, far));
                    }
                }
                per_pattern.push(both);
            }
            self.dirs.push(per_pattern);
        }
        // The cells lame leaps pass, as directions of their own.
        let mut legs = Vec::new();
        for (k, kind) in kinds.iter().enumerate() {
            for (pi, pat) in kind.moves.iter().enumerate() {
                let MovePattern::Step {
                    deltas,
                    target,
                    lame: true,
                } = pat
                else {
                    continue;
                };
                for parity in 0..2 {
                    for (i, &d) in deltas.iter().enumerate() {
                        let d = if target.relative && parity == 1 {
                            (d.0, -d.1)
                        } else {
                            d
                        };
                        let mine: Vec<u16> = lame_legs(d).map(|l| id(self, l)).collect();
                        legs.push((self.dirs[k][pi][parity][i], mine));
                    }
                }
            }
        }
        let dirs = self.next.len();
        self.legs = vec![Vec::new(); dirs];
        for (d, mine) in legs {
            self.legs[d as usize] = mine;
        }
        self.reach = vec![[vec![0; dirs], vec![0; dirs]]; kinds.len()];
        for (kind, parity, d, far) in reaches {
            let r = &mut self.reach[kind][parity][d as usize];
            *r = (*r).max(far);
        }
    }

    /// Lays out the slots (`row`, `starts`, `slots`): one row of slots per
    /// distinct reach (per kind and parity), in each row every cell's slots,
    /// directions in order, nearest first, up to the reach and the edge.
    fn lay_out_slots(&mut self, kinds: usize, cells: usize) {
        let dirs = self.next.len();
        // Per direction, per cell: how many steps that way stay on the board.
        let edge: Vec<Vec<u8>> = (0..dirs)
            .map(|d| {
                (0..cells)
                    .map(|c| {
                        let mut n = 0u8;
                        let mut at = self.next[d][c];
                        while at != u16::MAX && n < u8::MAX {
                            n += 1;
                            at = self.next[d][at as usize];
                        }
                        n
                    })
                    .collect()
            })
            .collect();
        // One row of slots per distinct reach (per kind and parity).
        let mut rows: Vec<Vec<u8>> = Vec::new();
        for k in 0..kinds {
            let mut pair = [0u32; 2];
            for (parity, base) in pair.iter_mut().enumerate() {
                let reach = &self.reach[k][parity];
                let i = match rows.iter().position(|r| r == reach) {
                    Some(i) => i,
                    None => {
                        rows.push(reach.clone());
                        rows.len() - 1
                    }
                };
                *base = (i * (cells + 1)) as u32;
            }
            self.row.push(pair);
        }
        for reach in &rows {
            for c in 0..cells {
                self.starts.push(self.slots.len() as u32);
                for (d, (&far, steps)) in reach.iter().zip(&edge).enumerate() {
                    let mut at = c as u16;
                    for dist in 1..=far.min(steps[c]) {
                        at = self.next[d][at as usize];
                        self.slots.push(Slot {
                            to: at,
                            dir: d as u8,
                            dist,
                        });
                    }
                }
            }
            self.starts.push(self.slots.len() as u32);
        }
    }

    /// Per kind: its largest span over the `cells` and both owner parities.
    fn spans(&self, cells: usize) -> Vec<u16> {
        (0..self.row.len())
            .map(|k| {
                (0..cells as u16)
                    .flat_map(|c| [self.span(k, 0, c), self.span(k, 1, c)])
                    .max()
                    .unwrap_or(0)
            })
            .collect()
    }

    /// [`MoveTables::path_span`]'s table: per kind with path patterns, per
    /// parity and cell, the cells each path pattern reaches within its
    /// steps on an empty board, summed over the patterns.
    fn path_spans(&self, kinds: &[Kind], cells: usize) -> Vec<[Vec<u16>; 2]> {
        kinds
            .iter()
            .enumerate()
            .map(|(k, kind)| {
                let mut out: [Vec<u16>; 2] = Default::default();
                for (pi, pat) in kind.moves.iter().enumerate() {
                    let MovePattern::Path { steps, .. } = pat else {
                        continue;
                    };
                    for (parity, counts) in out.iter_mut().enumerate() {
                        counts.resize(cells, 0);
                        let dirs = &self.dirs[k][pi][parity];
                        for (c, n) in counts.iter_mut().enumerate() {
                            *n += self.reachable(dirs, *steps, c as u16);
                        }
                    }
                }
                out
            })
            .collect()
    }

    /// How many cells lie within `steps` steps of `from` along `dirs`
    /// (turning allowed), `from` itself not counted.
    fn reachable(&self, dirs: &[u16], steps: u8, from: u16) -> u16 {
        let mut seen = vec![from];
        let mut frontier = vec![from];
        for _ in 0..steps {
            let mut next = Vec::new();
            for &at in &frontier {
                for &d in dirs {
                    let to = self.next[d as usize][at as usize];
                    if to != u16::MAX && !seen.contains(&to) {
                        seen.push(to);
                        next.push(to);
                    }
                }
            }
            frontier = next;
        }
        (seen.len() - 1) as u16
    }

    /// Per kind: its one pattern's target rule when its slots name its
    /// moves one to one (see [`MoveTables::direct`]).
    fn direct_rules(&self, kinds: &[Kind]) -> Vec<Option<DirectRule>> {
        let dirs = self.next.len();
        kinds
            .iter()
            .enumerate()
            .map(|(k, kind)| {
                let rule = match kind.moves.as_slice() {
                    [MovePattern::Step {
                        target,
                        lame: false,
                        ..
                    }] => DirectRule {
                        target: target.clone(),
                        strike_at_range: false,
                    },
                    [MovePattern::Slide {
                        target,
                        jump: None,
                        screens: 0,
                        strike_at_range,
                        ..
                    }] => DirectRule {
                        target: target.clone(),
                        strike_at_range: *strike_at_range,
                    },
                    _ => return None,
                };
                let distinct = self.dirs[k][0]
                    .iter()
                    .all(|dirs| dirs.iter().enumerate().all(|(i, d)| !dirs[..i].contains(d)));
                let anywhere = rule.target.from_zone.is_none()
                    && rule.target.to_zone.is_none()
                    && !rule.target.conditioned();
                (anywhere && distinct && dirs <= 256).then_some(rule)
            })
            .collect()
    }

    /// The target rule of a kind whose slots name its moves one to one
    /// (its moves are one step or non-jumping slide pattern, from
    /// anywhere, in distinct directions), else `None`.
    #[inline]
    pub fn direct(&self, kind: usize) -> Option<&DirectRule> {
        self.direct[kind].as_ref()
    }

    /// The `r`-th of the cells a kind's moves from `cell` may end on (`r`
    /// below [`MoveTables::span`]), directions in order, nearest first.
    #[inline]
    pub fn slot(&self, kind: usize, owner: u8, cell: u16, r: u32) -> Option<Slot> {
        let row = self.row[kind][(owner % 2) as usize] as usize + cell as usize;
        let start = self.starts[row];
        let end = self.starts[row + 1];
        (start + r < end).then(|| self.slots[(start + r) as usize])
    }

    /// At most how many cells a kind's declared moves can end on from
    /// `cell`, for an owner, whatever stands on the board (an upper bound:
    /// counting each direction's cells up to its reach and the board's
    /// edge; a path pattern counts every cell within its steps).
    #[inline]
    pub fn span(&self, kind: usize, owner: u8, cell: u16) -> u16 {
        let parity = (owner % 2) as usize;
        let row = self.row[kind][parity] as usize + cell as usize;
        let paths = self.path_span[kind][parity]
            .get(cell as usize)
            .copied()
            .unwrap_or(0);
        (self.starts[row + 1] - self.starts[row]) as u16 + paths
    }

    /// The largest [`MoveTables::span`] of a kind, over all cells and
    /// owners.
    #[inline]
    pub fn max_span(&self, kind: usize) -> u16 {
        self.max_span[kind]
    }

    /// How far a kind's slide may go unseen: a slide of more cells reveals
    /// the piece to everyone (the least `reveal_beyond` of its slides).
    #[inline]
    pub fn reveal_beyond(&self, kind: usize) -> Option<u8> {
        self.reveal_beyond[kind]
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

    /// The directions of the cells a lame leap along `dir` passes.
    #[inline]
    pub fn legs(&self, dir: u16) -> &[u16] {
        &self.legs[dir as usize]
    }

    /// The next cell from each cell in direction `dir` (`u16::MAX` off the
    /// board).
    #[inline]
    pub fn line(&self, dir: u16) -> &[u16] {
        &self.next[dir as usize]
    }

    /// How many lines (directions as the tables number them) there are.
    #[inline]
    pub fn lines(&self) -> usize {
        self.next.len()
    }

    /// The next cell from `cell` in direction `dir`, if on the board.
    #[inline]
    pub fn next(&self, dir: u16, cell: u16) -> Option<u16> {
        let c = self.next[dir as usize][cell as usize];
        (c != u16::MAX).then_some(c)
    }
}

#[cfg(test)]
mod tests {
    use crate::movegen::{attacked_on, piece_targets};
    use crate::Engine;
    use rand::SeedableRng;

    /// The attack table's answer (candidates from the cell outwards, each
    /// confirmed by `reaches`) equals generating every move of the
    /// attacker's pieces, on positions of random games of variants with
    /// lame leaps, slides over screens and moves confined to zones.
    #[test]
    fn the_attack_table_answers_as_generating_every_move() {
        let e = Engine::load(
            crate::base::bundled::root()
                .join("tests/variants/xiangqi.yaml")
                .to_str()
                .unwrap(),
            &[],
        )
        .unwrap();
        let mut out = Vec::new();
        let mut tried = 0;
        for seed in 0..6 {
            let mut s = e.new_game(seed, &[]);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            for _ in 0..60 {
                let cells = s.board().len() as u16;
                for by in 0..2 {
                    let mut reach = vec![false; cells as usize];
                    for from in 0..cells {
                        let Some(id) = s.board()[from as usize] else {
                            continue;
                        };
                        if s.pieces[id as usize].owner == by {
                            piece_targets(&e.moves, &s, id, from, &mut out);
                            out.iter().for_each(|&c| reach[c as usize] = true);
                        }
                    }
                    for cell in 0..cells {
                        let own = s.board()[cell as usize]
                            .is_some_and(|id| s.pieces[id as usize].owner == by);
                        if !own {
                            let got = attacked_on(&e.moves, &s, s.board(), cell, by);
                            assert_eq!(got, reach[cell as usize], "seed {seed} cell {cell}");
                            tried += 1;
                        }
                    }
                }
                if e.random_playout(&mut s, &mut rng, 1).unwrap() == 0 {
                    break;
                }
            }
        }
        assert!(tried > 10_000, "{tried}");
    }
}
