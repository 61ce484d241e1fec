//! Checking the declared turn flow: `turn.first`, `phases:`, `reactions:`
//! and `containers:`, with errors at the offending value's line and column.
//!
//! Changes when the vocabulary of declared turn flow grows.

use serde_saphyr::Spanned;

use super::Ctx;
use crate::base::state::PlayerId;
use crate::variant::actions::ActionDecl;
use crate::variant::flow::{ContainerDecl, First, Order, Phase, ReactionDecl, Sees, Who};
use crate::variant::raw::{Param, RawContainer, RawItems, RawReaction, RawVariant};
use crate::variant::Value;

/// The number of the declared action named by `s`, or an error there.
fn action_ref(s: &Spanned<String>, actions: &[ActionDecl], what: &str, cx: &mut Ctx) -> Option<u8> {
    match actions.iter().position(|a| a.name == s.value) {
        Some(i) => Some(i as u8),
        None => {
            let known: Vec<&str> = actions.iter().map(|a| a.name.as_str()).collect();
            cx.err_at(
                s.referenced,
                format!(
                    "{what}: `{}` is not a declared action (actions: {})",
                    s.value,
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                ),
            );
            None
        }
    }
}

/// The numbers of the declared actions a list names, each once (a second
/// mention is an error there).
fn action_refs(
    list: &[Spanned<String>],
    actions: &[ActionDecl],
    what: &str,
    cx: &mut Ctx,
) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, a) in list.iter().enumerate() {
        if list[..i].iter().any(|b| b.value == a.value) {
            cx.err_at(a.referenced, format!("{what}: `{}` twice", a.value));
            continue;
        }
        out.extend(action_ref(a, actions, what, cx));
    }
    out
}

/// One of `words`, or an error listing them.
fn word<T: Copy>(s: &Spanned<String>, words: &[(&str, T)], what: &str, cx: &mut Ctx) -> Option<T> {
    match words.iter().find(|w| w.0 == s.value) {
        Some(w) => Some(w.1),
        None => {
            let list: Vec<&str> = words.iter().map(|w| w.0).collect();
            cx.err_at(
                s.referenced,
                format!("{what}: `{}` is not one of {}", s.value, list.join(", ")),
            );
            None
        }
    }
}

/// `turn.first`: a player, `random`, or `$option` holding one of them.
pub(super) fn first(raw: &RawVariant, players: &[String], cx: &mut Ctx) -> First {
    let Some(f) = raw.turn.as_ref().and_then(|t| t.first.as_ref()) else {
        return First::Seat(0);
    };
    cx.from("turn");
    let text = if f.value.starts_with('$') {
        let pick = |v: &Value| match v {
            Value::Str(s) => Some(s.clone()),
            _ => None,
        };
        match cx.resolve(
            &Param::Opt(f.value.clone()),
            f.referenced,
            pick,
            "a player or random",
        ) {
            Some(t) => t,
            None => return First::Seat(0),
        }
    } else {
        f.value.clone()
    };
    if text == "random" {
        return First::Random;
    }
    match players.iter().position(|p| *p == text) {
        Some(i) => First::Seat(i as PlayerId),
        None => {
            cx.err_at(
                f.referenced,
                format!(
                    "turn.first: `{text}` is not a player (players: {}; or random)",
                    players.join(", ")
                ),
            );
            First::Seat(0)
        }
    }
}

/// `phases:` in order.
pub(super) fn phases(raw: &RawVariant, actions: &[ActionDecl], cx: &mut Ctx) -> Vec<Phase> {
    let Some(Spanned {
        value: list,
        referenced,
        ..
    }) = &raw.phases
    else {
        return Vec::new();
    };
    cx.from("phases");
    if list.is_empty() {
        // Absent, the game is one phase; written, it names at least one.
        cx.err_at(
            *referenced,
            "phases: expected at least one phase (leave `phases:` out for a game of one phase)",
        );
        return Vec::new();
    }
    let mut out: Vec<Phase> = Vec::new();
    for p in list {
        let name = p.name.value.clone();
        if out.iter().any(|q| q.name == name) || list.len() > 16 {
            cx.err_at(
                p.name.referenced,
                format!("phases: `{name}` twice, or over 16 phases"),
            );
            continue;
        }
        let what = format!("phases.{name}.actions");
        let acts = p
            .actions
            .as_ref()
            .map(|l| action_refs(l, actions, &what, cx));
        let reverse = match &p.order {
            Some(o) => word(
                o,
                &[("clockwise", false), ("reverse", true)],
                &format!("phases.{name}.order"),
                cx,
            )
            .unwrap_or(false),
            None => false,
        };
        if p.rounds == Some(0) {
            cx.err_at(
                p.name.referenced,
                format!("phases.{name}.rounds: at least 1"),
            );
        }
        out.push(Phase {
            name,
            actions: acts,
            rounds: p.rounds,
            reverse,
        });
    }
    out
}

