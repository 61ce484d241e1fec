//! The move language compiled: a variant's placements, jump sequences,
//! passes and declared ends (see [`crate::rules::variant::forms`]) as the
//! host's native listing, applying, text and explanations.
//!
//! - `place`: placements (falling, flanking and flipping);
//! - `draw`: a random placement without the list (random playouts);
//! - `groups`: groups and their liberties, captures of groups, ko;
//! - `jumps`: jump sequences;
//! - `custody`: captures by custody after a piece lands;
//! - `ends`: passes, n in a row, nobody can move, the winner's count.
//!
//! Changes when the language gains a part.

mod custody;
mod draw;
mod ends;
mod groups;
mod hands;
mod jumps;
mod masks;
mod place;
mod race;

pub use draw::PlaceDraw;

use std::borrow::Cow;

use crate::base::geometry::{Board, Cell};
use crate::base::state::{GameState, KindId, PlayerId};
use crate::rules::variant::forms::{EndWhen, Form, Ko, PassWhen};
use crate::rules::variant::Variant;
use crate::{Action, ActionError, Engine};

/// The counter of passes in a row (host bookkeeping, public).
pub(super) const PASS_RUN: &str = "passes_in_a_row";

/// What the language needs to know of a variant, found once at load.
#[derive(Debug, Default)]
pub(crate) struct Lang {
    /// Whether the language's moves apply (placements, a race, jumps, a
    /// pass): else the engine skips them in listing and parsing.
    pub(crate) on: bool,
    /// Whether declared ends are checked after each action (`ends:`),
    /// with or without the language's moves.
    pub(crate) ends: bool,
    /// Whether the language adds to the listing (placements, jumps, a
    /// pass, or an end that asks whether anyone can move): else a random
    /// move may be drawn from the declared movement alone.
    pub(crate) lists: bool,
    /// Whether every move is a placement or a pass (no steps, slides,
    /// paths or jumps, no end that asks whether anyone can move) and
    /// listing them is not a few masks (groups, or a large board): a
    /// random one is then drawn without listing them.
    draws: bool,
    /// The kinds that may be placed, with their placement form's index.
    placers: Vec<(KindId, usize)>,
    /// Per kind, the indices of its jump forms.
    jumpers: Vec<Vec<usize>>,
    /// Whether a jump form is compulsory.
    compulsory: bool,
    /// Whether only the longest compulsory sequences are legal.
    longest: bool,
    /// Per kind, the counter of how many pieces of it a player has placed
    /// (kinds whose placement has a `supply`; else empty).
    pub(super) placed: Vec<String>,
    /// Whether an end watches a counter.
    pub(crate) counts: bool,
    /// Per declared end, per kind: whether the end's `kinds` name it (all
    /// kinds where it names none), so an end's test is one lookup a piece.
    pub(crate) end_kinds: Vec<Vec<bool>>,
    /// Whether some kind captures by custody.
    pub(crate) custody: bool,
    /// Whether the boards so far are kept (a ko rule), and in the order
    /// played (a simple ko looks back one action; superko alone keeps
    /// them sorted).
    pub(crate) keeps_boards: bool,
    pub(crate) boards_in_order: bool,
    /// The `nobody_moves` end's index in `ends`.
    pub(crate) nobody_moves: Option<usize>,
    /// Whether every placement is a drop from the hand and the language
    /// adds nothing else that needs listing (random draws sample drops).
    pub(crate) drops_only: bool,
    /// Whether any kind has a jump form, and one that is not compulsory.
    jumps: bool,
    loose_jumps: bool,
    /// Whether the declared steps, slides and paths (and the extra moves)
    /// need listing: some kind has them, or a joint move, a passing
    /// capture or a script's extra moves may add some.
    pub(crate) steps: bool,
    /// Each cell's neighbour by a delta of at most two either way.
    hops: masks::Hops,
    /// The board as 64-bit masks, when it has at most 64 cells.
    masks: Option<masks::Masks>,
    /// Neighbour tables for the lines groups are joined along.
    adjs: Vec<masks::Adj>,
    /// The kind that races by the dice, with its race form's index.
    pub(crate) race: Option<(KindId, usize)>,
}

