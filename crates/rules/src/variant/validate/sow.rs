//! Checking a declared action's sowing (`does: [{ sow: PARAM, ... }]`):
//! its circuit and the zones it names, resolved per player, with errors at
//! the item's line and column.
//!
//! Changes when sowing's vocabulary grows.

use super::player_zones;
use crate::base::geometry::Board;
use crate::variant::actions::{PerPlayer, Sow, Store, Take};
use crate::variant::raw::RawDoes;

/// The most cells of a circuit.
const CIRCUIT_MAX: usize = 256;

/// Whether any key that belongs to `sow` alone is given.
pub(super) fn has_sow_keys(d: &RawDoes) -> bool {
    d.circuit.is_some()
        || d.skip_origin.is_some()
        || d.again.is_some()
        || d.store.is_some()
        || d.score.is_some()
        || d.opposite.is_some()
        || d.take.is_some()
        || d.back.is_some()
        || d.within.is_some()
        || d.not_all.is_some()
}

/// The board and the players, which a sowing's zones are resolved by.
pub(super) type Where<'a> = (&'a Board, &'a [String]);

/// A `sow` item (`from`: its parameter's index), or `None` after
/// reporting what is wrong with it through `fail`.
pub(super) fn sow(
    d: &RawDoes,
    from: usize,
    (board, players): Where,
    fail: &mut dyn FnMut(String),
) -> Option<Sow> {
    let zone = |z: &str, what: &str, fail: &mut dyn FnMut(String)| -> Option<PerPlayer> {
        let found = player_zones(board, players, z);
        if found.is_none() {
            fail(format!("`{what}: {z}` names no zone of the board"));
        }
        found
    };
    let Some(counter) = d.counter.clone() else {
        fail("`sow` needs `counter: NAME` (the cell counter sown)".into());
        return None;
    };
    let Some(c) = &d.circuit else {
        fail("`sow` needs `circuit: ZONE` (the cells in sowing order)".into());
        return None;
    };
    let circuit = zone(c, "circuit", fail)?;
    for cells in &circuit {
        let mut seen = cells.clone();
        seen.sort_unstable();
        seen.dedup();
        if cells.len() < 2 || cells.len() > CIRCUIT_MAX || seen.len() != cells.len() {
            fail(format!(
                "`circuit: {c}`: expected 2 to {CIRCUIT_MAX} cells, each once"
            ));
            return None;
        }
    }
    if d.score.is_some() && d.store.is_some() {
        fail("give `store: ZONE` or `score: COUNTER`, not both".into());
        return None;
    }
    let store = match (&d.store, &d.score) {
        (Some(z), _) => Some(Store::Cell(zone(z, "store", fail)?)),
        (_, Some(n)) => Some(Store::Counter(n.clone())),
        _ => None,
    };
    if store.is_none() && (d.opposite.is_some() || d.take.is_some()) {
        fail(
            "`opposite` and `take` need `store: ZONE` or `score: COUNTER` (where taken counts go)"
                .into(),
        );
        return None;
    }
    if let (Some(Store::Cell(cells)), Some(z)) = (&store, &d.store) {
        if cells.iter().any(|c| c.is_empty()) {
            fail(format!("`store: {z}`: a player's zone has no cell"));
            return None;
        }
    }
    let opposite = match &d.opposite {
        Some(z) => Some(zone(z, "opposite", fail)?),
        None => None,
    };
    let again = match &d.again {
        Some(z) => Some(zone(z, "again", fail)?),
        None => None,
    };
    Some(Sow {
        from,
        counter,
        circuit,
        skip_origin: d.skip_origin.unwrap_or(false),
        again,
        store,
        opposite,
        take: take(d, &zone, fail)?,
    })
}

/// Resolves a zone a sowing names (the zone, the key naming it), reporting
/// an unknown one.
type ZoneOf<'a> = dyn Fn(&str, &str, &mut dyn FnMut(String)) -> Option<PerPlayer> + 'a;

/// A sowing's `take` with `back`, `within` and `not_all`: `Some(None)`
/// when there is none.
fn take(d: &RawDoes, zone: &ZoneOf<'_>, fail: &mut dyn FnMut(String)) -> Option<Option<Take>> {
    let Some(counts) = &d.take else {
        if d.back.is_some() || d.within.is_some() || d.not_all.is_some() {
            fail("`back`, `within` and `not_all` go with `take`".into());
            return None;
        }
        return Some(None);
    };
    if counts.is_empty() || counts.len() > 16 || counts.iter().any(|&n| n < 1) {
        fail("`take`: expected 1 to 16 counts, each at least 1 (`take: [2, 3]`)".into());
        return None;
    }
    let Some(w) = &d.within else {
        fail("`take` needs `within: ZONE` (the cells where counts are taken)".into());
        return None;
    };
    Some(Some(Take {
        counts: counts.clone(),
        back: d.back.unwrap_or(false),
        within: zone(w, "within", fail)?,
        not_all: d.not_all.unwrap_or(false),
    }))
}

/// A cell counter that an action sows starts at 0 or more on every cell
/// (`board.counts`): a sowing lifts a cell's count and drops it one by
/// one, which a negative count cannot mean.
pub(super) fn sown_counts_not_negative(
    raw: &crate::variant::raw::RawVariant,
    declared: &[crate::variant::actions::ActionDecl],
    cx: &mut super::Ctx,
) {
    use crate::variant::actions::Does;
    for (counter, by_zone) in &raw.board.counts {
        let Some(action) = declared.iter().find(|a| {
            a.does
                .iter()
                .any(|d| matches!(d, Does::Sow(w) if w.counter == *counter))
        }) else {
            continue;
        };
        cx.from(&format!("counts.{counter}"));
        for (zone, &value) in by_zone.value.iter().filter(|(_, &v)| v < 0) {
            cx.err_at(
                by_zone.referenced,
                format!(
                    "counts.{counter}.{zone}: {value}: `{counter}` is sown (actions.{}), so it starts at 0 or more",
                    action.name
                ),
            );
        }
    }
}
