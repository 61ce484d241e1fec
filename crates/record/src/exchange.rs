//! Records in the formats players use: PGN (moves in the `san` notation),
//! SGF (placements and passes) and PDN (numbered squares,
//! squares of one colour). Importing reads the file's text (`record::pgn`,
//! `record::sgf`), picks the variant from its tags (or takes the one
//! given), plays every move through the engine and gives a [`Record`] with
//! the file's tags, comments and annotations beside it ([`Notes`]);
//! exporting writes a game played from a start back as the format's text.
//!
//! Which variant a file is comes from the variants' `notation.records`
//! declarations, never from a game's name here.
//!
//! Changes when a format, its tags or its moves' mapping change.

use crate::game::Positions;
use crate::view::Views;
use std::collections::BTreeMap;
use std::path::Path;

use super::pgn::TextGame;
use super::Record;
use crate::base::geometry::Cell;
use crate::base::state::{GameState, PlayerId};
use crate::engine::{Action, ActionError, Engine};
use crate::rules::variant::{NotationStyle, Variant};

/// A record format players use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Pgn,
    Sgf,
    Pdn,
}

impl Format {
    /// The format a file's extension names (`.pgn`, `.sgf`, `.pdn`).
    pub fn of_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Format::named(&ext).ok()
    }

    pub fn named(name: &str) -> Result<Format, String> {
        match name.to_ascii_lowercase().as_str() {
            "pgn" => Ok(Format::Pgn),
            "sgf" => Ok(Format::Sgf),
            "pdn" => Ok(Format::Pdn),
            _ => Err(format!(
                "`{name}` is not a record format (formats: pgn, sgf, pdn, yaml)"
            )),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Format::Pgn => "pgn",
            Format::Sgf => "sgf",
            Format::Pdn => "pdn",
        }
    }

    /// The tag or property that names the game, and its value when absent.
    fn game_tag(self) -> (&'static str, Option<&'static str>) {
        match self {
            Format::Pgn => ("Variant", Some("Standard")),
            Format::Sgf => ("GM", Some("1")),
            Format::Pdn => ("GameType", None),
        }
    }

    /// The format's two colours, the first player's first when the
    /// variant's players are not named by them.
    fn colours(self) -> [&'static str; 2] {
        match self {
            Format::Pgn => ["white", "black"],
            Format::Sgf | Format::Pdn => ["black", "white"],
        }
    }
}

/// A move as written in a file, and where.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WrittenMove {
    pub text: String,
    pub line: usize,
    pub col: usize,
}

/// Annotations (NAGs, `!?`, or an SGF node's other properties) and
/// comments standing after a move.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Note {
    pub nags: Vec<String>,
    pub comments: Vec<String>,
}

impl Note {
    pub fn is_empty(&self) -> bool {
        self.nags.is_empty() && self.comments.is_empty()
    }
}

/// What a players' record holds besides its moves: the tags in their
/// order, the notes after each move (keyed by the number of actions played
/// then; 0 is before the first move), and the file's result token with
/// the number of actions it came after.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Notes {
    pub tags: Vec<(String, String)>,
    pub after: BTreeMap<usize, Note>,
    pub result: Option<(usize, String)>,
    /// Where the file numbered the second player's moves (`9... b5`), by
    /// the actions played before them; `None`: after every comment, as
    /// PGN's export format does.
    pub numbered: Option<std::collections::BTreeSet<usize>>,
    /// How the file wrote a pass (SGF: `tt` rather than empty).
    pub pass: Option<String>,
    /// PDN moves the file wrote otherwise than the host would (a jump by
    /// its ends only, `7x23`), by the actions played before them.
    pub written: BTreeMap<usize, String>,
}

impl Notes {
    /// The notes of the first `actions` actions (after a take-back).
    pub fn keep_first(&mut self, actions: usize) {
        self.after.retain(|&k, _| k <= actions);
        self.written.retain(|&k, _| k < actions);
        if let Some(n) = &mut self.numbered {
            n.retain(|&k| k < actions);
        }
        if self.result.as_ref().is_some_and(|(n, _)| *n != actions) {
            self.result = None;
        }
    }
}

/// One imported game: the record to replay and the file's notes.
#[derive(Clone, Debug)]
pub struct Imported {
    pub record: Record,
    pub notes: Notes,
}

