//! How one declared move reads: a step, a leap, a slide, a path, a
//! placement (falling, flanking, groups) and a jump, each as words a
//! player understands.
//!
//! Changes when the move language gains a part, or a part's wording does.

use super::text::{self, capital, directions, number, squares};
use crate::base::geometry::Cell;
use crate::variant::forms::{
    Custody, Flank, Form, Groups, Holds, JumpForm, Ko, PlaceForm, MAX_JUMPS,
};
use crate::variant::{Jump, MovePattern, Target, Variant};

/// A move of steps, slides or paths, as a clause after the kind's name
/// (`slides any number of empty squares orthogonally`).
pub(super) fn pattern(v: &Variant, m: &MovePattern) -> String {
    let (body, target, after) = match m {
        MovePattern::Step {
            deltas,
            target,
            lame,
        } => (step(v, deltas, target, *lame), target, String::new()),
        MovePattern::Slide {
            deltas,
            max,
            target,
            screens: n @ 1..,
            ..
        } => (hop(v, deltas, *max, *n, target), target, String::new()),
        MovePattern::Slide {
            deltas,
            max,
            strike_at_range,
            reveal_beyond,
            target,
            jump,
            ..
        } => (
            slide(v, deltas, *max, *strike_at_range, target, jump.as_ref()),
            target,
            reveal(*reveal_beyond),
        ),
        MovePattern::Path {
            deltas,
            steps,
            target,
        } => (path(v, deltas, *steps, target), target, String::new()),
    };
    let body = match &target.when {
        Some(crate::variant::When::PlacedAll { kind, supply, .. }) => format!(
            "{body}, only once the player has placed all {} {}",
            number((*supply).into()),
            v.kinds[*kind as usize].name
        ),
        None => body,
    };
    let body = match &target.to_zone {
        Some(z) => {
            let cells: Vec<Vec<Cell>> = (z.iter())
                .map(|p| (0..p.len() as Cell).filter(|&c| p[c as usize]).collect())
                .collect();
            format!("{body}, only onto {}", text::zone(v, &cells))
        }
        None => body,
    };
    let body = match target.landing.as_slice() {
        [] => body,
        fs => format!(
            "{body}, only onto a square {}",
            super::cell_conditions(v, fs)
        ),
    };
    let body = match target.through.as_slice() {
        [] => body,
        fs => format!(
            "{body}, passing only squares {}",
            super::cell_conditions(v, fs)
        ),
    };
    match &target.from_zone {
        Some(z) => format!("{body}, only from {}{after}", text::zone(v, z)),
        None => body + &after,
    }
}

/// A slide over screens: past exactly `screens` pieces, then on.
fn hop(v: &Variant, deltas: &[(i8, i8)], max: u8, screens: u8, target: &Target) -> String {
    let dir = directions(deltas, target.relative);
    let how_far = match max {
        u8::MAX => String::new(),
        n => format!(" (at most {} in all)", squares(n.into())),
    };
    let pieces = match screens {
        1 => "exactly one piece (of either side)".to_string(),
        n => format!("exactly {} pieces (of any side)", text::number(n.into())),
    };
    let foe = enemy(v, target);
    let onto = match (target.empty, target.enemy) {
        (true, true) => {
            format!("onto an empty square beyond it or the first piece after it, if that is {foe}")
        }
        (true, false) => "onto an empty square beyond it".into(),
        (false, _) => format!("onto the first piece after it, if that is {foe}"),
    };
    format!("moves in a line {dir} over {pieces}{how_far}, {onto}")
}

/// A step of one square, or a leap to a square further away.
fn step(v: &Variant, deltas: &[(i8, i8)], target: &Target, lame: bool) -> String {
    let far = deltas.iter().any(|&(f, r)| f.abs() > 1 || r.abs() > 1);
    let how = if far && lame {
        format!(
            "leaps {}, blocked by a piece on a square it passes (straight first, then diagonally)",
            directions(deltas, target.relative)
        )
    } else if text::is_knight(deltas) {
        "leaps to a square a knight's move away (two squares one way and one to the side), over anything between".to_string()
    } else if far {
        format!(
            "leaps {}, over anything between",
            directions(deltas, target.relative)
        )
    } else {
        format!("steps one square {}", directions(deltas, target.relative))
    };
    let foe = enemy(v, target);
    let onto = match (target.empty, target.enemy) {
        (true, true) => format!("onto an empty square or {foe}"),
        (true, false) => "onto an empty square".into(),
        (false, _) => format!("only onto {foe}"),
    };
    format!("{how}, {onto}")
}

