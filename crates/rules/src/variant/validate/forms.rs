//! The move language's forms in `pieces.<kind>.moves` (each way of
//! travelling takes only its own keys; placements and jumps are checked
//! here, steps, slides and paths in `pieces`), and the game's `pass:`
//! (`ends:` in `ends.rs`).
//!
//! Changes when the language gains a part or a key.

use serde_saphyr::{Location, Spanned};

use crate::base::geometry::Cell;

use super::pieces::Scope;
use super::Ctx;
use crate::variant::forms::{
    Custody, Enclose, Flank, Form, Groups, Holds, JumpForm, Ko, PlaceForm,
};
use crate::variant::raw::{RawCustody, RawMove};
use crate::variant::Value;

/// Whether the move is one of the language's forms checked here.
pub(super) fn is_form(m: &RawMove) -> bool {
    m.place.is_some() || m.race.is_some() || (m.jump.is_some() && m.slide.is_none())
}

/// A direction set's deltas and whether they are relative, or `None`
/// (reported: `what` names the key).
fn directions(
    s: &Scope,
    name: &str,
    what: &str,
    loc: Location,
    cx: &mut Ctx,
) -> Option<(Vec<(i8, i8)>, bool)> {
    match s.board.directions(name) {
        Some(d) => Some((d.deltas.clone(), d.relative)),
        None => {
            let known: Vec<_> = s.board.directions.iter().map(|d| d.name.as_str()).collect();
            cx.err_at(
                loc,
                format!(
                    "piece `{}`: `{what}: {name}`: unknown direction set (expected one of: {})",
                    s.name,
                    known.join(", ")
                ),
            );
            None
        }
    }
}

/// A direction set that is the same for every player (lines of flanks
/// and groups), or `None` (reported: `what` names the key).
fn absolute_lines(
    s: &Scope,
    name: &str,
    what: &str,
    loc: Location,
    cx: &mut Ctx,
) -> Option<Vec<(i8, i8)>> {
    let (lines, relative) = directions(s, name, what, loc, cx)?;
    if relative {
        cx.err_at(
            loc,
            format!(
                "piece `{}`: `{what}: {name}` must be the same for every player",
                s.name
            ),
        );
        return None;
    }
    Some(lines)
}

/// What `onto` or `over` holds.
fn holds(
    s: &Scope,
    text: Option<&str>,
    dflt: Holds,
    what: &str,
    loc: Location,
    cx: &mut Ctx,
) -> Holds {
    match text {
        None => dflt,
        Some("empty") => Holds::Empty,
        Some("enemy") => Holds::Enemy,
        Some("own") => Holds::Own,
        Some("piece") => Holds::Piece,
        Some("any") => Holds::Any,
        Some(other) => {
            cx.err_at(
                loc,
                format!(
                    "piece `{}`: `{what}: {other}`: expected empty, enemy, own, piece or any",
                    s.name
                ),
            );
            dflt
        }
    }
}

/// A placement or a jump.
pub(super) fn form(s: &Scope, m: &RawMove, loc: Location, cx: &mut Ctx) -> Option<Form> {
    if let Some(from) = &m.place {
        return place(s, m, from, loc, cx).map(Form::Place);
    }
    if let Some(track) = &m.race {
        return super::race::race(s, m, track, loc, cx).map(Form::Race);
    }
    let dirs = m.jump.as_deref()?;
    let (deltas, relative) = directions(s, dirs, "jump", loc, cx)?;
    if deltas.len() > 15 {
        cx.err_at(
            loc,
            format!("piece `{}`: a jump has at most 15 directions", s.name),
        );
        return None;
    }
    let capture = match m.capture.as_deref() {
        None | Some("none") => false,
        Some("jumped") => true,
        Some(other) => {
            cx.err_at(
                loc,
                format!(
                    "piece `{}`: `capture: {other}`: expected `jumped` or `none`",
                    s.name
                ),
            );
            false
        }
    };
    if m.longest == Some(true) && m.compulsory != Some(true) {
        cx.err_at(
            loc,
            format!(
                "piece `{}`: `longest: true` goes with `compulsory: true` (the longest of the compulsory captures)",
                s.name
            ),
        );
    }
    if m.from_zone.is_some() {
        cx.err_at(
            loc,
            format!(
                "piece `{}`: `from_zone` is not yet a key of a `jump`",
                s.name
            ),
        );
    }
    Some(Form::Jump(JumpForm {
        deltas,
        relative,
        over: holds(s, m.over.as_deref(), Holds::Enemy, "over", loc, cx),
        over_kinds: m
            .over_kinds
            .as_ref()
            .map(|l| s.kind_ids(cx, loc, l, "over_kinds")),
        onto: holds(s, m.onto.as_deref(), Holds::Empty, "onto", loc, cx),
        capture,
        repeat: m.repeat.unwrap_or(false),
        compulsory: m.compulsory.unwrap_or(false),
        longest: m.longest.unwrap_or(false),
    }))
}

