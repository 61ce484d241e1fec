//! The engine's definition: a variant loaded with its rules and movement
//! tables ([`Engine`]), and the map of the submodules that implement it.
//!
//! The turn engine: legal actions generated natively from declared movement,
//! actions applied transactionally with Lua hooks where the variant deviates,
//! turn order, pending choices, repetition bookkeeping and the outcome.
//! Each part is a file with its own `impl Engine`:
//!
//! - `action`: [`Action`], [`Event`], [`ActionError`];
//! - `setup`: the empty board, setups and the new game;
//! - `listing`: the legal actions, and whether there is one;
//! - `leaves`: where listed moves go, and perft's last ply counted;
//! - `check`: check and the self-check test of moves;
//! - `legal`: what a royal piece asks of a position's moves, found once;
//! - `blast`: what a capture blasts, and royal safety where captures blast;
//! - `text`: actions as text, and why one is illegal;
//! - `apply`: applying an action, the move, promotion;
//! - `joint`: declared joint moves and passing captures;
//! - `turn`: passing the turn, the no-move rule, the position hash;
//! - `playout`: random playouts and perft;
//! - [`movegen`], [`tables`], [`bits`], [`sampler`]: movement, its tables
//!   (and their masks for small boards), and
//!   drawing a random move without listing them all.

// The layers below, under the names the code spells them with
// (`crate::base::…`).
use sandtable_base as base;
use sandtable_rules as rules;

mod action;
mod apply;
pub mod bits;
mod blast;
mod check;
mod counters;
mod declared;
mod exhaustive;
mod guard;
mod joint;
mod lang;
mod leaves;
mod legal;
mod listing;
pub mod movegen;
pub mod notation;
mod playout;
pub mod quiet;
mod reach;
pub mod sampler;
mod san;
pub mod setup;
mod sight;
pub mod slide_masks;
mod sow;
pub mod tables;
mod text;
mod turn;
pub mod window;

use crate::rules::lua::RuleHook;
use std::sync::Arc;

use crate::base::geometry::Cell;
use crate::base::state::{KindId, PlayerId};
use crate::movegen::{attacked_on, Moves};
use crate::rules::lua::Rules;
use crate::rules::variant::{LoadError, MovePattern, Variant};

pub use action::{Action, ActionError, Event};
pub use exhaustive::Exhaustive;
pub use playout::PlayoutBuffers;
pub use sight::Seen;

/// A loaded variant with its rules: the immutable game definition.
pub struct Engine {
    pub variant: Arc<Variant>,
    /// The declared movement and its tables.
    pub moves: Arc<Moves>,
    pub rules: Rules,
    /// Whether any kind is royal (moves are then checked for self-check).
    has_royal: bool,
    /// The royal kinds, a bit each (the 128th standing for all beyond,
    /// when one of them is royal).
    royal_kinds: u128,
    /// Whether any kind declares a freeze (`freezes:`).
    declared_freeze: bool,
    /// Every slide direction of every kind (both mirrors of relative ones),
    /// or `None` when a kind has paths or jumping slides: vacating a cell
    /// off these lines from a royal piece cannot expose it.
    slide_lines: Option<Vec<(i8, i8)>>,
    /// Per slide line: the next cell along it from each cell (`Cell::MAX`
    /// off the board).
    line_next: Vec<Vec<Cell>>,
    /// Whether `slide_lines` are known and none runs the way of another
    /// (a multiple of it): then a cell lies on at most one line from a
    /// royal piece (see `legal.rs`).
    plain_lines: bool,
    /// Per slide line and cell, the cells further along it as a mask
    /// (`legal::line_rays`; empty on boards of more than 128 cells).
    line_rays: Vec<u128>,
    /// Per slide line and owner parity: the kinds that could attack along
    /// it (`legal::line_sliders`).
    line_sliders: Vec<[u128; 2]>,
    /// The host rules' counters, numbered.
    counters: counters::HostCounters,
    /// The joint moves' and passing captures' lookup tables.
    joint: joint::JointTables,
    /// Per pair of cells, the slide lines from the first that hold the
    /// second (empty on large boards: `legal::royal_lines`).
    royal_lines: Vec<u32>,
    /// The move language's placements, jumps, passes and ends.
    lang: lang::Lang,
    /// Per cell, the cells a capture landing there blasts around it
    /// (`blast`; empty without one).
    blast_zones: Vec<Vec<Cell>>,
    /// The variant's `start` position with its cell counters, read once
    /// when reading it draws no chance (a new game is then a copy with its
    /// own seed).
    start: Option<crate::base::state::GameState>,
    /// Per cell, whether a move may promote there (see
    /// [`apply::promotion_cells`]); empty when no kind promotes.
    promote_cells: Vec<u8>,
    /// The same as masks ([`apply::promotion_masks`]).
    promote_masks: (u64, bool),
    /// Whether listing and the self-check test take their shortcuts (the
    /// lines from the royal piece, the attack masks, `rules.check_cells`,
    /// perft's counted last ply). Off only in the reference engine
    /// [`Engine::reference`] builds, which the shortcuts are held equal to.
    shortcuts: bool,
}

