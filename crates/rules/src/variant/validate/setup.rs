//! The starting position: `setup.zones` (where each player sets up their
//! army) and where `start` (a FEN-like line) was written.
//!
//! Changes when how a game's first position is declared changes.

use super::Ctx;
use crate::base::geometry::{Board, Cell};
use crate::variant::raw::RawVariant;
use crate::variant::Kind;

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

/// `start`'s board field has one rank for each of the board's ranks and
/// each rank as many cells as the board has files: a rank that says more
/// would lose the pieces past its last file, one that says fewer leaves
/// cells unsaid. (The rest of the line, the kinds' codes included, is read
/// when the engine loads.)
pub(super) fn start_ranks(raw: &RawVariant, board: &Board, cx: &mut Ctx) {
    let Some(start) = &raw.start else {
        return;
    };
    cx.from("start");
    let field = start.value.split_whitespace().next().unwrap_or("");
    let field = field.split_once('[').map_or(field, |(b, _)| b);
    let rows: Vec<&str> = field.split('/').collect();
    if rows.len() != board.ranks as usize {
        cx.err_at(
            start.referenced,
            format!(
                "start: the position has {} ranks separated by `/`; this board has {}",
                rows.len(),
                board.ranks
            ),
        );
        return;
    }
    for (i, row) in rows.iter().enumerate() {
        let cells = rank_cells(row);
        if cells != board.files as usize {
            cx.err_at(
                start.referenced,
                format!(
                    "start: rank {} (`{}`) describes {cells} cells; the board has {} files",
                    board.ranks as usize - i,
                    crate::base::limits::escape_controls(row),
                    board.files
                ),
            );
        }
    }
}

/// The cells one rank of a FEN-like line describes: a number for a run of
/// empty cells, one for each piece (a code, with `+` before it or `~`
/// after it, and a stack's `(N)` after that).
fn rank_cells(row: &str) -> usize {
    let mut cells = 0usize;
    let mut chars = row.chars().peekable();
    while let Some(ch) = chars.next() {
        if let Some(d) = ch.to_digit(10) {
            let mut n = d as usize;
            while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                n = n.saturating_mul(10).saturating_add(d as usize);
                chars.next();
            }
            cells = cells.saturating_add(n);
            continue;
        }
        if ch == '+' {
            chars.next();
        }
        chars.next_if_eq(&'~');
        if chars.next_if_eq(&'(').is_some() {
            while chars.next_if(|&c| c != ')').is_some() {}
            chars.next();
        }
        cells += 1;
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::rank_cells;

    #[test]
    fn a_rank_counts_runs_pieces_marks_and_stacks() {
        assert_eq!(rank_cells("8"), 8);
        assert_eq!(rank_cells("M7m"), 9);
        assert_eq!(rank_cells("1m1m1m1m"), 8);
        assert_eq!(rank_cells("+p+R~b12"), 15);
        assert_eq!(rank_cells("C(2)4c(5)1c(3)3C(5)2"), 14);
        assert_eq!(rank_cells(""), 0);
    }
}
