//! The pieces section: each kind, how it moves (from its move
//! declarations), what happens when it moves onto an enemy, its promotion,
//! its freeze, whether it is royal; then the moves of two pieces at once
//! and the passing capture, and what a capture blasts.
//!
//! Changes when a kind gains a declared property, or its wording changes.

use super::moves::{self, sentence};
use super::text::{self, cells, kind, kinds, player};
use super::Ctx;
use crate::variant::{Kind, Value};

/// Stands for the kind's name while kinds are compared (kinds that read
/// alike are described once).
const NAME: &str = "\u{1}";

/// The pieces section.
pub(super) fn section(cx: &Ctx) -> String {
    let v = cx.v;
    let mut out = String::from("## Pieces\n\n");
    out += &table(cx);
    out += &captures(cx);
    let mut groups: Vec<(Vec<String>, String)> = Vec::new();
    for &i in &v.show_order {
        let Some(k) = v.kinds.get(i) else { continue };
        let text = one_kind(cx, k);
        match groups.iter_mut().find(|(_, t)| *t == text) {
            Some((names, _)) => names.push(k.display.clone()),
            None => groups.push((vec![k.display.clone()], text)),
        }
    }
    for (names, text) in groups {
        let text = match names.as_slice() {
            [one] => text.replace(NAME, one),
            _ => text
                .replace(&format!("The {NAME}"), "Each of these")
                .replace(&format!("the {NAME}"), "the piece")
                .replace(&format!("A {NAME}"), "A piece")
                .replace(&format!("a new {NAME}"), "a new piece")
                .replace(NAME, "piece")
                .replace("Each of these never moves.", "These pieces never move."),
        };
        out += &format!("\n### {}\n\n{text}\n", text::join(&names, "and"));
    }
    out += &joint_moves(cx);
    out += &passing(cx);
    out += &blast(cx);
    out
}

/// What happens when a piece moves onto an enemy piece, said once.
fn captures(cx: &Ctx) -> String {
    let v = cx.v;
    let onto_enemy = v
        .kinds
        .iter()
        .any(|k| k.moves.iter().any(|m| m.target().enemy));
    let mut out = String::new();
    if onto_enemy {
        out += &if cx.has_hook("strike") {
            "\nA piece that moves onto an enemy piece strikes it: the script decides who wins (`rules.strike`: the striker, the defender, both removed, or neither).".to_string()
        } else if let Some(t) = &v.strike {
            strike_table(cx, t)
        } else {
            "\nA piece that moves onto an enemy piece captures it by replacement: the enemy piece is removed and the mover takes its square.".to_string()
        };
        if v.hands.as_ref().is_some_and(|h| h.captures) {
            out += " A captured piece changes side and goes to its captor's hand, from which a later move may drop it.";
        }
        if v.strike_reveals && !out.ends_with('\n') {
            out += " Both pieces are first shown to every player.";
        }
        if !out.ends_with('\n') {
            out.push('\n');
        }
    }
    if cx.has_hook("captures") {
        out += "\nA move may also capture other pieces, in the ways the script says (`rules.captures`).\n";
    }
    out
}

/// The declared strike (`strike:`), a line for each of its lines.
fn strike_table(cx: &Ctx, t: &crate::variant::strike::StrikeTable) -> String {
    use crate::base::effect::Strike;
    use crate::variant::strike::RankTest;
    let v = cx.v;
    let shown = if v.strike_reveals {
        " Both pieces are first shown to every player, then the first of these that fits decides"
    } else {
        " The first of these that fits decides"
    };
    let mut out = format!("\nA piece that moves onto an enemy piece strikes it.{shown}:\n\n");
    let has = |h: &Option<crate::variant::strike::HasAttr>| {
        h.as_ref()
            .map_or(String::new(), |h| format!(" that has `{}`", h.name))
    };
    let mut otherwise = true;
    for l in &t.lines {
        let who = |ks: &Option<Vec<crate::base::state::KindId>>| {
            ks.as_ref()
                .map_or("piece".to_string(), |k| kinds(v, k, "or"))
        };
        let rank = match l.rank {
            None => "",
            Some(RankTest::Higher) => " of higher rank",
            Some(RankTest::Lower) => " of lower rank",
            Some(RankTest::Equal) => " of equal rank",
            Some(RankTest::NotLower) => " of equal or higher rank",
            Some(RankTest::NotHigher) => " of equal or lower rank",
        };
        let result = match l.result {
            Strike::AttackerWins => {
                "the striker wins (the struck piece is removed and the striker takes its square)"
            }
            Strike::DefenderWins => "the struck piece wins (the striker is removed)",
            Strike::BothRemoved => "both are removed",
            Strike::NoEffect => "nothing happens",
        };
        let plain = l.attacker.is_none()
            && l.defender.is_none()
            && l.attacker_has.is_none()
            && l.defender_has.is_none()
            && l.rank.is_none();
        if plain {
            out += &format!("- Otherwise {result}.\n");
            otherwise = false;
            break;
        }
        out += &format!(
            "- When a {}{}{rank} strikes a {}{}: {result}.\n",
            who(&l.attacker),
            has(&l.attacker_has),
            who(&l.defender),
            has(&l.defender_has)
        );
    }
    if otherwise {
        out += "- Otherwise the striker wins.\n";
    }
    out
}