/// `reactions:` by name.
pub(super) fn reactions(
    raw: &RawVariant,
    actions: &[ActionDecl],
    cx: &mut Ctx,
) -> Vec<ReactionDecl> {
    let Some(list) = &raw.reactions else {
        return Vec::new();
    };
    cx.from("reactions");
    if list.len() > 32 {
        cx.err_top("a variant declares at most 32 reaction windows");
        return Vec::new();
    }
    after_reactions(list, cx);
    list.iter()
        .filter_map(|(name, r)| reaction(name, &r.value, r.referenced, actions, cx))
        .collect()
}

/// A window's `after:` names no reaction. A reaction is offered only in
/// its window, and a reaction opens no window, so a window declared after
/// one (its own, or another's: windows naming each other in a cycle)
/// would never open that way.
fn after_reactions(list: &indexmap::IndexMap<String, Spanned<RawReaction>>, cx: &mut Ctx) {
    for (name, r) in list {
        for a in &r.value.after {
            let Some((other, _)) = list
                .iter()
                .find(|(_, o)| o.value.actions.iter().any(|x| x.value == a.value))
            else {
                continue;
            };
            let whose = if other == name {
                "one of this window's own reactions".to_string()
            } else {
                format!("a reaction (reactions.{other}.actions)")
            };
            cx.err_at(
                a.referenced,
                format!(
                    "reactions.{name}.after: `{}` is {whose}; a reaction opens no window, \
                     so this window would never open after it (name an action of the turn)",
                    a.value
                ),
            );
        }
    }
}

fn reaction(
    name: &str,
    r: &RawReaction,
    at: serde_saphyr::Location,
    actions: &[ActionDecl],
    cx: &mut Ctx,
) -> Option<ReactionDecl> {
    let key = |k: &str| format!("reactions.{name}.{k}");
    let after = r
        .after
        .iter()
        .filter_map(|a| action_ref(a, actions, &key("after"), cx))
        .collect();
    let acts: Vec<u8> = action_refs(&r.actions, actions, &key("actions"), cx);
    if r.actions.is_empty() {
        cx.err_at(
            at,
            format!(
                "reactions.{name}: `actions` names the declared actions a player may react with"
            ),
        );
        return None;
    }
    for &k in &acts {
        let d = &actions[k as usize];
        if d.ends_turn || d.moves {
            cx.err_at(
                at,
                format!(
                    "{}: `{}` ends the turn or moves a piece; a reaction may do neither",
                    key("actions"),
                    d.name
                ),
            );
        }
    }
    let who = match &r.who {
        Some(w) => word(
            w,
            &[("others", Who::Others), ("all", Who::All)],
            &key("who"),
            cx,
        )?,
        None => Who::Others,
    };
    let mover_first = match &r.from {
        Some(w) => word(w, &[("next", false), ("mover", true)], &key("from"), cx)?,
        None => false,
    };
    if mover_first && who != Who::All {
        cx.err_at(
            at,
            format!(
                "{}: `from: mover` asks the mover first, so it needs `who: all`",
                key("from")
            ),
        );
        return None;
    }
    let only_able = match &r.ask {
        Some(w) => word(w, &[("able", true), ("everyone", false)], &key("ask"), cx)?,
        None => true,
    };
    let keep_asking = match &r.after_react {
        Some(w) => word(
            w,
            &[("close", false), ("next", true)],
            &key("after_react"),
            cx,
        )?,
        None => false,
    };
    Some(ReactionDecl {
        name: name.to_string(),
        after,
        who,
        mover_first,
        only_able,
        actions: acts,
        on_pass: r.on_pass.as_ref().map(|p| p.value.clone()),
        keep_asking,
        // Where a missing `on_pass` function is reported.
        at: {
            let at = r.on_pass.as_ref().map_or(at, |p| p.referenced);
            (cx.files[cx.file].clone(), at.line(), at.column())
        },
    })
}

/// Containers a variant may declare (the sandbox's limit on a game's
/// containers, `lua-api.md` "Limits").
const CONTAINERS_MAX: usize = 256;

