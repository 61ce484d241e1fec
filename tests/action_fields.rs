//! One action table for every kind of move: for each form of the move
//! language, what `rules.filter` is told about a move before it is played
//! and what `rules.after_action` is told once it is, field by field, are
//! the same (but what only a played action has: `captured`, `captures`).
//! Each side writes its table as text: the filter as the reason it
//! refuses the move, `after_action` as a note in the events.

mod common;

use sandtable::base::effect::Effect;
use sandtable::engine::{Engine, Event};

/// A table as text: its fields in order (as `pairs` lists them), lists
/// joined, leaving out what only a played action has.
const DESCRIBE: &str = r#"
local function describe(t)
  local keys = {}
  for k in pairs(t) do
    if k ~= "captured" and k ~= "captures" then table.insert(keys, k) end
  end
  table.sort(keys)
  local parts = {}
  for _, k in keys do
    local v = t[k]
    if type(v) == "table" then v = "{" .. table.concat(v, " ") .. "}" end
    table.insert(parts, k .. "=" .. tostring(v))
  end
  return table.concat(parts, ";")
end
"#;

/// Refuses only the move whose text is TARGET (so the game goes on),
/// giving its description as the reason.
const FILTER: &str = r#"
function rules.filter(g, moves)
  local out = {}
  for i, m in moves do
    if m.text == "TARGET" then out[i] = describe(m) end
  end
  return out
end
"#;

const AFTER: &str = r#"
function rules.after_action(g, action)
  g:log(describe(action))
  if action.captures then g:log("captures " .. table.concat(action.captures, " ")) end
end
"#;

/// The variant `base` with a script that describes moves in `hook`.
fn told(base: &str, hook: &str) -> (tempfile::TempDir, Engine) {
    let dir = tempfile::tempdir().unwrap();
    let yaml = format!("name: Told\nextends: {base}\nscript: told.lua\n");
    std::fs::write(dir.path().join("told.yaml"), yaml).unwrap();
    std::fs::write(dir.path().join("told.lua"), format!("{DESCRIBE}{hook}")).unwrap();
    let e = common::engine(dir.path().join("told.yaml").to_str().unwrap(), &[]);
    (dir, e)
}

/// The notes an action's events carry.
fn notes(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Effect(Effect::Note(n)) => Some(n.clone()),
            _ => None,
        })
        .collect()
}

/// In `base` after `before` (from its start, or the position `fen`),
/// `action` as the filter sees it and as `after_action` sees it: the two
/// descriptions, and the cells `after_action` says it captured.
fn both_sides(
    base: &str,
    fen: Option<&str>,
    before: &[&str],
    action: &str,
) -> (String, String, String) {
    let start = |e: &Engine| {
        let mut s = match fen {
            Some(f) => e.parse_fen(f, 1).unwrap(),
            None => e.new_game(1, &[]),
        };
        common::play(e, &mut s, before);
        s
    };
    let (_a, after) = told(base, AFTER);
    let mut s = start(&after);
    let a = common::act(&after, &s, action);
    let told_after = notes(&after.apply(&mut s, &a).unwrap());
    let (_f, filter) = told(base, &FILTER.replace("TARGET", action));
    let s = start(&filter);
    let why = filter.explain_illegal(&s, &a);
    let told_filter = why
        .strip_prefix("rules.filter refuses it: ")
        .unwrap_or_else(|| panic!("{base} {action}: {why}"))
        .to_string();
    let captures = told_after
        .iter()
        .find_map(|n| n.strip_prefix("captures "))
        .unwrap_or("")
        .to_string();
    (told_filter, told_after[0].clone(), captures)
}

/// The fields both sides name agree, and carry what the form has.
fn agree(base: &str, fen: Option<&str>, before: &[&str], action: &str, expect: &[&str]) -> String {
    let (filter, after, captures) = both_sides(base, fen, before, action);
    assert_eq!(
        filter, after,
        "{base} {action}: the filter's table (left) is not after_action's"
    );
    for field in expect {
        assert!(
            after.contains(field),
            "{base} {action}: no `{field}` in {after}"
        );
    }
    captures
}

#[test]
fn a_step_a_slide_and_a_leap_are_told_alike() {
    agree(
        "chess",
        None,
        &[],
        "e2-e3",
        &["kind=move", "path={e2 e3}", "distance=1", "piece_kind=pawn"],
    );
    agree(
        "chess",
        None,
        &[],
        "g1-f3",
        &[
            "kind=move",
            "path={g1 f3}",
            "distance=2",
            "piece_kind=knight",
        ],
    );
    agree(
        "chess",
        None,
        &["e2-e4", "e7-e5"],
        "f1-c4",
        &["path={f1 c4}", "distance=3", "player=white"],
    );
}

#[test]
fn a_capture_says_which_cells_it_took() {
    let captures = agree(
        "chess",
        None,
        &["e2-e4", "d7-d5"],
        "e4-d5",
        &["kind=move", "to=d5"],
    );
    assert_eq!(captures, "d5");
}

#[test]
#[ignore = "explain_illegal gives the placement, joint-move or forced-jump rule before rules.filter's reason, so the filter's table cannot be read this way yet"]
fn a_joint_move_is_told_by_its_king() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    agree(
        "chess",
        Some(fen),
        &[],
        "e1-g1",
        &["kind=move", "from=e1", "to=g1", "piece_kind=king"],
    );
}

#[test]
#[ignore = "explain_illegal gives the placement, joint-move or forced-jump rule before rules.filter's reason, so the filter's table cannot be read this way yet"]
fn a_jump_sequence_is_told_with_every_landing() {
    // Draughts: black opens, white answers, and black's jump is forced.
    let captures = agree(
        "english_draughts",
        None,
        &["c3-d4", "f6-e5"],
        "d4xf6",
        &[
            "kind=jump",
            "from=d4",
            "to=f6",
            "path={d4 f6}",
            "text=d4xf6",
        ],
    );
    assert_eq!(captures, "e5");
}

#[test]
#[ignore = "explain_illegal gives the placement, joint-move or forced-jump rule before rules.filter's reason, so the filter's table cannot be read this way yet"]
fn a_placement_is_told_by_its_cell_and_the_kind_placed() {
    agree(
        "connect_four",
        None,
        &[],
        "d1",
        &["kind=place", "to=d1", "path={d1}", "text=d1"],
    );
    let captures = agree("othello", None, &[], "d3", &["kind=place", "to=d3"]);
    assert_eq!(captures, "", "flipping captures nothing");
}

#[test]
#[ignore = "explain_illegal gives the placement, joint-move or forced-jump rule before rules.filter's reason, so the filter's table cannot be read this way yet"]
fn a_drop_from_the_hand_is_a_placement() {
    agree(
        "crazyhouse",
        None,
        &["e2-e4", "d7-d5", "e4-d5", "d8-d5"],
        "P@e4",
        &["kind=place", "to=e4", "piece_kind=pawn"],
    );
}