/// Reads every game of a file in `format`; `variant` (a name or path)
/// overrides what the tags say. `shown` names the file in errors.
pub fn import_text(
    text: &str,
    shown: &str,
    format: Format,
    variant: Option<&str>,
) -> Result<Vec<Imported>, String> {
    let games = match format {
        Format::Sgf => super::sgf::parse_games(text, shown)?,
        Format::Pgn | Format::Pdn => super::pgn::parse_games(text, shown)?,
    };
    games
        .iter()
        .enumerate()
        .map(|(i, g)| {
            import_game(g, shown, format, variant).map_err(|e| {
                if games.len() > 1 {
                    format!("game {} of {}: {e}", i + 1, games.len())
                } else {
                    e
                }
            })
        })
        .collect()
}

fn tag<'a>(tags: &'a [(String, String)], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// The variant a game's tags name: the bundled variant whose
/// `notation.records` declares that game for the format, else (PGN's
/// `Variant`) a variant of that name.
fn variant_of(tags: &[(String, String)], format: Format) -> Result<String, String> {
    let (key, default) = format.game_tag();
    let value = match (tag(tags, key), default) {
        (Some(v), _) => v.split(',').next().unwrap_or(v).trim().to_string(),
        (None, Some(d)) => d.to_string(),
        (None, None) => {
            return Err(format!(
                "no `{key}` tag says which game this is: name the variant (`replay VARIANT FILE`, `load-record FILE --variant VARIANT`)"
            ))
        }
    };
    let mut declaring = Vec::new();
    for name in crate::rules::variant::bundled_variants() {
        let Ok(v) = Variant::load(&name, &[]) else {
            continue;
        };
        if let Some(r) = v.notation.record_name(format.name()) {
            if r.game.eq_ignore_ascii_case(&value) {
                return Ok(name);
            }
            declaring.push(format!("{name} ({key} {})", r.game));
        }
    }
    if format == Format::Pgn && Variant::load(&value, &[]).is_ok() {
        return Ok(value);
    }
    Err(format!(
        "`{key}` `{value}` names no variant (variants declaring {}: {}); name the variant",
        format.name().to_uppercase(),
        if declaring.is_empty() {
            "none".to_string()
        } else {
            declaring.join(", ")
        }
    ))
}

/// The player a format's colour (`white`, `black`) is: the player of that
/// name, else by the format's order.
fn colour_player(engine: &Engine, format: Format, colour: usize) -> PlayerId {
    let name = format.colours()[colour];
    engine
        .variant
        .player_index(name)
        .map(|p| p as PlayerId)
        .unwrap_or(colour as PlayerId)
}

/// Which colour (0 or 1 in [`Format::colours`]) a player is.
fn player_colour(engine: &Engine, format: Format, p: PlayerId) -> usize {
    (0..2)
        .find(|&c| colour_player(engine, format, c) == p)
        .unwrap_or(p as usize)
}

/// The winner a result token names: `Some(Some(p))` a win, `Some(None)` a
/// draw, `None` unknown or unfinished.
fn result_winner(engine: &Engine, format: Format, token: &str) -> Option<Option<PlayerId>> {
    let colour = |c| Some(Some(colour_player(engine, format, c)));
    match format {
        Format::Sgf => match token.chars().next() {
            Some('B' | 'b') => colour(0),
            Some('W' | 'w') => colour(1),
            Some('0') | Some('D' | 'd') => Some(None),
            _ => None,
        },
        Format::Pgn | Format::Pdn => {
            let white = format
                .colours()
                .iter()
                .position(|&c| c == "white")
                .unwrap_or(0);
            match token {
                "1-0" | "2-0" => colour(white),
                "0-1" | "0-2" => colour(1 - white),
                "1/2-1/2" | "1-1" => Some(None),
                _ => None,
            }
        }
    }
}

/// The result token of a state's outcome (`*` while playing).
fn result_token(engine: &Engine, format: Format, s: &GameState) -> String {
    let Some(o) = &s.outcome else {
        return if format == Format::Sgf { "?" } else { "*" }.to_string();
    };
    let winner = match o.winners.as_slice() {
        [w] => Some(player_colour(engine, format, *w)),
        _ => None,
    };
    match (format, winner) {
        (Format::Sgf, Some(0)) => "B+".into(),
        (Format::Sgf, Some(_)) => "W+".into(),
        (Format::Sgf, None) => "0".into(),
        (_, None) => "1/2-1/2".into(),
        (_, Some(c)) => {
            let white_first = format.colours()[0] == "white";
            if (c == 0) == white_first {
                "1-0"
            } else {
                "0-1"
            }
            .into()
        }
    }
}

