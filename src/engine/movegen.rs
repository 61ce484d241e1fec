//! Movement: the target cells of a piece's declared moves, and whether a
//! player could capture on a cell, from the movement tables built once per
//! variant.

use std::sync::Arc;

use crate::base::geometry::Cell;
use crate::base::state::{GameState, KindId, Piece, PieceId, PlayerId};
use crate::engine::bits::CellMask;
use crate::engine::tables::{AttackTable, MoveTables};
use crate::rules::variant::{Jump, MovePattern, Target, Variant};

/// A variant's declared movement with the tables built from it.
pub struct Moves {
    pub variant: Arc<Variant>,
    /// Reverse movement tables for "could a piece move onto this cell".
    pub attack: AttackTable,
    /// Neighbour tables for move generation.
    pub steps: MoveTables,
    /// The quiet steps of kinds that have only those, as masks.
    pub quiet: Option<crate::engine::quiet::QuietSteps>,
}

impl Moves {
    pub fn new(variant: Arc<Variant>) -> Moves {
        let attack = AttackTable::new(&variant.kinds, &variant.board);
        let steps = MoveTables::new(&variant.kinds, &variant.board);
        let quiet = crate::engine::quiet::QuietSteps::new(&variant, &steps);
        Moves {
            variant,
            attack,
            steps,
            quiet,
        }
    }
}

/// Generates the target cells of one piece's declared moves.
pub(crate) fn piece_moves_on(
    m: &Moves,
    s: &GameState,
    occupant: &[Option<PieceId>],
    id: PieceId,
    from: Cell,
    emit: &mut impl FnMut(Cell),
) {
    let variant = &*m.variant;
    let piece = &s.pieces[id as usize];
    let kind = &variant.kinds[piece.kind as usize];
    let owner = piece.owner;
    let scan = Scan {
        tables: &m.steps,
        occupant,
        terrain: &s.terrain[..],
        blocking: variant.board.blocking | kind.barred,
        pieces: &s.pieces[..],
        owner,
        from,
    };
    if kind.no_stop != 0 {
        // Cells the kind may pass but not stop on.
        let terrain = &s.terrain[..];
        let mut stops = |c: Cell| {
            if terrain[c as usize] & kind.no_stop == 0 {
                emit(c)
            }
        };
        return scan.patterns(s, kind, piece.kind, &mut stops);
    }
    scan.patterns(s, kind, piece.kind, emit)
}

impl Scan<'_> {
    /// Every target of the kind's patterns, from the scan's cell.
    #[inline]
    fn patterns(
        &self,
        s: &GameState,
        kind: &crate::rules::variant::Kind,
        k: KindId,
        emit: &mut impl FnMut(Cell),
    ) {
        let (tables, owner, from, scan) = (self.tables, self.owner, self.from, self);
        for (pi, pat) in kind.moves.iter().enumerate() {
            let dirs = tables.dirs(k as usize, pi, owner);
            let target = match pat {
                MovePattern::Step { target, .. }
                | MovePattern::Slide { target, .. }
                | MovePattern::Path { target, .. } => target,
            };
            if let Some(z) = &target.from_zone {
                if !z[owner as usize].contains(&from) {
                    continue;
                }
            }
            if target.when.as_ref().is_some_and(|w| !w.holds(s, owner)) {
                continue;
            }
            match &target.to_zone {
                Some(zone) => {
                    let zone = &zone[owner as usize];
                    scan.pattern(pat, dirs, &mut |c: Cell| {
                        if zone[c as usize] {
                            emit(c)
                        }
                    })
                }
                None => scan.pattern(pat, dirs, emit),
            }
        }
    }

    /// The targets of one pattern along its directions `dirs`.
    #[inline]
    fn pattern(&self, pat: &MovePattern, dirs: &[u16], emit: &mut impl FnMut(Cell)) {
        match pat {
            MovePattern::Step { target, lame, .. } => self.steps(dirs, target, *lame, emit),
            MovePattern::Slide {
                max,
                target,
                screens: n @ 1..,
                ..
            } => self.hops(dirs, *max, *n, target, emit),
            MovePattern::Slide {
                max,
                strike_at_range,
                target,
                jump,
                ..
            } => self.slides(dirs, *max, *strike_at_range, target, jump.as_ref(), emit),
            MovePattern::Path { steps, target, .. } => self.paths(dirs, *steps, target, emit),
        }
    }
}

