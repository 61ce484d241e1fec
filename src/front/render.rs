//! Pictures: an SVG of the board as one viewer sees it.

use crate::engine::Engine;
use crate::record::view::{View, Views};

const CELL: usize = 48;
const MARGIN: usize = 24;

fn css_color(c: anstyle::AnsiColor) -> &'static str {
    use anstyle::AnsiColor::*;
    match c {
        Red | BrightRed => "#c0392b",
        Blue | BrightBlue => "#2471a3",
        Green | BrightGreen => "#229954",
        Yellow | BrightYellow => "#d4ac0d",
        Magenta | BrightMagenta => "#7d3c98",
        Cyan | BrightCyan => "#17a589",
        White | BrightWhite => "#f4f6f7",
        _ => "#515a5a",
    }
}

/// The dark ink of letters and outlines on light pieces.
const INK: &str = "#1c2833";

/// A piece's colour: its owner's, with a player called black drawn black
/// (the terminal shows black as magenta, to be seen on a dark screen).
fn piece_color(owner: &str, ansi: anstyle::AnsiColor) -> &'static str {
    if owner == "black" {
        "#273746"
    } else {
        css_color(ansi)
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The fill of a cell the viewer does not see (fog of war): shaded dark,
/// the squares' pattern kept faintly.
fn unseen_fill(parity: usize) -> &'static str {
    if parity.is_multiple_of(2) {
        "#5d6d7e"
    } else {
        "#6c7a89"
    }
}

/// The board drawn as SVG for one viewer: `Svg::new(&engine).render_svg(..)`.
#[derive(Clone, Copy)]
pub struct Svg<'e> {
    pub engine: &'e Engine,
}

impl<'e> Svg<'e> {
    pub fn new(engine: &'e Engine) -> Self {
        Svg { engine }
    }