/// The variant a file's game is played in (named, else from its tags),
/// its options from the tags the variant declares, and the start.
fn setup(
    g: &TextGame,
    shown: &str,
    format: Format,
    variant: Option<&str>,
) -> Result<(String, Engine, GameState), String> {
    let name = match variant {
        Some(v) => v.to_string(),
        None => variant_of(&g.tags, format).map_err(|e| format!("{shown}: {e}"))?,
    };
    let declared = Variant::load(&name, &[]).map_err(|e| e.to_string())?;
    let mut overrides = Vec::new();
    if let Some(r) = declared.notation.record_name(format.name()) {
        for (t, option) in &r.options {
            if let Some(v) = tag(&g.tags, t) {
                overrides.push((option.clone(), v.to_string()));
            }
        }
    }
    let engine = Engine::load(&name, &overrides).map_err(|e| format!("{shown}: {e}"))?;
    if let (Format::Sgf, Some(sz)) = (format, tag(&g.tags, "SZ")) {
        let b = &engine.variant.board;
        let (f, r) = sz.split_once(':').unwrap_or((sz, sz));
        if f.trim().parse() != Ok(b.files) || r.trim().parse() != Ok(b.ranks) {
            return Err(format!(
                "{shown}: SZ[{sz}], but {}'s board is {}x{}",
                engine.variant.name, b.files, b.ranks
            ));
        }
    }
    let start = match tag(&g.tags, "FEN") {
        Some(_) if format == Format::Pdn => {
            return Err(format!(
                "{shown}: a PDN `FEN` setup is not read (only games from the start position)"
            ))
        }
        Some(fen) => engine
            .parse_fen(fen, 0)
            .map_err(|e| format!("{shown}: the FEN tag: {e}"))?,
        None => engine.new_game(0, &[]),
    };
    Ok((name, engine, start))
}

/// Reads a file's game into a record, playing every move.
fn import_game(
    g: &TextGame,
    shown: &str,
    format: Format,
    variant: Option<&str>,
) -> Result<Imported, String> {
    let (name, engine, start) = setup(g, shown, format, variant)?;
    let mut state = start.clone();
    let mut actions = Vec::new();
    let mut after = BTreeMap::new();
    if let Some(n) = g.notes.get(&0) {
        after.insert(0, n.clone());
    }
    let mut number = Numbering::new(&engine, &start);
    let mut numbered = std::collections::BTreeSet::new();
    let mut written = BTreeMap::new();
    for (j, m) in g.moves.iter().enumerate() {
        if g.numbered.contains(&j) {
            numbered.insert(actions.len());
        }
        let label = number.label(&engine, &state, format, j);
        let at = |e: String| {
            format!(
                "{shown}:{}:{}: move {label} `{}`: {e}",
                m.line, m.col, m.text
            )
        };
        let acts = read_move(&engine, &state, format, &m.text).map_err(|e| at(e.to_string()))?;
        if format == Format::Pdn
            && pdn_text(&engine, &state, &acts[0]).ok().as_ref() != Some(&m.text)
        {
            written.insert(actions.len(), m.text.clone());
        }
        let mover = engine.acting_player(&state);
        for a in &acts {
            let text = engine.action_text(&state, a);
            engine.apply(&mut state, a).map_err(|e| at(e.to_string()))?;
            actions.push(text);
        }
        number.after(mover);
        if let Some(n) = g.notes.get(&(j + 1)) {
            after.insert(actions.len(), n.clone());
        }
    }
    if let (Some(o), Some(said)) = (&state.outcome, result_winner(&engine, format, &g.result)) {
        let winners: Vec<PlayerId> = said.into_iter().collect();
        if o.winners != winners {
            let who = match said {
                Some(w) => format!("{} won", engine.player_name(w)),
                None => "the game was drawn".to_string(),
            };
            return Err(format!(
                "{shown}: the file's result `{}` says {who}, but the moves end: {}",
                g.result,
                Views::new(&engine).outcome_text(o)
            ));
        }
    }
    let pos = Positions::new(&engine).to_position(&start);
    let record = Record {
        variant: name,
        options: pos.options.clone(),
        start: pos,
        result: state
            .outcome
            .as_ref()
            .map(|o| Views::new(&engine).outcome_text(o)),
        actions,
    };
    let notes = Notes {
        tags: g.tags.clone(),
        after,
        result: Some((record.actions.len(), g.result.clone())),
        numbered: Some(numbered),
        written,
        pass: g.moves.iter().find_map(|m| {
            super::sgf::split_move(&m.text)
                .filter(|(_, p)| *p == "tt")
                .map(|_| "tt".to_string())
        }),
    };
    Ok(Imported { record, notes })
}

