//! Chance and stacks: the variant's `dice:`, `board.stacks`, a kind's
//! `race:` move (its track, bar, off and home cells) and the `borne_off`
//! end, each checked against the others (a race needs dice and stacks).
//!
//! Changes when what dice, stacks or a race may declare changes.

use serde_saphyr::Location;

use super::pieces::Scope;
use super::Ctx;
use crate::base::dice::MAX_DICE;
use crate::base::geometry::{Board, Cell};
use crate::variant::forms::{DiceDecl, EndWhen, Form, RaceForm};
use crate::variant::raw::{RawMove, RawVariant};
use crate::variant::Kind;

/// The variant's `dice:`, checked: 1 to 4 dice of 2 to 64 faces, a double
/// played 1 to 4 times, at most [`MAX_DICE`] values in one turn.
fn dice(raw: &RawVariant, cx: &mut Ctx) -> Option<DiceDecl> {
    let d = raw.dice.as_ref()?;
    cx.from("dice");
    let loc = d.referenced;
    let (count, faces) = (d.value.count, d.value.faces);
    let doubles = d.value.doubles.unwrap_or(1);
    let mut ok = true;
    let mut bad = |cx: &mut Ctx, m: String| {
        cx.err_at(loc, m);
        ok = false;
    };
    if faces == 0 {
        bad(
            cx,
            "`dice`: `faces: 0`: a die with no faces cannot be rolled (expected 2 to 64)".into(),
        );
    } else if !(2..=64).contains(&faces) {
        bad(cx, format!("`dice`: `faces: {faces}`: expected 2 to 64"));
    }
    if !(1..=4).contains(&count) {
        bad(
            cx,
            format!("`dice`: `count: {count}`: expected 1 to 4 dice"),
        );
    }
    if !(1..=4).contains(&doubles) {
        bad(
            cx,
            format!(
                "`dice`: `doubles: {doubles}`: expected 1 to 4 (how many times a double is played)"
            ),
        );
    } else if doubles > 1 && count < 2 {
        bad(
            cx,
            "`dice`: `doubles` needs two dice or more (one die never rolls a double)".into(),
        );
    } else if count as usize * doubles as usize > MAX_DICE {
        bad(cx, format!("`dice`: {count} dice played {doubles} times make more than {MAX_DICE} moves in a turn"));
    }
    ok.then_some(DiceDecl {
        count,
        faces,
        doubles,
    })
}

/// `board.stacks`: at least 1 (the default, no stacking).
fn stacks(raw: &RawVariant, cx: &mut Ctx) -> u8 {
    let Some(n) = &raw.board.stacks else {
        return 1;
    };
    cx.from("board");
    if n.value == 0 {
        cx.err_at(
            n.referenced,
            "`board.stacks: 0`: a cell holds at least one piece (expected 1 to 255)",
        );
        return 1;
    }
    n.value
}

/// A race needs dice to roll and stacks to stand in; dice with no race
/// would never be used.
/// `dice:` and `board.stacks`, and what a race form needs of them.
pub(super) fn dice_and_stacks(
    raw: &RawVariant,
    kinds: &[Kind],
    cx: &mut Ctx,
) -> (Option<DiceDecl>, u8) {
    let dice = dice(raw, cx);
    let stacks = stacks(raw, cx);
    race_needs(raw, kinds, dice.is_some(), stacks, cx);
    (dice, stacks)
}

fn race_needs(raw: &RawVariant, kinds: &[Kind], dice: bool, stacks: u8, cx: &mut Ctx) {
    let racers: Vec<usize> = (0..kinds.len())
        .filter(|&k| kinds[k].forms.iter().any(|f| matches!(f, Form::Race(_))))
        .collect();
    let locs: Vec<(String, Location)> = raw
        .pieces
        .iter()
        .filter_map(|(n, p)| Some((n, p.as_ref()?)))
        .flat_map(|(n, p)| {
            p.value
                .moves
                .iter()
                .flatten()
                .filter(|m| m.value.race.is_some())
                .map(move |m| (n.clone(), m.referenced))
        })
        .collect();
    for (name, loc) in &locs {
        cx.from(&format!("pieces.{name}.moves"));
        if !dice {
            cx.err_at(*loc, format!("piece `{name}`: a `race` moves by the dice, and the variant declares no `dice:`"));
        }
        if stacks < 2 {
            cx.err_at(*loc, format!("piece `{name}`: a `race` gathers pieces on cells: give `board.stacks` (at least 2)"));
        }
    }
    if racers.len() > 1 {
        if let Some((name, loc)) = locs.last() {
            cx.err_at(
                *loc,
                format!("piece `{name}`: only one kind may race (the dice are shared)"),
            );
        }
    }
    if let (Some(d), true) = (&raw.dice, racers.is_empty()) {
        cx.from("dice");
        cx.err_at(
            d.referenced,
            "`dice:` are rolled for `race` moves, and no kind has one",
        );
    }
}

/// The cells of a track's item: one cell, or a run `a2:l2` along a rank
/// or a file, walked from its first cell to its last.
fn run(b: &Board, item: &str) -> Result<Vec<Cell>, String> {
    let cell = |t: &str| {
        b.parse_cell(t)
            .ok_or_else(|| format!("`{t}` is not a cell of the {b} board"))
    };
    let Some((x, y)) = item.split_once(':') else {
        return Ok(vec![cell(item)?]);
    };
    let (a, z) = (b.coords(cell(x)?), b.coords(cell(y)?));
    if a.0 != z.0 && a.1 != z.1 {
        return Err(format!("`{item}`: a run goes along one rank or one file"));
    }
    let step = ((z.0 - a.0).signum(), (z.1 - a.1).signum());
    let n = (z.0 - a.0).abs().max((z.1 - a.1).abs());
    Ok((0..=n)
        .filter_map(|i| b.cell(a.0 + i * step.0, a.1 + i * step.1))
        .collect())
}

