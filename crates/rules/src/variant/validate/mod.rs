//! Validation: the merged raw spec → a [`Variant`], every problem placed at
//! its file, line and column.
//!
//! Changes when the order of the checks or what they share ([`Ctx`])
//! changes; each section of the schema is checked in its own file.

use std::path::PathBuf;

use super::merge::Origins;
use super::raw::{Param, RawVariant};
use super::{display_path, Diagnostic, LoadError, NoMoves, OptionSpec, Value, Variant};
use crate::base::geometry::{Board, Cell};

mod actions;
mod board;
mod conditions;
mod ends;
mod flow;
mod forms;
mod hands;
mod joint;
mod keys;
pub(super) use keys::FORMS;
mod notation;
mod options;
mod pieces;
mod players;
mod race;
mod rules;
mod setup;
mod sight;
mod sow;
mod strike;
mod tokens;

/// The symbols drawn for cell marks (`rules.display.mark_symbols`).
fn mark_symbols(rules: &super::raw_rules::RawRules) -> Vec<(String, String)> {
    let symbols = rules.display.mark_symbols.clone().unwrap_or_default();
    symbols.into_iter().collect()
}

/// The counters declared `internal`.
fn internal_counters(counters: &indexmap::IndexMap<String, super::raw::RawCounter>) -> Vec<String> {
    let internal = counters.iter().filter(|(_, c)| c.internal);
    internal.map(|(n, _)| n.clone()).collect()
}

/// Checks the merged variant `raw`: `origins` says which of `files` (base
/// first) set each item, `scripts` are the Lua files found beside them, and
/// `overrides` are the `name=value` options given on the command line.
pub(super) fn validate(
    raw: RawVariant,
    origins: Origins,
    files: Vec<PathBuf>,
    scripts: Vec<(PathBuf, String)>,
    overrides: &[(String, String)],
) -> Result<Variant, LoadError> {
    // Options first: everything else may refer to them.
    let (options, override_errors) = options::options(&raw, overrides);
    let mut cx = Ctx::new(&files, origins, override_errors, &options);
    let name = players::name(&raw, &mut cx);
    let players = players::players(&raw, &mut cx);
    let colours = players::colours(&raw, &mut cx);
    let board = board::board(&raw.board, &mut cx)?;
    let kinds = pieces::kinds(&raw, &board, &players, &mut cx);
    let setup_zones = setup::setup_zones(&raw, &board, &players, &kinds, &mut cx);
    let repetition_limit = rules::repetition_limit(&raw.rules, &mut cx);
    let repetition_draw = rules::repetition_draw(&raw.rules, &mut cx);
    setup::start_ranks(&raw, &board, &mut cx);
    let declared = actions::actions(&raw, &board, &kinds, &players, &mut cx);
    sow::sown_counts_not_negative(&raw, &declared, &mut cx);
    actions::needs_exist(&raw, &scripts, &mut cx);
    let queries = actions::queries(&raw, &board, &kinds, &players, &mut cx);
    let tokens = tokens::tokens(&raw, &mut cx);
    let first = flow::first(&raw, &players, &mut cx);
    let phases = flow::phases(&raw, &declared, &mut cx);
    let reactions = flow::reactions(&raw, &declared, &mut cx);
    let containers = flow::containers(&raw, &mut cx);
    let pass = race::pass(&raw, &mut cx);
    let ends = captured_royals(&kinds, ends::ends(&raw, &board, &players, &kinds, &mut cx));
    let sight = sight::sight(&raw, &board, &players, &kinds, &mut cx);
    let hands = hands::hands(&raw, &kinds, &mut cx);
    let (dice, stacks) = race::dice_and_stacks(&raw, &kinds, &mut cx);
    cx.check()?;
    let start_at = setup::start_at(&raw, &cx);
    let no_progress = rules::no_progress(&raw.rules, &kinds, &mut cx);
    let after_action_when = rules::after_action_when(&raw.rules, &board, &players, &kinds, &mut cx);
    let captures_when = rules::captures_when(&raw.rules, &board, &players, &kinds, &mut cx);
    let win_when = rules::win_when(&raw.rules, &mut cx);
    let joint_moves = joint::joint_moves(&raw.rules, &board, &players, &kinds, &mut cx);
    let passing = joint::passing(&raw.rules, &board, &players, &kinds, &mut cx);
    let blast = rules::blast(&raw, &board, &kinds, hands.as_ref(), &mut cx);
    let strike = strike::strike(&raw, &kinds, &mut cx);
    let notation = notation::notation(raw.notation, &board, &kinds, &players, &mut cx);
    cx.check()?;
    let show_order = show_order(&raw.piece_order, &kinds);
    let re = &raw.rules.ends;
    let (bk, vis) = (&raw.rules.bookkeeping, &raw.rules.visibility);
    Ok(Variant {
        name,
        description: raw.description.unwrap_or_default(),
        path: files.last().cloned().unwrap_or_default(),
        scripts,
        files,
        players,
        hidden_identities: raw.hidden_identities.unwrap_or(false),
        colours,
        board,
        options,
        kinds,
        setup_zones,
        repetition_limit,
        no_moves: re.no_moves.unwrap_or(NoMoves::Lose),
        max_plies: re.max_plies.unwrap_or(10_000),
        draw_offers: re.draw_offers.unwrap_or(false),
        strike_reveals: vis.strike_reveals.unwrap_or(false),
        followable_when_hidden_again: vis.followable_when_hidden_again.unwrap_or(false),
        repetition_draw,
        repetition_counters: bk.repetition_counters.clone(),
        extra_moves_when: raw.rules.script.extra_moves_when.clone(),
        no_progress,
        move_number: bk.move_number.clone(),
        after_action_when,
        captures_when,
        win_when,
        joint_moves,
        passing,
        blast,
        strike,
        start_at,
        start: raw.start.map(|s| s.value),
        actions: declared,
        pass,
        hands,
        dice,
        stacks,
        ends,
        queries,
        tokens,
        turn_actions: raw.turn.as_ref().and_then(|t| t.actions),
        first,
        phases,
        reactions,
        containers,
        notation,
        public_attrs: vis.public_attrs.clone().unwrap_or_default(),
        mark_symbols: mark_symbols(&raw.rules),
        show_order,
        sight,
        internal_counters: internal_counters(&raw.counters),
        words: words(raw.words),
    })
}