    /// The board of a view as SVG: terrain, pieces in their owner's colour
    /// (a piece the viewer does not know shows its back, `?`), the last move
    /// outlined, and a caption with whose turn it is. Cells and pieces carry
    /// `data-cell="a4"` so that a page can tell which cell was clicked.
    pub fn render_svg(&self, view: &View, last: Option<(u16, u16)>) -> String {
        let (files, ranks) = (view.files as usize, view.ranks as usize);
        let flip = Views::new(self.engine).flips_for(&view.viewer);
        let w = files * CELL + 2 * MARGIN;
        let h = ranks * CELL + 2 * MARGIN + 28;
        let mut out = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\">\n<rect width=\"{w}\" height=\"{h}\" fill=\"#fdfefe\"/>\n"
        );
        let pos = |c: usize| -> (usize, usize) {
            let (f, r) = (c % files, c / files);
            let (col, row) = if flip {
                (files - 1 - f, r)
            } else {
                (f, ranks - 1 - r)
            };
            (MARGIN + col * CELL, MARGIN + row * CELL)
        };
        let unseen = crate::record::fog::unseen_cells(view, &self.engine.variant.board);
        for c in 0..files * ranks {
            let (x, y) = pos(c);
            let (f, r) = (c % files, c / files);
            let fill = if unseen.get(c).copied().unwrap_or(false) {
                unseen_fill(f + r)
            } else if !view.terrain[c].is_empty() {
                "#85c1e9"
            } else if (f + r) % 2 == 0 {
                "#e8daef"
            } else {
                "#f5eef8"
            };
            out.push_str(&format!(
                "<rect data-cell=\"{name}\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\" stroke=\"#aab7b8\" stroke-width=\"1\"><title>{name}</title></rect>\n",
                name = self.engine.variant.board.cell_name(c as u16)
            ));
        }
        if let Some((a, b)) = last {
            for c in [a, b].into_iter().filter(|&c| !unseen[c as usize]) {
                let (x, y) = pos(c as usize);
                out.push_str(&format!(
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#f39c12\" stroke-width=\"3\"/>\n",
                    x + 2, y + 2, CELL - 4, CELL - 4
                ));
            }
        }
        for (c, cell) in view.cells.iter().enumerate() {
            let Some(p) = cell else { continue };
            let (x, y) = pos(c);
            let color = piece_color(&p.owner, Views::new(self.engine).player_color(&p.owner));
            let label = Views::new(self.engine).symbol_of(p.kind.as_deref());
            let title = match &p.kind {
                Some(k) => format!("{} {k}", p.owner),
                None => format!("{} piece (unknown)", p.owner),
            };
            // A white piece gets a dark letter and outline, or it would
            // be white on white.
            let light = color == css_color(anstyle::AnsiColor::BrightWhite);
            let (fill, text, stroke) = match (p.kind.is_some(), light) {
                (true, false) => (color, "#ffffff", color),
                (true, true) => (color, INK, INK),
                (false, false) => ("#ffffff", color, color),
                (false, true) => ("#ffffff", INK, INK),
            };
            out.push_str(&format!(
                "<g data-cell=\"{}\"><title>{}</title><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"6\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"3\"/><text x=\"{}\" y=\"{}\" font-size=\"18\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{text}\">{}</text></g>\n",
                self.engine.variant.board.cell_name(c as u16),
                escape(&title),
                x + 6, y + 6, CELL - 12, CELL - 12,
                x + CELL / 2, y + CELL / 2 + 6,
                escape(&label)
            ));
        }
        for i in 0..files {
            let f = if flip { files - 1 - i } else { i };
            out.push_str(&format!(
                "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" fill=\"#566573\">{}</text>\n",
                MARGIN + i * CELL + CELL / 2,
                MARGIN + ranks * CELL + 14,
                (b'a' + f as u8) as char
            ));
        }
        for i in 0..ranks {
            let r = if flip { i } else { ranks - 1 - i };
            out.push_str(&format!(
                "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\" fill=\"#566573\">{}</text>\n",
                MARGIN / 2,
                MARGIN + i * CELL + CELL / 2 + 4,
                r + 1
            ));
        }
        let caption = match (&view.outcome, &view.pending) {
            (Some(o), _) => format!("game over: {o}"),
            (None, Some(c)) => format!(
                "ply {}: {}",
                view.ply,
                crate::record::view::choice_prompt(&self.engine.variant.words, c)
            ),
            (None, None) => format!(
                "ply {}: {} to move, seen by {}",
                view.ply, view.to_move, view.viewer
            ),
        };
        out.push_str(&format!(
            "<text x=\"{MARGIN}\" y=\"{}\" font-size=\"14\" fill=\"#1c2833\">{}</text>\n</svg>\n",
            h - 10,
            escape(&caption)
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::Svg;
    use crate::engine::Engine;
    use crate::record::view::{Viewer, Views};

    /// The `<g>` of the piece on `cell`.
    fn piece<'a>(svg: &'a str, cell: &str) -> &'a str {
        let start = svg
            .find(&format!("<g data-cell=\"{cell}\">"))
            .unwrap_or_else(|| panic!("no piece on {cell}: {svg}"));
        let end = start + svg[start..].find("</g>").unwrap();
        &svg[start..end]
    }

    #[test]
    fn white_pieces_have_a_dark_letter_and_outline_and_black_ones_are_black() {
        let e = Engine::load("othello", &[]).unwrap();
        let s = e.new_game(1, &[]);
        let svg = Svg::new(&e).render_svg(&Views::new(&e).view(&s, Viewer::Omniscient), None);
        // White's disc on d4, black's on d5.
        let white = piece(&svg, "d4");
        assert!(white.contains("white disc"), "{white}");
        assert!(
            white.contains("stroke=\"#1c2833\"") && white.contains("fill=\"#1c2833\">O"),
            "{white}"
        );
        let black = piece(&svg, "d5");
        assert!(black.contains("fill=\"#273746\""), "{black}");
        // Other colours keep their owner's outline and a white letter.
        let e = Engine::load("connect_four", &[]).unwrap();
        let mut s = e.new_game(1, &[]);
        let a = e.parse_action(&s, "d1").unwrap();
        e.apply(&mut s, &a).unwrap();
        let svg = Svg::new(&e).render_svg(&Views::new(&e).view(&s, Viewer::Omniscient), None);
        let red = piece(&svg, "d1");
        assert!(
            red.contains("stroke=\"#c0392b\"") && red.contains("fill=\"#ffffff\">O"),
            "{red}"
        );
    }
}
