//! Sowing (`does: [{ sow: PARAM, ... }]`): a cell counter lifted and
//! dropped one by one along the mover's circuit, then the captures judged
//! on the last cell, the store, and the extra turn. The counts of the
//! circuit are worked on in a plain array, read and written once.

use crate::base::geometry::{Board, Cell};
use crate::base::state::{GameState, PlayerId};
use crate::rules::variant::actions::{Sow, Store, Take};

/// The most cells of a circuit (as the loader allows).
const CIRCUIT_MAX: usize = 256;

/// Sows the counter on `origin` along `mover`'s circuit; nothing when the
/// cell is not on it or holds nothing. Bounded work: whole laps are added
/// at once, however large the count.
pub(super) fn sow(s: &mut GameState, w: &Sow, origin: Cell, mover: PlayerId, board: &Board) {
    let Some(circuit) = w.circuit.get(mover as usize) else {
        return;
    };
    let Some(start) = circuit.iter().position(|&c| c == origin) else {
        return;
    };
    let n = s.cell_counter(&w.counter, origin);
    let len = circuit.len().min(CIRCUIT_MAX);
    if n <= 0 || len < 2 {
        return;
    }
    let mut counts = [0i64; CIRCUIT_MAX];
    for (i, &c) in circuit.iter().take(len).enumerate() {
        counts[i] = s.cell_counter(&w.counter, c);
    }
    let mut before = [0i64; CIRCUIT_MAX];
    before[..len].copy_from_slice(&counts[..len]);
    counts[start] = 0;
    // The cells sown, in order: those after the origin, round to the
    // origin itself unless it is skipped.
    let per_lap = if w.skip_origin { len - 1 } else { len } as i64;
    let (laps, rest) = (n / per_lap, n % per_lap);
    for j in 0..per_lap as usize {
        let i = (start + 1 + j) % len;
        counts[i] += laps + i64::from((j as i64) < rest);
    }
    let last = (start + 1 + ((n - 1) % per_lap) as usize) % len;
    let landed = circuit[last];
    let mine = |z: &Option<Vec<Vec<Cell>>>| {
        z.as_ref()
            .and_then(|z| z.get(mover as usize))
            .is_some_and(|cells| cells.contains(&landed))
    };
    let mut taken = 0i64;
    let mut outside = None;
    if mine(&w.opposite) && counts[last] == 1 {
        if let Some(opp) = opposite(board, landed) {
            match circuit.iter().take(len).position(|&c| c == opp) {
                Some(k) if counts[k] > 0 => {
                    taken = 1 + counts[k];
                    counts[k] = 0;
                    counts[last] = 0;
                }
                Some(_) => {}
                None => {
                    let v = s.cell_counter(&w.counter, opp);
                    if v > 0 {
                        taken = 1 + v;
                        counts[last] = 0;
                        outside = Some(opp);
                    }
                }
            }
        }
    }
    if let Some(t) = &w.take {
        taken += take(t, circuit, &mut counts[..len], last, mover);
    }
    for i in 0..len {
        if counts[i] != before[i] {
            s.set_cell_counter(&w.counter, circuit[i], counts[i]);
        }
    }
    if let Some(c) = outside {
        s.set_cell_counter(&w.counter, c, 0);
    }
    if taken > 0 {
        match &w.store {
            Some(Store::Cell(z)) => {
                if let Some(&c) = z.get(mover as usize).and_then(|c| c.first()) {
                    let v = s.cell_counter(&w.counter, c).saturating_add(taken);
                    s.set_cell_counter(&w.counter, c, v);
                }
            }
            Some(Store::Counter(name)) => {
                let v = s.counter(name, Some(mover)).saturating_add(taken);
                s.set_counter(name, Some(mover), v);
            }
            None => {}
        }
    }
    if mine(&w.again) {
        s.set_hold_turn(true);
    }
}

/// The cell across the board from `c`: the same file, the rank mirrored.
fn opposite(board: &Board, c: Cell) -> Option<Cell> {
    let (f, r) = board.coords(c);
    board.cell(f, board.ranks as i32 - 1 - r)
}

/// A `take` on the circuit's `counts` after the last drop on `last`:
/// what it takes (those cells set to 0), or 0.
fn take(t: &Take, circuit: &[Cell], counts: &mut [i64], last: usize, mover: PlayerId) -> i64 {
    let len = counts.len();
    let theirs = |c: Cell| {
        t.within
            .iter()
            .enumerate()
            .any(|(p, cells)| p != mover as usize && cells.contains(&c))
    };
    let holds = |i: usize| theirs(circuit[i]) && t.counts.contains(&counts[i]);
    // The run of cells taken: `last`, then (going back) those before it.
    let back = |k: usize| (last + len - k) % len;
    let mut run = 0;
    while run < len && holds(back(run)) {
        run += 1;
        if !t.back {
            break;
        }
    }
    if run == 0 {
        return 0;
    }
    let sum: i64 = (0..run).map(|k| counts[back(k)]).sum();
    if t.not_all {
        let all: i64 = (0..len)
            .filter(|&i| theirs(circuit[i]))
            .map(|i| counts[i])
            .sum();
        if sum == all {
            return 0;
        }
    }
    for k in 0..run {
        counts[back(k)] = 0;
    }
    sum
}
