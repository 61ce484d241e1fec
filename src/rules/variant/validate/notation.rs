//! The `notation:` section: how moves are written, each setting defaulting
//! to [`Notation::default`] (the capture mark `x` in the `san` style), and
//! the named moves, whose kinds and cells are checked.
//!
//! Changes when the notation gains a setting.

use super::Ctx;
use crate::base::geometry::Board;
use crate::base::state::KindId;
use crate::rules::variant::raw::RawNotation;
use crate::rules::variant::{Kind, NamedMove, Notation, NotationStyle};

/// The notation, unset fields taken from the default.
pub(super) fn notation(
    raw: Option<RawNotation>,
    board: &Board,
    kinds: &[Kind],
    cx: &mut Ctx,
) -> Notation {
    let n = raw.unwrap_or_default();
    let d = Notation::default();
    let style = n.style.unwrap_or(d.style);
    let capture_default = if style == NotationStyle::San {
        "x".to_string()
    } else {
        d.capture_mark
    };
    cx.from("notation");
    let mut named_moves = Vec::new();
    for (name, spanned) in &n.named_moves {
        let loc = spanned.referenced;
        let m = &spanned.value;
        let Some(kind) = kinds.iter().position(|k| k.name == m.kind) else {
            cx.err_at(
                loc,
                format!(
                    "`notation.named_moves.{name}.kind: {}` names no piece kind",
                    m.kind
                ),
            );
            continue;
        };
        let mut moves = Vec::new();
        for text in &m.moves {
            let pair = text.split_once('-').and_then(|(a, b)| {
                Some((board.parse_cell(a.trim())?, board.parse_cell(b.trim())?))
            });
            match pair {
                Some(p) => moves.push(p),
                None => cx.err_at(
                    loc,
                    format!(
                        "`notation.named_moves.{name}`: `{text}` is not a move `FROM-TO` between cells of the board"
                    ),
                ),
            }
        }
        if name.trim().is_empty() || name.contains(char::is_whitespace) {
            cx.err_at(
                loc,
                format!("`notation.named_moves`: `{name}` must be one word"),
            );
        }
        named_moves.push(NamedMove {
            name: name.clone(),
            also: m.also.clone(),
            kind: kind as KindId,
            moves,
        });
    }
    Notation {
        style,
        capture_mark: n.capture_mark.unwrap_or(capture_default),
        check: n.check.unwrap_or(d.check),
        mate: n.mate.unwrap_or(d.mate),
        promotion_mark: n.promotion_mark.unwrap_or(d.promotion_mark),
        named_moves,
    }
}
