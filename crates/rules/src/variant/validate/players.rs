//! The variant's name and its `players:` (with `min_players` and the int
//! option `players`, which keeps the first N seats).
//!
//! Changes when how a variant names itself or its seats changes.

use super::Ctx;
use crate::variant::raw::RawVariant;
use crate::variant::Value;

/// The variant's `name` (required).
pub(super) fn name(raw: &RawVariant, cx: &mut Ctx) -> String {
    let name = raw.name.clone().unwrap_or_else(|| {
        cx.err_top("missing field `name`");
        String::new()
    });
    no_controls(&name, "`name`", cx);
    name
}

/// Names go to terminals: control characters (an escape sequence) in one
/// are refused.
pub(super) fn has_controls(text: &str) -> bool {
    text.chars().any(char::is_control)
}

fn no_controls(text: &str, what: &str, cx: &mut Ctx) {
    if has_controls(text) {
        cx.err_top(format!(
            "{what} `{}` holds control characters",
            crate::base::limits::escape_controls(text)
        ));
    }
}

/// The players who take part: all of `players`, or the first N when the
/// variant has an int option `players` set to N.
pub(super) fn players(raw: &RawVariant, cx: &mut Ctx) -> Vec<String> {
    let mut players = raw.players.clone().unwrap_or_default();
    for p in &players {
        no_controls(p, "player", cx);
    }
    if players.is_empty() || players.len() > 8 {
        cx.err_top(format!(
            "`players` must name 1 to 8 players, found {}",
            players.len()
        ));
    }
    // A variant for a varying number of players: the int option `players`
    // keeps the first N of the list.
    let options = cx.options;
    if let Some(Value::Int(n)) = options
        .iter()
        .find(|o| o.name == "players")
        .map(|o| &o.value)
    {
        let min = raw.min_players.unwrap_or(players.len() as u8) as i64;
        if *n < min.max(1) || *n > players.len() as i64 {
            cx.err_option(format!(
                "option `players`: this variant is for {} to {} players, not {n}",
                min.max(1),
                players.len()
            ));
        } else {
            players.truncate(*n as usize);
        }
    }
    players
}

/// The declared `colours:` of players, each a player of `players:` and a
/// CSS hex colour, written out as `#rrggbb`.
pub(super) fn colours(raw: &RawVariant, cx: &mut Ctx) -> Vec<(String, String)> {
    let all = raw.players.clone().unwrap_or_default();
    let mut out = Vec::new();
    for (player, colour) in raw.colours.iter().flatten() {
        if !all.contains(player) {
            cx.err_top(format!(
                "`colours`: `{}` is not a player (players: {})",
                crate::base::limits::escape_controls(player),
                all.join(", ")
            ));
            continue;
        }
        match hex_colour(colour) {
            Some(c) => out.push((player.clone(), c)),
            None => cx.err_top(format!(
                "`colours`: {player}'s colour `{}` is not a hex colour like \"#c0392b\" or \"#c03\"",
                crate::base::limits::escape_controls(colour)
            )),
        }
    }
    out
}

/// `#rgb` or `#rrggbb` as `#rrggbb` (lower case), else `None`.
fn hex_colour(text: &str) -> Option<String> {
    let digits = text.strip_prefix('#')?;
    if !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let long: String = match digits.len() {
        3 => digits.chars().flat_map(|c| [c, c]).collect(),
        6 => digits.to_string(),
        _ => return None,
    };
    Some(format!("#{}", long.to_ascii_lowercase()))
}
