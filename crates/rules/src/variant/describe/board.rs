//! The board section (its size, terrain and zones) and the setup section
//! (the start position, or the zones where armies are set up).
//!
//! Changes when how a board or a game's first position is declared changes.

use super::text::{self, cells, join, player};
use super::Ctx;
use crate::base::geometry::Cell;

/// The board: size, terrain, named zones.
pub(super) fn section(cx: &Ctx) -> String {
    let v = cx.v;
    let b = &v.board;
    let last = (b'a' + b.files.saturating_sub(1)) as char;
    let mut out = format!(
        "## Board\n\nA board of {} files (a–{last}) by {} ranks (1–{}), a1 in the corner at the first player's left.\n",
        b.files, b.ranks, b.ranks
    );
    for (i, name) in b.terrain_names.iter().enumerate() {
        let bit = 1u32 << i;
        let on: Vec<Cell> = (0..b.cell_count() as Cell)
            .filter(|&c| b.terrain[c as usize] & bit != 0)
            .collect();
        let blocks = if b.blocking & bit != 0 {
            " Nothing may enter or cross it."
        } else {
            ""
        };
        let start = if on.is_empty() {
            "no cell at the start".to_string()
        } else {
            cells(b, &on)
        };
        out += &format!("\nTerrain `{name}`: {start}.{blocks}\n");
    }
    if !b.zones.is_empty() {
        out += "\nNamed zones:\n\n";
        for (name, z) in &b.zones {
            out += &format!("- `{name}`: {}\n", cells(b, z));
        }
    }
    out
}

/// The pieces of a FEN-like start line by player: (player, kind, cell),
/// or `None` when the line does not read (the engine reports why).
pub(super) fn start_pieces(cx: &Ctx, fen: &str) -> Option<Vec<(usize, usize, Cell)>> {
    let v = cx.v;
    let b = &v.board;
    let field = fen.split_whitespace().next()?;
    // The board, without the pieces in hand (`[...]`).
    let field = field.split('[').next().unwrap_or(field);
    let rows: Vec<&str> = field.split('/').collect();
    if rows.len() != b.ranks as usize {
        return None;
    }
    let mut out = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let rank = (b.ranks as usize - 1 - i) as i32;
        let (mut file, mut run) = (0i32, 0i32);
        let mut chars = row.chars().peekable();
        while let Some(ch) = chars.next() {
            if let Some(d) = ch.to_digit(10) {
                run = run * 10 + d as i32;
                continue;
            }
            file += std::mem::take(&mut run);
            // A code's mark: `+P` before it, `Q~` after it.
            let (ch, mark) = match ch {
                '+' => (chars.next()?, Some('+')),
                _ => (ch, chars.next_if_eq(&'~').map(|_| '~')),
            };
            let k = v.kinds.iter().position(|k| {
                k.code.map(|c| c.to_ascii_uppercase()) == Some(ch.to_ascii_uppercase())
                    && k.code_mark == mark
            })?;
            out.push((usize::from(ch.is_ascii_lowercase()), k, b.cell(file, rank)?));
            file += 1;
        }
    }
    Some(out)
}

/// The setup: the start position, or where each army is set up.
pub(super) fn setup(cx: &Ctx) -> String {
    let v = cx.v;
    let mut out = String::from("## Setup\n\n");
    if let Some(fen) = &v.start {
        out += &format!("The game starts from the position `{fen}`");
        match start_pieces(cx, fen) {
            Some(p) if p.is_empty() => out += ": an empty board.\n",
            Some(p) => {
                out += ":\n\n";
                for pl in 0..v.players.len().min(2) {
                    let mut by_kind: Vec<String> = Vec::new();
                    for &k in &v.show_order {
                        let at: Vec<Cell> = p
                            .iter()
                            .filter(|x| x.0 == pl && x.1 == k)
                            .map(|x| x.2)
                            .collect();
                        if !at.is_empty() {
                            let name = text::kind(v, k as _);
                            by_kind.push(format!("{name} {}", cells(&v.board, &at)));
                        }
                    }
                    if !by_kind.is_empty() {
                        out += &format!("- {}: {}\n", player(v, pl), by_kind.join("; "));
                    }
                }
            }
            None => out += ".\n",
        }
    }
    if v.setup_zones.iter().any(|z| !z.is_empty()) {
        let each: Vec<String> = v
            .setup_zones
            .iter()
            .enumerate()
            .filter(|(_, z)| !z.is_empty())
            .map(|(p, z)| format!("{} on {}", player(v, p), cells(&v.board, z)))
            .collect();
        out += &format!(
            "Each player arranges their army on their own squares before play: {}.",
            join(&each, "and")
        );
        let army: usize = v.kinds.iter().map(|k| k.count as usize).sum();
        let b = &v.board;
        let free = |z: &[Cell]| {
            z.iter()
                .filter(|&&c| b.terrain[c as usize] & b.blocking == 0)
                .count()
        };
        if v.setup_zones
            .iter()
            .any(|z| !z.is_empty() && free(z) > army)
        {
            out += " An army smaller than its squares leaves the rest empty.";
        }
        out.push('\n');
    }
    let mut more: Vec<&str> = Vec::new();
    if cx.has_hook("setup") {
        more.push("The script sets up the game when it starts (`rules.setup`).");
    }
    if v.start.is_none() && v.setup_zones.iter().all(|z| z.is_empty()) && !cx.has_hook("setup") {
        more.push("The board starts empty.");
    }
    if v.hidden_identities {
        more.push("Identities are hidden: each player sees the kinds of their own pieces only, until the rules show a piece.");
    }
    if !more.is_empty() {
        if !out.ends_with("\n\n") {
            out.push('\n');
        }
        out += &format!("{}\n", more.join(" "));
    }
    out
}
