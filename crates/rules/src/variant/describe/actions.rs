//! The declared actions (their cells, costs, how they count), the reaction
//! windows, the containers of items, the tokens and the named queries.
//!
//! Changes when the vocabulary of declared actions, windows or containers
//! grows, or its wording changes.

use super::text::{cells, join, kinds, player};
use super::Ctx;
use crate::variant::actions::{
    ActionDecl, Does, Filter, ParamDecl, PerPlayer, Source, Sow, Store, TextPart,
};
use crate::variant::flow::{Order, Sees, Who};

/// Where a parameter's cells come from.
fn source(cx: &Ctx, s: &Source, params: &[ParamDecl]) -> String {
    let b = &cx.v.board;
    let name = |i: &usize| params.get(*i).map_or("?", |p| p.name.as_str()).to_string();
    match s {
        Source::OwnPieces => "a cell of one of the player's pieces".into(),
        Source::NextTo(i) => format!("a cell orthogonally next to `{}`", name(i)),
        Source::NearOwn => "a cell orthogonally next to one of the player's pieces".into(),
        Source::Cells => "any cell".into(),
        Source::Zone(z) => format!("a cell of {}", cells(b, z)),
        Source::OwnZone(zs) => {
            let each: Vec<String> = zs.iter().map(|z| cells(b, z)).collect();
            format!("a cell of the player's own zone ({})", each.join(" / "))
        }
        Source::FirstZone(zs) => {
            let each: Vec<String> = zs.iter().map(|z| format!("({})", cells(b, z))).collect();
            format!(
                "a cell of the first of these zones that has one: {}",
                join(&each, "then")
            )
        }
        Source::Flood { from, through } => format!(
            "a cell reached from `{}` through connected `{}` and out again",
            name(from),
            terrain(cx, *through)
        ),
        Source::Sight => {
            "the first piece seen along an orthogonal line from one of the player's pieces".into()
        }
    }
}

fn terrain(cx: &Ctx, bit: u32) -> String {
    let b = &cx.v.board;
    (0..b.terrain_names.len())
        .find(|i| 1u32 << i == bit)
        .map_or_else(|| "?".into(), |i| b.terrain_names[i].clone())
}

/// One condition on a cell.
fn filter(cx: &Ctx, f: &Filter) -> String {
    let not = |yes: bool| if yes { "" } else { "no " };
    match f {
        Filter::Empty => "empty".into(),
        Filter::Enemy => "holding an enemy piece".into(),
        Filter::Own => "holding one of the player's pieces".into(),
        Filter::NotOwn => "not holding one of the player's pieces".into(),
        Filter::Terrain(bit, yes) => format!("with {}`{}` terrain", not(*yes), terrain(cx, *bit)),
        Filter::Mark(m, val, yes) => {
            let val = val.as_ref().map(|x| format!("={x}")).unwrap_or_default();
            format!("with {}mark `{m}{val}`", not(*yes))
        }
        Filter::Attr(a, true) => format!("whose piece has `{a}`"),
        Filter::Attr(a, false) => format!("whose piece lacks `{a}`"),
        Filter::Counter(c, yes) => format!("with {}counter `{c}`", not(*yes)),
        Filter::Zone(z, _, true) => format!("in the player's zone `{z}`"),
        Filter::Zone(z, _, false) => format!("outside the player's zone `{z}`"),
        Filter::Kind(k, yes) => format!(
            "whose piece is {}a {}",
            if *yes { "" } else { "not " },
            kinds(cx.v, k, "or")
        ),
        Filter::Frozen(yes) => format!(
            "whose piece {} move now (frozen)",
            if *yes { "cannot" } else { "can" }
        ),
        Filter::Not(inner) => match **inner {
            Filter::Empty => "holding a piece".into(),
            _ => format!("not {}", filter(cx, inner)),
        },
    }
}

/// A move's conditions on a cell (`where`, `through`), joined by "and"
/// (`with mark `tile=stone` and with no `water` terrain`).
pub fn cell_conditions(v: &crate::variant::Variant, fs: &[Filter]) -> String {
    let cx = Ctx {
        v,
        hooks: Vec::new(),
    };
    filters(&cx, fs, "and")
}

fn filters(cx: &Ctx, fs: &[Filter], joint: &str) -> String {
    let words: Vec<String> = fs.iter().map(|f| filter(cx, f)).collect();
    join(&words, joint)
}

/// A parameter or a query: where its cells come from, what they must be.
fn param(cx: &Ctx, p: &ParamDecl, params: &[ParamDecl]) -> String {
    let mut out = source(cx, &p.source, params);
    if !p.filters.is_empty() {
        out += &format!(", {}", filters(cx, &p.filters, "and"));
    }
    if let Some(f) = &p.fallback {
        out += &format!(" (when there is none: {})", source(cx, f, params));
    }
    if !p.prefer.is_empty() {
        out += &format!(
            "; those {} first, when there are any",
            filters(cx, &p.prefer, "and")
        );
    }
    out
}