impl Engine {
    /// Loads a variant by bundled name or path, with option overrides.
    pub fn load(name_or_path: &str, overrides: &[(String, String)]) -> Result<Engine, LoadError> {
        let variant = Variant::load(name_or_path, overrides)?;
        Engine::from_variant(variant)
    }

    pub fn from_variant(variant: Variant) -> Result<Engine, LoadError> {
        let rules = Rules::load(&variant)?;
        let slide_lines = slide_lines(&variant);
        // For each slide line, the next cell along it from every cell.
        let line_next: Vec<Vec<Cell>> = slide_lines
            .as_deref()
            .unwrap_or(&[])
            .iter()
            .map(|&d| {
                (0..variant.board.cell_count() as Cell)
                    .map(|c| variant.board.offset(c, d).unwrap_or(Cell::MAX))
                    .collect()
            })
            .collect();
        let plain_lines = slide_lines.as_deref().is_some_and(|lines| {
            lines.iter().enumerate().all(|(i, a)| {
                lines[..i].iter().all(|b| {
                    let parallel = a.0 as i32 * b.1 as i32 == a.1 as i32 * b.0 as i32;
                    let same_way = a.0 as i32 * b.0 as i32 + a.1 as i32 * b.1 as i32 > 0;
                    !(parallel && same_way)
                })
            })
        });
        let line_sliders =
            legal::line_sliders(&variant.kinds, slide_lines.as_deref().unwrap_or(&[]));
        let counters = counters::HostCounters::new(&variant);
        let has_royal = variant.kinds.iter().any(|k| k.royal);
        let royal_kinds = tables::kind_set(
            (variant.kinds.iter().enumerate())
                .filter(|(_, k)| k.royal)
                .map(|(k, _)| k),
        );
        let royal_lines = match has_royal {
            true => legal::royal_lines(&line_next, variant.board.cell_count()),
            false => Vec::new(),
        };
        let variant = Arc::new(variant);
        let moves = Arc::new(Moves::new(variant.clone()));
        let mut rules = rules;
        let asked = moves.clone();
        rules.set_attacked(Box::new(move |s, occupant, cell, by| {
            attacked_on(&asked, s, occupant, cell, by)
        }));
        let mut lang = lang::Lang::new(&variant);
        lang.steps |= rules.has(RuleHook::ExtraMoves);
        let mut engine = Engine {
            shortcuts: true,
            start: None,
            promote_masks: apply::promotion_masks(
                &apply::promotion_cells(&variant),
                variant.board.cell_count(),
            ),
            promote_cells: apply::promotion_cells(&variant),
            blast_zones: blast::blast_zones(&variant),
            lang,
            line_rays: legal::line_rays(&line_next, variant.board.cell_count()),
            line_next,
            plain_lines,
            line_sliders,
            counters,
            joint: joint::JointTables::new(&variant),
            royal_lines,
            slide_lines,
            has_royal,
            royal_kinds,
            declared_freeze: crate::rules::freeze::declares_freeze(&variant.kinds),
            moves,
            variant,
            rules,
        };
        if let (Some(start), Some((file, line, column))) =
            (&engine.variant.start, &engine.variant.start_at)
        {
            match engine.parse_fen(start, 0) {
                Err(m) => {
                    return Err(LoadError(vec![crate::rules::variant::Diagnostic {
                        file: file.clone(),
                        line: *line,
                        column: *column,
                        message: format!("start: {m}"),
                    }]))
                }
                // A script takes part only through `rules.position_fields`,
                // which keeps no state: unless it drew from the seeded
                // generator, every seed reads the same position.
                Ok(mut s)
                    if engine.variant.scripts.is_empty()
                        || s.rng == rand::SeedableRng::seed_from_u64(0) =>
                {
                    engine.lay_counts(&mut s);
                    engine.start = Some(s)
                }
                Ok(_) => {}
            }
        }
        engine.check_declared_functions()?;
        Ok(engine)
    }