/// What generating one piece's moves reads: the movement tables, the
/// board `occupant`, the terrain, the pieces, and the moving piece's owner
/// and cell.
struct Scan<'a> {
    tables: &'a MoveTables,
    occupant: &'a [Option<PieceId>],
    terrain: &'a [u32],
    blocking: u32,
    pieces: &'a [Piece],
    owner: PlayerId,
    from: Cell,
}

impl Scan<'_> {
    #[inline]
    fn piece_at(&self, c: Cell) -> Option<PieceId> {
        self.occupant[c as usize]
    }

    #[inline]
    fn passable(&self, c: Cell) -> bool {
        self.terrain[c as usize] & self.blocking == 0
    }

    /// The enemy on a cell, if any: its kind.
    #[inline]
    fn enemy(&self, c: Cell) -> Option<KindId> {
        self.piece_at(c)
            .map(|o| &self.pieces[o as usize])
            .filter(|o| o.owner != self.owner)
            .map(|o| o.kind)
    }

    /// A step pattern's targets: one step along each of `dirs`, onto an
    /// empty cell or an enemy the pattern strikes.
    #[inline]
    fn steps(&self, dirs: &[u16], target: &Target, lame: bool, emit: &mut impl FnMut(Cell)) {
        let tables = self.tables;
        for &d in dirs {
            let to = tables.line(d)[self.from as usize];
            if to == Cell::MAX || !self.passable(to) {
                continue;
            }
            if lame
                && tables.legs(d).iter().any(|&l| {
                    let c = tables.line(l)[self.from as usize];
                    c == Cell::MAX || !self.passable(c) || self.piece_at(c).is_some()
                })
            {
                continue;
            }
            match self.piece_at(to) {
                None => {
                    if target.empty {
                        emit(to)
                    }
                }
                Some(o) => {
                    let o = &self.pieces[o as usize];
                    if o.owner != self.owner && target.strikes(o.kind) {
                        emit(to)
                    }
                }
            }
        }
    }

    /// A slide pattern's targets: along each of `dirs` through empty cells
    /// (up to `max`), jumping enemies as `jump` allows, and striking the
    /// first enemy met when adjacent or `strike_at_range`.
    #[inline]
    fn slides(
        &self,
        dirs: &[u16],
        max: u8,
        strike_at_range: bool,
        target: &Target,
        jump: Option<&Jump>,
        emit: &mut impl FnMut(Cell),
    ) {
        let tables = self.tables;
        for &d in dirs {
            let line = tables.line(d);
            let mut at = self.from;
            let mut jumps = 0u8;
            let mut dist = 0u32;
            while dist < max as u32 {
                let to = line[at as usize];
                if to == Cell::MAX || !self.passable(to) {
                    break;
                }
                dist += 1;
                match self.piece_at(to) {
                    None => {
                        if target.empty {
                            emit(to);
                        }
                    }
                    Some(_) => {
                        let ek = self.enemy(to);
                        if let (Some(j), Some(k)) = (jump, ek) {
                            let beyond = tables
                                .next(d, to)
                                .filter(|&b| self.passable(b))
                                .filter(|&b| self.piece_at(b).is_none());
                            if jumps < j.max
                                && j.kinds.as_ref().is_none_or(|ks| ks.contains(&k))
                                && beyond.is_some()
                            {
                                jumps += 1;
                                at = to;
                                continue;
                            }
                        }
                        if ek.is_some_and(|k| target.strikes(k))
                            && (dist == 1 || strike_at_range)
                            && jumps == 0
                        {
                            emit(to);
                        }
                        break;
                    }
                }
                at = to;
            }
        }
    }

    /// A slide over `screens` pieces: along each of `dirs` (up to `max`
    /// cells), past exactly `screens` pieces of any owner, onto the empty
    /// cells beyond the last of them or the first piece after it.
    #[inline]
    fn hops(
        &self,
        dirs: &[u16],
        max: u8,
        screens: u8,
        target: &Target,
        emit: &mut impl FnMut(Cell),
    ) {
        let tables = self.tables;
        for &d in dirs {
            let line = tables.line(d);
            let (mut at, mut passed) = (self.from, 0u8);
            for _ in 0..max {
                let to = line[at as usize];
                if to == Cell::MAX || !self.passable(to) {
                    break;
                }
                match self.piece_at(to) {
                    None if passed == screens && target.empty => emit(to),
                    None => {}
                    Some(_) if passed == screens => {
                        if self.enemy(to).is_some_and(|k| target.strikes(k)) {
                            emit(to);
                        }
                        break;
                    }
                    Some(_) => passed += 1,
                }
                at = to;
            }
        }
    }

    /// A path pattern's targets: up to `steps` single steps along `dirs`,
    /// turning freely, through empty cells.
    #[inline]
    fn paths(&self, dirs: &[u16], steps: u8, target: &Target, emit: &mut impl FnMut(Cell)) {
        // The three lists stay with the thread (no allocation per piece);
        // a nested call, should one happen, gets its own.
        PATH_SCRATCH.with(|cell| match cell.try_borrow_mut() {
            Ok(mut lists) => {
                let (frontier, next, seen) = &mut *lists;
                self.paths_in(dirs, steps, target, emit, frontier, next, seen)
            }
            Err(_) => {
                let (mut f, mut n, mut s) = Default::default();
                self.paths_in(dirs, steps, target, emit, &mut f, &mut n, &mut s)
            }
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn paths_in(
        &self,
        dirs: &[u16],
        steps: u8,
        target: &Target,
        emit: &mut impl FnMut(Cell),
        frontier: &mut Vec<Cell>,
        next: &mut Vec<Cell>,
        seen: &mut Vec<Cell>,
    ) {
        let tables = self.tables;
        // Breadth-first over empty cells; the last step may strike.
        frontier.clear();
        frontier.push(self.from);
        seen.clear();
        seen.push(self.from);
        for _ in 0..steps {
            next.clear();
            for &at in frontier.iter() {
                for &d in dirs {
                    let Some(to) = tables.next(d, at) else {
                        continue;
                    };
                    if !self.passable(to) || seen.contains(&to) {
                        continue;
                    }
                    match self.piece_at(to) {
                        None => {
                            seen.push(to);
                            next.push(to);
                            if target.empty {
                                emit(to);
                            }
                        }
                        Some(_) => {
                            if self.enemy(to).is_some_and(|k| target.strikes(k)) {
                                emit(to);
                            }
                        }
                    }
                }
            }
            std::mem::swap(frontier, next);
        }
    }
}

thread_local! {
    /// [`Scan::paths`]'s frontier, next frontier and seen cells.
    static PATH_SCRATCH: std::cell::RefCell<(Vec<Cell>, Vec<Cell>, Vec<Cell>)> =
        Default::default();
}

/// The cells the piece `id` on `from` can move to by its declared moves,
/// sorted and without repeats, into `out`.
pub(crate) fn piece_targets(
    m: &Moves,
    s: &GameState,
    id: PieceId,
    from: Cell,
    out: &mut Vec<Cell>,
) {
    out.clear();
    piece_moves_on(m, s, s.board(), id, from, &mut |to| out.push(to));
    if out.len() > 1 {
        out.sort_unstable();
        out.dedup();
    }
}

/// Whether player `by` could capture the piece on `cell` with a declared move
/// of one of its pieces, on the board `occupant`. (Frozen pieces are not
/// considered; [`Engine::attacked`] asks the rules for them.)
///
/// [`Engine::attacked`]: super::Engine::attacked
pub(crate) fn attacked_on(
    m: &Moves,
    s: &GameState,
    occupant: &[Option<PieceId>],
    cell: Cell,
    by: PlayerId,
) -> bool {
    attacked_except(m, s, occupant, cell, by, &[])
}

/// [`attacked_on`] with `stops`, the cells of `occupant` that hold a piece
/// or whose terrain blocks movement as a mask ([`stops`]): the same
/// answer, found with the attack table's masks when there are some.
#[inline]
pub(crate) fn attacked_masked(
    m: &Moves,
    s: &GameState,
    occupant: &[Option<PieceId>],
    stops: Option<CellMask>,
    cell: Cell,
    by: PlayerId,
) -> bool {
    let (Some(bits), Some(stops)) = (&m.attack.bits, stops) else {
        return attacked_on(m, s, occupant, cell, by);
    };
    let blocking = m.variant.board.blocking;
    bits.any_candidate(
        cell,
        by,
        stops,
        kind_owner(s, occupant),
        |c| s.terrain[c as usize] & blocking != 0,
        |from| occupant[from as usize].is_some_and(|id| reaches(m, s, occupant, id, from, cell)),
    )
}

/// The kind and owner of the piece on a cell of `occupant` (a board of
/// piece ids), as the attack tables' `any_candidate` asks.
pub(crate) fn kind_owner<'a>(
    s: &'a GameState,
    occupant: &'a [Option<PieceId>],
) -> impl Fn(u16) -> Option<(KindId, PlayerId)> + 'a {
    move |c| {
        occupant[c as usize].map(|id| {
            let p = &s.pieces[id as usize];
            (p.kind, p.owner)
        })
    }
}

