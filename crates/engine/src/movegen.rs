//! Movement: the target cells of a piece's declared moves, and whether a
//! player could capture on a cell, from the movement tables built once per
//! variant.

use std::sync::Arc;

use crate::base::geometry::Cell;
use crate::base::state::{GameState, KindId, Piece, PieceId, PlayerId};
use crate::bits::CellMask;
use crate::rules::variant::actions::Filter;
use crate::rules::variant::{Jump, MovePattern, Target, Variant};
use crate::tables::{AttackTable, MoveTables};

pub(crate) use super::reach::{capture_map, reaches};

/// A variant's declared movement with the tables built from it.
pub struct Moves {
    pub variant: Arc<Variant>,
    /// Reverse movement tables for "could a piece move onto this cell".
    pub attack: AttackTable,
    /// Neighbour tables for move generation.
    pub steps: MoveTables,
    /// The quiet steps of kinds that have only those, as masks.
    pub quiet: Option<crate::quiet::QuietSteps>,
    /// The plain steps and slides of kinds that have only those, as masks
    /// (boards of at most 64 cells, then of at most 128).
    pub slides: Option<crate::slide_masks::SlideMasks>,
    pub wide: Option<crate::slide_masks::WideSlideMasks>,
}

impl Moves {
    pub fn new(variant: Arc<Variant>) -> Moves {
        let attack = AttackTable::new(&variant.kinds, &variant.board);
        let steps = MoveTables::new(&variant.kinds, &variant.board);
        let quiet = crate::quiet::QuietSteps::new(&variant, &steps);
        let slides = crate::slide_masks::Masks::new(&variant, &steps, quiet.as_ref(), false);
        let wide = crate::slide_masks::Masks::new(&variant, &steps, quiet.as_ref(), true);
        Moves {
            slides,
            wide,
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
    let scan = Scan::<false> {
        tables: &m.steps,
        occupant,
        terrain: s.terrain(),
        blocking: variant.board.blocking | kind.barred,
        pieces: &s.pieces[..],
        owner,
        from,
        state: s,
        through: &[],
    };
    if kind.no_stop != 0 {
        // Cells the kind may pass but not stop on.
        let terrain = s.terrain();
        let mut stops = |c: Cell| {
            if terrain[c as usize] & kind.no_stop == 0 {
                emit(c)
            }
        };
        return scan.patterns(s, kind, piece.kind, &mut stops);
    }
    scan.patterns(s, kind, piece.kind, emit)
}

impl<const THROUGH: bool> Scan<'_, THROUGH> {
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
            if kind.conditioned && target.conditioned() {
                self.conditioned(pat, target, dirs, emit);
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

    /// The targets of a pattern with conditions on cells (`where`,
    /// `through`), kept out of the plain patterns' loop.
    #[inline(never)]
    fn conditioned(
        &self,
        pat: &MovePattern,
        target: &Target,
        dirs: &[u16],
        emit: &mut impl FnMut(Cell),
    ) {
        let scan = Scan::<true> {
            tables: self.tables,
            occupant: self.occupant,
            terrain: self.terrain,
            blocking: self.blocking,
            pieces: self.pieces,
            owner: self.owner,
            from: self.from,
            state: self.state,
            through: &target.through,
        };
        scan.pattern(pat, dirs, &mut |c: Cell| {
            if target.lands(self.owner, c) && scan.meets(&target.landing, c) {
                emit(c)
            }
        });
    }

    /// Whether cell `c` passes every one of a move's cell conditions.
    #[inline]
    fn meets(&self, conditions: &[Filter], c: Cell) -> bool {
        (conditions.iter()).all(|f| crate::rules::cells::holds(self.state, (self.owner, &[]), f, c))
    }

    /// Whether the move may pass on beyond cell `c` (its `through`).
    #[inline]
    fn passes(&self, c: Cell) -> bool {
        !THROUGH || self.meets(self.through, c)
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
/// board `occupant`, the terrain, the pieces, the moving piece's owner
/// and cell, the state (for cell conditions) and the pattern's conditions
/// on the cells it passes (`through`; `THROUGH` says whether there are
/// any, so that a plain move tests nothing).
#[derive(Clone, Copy)]
struct Scan<'a, const THROUGH: bool> {
    tables: &'a MoveTables,
    occupant: &'a [Option<PieceId>],
    terrain: &'a [u32],
    blocking: u32,
    pieces: &'a [Piece],
    owner: PlayerId,
    from: Cell,
    state: &'a GameState,
    through: &'a [Filter],
}

impl<const THROUGH: bool> Scan<'_, THROUGH> {
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
                    c == Cell::MAX
                        || !self.passable(c)
                        || self.piece_at(c).is_some()
                        || !self.passes(c)
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
                        if !self.passes(to) {
                            break;
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
                                && self.passes(to)
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
                if !self.passes(to) {
                    break;
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
                            if self.passes(to) {
                                next.push(to);
                            }
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
/// or whose terrain blocks movement as a mask (`stops`): the same
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
    let blocked = |c: Cell| s.terrain()[c as usize] & blocking != 0;
    // The occupant's pieces of `by` are among the state's (a board tried
    // on moves another player's piece, or takes some away).
    let by_cells = s.owned_by(by) | 1u64 << cell;
    let enemy_here = occupant[cell as usize].is_some_and(|id| s.pieces[id as usize].owner != by);
    if enemy_here && !blocked(cell) {
        // Most attackers need no confirming.
        let owner = kind_owner(s, occupant);
        if let Some(hit) = bits.attacks(cell, by, (stops, by_cells), owner, blocked, !0) {
            return hit;
        }
    }
    bits.any_candidate(
        cell,
        by,
        (stops, by_cells),
        kind_owner(s, occupant),
        blocked,
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
            |c| s.terrain()[c as usize] & board.blocking != 0,
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

/// Calls `found(from)` for every piece of player `by` that could capture
/// the piece on `cell` on the board `occupant` (each once), as
/// [`attacked_masked`] asks with `stops` (the cells that stop movement as
/// a mask, when the attack table has masks). A piece may be found twice
/// (a kind that steps and slides the same way). Frozen pieces are not
/// considered.
pub(crate) fn each_attacker(
    m: &Moves,
    s: &GameState,
    occupant: &[Option<PieceId>],
    stops: Option<CellMask>,
    cell: Cell,
    by: PlayerId,
    found: &mut impl FnMut(Cell),
) {
    let board = &m.variant.board;
    let blocked = |c: Cell| s.terrain()[c as usize] & board.blocking != 0;
    let mut hit = |from: Cell| {
        if occupant[from as usize].is_some_and(|id| reaches(m, s, occupant, id, from, cell)) {
            found(from);
        }
        false
    };
    match (&m.attack.bits, stops) {
        (Some(bits), Some(stops)) => {
            let masks = (stops, s.owned_by(by) | 1u64 << cell);
            bits.any_candidate(cell, by, masks, kind_owner(s, occupant), blocked, hit);
        }
        _ if m.attack.usable => {
            m.attack
                .any_candidate(board, cell, by, kind_owner(s, occupant), blocked, hit);
        }
        _ => {
            for (from, slot) in occupant.iter().enumerate() {
                if slot.is_some_and(|id| s.pieces[id as usize].owner == by) {
                    hit(from as Cell);
                }
            }
        }
    }
}
