//! The attack table's fast path for boards of at most 64 cells: the board
//! given as a mask of the cells that stop movement (pieces, and terrain
//! that blocks), the cells a stepping attacker could stand on as a mask
//! per kind set, and each line a sliding attacker could come along as a
//! mask whose nearest stopping cell is one bit scan away, instead of a walk
//! cell by cell. Built by [`AttackTable::new`](super::tables::AttackTable::new)
//! when the board is small enough and every kind steps or slides plainly;
//! larger boards use the walk.

use crate::base::geometry::Board;
use crate::lang::oriented;
use crate::rules::variant::{Kind, MovePattern, Target};
use crate::tables::{add, add_slide, KindSet, Slide};

/// A set of cells of a board of at most 64 cells, bit `c` for cell `c`.
pub type CellMask = u64;

/// Per cell: the lines a sliding attacker could come along (the kinds,
/// the slide's direction and most cells, then the line's cells, nearest
/// first).
pub(crate) type Lines<'a> = Vec<Vec<(KindSet, ((i8, i8), u8), &'a [u16])>>;

/// Steps' deltas, or slides' directions and most cells, with their kinds.
type Steps = Vec<((i8, i8), KindSet)>;
type Slides = Vec<Slide>;
/// The kinds found along a step or slide: all of them, those that may
/// capture along it, and those whose capture is certain.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Found {
    all: KindSet,
    striking: KindSet,
    certain: KindSet,
}
/// Per cell, masks of cells with the kinds found there.
type StepMasks = Vec<Vec<(CellMask, Found)>>;
/// Per cell, lines as masks: the kinds, and whether the cells' numbers
/// grow going out.
type SlideMasks = Vec<Vec<(CellMask, Found, bool)>>;

/// Whether a move of this target captures any enemy piece it reaches, from
/// any cell, with nothing to confirm beyond the cells between: it strikes
/// every kind, has no zones and no conditions on cells.
fn captures_plainly(target: &Target) -> bool {
    target.enemy
        && target.enemy_kinds.is_none()
        && target.from_zone.is_none()
        && target.to_zone.is_none()
        && !target.conditioned()
}

/// Per owner parity, the steps and the slides (over no screen) that may
/// capture, with their kinds; `plainly`: only those that capture plainly
/// (steps not lame, slides striking at range or one cell long, targets
/// as [`captures_plainly`] asks), so that a piece found on one needs no
/// confirming. A kind not among the first (its moves along a line only
/// land on empty cells) attacks no piece along it.
fn captures(kinds: &[Kind], plainly: bool) -> [(Steps, Slides); 2] {
    let mut out: [(Steps, Slides); 2] = Default::default();
    for (k, kind) in kinds.iter().enumerate() {
        for pat in &kind.moves {
            let (deltas, target, slide) = match pat {
                MovePattern::Step {
                    deltas,
                    target,
                    lame,
                } if !plainly || !lame => (deltas, target, None),
                MovePattern::Slide {
                    deltas,
                    target,
                    jump: None,
                    screens: 0,
                    max,
                    strike_at_range,
                    ..
                } if !plainly || *strike_at_range || *max == 1 => (deltas, target, Some(*max)),
                _ => continue,
            };
            if !target.enemy || (plainly && !captures_plainly(target)) {
                continue;
            }
            for (parity, (steps, slides)) in out.iter_mut().enumerate() {
                for &d in deltas {
                    let d = oriented(d, target.relative, parity as u8);
                    match slide {
                        None => add(steps, d, k),
                        Some(max) => add_slide(slides, d, max, k),
                    }
                }
            }
        }
    }
    out
}

/// The most cells a board may have for [`AttackBits`].
pub const MASK_CELLS: usize = 64;

/// Reverse movement as masks (see the module's text).
#[derive(Clone, Debug, Default)]
pub struct AttackBits {
    /// Per owner parity and cell: the cells a stepping attacker could stand
    /// on, one mask per set of kinds that step from there (with those of
    /// them that may capture by that step and those whose capture is
    /// certain: [`AttackBits::attacks`]).
    steps: [StepMasks; 2],
    /// Per owner parity and cell: the lines a sliding attacker could come
    /// along (its cells, the kinds that slide along it, those that may
    /// capture along it and those whose capture is certain, and whether the cells' numbers grow going out
    /// from the cell).
    slides: [SlideMasks; 2],
}