/// The variant's own words for events and questions.
fn words(raw: super::raw::RawWords) -> super::Words {
    super::Words {
        events: raw.events.into_iter().collect(),
        questions: raw.questions.into_iter().collect(),
    }
}

/// Kind indices in the declared show order (kinds it does not name last,
/// in their own order).
fn show_order(order: &[String], kinds: &[super::Kind]) -> Vec<usize> {
    let mut out: Vec<usize> = order
        .iter()
        .filter_map(|n| kinds.iter().position(|k| &k.name == n))
        .collect();
    for i in 0..kinds.len() {
        if !out.contains(&i) {
            out.push(i);
        }
    }
    out
}

/// What every check shares: the files and which one set each item, the
/// problems found so far, and the options (for `$option` values).
struct Ctx<'a> {
    files: Vec<String>,
    /// The files themselves (to find what they name beside them).
    paths: Vec<PathBuf>,
    origins: Origins,
    /// The file the current item came from (set before checking it).
    file: usize,
    diags: Vec<Diagnostic>,
    options: &'a [OptionSpec],
}

impl<'a> Ctx<'a> {
    /// The context for checking `files` (base first), the problems found in
    /// the command line's options already in.
    fn new(
        files: &[PathBuf],
        origins: Origins,
        diags: Vec<Diagnostic>,
        options: &'a [OptionSpec],
    ) -> Ctx<'a> {
        let shown: Vec<String> = files.iter().map(|p| display_path(p)).collect();
        Ctx {
            file: shown.len() - 1,
            files: shown,
            paths: files.to_vec(),
            origins,
            diags,
            options,
        }
    }

    /// Checks the next items as coming from wherever `key` was last set.
    fn from(&mut self, key: &str) {
        self.file = self.origins.get(key);
    }

    /// Stops with the problems found so far, if any.
    fn check(&mut self) -> Result<(), LoadError> {
        if self.diags.is_empty() {
            Ok(())
        } else {
            Err(LoadError(std::mem::take(&mut self.diags)))
        }
    }

    fn err_top(&mut self, message: impl Into<String>) {
        self.diags.push(Diagnostic {
            file: self.files.last().cloned().unwrap_or_default(),
            line: 1,
            column: 1,
            message: message.into(),
        });
    }

    /// A problem with the command-line options (`--option name=value`).
    fn err_option(&mut self, message: impl Into<String>) {
        self.diags.push(option_error(message));
    }

    fn err_at(&mut self, loc: serde_saphyr::Location, message: impl Into<String>) {
        self.diags.push(Diagnostic {
            file: self.files[self.file].clone(),
            line: loc.line().max(1),
            column: loc.column().max(1),
            message: message.into(),
        });
    }

    /// An `enabled:` of a declaration: a boolean or a boolean option,
    /// true when absent (false when it names no boolean, with an error).
    fn enabled(&mut self, p: Option<&Param<bool>>, loc: serde_saphyr::Location) -> bool {
        p.is_none_or(|p| {
            let pick = |v: &Value| match v {
                Value::Bool(b) => Some(*b),
                _ => None,
            };
            self.resolve(p, loc, pick, "a boolean").unwrap_or(false)
        })
    }

    fn resolve<T: Clone>(
        &mut self,
        p: &Param<T>,
        loc: serde_saphyr::Location,
        pick: impl Fn(&Value) -> Option<T>,
        want: &str,
    ) -> Option<T> {
        match p {
            Param::Lit(v) => Some(v.clone()),
            Param::Opt(name) => {
                let Some(stripped) = name.strip_prefix('$') else {
                    self.err_at(loc, format!("expected {want} or `$option`, found `{name}`"));
                    return None;
                };
                match self.options.iter().find(|o| o.name == stripped) {
                    Some(o) => match pick(&o.value) {
                        Some(v) => Some(v),
                        None => {
                            let t = o.value.type_name();
                            self.err_at(
                                loc,
                                format!("option `{stripped}` is {t}, expected {want}"),
                            );
                            None
                        }
                    },
                    None => {
                        let known: Vec<_> = self.options.iter().map(|o| o.name.as_str()).collect();
                        self.err_at(
                            loc,
                            format!(
                                "unknown option `{stripped}` (declared options: {})",
                                known.join(", ")
                            ),
                        );
                        None
                    }
                }
            }
        }
    }
}

