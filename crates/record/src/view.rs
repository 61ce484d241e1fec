//! Visibility: what one player knows, computed by the host from the state.
//!
//! Every way information leaves the host (the board shown in the REPL, the
//! events printed, records for a player, network messages) is built from a
//! [`View`]. A piece whose kind the viewer does not know appears with
//! `kind: None`; nothing else about it (id order aside, which follows the
//! board) depends on its kind.

use serde::Serialize;

use crate::base::effect::{Effect, Strike};
use crate::base::geometry::Cell;
/// A player and an action's events, as front ends name them when they
/// handle views.
pub use crate::base::state::PlayerId;
use crate::base::state::{GameState, Loc, PieceId, CAPTURED};
use crate::engine::Engine;
pub use crate::engine::Event;

/// Who is looking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// One player: sees what that player knows.
    Player(PlayerId),
    /// A spectator: sees only what everyone knows.
    Public,
    /// Sees everything (a designer's or referee's view).
    Omniscient,
}

impl Viewer {
    /// Whether this viewer may see the question, the options and the answer
    /// of a choice `chooser` makes (`public`: declared public).
    pub fn sees_choice(&self, chooser: PlayerId, public: bool) -> bool {
        match *self {
            Viewer::Player(p) => public || p == chooser,
            Viewer::Public => public,
            Viewer::Omniscient => true,
        }
    }

    fn knows(&self, s: &GameState, id: PieceId) -> bool {
        let known = s.pieces[id as usize].known_by;
        match *self {
            Viewer::Player(p) => known & (1 << p) != 0,
            Viewer::Public => known == s.all_players(),
            Viewer::Omniscient => true,
        }
    }
}

/// A piece as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct ViewPiece {
    pub id: PieceId,
    pub owner: String,
    /// The kind, or `None` when the viewer does not know it.
    pub kind: Option<String>,
    pub moved: bool,
    /// The piece's public attributes (items it carries, markers on it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attrs: Vec<(String, i64)>,
    /// How many pieces stand in its stack (pieces of one owner and kind
    /// on one cell, `board.stacks`); 1 for a piece alone.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub count: u8,
}

/// The line that shows the dice left to use (empty without dice).
fn dice_line(view: &View) -> String {
    if view.dice.is_empty() {
        return String::new();
    }
    let d: Vec<String> = view.dice.iter().map(|v| v.to_string()).collect();
    format!("dice to use: {}\n", d.join(" "))
}

fn one() -> u8 {
    1
}

fn is_one(n: &u8) -> bool {
    *n == 1
}

/// A fact on a cell the viewer knows (a tile's face, an item lying there).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct ViewMark {
    pub cell: String,
    pub name: String,
    pub value: String,
}

/// A container (a captured pile, a boat) as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct ViewContainer {
    pub name: String,
    pub owner: Option<String>,
    pub pieces: Vec<ViewPiece>,
    /// A declared container's items (tiles, cards) as the viewer sees
    /// them, `None` for an unknown face; absent when the viewer may not
    /// see how many there are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<Vec<Option<String>>>,
}

/// A pending choice: who must make it. The question and the options are
/// shown only to that player (and an omniscient viewer), unless the variant
/// declared the choice public; others see only that a choice is pending.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct ViewChoice {
    pub player: String,
    pub reason: Option<String>,
    pub options: Option<Vec<String>>,
}

/// Everything one viewer may know about a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct View {
    pub viewer: String,
    pub ply: u32,
    pub to_move: String,
    pub acting: Option<String>,
    pub files: u8,
    pub ranks: u8,
    /// The piece on each cell, by cell index (`a1` first).
    pub cells: Vec<Option<ViewPiece>>,
    /// Terrain tags of each cell (by index), empty strings for plain cells.
    pub terrain: Vec<String>,
    pub containers: Vec<ViewContainer>,
    pub counters: Vec<(String, Option<String>, i64)>,
    pub pending: Option<ViewChoice>,
    pub outcome: Option<String>,
    /// Cell marks the viewer knows.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<ViewMark>,
    /// Cell counters (public): (name, cell, value).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cell_counters: Vec<(String, String, i64)>,
    /// The open reaction window (its declared name); `acting` is the
    /// player it asks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<String>,
    /// The phase of the game, when the variant declares phases.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    /// The cells outside the viewer's sight (fog of war, `sight:`): they
    /// show nothing, and a page draws them shaded.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unseen: Vec<String>,
    /// The dice the player to move has left to use (public chance).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dice: Vec<u8>,
}

