//! Small pieces of wording every part of the summary shares: lists in
//! prose, names of players, kinds, cells, zones and direction sets.
//!
//! Changes when the summary's way of naming a thing changes.

use crate::base::geometry::{builtin_directions, Board, Cell};
use crate::base::state::KindId;
use crate::variant::Variant;

/// `a`, `a and b`, `a, b and c` (`and` is the last joint: `and`, `or`).
pub(super) fn join(items: &[String], and: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} {and} {last}", rest.join(", ")),
    }
}

/// The text with its first letter in upper case.
pub(super) fn capital(text: &str) -> String {
    let mut c = text.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// A player's name as a sentence shows it (`White`).
pub(super) fn player(v: &Variant, p: usize) -> String {
    capital(v.players.get(p).map_or("?", |s| s.as_str()))
}

/// A kind's display name (`Long Leaper`).
pub(super) fn kind(v: &Variant, k: KindId) -> String {
    v.kinds
        .get(k as usize)
        .map_or_else(|| "?".to_string(), |k| k.display.clone())
}

/// Kinds' names joined with `joint` (`a Queen, Rook or Bishop`).
pub(super) fn kinds(v: &Variant, ks: &[KindId], joint: &str) -> String {
    let names: Vec<String> = ks.iter().map(|&k| kind(v, k)).collect();
    join(&names, joint)
}

/// A cell set as short as it reads: a rectangle `a1–j4`, else its
/// runs along the ranks (`a1–f1, a2, f2`), in board order.
pub(super) fn cells(board: &Board, cells: &[Cell]) -> String {
    if cells.is_empty() {
        return "no cells".into();
    }
    let mut sorted = cells.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let (f0, r0) = board.coords(sorted[0]);
    let r1 = board.coords(*sorted.last().unwrap()).1;
    let (fa, fb) = sorted
        .iter()
        .map(|&c| board.coords(c).0)
        .fold((f0, f0), |(a, b), f| (a.min(f), b.max(f)));
    let area = ((fb - fa + 1) * (r1 - r0 + 1)) as usize;
    if sorted.len() > 1 && area == sorted.len() {
        let lo = board.cell(fa, r0).unwrap_or(sorted[0]);
        let hi = board.cell(fb, r1).unwrap_or(sorted[0]);
        return format!("{}–{}", board.cell_name(lo), board.cell_name(hi));
    }
    let mut runs: Vec<String> = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j + 1 < sorted.len()
            && sorted[j + 1] == sorted[j] + 1
            && board.coords(sorted[j + 1]).1 == board.coords(sorted[i]).1
        {
            j += 1;
        }
        runs.push(if j > i {
            format!(
                "{}–{}",
                board.cell_name(sorted[i]),
                board.cell_name(sorted[j])
            )
        } else {
            board.cell_name(sorted[i])
        });
        i = j + 1;
    }
    runs.join(", ")
}

/// A per-player zone as declared: its name (the part after `<player>_`,
/// or the zone every player shares) and, per player, its cells.
pub(super) fn zone(v: &Variant, per_player: &[Vec<Cell>]) -> String {
    let same = |name: &str, cells: &[Cell]| {
        v.board
            .zone(name)
            .is_some_and(|z| sorted(z) == sorted(cells))
    };
    if let Some(first) = per_player.first() {
        if per_player.iter().all(|c| sorted(c) == sorted(first)) {
            if let Some((name, _)) = v.board.zones.iter().find(|(n, _)| same(n, first)) {
                return format!("the zone `{name}` ({})", cells(&v.board, first));
            }
        }
    }
    let prefix = v
        .players
        .first()
        .map(|p| format!("{p}_"))
        .unwrap_or_default();
    let name = v.board.zones.iter().find_map(|(n, _)| {
        let suffix = n.strip_prefix(&prefix)?;
        v.players
            .iter()
            .zip(per_player)
            .all(|(p, c)| same(&format!("{p}_{suffix}"), c))
            .then(|| suffix.to_string())
    });
    let each: Vec<String> = per_player
        .iter()
        .enumerate()
        .map(|(p, c)| format!("{} {}", player(v, p), cells(&v.board, c)))
        .collect();
    match name {
        Some(n) => format!("its player's `{n}` zone ({})", each.join("; ")),
        None => format!("its player's zone ({})", each.join("; ")),
    }
}

fn sorted(cells: &[Cell]) -> Vec<Cell> {
    let mut s = cells.to_vec();
    s.sort_unstable();
    s.dedup();
    s
}