pub(crate) fn attacked_except(
    m: &Moves,
    s: &GameState,
    occupant: &[Option<PieceId>],
    cell: Cell,
    by: PlayerId,
    frozen: &[Cell],
) -> bool {
    let variant = &*m.variant;
    let board = &variant.board;
    if m.attack.usable {
        return m.attack.any_candidate(
            board,
            cell,
            by,
            kind_owner(s, occupant),
            |c| s.terrain[c as usize] & board.blocking != 0,
            |from| {
                !frozen.contains(&from)
                    && occupant[from as usize]
                        .is_some_and(|id| reaches(m, s, occupant, id, from, cell))
            },
        );
    }
    for (from, slot) in occupant.iter().enumerate() {
        let Some(id) = *slot else { continue };
        if s.pieces[id as usize].owner != by || frozen.contains(&(from as Cell)) {
            continue;
        }
        if reaches(m, s, occupant, id, from as Cell, cell) {
            return true;
        }
    }
    false
}

/// [`reaches`] on a graph board, where a delta is a number of steps along
/// its lines: walks each step and plain slide of the piece to `cell`.
#[cold]
fn reaches_along_lines(
    m: &Moves,
    s: &GameState,
    occupant: &[Option<PieceId>],
    id: PieceId,
    from: Cell,
    cell: Cell,
    ends: &dyn Fn(&Target) -> bool,
) -> bool {
    let board = &m.variant.board;
    let piece = &s.pieces[id as usize];
    for pat in &m.variant.kinds[piece.kind as usize].moves {
        let (deltas, target, max, strike) = match pat {
            MovePattern::Step {
                deltas,
                target,
                lame: false,
            } => (deltas, target, 1, false),
            MovePattern::Slide {
                deltas,
                max,
                strike_at_range,
                target,
                jump: None,
                screens: 0,
                ..
            } => (deltas, target, *max as u32, *strike_at_range),
            MovePattern::Path { .. } => continue,
            _ => {
                // Lame leaps and slides over screens: generate them.
                let mut hit = false;
                piece_moves_on(m, s, occupant, id, from, &mut |to| hit |= to == cell);
                if hit {
                    return true;
                }
                continue;
            }
        };
        if target
            .from_zone
            .as_ref()
            .is_some_and(|z| !z[piece.owner as usize].contains(&from))
        {
            continue;
        }
        for &d in deltas {
            let d = crate::engine::lang::oriented(d, target.relative, piece.owner);
            let mut at = from;
            for k in 1..=max {
                let Some(next) = board.offset(at, d) else {
                    break;
                };
                if next == cell {
                    if ends(target) && (occupant[cell as usize].is_none() || k == 1 || strike) {
                        return true;
                    }
                    break;
                }
                if occupant[next as usize].is_some()
                    || s.terrain[next as usize] & board.blocking != 0
                {
                    break;
                }
                at = next;
            }
        }
    }
    false
}

