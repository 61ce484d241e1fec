//! Pictures: an SVG of the board as one viewer sees it.

use crate::engine::Engine;
use crate::palette::{ink_on, player_colour, INK};
use crate::record::view::{View, ViewPiece, Views};
use crate::rules::variant::image::PieceImage;

const CELL: usize = 48;
const MARGIN: usize = 24;

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
        let board = &self.engine.variant.board;
        let hex = board.shape == crate::base::geometry::Shape::Hex;
        let w = files * CELL + 2 * MARGIN + if hex { ranks * CELL / 2 } else { 0 };
        let h = ranks * CELL + 2 * MARGIN + 28;
        let mut out = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\">\n<rect width=\"{w}\" height=\"{h}\" fill=\"#fdfefe\"/>\n"
        );
        out.push_str(&image_defs(self.engine, view));
        let pos = |c: usize| -> (usize, usize) {
            let (f, r) = (c % files, c / files);
            let (col, row) = if flip {
                (files - 1 - f, r)
            } else {
                (f, ranks - 1 - r)
            };
            // A hex board: each rank half a cell right of the one below.
            let shift = if hex { (ranks - 1 - row) * CELL / 2 } else { 0 };
            (MARGIN + col * CELL + shift, MARGIN + row * CELL)
        };
        out.push_str(&lines_svg(board, &pos));
        let unseen = crate::record::fog::unseen_cells(view, &self.engine.variant.board);
        for c in 0..files * ranks {
            let (x, y) = pos(c);
            let (f, r) = (c % files, c / files);
            let name = self.engine.variant.board.cell_name(c as u16);
            let fill = if unseen.get(c).copied().unwrap_or(false) {
                unseen_fill(f + r)
            } else if let Some(t) = mark_tint(self.engine, view, &name) {
                t
            } else if !view.terrain[c].is_empty() {
                "#85c1e9"
            } else if (f + r) % 2 == 0 {
                "#e8daef"
            } else {
                "#f5eef8"
            };
            if !board.is_point(c as u16) {
                continue;
            }
            if board.graph.is_some() || hex {
                // A point: a disc, so that the lines between show.
                out.push_str(&format!(
                    "<circle data-cell=\"{name}\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\" stroke=\"#aab7b8\" stroke-width=\"1\"><title>{name}</title></circle>\n",
                    x + CELL / 2,
                    y + CELL / 2,
                    CELL / 2 - 2
                ));
                continue;
            }
            out.push_str(&format!(
                "<rect data-cell=\"{name}\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\" stroke=\"#aab7b8\" stroke-width=\"1\"><title>{name}</title></rect>\n"
            ));
        }
        if let Some((a, b)) = last {
            for c in [a, b].into_iter().filter(|&c| !unseen[c as usize]) {
                let (x, y) = pos(c as usize);
                out.push_str(&format!(
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#f39c12\" stroke-width=\"3\" pointer-events=\"none\" class=\"last\"/>\n",
                    x + 2, y + 2, CELL - 4, CELL - 4
                ));
            }
        }
        out.push_str(&marks_svg(self.engine, view, &pos));
        for (c, cell) in view.cells.iter().enumerate() {
            let Some(p) = cell else { continue };
            let (x, y) = pos(c);
            out.push_str(&piece_svg(
                self.engine,
                p,
                &self.engine.variant.board.cell_name(c as u16),
                x,
                y,
            ));
        }
        out.push_str(&counters_svg(self.engine, view, &pos));
        out.push_str(&coordinates_svg(files, ranks, flip));
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
        out.push_str(&caption_svg(&caption, w, h));
        out
    }
}

/// The file letters under the board and the rank numbers beside it.
fn coordinates_svg(files: usize, ranks: usize, flip: bool) -> String {
    let mut out = String::new();
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
    out
}

/// A graph board's lines, from point to point, under the points.
fn lines_svg(
    board: &crate::base::geometry::Board,
    pos: &dyn Fn(usize) -> (usize, usize),
) -> String {
    let mut out = String::new();
    for line in board.graph.iter().flat_map(|g| &g.lines) {
        for w in line.windows(2) {
            let ((x1, y1), (x2, y2)) = (pos(w[0] as usize), pos(w[1] as usize));
            out.push_str(&format!(
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#566573\" stroke-width=\"3\" pointer-events=\"none\"/>\n",
                x1 + CELL / 2,
                y1 + CELL / 2,
                x2 + CELL / 2,
                y2 + CELL / 2
            ));
        }
    }
    out
}

