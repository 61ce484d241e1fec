//! Checking `actions:` and `turn:`: each declared action's parameters
//! (sources, filters), text, cost and turn budget, with errors at the
//! offending value's line and column.
//!
//! Changes when the vocabulary of declared actions grows.

use super::Ctx;
use crate::base::geometry::Board;
use crate::base::limits::MAX_AMOUNT;
use crate::variant::actions::{
    parse_template, ActionChoose, ActionDecl, Does, Filter, ParamDecl, TextPart,
};
use crate::variant::raw::{
    Param, RawAction, RawActionChoose, RawActionParam, RawDoes, RawPerformIf, RawVariant,
};
use crate::variant::{Kind, Value};

fn as_bool(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        _ => None,
    }
}

/// The declared actions, in the order written (at most 64).
pub(super) fn actions(
    raw: &RawVariant,
    board: &Board,
    kinds: &[Kind],
    players: &[String],
    cx: &mut Ctx,
) -> Vec<ActionDecl> {
    let Some(list) = &raw.actions else {
        return Vec::new();
    };
    cx.from("actions");
    if list.len() > 64 {
        cx.err_top("a variant declares at most 64 actions");
        return Vec::new();
    }
    let queries: Vec<String> = raw.queries.keys().cloned().collect();
    // The texts of actions without parameters, with the action naming each.
    let mut fixed: Vec<(String, &str)> = Vec::new();
    list.iter()
        .filter_map(|(name, a)| {
            let decl = enabled(&a.value, a.referenced, cx).then(|| {
                action(
                    name,
                    &a.value,
                    a.referenced,
                    (board, kinds, players),
                    &queries,
                    cx,
                )
            })??;
            if let [TextPart::Lit(t)] = decl.text.as_slice() {
                let at = a.value.text.as_ref().map_or(a.referenced, |t| t.referenced);
                match fixed.iter().find(|f| f.0 == *t) {
                    Some((_, other)) => cx.err_at(
                        at,
                        format!(
                            "actions.{name}: `{t}` is the same text as `{other}`'s; \
                             a record could not tell them apart"
                        ),
                    ),
                    None => fixed.push((t.clone(), name.as_str())),
                }
            }
            Some(decl)
        })
        .collect()
}

/// The most bytes of an action's text.
const TEXT_MAX: usize = 200;

/// Why an action's name or text could be read as another action, if it
/// could: a reserved word, a cell or a move.
fn collides(text: &str, board: &Board) -> Option<&'static str> {
    let t = text.trim();
    if matches!(t, "pass" | "offer-draw" | "accept-draw") || t.starts_with('#') {
        return Some("is a reserved action word (pass, offer-draw, accept-draw, #N)");
    }
    if board.parse_cell(t).is_some() {
        return Some("reads as a cell");
    }
    let cells = |l: &str, r: &str| board.parse_cell(l).is_some() && board.parse_cell(r).is_some();
    let split = t.split_once(['-', 'x', 'X', ':']);
    let joined = t
        .char_indices()
        .skip(1)
        .find(|(_, c)| c.is_ascii_alphabetic())
        .map(|(i, _)| (&t[..i], &t[i..]));
    if split.is_some_and(|(l, r)| cells(l, r)) || joined.is_some_and(|(l, r)| cells(l, r)) {
        return Some("reads as a move (FROM-TO)");
    }
    None
}

/// An action's `enabled` (a boolean or a boolean option; true if absent).
fn enabled(a: &RawAction, at: serde_saphyr::Location, cx: &mut Ctx) -> bool {
    cx.enabled(a.enabled.as_ref(), at)
}

/// The board and the piece kinds, which sources and conditions name.
use super::conditions::{filter, source, Names};