/// The army at a glance: symbol, letters, rank, how many.
fn table(cx: &Ctx) -> String {
    let v = cx.v;
    let ranks = v.kinds.iter().any(|k| k.rank != 0);
    // Armies come from the start position: a column per player.
    let start = v
        .start
        .as_deref()
        .filter(|_| v.setup_zones.iter().all(|z| z.is_empty()))
        .and_then(|s| super::board::start_pieces(cx, s));
    let columns: Vec<String> = match &start {
        Some(_) => (0..v.players.len().min(2)).map(|p| player(v, p)).collect(),
        None => vec!["Per player".into()],
    };
    let mut out = String::from("| Piece | Symbol | Code |");
    out += if ranks { " Rank |" } else { "" };
    out += &format!(" {} |\n|---|---|---|", columns.join(" | "));
    out += if ranks { "---|" } else { "" };
    out += &"---|".repeat(columns.len());
    out.push('\n');
    for &i in &v.show_order {
        let Some(k) = v.kinds.get(i) else { continue };
        let letter = match (k.code, k.code_mark) {
            (None, _) => "–".into(),
            (Some(c), Some('+')) => format!("+{c}"),
            (Some(c), Some(m)) => format!("{c}{m}"),
            (Some(c), None) => c.to_string(),
        };
        out += &format!("| {} | `{}` | {letter} |", k.display, k.symbol);
        if ranks {
            out += &format!(" {} |", k.rank);
        }
        for p in 0..columns.len() {
            out += &format!(" {} |", army_count(cx, k, i, p, start.as_deref()));
        }
        out.push('\n');
    }
    let army: u32 = v.kinds.iter().map(|k| k.count).sum();
    let mut notes: Vec<String> = Vec::new();
    if v.kinds.iter().any(|k| k.code.is_some()) {
        notes.push("The code is the piece's letter in setups and positions.".into());
    }
    if ranks {
        notes.push("A piece's rank is for the rules to compare.".into());
    }
    if !v.setup_zones.iter().all(|z| z.is_empty()) {
        notes.push(format!("Each player's army is {army} pieces."));
    }
    if !notes.is_empty() {
        out += &format!("\n{}\n", notes.join(" "));
    }
    out
}

/// How many of kind `index` player `p` has: the army count when armies
/// are set up, else what placements and the start position give.
fn army_count(
    cx: &Ctx,
    k: &Kind,
    index: usize,
    p: usize,
    start: Option<&[(usize, usize, crate::base::geometry::Cell)]>,
) -> String {
    let placed = (k.forms.iter())
        .any(|f| matches!(f, crate::variant::forms::Form::Place(p) if !p.from_hand));
    if placed {
        "unlimited supply".into()
    } else if let Some(on) = start {
        on.iter()
            .filter(|x| x.0 == p && x.1 == index)
            .count()
            .to_string()
    } else if k.count == 0 && cx.has_hook("setup") {
        "made by the script".into()
    } else if k.count == 0 {
        "none at the start".into()
    } else {
        k.count.to_string()
    }
}

/// Everything about one kind, as a paragraph of sentences ([`NAME`] for
/// its name).
fn one_kind(cx: &Ctx, k: &Kind) -> String {
    let v = cx.v;
    let mut s: Vec<String> = Vec::new();
    let name = NAME;
    if !k.is_mobile() {
        s.push(if v.actions.iter().any(|a| a.moves) {
            format!("The {name} has no moves of its own; it moves by the actions below.")
        } else {
            format!("The {name} never moves.")
        });
    }
    for m in &k.moves {
        s.push(sentence(name, &moves::pattern(v, m)));
    }
    for f in &k.forms {
        s.push(moves::form(v, name, f));
    }
    if let Some(p) = &k.promote {
        let to = if p.to.len() == 1 {
            format!("becomes a {}", kind(v, p.to[0]))
        } else {
            format!(
                "becomes, as its player chooses, a {}",
                kinds(v, &p.to, "or")
            )
        };
        let moving = if p.leaving {
            "moves into, within or out of"
        } else {
            "reaches"
        };
        let keep = if p.optional {
            format!(
                ", or stays a {name} if its player prefers, unless it could never move again there"
            )
        } else {
            String::new()
        };
        s.push(format!(
            "A {name} that {moving} {} {to}{keep}.",
            text::zone(v, &p.zone)
        ));
    }
    if let Some(d) = k.demotes_to {
        s.push(format!(
            "A captured {name} goes to its captor's hand as a {}.",
            kind(v, d)
        ));
    }
    if let Some(c) = &k.custody {
        s.push(moves::custody(v, name, c));
    }
    for (bits, what) in [
        (k.barred, "may neither enter nor pass"),
        (k.no_stop, "may pass but not stop on"),
    ] {
        let tags: Vec<String> = (0..v.board.terrain_names.len())
            .filter(|i| bits & (1 << i) != 0)
            .map(|i| format!("`{}`", v.board.terrain_names[i]))
            .collect();
        if !tags.is_empty() {
            s.push(format!(
                "The {name} {what} {} cells.",
                text::join(&tags, "or")
            ));
        }
    }
    if let Some(f) = &k.freezes {
        s.push(freeze(cx, name, f));
    }
    if k.royal {
        s.push(format!("The {name} is royal: no action may leave it where the opponent could capture it, and a player who cannot act while it could be captured is checkmated and loses."));
    }
    if v.public_attrs
        .iter()
        .any(|a| k.attrs.iter().any(|(x, _)| x == a))
    {
        s.push("Some of its attributes are shown to every player.".into());
    }
    if !k.attrs.is_empty() {
        let attrs: Vec<String> = k
            .attrs
            .iter()
            .map(|(a, val)| match val {
                Value::Bool(true) => format!("`{a}`"),
                other => format!("`{a}` = {other}"),
            })
            .collect();
        s.push(format!(
            "It carries {} for the rules to read.",
            text::join(&attrs, "and")
        ));
    }
    s.join(" ")
}