impl AttackBits {
    /// From the attack table's lists, per owner parity: the steps with
    /// their kinds, and per cell the lines (the kinds, the slide, then the
    /// cells nearest first); the kinds whose capture is certain found from
    /// `kinds`. `None` when the board is too large or a line's cell numbers
    /// do not run one way.
    pub(crate) fn new(
        kinds: &[Kind],
        board: &Board,
        steps: &[Steps; 2],
        lines: [Lines; 2],
    ) -> Option<AttackBits> {
        let cells = board.cell_count();
        if cells > MASK_CELLS {
            return None;
        }
        let (striking, plain) = (captures(kinds, false), captures(kinds, true));
        let mut bits = AttackBits::default();
        for parity in 0..2 {
            let step_kinds = |list: &Steps, d| list.iter().find(|e| e.0 == d).map_or(0, |e| e.1);
            let slide_kinds = |list: &Slides, d, max| {
                (list.iter())
                    .find(|e| e.0 == d && e.1 == max)
                    .map_or(0, |e| e.2)
            };
            bits.steps[parity] = (0..cells as u16)
                .map(|cell| {
                    let mut groups: Vec<(CellMask, Found)> = Vec::new();
                    for &(d, all) in &steps[parity] {
                        let Some(c) = board.offset(cell, (-d.0, -d.1)) else {
                            continue;
                        };
                        let found = Found {
                            all,
                            striking: step_kinds(&striking[parity].0, d),
                            certain: step_kinds(&plain[parity].0, d),
                        };
                        match groups.iter_mut().find(|g| g.1 == found) {
                            Some(g) => g.0 |= 1 << c,
                            None => groups.push((1 << c, found)),
                        }
                    }
                    groups
                })
                .collect();
            let mut slides = Vec::with_capacity(cells);
            for (c, here) in lines[parity].iter().enumerate() {
                let mut out = Vec::with_capacity(here.len());
                for &(all, (d, max), ray) in here {
                    let found = Found {
                        all,
                        striking: slide_kinds(&striking[parity].1, d, max),
                        certain: slide_kinds(&plain[parity].1, d, max),
                    };
                    let up = ray.windows(2).all(|w| w[0] < w[1]) && ray[0] as usize > c;
                    let down = ray.windows(2).all(|w| w[0] > w[1]) && (ray[0] as usize) < c;
                    if !up && !down {
                        return None;
                    }
                    let mask = ray.iter().fold(0, |m, &x| m | 1 << x);
                    out.push((mask, found, up));
                }
                slides.push(out);
            }
            bits.slides[parity] = slides;
        }
        Some(bits)
    }

    /// Calls `candidate(from)` for every cell whose piece might reach `cell`
    /// (owned by `by`, of a kind that could), stopping at the first `true`,
    /// as [`AttackTable::any_candidate`](super::tables::AttackTable::any_candidate)
    /// does: `stops` holds the cells with a piece and those whose terrain
    /// blocks movement (`blocked`), `by_cells` at least the cells of `by`'s
    /// pieces among them (others are skipped unasked); `kind_owner(c)`
    /// gives the kind and owner of the piece on `c`.
    #[inline]
    pub fn any_candidate(
        &self,
        cell: u16,
        by: u8,
        masks: (CellMask, CellMask),
        kind_owner: impl Fn(u16) -> Option<(u16, u8)>,
        blocked: impl Fn(u16) -> bool,
        candidate: impl FnMut(u16) -> bool,
    ) -> bool {
        let kinds = KindSet::MAX;
        self.any_candidate_of(kinds, cell, by, masks, kind_owner, blocked, candidate)
    }