/// The caption under the board, squeezed to the picture's width when it is
/// longer (at about 7 pixels a letter), so that it is never cut off.
fn caption_svg(caption: &str, w: usize, h: usize) -> String {
    let room = w - 2 * MARGIN / 2;
    let fit = if caption.chars().count() * 7 > room {
        format!(" textLength=\"{room}\" lengthAdjust=\"spacingAndGlyphs\"")
    } else {
        String::new()
    };
    format!(
        "<text class=\"caption\" x=\"{}\" y=\"{}\" font-size=\"14\" fill=\"{INK}\"{fit}>{}</text>\n</svg>\n",
        MARGIN / 2,
        h - 10,
        escape(caption)
    )
}

/// One piece on the cell at (`x`, `y`): a rounded tile in its owner's
/// colour with its letter in the ink that contrasts most, outlined in dark
/// ink so that light colours stand out from the board. A piece the viewer
/// does not know shows `?` on a dashed outline.
fn piece_svg(e: &Engine, p: &ViewPiece, cell: &str, x: usize, y: usize) -> String {
    if let Some(k) = p.kind.as_deref() {
        if let Some((i, _)) = image_of(e, k) {
            return image_piece_svg(e, p, k, i, cell, x, y);
        }
    }
    let fill = player_colour(&e.variant, &p.owner);
    let ink = ink_on(&fill);
    let label = Views::new(e).symbol_of(p.kind.as_deref());
    let (title, dash) = match &p.kind {
        Some(k) => (format!("{} {k}", p.owner), ""),
        None => (
            format!("{} piece (unknown)", p.owner),
            " stroke-dasharray=\"5 3\"",
        ),
    };
    let size = if label.chars().count() > 2 { 13 } else { 18 };
    format!(
        "<g data-cell=\"{cell}\" class=\"piece\"><title>{}</title><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"8\" fill=\"{fill}\" stroke=\"{INK}\" stroke-width=\"2\"{dash}/><text x=\"{}\" y=\"{}\" font-size=\"{size}\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{ink}\">{}</text></g>\n",
        escape(&title),
        x + 5,
        y + 5,
        CELL - 10,
        CELL - 10,
        x + CELL / 2,
        y + CELL / 2 + size / 3,
        escape(&label)
    )
}

/// The image of the kind named `kind`, if its variant declares one, and
/// the kind's index (its symbol's id, `piece-N`: a kind's name is not
/// trusted inside an attribute).
fn image_of<'e>(e: &'e Engine, kind: &str) -> Option<(usize, &'e PieceImage)> {
    let i = e.variant.kinds.iter().position(|k| k.name == kind)?;
    e.variant.kinds[i].image.as_ref().map(|img| (i, img))
}

/// The `<symbol id="piece-N">` of every kind with an image that the
/// viewer knows on the board (a piece the viewer does not know shows its
/// back, so its kind's image is not sent either).
fn image_defs(e: &Engine, view: &View) -> String {
    let mut kinds: Vec<(usize, &PieceImage)> = view
        .cells
        .iter()
        .flatten()
        .filter_map(|p| image_of(e, p.kind.as_deref()?))
        .collect();
    kinds.sort_unstable_by_key(|(i, _)| *i);
    kinds.dedup_by_key(|(i, _)| *i);
    if kinds.is_empty() {
        return String::new();
    }
    let mut out = String::from("<defs>");
    for (i, img) in kinds {
        out.push_str(&format!(
            "<symbol id=\"piece-{i}\" viewBox=\"{}\">{}</symbol>",
            img.view_box, img.body
        ));
    }
    out.push_str("</defs>\n");
    out
}

/// A known piece whose kind has an image: the image filled with its
/// owner's colour and outlined in the ink that contrasts most with it
/// (at least 4.5:1, as a letter on its tile); lines the image draws with
/// `fill="none"` are in that ink alone.
fn image_piece_svg(
    e: &Engine,
    p: &ViewPiece,
    kind: &str,
    id: usize,
    cell: &str,
    x: usize,
    y: usize,
) -> String {
    let fill = player_colour(&e.variant, &p.owner);
    let ink = ink_on(&fill);
    format!(
        "<g data-cell=\"{cell}\" class=\"piece image\"><title>{} {}</title><use href=\"#piece-{id}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\" stroke=\"{ink}\" stroke-width=\"1.5\" stroke-linejoin=\"round\" stroke-linecap=\"round\"/></g>\n",
        escape(&p.owner),
        escape(kind),
        x + 3,
        y + 3,
        CELL - 6,
        CELL - 6,
    )
}

/// Light tints for marked cells, one per mark value (in the order of the
/// variant's `mark_symbols`, other values by a hash of their text).
const MARK_TINTS: &[&str] = &[
    "#d5c4a1", "#a9cce3", "#d5dbdb", "#f9e79f", "#f5b7b1", "#abebc6", "#d7bde2", "#fad7a0",
];

