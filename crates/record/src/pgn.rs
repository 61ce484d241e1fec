//! The text of PGN and PDN files (PDN's tags and movetext are PGN's): tag
//! pairs, movetext with move numbers, `{comments}`, `;` line comments,
//! NAGs (`$1`) and suffix annotations (`!?`), variations `( ... )` (read
//! and skipped: only the main line is a game) and the result token. What
//! the moves mean is [`super::exchange`]'s.
//!
//! Changes when the PGN or PDN syntax read or written changes.

use super::exchange::{Note, Notes, WrittenMove};

/// One game of a PGN or PDN file, as written.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TextGame {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<WrittenMove>,
    /// Comments and annotations, keyed by the number of moves they follow.
    pub notes: std::collections::BTreeMap<usize, Note>,
    /// The second player's moves written with their number (`9... b5`),
    /// by index.
    pub numbered: std::collections::BTreeSet<usize>,
    pub result: String,
}

/// The result tokens of PGN, and PDN's scores (`2-0`, `1-1`).
const RESULTS: [&str; 7] = ["1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1"];

/// Characters of a file with their line and column: what the PGN and
/// SGF readers share.
pub(super) struct Lexer<'a> {
    chars: Vec<char>,
    i: usize,
    pub(super) line: usize,
    pub(super) col: usize,
    pub(super) shown: &'a str,
    /// PGN's `%` escape lines are skipped as space.
    escapes: bool,
}

impl<'a> Lexer<'a> {
    pub(super) fn new(text: &str, shown: &'a str, escapes: bool) -> Lexer<'a> {
        Lexer {
            chars: text.chars().collect(),
            i: 0,
            line: 1,
            col: 1,
            shown,
            escapes,
        }
    }
}

impl Lexer<'_> {
    pub(super) fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }

    pub(super) fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += 1;
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }

    pub(super) fn err(&self, line: usize, col: usize, msg: impl std::fmt::Display) -> String {
        format!("{}:{line}:{col}: {msg}", self.shown)
    }

    pub(super) fn skip_space(&mut self) {
        while let Some(c) = self.peek() {
            if c == '%' && self.col == 1 && self.escapes {
                // An escape line: ignored to its end.
                while self.peek().is_some_and(|c| c != '\n') {
                    self.bump();
                }
            } else if c.is_whitespace() || c == '\u{feff}' {
                self.bump();
            } else {
                break;
            }
        }
    }

    /// `[Name "value"]`, the `[` already seen at `line:col`.
    fn tag(&mut self, line: usize, col: usize) -> Result<(String, String), String> {
        self.skip_space();
        let mut name = String::new();
        while let Some(c) = self.peek().filter(|c| c.is_alphanumeric() || *c == '_') {
            name.push(c);
            self.bump();
        }
        if name.is_empty() {
            return Err(self.err(self.line, self.col, "expected a tag name after `[`"));
        }
        self.skip_space();
        if self.peek() != Some('"') {
            return Err(self.err(
                self.line,
                self.col,
                format!("expected the tag `{name}`'s value in double quotes"),
            ));
        }
        self.bump();
        let mut value = String::new();
        loop {
            match self.bump() {
                Some('\\') => match self.bump() {
                    Some(c) => value.push(c),
                    None => break,
                },
                Some('"') => break,
                Some('\n') | None => {
                    return Err(self.err(
                        line,
                        col,
                        format!("the value of tag `{name}` is not closed (expected `\"`)"),
                    ))
                }
                Some(c) => value.push(c),
            }
        }
        self.skip_space();
        if self.bump() != Some(']') {
            return Err(self.err(
                line,
                col,
                format!("the tag `{name}` is not closed (expected `]`)"),
            ));
        }
        Ok((name, value))
    }

    /// A `{comment}`, the `{` already seen at `line:col`.
    fn comment(&mut self, line: usize, col: usize) -> Result<String, String> {
        let mut text = String::new();
        loop {
            match self.bump() {
                Some('}') => return Ok(text.split_whitespace().collect::<Vec<_>>().join(" ")),
                Some(c) => text.push(c),
                None => {
                    return Err(self.err(
                        line,
                        col,
                        "the comment opened here is not closed (expected `}`)",
                    ))
                }
            }
        }
    }

    /// A variation, the `(` already seen at `line:col`: skipped whole.
    fn variation(&mut self, line: usize, col: usize) -> Result<(), String> {
        let mut depth = 1;
        while depth > 0 {
            let (l, c) = (self.line, self.col);
            match self.bump() {
                Some('(') => depth += 1,
                Some(')') => depth -= 1,
                Some('{') => {
                    self.comment(l, c)?;
                }
                Some(';') => {
                    while self.peek().is_some_and(|c| c != '\n') {
                        self.bump();
                    }
                }
                Some(_) => {}
                None => {
                    return Err(self.err(
                        line,
                        col,
                        "the variation opened here is not closed (expected `)`)",
                    ))
                }
            }
        }
        Ok(())
    }

    /// A word of movetext: a move, a move number or a result.
    fn word(&mut self) -> String {
        let mut w = String::new();
        while let Some(c) = self.peek() {
            if c.is_whitespace() || "{}()[];$".contains(c) {
                break;
            }
            // `12.e4`: the number stands apart from the move.
            if c == '.' && !w.is_empty() && w.chars().all(|d| d.is_ascii_digit()) {
                while self.peek() == Some('.') {
                    w.push('.');
                    self.bump();
                }
                break;
            }
            w.push(c);
            self.bump();
        }
        w
    }
}