/// How the action is written (`{from}-{to}`, else its name and cells).
fn written(a: &ActionDecl) -> String {
    let mut out = String::new();
    for part in &a.text {
        match part {
            TextPart::Lit(s) => out.push_str(s),
            TextPart::Param(i) => {
                out += &format!("{{{}}}", a.params.get(*i).map_or("?", |p| p.name.as_str()))
            }
        }
    }
    out
}

/// One action as a list item.
fn action(cx: &Ctx, a: &ActionDecl) -> String {
    let mut s: Vec<String> = Vec::new();
    for p in &a.params {
        s.push(format!("`{}` is {}", p.name, param(cx, p, &a.params)));
    }
    let mut out = format!("- **{}** (written `{}`)", a.name, written(a));
    if !s.is_empty() {
        out += &format!(": {}.", join(&s, "and"));
    } else {
        out.push('.');
    }
    let mut more: Vec<String> = Vec::new();
    let param = |i: usize| a.params.get(i).map_or("?", |p| p.name.as_str());
    if a.moves {
        more.push(format!(
            "The piece on `{}` moves to `{}`.",
            param(0),
            param(1)
        ));
    }
    if let Some(c) = &a.needs {
        more.push(format!("It needs the player's `{c}` to hold something."));
        if a.places {
            more.push(format!("Its front piece is placed on `{}`.", param(0)));
        }
    }
    for d in &a.does {
        more.push(match d {
            Does::Flip(i) => format!("The piece on `{}` becomes the player's.", param(*i)),
            Does::Capture(i) => format!("The piece on `{}` is captured.", param(*i)),
            Does::Send(i, to) => {
                format!("The piece on `{}` goes to the player's `{to}`.", param(*i))
            }
            Does::Add(i, counter, n) => format!(
                "`{counter}` on `{}` {} {}.",
                param(*i),
                if *n < 0 { "loses" } else { "gains" },
                n.unsigned_abs()
            ),
            Does::Sow(w) => sow(cx, w, param(w.from)),
        });
    }
    if let Some((counter, n)) = &a.cost {
        more.push(format!("It costs {n} `{counter}`."));
    }
    more.push(
        if a.counts && cx.v.turn_actions.is_some() {
            "It counts against the turn's actions."
        } else if cx.v.turn_actions.is_some() {
            "It does not count against the turn's actions."
        } else {
            ""
        }
        .to_string(),
    );
    if a.once {
        more.push("At most once a turn.".into());
    }
    if a.closes {
        more.push("No counted action may follow it this turn.".into());
    }
    if let Some(c) = &a.choose {
        more.push(format!(
            "Then the player is asked \"{}\" (a cell of the query `{}`{}).",
            c.question,
            c.query,
            if c.public { ", answered in public" } else { "" }
        ));
    }
    if a.ends_turn {
        more.push("It ends the turn.".into());
    }
    if let Some(p) = &a.perform {
        let when = match &a.perform_if {
            Some((i, fs)) => format!(
                ", only when `{}` is a cell {}",
                a.params.get(*i).map_or("?", |p| p.name.as_str()),
                filters(cx, fs, "or")
            ),
            None => String::new(),
        };
        more.push(format!(
            "The script's `rules.{p}` then does the rest{when}."
        ));
    }
    if let Some(l) = &a.legal {
        more.push(format!("The script's `rules.{l}` may refuse it."));
    }
    let more = more
        .into_iter()
        .filter(|m| !m.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    if !more.is_empty() {
        out += &format!(" {more}");
    }
    out + "\n"
}

/// A zone read per player: the same cells for all, else each player's.
fn per_player(
    cx: &Ctx,
    z: &PerPlayer,
    show: &dyn Fn(&[crate::base::geometry::Cell]) -> String,
) -> String {
    if z.windows(2).all(|w| w[0] == w[1]) {
        return z.first().map_or_else(|| "no cells".into(), |c| show(c));
    }
    let each: Vec<String> = z
        .iter()
        .enumerate()
        .map(|(p, c)| format!("{} {}", player(cx.v, p), show(c)))
        .collect();
    each.join("; ")
}

/// A sowing (`does: - sow:`) in sentences.
fn sow(cx: &Ctx, w: &Sow, from: &str) -> String {
    let b = &cx.v.board;
    let area = |z: &PerPlayer| per_player(cx, z, &|c| cells(b, c));
    let order = |c: &[crate::base::geometry::Cell]| {
        let names: Vec<String> = c.iter().map(|&x| b.cell_name(x)).collect();
        names.join(" → ")
    };
    let mut out = format!(
        "The `{}` on `{from}` are lifted and sown one on each cell that follows it along the player's circuit ({}){}.",
        w.counter,
        per_player(cx, &w.circuit, &order),
        if w.skip_origin { ", passing over the cell sown from" } else { "" }
    );
    let store = match &w.store {
        Some(Store::Cell(z)) => {
            let first: Vec<Vec<_>> = z
                .iter()
                .map(|c| c.iter().take(1).copied().collect())
                .collect();
            format!("the player's store ({})", area(&first))
        }
        Some(Store::Counter(n)) => format!("the player's `{n}` counter"),
        None => "nowhere".into(),
    };
    if let Some(z) = &w.opposite {
        out += &format!(
            " When the last lands in an empty cell of the player's among {}, it and the `{}` across the board (same file) go to {store}, if there are some.",
            area(z),
            w.counter
        );
    }
    if let Some(t) = &w.take {
        let counts: Vec<String> = t.counts.iter().map(|n| n.to_string()).collect();
        out += &format!(
            " When the last lands in another player's cell of {} that then holds {}, those are taken{}{} into {store}.",
            area(&t.within),
            join(&counts, "or"),
            if t.back { ", and so are the cells before it while they hold such counts" } else { "" },
            if t.not_all { " (nothing is taken when that would take all the other side's)" } else { "" }
        );
    }
    if let Some(z) = &w.again {
        out += &format!(
            " When the last lands on one of the player's cells of {}, the player plays again.",
            area(z)
        );
    }
    out
}

/// The actions section.
pub(super) fn section(cx: &Ctx) -> String {
    let v = cx.v;
    if v.actions.is_empty() {
        return String::new();
    }
    let mut out = String::from("## Actions\n\n");
    if v.kinds.iter().all(|k| !k.is_mobile()) {
        out += "Pieces have no declared moves; a turn is made of these actions:\n\n";
    } else {
        out += "Besides the pieces' moves, these actions are declared:\n\n";
    }
    for a in &v.actions {
        out += &action(cx, a);
    }
    out
}

/// The reaction windows.
pub(super) fn reactions(cx: &Ctx) -> String {
    let v = cx.v;
    if v.reactions.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "## Reactions\n\nOut of turn, a window may open in which other players may react:\n\n",
    );
    let name = |i: &u8| {
        v.actions
            .get(*i as usize)
            .map_or("?".into(), |a| format!("`{}`", a.name))
    };
    for r in &v.reactions {
        let opens = if r.after.is_empty() {
            "opened by the script".to_string()
        } else {
            let a: Vec<String> = r.after.iter().map(name).collect();
            format!("opens after {}", join(&a, "or"))
        };
        let acts: Vec<String> = r.actions.iter().map(name).collect();
        let only = if r.only_able {
            format!(" who could take {}", join(&acts, "or"))
        } else {
            String::new()
        };
        let who = match r.who {
            Who::Others => format!("it asks every player{only}, but the one whose turn it is"),
            Who::All if r.mover_first => {
                format!("it asks, in turn order from the player to move, every player{only}")
            }
            Who::All => format!("it asks every player{only}, the player to move last"),
        };
        let after = if r.keep_asking {
            "after a reaction the others are still asked"
        } else {
            "a reaction closes it"
        };
        let pass = r
            .on_pass
            .as_ref()
            .map(|p| format!("; when all have passed, the script's `rules.{p}` runs"))
            .unwrap_or_default();
        out += &format!(
            "- **{}**: {opens}; {who}; each may take {} or pass; {after}{pass}.\n",
            r.name,
            join(&acts, "or")
        );
    }
    out
}