/// The tint of a cell by the first mark the viewer knows on it, if any.
fn mark_tint(e: &Engine, view: &View, cell: &str) -> Option<&'static str> {
    let m = view.marks.iter().find(|m| m.cell == cell)?;
    let symbols = &e.variant.mark_symbols;
    let i = symbols
        .iter()
        .position(|(k, _)| *k == m.value)
        .unwrap_or_else(|| {
            m.value
                .bytes()
                .fold(0usize, |h, b| h.wrapping_mul(31).wrapping_add(b as usize))
        });
    Some(MARK_TINTS[i % MARK_TINTS.len()])
}

/// The cell marks the viewer knows (their cells tinted by [`mark_tint`]):
/// every mark's symbol (declared in `mark_symbols`, else the
/// first two letters of its value) in the cell's corner. Each mark is a
/// `<g data-mark="name=value" data-at="a1">`, its title saying what it is.
fn marks_svg(e: &Engine, view: &View, pos: &dyn Fn(usize) -> (usize, usize)) -> String {
    let symbols = &e.variant.mark_symbols;
    let mut out = String::new();
    let mut slot: Vec<(&str, usize)> = Vec::new();
    for m in &view.marks {
        let Some(c) = e.variant.board.parse_cell(&m.cell) else {
            continue;
        };
        let (x, y) = pos(c as usize);
        let symbol = symbols
            .iter()
            .find(|(k, _)| *k == m.value)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| m.value.chars().take(2).collect());
        let n = match slot.iter_mut().find(|(cell, _)| *cell == m.cell) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                slot.push((&m.cell, 0));
                0
            }
        };
        let mut g = format!(
            "<g class=\"mark\" pointer-events=\"none\" data-mark=\"{}={}\" data-at=\"{}\"><title>{}: {}</title>",
            escape(&m.name),
            escape(&m.value),
            escape(&m.cell),
            escape(&m.name),
            escape(&m.value)
        );
        g.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" font-size=\"10\" font-weight=\"bold\" fill=\"{INK}\">{}</text></g>\n",
            x + 4 + 12 * n,
            y + 12,
            escape(&symbol)
        ));
        out.push_str(&g);
    }
    out
}