impl Lang {
    /// The neighbour table of these lines: the one made at load for
    /// every groups form, or (for lines no form declared) a new one.
    pub(super) fn adj(&self, b: &Board, lines: &[(i8, i8)]) -> Cow<'_, masks::Adj> {
        match self.adjs.iter().find(|a| a.lines == lines) {
            Some(a) => Cow::Borrowed(a),
            None => Cow::Owned(masks::Adj::new(b, lines)),
        }
    }

    pub(crate) fn new(v: &Variant) -> Lang {
        let mut l = Lang {
            jumpers: vec![Vec::new(); v.kinds.len()],
            ..Lang::default()
        };
        for (k, kind) in v.kinds.iter().enumerate() {
            for (i, f) in kind.forms.iter().enumerate() {
                match f {
                    Form::Place(p) => {
                        if !l.placers.iter().any(|(pk, _)| *pk as usize == k) {
                            l.placers.push((k as KindId, i));
                        }
                        if let Some(g) = p.groups.as_ref().filter(|g| g.ko != Ko::None) {
                            l.keeps_boards = true;
                            l.boards_in_order |= g.ko == Ko::Simple;
                        }
                    }
                    Form::Jump(j) => {
                        l.jumpers[k].push(i);
                        l.compulsory |= j.compulsory;
                        l.longest |= j.longest;
                    }
                    Form::Race(_) => l.race = Some((k as KindId, i)),
                }
            }
        }
        l.jumps = l.jumpers.iter().any(|j| !j.is_empty());
        l.loose_jumps = v
            .kinds
            .iter()
            .flat_map(|k| &k.forms)
            .any(|f| matches!(f, Form::Jump(j) if !j.compulsory));
        l.steps = v.kinds.iter().any(|k| !k.moves.is_empty())
            || v.joint_moves.is_some()
            || v.passing.is_some();
        l.hops = masks::Hops::new(&v.board);
        l.masks = masks::Masks::new(&v.board);
        for k in &v.kinds {
            for f in &k.forms {
                if let Form::Place(crate::rules::variant::forms::PlaceForm {
                    groups: Some(g),
                    ..
                }) = f
                {
                    if !l.adjs.iter().any(|a| a.lines == g.lines) {
                        l.adjs.push(masks::Adj::new(&v.board, &g.lines));
                    }
                }
            }
        }
        l.custody = v.kinds.iter().any(|k| k.custody.is_some());
        l.placed = v
            .kinds
            .iter()
            .map(|k| {
                match k.forms.iter().find_map(|f| match f {
                    Form::Place(p) => p.supply,
                    _ => None,
                }) {
                    Some(_) => crate::rules::variant::forms::placed_counter(&k.name),
                    None => String::new(),
                }
            })
            .collect();
        l.end_kinds = end_kinds(v);
        l.counts = v
            .ends
            .iter()
            .any(|e| matches!(e.when, EndWhen::Counter { .. }));
        l.nobody_moves = v.ends.iter().position(|e| e.when == EndWhen::NobodyMoves);
        l.lists = !l.placers.is_empty()
            || l.jumps
            || v.pass.is_some()
            || l.nobody_moves.is_some()
            || l.race.is_some();
        // The masked listing of a small board is cheaper than judging cells
        // one by one; groups are where a judgement alone pays.
        let masked = l.masks.is_some() && v.board.blocking == 0 && l.adjs.is_empty();
        // Drops are listed: whether one is legal depends on the hand and
        // on check.
        let drops = v.hands.is_some();
        l.draws = !masked
            && !drops
            && !l.placers.is_empty()
            && !l.jumps
            && !l.steps
            && l.nobody_moves.is_none();
        // Every placement a drop, and nothing else of the language that
        // needs listing: random draws take drops as slots of their own.
        l.drops_only = !l.placers.is_empty()
            && v.hands.is_some()
            && (l.placers.iter()).all(
                |&(k, f)| matches!(&v.kinds[k as usize].forms[f], Form::Place(p) if p.from_hand),
            )
            && !l.jumps
            && v.pass.is_none()
            && l.nobody_moves.is_none();
        l.on = !l.placers.is_empty()
            || l.race.is_some()
            || l.jumpers.iter().any(|j| !j.is_empty())
            || v.pass.is_some();
        l.ends = !v.ends.is_empty();
        l
    }
}

/// Per declared end, per kind: whether the end's `kinds` name it (every
/// kind where it names none).
fn end_kinds(v: &Variant) -> Vec<Vec<bool>> {
    (v.ends.iter())
        .map(|e| {
            let named = match &e.when {
                EndWhen::Captures(ks) => Some(ks),
                EndWhen::Left { kinds, .. } | EndWhen::Reaches { kinds, .. } => kinds.as_ref(),
                _ => None,
            };
            (0..v.kinds.len() as KindId)
                .map(|k| named.is_none_or(|ks| ks.contains(&k)))
                .collect()
        })
        .collect()
}

