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
                    cx.err_at(
                        zone.referenced,
                        format!(
                            "setup: zone `{}` has {free} usable cells for an army of {army}",
                            zone.value
                        ),
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
