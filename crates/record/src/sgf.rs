//! The text of SGF files (`FF[4]`): game trees of nodes of properties. The
//! root node's properties are the game's tags (`C[...]` there is the
//! comment before the first move); each later node is a move `B[cd]` or
//! `W[]` (a pass; `tt` too on boards up to 19) with its comment `C[...]`
//! and other properties kept beside it. Only the main line is a game:
//! variations are read and skipped. Points are two letters, the column
//! from the left and the row from the top (`a`-`z`, then `A`-`Z`).
//!
//! Changes when the SGF syntax read or written changes.

use super::exchange::{Note, Notes, WrittenMove};
use super::pgn::{Lexer as Reader, TextGame};
use crate::base::geometry::{Board, Cell};

/// A node's properties, each with its values and where it stood.
type Node = Vec<(String, Vec<String>, usize, usize)>;

impl Reader<'_> {
    /// `[value]`, unescaped (`\]`, `\\`; an escaped line break is dropped).
    fn value(&mut self) -> Result<String, String> {
        let (l, c) = (self.line, self.col);
        self.bump();
        let mut v = String::new();
        loop {
            match self.bump() {
                Some('\\') => match self.bump() {
                    Some('\n') => {}
                    Some(ch) => v.push(ch),
                    None => break,
                },
                Some(']') => return Ok(v),
                Some(ch) => v.push(ch),
                None => break,
            }
        }
        Err(self.err(l, c, "the value opened here is not closed (expected `]`)"))
    }

    fn node(&mut self) -> Result<Node, String> {
        self.bump(); // `;`
        let mut props = Vec::new();
        loop {
            self.skip_space();
            let (l, c) = (self.line, self.col);
            let mut id = String::new();
            while let Some(ch) = self.peek().filter(|ch| ch.is_ascii_uppercase()) {
                id.push(ch);
                self.bump();
            }
            if id.is_empty() {
                return match self.peek() {
                    Some(';' | '(' | ')') => Ok(props),
                    Some(ch) => Err(self.err(l, c, format!("unexpected `{ch}` (expected a property such as B[cd], or `;`, `(` or `)`)"))),
                    None => Err(self.err(l, c, "the file ends inside a game (expected `)`)")),
                };
            }
            let mut values = Vec::new();
            loop {
                self.skip_space();
                if self.peek() != Some('[') {
                    break;
                }
                values.push(self.value()?);
            }
            if values.is_empty() {
                return Err(self.err(
                    l,
                    c,
                    format!("the property `{id}` has no value (expected `[`)"),
                ));
            }
            props.push((id, values, l, c));
        }
    }

    /// A game tree, the `(` next: its main line's nodes, the first child
    /// tree taken at each level; later variations are read and skipped.
    /// No recursion: a file nesting trees deeply is read as any other.
    fn tree(&mut self) -> Result<Vec<Node>, String> {
        let (l, c) = (self.line, self.col);
        self.bump();
        let mut main = Vec::new();
        let mut depth = 1usize;
        // Whether the current level's first child tree was read already.
        let mut descended = false;
        loop {
            self.skip_space();
            let (l2, c2) = (self.line, self.col);
            match self.peek() {
                Some(';') if !descended => main.push(self.node()?),
                Some('(') if !descended => {
                    self.bump();
                    depth += 1;
                }
                Some('(') => self.skip_tree()?,
                Some(')') => {
                    self.bump();
                    depth -= 1;
                    descended = true;
                    if depth == 0 {
                        if main.is_empty() {
                            return Err(self.err(
                                l,
                                c,
                                "a game tree without a node (expected `;`)",
                            ));
                        }
                        return Ok(main);
                    }
                }
                Some(ch) => {
                    return Err(self.err(
                        l2,
                        c2,
                        format!("unexpected `{ch}` (expected `;`, `(` or `)`)"),
                    ));
                }
                None => {
                    return Err(self.err(
                        l,
                        c,
                        "the game tree opened here is not closed (expected `)`)",
                    ))
                }
            }
        }
    }

    /// A variation, the `(` next: read to its end and dropped.
    fn skip_tree(&mut self) -> Result<(), String> {
        let (l, c) = (self.line, self.col);
        self.bump();
        let mut depth = 1usize;
        while depth > 0 {
            match self.peek() {
                Some('[') => {
                    self.value()?;
                }
                Some('(') => {
                    depth += 1;
                    self.bump();
                }
                Some(')') => {
                    depth -= 1;
                    self.bump();
                }
                Some(_) => {
                    self.bump();
                }
                None => {
                    return Err(self.err(
                        l,
                        c,
                        "the variation opened here is not closed (expected `)`)",
                    ))
                }
            }
        }
        Ok(())
    }
}

