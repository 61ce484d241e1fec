//! Whether one piece's declared moves end on a cell ([`reaches`]: the
//! exact test behind the attack table's candidates, looking only along the
//! lines that lead there, lame leaps' passed cells and slides' screens
//! counted), and the cells where a player could capture a royal piece
//! ([`capture_map`], for the self-check shortcut).

use crate::base::geometry::Cell;
use crate::base::state::{GameState, KindId, PieceId, PlayerId};
use crate::movegen::{piece_moves_on, Moves};
use crate::rules::variant::{MovePattern, Target};

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
    let mut asked = false;
    for pat in &m.variant.kinds[piece.kind as usize].moves {
        if pat.target().conditioned() {
            // Conditions on cells: generate the moves, which test them.
            if generated(m, s, occupant, id, (from, cell), &mut asked) {
                return true;
            }
            continue;
        }
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
                if generated(m, s, occupant, id, (from, cell), &mut asked) {
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
            let d = crate::lang::oriented(d, target.relative, piece.owner);
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
                    || s.terrain()[next as usize] & board.blocking != 0
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
    if (dx, dy) == (0, 0) || s.terrain()[cell as usize] & board.blocking != 0 {
        return false;
    }
    if board.graph.is_some() {
        return reaches_along_lines(m, s, occupant, id, from, cell, &ends);
    }
    let mut asked = false;
    for pat in &kind.moves {
        let (MovePattern::Step { target, .. }
        | MovePattern::Slide { target, .. }
        | MovePattern::Path { target, .. }) = pat;
        if let Some(z) = &target.from_zone {
            if !z[piece.owner as usize].contains(&from) {
                continue;
            }
        }
        if target.conditioned() {
            // Conditions on cells: generate the moves, which test them.
            if generated(m, s, occupant, id, (from, cell), &mut asked) {
                return true;
            }
            continue;
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
                strike_at_range,
                target,
                jump: None,
                screens,
                ..
            } => {
                for d in deltas {
                    let Some((k, passed)) = along(m, s, occupant, from, (dx, dy), dir(d), *max)
                    else {
                        continue;
                    };
                    let lands = match *screens {
                        0 => {
                            passed == 0
                                && (occupant[cell as usize].is_none() || k == 1 || *strike_at_range)
                        }
                        n => passed == n,
                    };
                    if lands && ends(target) {
                        return true;
                    }
                }
            }
            _ => {
                // Jumping slides and paths: generate them.
                if generated(m, s, occupant, id, (from, cell), &mut asked) {
                    return true;
                }
            }
        }
    }
    false
}

/// Whether one of the piece's moves, all generated, ends on `cell`: the
/// answer for the piece, not for one pattern, so it is found once per
/// question (`asked`: a second call means the first found none).
fn generated(
    m: &Moves,
    s: &GameState,
    occupant: &[Option<PieceId>],
    id: PieceId,
    (from, cell): (Cell, Cell),
    asked: &mut bool,
) -> bool {
    if std::mem::replace(asked, true) {
        return false;
    }
    let mut hit = false;
    piece_moves_on(m, s, occupant, id, from, &mut |to| hit |= to == cell);
    hit
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
            occupant[c as usize].is_none() && s.terrain()[c as usize] & board.blocking == 0
        })
    })
}

/// Whether `cell`, `d` away from `from`, lies along direction `dd`
/// within `max` cells with no blocking terrain between: how many steps
/// away, and how many pieces stand between.
fn along(
    m: &Moves,
    s: &GameState,
    occupant: &[Option<PieceId>],
    from: Cell,
    (dx, dy): (i32, i32),
    (ddx, ddy): (i32, i32),
    max: u8,
) -> Option<(i32, u8)> {
    let board = &m.variant.board;
    let (f0, r0) = board.coords(from);
    let k = match (ddx, ddy) {
        (0, 0) => return None,
        (0, _) => dy / ddy,
        _ => dx / ddx,
    };
    if k < 1 || k > max as i32 || (ddx * k, ddy * k) != (dx, dy) {
        return None;
    }
    let mut passed = 0u8;
    for i in 1..k {
        let c = board.cell(f0 + ddx * i, r0 + ddy * i)?;
        if s.terrain()[c as usize] & board.blocking != 0 {
            return None;
        }
        passed = passed.saturating_add(occupant[c as usize].is_some() as u8);
    }
    Some((k, passed))
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
    let terrain = s.terrain();
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
            if target.conditioned() {
                return false;
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
