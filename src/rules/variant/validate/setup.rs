//! The starting position: `setup.zones` (where each player sets up their
//! army) and where `start` (a FEN-like line) was written.
//!
//! Changes when how a game's first position is declared changes.

use super::Ctx;
use crate::base::geometry::{Board, Cell};
use crate::rules::variant::raw::RawVariant;
use crate::rules::variant::Kind;

/// For each player, the cells of their set-up zone (empty when none).
pub(super) fn setup_zones(
    raw: &RawVariant,
    board: &Board,
    players: &[String],
    kinds: &[Kind],
    cx: &mut Ctx,
) -> Vec<Vec<Cell>> {
    let mut setup_zones = vec![Vec::new(); players.len()];
    for (player, zone) in &raw.setup.zones {
        cx.from(&format!("setup.{player}"));
        let Some(pi) = players.iter().position(|p| p == player) else {
            if raw.players.iter().flatten().any(|p| p == player) {
                continue; // a seat left out by the `players` option
            }
            cx.err_at(
                zone.referenced,
                format!(
                    "setup: `{player}` is not a player (players: {})",
                    players.join(", ")
                ),
            );
            continue;
        };
        match board.zone(&zone.value) {
            Some(cells) => {
                let army: u32 = kinds.iter().map(|k| k.count).sum();
                let free = cells
                    .iter()
                    .filter(|&&c| board.terrain[c as usize] & board.blocking == 0)
                    .count();
                if (army as usize) > free {
                    too_large(
                        raw,
                        kinds,
                        player,
                        &zone.value,
                        free,
                        army,
                        zone.referenced,
                        cx,
                    );
                }
                setup_zones[pi] = cells.to_vec();
            }
            None => cx.err_at(
                zone.referenced,
                format!("setup: unknown zone `{}`", zone.value),
            ),
        }
    }
    setup_zones
}

/// An army larger than its zone: placed at the `count:` of a later file
/// than the zone's (a child variant that grew the army caused it), else
/// at the zone.
#[allow(clippy::too_many_arguments)]
fn too_large(
    raw: &RawVariant,
    kinds: &[Kind],
    player: &str,
    zone: &str,
    free: usize,
    army: u32,
    zone_at: serde_saphyr::Location,
    cx: &mut Ctx,
) {
    let zone_file = cx.origins.get(&format!("setup.{player}"));
    let grown = kinds.iter().rev().find_map(|k| {
        let by = cx.origins.set_by(&format!("pieces.{}.count", k.name))?;
        let piece = raw.pieces.get(&k.name)?.as_ref()?;
        (by > zone_file).then_some((k, piece.referenced))
    });
    match grown {
        Some((k, at)) => {
            cx.from(&format!("pieces.{}", k.name));
            let (zone_in, count) = (cx.files[zone_file].clone(), k.count);
            cx.err_at(
                at,
                format!(
                    "piece `{}`: `count: {count}` makes an army of {army}, but setup zone `{zone}` ({zone_in}) has {free} usable cells",
                    k.name
                ),
            );
        }
        None => cx.err_at(
            zone_at,
            format!("setup: zone `{zone}` has {free} usable cells for an army of {army}"),
        ),
    }
}

/// Where `start` was written (file, line, column), for messages.
pub(super) fn start_at(raw: &RawVariant, cx: &Ctx) -> Option<(String, u64, u64)> {
    raw.start.as_ref().map(|st| {
        (
            cx.files[cx.origins.get("start")].clone(),
            st.referenced.line().max(1),
            st.referenced.column().max(1),
        )
    })
}