/// Cell counters (stones in a hole, coins on a cell): a dark badge with the
/// value in the cell's lower right corner, `data-counter="name"`.
fn counters_svg(e: &Engine, view: &View, pos: &dyn Fn(usize) -> (usize, usize)) -> String {
    let mut out = String::new();
    for (name, cell, value) in &view.cell_counters {
        let Some(c) = e.variant.board.parse_cell(cell) else {
            continue;
        };
        let (x, y) = pos(c as usize);
        out.push_str(&format!(
            "<g class=\"counter\" data-counter=\"{}\" data-at=\"{}\" pointer-events=\"none\"><title>{}: {value}</title><circle cx=\"{}\" cy=\"{}\" r=\"9\" fill=\"{INK}\" stroke=\"#ffffff\" stroke-width=\"1\"/><text x=\"{}\" y=\"{}\" font-size=\"11\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"#ffffff\">{value}</text></g>\n",
            escape(name),
            escape(cell),
            escape(name),
            x + CELL - 11,
            y + CELL - 11,
            x + CELL - 11,
            y + CELL - 7,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::Svg;
    use crate::engine::Engine;
    use crate::record::view::{Viewer, Views};

    /// The `<g>` of the piece on `cell`.
    fn piece<'a>(svg: &'a str, cell: &str) -> &'a str {
        let start = svg
            .find(&format!("<g data-cell=\"{cell}\" "))
            .unwrap_or_else(|| panic!("no piece on {cell}: {svg}"));
        let end = start + svg[start..].find("</g>").unwrap();
        &svg[start..end]
    }

    /// The fill of the piece's face and of its letter.
    fn colours(g: &str) -> (String, String) {
        let attr = |from: &str| {
            let at = g[g.find(from).unwrap()..].find("fill=\"").unwrap() + g.find(from).unwrap();
            g[at + 6..at + 13].to_string()
        };
        (attr("<rect"), attr("<text"))
    }

    #[test]
    fn every_letter_contrasts_with_its_piece_and_light_pieces_are_outlined() {
        use crate::palette::contrast;
        let e = Engine::load("othello", &[]).unwrap();
        let s = e.new_game(1, &[]);
        let svg = Svg::new(&e).render_svg(&Views::new(&e).view(&s, Viewer::Omniscient), None);
        // White's disc on d4, black's on d5.
        let white = piece(&svg, "d4");
        assert!(white.contains("white disc"), "{white}");
        assert!(white.contains("stroke=\"#1c2833\""), "{white}");
        let (face, letter) = colours(white);
        assert_eq!(letter, "#1c2833", "{white}");
        assert!(contrast(&face, &letter) >= 4.5);
        let (face, letter) = colours(piece(&svg, "d5"));
        assert_eq!((face.as_str(), letter.as_str()), ("#1c2833", "#ffffff"));
        let e = Engine::load("connect_four", &[]).unwrap();
        let mut s = e.new_game(1, &[]);
        for m in ["d1", "d2"] {
            let a = e.parse_action(&s, m).unwrap();
            e.apply(&mut s, &a).unwrap();
        }
        let svg = Svg::new(&e).render_svg(&Views::new(&e).view(&s, Viewer::Omniscient), None);
        for cell in ["d1", "d2"] {
            let (face, letter) = colours(piece(&svg, cell));
            assert!(contrast(&face, &letter) >= 4.5, "{cell}: {face} {letter}");
        }
    }

    #[test]
    fn marks_and_cell_counters_are_drawn() {
        let e = Engine::load("lost_island", &[]).unwrap();
        let s = e.new_game(1, &[]);
        let view = Views::new(&e).view(&s, Viewer::Omniscient);
        let svg = Svg::new(&e).render_svg(&view, None);
        assert!(!view.marks.is_empty());
        for m in &view.marks {
            let g = format!(
                "data-mark=\"{}={}\" data-at=\"{}\"",
                m.name, m.value, m.cell
            );
            assert!(svg.contains(&g), "{g}");
        }
        assert_eq!(svg.matches("class=\"mark\"").count(), view.marks.len());
        assert_eq!(
            svg.matches("class=\"counter\"").count(),
            view.cell_counters.len()
        );
    }

    #[test]
    fn a_kind_with_an_image_is_drawn_in_its_owners_colours() {
        use crate::palette::contrast;
        let e = Engine::load("chess", &[]).unwrap();
        let s = e.new_game(1, &[]);
        let svg = Svg::new(&e).render_svg(&Views::new(&e).view(&s, Viewer::Omniscient), None);
        // One symbol per kind on the board, the shapes as checked at load.
        assert_eq!(svg.matches("<symbol id=").count(), 6, "{svg}");
        let king = &svg[svg.find("<symbol id=\"piece-0\"").unwrap()..];
        let king = &king[..king.find("</symbol>").unwrap()];
        assert!(
            king.starts_with("<symbol id=\"piece-0\" viewBox=\"0 0 45 45\"><path d="),
            "{king}"
        );
        assert!(
            !king.contains("title") && !king.contains("fill=\"#"),
            "{king}"
        );
        assert_eq!(
            piece(&svg, "e1"),
            "<g data-cell=\"e1\" class=\"piece image\"><title>white king</title><use href=\"#piece-0\" x=\"219\" y=\"363\" width=\"42\" height=\"42\" fill=\"#f4f6f7\" stroke=\"#1c2833\" stroke-width=\"1.5\" stroke-linejoin=\"round\" stroke-linecap=\"round\"/>"
        );
        for cell in ["e1", "e8", "a2", "b7"] {
            let g = piece(&svg, cell);
            assert!(!g.contains("<text"), "{g}");
            let attr = |a: &str| {
                let at = g.find(&format!(" {a}=\"")).unwrap() + a.len() + 3;
                g[at..at + 7].to_string()
            };
            let (fill, stroke) = (attr("fill"), attr("stroke"));
            assert!(contrast(&fill, &stroke) >= 4.5, "{cell}: {fill} {stroke}");
        }
        // Text boards are unchanged: the letters.
        let text = Views::new(&e).render(&Views::new(&e).view(&s, Viewer::Omniscient), None);
        assert!(text.contains('K') && !text.contains("<"), "{text}");
    }

    #[test]
    fn a_piece_the_viewer_does_not_know_shows_its_back_and_never_its_image() {
        let path = crate::base::bundled::root().join("tests/variants/hidden_images.yaml");
        let path = path.to_str().unwrap();
        let e = Engine::load(path, &[]).unwrap();
        let s = e.new_game(1, &[]);
        let blue = Views::new(&e)
            .viewer_or(Some("blue"), Viewer::Omniscient)
            .unwrap();
        let svg = Svg::new(&e).render_svg(&Views::new(&e).view(&s, blue), None);
        for cell in ["a1", "b1", "c1", "d1"] {
            let g = piece(&svg, cell);
            assert!(
                g.contains("red piece (unknown)") && g.contains(">?</text>"),
                "{g}"
            );
            assert!(!g.contains("<use"), "{g}");
        }
        // Blue's own King and Guard are pictures: two uses, two symbols.
        assert_eq!(svg.matches("<use ").count(), 2, "{svg}");
        assert_eq!(svg.matches("<symbol ").count(), 2, "{svg}");
        // Seen by all, both sides' Kings and Guards are pictures.
        let all = Svg::new(&e).render_svg(&Views::new(&e).view(&s, Viewer::Omniscient), None);
        assert_eq!(all.matches("<use ").count(), 4, "{all}");
    }
}
