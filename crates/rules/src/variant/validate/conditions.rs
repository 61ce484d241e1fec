//! Where an action parameter's cells come from and what they must be, as
//! typed YAML: a source (`own_pieces`, `{ next_to: from }`, `{ flood:
//! from, through: water }`, ...) and conditions (`empty`, `{ terrain:
//! water }`, `{ mark: { tile: stone } }`, `{ not: { kind: king } }`, ...).
//! A condition or source written as text of several words (the form
//! before conditions were typed) is refused with its typed form.
//!
//! Changes when the vocabulary of sources and conditions grows.

use serde_saphyr::{Location, Spanned};

use super::Ctx;
use crate::base::cell_set::CellSet;
use crate::base::geometry::{Board, Cell};
use crate::base::state::KindId;
use crate::variant::actions::{Filter, Source};
use crate::variant::{Kind, Value};

/// The board, the kinds and the players, to resolve names.
pub(super) type Names<'a> = (&'a Board, &'a [Kind], &'a [String]);

const SOURCES: &str = "own_pieces, near_own, cells, sight, { zone: NAME }, { own_zone: NAME }, \
     { first_zone: [NAME, ...] }, { next_to: PARAM }, { flood: PARAM, through: TERRAIN }";

const CONDITIONS: &str = "empty, enemy, own, not_own, frozen, { terrain: T }, \
     { mark: NAME }, { mark: { NAME: VALUE } }, { attr: NAME }, { counter: NAME }, { zone: NAME }, \
     { kind: KIND } or { kind: [KIND, ...] }, { not: CONDITION }";

/// Reads a source; `earlier` names the action's earlier parameters.
pub(super) fn source(
    s: &Spanned<Value>,
    earlier: &[String],
    (board, players): (&Board, &[String]),
    cx: &mut Ctx,
) -> Option<Source> {
    let at = s.referenced;
    let param = |v: &Value, cx: &mut Ctx| {
        let w = word(v, at, "a parameter's name", cx)?;
        let i = earlier.iter().position(|p| p == w);
        if i.is_none() {
            cx.err_at(
                at,
                format!("`{w}` is not an earlier parameter of this action"),
            );
        }
        i
    };
    match &s.value {
        Value::Str(w) => match w.as_str() {
            "own_pieces" => Some(Source::OwnPieces),
            "near_own" => Some(Source::NearOwn),
            "cells" => Some(Source::Cells),
            "sight" => Some(Source::Sight),
            _ => unknown(at, "source", w, SOURCES, old_source(w), cx),
        },
        Value::Map(m) => {
            let keys: Vec<&str> = m.keys().map(String::as_str).collect();
            match keys.as_slice() {
                ["zone"] => zone(&m["zone"], at, board, cx).map(Source::Zone),
                ["own_zone"] => {
                    let z = word(&m["own_zone"], at, "a zone's name", cx)?;
                    let cells = super::player_zones(board, players, z);
                    if cells.is_none() {
                        cx.err_at(at, format!("unknown zone `{z}`"));
                    }
                    cells.map(Source::OwnZone)
                }
                ["first_zone"] => {
                    let Value::List(zs) = &m["first_zone"] else {
                        cx.err_at(
                            at,
                            "`first_zone` takes a list of zones: `{ first_zone: [NAME, ...] }`",
                        );
                        return None;
                    };
                    if zs.is_empty() {
                        cx.err_at(at, "`first_zone` names no zone");
                        return None;
                    }
                    let zones: Vec<_> = zs.iter().map(|z| zone(z, at, board, cx)).collect();
                    zones
                        .into_iter()
                        .collect::<Option<_>>()
                        .map(Source::FirstZone)
                }
                ["next_to"] => param(&m["next_to"], cx).map(Source::NextTo),
                // A map's keys come sorted.
                ["flood", "through"] => {
                    let from = param(&m["flood"], cx);
                    let through = terrain(&m["through"], at, board, cx)?;
                    Some(Source::Flood {
                        from: from?,
                        through,
                    })
                }
                _ => unknown(at, "source", &yaml_text(&s.value), SOURCES, None, cx),
            }
        }
        v => unknown(at, "source", &yaml_text(v), SOURCES, None, cx),
    }
}

/// Reads a move's conditions on a cell itself (`where`, `through`: what
/// stands on the cell is the move's `onto`, `onto_kinds` or `over`, so
/// conditions on pieces are refused with those names). `key` names the
/// list in messages.
pub(super) fn cell_conditions(
    list: &[Spanned<Value>],
    key: &str,
    (board, players): (&Board, &[String]),
    cx: &mut Ctx,
) -> Vec<Filter> {
    let mut out = Vec::new();
    for c in list {
        if let Some(w) = piece_word(&c.value) {
            cx.err_at(
                c.referenced,
                format!(
                    "a move's `{key}` is about the cell itself ({CELL_CONDITIONS}); \
                     `{w}` is about what stands on it: say that with `onto`, `onto_kinds` or `over`"
                ),
            );
            continue;
        }
        out.extend(filter(c, (board, &[], players), cx));
    }
    out
}