/// A delta as player `p` goes: relative deltas are the first player's,
/// mirrored in rank for every odd-numbered player.
#[inline]
pub(super) fn oriented(d: (i8, i8), relative: bool, p: PlayerId) -> (i8, i8) {
    if relative && p % 2 == 1 {
        (d.0, -d.1)
    } else {
        d
    }
}

/// Keeps, of the jump sequences in `out[start..]`, those with the most
/// jumps.
fn keep_longest(out: &mut Vec<Action>, start: usize) {
    let len = |a: &Action| match a {
        Action::Jumps { path, .. } => path.len(),
        _ => 0,
    };
    let most = out[start..].iter().map(len).max().unwrap_or(0);
    let longest: Vec<Action> = out.drain(start..).filter(|a| len(a) == most).collect();
    out.extend(longest);
}

/// The listing's error when jump sequences branch past
/// [`jumps::MAX_SEQUENCES`].
fn too_many_jumps() -> ActionError {
    ActionError::Illegal(format!(
        "this position has more than {} jump sequences, more than the host lists",
        jumps::MAX_SEQUENCES
    ))
}

impl Engine {
    /// Player `p`'s compulsory moves go to `out` (empty): returns whether
    /// there is one (then only those are legal).
    pub(super) fn lang_forced(
        &self,
        s: &GameState,
        p: PlayerId,
        frozen: &[Cell],
        out: &mut Vec<Action>,
    ) -> Result<bool, ActionError> {
        if !self.lang.compulsory {
            return Ok(false);
        }
        let start = out.len();
        self.jump_moves(s, p, frozen, Some(true), out);
        if out.len() >= jumps::MAX_SEQUENCES {
            return Err(too_many_jumps());
        }
        if self.lang.longest {
            keep_longest(out, start);
        }
        Ok(out.len() > start)
    }

    /// The language's other moves of player `p` go to `out`, after the
    /// declared steps (the list stays sorted: placements, then jumps).
    pub(super) fn lang_moves(
        &self,
        s: &GameState,
        p: PlayerId,
        frozen: &[Cell],
        out: &mut Vec<Action>,
    ) -> Result<(), ActionError> {
        for &(kind, form) in &self.lang.placers {
            self.placements(s, p, kind, form, out)?;
        }
        if self.lang.race.is_some() {
            self.race_moves(s, p, out);
        }
        if self.lang.compulsory {
            if self.lang.loose_jumps {
                self.jump_moves(s, p, frozen, Some(false), out);
            }
        } else if self.lang.jumps {
            self.jump_moves(s, p, frozen, None, out);
        }
        if out.len() >= jumps::MAX_SEQUENCES {
            return Err(too_many_jumps());
        }
        Ok(())
    }

    /// `pass` joins the list when the variant allows it here.
    pub(super) fn lang_pass(&self, out: &mut Vec<Action>) {
        match self.variant.pass {
            Some(PassWhen::Always) => out.push(Action::Pass),
            Some(PassWhen::Stuck) if !out.iter().any(|a| !a.is_social()) => out.push(Action::Pass),
            _ => {}
        }
    }

    /// The canonical text of a placement or a jump sequence.
    pub(super) fn lang_text(&self, s: &GameState, a: &Action) -> Option<String> {
        let b = &self.variant.board;
        match *a {
            Action::Place { kind, at } => Some(if self.lang.placers.len() > 1 {
                format!("{}@{}", self.placer_name(kind), b.cell_name(at))
            } else {
                b.cell_name(at)
            }),
            Action::Jumps { from, .. } => {
                let mut t = b.cell_name(from);
                for c in self.jump_landings(s, a) {
                    t.push('x');
                    t.push_str(&b.cell_name(c));
                }
                Some(t)
            }
            Action::Move { from, to } if self.lang.race.is_some() => self.race_text(s, from, to),
            _ => None,
        }
    }

    /// How a placement names its kind (`P@e4`): its notation letter, else
    /// its code in upper case, else its name.
    fn placer_name(&self, kind: KindId) -> String {
        let k = &self.variant.kinds[kind as usize];
        match (&k.letter, k.code) {
            (Some(l), _) if !l.is_empty() => l.clone(),
            (_, Some(c)) => c.to_ascii_uppercase().to_string(),
            _ => k.name.clone(),
        }
    }