/// Whether one of the piece's declared moves ends on `cell`: the same answer
/// as generating them all, looking only along the lines that lead there.
pub(crate) fn reaches(
    m: &Moves,
    s: &GameState,
    occupant: &[Option<PieceId>],
    id: PieceId,
    from: Cell,
    cell: Cell,
) -> bool {
    let variant = &*m.variant;
    let piece = &s.pieces[id as usize];
    let kind = &variant.kinds[piece.kind as usize];
    let board = &variant.board;
    let (f0, r0) = board.coords(from);
    let (f1, r1) = board.coords(cell);
    let (dx, dy) = (f1 - f0, r1 - r0);
    let flip = piece.owner % 2 == 1;
    // What stands on `cell` and whether the pattern may end there.
    let ends = |target: &Target| {
        target.lands(piece.owner, cell)
            && match occupant[cell as usize] {
                None => target.empty,
                Some(o) => {
                    let o = &s.pieces[o as usize];
                    o.owner != piece.owner && target.strikes(o.kind)
                }
            }
    };
    if (dx, dy) == (0, 0) || s.terrain[cell as usize] & board.blocking != 0 {
        return false;
    }
    if board.graph.is_some() {
        return reaches_along_lines(m, s, occupant, id, from, cell, &ends);
    }
    for pat in &kind.moves {
        let (MovePattern::Step { target, .. }
        | MovePattern::Slide { target, .. }
        | MovePattern::Path { target, .. }) = pat;
        if let Some(z) = &target.from_zone {
            if !z[piece.owner as usize].contains(&from) {
                continue;
            }
        }
        let dir = |d: &(i8, i8)| {
            if target.relative && flip {
                (d.0 as i32, -(d.1 as i32))
            } else {
                (d.0 as i32, d.1 as i32)
            }
        };
        match pat {
            MovePattern::Step {
                deltas,
                target,
                lame,
            } => {
                if deltas.iter().any(|d| dir(d) == (dx, dy))
                    && ends(target)
                    && (!lame || lame_clear(m, s, occupant, from, (dx, dy)))
                {
                    return true;
                }
            }
            MovePattern::Slide {
                deltas,
                max,
                target,
                jump: None,
                screens: screens @ 1..,
                ..
            } => {
                if hop_reaches(
                    m,
                    s,
                    occupant,
                    from,
                    (dx, dy),
                    deltas.iter().map(dir),
                    *max,
                    *screens,
                ) && ends(target)
                {
                    return true;
                }
            }
            MovePattern::Slide {
                deltas,
                max,
                strike_at_range,
                target,
                jump: None,
                ..
            } => {
                for d in deltas {
                    let (ddx, ddy) = dir(d);
                    // `cell` = from + k * (ddx, ddy) for some k >= 1?
                    let k = match (ddx, ddy) {
                        (0, 0) => continue,
                        (0, _) => dy / ddy,
                        _ => dx / ddx,
                    };
                    if k < 1 || k > *max as i32 || (ddx * k, ddy * k) != (dx, dy) {
                        continue;
                    }
                    let clear = (1..k).all(|i| {
                        let c = board.cell(f0 + ddx * i, r0 + ddy * i).expect("on the line");
                        occupant[c as usize].is_none()
                            && s.terrain[c as usize] & board.blocking == 0
                    });
                    if clear
                        && ends(target)
                        && (occupant[cell as usize].is_none() || k == 1 || *strike_at_range)
                    {
                        return true;
                    }
                }
            }
            _ => {
                // Jumping slides and paths: generate them.
                let mut hit = false;
                piece_moves_on(m, s, occupant, id, from, &mut |to| hit |= to == cell);
                if hit {
                    return true;
                }
            }
        }
    }
    false
}