/// A problem with the command-line options, placed at `--option:1:1`.
fn option_error(message: impl Into<String>) -> Diagnostic {
    Diagnostic {
        file: String::new(),
        line: 1,
        column: 1,
        message: message.into(),
    }
}

/// A zone per player: `<player>_<zone>` where the board has it, else `<zone>`.
fn player_zones(board: &Board, players: &[String], zone: &str) -> Option<Vec<Vec<Cell>>> {
    let zones: Vec<Option<Vec<Cell>>> = players
        .iter()
        .map(|p| {
            board
                .zone(&format!("{p}_{zone}"))
                .or_else(|| board.zone(zone))
                .map(<[Cell]>::to_vec)
        })
        .collect();
    zones.into_iter().collect()
}

/// The declared `ends`, then the end each kind declared `royal: captured`
/// brings: its capture wins the game for the captor.
fn captured_royals(
    kinds: &[crate::variant::Kind],
    mut ends: Vec<crate::variant::forms::End>,
) -> Vec<crate::variant::forms::End> {
    use crate::variant::forms::{End, EndWhen, Winner};
    let royals = (kinds.iter().enumerate())
        .filter(|(_, k)| k.royal_captured)
        .map(|(i, k)| End {
            when: EndWhen::Captures(vec![i as crate::base::state::KindId]),
            winner: Winner::Mover,
            reason: format!("the {}'s capture", k.display),
        });
    ends.extend(royals);
    ends
}