/// A cell mirrored in rank (the second player's side of the board).
fn mirrored(b: &Board, c: Cell) -> Cell {
    let (f, r) = b.coords(c);
    b.cell(f, b.ranks as i32 - 1 - r).unwrap_or(c)
}

/// A kind's `race:` form.
pub(super) fn race(
    s: &Scope,
    m: &RawMove,
    items: &[String],
    loc: Location,
    cx: &mut Ctx,
) -> Option<RaceForm> {
    let b = s.board;
    let name = s.name;
    let mut track: Vec<Cell> = Vec::new();
    for item in items {
        match run(b, item) {
            Ok(cells) => track.extend(cells),
            Err(e) => {
                cx.err_at(loc, format!("piece `{name}`: `race`: {e}"));
                return None;
            }
        }
    }
    if let Some(c) = (0..track.len()).find(|&i| track[..i].contains(&track[i])) {
        cx.err_at(
            loc,
            format!(
                "piece `{name}`: `race`: the track passes {} twice",
                b.cell_name(track[c])
            ),
        );
        return None;
    }
    if !(2..=250).contains(&track.len()) {
        cx.err_at(
            loc,
            format!(
                "piece `{name}`: `race`: a track of {} cells (expected 2 to 250)",
                track.len()
            ),
        );
        return None;
    }
    let cell_key = |key: &str, v: &Option<String>, cx: &mut Ctx| -> Option<Cell> {
        let Some(t) = v else {
            cx.err_at(loc, format!("piece `{name}`: a `race` needs `{key}: CELL`"));
            return None;
        };
        match b.parse_cell(t) {
            Some(c) if track.contains(&c) || track.contains(&mirrored(b, c)) => {
                cx.err_at(loc, format!("piece `{name}`: `{key}: {t}` is on the track"));
                None
            }
            Some(c) => Some(c),
            None => {
                cx.err_at(
                    loc,
                    format!("piece `{name}`: `{key}: {t}` is not a cell of the {b} board"),
                );
                None
            }
        }
    };
    let bar = cell_key("bar", &m.bar, cx);
    let off = cell_key("off", &m.off, cx);
    let home = home(name, m.home, track.len(), loc, cx);
    let (bar, off, home) = (bar?, off?, home?);
    let players = s.players.len();
    let per = |c: Cell| -> Vec<Cell> {
        (0..players)
            .map(|p| if p % 2 == 1 { mirrored(b, c) } else { c })
            .collect()
    };
    let (bars, offs) = (per(bar), per(off));
    let mut special: Vec<Cell> = bars.iter().chain(&offs).copied().collect();
    special.sort_unstable();
    special.dedup();
    if players != 2 || special.len() != 4 {
        cx.err_at(loc, format!("piece `{name}`: a `race` is for two players, each with a bar and an off cell of their own (the second player's mirrored in rank): `bar` and `off` must differ, and not be their own mirror"));
        return None;
    }
    Some(RaceForm {
        track: (0..players)
            .map(|p| {
                if p % 2 == 1 {
                    track.iter().map(|&c| mirrored(b, c)).collect()
                } else {
                    track.clone()
                }
            })
            .collect(),
        bar: bars,
        off: offs,
        home,
    })
}

/// A race's `home: N`: 1 to the track's length.
fn home(name: &str, home: Option<u8>, len: usize, loc: Location, cx: &mut Ctx) -> Option<u8> {
    match home {
        Some(h) if h >= 1 && (h as usize) <= len => Some(h),
        Some(h) => {
            cx.err_at(
                loc,
                format!(
                    "piece `{name}`: `home: {h}`: expected 1 to the track's {} cells",
                    len
                ),
            );
            None
        }
        None => {
            cx.err_at(
                loc,
                format!("piece `{name}`: a `race` needs `home: N` (the last N cells of the track)"),
            );
            None
        }
    }
}

/// The `borne_off: N` end (a kind must race).
pub(super) fn borne_off_end(
    n: u16,
    scores: Option<bool>,
    loc: Location,
    kinds: &[Kind],
    cx: &mut Ctx,
) -> Option<(EndWhen, String)> {
    if !kinds
        .iter()
        .any(|k| k.forms.iter().any(|f| matches!(f, Form::Race(_))))
    {
        cx.err_at(
            loc,
            "`borne_off` counts the pieces a `race` bore off, and no kind races",
        );
        return None;
    }
    if n == 0 {
        cx.err_at(loc, "`borne_off: 0`: expected at least 1");
        return None;
    }
    Some((
        EndWhen::BorneOff {
            n,
            scores: scores.unwrap_or(false),
        },
        format!("{n} pieces borne off"),
    ))
}

/// The game's `pass:`.
pub(super) fn pass(raw: &RawVariant, cx: &mut Ctx) -> Option<crate::variant::forms::PassWhen> {
    let p = raw.pass.as_ref()?;
    cx.from("pass");
    match p.value.as_str() {
        "stuck" => Some(crate::variant::forms::PassWhen::Stuck),
        "always" => Some(crate::variant::forms::PassWhen::Always),
        other => {
            cx.err_at(
                p.referenced,
                format!("`pass: {other}`: expected `stuck` (only when nothing else is legal) or `always`"),
            );
            None
        }
    }
}