/// Whether the cells a lame leap by `d` from `from` passes are empty and
/// passable.
fn lame_clear(
    m: &Moves,
    s: &GameState,
    occupant: &[Option<PieceId>],
    from: Cell,
    d: (i32, i32),
) -> bool {
    let board = &m.variant.board;
    let (f0, r0) = board.coords(from);
    crate::rules::variant::lame_legs((d.0 as i8, d.1 as i8)).all(|(x, y)| {
        board.cell(f0 + x as i32, r0 + y as i32).is_some_and(|c| {
            occupant[c as usize].is_none() && s.terrain[c as usize] & board.blocking == 0
        })
    })
}

/// Whether a slide over `screens` pieces along one of `dirs` goes from
/// `from` to `cell` (`d` apart): on its line within `max` cells, nothing
/// blocking, exactly `screens` pieces between.
#[allow(clippy::too_many_arguments)]
fn hop_reaches(
    m: &Moves,
    s: &GameState,
    occupant: &[Option<PieceId>],
    from: Cell,
    (dx, dy): (i32, i32),
    dirs: impl Iterator<Item = (i32, i32)>,
    max: u8,
    screens: u8,
) -> bool {
    let board = &m.variant.board;
    let (f0, r0) = board.coords(from);
    for (ddx, ddy) in dirs {
        let k = match (ddx, ddy) {
            (0, 0) => continue,
            (0, _) => dy / ddy,
            _ => dx / ddx,
        };
        if k < 1 || k > max as i32 || (ddx * k, ddy * k) != (dx, dy) {
            continue;
        }
        let mut passed = 0;
        let mut open = true;
        for i in 1..k {
            let Some(c) = board.cell(f0 + ddx * i, r0 + ddy * i) else {
                open = false;
                break;
            };
            if s.terrain[c as usize] & board.blocking != 0 {
                open = false;
                break;
            }
            passed += occupant[c as usize].is_some() as u8;
        }
        if open && passed == screens {
            return true;
        }
    }
    false
}

