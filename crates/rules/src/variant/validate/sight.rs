//! `sight:`, the variant's and each kind's: what a player's pieces see.
//!
//! Changes when a sight declaration gains or loses a key.

use super::Ctx;
use crate::base::geometry::Board;
use crate::variant::raw::{RawSight, RawVariant};
use crate::variant::sight::{KindSight, Sight};
use crate::variant::Kind;

/// The variant's sight, `None` when it declares none (everyone sees every
/// cell). A kind's `sight:` without the variant's is an error.
pub(super) fn sight(
    raw: &RawVariant,
    board: &Board,
    players: &[String],
    kinds: &[Kind],
    cx: &mut Ctx,
) -> Option<Sight> {
    let Some(top) = &raw.sight else {
        if let Some((name, _)) = raw
            .pieces
            .iter()
            .find(|(_, p)| p.as_ref().is_some_and(|p| p.value.sight.is_some()))
        {
            cx.from(&format!("pieces.{name}"));
            cx.err_top(format!(
                "piece `{name}`: `sight:` needs the variant's own `sight:` (the fog of war)"
            ));
        }
        return None;
    };
    cx.from("sight");
    let base = kind_sight(&RawSight::default(), top, board, "sight", cx);
    let mut out = Sight {
        kinds: Vec::with_capacity(kinds.len()),
        zones: vec![Vec::new(); players.len()],
        passed: top.passed.unwrap_or(false),
    };
    if top.passed == Some(true) && raw.rules.bookkeeping.passing.is_none() {
        cx.err_top("sight.passed: needs `rules.bookkeeping.passing` (the cell a piece passes)");
    }
    for k in kinds {
        let own = raw
            .pieces
            .get(&k.name)
            .and_then(|p| p.as_ref())
            .and_then(|p| p.value.sight.clone());
        match own {
            Some(own) => {
                if own.zones.is_some() || own.passed.is_some() {
                    cx.err_top(format!(
                        "piece `{}`: `sight.zones` and `sight.passed` belong to the variant's `sight:`",
                        k.name
                    ));
                }
                let at = format!("pieces.{}.sight", k.name);
                out.kinds.push(kind_sight(&own, top, board, &at, cx));
            }
            None => out.kinds.push(base.clone()),
        }
    }
    for z in top.zones.iter().flatten() {
        match board.zone(z) {
            Some(cells) => out.zones.iter_mut().for_each(|c| c.extend(cells)),
            None => {
                let mut found = false;
                for (p, name) in players.iter().enumerate() {
                    if let Some(cells) = board.zone(&format!("{name}_{z}")) {
                        out.zones[p].extend(cells);
                        found = true;
                    }
                }
                if !found {
                    cx.err_top(format!(
                        "sight.zones: no zone `{z}` (nor `<player>_{z}`) on the board"
                    ));
                }
            }
        }
    }
    for z in &mut out.zones {
        z.sort_unstable();
        z.dedup();
    }
    Some(out)
}

/// One kind's sight: its own keys, else the variant's, else the defaults.
fn kind_sight(own: &RawSight, top: &RawSight, board: &Board, at: &str, cx: &mut Ctx) -> KindSight {
    let lines = match own.lines.as_ref().or(top.lines.as_ref()) {
        None => Vec::new(),
        Some(name) => match board.directions(name) {
            Some(d) if !d.relative => d.deltas.clone(),
            Some(_) => {
                cx.err_top(format!(
                    "{at}.lines: `{name}` depends on the player; name a set of the board's own directions"
                ));
                Vec::new()
            }
            None => {
                cx.err_top(format!("{at}.lines: no direction set `{name}`"));
                Vec::new()
            }
        },
    };
    KindSight {
        occupied: own.occupied.or(top.occupied).unwrap_or(true),
        moves: own.moves.or(top.moves).unwrap_or(false),
        radius: own.radius.or(top.radius).unwrap_or(0),
        lines,
        range: own.range.or(top.range).unwrap_or(0),
    }
}