    /// [`AttackBits::any_candidate`] among the kinds `kinds` only.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn any_candidate_of(
        &self,
        kinds: KindSet,
        cell: u16,
        by: u8,
        (stops, by_cells): (CellMask, CellMask),
        kind_owner: impl Fn(u16) -> Option<(u16, u8)>,
        blocked: impl Fn(u16) -> bool,
        mut candidate: impl FnMut(u16) -> bool,
    ) -> bool {
        let parity = (by % 2) as usize;
        let c = cell as usize;
        let mine = |c: u16, set: KindSet| {
            kind_owner(c).is_some_and(|(k, o)| o == by && (set >> k) & 1 == 1)
        };
        for &(mask, found) in &self.steps[parity][c] {
            let set = found.all & kinds;
            if set == 0 {
                continue;
            }
            let mut m = mask & stops & by_cells;
            while m != 0 {
                let from = m.trailing_zeros() as u16;
                m &= m - 1;
                if mine(from, set) && candidate(from) {
                    return true;
                }
            }
        }
        for &(mask, found, up) in &self.slides[parity][c] {
            let set = found.all & kinds;
            let m = mask & stops;
            if m == 0 || set == 0 {
                continue;
            }
            let at = nearest(m, up);
            if by_cells >> at & 1 == 1 && !blocked(at) && mine(at, set) && candidate(at) {
                return true;
            }
        }
        false
    }

    /// Whether `by` attacks the enemy piece on `cell`, from the masks
    /// alone where they can tell: `Some(true)` when a piece of `by` stands
    /// where a kind's step or slide that captures any piece, from anywhere,
    /// unconditionally, reaches `cell`; `Some(false)` when no piece of `by`
    /// could; `None` when only pieces whose capture needs confirming could
    /// (ask [`AttackBits::any_candidate`]). The caller sees to it that an
    /// enemy of `by` stands on `cell` on terrain that does not block.
    /// `through`: only the lines through one of these cells are looked
    /// along, and no step (all of them: `CellMask::MAX`), for a test of
    /// the lines a move opens. Masks as for [`AttackBits::any_candidate`].
    #[inline]
    pub fn attacks(
        &self,
        cell: u16,
        by: u8,
        (stops, by_cells): (CellMask, CellMask),
        kind_owner: impl Fn(u16) -> Option<(u16, u8)>,
        blocked: impl Fn(u16) -> bool,
        through: CellMask,
    ) -> Option<bool> {
        let parity = (by % 2) as usize;
        let c = cell as usize;
        let mut unsure = false;
        // The piece of `by` on `at` of a kind that may capture along the
        // step or line: certain, unsure, or none.
        let mut attacker = |at: u16, found: Found| match kind_owner(at) {
            Some((k, o)) if o == by && (found.striking >> k) & 1 == 1 => {
                unsure |= (found.certain >> k) & 1 == 0;
                (found.certain >> k) & 1 == 1
            }
            _ => false,
        };
        if through == CellMask::MAX {
            for &(mask, found) in &self.steps[parity][c] {
                let mut m = mask & stops & by_cells;
                while m != 0 {
                    let from = m.trailing_zeros() as u16;
                    m &= m - 1;
                    if attacker(from, found) {
                        return Some(true);
                    }
                }
            }
        }
        for &(mask, found, up) in &self.slides[parity][c] {
            let m = mask & stops;
            if m == 0 || mask & through == 0 {
                continue;
            }
            let at = nearest(m, up);
            if by_cells >> at & 1 == 1 && !blocked(at) && attacker(at, found) {
                return Some(true);
            }
        }
        (!unsure).then_some(false)
    }
}

/// The nearest cell of the non-empty `m` along a line whose cells' numbers
/// grow (`up`) or shrink going out: a piece, or terrain that blocks.
#[inline]
fn nearest(m: CellMask, up: bool) -> u16 {
    if up {
        m.trailing_zeros() as u16
    } else {
        63 - m.leading_zeros() as u16
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use crate::base::geometry::Cell;
    use crate::movegen::{attacked_masked, attacked_on};
    use crate::{Action, Engine};

    /// The masks give the walk's answer for every cell and player along
    /// random games: a bundled 8x8 variant with royal pieces and joint
    /// moves, a small board with blocking terrain and slides of limited
    /// reach, and one whose captures the masks alone cannot confirm.
    #[test]
    fn masks_answer_as_the_walk_does() {
        let names = ["chess", "examples/variants/mini_battle.yaml"];
        // Captures the masks cannot confirm alone: at range only next to
        // the piece, of some kinds only, into a zone only, never forward.
        for name in names
            .into_iter()
            .chain(["tests/variants/unplain_attacks.yaml"])
        {
            let path = crate::base::bundled::root().join(name);
            let path = if name.contains('/') {
                path.to_str().unwrap()
            } else {
                name
            };
            let e = Engine::load(path, &[]).unwrap_or_else(|err| panic!("{err}"));
            assert!(e.moves.attack.bits.is_some(), "{name} has no masks");
            let blocking = e.variant.board.blocking;
            let mut compared = 0;
            let mut attacked = 0;
            for seed in 0..4 {
                let mut s = e.new_game(seed, &[]);
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                for _ in 0..150 {
                    let walls = (s.terrain().iter().enumerate())
                        .filter(|(_, &t)| t & blocking != 0)
                        .fold(0, |m, (c, _)| m | 1 << c);
                    let stops = Some(s.occupied() | walls);
                    for c in 0..s.board().len() as Cell {
                        for q in 0..s.players {
                            let walk = attacked_on(&e.moves, &s, s.board(), c, q);
                            let masked = attacked_masked(&e.moves, &s, s.board(), stops, c, q);
                            assert_eq!(masked, walk, "{name}, seed {seed}, cell {c}, by {q}");
                            compared += 1;
                            attacked += walk as usize;
                        }
                    }
                    let list: Vec<Action> = (e.legal_actions(&s).into_iter())
                        .filter(|a| !a.is_social())
                        .collect();
                    if list.is_empty() || s.outcome.is_some() {
                        break;
                    }
                    let a = list[rng.random_range(0..list.len())];
                    e.apply(&mut s, &a).unwrap();
                }
            }
            assert!(compared > 5_000, "{name}: only {compared} compared");
            assert!(attacked * 10 > compared, "{name}: only {attacked} attacked");
        }
    }
}