/// What another player's hidden answer to a choice is shown as (events,
/// per-viewer records, replays).
pub const HIDDEN_CHOICE: &str = "(choice)";

/// `red must choose: take which piece? [first second none]` (the question in
/// the variant's words, and the options), or `red must choose` when the
/// viewer may not see the question.
pub fn choice_prompt(words: &crate::rules::variant::Words, c: &ViewChoice) -> String {
    match (&c.reason, &c.options) {
        (Some(r), Some(o)) => format!(
            "{} must choose: {} [{}]",
            c.player,
            words.question(r),
            o.join(" ")
        ),
        (Some(r), None) => format!("{} must choose: {}", c.player, words.question(r)),
        _ => format!("{} must choose", c.player),
    }
}

/// What each viewer is shown of a game: its [`View`], event lines, the
/// captured piles' summary and the text board, built from the engine's
/// variant and tables. Borrowed per call: `Views::new(&engine).view(&s, viewer)`.
#[derive(Clone, Copy)]
pub struct Views<'e> {
    pub engine: &'e Engine,
}

impl<'e> Views<'e> {
    pub fn new(engine: &'e Engine) -> Self {
        Views { engine }
    }

    /// The text of an action as `viewer` may see it, in the state before
    /// it, in the variant's notation ([`Engine::move_text`]): another
    /// player's answer to a choice that is not public is [`HIDDEN_CHOICE`].
    pub fn action_text_for(
        &self,
        before: &GameState,
        a: &crate::engine::Action,
        viewer: Viewer,
    ) -> String {
        if self.hides_action(before, viewer) {
            return crate::fog::HIDDEN_ACTION.to_string();
        }
        match (a, before.pending.first()) {
            (crate::engine::Action::Choose { .. }, Some(c))
                if !viewer.sees_choice(c.player, c.public) =>
            {
                HIDDEN_CHOICE.to_string()
            }
            _ => self.engine.move_text(before, a, None),
        }
    }

    fn view_piece(&self, s: &GameState, id: PieceId, viewer: Viewer) -> ViewPiece {
        let p = &s.pieces[id as usize];
        ViewPiece {
            id,
            owner: self.engine.player_name(p.owner).to_string(),
            kind: viewer
                .knows(s, id)
                .then(|| self.engine.variant.kinds[p.kind as usize].name.clone()),
            moved: p.moved,
            count: match p.loc {
                crate::base::state::Loc::Cell(c) => s.count_at(c).max(1),
                _ => 1,
            },
            attrs: s
                .attrs(id)
                .iter()
                .filter(|(k, _)| self.engine.variant.public_attrs.contains(k))
                .cloned()
                .collect(),
        }
    }

    /// The view of a game for one viewer (under fog, what they see:
    /// `crates/record/src/fog.rs`).
    pub fn view(&self, s: &GameState, viewer: Viewer) -> View {
        let seen = self.seen_cells(s, viewer);
        let mut view = self.plain_view(s, viewer, seen.as_deref());
        if let Some(seen) = &seen {
            self.fog_view(seen, viewer, &mut view);
        }
        view
    }