fn freeze(cx: &Ctx, name: &str, f: &crate::variant::Freeze) -> String {
    let v = cx.v;
    let which = match &f.kinds {
        Some(k) => format!("an enemy {}", kinds(v, k, "or")),
        None => "any enemy piece".into(),
    };
    let mut out = format!(
        "It freezes {which} next to it {}: that piece cannot move",
        text::directions(&f.near, false)
    );
    if !f.unless_beside.is_empty() {
        out += &format!(
            ", unless another {} of the frozen piece's side also stands next to the {name}",
            kinds(v, &f.unless_beside, "or")
        );
    }
    out + "."
}

/// The moves of two pieces at once (`rules.bookkeeping.joint_moves`).
fn joint_moves(cx: &Ctx) -> String {
    let v = cx.v;
    let Some(j) = &v.joint_moves else {
        return String::new();
    };
    let b = &v.board;
    let mut out = format!("\n### Moves of two pieces at once\n\nEach is open while its right (a bit of the counter `{}`) is set; a move that starts or ends on either piece's starting square clears that right.\n\n", j.counter);
    for m in &j.moves {
        let named = v
            .notation
            .named(m.piece, m.from, m.to)
            .map(|n| format!(" (written `{}`)", n.name))
            .unwrap_or_default();
        let mut need = Vec::new();
        if !m.empty.is_empty() {
            need.push(format!("{} empty", cells(b, &m.empty)));
        }
        if !m.safe.is_empty() {
            need.push(format!(
                "the {} not capturable on {}",
                kind(v, m.piece),
                text::join(
                    &m.safe.iter().map(|&c| b.cell_name(c)).collect::<Vec<_>>(),
                    "or"
                )
            ));
        }
        out += &format!(
            "- {}: the {} {}→{} with the {} {}→{}{named}, right {}{}.\n",
            player(v, m.player as usize),
            kind(v, m.piece),
            b.cell_name(m.from),
            b.cell_name(m.to),
            kind(v, m.partner),
            b.cell_name(m.partner_from),
            b.cell_name(m.partner_to),
            m.right,
            if need.is_empty() {
                String::new()
            } else {
                format!("; needs {}", text::join(&need, "and"))
            }
        );
    }
    out
}

/// The capture of a piece that passed a square (`rules.bookkeeping.passing`).
fn passing(cx: &Ctx) -> String {
    let v = cx.v;
    let Some(p) = &v.passing else {
        return String::new();
    };
    let ks = kinds(v, &p.kinds, "or");
    let dir = p
        .step
        .first()
        .map(|&d| text::directions(&[d], false))
        .unwrap_or_default();
    let dir = if p.step.len() > 1 && p.step.get(1) == Some(&(p.step[0].0, -p.step[0].1)) {
        "straight forward".to_string()
    } else {
        dir
    };
    format!(
        "\n### Capturing a piece that passed\n\nA {ks} that moves two or more squares {dir} leaves the square it passed open for one ply: an enemy {ks} that could move onto that square, were the passer standing there, may move there and take the passer.\n"
    )
}

/// What a capture blasts besides its victim (`blast`).
fn blast(cx: &Ctx) -> String {
    let v = cx.v;
    let Some(b) = &v.blast else {
        return String::new();
    };
    let around = match b.radius {
        1 => "on the squares around the square of the capture".to_string(),
        r => format!("within {r} king steps of the square of the capture"),
    };
    let spared = if b.spared.is_empty() {
        String::new()
    } else {
        format!(" but a {}", kinds(v, &b.spared, "or"))
    };
    let royal = if v.kinds.iter().any(|k| k.royal) {
        " A move may not blast its own player's royal piece; one that blasts an enemy royal piece is legal even if it leaves its player's royal piece attacked. A royal piece is attacked only by a capture that would not blast the attacker's own royal piece (so royal pieces side by side attack neither), and a royal piece never captures."
    } else {
        ""
    };
    format!(
        "\n### Blasts\n\nEvery capture blasts: the capturing piece, the captured one and every piece{spared} {around} are removed (what the blast removes counts as captured).{royal}\n"
    )
}