/// Reads every game of a PGN or PDN file; `shown` names the file in
/// errors (`file:line:col: what was expected`).
pub fn parse_games(text: &str, shown: &str) -> Result<Vec<TextGame>, String> {
    let mut lx = Lexer::new(text, shown, true);
    let mut games = Vec::new();
    loop {
        lx.skip_space();
        if lx.peek().is_none() {
            break;
        }
        games.push(parse_game(&mut lx)?);
    }
    if games.is_empty() {
        return Err(format!(
            "{shown}: no game in the file (expected tags `[Event \"...\"]` or moves)"
        ));
    }
    Ok(games)
}

fn parse_game(lx: &mut Lexer) -> Result<TextGame, String> {
    let mut g = TextGame::default();
    loop {
        lx.skip_space();
        if lx.peek() != Some('[') {
            break;
        }
        let (l, c) = (lx.line, lx.col);
        lx.bump();
        let tag = lx.tag(l, c)?;
        g.tags.push(tag);
    }
    loop {
        lx.skip_space();
        let (l, c) = (lx.line, lx.col);
        let Some(ch) = lx.peek() else {
            return Err(lx.err(
                l,
                c,
                "the game ends without a result (expected 1-0, 0-1, 1/2-1/2 or *)",
            ));
        };
        let note = g.notes.entry(g.moves.len());
        match ch {
            '{' => {
                lx.bump();
                let text = lx.comment(l, c)?;
                note.or_default().comments.push(text);
            }
            ';' => {
                let mut text = String::new();
                lx.bump();
                while let Some(c) = lx.peek().filter(|&c| c != '\n') {
                    text.push(c);
                    lx.bump();
                }
                note.or_default().comments.push(text.trim().to_string());
            }
            '(' => {
                lx.bump();
                lx.variation(l, c)?;
            }
            ')' => return Err(lx.err(l, c, "`)` closes no variation")),
            '[' => {
                return Err(lx.err(l, c, "a tag among the moves (expected the result 1-0, 0-1, 1/2-1/2 or * before the next game's tags)"))
            }
            '$' => {
                lx.bump();
                let n = lx.word();
                if n.is_empty() || !n.chars().all(|d| d.is_ascii_digit()) {
                    return Err(lx.err(l, c, "expected a number after `$` (a NAG such as $1)"));
                }
                if g.moves.is_empty() {
                    return Err(lx.err(l, c, "a NAG before the first move (expected a move)"));
                }
                note.or_default().nags.push(format!("${n}"));
            }
            _ => {
                if symbol(lx, &mut g, ch, l, c)? {
                    break;
                }
            }
        }
    }
    g.notes.retain(|_, n| !n.is_empty());
    if let Some((_, r)) = g.tags.iter().find(|(k, _)| k == "Result") {
        if *r != g.result && r != "?" {
            return Err(format!(
                "{}: the `Result` tag says `{r}` but the movetext ends `{}`",
                lx.shown, g.result
            ));
        }
    }
    Ok(g)
}