/// Reads every game of an SGF collection.
pub fn parse_games(text: &str, shown: &str) -> Result<Vec<TextGame>, String> {
    let mut r = Reader::new(text, shown, false);
    let mut games = Vec::new();
    loop {
        r.skip_space();
        match r.peek() {
            None => break,
            Some('(') => {
                let nodes = r.tree()?;
                games.push(game(&r, nodes)?);
            }
            Some(ch) => {
                return Err(r.err(
                    r.line,
                    r.col,
                    format!("unexpected `{ch}` (expected `(` to open a game)"),
                ))
            }
        }
    }
    if games.is_empty() {
        return Err(format!("{shown}: no game in the file (expected `(;`)"));
    }
    Ok(games)
}

/// A game from its main line: the root's properties as tags, the moves.
fn game(r: &Reader, nodes: Vec<Node>) -> Result<TextGame, String> {
    let mut g = TextGame::default();
    let mut nodes = nodes.into_iter();
    for (id, values, l, c) in nodes.next().unwrap_or_default() {
        match id.as_str() {
            "C" => g
                .notes
                .entry(0)
                .or_default()
                .comments
                .push(values.join(" ")),
            "AB" | "AW" | "AE" => {
                return Err(r.err(
                    l,
                    c,
                    format!("setup stones (`{id}`) are not read: only games from an empty board"),
                ))
            }
            "B" | "W" => {
                return Err(r.err(
                    l,
                    c,
                    "a move in the root node (expected the game's properties first)",
                ))
            }
            _ => g.tags.push((id, values.join("]["))),
        }
    }
    for node in nodes {
        let mut note = Note::default();
        for (id, values, l, c) in node {
            match id.as_str() {
                "B" | "W" => {
                    if values.len() != 1 {
                        return Err(r.err(l, c, format!("`{id}` takes one point")));
                    }
                    g.moves.push(WrittenMove {
                        text: format!("{id}[{}]", values[0]),
                        line: l,
                        col: c,
                    });
                }
                "C" => note.comments.push(values.join(" ")),
                "AB" | "AW" | "AE" => {
                    return Err(r.err(l, c, format!("setup stones (`{id}`) are not read")))
                }
                _ => note.nags.push(format!(
                    "{id}{}",
                    values
                        .iter()
                        .map(|v| format!("[{}]", escape(v)))
                        .collect::<String>()
                )),
            }
        }
        if !note.is_empty() {
            g.notes.insert(g.moves.len(), note);
        }
    }
    g.result = g
        .tags
        .iter()
        .find(|(k, _)| k == "RE")
        .map(|(_, v)| v.clone())
        .unwrap_or_else(|| "?".into());
    Ok(g)
}

/// A move's colour (0 black, 1 white) and point text.
pub fn split_move(text: &str) -> Option<(usize, &str)> {
    let colour = match text.get(..2)? {
        "B[" => 0,
        "W[" => 1,
        _ => return None,
    };
    Some((colour, text[2..].strip_suffix(']')?))
}

fn letter_index(c: char) -> Option<i32> {
    match c {
        'a'..='z' => Some(c as i32 - 'a' as i32),
        'A'..='Z' => Some(c as i32 - 'A' as i32 + 26),
        _ => None,
    }
}

fn index_letter(i: i32) -> char {
    if i < 26 {
        (b'a' + i as u8) as char
    } else {
        (b'A' + (i - 26) as u8) as char
    }
}

/// The cell of a point (`None`: a pass, `[]` or `tt` on boards up to 19).
pub fn point_cell(b: &Board, point: &str) -> Option<Result<Cell, String>> {
    let small = b.files <= 19 && b.ranks <= 19;
    if point.is_empty() || (point == "tt" && small) {
        return None;
    }
    let mut ch = point.chars();
    let cell = match (
        ch.next().and_then(letter_index),
        ch.next().and_then(letter_index),
        ch.next(),
    ) {
        (Some(x), Some(y), None) => b.cell(x, b.ranks as i32 - 1 - y),
        _ => None,
    };
    Some(cell.ok_or_else(|| {
        format!(
            "`{point}` is not a point of the {}x{} board",
            b.files, b.ranks
        )
    }))
}

/// The point of a cell: column from the left, row from the top.
pub fn cell_point(b: &Board, cell: Cell) -> String {
    let (f, r) = b.coords(cell);
    format!(
        "{}{}",
        index_letter(f),
        index_letter(b.ranks as i32 - 1 - r)
    )
}

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace(']', "\\]")
}