/// The name of the enemy a move may end on (`an enemy King`).
fn enemy(v: &Variant, t: &Target) -> String {
    match &t.enemy_kinds {
        Some(k) => format!("an enemy {}", text::kinds(v, k, "or")),
        None => "an enemy piece".into(),
    }
}

fn slide(
    v: &Variant,
    deltas: &[(i8, i8)],
    max: u8,
    at_range: bool,
    target: &Target,
    jump: Option<&Jump>,
) -> String {
    let how_far = if max == u8::MAX {
        "any number of".to_string()
    } else {
        format!("up to {}", text::number(max.into()))
    };
    let dir = directions(deltas, target.relative);
    let plural = if max == 1 { "square" } else { "squares" };
    let mut out = format!("slides {how_far} empty {plural} {dir}");
    if let Some(j) = jump {
        let mut notes = vec!["so never two side by side".to_string()];
        if let Some(k) = &j.kinds {
            notes.push(format!("only a {}", text::kinds(v, k, "or")));
        }
        if j.max != u8::MAX {
            notes.push(format!("at most {} a move", text::number(j.max.into())));
        }
        out += &format!(
            ", and on the way may leap over enemy pieces, each with an empty square beyond it ({})",
            notes.join("; ")
        );
    }
    let foe = enemy(v, target);
    match (target.empty, target.enemy) {
        (_, false) => out,
        (true, true) if at_range => out + &format!(", and may end on {foe} beyond them"),
        (true, true) => out + &format!("; it may move onto {foe} only from the square next to it"),
        (false, true) if at_range => {
            out + &format!(", and must end on {foe} (next to it or beyond the empty squares)")
        }
        (false, true) => out + &format!("; it moves only onto {foe} on the square next to it"),
    }
}

fn reveal(beyond: Option<u8>) -> String {
    match beyond {
        Some(n) => format!(
            "; a move of more than {} shows its kind to every player",
            squares(n.into())
        ),
        None => String::new(),
    }
}

fn path(v: &Variant, deltas: &[(i8, i8)], steps: u8, target: &Target) -> String {
    let dir = directions(deltas, target.relative);
    let out = if steps == 1 {
        format!("makes one step {dir}")
    } else {
        format!(
            "makes one to {} single steps {dir} through empty squares, turning freely",
            text::number(steps.into())
        )
    };
    let foe = enemy(v, target);
    match (target.empty, target.enemy) {
        (_, false) => out + ", ending on an empty square",
        (true, true) => out + &format!("; the last square may hold {foe}"),
        (false, true) => out + &format!("; the last square must hold {foe}"),
    }
}

/// A placement or a jump, as sentences about `name` (the kind).
pub(super) fn form(v: &Variant, name: &str, f: &Form) -> String {
    match f {
        Form::Place(p) => place(v, name, p),
        Form::Jump(j) => jump(v, name, j),
        Form::Race(r) => race(v, name, r),
    }
}

fn race(v: &Variant, name: &str, r: &crate::variant::forms::RaceForm) -> String {
    let b = &v.board;
    let cells = |cs: &[crate::base::geometry::Cell]| -> String {
        let names: Vec<String> = cs.iter().map(|&c| b.cell_name(c)).collect();
        names.join(" ")
    };
    let mut out = format!(
        "A {name} races by the dice along its owner's track, one die a move: {} ({}'s track, from its start; {}'s is {}).",
        cells(&r.track[0]),
        v.players[0],
        v.players.get(1).map_or("", |p| p.as_str()),
        cells(r.track.get(1).map_or(&[][..], |t| t))
    );
    out += &format!(
        " It may land on an empty cell, on its owner's pieces, or on a lone enemy piece, which is hit: it goes to its owner's bar ({}), and a player with a piece on the bar must enter it first (a die of n onto the n-th cell of the track). Two or more enemy pieces block a cell.",
        cells(&r.bar)
    );
    out += &format!(
        " Once all of a player's {name}s stand on the last {} cells of the track, they may be borne off ({}): by the exact number, or by a larger one from the piece furthest back.",
        number(r.home.into()),
        cells(&r.off)
    );
    out += " A turn uses as many of the dice as it can, else the larger one; a player who can use none passes. Moves are written by points counted from the end of the mover's track (`13/7`, `bar/22`, `6/off`, `*` when it hits).";
    out
}

