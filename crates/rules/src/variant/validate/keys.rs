//! The keys of the move language's forms: which way of travelling a
//! move in `pieces.<kind>.moves` names, and whether it gives only that
//! way's keys (each refused at the move's line and column).
//!
//! Changes when the language gains a way or a key.

use serde_saphyr::Location;

use super::pieces::Scope;
use super::Ctx;
use crate::variant::raw::RawMove;

/// The ways of travelling, each with the keys it takes (the schema's
/// `Move` is one form per way, from this list).
pub(in crate::variant) const FORMS: &[(&str, &[&str])] = &[
    (
        "step",
        &[
            "onto",
            "onto_kinds",
            "from_zone",
            "to_zone",
            "where",
            "through",
            "lame",
            "when",
        ],
    ),
    (
        "slide",
        &[
            "max",
            "strike_at_range",
            "reveal_beyond",
            "onto",
            "onto_kinds",
            "over",
            "over_kinds",
            "max_over",
            "screens",
            "from_zone",
            "to_zone",
            "where",
            "through",
            "when",
        ],
    ),
    (
        "path",
        &[
            "steps",
            "onto",
            "onto_kinds",
            "from_zone",
            "to_zone",
            "where",
            "through",
            "when",
        ],
    ),
    (
        "place",
        &[
            "onto",
            "falls",
            "flank",
            "groups",
            "zone",
            "outside",
            "not_in_file_with",
            "no_mate",
            "supply",
        ],
    ),
    (
        "jump",
        &[
            "over",
            "over_kinds",
            "onto",
            "capture",
            "repeat",
            "compulsory",
            "longest",
            "from_zone",
        ],
    ),
    ("race", &["bar", "off", "home"]),
];

/// The keys a move gives, by name.
fn given(m: &RawMove) -> Vec<&'static str> {
    let mut k = Vec::new();
    let mut put = |there: bool, name: &'static str| {
        if there {
            k.push(name);
        }
    };
    put(m.step.is_some(), "step");
    put(m.slide.is_some(), "slide");
    put(m.path.is_some(), "path");
    put(m.place.is_some(), "place");
    put(m.jump.is_some(), "jump");
    put(m.steps.is_some(), "steps");
    put(m.max.is_some(), "max");
    put(m.strike_at_range.is_some(), "strike_at_range");
    put(m.reveal_beyond.is_some(), "reveal_beyond");
    put(m.onto.is_some(), "onto");
    put(m.onto_kinds.is_some(), "onto_kinds");
    put(m.jump_kinds.is_some(), "jump_kinds");
    put(m.max_jumps.is_some(), "max_jumps");
    put(m.max_over.is_some(), "max_over");
    put(m.outside.is_some(), "outside");
    put(m.not_in_file_with.is_some(), "not_in_file_with");
    put(m.no_mate.is_some(), "no_mate");
    put(m.from_zone.is_some(), "from_zone");
    put(m.to_zone.is_some(), "to_zone");
    put(!m.landing.is_empty(), "where");
    put(!m.through.is_empty(), "through");
    put(m.lame.is_some(), "lame");
    put(m.screens.is_some(), "screens");
    put(m.falls.is_some(), "falls");
    put(m.flank.is_some(), "flank");
    put(m.groups.is_some(), "groups");
    put(m.zone.is_some(), "zone");
    put(m.supply.is_some(), "supply");
    put(m.when.is_some(), "when");
    put(m.over.is_some(), "over");
    put(m.over_kinds.is_some(), "over_kinds");
    put(m.capture.is_some(), "capture");
    put(m.repeat.is_some(), "repeat");
    put(m.compulsory.is_some(), "compulsory");
    put(m.longest.is_some(), "longest");
    put(m.race.is_some(), "race");
    put(m.bar.is_some(), "bar");
    put(m.off.is_some(), "off");
    put(m.home.is_some(), "home");
    k
}

/// The keys a slide once took under other names, with their names now.
const RENAMED: &[(&str, &str)] = &[
    ("jump", "over: enemy"),
    ("jump_kinds", "over_kinds"),
    ("max_jumps", "max_over"),
];

/// Whether the move names exactly one way of travelling and only that
/// way's keys (else the problem is reported at `loc`).
pub(super) fn keys_fit(s: &Scope, m: &RawMove, loc: Location, cx: &mut Ctx) -> bool {
    let keys = given(m);
    if m.slide.is_some() {
        if let Some((old, new)) = RENAMED.iter().find(|(old, _)| keys.contains(old)) {
            cx.err_at(
                loc,
                format!(
                    "piece `{}`: a slide's `{old}` is `{new}` now (as a jump's)",
                    s.name
                ),
            );
            return false;
        }
    }
    let ways: Vec<&str> = FORMS
        .iter()
        .map(|f| f.0)
        .filter(|w| keys.contains(w))
        .collect();
    let names: Vec<&str> = FORMS.iter().map(|f| f.0).collect();
    if ways.len() != 1 {
        cx.err_at(
            loc,
            format!(
                "piece `{}`: a move needs exactly one of `{}` (found {})",
                s.name,
                names.join("`, `"),
                if ways.is_empty() {
                    "none".to_string()
                } else {
                    format!("`{}`", ways.join("`, `"))
                }
            ),
        );
        return false;
    }
    let way = ways[0];
    let allowed = FORMS.iter().find(|f| f.0 == way).map_or(&[][..], |f| f.1);
    for k in keys {
        if k != way && !allowed.contains(&k) {
            cx.err_at(
                loc,
                format!(
                    "piece `{}`: `{k}` is not a key of a `{way}` move (a `{way}` takes: {})",
                    s.name,
                    allowed.join(", ")
                ),
            );
            return false;
        }
    }
    true
}