/// Marks in `map` every cell where player `by` could capture a piece of
/// kind `victim` standing there, on the board `occupant`, with plain steps
/// and slides (the variants the line shortcut serves): the same answer as
/// [`reaches`] for each cell, found by walking each piece's moves once.
/// Returns false (the map is no good) when a piece has other moves.
pub(crate) fn capture_map(
    m: &Moves,
    s: &GameState,
    occupant: &[Option<PieceId>],
    by: PlayerId,
    victim: KindId,
    map: &mut [bool],
) -> bool {
    let variant = &*m.variant;
    let blocking = variant.board.blocking;
    let terrain = &s.terrain[..];
    let passable = |c: Cell| terrain[c as usize] & blocking == 0;
    let tables = &m.steps;
    for (from, slot) in occupant.iter().enumerate() {
        let Some(id) = *slot else { continue };
        let piece = &s.pieces[id as usize];
        if piece.owner != by {
            continue;
        }
        let from = from as Cell;
        for (pi, pat) in variant.kinds[piece.kind as usize].moves.iter().enumerate() {
            let (MovePattern::Step { target, .. }
            | MovePattern::Slide { target, .. }
            | MovePattern::Path { target, .. }) = pat;
            if !target.strikes(victim) {
                continue;
            }
            let lands = |c: Cell| target.lands(piece.owner, c);
            if let Some(z) = &target.from_zone {
                if !z[piece.owner as usize].contains(&from) {
                    continue;
                }
            }
            let dirs = tables.dirs(piece.kind as usize, pi, piece.owner);
            match pat {
                MovePattern::Step { lame: false, .. } => {
                    for &d in dirs {
                        let to = tables.line(d)[from as usize];
                        // Whatever stands there now, the royal piece would
                        // stand there after its move.
                        if to != Cell::MAX && passable(to) && lands(to) {
                            map[to as usize] = true;
                        }
                    }
                }
                MovePattern::Slide {
                    max,
                    strike_at_range,
                    jump: None,
                    screens: 0,
                    ..
                } => {
                    for &d in dirs {
                        let line = tables.line(d);
                        let mut at = from;
                        for dist in 1..=*max as u32 {
                            let to = line[at as usize];
                            if to == Cell::MAX || !passable(to) {
                                break;
                            }
                            if (dist == 1 || *strike_at_range) && lands(to) {
                                map[to as usize] = true;
                            }
                            if occupant[to as usize].is_some() {
                                break;
                            }
                            at = to;
                        }
                    }
                }
                // Paths, jumping slides, lame leaps and slides over
                // screens: no map (the caller tests moves one by one).
                _ => return false,
            }
        }
    }
    true
}