    /// The reference engine of the same variant: it lists and tests every
    /// move in full, without the shortcuts (see [`Exhaustive`]). The
    /// variant's scripts are loaded again into a state of its own.
    pub fn reference(&self) -> Result<Engine, LoadError> {
        let mut engine = Engine::from_variant(Variant::clone(&self.variant))?;
        engine.shortcuts = false;
        Ok(engine)
    }

    /// Every `rules` function a declared action or a reaction window names
    /// must exist.
    fn check_declared_functions(&self) -> Result<(), LoadError> {
        let actions = self.variant.actions.iter().flat_map(|d| {
            let handler = d.choose.as_ref().map(|c| &c.handler);
            let named = d.perform.iter().chain(d.legal.iter()).chain(handler);
            named.map(move |f| (&d.at, format!("actions.{}", d.name), f))
        });
        let windows = self.variant.reactions.iter().filter_map(|r| {
            let f = r.on_pass.as_ref()?;
            Some((&r.at, format!("reactions.{}.on_pass", r.name), f))
        });
        let diags: Vec<_> = actions
            .chain(windows)
            .filter(|(_, _, f)| !self.rules.has_function(f))
            .map(|(at, key, f)| crate::rules::variant::Diagnostic {
                file: at.0.clone(),
                line: at.1,
                column: at.2,
                message: format!("{key}: the script defines no function rules.{f}"),
            })
            .collect();
        if diags.is_empty() {
            Ok(())
        } else {
            Err(LoadError(diags))
        }
    }

    pub fn player_name(&self, p: PlayerId) -> &str {
        self.variant
            .players
            .get(p as usize)
            .map(String::as_str)
            .unwrap_or("?")
    }

    /// The player named `name`, or an error naming the players.
    pub fn player_id(&self, name: &str) -> Result<PlayerId, String> {
        self.variant
            .player_index(name)
            .map(|i| i as PlayerId)
            .ok_or_else(|| {
                format!(
                    "`{name}` is not a player (players: {})",
                    self.variant.players.join(", ")
                )
            })
    }

    /// Whether pieces of `kind` are royal.
    #[inline]
    pub(crate) fn is_royal(&self, kind: KindId) -> bool {
        if kind < 127 {
            (self.royal_kinds >> kind) & 1 == 1
        } else {
            self.variant
                .kinds
                .get(kind as usize)
                .is_some_and(|k| k.royal)
        }
    }

    /// Whether some kind is royal (never left capturable).
    pub(crate) fn has_royal(&self) -> bool {
        self.has_royal
    }

    /// Whether pieces can be frozen: a kind declares a freeze or the
    /// script defines `rules.frozen`.
    pub(crate) fn has_freeze(&self) -> bool {
        self.declared_freeze || self.rules.has(RuleHook::Frozen)
    }
}

/// The lines of every plain slide of the variant, both ways up and both
/// ways along, each once (for the line shortcuts of check and pins), or
/// `None` when a kind moves otherwise than by plain steps and slides.
fn slide_lines(variant: &Variant) -> Option<Vec<(i8, i8)>> {
    let mut slide_lines = Some(Vec::new());
    for pat in variant.kinds.iter().flat_map(|k| &k.moves) {
        if pat.target().conditioned() {
            // Conditions on cells: no line shortcut.
            slide_lines = None;
        }
        match (pat, slide_lines.as_mut()) {
            (
                MovePattern::Slide {
                    deltas,
                    jump: None,
                    screens: 0,
                    ..
                },
                Some(lines),
            ) => {
                for &(x, y) in deltas {
                    // Both ways up (relative directions flip for the
                    // second player) and both ways along (the line
                    // from a royal piece towards a slider runs against
                    // its slide), each line once.
                    for d in [(x, y), (x, -y), (-x, -y), (-x, y)] {
                        if !lines.contains(&d) {
                            lines.push(d);
                        }
                    }
                }
            }
            (MovePattern::Step { lame: false, .. }, _) => {}
            _ => slide_lines = None,
        }
    }
    // Royal pieces that may not face each other: a line can open
    // between them anywhere (no shortcut).
    if variant.kinds.iter().any(|k| !k.not_facing.is_empty()) {
        slide_lines = None;
    }
    slide_lines
}