/// A symbol of movetext at `l:c` (its first character `ch`): a move, a
/// move number, a suffix annotation or the result (then `true`).
fn symbol(lx: &mut Lexer, g: &mut TextGame, ch: char, l: usize, c: usize) -> Result<bool, String> {
    // A symbol starts with a letter or a digit (PGN 3.2.3);
    // `!`/`?` annotate the move before.
    let starts = ch.is_alphanumeric() || ch == '*' || ch == '!' || ch == '?' || ch == '.';
    let w = if starts { lx.word() } else { String::new() };
    if w.is_empty() {
        lx.bump();
        return Err(lx.err(
            l,
            c,
            format!("unexpected `{ch}` (expected a move, a comment, a move number or the result)"),
        ));
    }
    if RESULTS.contains(&w.as_str()) {
        g.result = w;
        return Ok(true);
    }
    if w.chars().next().is_some_and(|c| c.is_ascii_digit())
        && w.ends_with('.')
        && w.trim_end_matches('.').chars().all(|d| d.is_ascii_digit())
    {
        // A move number; `9...` (or `9. ...`) numbers a second
        // player's move.
        lx.skip_space();
        if w.ends_with("...") || lx.peek() == Some('.') {
            g.numbered.insert(g.moves.len());
        }
        return Ok(false);
    }
    if w.chars().all(|c| c == '.') {
        return Ok(false); // `...` after a number
    }
    let body = w.trim_end_matches(['!', '?']);
    if body.is_empty() {
        if g.moves.is_empty() {
            return Err(lx.err(
                l,
                c,
                format!("`{w}` before the first move (expected a move)"),
            ));
        }
        g.notes.entry(g.moves.len()).or_default().nags.push(w);
        return Ok(false);
    }
    let suffix = &w[body.len()..];
    g.moves.push(WrittenMove {
        text: body.to_string(),
        line: l,
        col: c,
    });
    if !suffix.is_empty() {
        g.notes
            .entry(g.moves.len())
            .or_default()
            .nags
            .push(suffix.to_string());
    }
    Ok(false)
}