fn action(
    name: &str,
    a: &RawAction,
    at: serde_saphyr::Location,
    board: Names,
    queries: &[String],
    cx: &mut Ctx,
) -> Option<ActionDecl> {
    let names: Vec<String> = a.params.keys().cloned().collect();
    if names.len() > 2 {
        cx.err_at(at, format!("actions.{name}: at most 2 parameters"));
        return None;
    }
    if a.moves == Some(true) && names.len() != 2 {
        cx.err_at(
            at,
            format!("actions.{name}: `moves` needs two parameters (from, to)"),
        );
        return None;
    }
    if a.places == Some(true) && (names.len() != 1 || a.needs.is_none()) {
        cx.err_at(
            at,
            format!(
                "actions.{name}: `places` needs one parameter (the cell) and `needs: CONTAINER` (where the piece comes from)"
            ),
        );
        return None;
    }
    let choose = match &a.choose {
        Some(c) => Some(choose(name, &c.value, c.referenced, queries, cx)?),
        None => None,
    };
    let mut does = Vec::new();
    for d in &a.does {
        does.push(does_item(
            name,
            &d.value,
            d.referenced,
            &names,
            (board.0, board.2),
            cx,
        )?);
    }
    let mut params = Vec::new();
    for (i, (pname, p)) in a.params.iter().enumerate() {
        params.push(param(pname, &p.value, &names[..i], board, cx)?);
    }
    let text = action_text(name, a, &names, at, board.0, cx)?;
    check_cost(name, a, at, cx);
    let closes = match &a.closes {
        Some(Param::Opt(t)) if t.starts_with("!$") => !cx.resolve(
            &Param::Opt(t[1..].to_string()),
            at,
            as_bool,
            "true or false",
        )?,
        Some(p) => cx.resolve(p, at, as_bool, "true or false")?,
        None => false,
    };
    let perform_if = match &a.perform_if {
        Some(w) => Some(perform_if(
            name,
            &w.value,
            &names,
            a.perform.is_some(),
            board,
            cx,
        )?),
        None => None,
    };
    Some(ActionDecl {
        name: name.to_string(),
        text,
        params,
        cost: a.cost.as_ref().map(|c| (c.counter.clone(), c.amount)),
        needs: a.needs.as_ref().map(|n| n.value.clone()),
        counts: a.counts.unwrap_or(true) && !a.ends_turn.unwrap_or(false),
        once: a.once.unwrap_or(false),
        closes,
        ends_turn: a.ends_turn.unwrap_or(false),
        moves: a.moves.unwrap_or(false),
        places: a.places.unwrap_or(false),
        does,
        choose,
        perform: a.perform.as_ref().map(|p| p.value.clone()),
        legal: a.legal.as_ref().map(|p| p.value.clone()),
        perform_if,
        at: (cx.files[cx.file].clone(), at.line(), at.column()),
    })
}

/// One item of an action's `does:`: exactly one effect, on one of the
/// action's parameters, with the keys that effect takes and no others.
fn does_item(
    name: &str,
    d: &RawDoes,
    at: serde_saphyr::Location,
    names: &[String],
    wh: super::sow::Where,
    cx: &mut Ctx,
) -> Option<Does> {
    let given = [
        d.flip.is_some(),
        d.capture.is_some(),
        d.send.is_some(),
        d.add.is_some(),
        d.sow.is_some(),
    ];
    let fail = |cx: &mut Ctx, what: String| {
        cx.err_at(at, format!("actions.{name}.does: {what}"));
        None
    };
    if given.iter().filter(|&&g| g).count() != 1 {
        return fail(
            cx,
            "each item is exactly one of `flip: PARAM`, `capture: PARAM`, \
             `send: PARAM, to: CONTAINER`, `add: N, counter: NAME, at: PARAM` \
             or `sow: PARAM, counter: NAME, circuit: ZONE`"
                .into(),
        );
    }
    let param = |cx: &mut Ctx, p: &str| match names.iter().position(|n| n == p) {
        Some(i) => Some(i),
        None => {
            let known = names.join(", ");
            cx.err_at(
                at,
                format!(
                    "actions.{name}.does: `{p}` is not one of the action's parameters ({known})"
                ),
            );
            None
        }
    };
    if d.send.is_none() && d.to.is_some() {
        return fail(cx, "`to` goes with `send` only".into());
    }
    if d.add.is_none() && d.at.is_some() {
        return fail(cx, "`at` goes with `add` only".into());
    }
    // The keys of `sow` alone first: an item with them is a misspelt sowing.
    if d.sow.is_none() && super::sow::has_sow_keys(d) {
        return fail(
            cx,
            "`circuit`, `skip_origin`, `again`, `store`, `score`, `opposite`, `take`, \
             `back`, `within` and `not_all` go with `sow` only"
                .into(),
        );
    }
    if d.add.is_none() && d.sow.is_none() && d.counter.is_some() {
        return fail(cx, "`counter` goes with `add` or `sow` only".into());
    }
    if let Some(p) = &d.sow {
        let from = param(cx, p)?;
        let mut why = None;
        let sow = super::sow::sow(d, from, wh, &mut |m| {
            why.get_or_insert(m);
        });
        return match (sow, why) {
            (Some(x), None) => Some(Does::Sow(Box::new(x))),
            (_, w) => fail(cx, w.unwrap_or_default()),
        };
    }
    if let Some(p) = &d.flip {
        return Some(Does::Flip(param(cx, p)?));
    }
    if let Some(p) = &d.capture {
        return Some(Does::Capture(param(cx, p)?));
    }
    if let Some(p) = &d.send {
        let Some(to) = &d.to else {
            return fail(
                cx,
                "`send` needs `to: CONTAINER` (the mover's container)".into(),
            );
        };
        return Some(Does::Send(param(cx, p)?, to.clone()));
    }
    let (Some(n), Some(counter), Some(p)) = (d.add, &d.counter, &d.at) else {
        return fail(cx, "`add` needs `counter: NAME` and `at: PARAM`".into());
    };
    if !(-MAX_AMOUNT..=MAX_AMOUNT).contains(&n) {
        // Added once an action, a larger amount could carry the counter
        // past what an `i64` holds, where it would silently saturate.
        return fail(
            cx,
            format!("`add: {n}`: expected -{MAX_AMOUNT} to {MAX_AMOUNT} (the most a declared amount may be)"),
        );
    }
    Some(Does::Add(param(cx, p)?, counter.clone(), n))
}