    /// Reads a placement (`d3`, `S@d3`) or a jump sequence (`d6xb4xd2`);
    /// `None` when the text is neither (other readings may apply).
    pub(super) fn parse_lang(&self, s: &GameState, t: &str) -> Option<Result<Action, ActionError>> {
        let b = &self.variant.board;
        if let Some(r) = self.parse_race(s, t) {
            return Some(r);
        }
        if let Some((letter, cell)) = t.split_once('@') {
            let kind = self.lang.placers.iter().find(|(k, _)| {
                self.placer_name(*k) == letter || self.variant.kinds[*k as usize].name == letter
            });
            return Some(match (kind, b.parse_cell(cell)) {
                (Some(&(kind, _)), Some(at)) => Ok(Action::Place { kind, at }),
                (None, _) => Err(ActionError::Parse(format!(
                    "`{letter}` names no kind that is placed here"
                ))),
                (_, None) => Err(ActionError::Parse(format!(
                    "`{cell}` is not a cell of the {b} board"
                ))),
            });
        }
        let cell_like = t.len() >= 2
            && t.as_bytes()[0].is_ascii_lowercase()
            && t[1..].bytes().all(|c| c.is_ascii_digit());
        if cell_like && b.parse_cell(t).is_none() && !self.lang.placers.is_empty() {
            return Some(Err(ActionError::Parse(format!(
                "`{t}` is not a cell of the {b} board"
            ))));
        }
        if let Some(at) = b.parse_cell(t) {
            return match self.lang.placers.as_slice() {
                [(kind, _)] => Some(Ok(Action::Place { kind: *kind, at })),
                [] => None,
                _ => Some(Err(ActionError::Parse(format!(
                    "`{t}`: name the kind to place, as KIND@{t}"
                )))),
            };
        }
        if t.contains(['x', 'X']) && self.lang.jumpers.iter().any(|j| !j.is_empty()) {
            let cells: Option<Vec<Cell>> = t.split(['x', 'X']).map(|c| b.parse_cell(c)).collect();
            if let Some(cells) = cells.filter(|c| c.len() >= 2) {
                if let Some(a) = self.jumps_through(s, &cells) {
                    return Some(Ok(a));
                }
            }
        }
        None
    }

    /// When `a` is a compulsory sequence that jumps fewer pieces than
    /// another: the refusal, naming the longest.
    fn shorter_capture(&self, s: &GameState, a: &Action) -> Option<String> {
        let mut all = Vec::new();
        self.jump_moves(s, s.to_move, &[], Some(true), &mut all);
        if !all.contains(a) {
            return None;
        }
        keep_longest(&mut all, 0);
        let texts: Vec<String> = all.iter().filter_map(|j| self.lang_text(s, j)).collect();
        Some(format!(
            "the capture of the most pieces is compulsory: {}",
            texts.join(", ")
        ))
    }

    /// Why a placement or a jump sequence is not legal here, when it is one.
    pub(super) fn explain_lang(&self, s: &GameState, a: &Action) -> Option<String> {
        let b = &self.variant.board;
        match *a {
            Action::Move { from, to } if self.lang.race.is_some() => {
                Some(self.explain_race(s, from, to))
            }
            Action::Place { kind, at } => {
                let name = &self.variant.kinds[kind as usize].name;
                Some(if s.piece_at(at).is_some() {
                    format!("{} is not empty", b.cell_name(at))
                } else if self.forced_jump(s) {
                    "a capture is compulsory".into()
                } else {
                    format!(
                        "a {name} may not be placed on {}{}",
                        b.cell_name(at),
                        self.placement_refusal(s, kind, at)
                            .map(|w| format!(": {w}"))
                            .unwrap_or_default()
                    )
                })
            }
            Action::Move { from, .. }
                if self.forced_jump(s)
                    && s.piece_at(from)
                        .is_some_and(|id| s.pieces[id as usize].owner == s.to_move) =>
            {
                let mut jumps = Vec::new();
                self.jump_moves(s, s.to_move, &[], Some(true), &mut jumps);
                let texts: Vec<String> = jumps
                    .iter()
                    .filter_map(|j| self.lang_text(s, j))
                    .collect();
                Some(format!(
                    "a capture is compulsory: {}",
                    texts.join(", ")
                ))
            }
            Action::Jumps { from, .. } => Some(match s.piece_at(from) {
                None => format!("there is no piece on {}", b.cell_name(from)),
                Some(id) if s.pieces[id as usize].owner != s.to_move => {
                    format!("the piece on {} is not yours", b.cell_name(from))
                }
                Some(_) => (self.lang.longest)
                    .then(|| self.shorter_capture(s, a))
                    .flatten()
                    .unwrap_or_else(|| {
                        format!(
                            "no such jump sequence from {} (a sequence jumps while it can, each piece once)",
                            b.cell_name(from)
                        )
                    }),
            }),
            Action::Pass if s.windows.is_empty() => Some(match self.variant.pass {
                None => "this variant has no passing".into(),
                Some(_) => "a player may pass only when nothing else is legal".into(),
            }),
            _ => None,
        }
    }
}