/// The tags every PGN game starts with, in order (the Seven Tag Roster),
/// and what stands for an unknown value.
const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// Writes one game: for PGN (or a game not read from a file) the Seven
/// Tag Roster first (from `notes`, unknown values as `?`), then the other
/// tags in their order (a PDN file's tags as read), then movetext of
/// at most 79 columns. `turns` are the moves as written, `numbers` each
/// move's number and whether it is the first player's; comments and
/// annotations stand after the move they follow.
pub fn write_game(
    pgn: bool,
    notes: &Notes,
    extra: &[(String, String)],
    turns: &[(String, u32, bool)],
    result: &str,
) -> String {
    let mut out = String::new();
    let quote = |v: &str| v.replace('\\', "\\\\").replace('"', "\\\"");
    let get = |k: &str| {
        notes
            .tags
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
    };
    // A PGN game, or a new one, starts with the Seven Tag Roster; a PDN
    // file's game keeps its tags as read.
    let roster = pgn || notes.result.is_none();
    let mut others: Vec<(String, String)> = notes
        .tags
        .iter()
        .filter(|(k, _)| !roster || !ROSTER.iter().any(|(r, _)| r == k))
        .map(|(k, v)| {
            (
                k.clone(),
                if k == "Result" {
                    result.to_string()
                } else {
                    v.clone()
                },
            )
        })
        .collect();
    if roster {
        for (k, unknown) in ROSTER {
            let v = if k == "Result" {
                result.to_string()
            } else {
                get(k).unwrap_or_else(|| unknown.to_string())
            };
            out.push_str(&format!("[{k} \"{}\"]\n", quote(&v)));
        }
    }
    for (k, v) in extra {
        match others.iter_mut().find(|(n, _)| n == k) {
            Some(t) => t.1 = v.clone(),
            None => others.push((k.clone(), v.clone())),
        }
    }
    for (k, v) in others {
        out.push_str(&format!("[{k} \"{}\"]\n", quote(&v)));
    }
    out.push('\n');
    let mut words: Vec<String> = Vec::new();
    let note_words = |words: &mut Vec<String>, n: Option<&Note>| {
        let Some(n) = n else { return false };
        for a in &n.nags {
            if a.starts_with('$') {
                words.push(a.clone());
            } else if let Some(last) = words.last_mut() {
                last.push_str(a);
            }
        }
        for c in &n.comments {
            let mut parts: Vec<String> = c.split_whitespace().map(str::to_string).collect();
            if parts.is_empty() {
                parts.push(String::new());
            }
            parts[0].insert(0, '{');
            if let Some(last) = parts.last_mut() {
                last.push('}');
            }
            words.extend(parts);
        }
        !n.comments.is_empty() || n.nags.iter().any(|a| a.starts_with('$'))
    };
    let mut interrupted = note_words(&mut words, notes.after.get(&0));
    for (i, (text, number, first)) in turns.iter().enumerate() {
        let follow_file = notes.numbered.as_ref().map(|set| set.contains(&i));
        if *first {
            words.push(format!("{number}."));
        } else if i == 0 || follow_file.unwrap_or(interrupted) {
            words.push(format!("{number}..."));
        }
        words.push(text.clone());
        interrupted = note_words(&mut words, notes.after.get(&(i + 1)));
    }
    words.push(result.to_string());
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::parse_games;

    #[test]
    fn reads_tags_numbers_comments_annotations_and_skips_variations() {
        let t = "[Event \"x\"]\n[Result \"1-0\"]\n\n{start} 1. e4 $1 e5!? (1... c5 {Sicilian} (1... e6)) 2.Nf3 ; fine\n1-0\n";
        let g = &parse_games(t, "t.pgn").unwrap()[0];
        let moves: Vec<_> = g.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(moves, ["e4", "e5", "Nf3"]);
        assert_eq!(g.notes[&0].comments, ["start"]);
        assert_eq!(g.notes[&1].nags, ["$1"]);
        assert_eq!(g.notes[&2].nags, ["!?"]);
        assert_eq!(g.notes[&3].comments, ["fine"]);
        assert_eq!(g.result, "1-0");
    }

    #[test]
    fn every_cut_of_a_published_file_reads_or_is_refused_without_panic() {
        for text in [
            include_str!("../../../tests/data/records/classics.pgn"),
            include_str!("../../../tests/data/records/double_corner_dyke.pdn"),
        ] {
            for (i, _) in text.char_indices() {
                let _ = parse_games(&text[..i], "t.pgn");
            }
            assert!(parse_games(text, "t.pgn").is_ok());
        }
    }

    #[test]
    fn malformed_text_is_refused_at_its_line_and_column() {
        let cases = [
            (
                "[Event \"x\n1. e4 *",
                "t.pgn:1:1: the value of tag `Event` is not closed",
            ),
            (
                "1. e4 {open",
                "t.pgn:1:7: the comment opened here is not closed",
            ),
            (
                "1. e4 (1. d4",
                "t.pgn:1:7: the variation opened here is not closed",
            ),
            ("1. e4 e5", "t.pgn:1:9: the game ends without a result"),
            ("1. e4 ) *", "t.pgn:1:7: `)` closes no variation"),
            (
                "[Result \"0-1\"]\n1. e4 1-0",
                "the `Result` tag says `0-1` but the movetext ends `1-0`",
            ),
        ];
        for (text, want) in cases {
            let e = parse_games(text, "t.pgn").unwrap_err();
            assert!(e.contains(want), "{text:?}: {e}");
        }
    }
}