/// An action's text, from its `text` or its name and parameters: short,
/// and not to be read as another action (see [`collides`]).
fn action_text(
    name: &str,
    a: &RawAction,
    names: &[String],
    at: serde_saphyr::Location,
    board: &Board,
    cx: &mut Ctx,
) -> Option<Vec<TextPart>> {
    let default_text = std::iter::once(name.to_string())
        .chain(names.iter().map(|n| format!("{{{n}}}")))
        .collect::<Vec<_>>()
        .join(" ");
    if let Some(why) = collides(name, board) {
        cx.err_at(
            at,
            format!("actions.{name}: the name {why}; a record could not tell them apart"),
        );
    }
    let (text_src, text_at) = match &a.text {
        Some(t) => (t.value.clone(), t.referenced),
        None => (default_text, at),
    };
    if text_src.len() > TEXT_MAX {
        cx.err_at(
            text_at,
            format!(
                "actions.{name}.text: at most {TEXT_MAX} bytes, got {}",
                text_src.len()
            ),
        );
        return None;
    }
    if a.text.is_some() && names.is_empty() {
        if let Some(why) = collides(&text_src, board) {
            cx.err_at(
                text_at,
                format!(
                    "actions.{name}.text: `{text_src}` {why}; a record could not tell them apart"
                ),
            );
        }
    }
    let text = match parse_template(&text_src, names) {
        Ok(t) => t,
        Err(e) => {
            cx.err_at(text_at, format!("actions.{name}.text: {e}"));
            return None;
        }
    };
    Some(text)
}

/// An action's `cost`: an amount of 0 to [`MAX_AMOUNT`].
fn check_cost(name: &str, a: &RawAction, at: serde_saphyr::Location, cx: &mut Ctx) {
    if let Some(c) = &a.cost {
        if c.amount < 0 {
            cx.err_at(
                at,
                format!(
                    "actions.{name}.cost: the amount is {}; a cost is at least 0",
                    c.amount
                ),
            );
        } else if c.amount > MAX_AMOUNT {
            cx.err_at(
                at,
                format!(
                    "actions.{name}.cost: the amount is {}; expected 0 to {MAX_AMOUNT}",
                    c.amount
                ),
            );
        }
    }
}

/// `choose`: the query must be declared (`queries:`).
fn choose(
    name: &str,
    c: &RawActionChoose,
    at: serde_saphyr::Location,
    queries: &[String],
    cx: &mut Ctx,
) -> Option<ActionChoose> {
    if !queries.contains(&c.query) {
        cx.err_at(
            at,
            format!(
                "actions.{name}.choose: `query: {}` names no query of `queries:` ({})",
                c.query,
                queries.join(", ")
            ),
        );
        return None;
    }
    Some(ActionChoose {
        query: c.query.clone(),
        question: c.question.clone(),
        handler: c.handler.clone(),
        public: c.public,
        only_with_pieces: c.only_with_pieces,
    })
}