/// Move numbers: `12.` for the first player's move, `12...` for the
/// second's; from the variant's move-number counter at the start, else 1.
struct Numbering {
    number: u32,
}

impl Numbering {
    fn new(engine: &Engine, start: &GameState) -> Numbering {
        let from_counter = engine
            .variant
            .move_number
            .as_deref()
            .map(|c| start.counter(c, None))
            .filter(|&n| n > 0);
        Numbering {
            number: from_counter.unwrap_or(1) as u32,
        }
    }

    fn first(engine: &Engine, s: &GameState) -> bool {
        engine.acting_player(s).unwrap_or(s.to_move) == 0
    }

    fn label(&self, engine: &Engine, s: &GameState, format: Format, j: usize) -> String {
        match format {
            Format::Sgf => format!("{}", j + 1),
            _ if Self::first(engine, s) => format!("{}.", self.number),
            _ => format!("{}...", self.number),
        }
    }

    fn after(&mut self, mover: Option<PlayerId>) {
        if mover.is_some_and(|p| p != 0) {
            self.number += 1;
        }
    }
}

/// The actions a written move is, in the format's way of writing moves.
fn read_move(
    engine: &Engine,
    s: &GameState,
    format: Format,
    text: &str,
) -> Result<Vec<Action>, ActionError> {
    match format {
        Format::Pgn => engine.parse_turn(s, text),
        Format::Sgf => read_sgf_move(engine, s, text).map(|a| vec![a]),
        Format::Pdn => read_pdn_move(engine, s, text).map(|a| vec![a]),
    }
}

/// `B[cd]`, `W[]` or `W[tt]` (a pass): the colour must be the acting
/// player's.
fn read_sgf_move(engine: &Engine, s: &GameState, text: &str) -> Result<Action, ActionError> {
    let (colour, point) = super::sgf::split_move(text)
        .ok_or_else(|| ActionError::Parse("expected B[..] or W[..]".into()))?;
    let p = colour_player(engine, Format::Sgf, colour);
    let acting = engine.acting_player(s).unwrap_or(s.to_move);
    if p != acting {
        return Err(ActionError::Illegal(format!(
            "{} is to move, not {}",
            engine.player_name(acting),
            engine.player_name(p)
        )));
    }
    let b = &engine.variant.board;
    match super::sgf::point_cell(b, point) {
        None => engine.parse_action(s, "pass"),
        Some(Ok(cell)) => engine.parse_action(s, &b.cell_name(cell)),
        Some(Err(e)) => Err(ActionError::Parse(e)),
    }
}

/// The squares of the variant's numbering, by number (1 first).
pub fn numbered_cells(engine: &Engine) -> Option<Vec<Cell>> {
    let n = engine.variant.notation.numbering.as_ref()?;
    let b = &engine.variant.board;
    let (files, ranks) = (b.files as i32, b.ranks as i32);
    let mut out = Vec::new();
    // An odd-numbered player sits at the top: the far side is rank 1 and
    // their left is the last file.
    let top = n.seen_by % 2 == 1;
    for row in 0..ranks {
        for col in 0..files {
            let (f, r) = if top {
                (files - 1 - col, row)
            } else {
                (col, ranks - 1 - row)
            };
            if (f + r) % 2 == n.parity as i32 {
                out.extend(b.cell(f, r));
            }
        }
    }
    Some(out)
}

