//! The rules summary's "Sight" section: what each player sees under fog of
//! war (`sight:`).

use super::Ctx;
use crate::variant::sight::KindSight;

pub(super) fn section(cx: &Ctx) -> String {
    let v = cx.v;
    let Some(s) = &v.sight else {
        return String::new();
    };
    let mut out = String::from(
        "## Sight\n\nFog of war: a player sees only the squares below; a square outside shows them nothing (no piece, no mark), and they are told of another player's action only what they see of it afterwards.\n\n",
    );
    // Kinds grouped by what they see, in the declared order.
    let mut groups: Vec<(&KindSight, Vec<&str>)> = Vec::new();
    for &k in &v.show_order {
        let (Some(kind), Some(ks)) = (v.kinds.get(k), s.kinds.get(k)) else {
            continue;
        };
        match groups.iter_mut().find(|g| g.0 == ks) {
            Some(g) => g.1.push(&kind.display),
            None => groups.push((ks, vec![&kind.display])),
        }
    }
    let every = groups.len() == 1;
    for (ks, names) in &groups {
        let who = if every {
            "Every piece".to_string()
        } else {
            format!("A {}", names.join(", "))
        };
        out += &format!("- {who} sees {}.\n", what(ks));
    }
    if s.passed {
        out += "- A piece that could take on the square a piece has just passed sees it and the square behind it, whoever passed it.\n";
    }
    if s.zones.iter().any(|z| !z.is_empty()) {
        out += "- Each player always sees their declared zones.\n";
    }
    out
}

/// `its own square and the squares it could move to`.
fn what(k: &KindSight) -> String {
    let mut parts = Vec::new();
    if k.occupied {
        parts.push("its own square".to_string());
    }
    if k.moves {
        parts.push("every square it could move to, captures, castling and passing captures included, legal or not".to_string());
    }
    if k.radius > 0 {
        parts.push(format!("the squares within {} king steps", k.radius));
    }
    if !k.lines.is_empty() {
        let range = if k.range > 0 {
            format!(", at most {} squares", k.range)
        } else {
            String::new()
        };
        parts.push(format!(
            "along its lines up to and including the first piece or blocking terrain{range}"
        ));
    }
    if parts.is_empty() {
        return "nothing".into();
    }
    parts.join(", ")
}