    /// The view without fog; cells outside `seen` (when given) are left
    /// empty.
    fn plain_view(&self, s: &GameState, viewer: Viewer, seen: Option<&[bool]>) -> View {
        let b = &self.engine.variant.board;
        let cells = s
            .board()
            .iter()
            .enumerate()
            .map(|(c, slot)| {
                slot.filter(|_| seen.is_none_or(|seen| seen[c]))
                    .map(|id| self.view_piece(s, id, viewer))
            })
            .collect();
        let terrain = s
            .terrain()
            .iter()
            .map(|&bits| {
                b.terrain_names
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| bits & (1 << i) != 0)
                    .map(|(_, n)| n.as_str())
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .collect();
        let containers = s
            .containers
            .iter()
            .map(|c| ViewContainer {
                name: c.name.clone(),
                owner: c.owner.map(|o| self.engine.player_name(o).to_string()),
                pieces: c
                    .pieces
                    .iter()
                    .map(|&id| self.view_piece(s, id, viewer))
                    .collect(),
                items: self.view_items(c, viewer),
            })
            .collect();
        // Counters declared `internal` are the rules' bookkeeping: nobody's.
        let counters = s
            .counters
            .iter()
            .filter(|(n, _, _)| !self.engine.variant.is_internal_counter(n))
            .map(|(n, p, v)| {
                (
                    n.to_string(),
                    p.map(|p| self.engine.player_name(p).to_string()),
                    v,
                )
            })
            .collect();
        let pending = s.pending.first().map(|c| {
            let sees = viewer.sees_choice(c.player, c.public);
            ViewChoice {
                player: self.engine.player_name(c.player).to_string(),
                reason: sees.then(|| c.reason.clone()),
                options: sees.then(|| c.options.clone()),
            }
        });
        View {
            viewer: self.viewer_name(viewer),
            ply: s.ply,
            to_move: self.engine.player_name(s.to_move).to_string(),
            acting: self
                .engine
                .acting_player(s)
                .map(|p| self.engine.player_name(p).to_string()),
            files: b.files,
            ranks: b.ranks,
            cells,
            dice: s.dice.values().to_vec(),
            terrain,
            containers,
            counters,
            pending,
            outcome: s.outcome.as_ref().map(|o| self.outcome_text(o)),
            marks: s
                .marks
                .iter()
                .filter(|(_, m)| match viewer {
                    Viewer::Player(p) => m.known_by & (1 << p) != 0,
                    Viewer::Public => m.known_by == s.all_players(),
                    Viewer::Omniscient => true,
                })
                .map(|((c, n), m)| ViewMark {
                    cell: b.cell_name(*c),
                    name: n.clone(),
                    value: m.value.clone(),
                })
                .collect(),
            cell_counters: s
                .cell_counters
                .iter()
                .map(|(n, c, v)| (n.to_string(), b.cell_name(c), v))
                .collect(),
            window: s
                .windows
                .last()
                .map(|w| self.engine.variant.reactions[w.kind as usize].name.clone()),
            phase: self
                .engine
                .variant
                .phases
                .get(s.phase as usize)
                .map(|p| p.name.clone()),
            unseen: Vec::new(),
        }
    }

    /// An outcome as a sentence: `white wins (black is checkmated)`,
    /// `draw (REASON)`; the reason is the end's own words (docs/variant-format.md,
    /// "How an end is worded").
    pub fn outcome_text(&self, o: &crate::base::state::Outcome) -> String {
        if o.winners.is_empty() {
            // Reasons of draws start with "draw: " in records; said once.
            let why = o.reason.strip_prefix("draw: ").unwrap_or(&o.reason);
            format!("draw ({why})")
        } else {
            let names: Vec<_> = o
                .winners
                .iter()
                .map(|&p| self.engine.player_name(p))
                .collect();
            // Sides named in the plural (`defenders`) or several winners
            // take the plural verb.
            let plural = names.len() > 1 || names[0].ends_with('s') && !names[0].ends_with("ss");
            let verb = if plural { "win" } else { "wins" };
            format!("{} {verb} ({})", names.join(" and "), o.reason)
        }
    }

    /// Describes a piece for a viewer, from the state after an action.
    pub(crate) fn piece_words(&self, s: &GameState, id: PieceId, viewer: Viewer) -> String {
        let p = &s.pieces[id as usize];
        let owner = self.engine.player_name(p.owner);
        if viewer.knows(s, id) {
            format!(
                "{owner} {}",
                self.engine.variant.kinds[p.kind as usize].display
            )
        } else {
            format!("{owner} piece")
        }
    }

    /// Describes a struck piece: as [`Views::piece_words`], or, when it
    /// went to its captor's hand (and changed side), its kind and whose
    /// hand (`Pawn, to white's hand`).
    fn struck_words(&self, s: &GameState, id: PieceId, viewer: Viewer) -> String {
        let p = &s.pieces[id as usize];
        let in_hand = matches!(p.loc, Loc::Container(k)
            if s.containers.get(k as usize).is_some_and(|c| c.name == crate::rules::variant::forms::HAND));
        if !in_hand {
            return self.piece_words(s, id, viewer);
        }
        let what = match viewer.knows(s, id) {
            true => self.engine.variant.kinds[p.kind as usize].display.clone(),
            false => "piece".into(),
        };
        format!("{what}, to {}'s hand", self.engine.player_name(p.owner))
    }

    /// The events of one action as a viewer may see them (`after` is the
    /// state after the action).
    /// A capture's line: or a piece sent back to one of its owner's own
    /// containers (a boat, a hand), which is not captured.
    fn captured_line(
        &self,
        after: &GameState,
        piece: PieceId,
        cell: Option<Cell>,
        viewer: Viewer,
    ) -> String {
        let b = &self.engine.variant.board;
        let on = cell
            .map(|c| format!(" on {}", b.cell_name(c)))
            .unwrap_or_default();
        let hand = crate::rules::variant::forms::HAND;
        let back = match after.pieces.get(piece as usize).map(|p| (p.loc, p.owner)) {
            Some((Loc::Container(k), owner)) => after
                .containers
                .get(k as usize)
                .filter(|c| c.owner == Some(owner) && c.name != "captured" && c.name != hand)
                .map(|c| c.name.clone()),
            _ => None,
        };
        let words = self.struck_words(after, piece, viewer);
        match back {
            Some(name) => format!("back to the {name}: {words}{on}"),
            None => format!(
                "{}: {words}{on}",
                self.engine.variant.words.event("capture", "capture")
            ),
        }
    }

    /// A flip's line: the piece is named without its owner (`after` holds
    /// the new one, said once at the end).
    fn flipped_line(
        &self,
        after: &GameState,
        piece: PieceId,
        cell: Cell,
        owner: PlayerId,
        viewer: Viewer,
    ) -> String {
        let what = if viewer.knows(after, piece) {
            let kind = after.pieces[piece as usize].kind;
            self.engine.variant.kinds[kind as usize].display.clone()
        } else {
            "piece".to_string()
        };
        format!(
            "{}: {what} on {} to {}",
            self.engine.variant.words.event("flip", "flip"),
            self.engine.variant.board.cell_name(cell),
            self.engine.player_name(owner)
        )
    }

    pub fn event_lines(&self, after: &GameState, events: &[Event], viewer: Viewer) -> Vec<String> {
        match self.seen_cells(after, viewer) {
            Some(seen) => self.fog_event_lines(after, events, viewer, &seen),
            None => self.plain_event_lines(after, events, viewer),
        }
    }

    /// The events as a viewer who sees every cell reads them.
    pub(crate) fn plain_event_lines(
        &self,
        after: &GameState,
        events: &[Event],
        viewer: Viewer,
    ) -> Vec<String> {
        let b = &self.engine.variant.board;
        let words = &self.engine.variant.words;
        let w = |label: &'static str| words.event(label, label);
        let mut out = Vec::new();
        for e in events {
            match e {
                Event::Moved { piece, from, to } => out.push(format!(
                    "{}: {} {}-{}",
                    w("move"),
                    self.piece_words(after, *piece, viewer),
                    b.cell_name(*from),
                    b.cell_name(*to)
                )),
                Event::Struck {
                    attacker,
                    defender,
                    from,
                    to,
                    result,
                } => {
                    let (a, d) = (
                        self.piece_words(after, *attacker, viewer),
                        self.struck_words(after, *defender, viewer),
                    );
                    // A result worded empty (`strike.attacker: ""`) is left out.
                    let res = match result {
                        Strike::AttackerWins => words.event("striker_wins", "the striker wins"),
                        Strike::DefenderWins => words.event("defender_wins", "the defender wins"),
                        Strike::BothRemoved => words.event("both_removed", "both are removed"),
                        Strike::NoEffect => words.event("no_effect", "nothing happens"),
                    };
                    let res = if res.is_empty() {
                        String::new()
                    } else {
                        format!(": {res}")
                    };
                    out.push(format!(
                        "{}: {a} {}x{} {d}{res}",
                        w("strike"),
                        b.cell_name(*from),
                        b.cell_name(*to)
                    ));
                }
                Event::Effect(Effect::Revealed { piece, to }) => {
                    let visible = match viewer {
                        Viewer::Player(p) => to & (1 << p) != 0,
                        Viewer::Public => *to == after.all_players(),
                        Viewer::Omniscient => true,
                    };
                    if visible {
                        out.push(format!(
                            "{}: {}",
                            w("reveal"),
                            self.piece_words(after, *piece, viewer)
                        ));
                    }
                }
                Event::Effect(Effect::Captured { piece, cell }) => {
                    out.push(self.captured_line(after, *piece, *cell, viewer))
                }
                Event::Effect(Effect::Moved { piece, to, .. }) => out.push(format!(
                    "{}: {} on {}",
                    w("place"),
                    self.piece_words(after, *piece, viewer),
                    b.cell_name(*to)
                )),
                Event::Effect(Effect::Flipped { piece, cell, owner }) => {
                    out.push(self.flipped_line(after, *piece, *cell, *owner, viewer))
                }
                Event::Effect(Effect::Note(t)) => out.push(format!("{}: {t}", w("note"))),
                Event::Chose {
                    player,
                    label,
                    public,
                } => {
                    let shown = if viewer.sees_choice(*player, *public) {
                        label.clone()
                    } else {
                        HIDDEN_CHOICE.to_string()
                    };
                    out.push(format!(
                        "{}: {} chose {shown}",
                        w("choice"),
                        self.engine.player_name(*player)
                    ))
                }
                Event::Ended(o) => out.push(format!("{}: {}", w("end"), self.outcome_text(o))),
            }
        }
        out
    }

    /// The pieces removed from the board so far, per owner, as a viewer sees them.
    pub fn captured_summary(&self, s: &GameState, viewer: Viewer) -> Vec<String> {
        let mut lines = Vec::new();
        // Where each kind comes in the variant's declared order.
        let place = |kind: usize| {
            self.engine
                .variant
                .show_order
                .iter()
                .position(|&k| k == kind)
        };
        for c in &s.containers {
            // The captured pile (the host's own) is sorted by the declared
            // order of the kinds the viewer knows, unknown pieces last in
            // the order they were taken; other containers (a boat, a queue)
            // keep their order.
            let mut known: Vec<(Option<usize>, PieceId)> = c
                .pieces
                .iter()
                .map(|&id| {
                    let kind = s.pieces[id as usize].kind as usize;
                    (viewer.knows(s, id).then(|| place(kind)).flatten(), id)
                })
                .collect();
            if c.name == CAPTURED {
                known.sort_by_key(|&(p, _)| p.unwrap_or(usize::MAX));
            }
            let mut names: Vec<String> = known
                .iter()
                .map(|&(p, id)| match p {
                    Some(_) => self.engine.variant.kinds[s.pieces[id as usize].kind as usize]
                        .symbol
                        .clone(),
                    None => "?".into(),
                })
                .collect();
            names.extend(self.items_text(c, viewer));
            let owner = c
                .owner
                .map(|o| self.engine.player_name(o))
                .unwrap_or("shared");
            lines.push(format!(
                "{} {owner}: {}",
                c.name,
                if names.is_empty() {
                    "-".into()
                } else {
                    names.join(" ")
                }
            ));
        }
        lines
    }

    /// A text picture of a view: the first player's side at the bottom, or
    /// the viewer's own side at the bottom when viewing as another player.
    pub fn render(&self, view: &View, last: Option<(u16, u16)>) -> String {
        self.render_styled(view, last, false)
    }

    /// The symbol drawn for a piece of this kind (`?` when unknown).
    pub fn symbol_of(&self, kind: Option<&str>) -> String {
        kind.and_then(|k| self.engine.variant.kinds.iter().find(|x| x.name == k))
            .map(|x| x.symbol.clone())
            .unwrap_or_else(|| "?".into())
    }

    /// The colour of a player's pieces: the player's name when it names a
    /// colour, else one from a palette by seat.
    pub fn player_color(&self, owner: &str) -> anstyle::AnsiColor {
        use anstyle::AnsiColor::*;
        match owner {
            "red" => Red,
            "blue" => Blue,
            "green" => Green,
            "yellow" => Yellow,
            "white" => BrightWhite,
            "black" => Magenta,
            "purple" | "magenta" => Magenta,
            "cyan" => Cyan,
            other => {
                let i = self.engine.variant.player_index(other).unwrap_or(0);
                [Red, Blue, Green, Yellow, Magenta, Cyan][i % 6]
            }
        }
    }

    /// Whether a viewer's board is drawn turned round (their side at the
    /// bottom): a player whose setup zone lies in the upper half of the
    /// board; without setup zones, the second of two players. With more
    /// seats and no zones nobody's board is turned, so that no seat sees
    /// it upside down from the others.
    pub fn flips_for(&self, viewer: &str) -> bool {
        let Some(Viewer::Player(p)) = self.parse_viewer(viewer) else {
            return false;
        };
        let v = &self.engine.variant;
        let zone = v.setup_zones.get(p as usize).map_or(&[][..], |z| &z[..]);
        if zone.is_empty() {
            return v.players.len() == 2 && p == 1;
        }
        let mean = zone
            .iter()
            .map(|&c| v.board.coords(c).1 as f64)
            .sum::<f64>()
            / zone.len() as f64;
        mean > (v.board.ranks as f64 - 1.0) / 2.0
    }

    /// Like [`Views::render`], with ANSI colours when `color` is set: pieces
    /// in their owner's colour, terrain dimmed, the last move underlined.
    pub fn render_styled(&self, view: &View, last: Option<(u16, u16)>, color: bool) -> String {
        let files = view.files as usize;
        let ranks = view.ranks as usize;
        let flip = self.flips_for(&view.viewer);
        let unseen = crate::fog::unseen_cells(view, &self.engine.variant.board);
        let mut out = String::new();
        let rank_order: Vec<usize> = if flip {
            (0..ranks).collect()
        } else {
            (0..ranks).rev().collect()
        };
        let file_order: Vec<usize> = if flip {
            (0..files).rev().collect()
        } else {
            (0..files).collect()
        };
        let board = &self.engine.variant.board;
        let crossings = board.graph.as_ref().map(|g| g.crossings(board));
        let hex = board.shape == crate::base::geometry::Shape::Hex;
        for &r in &rank_order {
            out.push_str(&format!("{:>3} ", r + 1));
            if hex {
                let shift = if flip { ranks - 1 - r } else { r };
                out.push_str(&"  ".repeat(shift));
            }
            for &f in &file_order {
                let c = r * files + f;
                let mark =
                    !unseen[c] && last.is_some_and(|(a, b)| a as usize == c || b as usize == c);
                let text = match &view.cells[c] {
                    Some(p) => {
                        let owner = p.owner.chars().next().unwrap_or('?').to_ascii_uppercase();
                        let sym = self.symbol_of(p.kind.as_deref());
                        let n = p.count.to_string();
                        format!("{owner}{}", if p.count > 1 { &n } else { &sym })
                    }
                    None if !board.is_point(c as u16) => {
                        match crossings.as_ref().map_or(' ', |g| g[c]) {
                            // A horizontal line runs on through the gap.
                            '-' => "---".into(),
                            g => g.to_string(),
                        }
                    }
                    None if unseen[c] => "::".into(),
                    None if !view.terrain[c].is_empty() => "~~".into(),
                    None => self.cell_symbol(view, c),
                };
                let cell_text = if mark {
                    format!("{:>3}*", text)
                } else {
                    format!("{:>3} ", text)
                };
                if color {
                    let mut style = anstyle::Style::new();
                    if let Some(p) = &view.cells[c] {
                        style = style
                            .fg_color(Some(self.player_color(&p.owner).into()))
                            .bold();
                    } else if !view.terrain[c].is_empty() {
                        style = style
                            .fg_color(Some(anstyle::AnsiColor::Cyan.into()))
                            .dimmed();
                    } else {
                        style = style.dimmed();
                    }
                    if mark {
                        style = style.underline();
                    }
                    out.push_str(&format!("{style}{cell_text}{style:#}"));
                } else {
                    out.push_str(&cell_text);
                }
            }
            out.truncate(out.trim_end_matches(' ').len());
            out.push('\n');
        }
        out.push_str("    ");
        for &f in &file_order {
            out.push_str(&format!("{:>3} ", (b'a' + f as u8) as char));
        }
        out.truncate(out.trim_end_matches(' ').len());
        out.push('\n');
        out.push_str(&self.legend(view));
        out.push_str(&dice_line(view));
        out.push_str(&self.render_extras(view));
        match (&view.outcome, &view.pending) {
            (Some(o), _) => out.push_str(&format!("game over: {o}\n")),
            (None, Some(c)) => out.push_str(&format!(
                "ply {}: {}\n",
                view.ply,
                choice_prompt(&self.engine.variant.words, c)
            )),
            (None, None) => match (&view.window, &view.acting) {
                (Some(w), Some(who)) => out.push_str(&format!(
                    "ply {}: {who} may react ({w}: a reaction or pass), in {}'s turn   (viewing as {})\n",
                    view.ply, view.to_move, view.viewer
                )),
                _ => out.push_str(&format!(
                    "ply {}: {} to move   (viewing as {})\n",
                    view.ply, view.to_move, view.viewer
                )),
            },
        }
        out
    }
}