fn place(v: &Variant, name: &str, p: &PlaceForm) -> String {
    let supply = match p.supply {
        None => "(which never runs out)".to_string(),
        Some(n) => format!("({} {name} in all for each player)", number(n.into())),
    };
    let mut out = if p.from_hand {
        format!("A player's move may drop a {name} from their hand on an empty cell")
    } else {
        format!(
            "A player's move may place a new {name} from their supply {supply} on an empty cell"
        )
    };
    if let Some(z) = &p.zone {
        out += &format!(" of {}", text::zone(v, z));
    }
    if let Some(z) = &p.outside {
        out += &format!(" outside {}", text::zone(v, z));
    }
    if !p.not_in_file_with.is_empty() {
        let names: Vec<&str> = (p.not_in_file_with.iter())
            .map(|&k| v.kinds[k as usize].display.as_str())
            .collect();
        out += &format!(
            ", not in a file that already holds a {} of theirs",
            names.join(" or ")
        );
    }
    out.push('.');
    if p.no_mate {
        out += " A placement that checkmates at once is not allowed.";
    }
    if let Some(d) = p.falls {
        out += &format!(
            " It falls {} to the last empty cell before a piece or the board's edge, and the move names the cell where it lands.",
            directions(&[d], false)
        );
    }
    if let Some(f) = &p.flank {
        out += &format!(" {}", flank(f));
    }
    if let Some(g) = &p.groups {
        out += &format!(" {}", groups(g));
    }
    out
}

/// How flanking reads.
pub(super) fn flank(f: &Flank) -> String {
    let mut out = format!(
        "Every unbroken line of enemy pieces running {} from the new piece to one of the player's own pieces is outflanked: its pieces change to the player's side.",
        directions(&f.lines, false)
    );
    out += if f.needed {
        " A placement that outflanks nothing is not allowed."
    } else {
        " A placement may also outflank nothing."
    };
    out
}

/// How groups, their liberties, captures, suicide and ko read.
pub(super) fn groups(g: &Groups) -> String {
    let mut out = format!(
        "Pieces of one player joined {} form a group, and a group's liberties are the empty cells next to it. After a placement, the opponent's groups left without liberties are captured (removed), then the player's own.",
        directions(&g.lines, false)
    );
    out += if g.suicide {
        " A placement may take its own group's last liberty (suicide): that group is captured."
    } else {
        " A placement that would leave its own group without liberties is not allowed (no suicide)."
    };
    out += match g.ko {
        Ko::None => "",
        Ko::Simple => " A placement may not bring back the board as it was before the opponent's last move (ko).",
        Ko::Superko => " No placement may bring back any earlier position of the board (positional superko).",
    };
    out
}

/// What a jumped or landed-on cell must hold.
fn holds(h: Holds) -> &'static str {
    match h {
        Holds::Empty => "an empty square",
        Holds::Enemy => "an enemy piece",
        Holds::Own => "one of the player's own pieces",
        Holds::Piece => "a piece of either side",
        Holds::Any => "a piece or nothing",
    }
}

fn jump(v: &Variant, name: &str, j: &JumpForm) -> String {
    let over = match (&j.over_kinds, j.over) {
        (Some(k), Holds::Enemy) => format!("an enemy {}", text::kinds(v, k, "or")),
        (Some(k), h) => format!("{} ({} only)", holds(h), text::kinds(v, k, "or")),
        (None, h) => holds(h).to_string(),
    };
    let mut out = format!(
        "The {name} jumps {} over {over} on the next square to {} beyond it",
        directions(&j.deltas, j.relative),
        holds(j.onto)
    );
    out += if j.capture {
        "; the jumped pieces are captured (removed) when the move ends."
    } else {
        "; the jumped pieces stay."
    };
    if j.repeat {
        out += &format!(
            " It goes on jumping while it can: the whole sequence is one move, written with every landing square (at most {MAX_JUMPS} jumps, never over the same piece twice, and it stops where it would promote)."
        );
    }
    if j.compulsory {
        out +=
            " Jumping is compulsory: while any such jump can be made, only such jumps are legal.";
    }
    if j.longest {
        out += " Of the compulsory jumps, only the sequences that jump the most pieces are legal.";
    }
    out
}