/// `11-15` or `15x24x31` (the landings in between may be left out).
fn read_pdn_move(engine: &Engine, s: &GameState, text: &str) -> Result<Action, ActionError> {
    let cells = numbered_cells(engine).ok_or_else(|| {
        ActionError::Parse("this variant declares no `notation.numbering`".into())
    })?;
    let squares: Vec<Cell> = text
        .split(['-', 'x', 'X', ':'])
        .map(|n| {
            n.trim()
                .parse::<usize>()
                .ok()
                .and_then(|i| cells.get(i.wrapping_sub(1)).copied())
                .ok_or_else(|| {
                    ActionError::Parse(format!("`{n}` is not a square (1 to {})", cells.len()))
                })
        })
        .collect::<Result<_, _>>()?;
    if squares.len() < 2 {
        return Err(ActionError::Parse("expected FROM-TO or FROMxTO".into()));
    }
    let legal = engine.legal_actions(s);
    let found: Vec<&Action> = legal
        .iter()
        .filter(|a| {
            let path = action_cells(engine, s, a);
            path.first() == squares.first()
                && path.last() == squares.last()
                && squares.iter().all(|c| path.contains(c))
        })
        .collect();
    match found.as_slice() {
        [a] => Ok(**a),
        [] => Err(ActionError::Illegal("no legal move goes so".into())),
        _ => Err(ActionError::Parse(format!(
            "ambiguous: {}",
            found
                .iter()
                .map(|a| pdn_text(engine, s, a).unwrap_or_default())
                .collect::<Vec<_>>()
                .join(" or ")
        ))),
    }
}

/// The cells an action names in its canonical text (start, landings).
fn action_cells(engine: &Engine, s: &GameState, a: &Action) -> Vec<Cell> {
    let b = &engine.variant.board;
    match a {
        Action::Move { from, to } => vec![*from, *to],
        Action::Jumps { .. } => engine
            .action_text(s, a)
            .split('x')
            .filter_map(|c| b.parse_cell(c))
            .collect(),
        _ => Vec::new(),
    }
}

/// A move in PDN: `11-15`, or every landing of a jump `15x24x31`.
fn pdn_text(engine: &Engine, s: &GameState, a: &Action) -> Result<String, String> {
    let cells = numbered_cells(engine).unwrap_or_default();
    let path = action_cells(engine, s, a);
    let numbers: Option<Vec<String>> = path
        .iter()
        .map(|c| {
            cells
                .iter()
                .position(|x| x == c)
                .map(|i| (i + 1).to_string())
        })
        .collect();
    match (numbers, a) {
        (Some(n), Action::Jumps { .. }) if n.len() >= 2 => Ok(n.join("x")),
        (Some(n), Action::Move { .. }) => Ok(n.join("-")),
        _ => Err(format!(
            "`{}` is not a move between numbered squares",
            engine.action_text(s, a)
        )),
    }
}

/// That a variant's games can be written in `format`.
fn check_fits(engine: &Engine, format: Format) -> Result<(), String> {
    let v = &engine.variant;
    if v.players.len() != 2 {
        return Err(format!(
            "{} records hold two-player games",
            format.name().to_uppercase()
        ));
    }
    match format {
        Format::Pgn if v.notation.style != NotationStyle::San => Err(format!(
            "PGN holds moves in standard algebraic notation; {} declares no `notation: {{ style: san }}`",
            v.name
        )),
        Format::Pdn if v.notation.numbering.is_none() => Err(format!(
            "PDN numbers the squares; {} declares no `notation.numbering`",
            v.name
        )),
        Format::Sgf if v.board.files > 52 || v.board.ranks > 52 => {
            Err("SGF boards are at most 52 points wide".into())
        }
        _ => Ok(()),
    }
}

/// One turn in the format: the actions of one player's move.
fn turn_text(
    engine: &Engine,
    s: &GameState,
    format: Format,
    acts: &[Action],
    pass: Option<&str>,
) -> Result<String, String> {
    match format {
        Format::Pgn => Ok(engine.notation_turn(s, &acts[0], acts.get(1))),
        Format::Pdn => pdn_text(engine, s, &acts[0]),
        Format::Sgf => {
            let mover = engine.acting_player(s).unwrap_or(s.to_move);
            let colour = ["B", "W"][player_colour(engine, Format::Sgf, mover)];
            let b = &engine.variant.board;
            match acts[0] {
                Action::Pass => Ok(format!("{colour}[{}]", pass.unwrap_or(""))),
                Action::Place { at, .. } => {
                    Ok(format!("{colour}[{}]", super::sgf::cell_point(b, at)))
                }
                a => Err(format!(
                    "SGF holds placements and passes; `{}` is neither",
                    engine.action_text(s, &a)
                )),
            }
        }
    }
}