fn place(s: &Scope, m: &RawMove, from: &str, loc: Location, cx: &mut Ctx) -> Option<PlaceForm> {
    if from != "supply" && from != "hand" {
        cx.err_at(
            loc,
            format!(
                "piece `{}`: `place: {from}`: expected `supply` (a new piece from the mover's supply) or `hand` (a piece the mover holds in hand)",
                s.name
            ),
        );
        return None;
    }
    if holds(s, m.onto.as_deref(), Holds::Empty, "onto", loc, cx) != Holds::Empty {
        cx.err_at(
            loc,
            format!(
                "piece `{}`: a placement goes onto an empty cell (`onto: empty`)",
                s.name
            ),
        );
    }
    let falls = match &m.falls {
        None => None,
        Some(d) => match directions(s, d, "falls", loc, cx)? {
            (deltas, false) if deltas.len() == 1 => Some(deltas[0]),
            _ => {
                cx.err_at(
                    loc,
                    format!(
                        "piece `{}`: `falls: {d}`: expected one direction that is the same for every player (`down`, `up`)",
                        s.name
                    ),
                );
                return None;
            }
        },
    };
    let flank = match &m.flank {
        None => None,
        Some(f) => {
            let lines = absolute_lines(
                s,
                f.lines.as_deref().unwrap_or("all"),
                "flank.lines",
                loc,
                cx,
            )?;
            Some(Flank {
                lines,
                needed: f.needed.unwrap_or(true),
            })
        }
    };
    let groups = match &m.groups {
        None => None,
        Some(g) => Some(groups(s, g, loc, cx)?),
    };
    let zone = super::hands::placement_zone(s, m.zone.as_deref(), "zone", loc, cx)?;
    let outside = super::hands::placement_zone(s, m.outside.as_deref(), "outside", loc, cx)?;
    if from == "hand" && m.supply.is_some() {
        cx.err_at(
            loc,
            format!(
                "piece `{}`: a drop (`place: hand`) takes what the hand holds: `supply` is for `place: supply`",
                s.name
            ),
        );
    }
    if m.supply == Some(0) {
        cx.err_at(
            loc,
            format!(
                "piece `{}`: `supply: 0` places nothing (leave the placement out, or give at least 1)",
                s.name
            ),
        );
        return None;
    }
    Some(PlaceForm {
        falls,
        flank,
        groups,
        zone,
        supply: m.supply,
        outside,
        from_hand: from == "hand",
        not_in_file_with: (m.not_in_file_with.as_ref())
            .map_or_else(Vec::new, |l| s.kind_ids(cx, loc, l, "not_in_file_with")),
        no_mate: m.no_mate.unwrap_or(false),
    })
}