/// Zones every player shares whose union is `cells`, named, if there are
/// such (`` `throne` or `corner` ``).
fn zone_names(v: &Variant, cells: &[Cell]) -> Option<String> {
    let inside: Vec<&(String, Vec<Cell>)> = v
        .board
        .zones
        .iter()
        .filter(|(n, z)| {
            !v.players.iter().any(|p| n.starts_with(&format!("{p}_")))
                && !z.is_empty()
                && z.iter().all(|c| cells.contains(c))
        })
        .collect();
    let covered = cells
        .iter()
        .all(|c| inside.iter().any(|(_, z)| z.contains(c)));
    // The fewest zones: drop one another zone already covers.
    let names: Vec<String> = inside
        .iter()
        .filter(|(n, z)| {
            !inside
                .iter()
                .any(|(m, w)| m != n && w.len() > z.len() && z.iter().all(|c| w.contains(c)))
        })
        .map(|(n, _)| format!("`{n}`"))
        .collect();
    (covered && !names.is_empty()).then(|| text::join(&names, "or"))
}

/// Capture by custody, as sentences about `name` (the kind).
pub(super) fn custody(v: &Variant, name: &str, c: &Custody) -> String {
    let run = match c.run {
        Some(1) => "an enemy piece".to_string(),
        Some(n) => format!("a run of exactly {} enemy pieces", text::number(n.into())),
        None => "a run of one or more enemy pieces".into(),
    };
    let only = c
        .kinds
        .as_ref()
        .map(|k| format!(" (only a {})", text::kinds(v, k, "or")))
        .unwrap_or_default();
    let partner = match &c.partners {
        Some(k) => format!("one of the mover's pieces (a {})", text::kinds(v, k, "or")),
        None => "one of the mover's pieces".into(),
    };
    let hostile = match c.hostile.first() {
        Some(h) if !h.is_empty() && c.hostile.iter().all(|x| x == h) => {
            let named = zone_names(v, h)
                .map(|n| format!("{n} "))
                .unwrap_or_default();
            format!(" or is an empty {named}cell ({})", text::cells(&v.board, h))
        }
        Some(_) if c.hostile.iter().any(|x| !x.is_empty()) => {
            format!(" or is an empty cell of {}", text::zone(v, &c.hostile))
        }
        _ => String::new(),
    };
    let mut out = format!(
        "When the {name} lands, it captures by custody: {run}{only} next to it {} is taken when the cell beyond holds {partner}{hostile}.",
        directions(&c.lines, false)
    );
    if let Some(e) = &c.enclose {
        let within = e
            .within
            .as_ref()
            .map(|z| format!(" standing in {}", text::zone(v, z)))
            .unwrap_or_default();
        out += &format!(
            " An enemy {}{within} is taken only when enclosed: every cell next to it {} must close it, by a piece of the mover's or as an empty hostile cell (the board's edge does not).",
            text::kinds(v, &e.kinds, "or"),
            directions(&c.lines, false)
        );
    }
    out + " A piece that moves in between enemies is not taken by moving there."
}

