//! Colours of the pictures: each player's colour (declared in the variant's
//! `colours:`, else the one its name says, else one of a palette by seat)
//! and the ink drawn on it, chosen by the WCAG contrast ratio so that a
//! piece's letter reads on its face whatever the colour.

use crate::rules::variant::Variant;

/// The colours of players whose names say one.
const NAMED: &[(&str, &str)] = &[
    ("red", "#c0392b"),
    ("blue", "#2471a3"),
    ("green", "#1e8449"),
    ("yellow", "#f4d03f"),
    ("white", "#f4f6f7"),
    ("black", "#1c2833"),
    ("purple", "#7d3c98"),
    ("magenta", "#a93226"),
    ("cyan", "#17a589"),
    ("orange", "#e67e22"),
    ("brown", "#784212"),
    ("grey", "#808b96"),
    ("gray", "#808b96"),
];

/// The colours of other players, by seat.
const PALETTE: &[&str] = &[
    "#c0392b", "#2471a3", "#1e8449", "#f4d03f", "#7d3c98", "#17a589", "#e67e22", "#5d6d7e",
];

/// The dark ink of letters and outlines.
pub const INK: &str = "#1c2833";

/// The colour `owner`'s pieces are drawn in, as `#rrggbb`.
pub fn player_colour(variant: &Variant, owner: &str) -> String {
    if let Some((_, c)) = variant.colours.iter().find(|(p, _)| p == owner) {
        return c.clone();
    }
    if let Some((_, c)) = NAMED.iter().find(|(n, _)| n.eq_ignore_ascii_case(owner)) {
        return c.to_string();
    }
    let seat = variant.player_index(owner).unwrap_or(0);
    PALETTE[seat % PALETTE.len()].to_string()
}

/// `#rrggbb` as red, green and blue in 0..=255 (black when malformed).
fn rgb(hex: &str) -> [u8; 3] {
    let h = hex.trim_start_matches('#');
    let part = |i: usize| {
        h.get(i..i + 2)
            .and_then(|p| u8::from_str_radix(p, 16).ok())
            .unwrap_or(0)
    };
    [part(0), part(2), part(4)]
}

/// The relative luminance of a colour (WCAG 2).
pub fn luminance(hex: &str) -> f64 {
    let lin = |c: u8| {
        let c = c as f64 / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let [r, g, b] = rgb(hex);
    0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
}

/// The contrast ratio of two colours (1 to 21).
pub fn contrast(a: &str, b: &str) -> f64 {
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

/// The ink for letters on `background`: white, else the dark ink, else
/// black, the first that reaches 4.5:1 (black or white always does; of
/// the two, the better one is taken when neither of the first two does).
pub fn ink_on(background: &str) -> &'static str {
    for ink in ["#ffffff", INK] {
        if contrast(ink, background) >= 4.5 {
            return ink;
        }
    }
    if contrast("#ffffff", background) > contrast("#000000", background) {
        "#ffffff"
    } else {
        "#000000"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_colour_gets_an_ink_of_at_least_4_5_to_1() {
        for r in (0..=255).step_by(15) {
            for g in (0..=255).step_by(15) {
                for b in (0..=255).step_by(15) {
                    let bg = format!("#{r:02x}{g:02x}{b:02x}");
                    let c = contrast(ink_on(&bg), &bg);
                    assert!(c >= 4.5, "{bg}: {c}");
                }
            }
        }
        assert!((contrast("#ffffff", "#000000") - 21.0).abs() < 1e-9);
    }

    #[test]
    fn declared_colours_win_then_names_then_seats() {
        let v = Variant::from_str(
            "name: T\nplayers: [white, north, south]\ncolours: { south: \"#0a0\" }\nboard: { files: 2, ranks: 2 }\npieces:\n  k: { name: K, symbol: K }\n",
            std::path::Path::new("t.yaml"),
            &[],
        )
        .unwrap();
        assert_eq!(player_colour(&v, "south"), "#00aa00");
        assert_eq!(player_colour(&v, "white"), "#f4f6f7");
        assert_eq!(player_colour(&v, "north"), PALETTE[1]);
        let bad = Variant::from_str(
            "name: T\nplayers: [a, b]\ncolours: { c: \"#000\", a: red }\nboard: { files: 2, ranks: 2 }\npieces:\n  k: { name: K, symbol: K }\n",
            std::path::Path::new("t.yaml"),
            &[],
        )
        .unwrap_err()
        .to_string();
        assert!(bad.contains("`c` is not a player"), "{bad}");
        assert!(bad.contains("`red` is not a hex colour"), "{bad}");
    }
}