/// A placement's `groups:`.
fn groups(
    s: &Scope,
    g: &crate::variant::raw::RawGroups,
    loc: Location,
    cx: &mut Ctx,
) -> Option<Groups> {
    let lines = absolute_lines(
        s,
        g.lines.as_deref().unwrap_or("orthogonal"),
        "groups.lines",
        loc,
        cx,
    )?;
    let ko = match g.ko.as_deref() {
        None | Some("superko") => Ko::Superko,
        Some("simple") => Ko::Simple,
        Some("none") => Ko::None,
        Some(other) => {
            cx.err_at(
                loc,
                format!(
                    "piece `{}`: `groups.ko: {other}`: expected none, simple or superko",
                    s.name
                ),
            );
            Ko::None
        }
    };
    let suicide = match &g.suicide {
        None => false,
        Some(p) => cx
            .resolve(
                p,
                loc,
                |v| match v {
                    Value::Bool(b) => Some(*b),
                    _ => None,
                },
                "a boolean",
            )
            .unwrap_or(false),
    };
    Some(Groups { lines, suicide, ko })
}

/// A kind's `custody:`.
pub(super) fn custody(s: &Scope, c: &Spanned<RawCustody>, cx: &mut Ctx) -> Option<Custody> {
    let loc = c.referenced;
    let c = &c.value;
    let lines = absolute_lines(
        s,
        c.lines.as_deref().unwrap_or("orthogonal"),
        "custody.lines",
        loc,
        cx,
    )?;
    let run = match &c.run {
        None => Some(1),
        Some(Value::Str(a)) if a == "any" => None,
        Some(Value::Int(n)) if (1..=32).contains(n) => Some(*n as u8),
        Some(other) => {
            cx.err_at(
                loc,
                format!(
                    "piece `{}`: `custody.run: {other}`: expected a number from 1 to 32, or `any`",
                    s.name
                ),
            );
            return None;
        }
    };
    let zones = |names: &[String], what: &str, cx: &mut Ctx| -> Option<Vec<Vec<Cell>>> {
        let mut per: Vec<Vec<Cell>> = vec![Vec::new(); s.players.len()];
        for z in names {
            let Some(cells) = super::player_zones(s.board, s.players, z) else {
                cx.err_at(
                    loc,
                    format!("piece `{}`: `{what}: {z}` names no zone", s.name),
                );
                return None;
            };
            for (p, c) in per.iter_mut().zip(cells) {
                p.extend(c);
            }
        }
        Some(per)
    };
    let hostile = zones(
        c.hostile.as_deref().unwrap_or_default(),
        "custody.hostile",
        cx,
    )?;
    let enclose = match &c.enclose {
        None => None,
        Some(e) => Some(Enclose {
            kinds: s.kind_ids(cx, loc, &e.kinds, "custody.enclose.kinds"),
            within: match &e.within {
                None => None,
                Some(z) => Some(zones(
                    std::slice::from_ref(z),
                    "custody.enclose.within",
                    cx,
                )?),
            },
        }),
    };
    if enclose.is_some() && run != Some(1) {
        cx.err_at(
            loc,
            format!(
                "piece `{}`: `custody.enclose` takes one piece at a time: it goes with `run: 1`",
                s.name
            ),
        );
        return None;
    }
    Some(Custody {
        lines,
        run,
        kinds: c
            .kinds
            .as_ref()
            .map(|l| s.kind_ids(cx, loc, l, "custody.kinds")),
        partners: c
            .partners
            .as_ref()
            .map(|l| s.kind_ids(cx, loc, l, "custody.partners")),
        hostile,
        enclose,
    })
}

/// A kind's `barred:` or `no_stop:` (`what`) terrain tags as bits.
pub(super) fn terrain_bits(s: &Scope, b: &Spanned<Vec<String>>, what: &str, cx: &mut Ctx) -> u32 {
    let mut bits = 0;
    for t in &b.value {
        match s.board.terrain_bit(t) {
            Some(bit) => bits |= bit,
            None => cx.err_at(
                b.referenced,
                format!(
                    "piece `{}`: `{what}: {t}` names no terrain of the board (it has: {})",
                    s.name,
                    if s.board.terrain_names.is_empty() {
                        "none".to_string()
                    } else {
                        s.board.terrain_names.join(", ")
                    }
                ),
            ),
        }
    }
    bits
}
