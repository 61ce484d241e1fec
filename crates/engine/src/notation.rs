//! Written forms of positions and moves beyond the canonical action text:
//! a FEN-like one-line position for square boards, the variant's move
//! notation (letter + destination, captures listed, check and mate marks),
//! and movetext (numbered moves with annotations) for replays.

use crate::base::effect::Effect;
use crate::base::geometry::{Board, Cell};
use crate::base::state::{GameState, KindId, PlayerId};
use crate::rules::variant::NotationStyle;
use crate::{Action, ActionError, Engine, Event};

impl Engine {
    /// Reads a FEN-like position: ranks from the top (highest rank) down,
    /// separated by `/`; a kind's `code` letter in upper case for the first
    /// player and lower case for the second; a number for a run of empty
    /// cells. An optional second field names the player to move (`w`/`b`,
    /// a player's name or its initial). Only for two-player variants whose
    /// kind codes are letters. Other fields are ignored.
    pub fn parse_fen(&self, text: &str, seed: u64) -> Result<GameState, String> {
        let v = &self.variant;
        if v.players.len() != 2 {
            return Err("a FEN position needs a two-player variant".into());
        }
        let b = &v.board;
        let mut fields = text.split_whitespace();
        let field = fields.next().ok_or("empty position")?;
        let (board_field, hands) = split_hands(field)?;
        let rows: Vec<&str> = board_field.split('/').collect();
        if rows.len() != b.ranks as usize {
            return Err(format!(
                "the position has {} ranks separated by `/`; this board has {}",
                rows.len(),
                b.ranks
            ));
        }
        let mut s = self.empty_state(seed);
        let mut placed: Vec<(Cell, KindId, PlayerId)> = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            self.fen_rank(row, b.ranks as usize - 1 - i, &mut placed)?;
        }
        for &(cell, _, _) in &placed {
            if s.terrain()[cell as usize] & b.blocking != 0 {
                return Err(format!("{} cannot hold a piece", b.cell_name(cell)));
            }
        }
        placed.sort_by_key(|x| x.0);
        for (c, k, p) in placed {
            s.add_piece(k, p, c, !v.hidden_identities)?;
        }
        self.read_hands(&mut s, hands)?;
        if let Some(side) = fields.next() {
            let p = self.side_named(side).ok_or_else(|| {
                format!(
                    "`{side}` names no player to move (players: {})",
                    v.players.join(", ")
                )
            })?;
            s.to_move = p;
        }
        if let Some(d) = &v.dice {
            s.dice = match fields.next() {
                Some(text) => read_dice(text, d)?,
                None => crate::base::dice::Dice::roll(&mut s.rng, d.count, d.faces, d.doubles),
            };
        }
        // The rest (castling rights, en passant, clocks) is the rules' to read.
        let rest: Vec<&str> = fields.collect();
        self.rules
            .position_fields(&mut s, &self.variant, &rest)
            .map_err(|e| format!("rules.position_fields: {e}"))?;
        self.judge_loaded(&mut s)?;
        Ok(s)
    }

    /// One rank of a FEN position (`row`, the board's `rank`, from 0): its
    /// pieces added to `placed`; a rank of more or fewer cells than the
    /// board has files is an error.
    fn fen_rank(
        &self,
        row: &str,
        rank: usize,
        placed: &mut Vec<(Cell, KindId, PlayerId)>,
    ) -> Result<(), String> {
        let v = &self.variant;
        let b = &v.board;
        let mut file = 0usize;
        let mut chars = row.chars().peekable();
        while let Some(ch) = chars.next() {
            if ch.is_ascii_digit() {
                let mut n = ch.to_digit(10).unwrap() as usize;
                while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                    n = n * 10 + d as usize;
                    chars.next();
                }
                file += n;
                continue;
            }
            let (ch, mark) = match ch {
                '+' => (chars.next().unwrap_or('+'), Some('+')),
                _ => (ch, chars.next_if_eq(&'~').map(|_| '~')),
            };
            let kind = self.coded_kind(ch, mark).ok_or_else(|| {
                format!(
                    "rank {}: `{}{ch}{}` is no piece kind's code (codes: {})",
                    rank + 1,
                    if mark == Some('+') { "+" } else { "" },
                    if mark == Some('~') { "~" } else { "" },
                    self.fen_letters()
                )
            })?;
            if file >= b.files as usize {
                // A piece past the last file would vanish without a word.
                return Err(format!(
                    "rank {} (`{row}`) describes more than {} cells; the board has {} files",
                    rank + 1,
                    b.files,
                    b.files
                ));
            }
            let owner = if ch.is_ascii_uppercase() { 0 } else { 1 };
            let at = (rank * b.files as usize + file) as Cell;
            let count =
                stack_count(&mut chars, v.stacks).map_err(|e| format!("rank {}: {e}", rank + 1))?;
            if !b.is_point(at) {
                return Err(format!(
                    "rank {}: a piece on file {}, which is not a point of the board",
                    rank + 1,
                    (b'a' + file as u8) as char
                ));
            }
            for _ in 0..count {
                placed.push((at, kind as KindId, owner));
            }
            file += 1;
        }
        if file != b.files as usize {
            return Err(format!(
                "rank {} (`{row}`) describes {file} cells; the board has {} files",
                rank + 1,
                b.files
            ));
        }
        Ok(())
    }

    fn fen_letters(&self) -> String {
        self.variant
            .kinds
            .iter()
            .filter_map(|k| {
                k.code
                    .map(|c| format!("{} {}", self.kind_code(k, c), k.name))
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The kind a position's code names: its letter (either case) and mark.
    fn coded_kind(&self, ch: char, mark: Option<char>) -> Option<KindId> {
        let upper = ch.to_ascii_uppercase();
        let kinds = self.variant.kinds.iter();
        kinds
            .map(|k| (k.code.map(|c| c.to_ascii_uppercase()), k.code_mark))
            .position(|code| code == (Some(upper), mark))
            .map(|k| k as KindId)
    }

    /// A kind's code as a position writes it, with its mark, `c` in the
    /// owner's case.
    fn kind_code(&self, k: &crate::rules::variant::Kind, c: char) -> String {
        match k.code_mark {
            Some('+') => format!("+{c}"),
            Some(m) => format!("{c}{m}"),
            None => c.to_string(),
        }
    }

    /// The pieces in hand a position lists (`[QRbp]`: upper case the first
    /// player's), put in the players' hands.
    fn read_hands(&self, s: &mut GameState, hands: Option<&str>) -> Result<(), String> {
        let Some(text) = hands.map(|h| if h == "-" { "" } else { h }) else {
            return Ok(());
        };
        if self.variant.hands.is_none() && !text.is_empty() {
            return Err(format!(
                "`[{text}]` lists pieces in hand, and this variant has no hands"
            ));
        }
        let mut chars = text.chars().peekable();
        while let Some(ch) = chars.next() {
            let mut n = 1;
            if let Some(d) = ch.to_digit(10) {
                // `3P`: three of them (as some hand notations write it).
                n = d;
                while let Some(d) = chars.next_if(|c| c.is_ascii_digit()) {
                    n = n * 10 + d.to_digit(10).unwrap_or(0);
                }
                if n > crate::base::limits::MAX_COUNT {
                    return Err(format!("in hand: {n} pieces of one kind are too many"));
                }
            }
            let ch = if ch.is_ascii_digit() {
                chars.next().ok_or("in hand: a count names no piece")?
            } else {
                ch
            };
            let kind = self.coded_kind(ch, None).ok_or_else(|| {
                format!(
                    "in hand: `{ch}` is no piece kind's code (codes: {})",
                    self.fen_letters()
                )
            })?;
            let owner = if ch.is_ascii_uppercase() { 0 } else { 1 };
            for _ in 0..n {
                self.add_to_hand(s, owner, kind)?;
            }
        }
        Ok(())
    }

    /// The hands of a position as its text writes them (`[QRbp]`), empty
    /// without hands.
    fn hands_text(&self, s: &GameState) -> String {
        if self.variant.hands.is_none() {
            return String::new();
        }
        let mut out = String::from("[");
        for p in 0..2 {
            for (k, kind) in self.variant.kinds.iter().enumerate() {
                let Some(c) = kind.code else { continue };
                let c = if p == 0 {
                    c.to_ascii_uppercase()
                } else {
                    c.to_ascii_lowercase()
                };
                for _ in 0..self.hand_count(s, p, k as KindId) {
                    out.push(c);
                }
            }
        }
        out.push(']');
        out
    }

    /// The FEN-like line of a position (the inverse of [`Engine::parse_fen`]),
    /// with the player to move as `w` or `b` when those read back as that
    /// player, else by its first letter or name (black moves first in Go).
    pub fn to_fen(&self, s: &GameState) -> String {
        let b = &self.variant.board;
        let mut out = String::new();
        for rank in (0..b.ranks as usize).rev() {
            let mut empty = 0;
            for file in 0..b.files as usize {
                let cell = rank * b.files as usize + file;
                match s.board()[cell] {
                    None => empty += 1,
                    Some(id) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let p = &s.pieces[id as usize];
                        let k = &self.variant.kinds[p.kind as usize];
                        let c = k.code.unwrap_or('?');
                        let c = if p.owner == 0 {
                            c.to_ascii_uppercase()
                        } else {
                            c.to_ascii_lowercase()
                        };
                        out.push_str(&self.kind_code(k, c));
                        let n = s.count_at(cell as Cell);
                        if n > 1 {
                            out.push_str(&format!("({n})"));
                        }
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push_str(&self.hands_text(s));
        // `w` and `b` for the first and second player, unless they would
        // read back as another player (a second player named by `w`): then
        // the player's first letter, or its name.
        let name = &self.variant.players[s.to_move as usize];
        let letter = if s.to_move == 0 { "w" } else { "b" };
        let initial: String = name.chars().take(1).collect();
        let side = [letter, initial.as_str()]
            .into_iter()
            .find(|t| self.side_named(t) == Some(s.to_move))
            .unwrap_or(name);
        out.push(' ');
        out.push_str(side);
        if self.variant.dice.is_some() {
            out.push(' ');
            out.push_str(&s.dice.text());
        }
        out
    }

    /// The player a FEN's side field names: a player's name, or its
    /// first letter when no other player's name starts with it; else `w`
    /// for the first player and `b` for the second, as FEN writes them.
    fn side_named(&self, side: &str) -> Option<PlayerId> {
        let players = &self.variant.players;
        if let Some(p) = players.iter().position(|p| p.eq_ignore_ascii_case(side)) {
            return Some(p as PlayerId);
        }
        let mut chars = side.chars();
        let (Some(first), None) = (chars.next(), chars.next()) else {
            return None;
        };
        let starting: Vec<usize> = (0..players.len())
            .filter(|&i| {
                players[i]
                    .chars()
                    .next()
                    .is_some_and(|c| c.eq_ignore_ascii_case(&first))
            })
            .collect();
        match (starting.as_slice(), first.to_ascii_lowercase()) {
            ([p], _) => Some(*p as PlayerId),
            ([], 'w') => Some(0),
            ([], 'b') => Some(1),
            _ => None,
        }
    }

    /// The cells an applied action captured, from its events, sorted.
    pub fn captured_cells(events: &[Event]) -> Vec<Cell> {
        let mut cells: Vec<Cell> = events
            .iter()
            .filter_map(|e| match e {
                Event::Struck { to, result, .. } if result.removes_defender() => Some(*to),
                Event::Effect(Effect::Captured { cell: Some(c), .. }) => Some(*c),
                _ => None,
            })
            .collect();
        cells.sort_unstable();
        cells.dedup();
        cells
    }

    /// Cell names in notation order (file, then rank).
    pub fn cells_text(&self, cells: &[Cell]) -> Vec<String> {
        let b = &self.variant.board;
        let mut c = cells.to_vec();
        c.sort_by_key(|&x| {
            let (f, r) = b.coords(x);
            (f, r)
        });
        c.into_iter().map(|x| b.cell_name(x)).collect()
    }

    /// The move part of an action in the variant's notation, without
    /// captures or check marks: `Wb6` (origin added when another piece of
    /// the same kind could go there too), `h2h5` for kinds without a letter.
    fn move_base(&self, s: &GameState, legal: &[Action], from: Cell, to: Cell) -> String {
        let b = &self.variant.board;
        let Some(id) = s.piece_at(from) else {
            return format!("{}{}", b.cell_name(from), b.cell_name(to));
        };
        let kind = &self.variant.kinds[s.pieces[id as usize].kind as usize];
        let Some(letter) = kind.letter.as_deref().filter(|l| !l.is_empty()) else {
            return format!("{}{}", b.cell_name(from), b.cell_name(to));
        };
        let kind_of = |c: Cell| s.piece_at(c).map(|i| s.pieces[i as usize].kind);
        let rivals = rivals(legal, from, to, |f| kind_of(f) == kind_of(from));
        let origin = if rivals.is_empty() {
            String::new()
        } else {
            least_origin(b, from, &rivals, false)
        };
        format!("{letter}{origin}{}", b.cell_name(to))
    }

    /// An action in the variant's notation, with its captures and a check or
    /// mate mark (the action is played on a copy to find them). Falls back
    /// to the canonical text for the coordinate style and for choices.
    pub fn notation(&self, s: &GameState, a: &Action) -> String {
        let n = &self.variant.notation;
        let Action::Move { from, to } = *a else {
            return self.action_text(s, a);
        };
        if n.style == NotationStyle::Coordinates {
            return self.action_text(s, a);
        }
        let legal = self.legal_actions(s);
        if n.style == NotationStyle::San {
            return self.san_text(s, &legal, a, None);
        }
        let base = self.move_base(s, &legal, from, to);
        let mut next = s.clone();
        let Ok(events) = self.apply_unchecked(&mut next, a) else {
            return base;
        };
        let mut text = base;
        let captured = Self::captured_cells(&events);
        if captured == [to]
            && s.piece_at(from).is_some_and(|id| {
                let k = &self.variant.kinds[s.pieces[id as usize].kind as usize];
                k.letter.as_deref().is_some_and(|l| !l.is_empty())
            })
        {
            // A piece taking by displacement: `K:h5`.
            let b = &self.variant.board;
            text = text.trim_end_matches(&b.cell_name(to)).to_string();
            text.push_str(&n.capture_mark);
            text.push_str(&b.cell_name(to));
        } else {
            for c in self.cells_text(&captured) {
                text.push_str(&n.capture_mark);
                text.push_str(&c);
            }
        }
        let mover = s.pieces[s.piece_at(from).unwrap_or(0) as usize].owner;
        text.push_str(&self.check_suffix(s, &next, mover));
        text
    }

    /// The check or mate mark of a move by `mover` that led from `s` to
    /// `next` (empty when no other player's royal piece is attacked). A
    /// mate mark that is a word (`mat`) stands apart.
    pub(crate) fn check_suffix(&self, s: &GameState, next: &GameState, mover: PlayerId) -> String {
        let n = &self.variant.notation;
        let checked: Vec<PlayerId> = (0..next.players)
            .filter(|&q| q != mover && s.eliminated & (1 << q) == 0)
            .filter(|&q| self.royal_attacked(next, q))
            .collect();
        if checked.is_empty() {
            return String::new();
        }
        let mated = next
            .outcome
            .as_ref()
            .is_some_and(|o| !checked.iter().any(|q| o.winners.contains(q)));
        if !mated {
            n.check.clone()
        } else if n.mate.starts_with(|c: char| c.is_alphanumeric()) {
            format!(" {}", n.mate)
        } else {
            n.mate.clone()
        }
    }

    /// A move and the choice that completes it (a promotion), written as
    /// one in the variant's notation (`e8=Q+`); other styles write the move.
    pub fn notation_turn(&self, s: &GameState, a: &Action, then: Option<&Action>) -> String {
        if self.variant.notation.style == NotationStyle::San {
            return self.san_text(s, &self.legal_actions(s), a, then);
        }
        self.notation(s, a)
    }

    /// How a front end writes an action: in the variant's notation when it
    /// declares one and piece identities are public (the notation's
    /// disambiguation and check marks read the true position), else the
    /// canonical text.
    pub fn move_text(&self, s: &GameState, a: &Action, then: Option<&Action>) -> String {
        if self.variant.hidden_identities {
            return self.action_text(s, a);
        }
        self.notation_turn(s, a, then)
    }

    /// `text` without trailing check and mate marks and `!`/`?`.
    pub(crate) fn strip_marks(&self, text: &str) -> String {
        let n = &self.variant.notation;
        let mut t = text.trim().trim_end_matches(['!', '?']).to_string();
        for mark in [n.mate.as_str(), "#", n.check.as_str(), "+"] {
            if !mark.is_empty() {
                t = t.trim_end().trim_end_matches(mark).to_string();
            }
        }
        t.trim_end_matches(['!', '?']).trim().to_string()
    }

    /// Reads a move written in the variant's notation (or the canonical
    /// form). Returns the action and, when the text lists captures, the
    /// captured cells it names, for checking against what the engine did.
    /// Check and mate marks and `!`/`?` annotations are ignored.
    pub fn parse_notation(
        &self,
        s: &GameState,
        text: &str,
    ) -> Result<(Action, Option<Vec<Cell>>), ActionError> {
        let n = &self.variant.notation;
        let stripped = self.strip_marks(text);
        let t = stripped.as_str();
        if n.style == NotationStyle::Coordinates || !s.pending.is_empty() {
            return self.parse_canonical(s, t).map(|a| (a, None));
        }
        if n.style == NotationStyle::San {
            return self.parse_san(s, t).map(|v| (v[0], None));
        }
        let b = &self.variant.board;
        let mark = n.capture_mark.as_str();
        let (main, caps) = match t.split_once(mark) {
            Some((m, rest)) if !mark.is_empty() => {
                let mut cells = Vec::new();
                for part in rest.split(mark) {
                    let c = b.parse_cell(part.trim()).ok_or_else(|| {
                        ActionError::Parse(format!("`{part}` in `{t}` is not a cell"))
                    })?;
                    cells.push(c);
                }
                (m.to_string(), Some(cells))
            }
            _ => (t.to_string(), None),
        };
        // `K:h5`: a letter alone before the mark takes on the first cell.
        let main = if !main.is_empty()
            && main.chars().all(|c| c.is_ascii_alphabetic())
            && caps.as_ref().is_some_and(|c| !c.is_empty())
        {
            format!("{main}{}", b.cell_name(caps.as_ref().unwrap()[0]))
        } else {
            main
        };
        let legal = self.legal_actions(s);
        let mut found: Vec<Action> = Vec::new();
        for a in &legal {
            let Action::Move { from, to } = *a else {
                continue;
            };
            let base = self.move_base(s, &legal, from, to);
            let plain = format!("{}{}", b.cell_name(from), b.cell_name(to));
            let bare = self.move_base(s, &[], from, to);
            if main == base || main == plain || main == bare || {
                // A letter with the full origin: `Wd8b6`.
                let letter = s
                    .piece_at(from)
                    .and_then(|id| {
                        self.variant.kinds[s.pieces[id as usize].kind as usize]
                            .letter
                            .clone()
                    })
                    .unwrap_or_default();
                !letter.is_empty() && main == format!("{letter}{plain}")
            } {
                found.push(*a);
            }
        }
        match found.len() {
            1 => Ok((found[0], caps)),
            0 => {
                // The canonical form (`e7-e5`), legal or not: apply explains.
                match self.parse_canonical(s, &main) {
                    Ok(a) => Ok((a, caps)),
                    Err(_) => Err(ActionError::Illegal(format!(
                        "`{text}` is no legal move here"
                    ))),
                }
            }
            _ => Err(ActionError::Ambiguous(format!(
                "`{text}` is ambiguous: {}",
                found
                    .iter()
                    .map(|a| self.action_text(s, a))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ))),
        }
    }
}

/// Splits movetext into move tokens: move numbers (`12.`, `12...`),
/// annotation marks, `{comments}`, `;` line comments and result words are
/// dropped; a check or mate word standing alone (`mat`) is dropped too.
pub fn movetext_tokens(text: &str, marks: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0;
    for line in text.lines() {
        let line = match line.find(';') {
            Some(i) if depth == 0 => &line[..i],
            _ => line,
        };
        let mut cleaned = String::new();
        for ch in line.chars() {
            match ch {
                '{' => depth += 1,
                '}' if depth > 0 => depth -= 1,
                _ if depth == 0 => cleaned.push(ch),
                _ => {}
            }
        }
        for word in cleaned.split_whitespace() {
            // `12.h2h5` and `12...` carry a number in front.
            let w = word.trim_start_matches(|c: char| c.is_ascii_digit());
            let w = if w.len() != word.len() || word.starts_with('.') {
                w.trim_start_matches('.')
            } else {
                word
            };
            let w = w.trim_end_matches(['!', '?']);
            if w.is_empty()
                || marks.contains(&w)
                || matches!(w, "1-0" | "0-1" | "1/2-1/2" | "*" | "-")
                || w.chars().all(|c| c == '.' || c == '…')
            {
                continue;
            }
            out.push(w.to_string());
        }
    }
    out
}

/// The origins, other than `from`, of the legal moves to `to` whose piece
/// `same` accepts (pieces a move's text must tell apart).
pub(super) fn rivals(
    legal: &[Action],
    from: Cell,
    to: Cell,
    same: impl Fn(Cell) -> bool,
) -> Vec<Cell> {
    legal
        .iter()
        .filter_map(|a| match *a {
            Action::Move { from: f, to: t } if t == to && f != from && same(f) => Some(f),
            _ => None,
        })
        .collect()
}

/// The least part of `from`'s name that tells it from every rival: its
/// file, else its rank (unless `no_rank`), else the whole name.
pub(super) fn least_origin(b: &Board, from: Cell, rivals: &[Cell], no_rank: bool) -> String {
    let name = b.cell_name(from);
    let split = name
        .char_indices()
        .find(|(_, c)| c.is_ascii_digit())
        .map_or(1, |(i, _)| i);
    let (ff, fr) = b.coords(from);
    if rivals.iter().all(|&r| b.coords(r).0 != ff) {
        name[..split].to_string()
    } else if !no_rank && rivals.iter().all(|&r| b.coords(r).1 != fr) {
        name[split..].to_string()
    } else {
        name
    }
}

/// A position's first field split into the board and the pieces in hand
/// (`board[hand]`), when it lists them.
/// A stack's count after a piece's code (`C(5)`: five), at most `most`;
/// 1 when none is written.
fn stack_count(
    chars: &mut std::iter::Peekable<std::str::Chars>,
    most: u8,
) -> Result<usize, String> {
    if chars.next_if_eq(&'(').is_none() {
        return Ok(1);
    }
    let mut n = 0usize;
    while let Some(d) = chars.next_if(|c| c.is_ascii_digit()) {
        n = (n * 10 + d.to_digit(10).unwrap_or(0) as usize).min(1000);
    }
    if chars.next_if_eq(&')').is_none() {
        return Err("a stack's count is written in parentheses after the code, as `C(5)`".into());
    }
    if n == 0 || n > most as usize {
        return Err(format!(
            "`({n})`: a stack holds 1 to {most} pieces here{}",
            if most == 1 {
                " (this variant does not stack pieces)"
            } else {
                ""
            }
        ));
    }
    Ok(n)
}

/// The dice field of a position (`6,5`; `-` for none), checked against
/// the variant's dice: each value a face, and as many as one roll gives.
pub fn read_dice(
    text: &str,
    d: &crate::rules::variant::forms::DiceDecl,
) -> Result<crate::base::dice::Dice, String> {
    if text == "-" {
        return Ok(crate::base::dice::Dice::default());
    }
    let mut vals = Vec::new();
    for t in text.split(',') {
        match t.parse::<u8>() {
            Ok(v) if (1..=d.faces).contains(&v) => vals.push(v),
            _ => {
                return Err(format!(
                    "dice `{text}`: `{t}` is not a face of a die of {} faces (write the dice left to use as `6,5`, or `-`)",
                    d.faces
                ))
            }
        }
    }
    let most = d.count as usize * d.doubles as usize;
    let same = vals.iter().all(|&x| x == vals[0]);
    let fits = vals.len() <= d.count as usize || (same && vals.len() <= most);
    if !fits {
        return Err(format!(
            "dice `{text}`: {} values are more than one roll of {} dice leaves to use",
            vals.len(),
            d.count
        ));
    }
    Ok(crate::base::dice::Dice::of(&vals))
}

fn split_hands(field: &str) -> Result<(&str, Option<&str>), String> {
    let Some((board, rest)) = field.split_once('[') else {
        return Ok((field, None));
    };
    match rest.strip_suffix(']') {
        Some(hand) if !hand.contains(['[', ']']) => Ok((board, Some(hand))),
        _ => Err(format!(
            "`[{rest}`: the pieces in hand go between `[` and `]` at the end of the board"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::movetext_tokens;

    #[test]
    fn movetext_drops_numbers_annotations_and_comments() {
        let t = "1.h2h5 f7f5\n2.a2a5 g7g4 { a comment }\n7.Lh2 ?! 7. ... Kf7 ?!\n12.d4d6!! ; note\n17.Lh7:h4:h6 mat";
        assert_eq!(
            movetext_tokens(t, &["mat", "+"]),
            [
                "h2h5",
                "f7f5",
                "a2a5",
                "g7g4",
                "Lh2",
                "Kf7",
                "d4d6",
                "Lh7:h4:h6"
            ]
        );
    }
}
