//! The `notation:` section: how moves are written, each setting defaulting
//! to [`Notation::default`] (the capture mark `x` in the `san` style), and
//! the named moves, whose kinds and cells are checked.
//!
//! Changes when the notation gains a setting.

use super::Ctx;
use crate::base::geometry::Board;
use crate::base::state::{KindId, PlayerId};
use crate::variant::raw::{RawNotation, RawNumbering};
use crate::variant::{Kind, NamedMove, Notation, NotationStyle, Numbering, RecordName};

/// The notation, unset fields taken from the default.
pub(super) fn notation(
    raw: Option<RawNotation>,
    board: &Board,
    kinds: &[Kind],
    players: &[String],
    cx: &mut Ctx,
) -> Notation {
    let options: Vec<String> = cx.options.iter().map(|o| o.name.clone()).collect();
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
    let numbering = n
        .numbering
        .as_ref()
        .and_then(|r| numbering(r, board, players, cx));
    let records = records(&n, &options, cx);
    Notation {
        numbering,
        records,
        style,
        capture_mark: n.capture_mark.unwrap_or(capture_default),
        check: n.check.unwrap_or(d.check),
        mate: n.mate.unwrap_or(d.mate),
        promotion_mark: n.promotion_mark.unwrap_or(d.promotion_mark),
        named_moves,
    }
}

/// `notation.numbering`: a cell whose colour is numbered, and a player.
fn numbering(
    r: &RawNumbering,
    board: &Board,
    players: &[String],
    cx: &mut Ctx,
) -> Option<Numbering> {
    let Some(cell) = board.parse_cell(&r.colour_of) else {
        cx.err_top(format!(
            "`notation.numbering.colour_of: {}` is not a cell of the board",
            r.colour_of
        ));
        return None;
    };
    let Some(p) = players.iter().position(|p| *p == r.seen_by) else {
        cx.err_top(format!(
            "`notation.numbering.seen_by: {}` is not a player (players: {})",
            r.seen_by,
            players.join(", ")
        ));
        return None;
    };
    let (f, k) = board.coords(cell);
    Some(Numbering {
        parity: ((f + k) % 2) as u8,
        seen_by: p as PlayerId,
    })
}

/// The record formats sandtable reads and writes.
pub const RECORD_FORMATS: [&str; 3] = ["pgn", "sgf", "pdn"];

/// `notation.records`: known formats, options that exist.
fn records(n: &RawNotation, options: &[String], cx: &mut Ctx) -> Vec<RecordName> {
    let mut out = Vec::new();
    for (format, r) in &n.records {
        if !RECORD_FORMATS.contains(&format.as_str()) {
            cx.err_top(format!(
                "`notation.records.{format}`: not a record format (formats: {})",
                RECORD_FORMATS.join(", ")
            ));
            continue;
        }
        for (tag, option) in &r.options {
            if !options.contains(option) {
                cx.err_top(format!(
                    "`notation.records.{format}.options.{tag}: {option}` names no option"
                ));
            }
        }
        out.push(RecordName {
            format: format.clone(),
            game: r.game.clone(),
            options: r
                .options
                .iter()
                .map(|(a, b)| (a.clone(), b.clone()))
                .collect(),
        });
    }
    out
}