/// `perform_if`: the parameter's index and the conditions, one of which
/// must hold on its cell for `perform` to be called.
fn perform_if(
    name: &str,
    w: &RawPerformIf,
    names: &[String],
    has_perform: bool,
    board: Names,
    cx: &mut Ctx,
) -> Option<(usize, Vec<Filter>)> {
    let Some(i) = names.iter().position(|n| *n == w.param.value) else {
        cx.err_at(
            w.param.referenced,
            format!(
                "actions.{name}.perform_if: `{}` is not a parameter of this action",
                w.param.value
            ),
        );
        return None;
    };
    if !has_perform {
        cx.err_at(
            w.param.referenced,
            format!("actions.{name}.perform_if: the action has no `perform`"),
        );
        return None;
    }
    let filters: Vec<Filter> = w.any.iter().filter_map(|f| filter(f, board, cx)).collect();
    (filters.len() == w.any.len()).then_some((i, filters))
}

/// The named queries (`queries:`): as parameters with no earlier ones.
/// A `needs:` container must be one that can exist: declared under
/// `containers:`, or named as a string by one of the variant's scripts
/// (which make per-player containers as the game goes:
/// `g:send(id, "supply", owner)`). A misspelt name is then refused at load
/// instead of leaving an action that can never be taken.
pub(super) fn needs_exist(
    raw: &RawVariant,
    scripts: &[(std::path::PathBuf, String)],
    cx: &mut Ctx,
) {
    let Some(list) = &raw.actions else { return };
    let declared: Vec<&str> = raw
        .containers
        .iter()
        .flat_map(|m| m.keys())
        .map(String::as_str)
        .collect();
    let texts: Vec<String> = scripts
        .iter()
        .filter_map(|(path, _)| std::fs::read_to_string(path).ok())
        .collect();
    let named = |c: &str| {
        texts
            .iter()
            .any(|t| t.contains(&format!("\"{c}\"")) || t.contains(&format!("'{c}'")))
    };
    cx.from("actions");
    for (name, a) in list {
        let sent = a.value.does.iter().filter_map(|d| {
            let to = d.value.to.as_deref().filter(|_| d.value.send.is_some())?;
            Some((to, d.referenced, "sends to"))
        });
        let needs = a
            .value
            .needs
            .iter()
            .map(|n| (n.value.as_str(), n.referenced, "needs"));
        for (c, at, how) in needs.chain(sent) {
            if declared.contains(&c) || named(c) {
                continue;
            }
            let hint = crate::base::suggest::closest(c, declared.iter().copied())
                .map(|d| format!(" (did you mean `{d}`?)"))
                .unwrap_or_default();
            cx.err_at(
                at,
                format!(
                    "actions.{name}: {how} `{}`, which names no container: none is declared under `containers:` and no script names it{hint}",
                    crate::base::limits::escape_controls(c)
                ),
            );
        }
    }
}

pub(super) fn queries(
    raw: &RawVariant,
    board: &Board,
    kinds: &[Kind],
    players: &[String],
    cx: &mut Ctx,
) -> Vec<ParamDecl> {
    cx.from("queries");
    raw.queries
        .iter()
        .filter_map(|(name, q)| param(name, &q.value, &[], (board, kinds, players), cx))
        .collect()
}

/// Reads one parameter (or query): its source, conditions, fallback and
/// preferences.
fn param(
    name: &str,
    p: &RawActionParam,
    earlier: &[String],
    board: Names,
    cx: &mut Ctx,
) -> Option<ParamDecl> {
    let src = source(&p.from, earlier, (board.0, board.2), cx);
    let fallback = p
        .fallback
        .as_ref()
        .and_then(|f| source(f, earlier, (board.0, board.2), cx));
    let filters = p
        .filters
        .iter()
        .filter_map(|f| filter(f, board, cx))
        .collect();
    let prefer = p
        .prefer
        .iter()
        .filter_map(|f| filter(f, board, cx))
        .collect();
    Some(ParamDecl {
        name: name.to_string(),
        source: src?,
        filters,
        fallback,
        prefer,
    })
}
