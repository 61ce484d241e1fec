//! Steps and slides as masks: for a kind whose every declared move is a
//! plain step or slide (no lame leap, leap over pieces, screens, landing
//! zone, `when`, cell condition, kind filter or terrain rule of its own),
//! a piece's targets are found with a few operations on 64-bit masks per
//! direction instead of a walk cell by cell: a slide's cells up to its
//! first blocker are the ray less the ray beyond the blocker, and the
//! blocker is one bit scan away. The targets come out as one mask, so in
//! cell order and without repeats, as the general scan lists them after
//! sorting. Only on boards of at most 64 cells where no terrain blocks
//! and every line's cell numbers run one way; held equal to the general
//! scan by the perft counts and by `tests/listing.rs` (through
//! [`crate::engine::Exhaustive`], which turns it off).
//!
//! Changes when what counts as a plain step or slide changes.

use crate::base::state::{KindId, PlayerId};
use crate::engine::quiet::QuietSteps;
use crate::engine::tables::MoveTables;
use crate::rules::variant::{MovePattern, Variant};

/// One pattern of a kind, as masks.
#[derive(Clone, Debug)]
struct Pattern {
    /// It may end on an empty cell, on an enemy.
    empty: bool,
    enemy: bool,
    /// A slide may strike an enemy beyond empty cells (else only next to
    /// it).
    strike_at_range: bool,
    /// Per player: the cells it may start from (`from_zone`), else every cell.
    from: Vec<u64>,
    /// Per owner parity and cell: a step's cells.
    steps: Vec<u64>,
    /// Per owner parity and cell: a slide's rays (the cells it could
    /// cross on an empty board, up to its `max`) with their line.
    rays: Vec<Vec<(u64, u16)>>,
}

/// Per kind (when its moves are all plain steps and slides), its patterns
/// as masks; and per line and cell the whole ray, with the way its cell
/// numbers run.
#[derive(Clone, Debug)]
pub struct SlideMasks {
    cells: usize,
    kinds: Vec<Option<Vec<Pattern>>>,
    /// Per line and cell: every cell further along the line.
    beyond: Vec<Vec<u64>>,
    /// Per line: whether its cell numbers grow.
    up: Vec<bool>,
}

/// Whether every move of the kind is a plain step or slide.
fn plain(kind: &crate::rules::variant::Kind) -> bool {
    kind.barred == 0
        && kind.no_stop == 0
        && !kind.conditioned
        && kind.moves.iter().all(|m| {
            let t = m.target();
            let form = match m {
                MovePattern::Step { lame, .. } => !lame,
                MovePattern::Slide {
                    jump: None,
                    screens: 0,
                    ..
                } => true,
                _ => false,
            };
            form && t.enemy_kinds.is_none() && t.to_zone.is_none() && t.when.is_none()
        })
}

impl SlideMasks {
    /// The masks of the variant's kinds whose moves are all plain steps and
    /// slides, but not only quiet steps (`quiet` has those); `None` when no
    /// kind's are, or the board is too large, has blocking terrain or a
    /// line whose cell numbers turn back.
    pub fn new(v: &Variant, tables: &MoveTables, quiet: Option<&QuietSteps>) -> Option<SlideMasks> {
        let b = &v.board;
        let cells = b.cell_count();
        if cells > 64 || b.blocking != 0 || b.graph.is_some() {
            return None;
        }
        let lines = tables.lines();
        let mut beyond = vec![vec![0u64; cells]; lines];
        let mut up = vec![true; lines];
        for (d, (beyond, up)) in beyond.iter_mut().zip(up.iter_mut()).enumerate() {
            let line = tables.line(d as u16);
            let mut way = None;
            for (c, beyond) in beyond.iter_mut().enumerate() {
                let (mut at, mut ray) = (c, 0u64);
                while let Some(&n) = line.get(at).filter(|&&n| (n as usize) < cells) {
                    if *way.get_or_insert(n as usize > at) != (n as usize > at) {
                        return None;
                    }
                    ray |= 1 << n;
                    at = n as usize;
                }
                *beyond = ray;
            }
            *up = way.unwrap_or(true);
        }
        let players = v.players.len().max(1);
        let kinds: Vec<Option<Vec<Pattern>>> = (v.kinds.iter().enumerate())
            .map(|(k, kind)| {
                let quiet = quiet.is_some_and(|q| q.covers(k));
                (plain(kind) && !quiet && !kind.moves.is_empty()).then(|| {
                    (kind.moves.iter().enumerate())
                        .map(|(pi, m)| pattern(tables, k, pi, m, cells, players))
                        .collect()
                })
            })
            .collect();
        if kinds.iter().all(Option::is_none) {
            return None;
        }
        Some(SlideMasks {
            cells,
            kinds,
            beyond,
            up,
        })
    }