/// The built-in direction set (by name) these deltas are, if any.
fn named_set(deltas: &[(i8, i8)], relative: bool) -> Option<String> {
    let key = |d: &[(i8, i8)]| {
        let mut s = d.to_vec();
        s.sort_unstable();
        s.dedup();
        s
    };
    let want = key(deltas);
    builtin_directions()
        .into_iter()
        .find(|d| d.relative == relative && key(&d.deltas) == want)
        .map(|d| d.name)
}

/// How a set of directions reads after a verb (`orthogonally`, `diagonally
/// forward`), from its deltas and whether they are the mover's own.
pub(super) fn directions(deltas: &[(i8, i8)], relative: bool) -> String {
    let word = match named_set(deltas, relative).as_deref() {
        Some("orthogonal") => "orthogonally",
        Some("diagonal") => "diagonally",
        Some("all") => "in any direction (orthogonally or diagonally)",
        Some("knight") => "a knight's move away",
        Some("up") => "up the board",
        Some("down") => "down the board",
        Some("forward") => "forward",
        Some("forward_diagonal") => "diagonally forward",
        Some("backward") => "backward",
        Some("backward_diagonal") => "diagonally backward",
        _ => "",
    };
    if !word.is_empty() {
        return word.to_string();
    }
    let list: Vec<String> = deltas
        .iter()
        .map(|(f, r)| format!("({f:+}, {r:+})"))
        .collect();
    format!(
        "by the offsets (files, ranks) {}{}",
        list.join(", "),
        if relative {
            " (for the first player; mirrored for the second)"
        } else {
            ""
        }
    )
}

/// Whether the deltas are the knight's eight.
pub(super) fn is_knight(deltas: &[(i8, i8)]) -> bool {
    named_set(deltas, false).as_deref() == Some("knight")
}

/// Lines given once each (a line and its opposite are one): `across`,
/// `up and down`, `diagonally`.
pub(super) fn lines(deltas: &[(i8, i8)]) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut push = |w: &str| {
        if !words.iter().any(|x| x == w) {
            words.push(w.to_string());
        }
    };
    for want in ["across", "up and down", "diagonally"] {
        for &(f, r) in deltas {
            let word = match (f.signum(), r.signum()) {
                (_, 0) => "across",
                (0, _) => "up and down",
                _ => "diagonally",
            };
            if word == want {
                push(word);
            }
        }
    }
    join(&words, "or")
}

/// A number as a word when small (`two`), else its digits.
pub(super) fn number(n: u64) -> String {
    const WORDS: [&str; 13] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    WORDS
        .get(n as usize)
        .map_or_else(|| n.to_string(), |w| w.to_string())
}

/// `1 square`, `2 squares`.
pub(super) fn squares(n: u64) -> String {
    format!("{} square{}", number(n), if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_read_as_prose() {
        let l = |x: &[&str]| x.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(join(&l(&[]), "and"), "");
        assert_eq!(join(&l(&["a"]), "and"), "a");
        assert_eq!(join(&l(&["a", "b"]), "or"), "a or b");
        assert_eq!(join(&l(&["a", "b", "c"]), "and"), "a, b and c");
    }

    #[test]
    fn cell_sets_read_as_rectangles_or_runs() {
        let b = Board::new(6, 6);
        assert_eq!(cells(&b, &b.parse_cells("a1:f2").unwrap()), "a1–f2");
        let mut ring = b.parse_cells("a1:f1").unwrap();
        ring.extend(b.parse_cells("a2").unwrap());
        ring.extend(b.parse_cells("f2").unwrap());
        assert_eq!(cells(&b, &ring), "a1–f1, a2, f2");
        assert_eq!(cells(&b, &[7]), "b2");
    }

    #[test]
    fn direction_sets_read_as_adverbs() {
        let orth = [(0, 1), (0, -1), (1, 0), (-1, 0)];
        assert_eq!(directions(&orth, false), "orthogonally");
        assert_eq!(directions(&[(1, 1), (-1, 1)], true), "diagonally forward");
        assert_eq!(directions(&[(0, 1)], true), "forward");
        assert_eq!(directions(&[(0, 1)], false), "up the board");
        assert_eq!(
            directions(&[(2, 0)], false),
            "by the offsets (files, ranks) (+2, +0)"
        );
        assert_eq!(
            lines(&[(0, 1), (1, 0), (1, 1), (1, -1)]),
            "across, up and down or diagonally"
        );
    }
}
