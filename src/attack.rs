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
    /// Per owner parity and step entry: for each cell, the cell a piece
    /// stepping that way must stand on (`NONE` off the board).
    step_from: [Vec<Vec<u16>>; 2],
    /// Per owner parity and slide entry: for each cell, the next cell
    /// walking back against the slide (`NONE` off the board).
    slide_back: [Vec<Vec<u16>>; 2],
}

const NONE: u16 = u16::MAX;

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
        let table = |d: (i8, i8)| -> Vec<u16> {
            (0..board.cell_count() as u16)
                .map(|c| board.offset(c, (-d.0, -d.1)).unwrap_or(NONE))
                .collect()
        };
        for parity in 0..2 {
            t.step_from[parity] = t.steps[parity].iter().map(|e| table(e.0)).collect();
            t.slide_back[parity] = t.slides[parity].iter().map(|e| table(e.0)).collect();
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
        for (i, &(_, set)) in self.steps[parity].iter().enumerate() {
            let from = self.step_from[parity][i][c];
            if from != NONE && mine(from, set) && candidate(from) {
                return true;
            }
        }
        for (i, &(_, set)) in self.slides[parity].iter().enumerate() {
            let back = &self.slide_back[parity][i];
            let mut at = back[c];
            while at != NONE {
                if blocked(at) {
                    break;
                }
                if kind_owner(at).is_some() {
                    if mine(at, set) && candidate(at) {
                        return true;
                    }
                    break;
                }
                at = back[at as usize];
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