/// `containers:` by name.
pub(super) fn containers(raw: &RawVariant, cx: &mut Ctx) -> Vec<ContainerDecl> {
    let Some(list) = &raw.containers else {
        return Vec::new();
    };
    cx.from("containers");
    if let Some((name, c)) = list.get_index(CONTAINERS_MAX) {
        cx.err_at(
            c.referenced,
            format!(
                "containers.{name}: a variant declares at most {CONTAINERS_MAX} containers, found {}",
                list.len()
            ),
        );
        return Vec::new();
    }
    list.iter()
        .filter_map(|(name, c)| container(name, &c.value, c.referenced, cx))
        .collect()
}

fn container(
    name: &str,
    c: &RawContainer,
    at: serde_saphyr::Location,
    cx: &mut Ctx,
) -> Option<ContainerDecl> {
    let key = |k: &str| format!("containers.{name}.{k}");
    let sees = [
        ("nobody", Sees::Nobody),
        ("owner", Sees::Owner),
        ("all", Sees::All),
    ];
    let order = match &c.order {
        Some(o) => word(
            o,
            &[
                ("bag", Order::Bag),
                ("stack", Order::Stack),
                ("queue", Order::Queue),
            ],
            &key("order"),
            cx,
        )?,
        None => Order::Queue,
    };
    let contents = match &c.contents {
        Some(o) => word(o, &sees, &key("contents"), cx)?,
        None => Sees::Nobody,
    };
    let count = match &c.count {
        Some(o) => word(o, &sees, &key("count"), cx)?,
        None => Sees::All,
    };
    let per_player = c.per_player.unwrap_or(false);
    if !per_player && (contents == Sees::Owner || count == Sees::Owner) {
        cx.err_at(
            at,
            format!(
                "containers.{name}: a shared container has no owner to see it (per_player: true?)"
            ),
        );
        return None;
    }
    let mut items = Vec::new();
    let mut total = 0u64;
    for (face, n) in container_items(&c.items, &key("items"), at, cx)? {
        if face.is_empty() || face.len() > 64 || face.chars().any(char::is_control) {
            cx.err_at(
                at,
                format!("{}: `{face}` is not a short label", key("items")),
            );
            return None;
        }
        total += n as u64;
        items.push((face, n));
    }
    if total > 1000 {
        cx.err_at(
            at,
            format!("{}: at most 1000 items, found {total}", key("items")),
        );
        return None;
    }
    Some(ContainerDecl {
        name: name.to_string(),
        per_player,
        order,
        contents,
        count,
        items,
        at: (cx.files[cx.file].clone(), at.line(), at.column()),
    })
}

/// A container's `items` as (face, count) pairs: from the map (counts
/// resolved), or from the mix text of the option it names.
fn container_items(
    items: &RawItems,
    key: &str,
    at: serde_saphyr::Location,
    cx: &mut Ctx,
) -> Option<Vec<(String, u32)>> {
    let count = |v: &Value| match v {
        Value::Int(i) if (0..=1000).contains(i) => Some(*i as u32),
        _ => None,
    };
    match items {
        RawItems::Map(map) => map
            .iter()
            .map(|(face, n)| {
                let n = cx.resolve(n, at, count, "a count from 0 to 1000")?;
                Some((face.clone(), n))
            })
            .collect(),
        RawItems::Opt(name) => {
            let text = cx.resolve(
                &Param::<String>::Opt(name.clone()),
                at,
                |v| match v {
                    Value::Str(s) => Some(s.clone()),
                    _ => None,
                },
                "a text of `face:count` pairs",
            )?;
            match parse_mix(&text) {
                Ok(items) => Some(items),
                Err(e) => {
                    cx.err_at(at, format!("{key}: option {name} = `{text}`: {e}"));
                    None
                }
            }
        }
    }
}

/// A mix of items as an option writes it: `face:count` pairs separated by
/// commas (spaces around them ignored); a face alone counts one.
pub(super) fn parse_mix(text: &str) -> Result<Vec<(String, u32)>, String> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (face, n) = match part.split_once(':') {
            Some((f, n)) => {
                let n = n.trim().parse::<u32>().ok().filter(|n| *n <= 1000);
                (
                    f.trim(),
                    n.ok_or_else(|| format!("`{part}`: the count is not a number from 0 to 1000"))?,
                )
            }
            None => (part, 1),
        };
        out.push((face.to_string(), n));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_mix_reads_counts_and_lone_faces() {
        let mix = super::parse_mix(" gold1:2, rock ,gem2_x:0,").unwrap();
        let want = [("gold1", 2), ("rock", 1), ("gem2_x", 0)];
        assert_eq!(
            mix,
            want.map(|(f, n)| (f.to_string(), n)).to_vec(),
            "spaces and an empty last part are ignored"
        );
        assert!(super::parse_mix("gold1:two").is_err());
        assert!(super::parse_mix("gold1:1001").is_err());
    }
}