/// Writes one game: the root (`FF[4]`, the notes' tags, `extra`, the
/// result as `RE`), then one node per move with its comment and other
/// properties.
pub fn write_game(
    notes: &Notes,
    extra: &[(String, String)],
    turns: &[(String, u32, bool)],
    result: &str,
) -> String {
    let mut tags = notes.tags.clone();
    for (k, v) in extra {
        match tags.iter_mut().find(|(n, _)| n == k) {
            Some(t) => t.1 = v.clone(),
            None => tags.push((k.clone(), v.clone())),
        }
    }
    // A new game says its format; a file's game keeps its root as read.
    if notes.result.is_none() && !tags.iter().any(|(k, _)| k == "FF") {
        tags.insert(0, ("FF".into(), "4".into()));
    }
    match tags.iter_mut().find(|(k, _)| k == "RE") {
        Some(t) => t.1 = result.to_string(),
        None if result != "?" => tags.push(("RE".into(), result.to_string())),
        None => {}
    }
    let note_text = |n: Option<&Note>| {
        let Some(n) = n else { return String::new() };
        let mut s: String = n
            .comments
            .iter()
            .map(|c| format!("C[{}]", escape(c)))
            .collect();
        for p in &n.nags {
            s.push_str(p);
        }
        s
    };
    let mut out = String::from("(;");
    for (k, v) in &tags {
        // Multi-valued properties were kept joined by `][`.
        let vals: Vec<String> = v.split("][").map(escape).collect();
        out.push_str(&format!("{k}[{}]", vals.join("][")));
    }
    out.push_str(&note_text(notes.after.get(&0)));
    out.push('\n');
    for (i, (text, _, _)) in turns.iter().enumerate() {
        out.push(';');
        out.push_str(text);
        out.push_str(&note_text(notes.after.get(&(i + 1))));
        out.push(if (i + 1) % 10 == 0 { '\n' } else { ' ' });
    }
    out.push_str(")\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_count_columns_from_the_left_and_rows_from_the_top() {
        let b = Board::new(9, 9);
        let cell = point_cell(&b, "cd").unwrap().unwrap();
        assert_eq!(b.cell_name(cell), "c6");
        assert_eq!(cell_point(&b, cell), "cd");
        assert!(point_cell(&b, "tt").is_none());
        assert!(point_cell(&b, "").is_none());
        assert!(point_cell(&b, "zz").unwrap().is_err());
    }

    #[test]
    fn reads_the_main_line_and_skips_variations() {
        let t = "(;FF[4]GM[1]SZ[9]C[hi];B[ee]C[centre](;W[cc];B[gg])(;W[dd]))";
        let g = &parse_games(t, "t.sgf").unwrap()[0];
        let moves: Vec<_> = g.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(moves, ["B[ee]", "W[cc]", "B[gg]"]);
        assert_eq!(g.notes[&0].comments, ["hi"]);
        assert_eq!(g.notes[&1].comments, ["centre"]);
    }

    #[test]
    fn deeply_nested_trees_are_read_without_recursion() {
        let n = 200_000;
        let t = format!("(;GM[1]{}{})", "(;B[ee]".repeat(n), ")".repeat(n));
        let g = &parse_games(&t, "t.sgf").unwrap()[0];
        assert_eq!(g.moves.len(), n);
        let t = "(;GM[1];B[ee](;B[aa])(;W[cc]))";
        assert_eq!(parse_games(t, "t.sgf").unwrap()[0].moves.len(), 2);
        let t = format!("(;GM[1];B[ee](;W[dd]){}{})", "(".repeat(n), ")".repeat(n));
        assert_eq!(parse_games(&t, "t.sgf").unwrap()[0].moves.len(), 2);
    }

    #[test]
    fn every_cut_of_a_published_file_reads_or_is_refused_without_panic() {
        let text = include_str!("../../../tests/data/records/selfplay_9x9.sgf");
        for (i, _) in text.char_indices() {
            let _ = parse_games(&text[..i], "t.sgf");
        }
        assert!(parse_games(text, "t.sgf").is_ok());
    }

    #[test]
    fn malformed_sgf_is_refused_at_its_line_and_column() {
        let cases = [
            (
                "(;FF[4]\n;B[ee",
                "t.sgf:2:3: the value opened here is not closed",
            ),
            (
                "(;FF[4];B[ee]",
                "t.sgf:1:14: the file ends inside a game (expected `)`)",
            ),
            ("(;FF[4];b[ee])", "t.sgf:1:9: unexpected `b`"),
            ("(;FF[4]AB[aa];B[ee])", "t.sgf:1:8: setup stones (`AB`)"),
        ];
        for (text, want) in cases {
            let e = parse_games(text, "t.sgf").unwrap_err();
            assert!(e.contains(want), "{text:?}: {e}");
        }
    }
}