const CELL_CONDITIONS: &str = "{ terrain: T }, { mark: NAME }, { mark: { NAME: VALUE } }, \
     { counter: NAME }, { zone: NAME }, { not: CONDITION }";

/// The first condition word in `v` that is about a piece, not a cell.
fn piece_word(v: &Value) -> Option<&str> {
    match v {
        Value::Str(w) if ["empty", "enemy", "own", "not_own", "frozen"].contains(&w.as_str()) => {
            Some(w)
        }
        Value::Map(m) if m.len() == 1 => {
            let (key, arg) = m.iter().next()?;
            match key.as_str() {
                "attr" | "kind" => Some(key),
                "not" => piece_word(arg),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Reads a condition.
pub(super) fn filter(s: &Spanned<Value>, names: Names, cx: &mut Ctx) -> Option<Filter> {
    condition(&s.value, s.referenced, names, 0, cx)
}

fn condition(v: &Value, at: Location, names: Names, depth: u8, cx: &mut Ctx) -> Option<Filter> {
    let (board, kinds, _) = names;
    match v {
        Value::Str(w) => match w.as_str() {
            "empty" => Some(Filter::Empty),
            "enemy" => Some(Filter::Enemy),
            "own" => Some(Filter::Own),
            "not_own" => Some(Filter::NotOwn),
            "frozen" => Some(Filter::Frozen(true)),
            _ => unknown(at, "condition", w, CONDITIONS, old_condition(w), cx),
        },
        Value::Map(m) if m.len() == 1 => {
            let (key, arg) = m.iter().next()?;
            match key.as_str() {
                "terrain" => terrain(arg, at, board, cx).map(|b| Filter::Terrain(b, true)),
                "mark" => match arg {
                    Value::Map(mv) if mv.len() == 1 => {
                        let (name, value) = mv.iter().next()?;
                        Some(Filter::Mark(name.clone(), Some(value.to_string()), true))
                    }
                    _ => {
                        let name = word(arg, at, "a mark's name or `{ NAME: VALUE }`", cx)?;
                        Some(Filter::Mark(name.to_string(), None, true))
                    }
                },
                "attr" => word(arg, at, "an attribute's name", cx)
                    .map(|a| Filter::Attr(a.to_string(), true)),
                "counter" => word(arg, at, "a cell counter's name", cx)
                    .map(|c| Filter::Counter(c.to_string(), true)),
                "kind" => kinds_of(arg, at, kinds, cx).map(|k| Filter::Kind(k, true)),
                "zone" => {
                    let z = word(arg, at, "a zone's name", cx)?;
                    let cells = super::player_zones(board, names.2, z);
                    if cells.is_none() {
                        cx.err_at(at, format!("unknown zone `{z}`"));
                    }
                    let sets = cells?.iter().map(|c| CellSet::of(c)).collect();
                    Some(Filter::Zone(z.to_string(), sets, true))
                }
                "not" if depth < 4 => condition(arg, at, names, depth + 1, cx).map(negated),
                "not" => {
                    cx.err_at(at, "`not` nested too deeply");
                    None
                }
                _ => unknown(at, "condition", &yaml_text(v), CONDITIONS, None, cx),
            }
        }
        v => unknown(at, "condition", &yaml_text(v), CONDITIONS, None, cx),
    }
}

/// A condition's opposite.
fn negated(f: Filter) -> Filter {
    match f {
        Filter::Terrain(b, has) => Filter::Terrain(b, !has),
        Filter::Mark(m, v, has) => Filter::Mark(m, v, !has),
        Filter::Attr(a, has) => Filter::Attr(a, !has),
        Filter::Counter(c, has) => Filter::Counter(c, !has),
        Filter::Zone(z, cells, has) => Filter::Zone(z, cells, !has),
        Filter::Kind(k, has) => Filter::Kind(k, !has),
        Filter::Frozen(has) => Filter::Frozen(!has),
        Filter::Not(inner) => *inner,
        f => Filter::Not(Box::new(f)),
    }
}

/// A plain name.
fn word<'v>(v: &'v Value, at: Location, what: &str, cx: &mut Ctx) -> Option<&'v str> {
    match v {
        Value::Str(w) if !w.is_empty() && !w.contains(char::is_whitespace) => Some(w),
        _ => {
            cx.err_at(at, format!("expected {what}, found `{}`", yaml_text(v)));
            None
        }
    }
}

fn kinds_of(v: &Value, at: Location, kinds: &[Kind], cx: &mut Ctx) -> Option<Vec<KindId>> {
    let names: Vec<&Value> = match v {
        Value::List(l) if !l.is_empty() => l.iter().collect(),
        v => vec![v],
    };
    let mut out = Vec::new();
    for n in names {
        let k = word(n, at, "a piece kind", cx)?;
        match kinds.iter().position(|x| x.name == k) {
            Some(i) => out.push(i as KindId),
            None => {
                let known: Vec<&str> = kinds.iter().map(|x| x.name.as_str()).collect();
                cx.err_at(
                    at,
                    format!("`{k}` is no piece kind (kinds: {})", known.join(", ")),
                );
                return None;
            }
        }
    }
    Some(out)
}

fn zone(v: &Value, at: Location, board: &Board, cx: &mut Ctx) -> Option<Vec<Cell>> {
    let z = word(v, at, "a zone's name", cx)?;
    let cells = board.zone(z).map(|c| c.to_vec());
    if cells.is_none() {
        cx.err_at(at, format!("unknown zone `{z}`"));
    }
    cells
}

fn terrain(v: &Value, at: Location, board: &Board, cx: &mut Ctx) -> Option<u32> {
    let t = word(v, at, "a terrain's name", cx)?;
    let bit = board.terrain_bit(t);
    if bit.is_none() {
        cx.err_at(at, format!("unknown terrain `{t}`"));
    }
    bit
}

/// A value as YAML's flow style writes it (`{ kind: [a, b] }`), for errors.
fn yaml_text(v: &Value) -> String {
    match v {
        Value::List(l) => {
            let items: Vec<String> = l.iter().map(yaml_text).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Map(m) => {
            let items: Vec<String> = m
                .iter()
                .map(|(k, x)| format!("{k}: {}", yaml_text(x)))
                .collect();
            format!("{{ {} }}", items.join(", "))
        }
        v => v.to_string(),
    }
}

/// The error for something that is no source or condition; `typed` is
/// the typed form of an old text form, when it is one.
fn unknown<T>(
    at: Location,
    what: &str,
    text: &str,
    known: &str,
    typed: Option<String>,
    cx: &mut Ctx,
) -> Option<T> {
    let text = crate::base::limits::escape_controls(text);
    cx.err_at(
        at,
        match typed {
            Some(t) => format!("{what}s are YAML now: write `{t}` for `{text}`"),
            None => format!("unknown {what} `{text}` ({what}s: {known})"),
        },
    );
    None
}

/// The typed form of a source written as words (`next_to from`).
fn old_source(text: &str) -> Option<String> {
    let w: Vec<&str> = text.split_whitespace().collect();
    match w.as_slice() {
        ["zone" | "own_zone", z] => Some(format!("{{ {}: {z} }}", w[0])),
        ["next_to", p] => Some(format!("{{ next_to: {p} }}")),
        ["first_zone", zs @ ..] if !zs.is_empty() => {
            Some(format!("{{ first_zone: [{}] }}", zs.join(", ")))
        }
        ["flood", p, "through", t] => Some(format!("{{ flood: {p}, through: {t} }}")),
        _ => None,
    }
}

/// The typed form of a condition written as words (`not mark tile=stone`).
fn old_condition(text: &str) -> Option<String> {
    let w: Vec<&str> = text.split_whitespace().collect();
    let (not, rest) = match w.split_first() {
        Some((&"not", rest)) => (true, rest),
        _ => (false, &w[..]),
    };
    let inner = match rest {
        ["frozen"] => "frozen".to_string(),
        ["terrain" | "attr" | "counter" | "kind", x] => format!("{{ {}: {x} }}", rest[0]),
        ["mark", m] => match m.split_once('=') {
            Some((n, v)) => format!("{{ mark: {{ {n}: {v} }} }}"),
            None => format!("{{ mark: {m} }}"),
        },
        _ => return None,
    };
    Some(if not {
        format!("{{ not: {inner} }}")
    } else {
        inner
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_forms_are_given_their_typed_form() {
        assert_eq!(
            old_condition("not mark tile=stone").as_deref(),
            Some("{ not: { mark: { tile: stone } } }")
        );
        assert_eq!(
            old_condition("terrain water").as_deref(),
            Some("{ terrain: water }")
        );
        assert_eq!(
            old_condition("not frozen").as_deref(),
            Some("{ not: frozen }")
        );
        assert_eq!(old_condition("sideways"), None);
        assert_eq!(
            old_source("flood from through water").as_deref(),
            Some("{ flood: from, through: water }")
        );
        assert_eq!(
            old_source("first_zone a b").as_deref(),
            Some("{ first_zone: [a, b] }")
        );
    }

    #[test]
    fn not_flips_a_flag_or_wraps() {
        assert_eq!(negated(Filter::Frozen(true)), Filter::Frozen(false));
        assert_eq!(negated(Filter::Empty), Filter::Not(Box::new(Filter::Empty)));
        assert_eq!(negated(negated(Filter::Enemy)), Filter::Enemy);
    }
}