/// Containers, tokens and named queries.
pub(super) fn items(cx: &Ctx) -> String {
    let v = cx.v;
    if v.containers.is_empty() && v.tokens.is_empty() && v.queries.is_empty() {
        return String::new();
    }
    let mut out = String::from("## Items and queries\n\n");
    for c in &v.containers {
        let whose = if c.per_player {
            "one per player"
        } else {
            "shared"
        };
        let order = match c.order {
            Order::Bag => "a bag (a draw takes a random item)",
            Order::Stack => "a stack (shuffled when filled; a draw takes the top)",
            Order::Queue => "a queue (a draw takes the front)",
        };
        let sees = |s: Sees| match s {
            Sees::Nobody => "nobody",
            Sees::Owner => "its owner",
            Sees::All => "everyone",
        };
        let items: Vec<String> = c.items.iter().map(|(f, n)| format!("{f} ×{n}")).collect();
        let start = if items.is_empty() {
            "it starts empty".to_string()
        } else {
            format!("it starts with {}", items.join(", "))
        };
        out += &format!(
            "- Container `{}`: {whose}, {order}; {} sees what is put in, {} sees how many it holds; {start}.\n",
            c.name,
            sees(c.contents),
            sees(c.count)
        );
    }
    if !v.tokens.is_empty() {
        let names: Vec<String> = v.tokens.iter().map(|t| format!("`{}`", t.name)).collect();
        out += &format!(
            "- Tokens (what lies on cells, for the script): {}.\n",
            names.join(", ")
        );
    }
    for q in &v.queries {
        out += &format!(
            "- Query `{}` (the script asks for it): {}.\n",
            q.name,
            param(cx, q, &[])
        );
    }
    out
}