/// The clause with its subject: `The Rook slides ...`.
pub(super) fn sentence(name: &str, clause: &str) -> String {
    capital(&format!("the {name} {clause}."))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::forms::{Flank, Groups, Ko};

    fn target(empty: bool, enemy: bool) -> Target {
        Target {
            empty,
            enemy,
            ..Target::ANY
        }
    }

    fn variant() -> Variant {
        Variant::from_str(
            "name: T\nplayers: [white, black]\nboard: { files: 8, ranks: 8, zones: { white_start: [a2:h2], black_start: [a7:h7] } }\npieces:\n  king: { name: King, symbol: K }\n  leaper: { name: Long Leaper, symbol: L }\n",
            std::path::Path::new("t.yaml"),
            &[],
        )
        .unwrap()
    }

    #[test]
    fn a_step_says_its_directions_and_what_it_may_land_on() {
        let orth = vec![(0, 1), (0, -1), (1, 0), (-1, 0)];
        let v = variant();
        let m = MovePattern::Step {
            deltas: orth,
            target: Target::ANY,
            lame: false,
        };
        assert_eq!(
            pattern(&v, &m),
            "steps one square orthogonally, onto an empty square or an enemy piece"
        );
        let pawn = MovePattern::Step {
            deltas: vec![(1, 1), (-1, 1)],
            target: Target {
                relative: true,
                ..target(false, true)
            },
            lame: false,
        };
        assert_eq!(
            pattern(&v, &pawn),
            "steps one square diagonally forward, only onto an enemy piece"
        );
    }

    #[test]
    fn a_knight_step_is_a_leap() {
        let v = variant();
        let knight = crate::base::geometry::builtin_directions()
            .into_iter()
            .find(|d| d.name == "knight")
            .unwrap()
            .deltas;
        let m = MovePattern::Step {
            deltas: knight,
            target: Target::ANY,
            lame: false,
        };
        assert!(pattern(&v, &m).starts_with("leaps to a square a knight's move away"));
    }

    #[test]
    fn a_slide_says_how_far_and_where_it_may_strike() {
        let v = variant();
        let slide = |max, at_range, t: Target, jump| MovePattern::Slide {
            deltas: vec![(0, 1), (0, -1), (1, 0), (-1, 0)],
            max,
            strike_at_range: at_range,
            reveal_beyond: None,
            target: t,
            jump,
            screens: 0,
        };
        assert_eq!(
            pattern(&v, &slide(u8::MAX, true, Target::ANY, None)),
            "slides any number of empty squares orthogonally, and may end on an enemy piece beyond them"
        );
        assert_eq!(
            pattern(&v, &slide(u8::MAX, false, Target::ANY, None)),
            "slides any number of empty squares orthogonally; it may move onto an enemy piece only from the square next to it"
        );
        assert_eq!(
            pattern(&v, &slide(2, false, target(true, false), None)),
            "slides up to two empty squares orthogonally"
        );
        let leap = Jump {
            kinds: Some(vec![1]),
            max: 1,
        };
        assert!(pattern(&v, &slide(u8::MAX, false, target(true, false), Some(leap)))
            .contains("may leap over enemy pieces, each with an empty square beyond it (so never two side by side; only a Long Leaper; at most one a move)"));
    }

    #[test]
    fn a_slide_from_a_zone_names_the_zone_of_each_player() {
        let v = variant();
        let start = v.board.zone("white_start").unwrap().to_vec();
        let black = v.board.zone("black_start").unwrap().to_vec();
        let m = MovePattern::Slide {
            deltas: vec![(0, 1)],
            max: 2,
            strike_at_range: false,
            reveal_beyond: Some(1),
            target: Target {
                relative: true,
                from_zone: Some(vec![start, black]),
                ..target(true, false)
            },
            jump: None,
            screens: 0,
        };
        assert_eq!(
            pattern(&v, &m),
            "slides up to two empty squares forward, only from its player's `start` zone (White a2–h2; Black a7–h7); a move of more than one square shows its kind to every player"
        );
    }

    #[test]
    fn a_path_turns_freely_and_may_end_on_an_enemy() {
        let v = variant();
        let m = MovePattern::Path {
            deltas: vec![(0, 1), (0, -1), (1, 0), (-1, 0)],
            steps: 2,
            target: Target::ANY,
        };
        assert_eq!(
            pattern(&v, &m),
            "makes one to two single steps orthogonally through empty squares, turning freely; the last square may hold an enemy piece"
        );
    }

    #[test]
    fn a_placement_says_how_it_falls_flanks_and_captures() {
        let v = variant();
        let falls = PlaceForm {
            falls: Some((0, -1)),
            flank: None,
            groups: None,
            zone: None,
            supply: None,
            outside: None,
            from_hand: false,
            not_in_file_with: Vec::new(),
            no_mate: false,
        };
        let text = form(&v, "Disc", &Form::Place(falls.clone()));
        assert!(text.contains("which never runs out"), "{text}");
        let nine = form(
            &v,
            "Man",
            &Form::Place(PlaceForm {
                supply: Some(9),
                ..falls.clone()
            }),
        );
        assert!(nine.contains("(nine Man in all for each player)"), "{nine}");
        assert!(
            text.contains("It falls down the board to the last empty cell"),
            "{text}"
        );
        let all: Vec<(i8, i8)> = vec![
            (0, 1),
            (0, -1),
            (1, 0),
            (-1, 0),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ];
        let f = flank(&Flank {
            lines: all,
            needed: true,
        });
        assert!(
            f.contains("in any direction") && f.ends_with("outflanks nothing is not allowed."),
            "{f}"
        );
        let g = groups(&Groups {
            lines: vec![(0, 1), (0, -1), (1, 0), (-1, 0)],
            suicide: false,
            ko: Ko::Superko,
        });
        assert!(g.contains("joined orthogonally form a group"), "{g}");
        assert!(
            g.contains("(no suicide)") && g.contains("(positional superko)"),
            "{g}"
        );
        let simple = groups(&Groups {
            lines: vec![(0, 1)],
            suicide: true,
            ko: Ko::Simple,
        });
        assert!(
            simple.contains("(suicide)") && simple.contains("(ko)"),
            "{simple}"
        );
    }

    #[test]
    fn a_jump_says_what_it_jumps_whether_it_captures_repeats_and_is_compulsory() {
        let v = variant();
        let j = JumpForm {
            deltas: vec![(1, 1), (-1, 1)],
            relative: true,
            over: Holds::Enemy,
            over_kinds: None,
            onto: Holds::Empty,
            capture: true,
            repeat: true,
            compulsory: true,
            longest: true,
        };
        let text = form(&v, "Man", &Form::Jump(j.clone()));
        assert!(
            text.contains("only the sequences that jump the most pieces"),
            "{text}"
        );
        assert!(text.starts_with("The Man jumps diagonally forward over an enemy piece on the next square to an empty square beyond it; the jumped pieces are captured"), "{text}");
        assert!(text.contains("goes on jumping while it can"), "{text}");
        assert!(text.contains("Jumping is compulsory"), "{text}");
        let plain = form(
            &v,
            "Man",
            &Form::Jump(JumpForm {
                capture: false,
                repeat: false,
                compulsory: false,
                longest: false,
                over: Holds::Piece,
                ..j
            }),
        );
        assert!(
            plain.contains("over a piece of either side")
                && plain.ends_with("the jumped pieces stay."),
            "{plain}"
        );
    }

    #[test]
    fn a_custody_says_what_it_takes_what_closes_it_and_what_must_be_enclosed() {
        let v = Variant::from_str(
            "name: T\nplayers: [white, black]\nboard: { files: 7, ranks: 7, zones: { corner: [a1, g7], castle: [c3:e5] } }\npieces:\n  king: { name: King, symbol: K }\n  man: { name: Man, symbol: M }\n",
            std::path::Path::new("t.yaml"),
            &[],
        )
        .unwrap();
        let corner = v.board.zone("corner").unwrap().to_vec();
        let castle = v.board.zone("castle").unwrap().to_vec();
        let c = Custody {
            lines: vec![(0, 1), (0, -1), (1, 0), (-1, 0)],
            run: Some(1),
            kinds: None,
            partners: None,
            hostile: vec![corner.clone(), corner],
            enclose: Some(crate::variant::forms::Enclose {
                kinds: vec![0],
                within: Some(vec![castle.clone(), castle]),
            }),
        };
        let text = custody(&v, "Man", &c);
        assert!(text.starts_with("When the Man lands, it captures by custody: an enemy piece next to it orthogonally is taken when the cell beyond holds one of the mover's pieces or is an empty `corner` cell (a1, g7)."), "{text}");
        assert!(
            text.contains(
                "An enemy King standing in the zone `castle` (c3–e5) is taken only when enclosed"
            ),
            "{text}"
        );
        let runs = custody(
            &v,
            "Man",
            &Custody {
                run: None,
                partners: Some(vec![1]),
                hostile: vec![Vec::new(), Vec::new()],
                enclose: None,
                ..c
            },
        );
        assert!(
            runs.contains("a run of one or more enemy pieces")
                && runs.contains("the cell beyond holds one of the mover's pieces (a Man)."),
            "{runs}"
        );
    }
}
