//! Hands and drops: the variant's `hands:`, a kind's `code_mark` and
//! `demotes_to`, and the zones a placement may (`zone:`) or may not
//! (`outside:`) go to.
//!
//! Changes when what a hand or a drop may declare changes.

use serde_saphyr::Location;

use super::pieces::Scope;
use super::{player_zones, Ctx};
use crate::base::geometry::Cell;
use crate::variant::forms::{Form, Hands};
use crate::variant::raw::{RawPiece, RawVariant};
use crate::variant::Kind;

/// A placement's `zone:` or `outside:` (`key`), as cells per player:
/// `Some(None)` when absent, `None` (reported) when it names no zone.
#[allow(clippy::option_option)]
pub(super) fn placement_zone(
    s: &Scope,
    zone: Option<&str>,
    key: &str,
    loc: Location,
    cx: &mut Ctx,
) -> Option<Option<Vec<Vec<Cell>>>> {
    let Some(z) = zone else {
        return Some(None);
    };
    match player_zones(s.board, s.players, z) {
        Some(cells) => Some(Some(cells)),
        None => {
            cx.err_at(
                loc,
                format!("piece `{}`: `{key}: {z}` names no zone", s.name),
            );
            None
        }
    }
}

/// A kind's `code_mark`: `+` (written before the code) or `~` (after it),
/// beside a code.
pub(super) fn code_mark(s: &Scope, p: &RawPiece, loc: Location, cx: &mut Ctx) -> Option<char> {
    let mark = p.code_mark?;
    if mark != '+' && mark != '~' {
        cx.err_at(
            loc,
            format!(
                "piece `{}`: `code_mark: {mark}`: expected `+` (written before the code, as SFEN does) or `~` (after it, as FEN dialects with drops do)",
                s.name
            ),
        );
        return None;
    }
    if p.code.is_none() {
        cx.err_at(
            loc,
            format!(
                "piece `{}`: `code_mark` marks a `code`, and the kind has none",
                s.name
            ),
        );
    }
    Some(mark)
}

/// The variant's `hands:`; a drop (`place: hand`) or a `demotes_to`
/// without it is refused where it is written, as is a kind that demotes
/// to itself.
pub(super) fn hands(raw: &RawVariant, kinds: &[Kind], cx: &mut Ctx) -> Option<Hands> {
    let hands = raw.hands.as_ref().map(|h| Hands {
        captures: h.value.captures.unwrap_or(true),
    });
    for (name, p) in raw
        .pieces
        .iter()
        .filter_map(|(n, p)| Some((n, p.as_ref()?)))
    {
        cx.from(&format!("pieces.{name}"));
        let Some(kind) = kinds.iter().position(|k| &k.name == name) else {
            continue;
        };
        let k = &kinds[kind];
        if k.demotes_to == Some(kind as u16) {
            cx.err_at(
                p.referenced,
                format!("piece `{name}`: `demotes_to: {name}` names the kind itself"),
            );
        }
        if hands.is_none() && p.value.demotes_to.is_some() {
            cx.err_at(
                p.referenced,
                format!("piece `{name}`: `demotes_to` says what a captured piece becomes in its captor's hand, and the variant declares no `hands:`"),
            );
        }
        let drops = k
            .forms
            .iter()
            .any(|f| matches!(f, Form::Place(pl) if pl.from_hand));
        if drops && hands.is_none() {
            cx.from(&format!("pieces.{name}.moves"));
            let at = (p.value.moves.iter().flatten())
                .find(|m| m.value.place.as_deref() == Some("hand"))
                .map_or(p.referenced, |m| m.referenced);
            cx.err_at(
                at,
                format!("piece `{name}`: `place: hand` drops a piece held in hand, and the variant declares no `hands:` (add `hands: {{ captures: true }}`)"),
            );
        }
    }
    hands
}