    /// The cells a piece of `kind` of player `p` on `from` may move to, as
    /// a mask, given the occupied cells and the enemies' among them;
    /// `None` when the kind has other moves.
    #[inline]
    pub fn targets(
        &self,
        kind: KindId,
        p: PlayerId,
        from: usize,
        occupied: u64,
        enemy: u64,
    ) -> Option<u64> {
        let patterns = self.kinds.get(kind as usize)?.as_ref()?;
        let at = (p % 2) as usize * self.cells + from;
        let empty = !occupied;
        let mut out = 0u64;
        for pat in patterns {
            if pat.from[p as usize] & (1 << from) == 0 {
                continue;
            }
            let ends = (if pat.empty { empty } else { 0 }) | (if pat.enemy { enemy } else { 0 });
            out |= pat.steps[at] & ends;
            for &(ray, d) in &pat.rays[at] {
                let blockers = ray & occupied;
                if blockers == 0 {
                    if pat.empty {
                        out |= ray;
                    }
                    continue;
                }
                let b = match self.up[d as usize] {
                    true => blockers.trailing_zeros(),
                    false => 63 - blockers.leading_zeros(),
                } as usize;
                let before = ray & !self.beyond[d as usize][b] & !(1 << b);
                if pat.empty {
                    out |= before;
                }
                if pat.enemy && enemy & (1 << b) != 0 && (before == 0 || pat.strike_at_range) {
                    out |= 1 << b;
                }
            }
        }
        Some(out)
    }
}

/// One pattern's masks.
fn pattern(
    tables: &MoveTables,
    k: usize,
    pi: usize,
    m: &MovePattern,
    cells: usize,
    players: usize,
) -> Pattern {
    let t = m.target();
    let all = if cells == 64 {
        u64::MAX
    } else {
        (1u64 << cells) - 1
    };
    let from = (0..players)
        .map(|p| match &t.from_zone {
            Some(z) => z[p].iter().fold(0u64, |m, &c| m | 1 << c),
            None => all,
        })
        .collect();
    let (mut steps, mut rays) = (vec![0u64; 2 * cells], vec![Vec::new(); 2 * cells]);
    let (max, strike_at_range) = match m {
        MovePattern::Slide {
            max,
            strike_at_range,
            ..
        } => (Some(*max), *strike_at_range),
        _ => (None, false),
    };
    for parity in 0..2 {
        for c in 0..cells {
            for &d in tables.dirs(k, pi, parity as PlayerId) {
                let line = tables.line(d);
                match max {
                    None => {
                        if let Some(&to) = line.get(c).filter(|&&n| (n as usize) < cells) {
                            steps[parity * cells + c] |= 1 << to;
                        }
                    }
                    Some(max) => {
                        let (mut at, mut ray) = (c, 0u64);
                        for _ in 0..max {
                            match line.get(at).filter(|&&n| (n as usize) < cells) {
                                Some(&n) => {
                                    ray |= 1 << n;
                                    at = n as usize;
                                }
                                None => break,
                            }
                        }
                        if ray != 0 {
                            rays[parity * cells + c].push((ray, d));
                        }
                    }
                }
            }
        }
    }
    Pattern {
        empty: t.empty,
        enemy: t.enemy,
        strike_at_range,
        from,
        steps,
        rays,
    }
}