/// Writes a game played from `start` (the actions' canonical texts) in
/// `format`, with the notes' tags and comments.
pub fn export_text(
    engine: &Engine,
    start: &GameState,
    actions: &[String],
    notes: &Notes,
    format: Format,
) -> Result<String, String> {
    check_fits(engine, format)?;
    let standard = engine.new_game(start.seed, &[]);
    if format == Format::Pdn
        && Positions::new(engine).to_position(&standard)
            != Positions::new(engine).to_position(start)
    {
        return Err("PDN records are written from the start position only".into());
    }
    let mut state = start.clone();
    let mut turns = Vec::new();
    let mut number = Numbering::new(engine, start);
    let mut by_turn = Notes {
        tags: notes.tags.clone(),
        numbered: notes.numbered.as_ref().map(|_| Default::default()),
        result: notes.result.clone(),
        ..Notes::default()
    };
    if let Some(n) = notes.after.get(&0) {
        by_turn.after.insert(0, n.clone());
    }
    let mut i = 0;
    while i < actions.len() {
        let before = state.clone();
        let mover = engine.acting_player(&before);
        if let (Some(from), Some(to)) = (&notes.numbered, &mut by_turn.numbered) {
            if from.contains(&i) {
                to.insert(turns.len());
            }
        }
        let mut acts = Vec::new();
        loop {
            let a = engine
                .parse_action(&state, &actions[i])
                .map_err(|e| format!("action {} (`{}`): {e}", i + 1, actions[i]))?;
            engine
                .apply(&mut state, &a)
                .map_err(|e| format!("action {} (`{}`): {e}", i + 1, actions[i]))?;
            acts.push(a);
            i += 1;
            if state.pending.is_empty() || i >= actions.len() {
                break;
            }
        }
        let as_read = notes.written.get(&(i - acts.len())).filter(|t| {
            format == Format::Pdn && read_pdn_move(engine, &before, t).ok() == Some(acts[0])
        });
        let text = match as_read {
            Some(t) => Ok(t.clone()),
            None => turn_text(engine, &before, format, &acts, notes.pass.as_deref()),
        }
        .map_err(|e| format!("move {}: {e}", turns.len() + 1))?;
        turns.push((text, number.number, Numbering::first(engine, &before)));
        number.after(mover);
        if let Some(n) = notes.after.get(&i) {
            by_turn.after.insert(turns.len(), n.clone());
        }
    }
    let result = match &notes.result {
        Some((n, r)) if *n == actions.len() => r.clone(),
        _ => result_token(engine, format, &state),
    };
    let extra = extra_tags(engine, start, notes, format);
    Ok(match format {
        Format::Sgf => super::sgf::write_game(&by_turn, &extra, &turns, &result),
        _ => super::pgn::write_game(format == Format::Pgn, &by_turn, &extra, &turns, &result),
    })
}

/// The tags a file needs that the notes may lack: the game's name in the
/// format, and the start position when it is not the variant's.
fn extra_tags(
    engine: &Engine,
    start: &GameState,
    notes: &Notes,
    format: Format,
) -> Vec<(String, String)> {
    let has = |k: &str| notes.tags.iter().any(|(n, _)| n == k);
    let mut out = Vec::new();
    let (key, default) = format.game_tag();
    let declared = engine.variant.notation.record_name(format.name());
    let game = declared
        .map(|r| r.game.clone())
        .unwrap_or_else(|| engine.variant.id());
    // PGN leaves out `Variant` for the standard game; SGF always says `GM`.
    let implied = format == Format::Pgn && Some(game.as_str()) == default;
    if !has(key) && !implied {
        out.push((key.to_string(), game));
    }
    if let Some(r) = declared {
        for (t, option) in &r.options {
            if let Some(o) = engine.variant.options.iter().find(|o| o.name == *option) {
                if !has(t) {
                    out.push((t.clone(), o.value.to_string()));
                }
            }
        }
    }
    if format == Format::Sgf {
        let b = &engine.variant.board;
        if !has("SZ") {
            let at = out.iter().position(|(k, _)| k == "GM").map_or(0, |i| i + 1);
            let size = if b.files == b.ranks {
                b.files.to_string()
            } else {
                format!("{}:{}", b.files, b.ranks)
            };
            out.insert(at, ("SZ".into(), size));
        }
        return out;
    }
    if format == Format::Pdn {
        return out;
    }
    let standard = engine.new_game(start.seed, &[]);
    if Positions::new(engine).to_position(&standard) != Positions::new(engine).to_position(start)
        && !has("FEN")
    {
        out.push(("SetUp".into(), "1".into()));
        out.push(("FEN".into(), engine.to_fen(start)));
    }
    out
}
