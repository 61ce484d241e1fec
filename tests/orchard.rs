//! Rule tests for Orchard (examples/variants/orchard.yaml), the tutorial's
//! game that is not chess: declared actions, the turn's budget, a choice
//! inside the turn with its data, costs and a container.

mod common;
use common::{engine, legal, play, position};
use sandtable::base::state::GameState;
use sandtable::engine::Engine;
use sandtable::record::game::Positions;

fn orchard() -> Engine {
    engine("examples/variants/orchard.yaml", &[])
}

/// Tiles face up except `down` (cell and content); workers on `gold` and
/// `silver`; one worker in each barn; `coins` for gold.
fn farm(
    e: &Engine,
    gold: &[&str],
    silver: &[&str],
    down: &[(&str, &str)],
    coins: i64,
) -> GameState {
    let mut y = String::from("to_move: gold\npieces:\n");
    for (owner, cells) in [("gold", gold), ("silver", silver)] {
        for c in cells {
            y.push_str(&format!(
                "  - {{ at: {c}, owner: {owner}, kind: worker }}\n"
            ));
        }
    }
    y.push_str("containers:\n");
    for owner in ["gold", "silver"] {
        y.push_str(&format!(
            "  - name: barn\n    owner: {owner}\n    pieces:\n      - {{ owner: {owner}, kind: worker }}\n"
        ));
    }
    y.push_str(&format!(
        "counters:\n  - {{ name: coins, player: gold, value: {coins} }}\nmarks:\n"
    ));
    for r in 1..=4 {
        for f in "abcd".chars() {
            let c = format!("{f}{r}");
            match down.iter().find(|d| d.0 == c) {
                Some((_, what)) => y.push_str(&format!(
                    "  - {{ cell: {c}, name: tile, value: down, known_by: [gold, silver] }}\n  - {{ cell: {c}, name: content, value: {what}, known_by: [] }}\n"
                )),
                None => y.push_str(&format!(
                    "  - {{ cell: {c}, name: tile, value: up, known_by: [gold, silver] }}\n"
                )),
            }
        }
    }
    position(e, &y)
}

fn coins(e: &Engine, s: &GameState, p: &str) -> i64 {
    s.counter("coins", Some(e.variant.player_index(p).unwrap() as u8))
}

#[test]
fn the_host_lists_walks_and_digs_from_the_declaration() {
    let e = orchard();
    let s = farm(&e, &["a1"], &["d4"], &[("b1", "pear"), ("c3", "apple")], 0);
    assert_eq!(legal(&e, &s), ["a1-a2", "a1-b1", "dig b1", "end"]);
}

#[test]
fn two_actions_a_turn_then_only_end() {
    let e = orchard();
    let down = [("b1", "pear"), ("a2", "apple"), ("c3", "apple")];
    let mut s = farm(&e, &["a1"], &["d4"], &down, 0);
    play(&e, &mut s, &["dig b1", "dig a2"]);
    assert_eq!(coins(&e, &s, "gold"), 3, "a pear is 2, an apple 1");
    assert_eq!(
        legal(&e, &s),
        ["end", "hire a2", "hire b1"],
        "no third action"
    );
    play(&e, &mut s, &["end"]);
    assert_eq!(e.player_name(s.to_move), "silver");
    assert_eq!(s.steps.actions, 0, "the new turn starts fresh");
}

#[test]
fn a_fox_is_a_choice_inside_the_turn() {
    let e = orchard();
    let mut s = farm(&e, &["a1"], &["d4"], &[("b1", "fox"), ("a2", "apple")], 2);
    play(&e, &mut s, &["dig b1"]);
    assert_eq!(legal(&e, &s), ["pay", "run"]);
    play(&e, &mut s, &["pay", "dig a2"]);
    assert_eq!(coins(&e, &s, "gold"), 2, "paid 1, found 1");
    // Running closes the actions: only `end` (and hiring) is left.
    let mut s = farm(&e, &["a1"], &["d4"], &[("b1", "fox"), ("a2", "apple")], 0);
    play(&e, &mut s, &["dig b1", "run"]);
    assert_eq!(legal(&e, &s), ["end"]);
    assert_eq!(e.player_name(s.to_move), "gold", "the turn goes on");
}

#[test]
fn hiring_costs_three_coins_once_and_empties_the_barn() {
    let e = orchard();
    let s = farm(&e, &["a1"], &["d4"], &[("c3", "apple")], 2);
    assert!(!legal(&e, &s).iter().any(|a| a.starts_with("hire")));
    let mut s = farm(&e, &["a1"], &["d4"], &[("c3", "apple")], 3);
    assert!(legal(&e, &s).contains(&"hire b1".to_string()));
    play(&e, &mut s, &["hire b1"]);
    assert_eq!(coins(&e, &s, "gold"), 0);
    assert!(!legal(&e, &s).iter().any(|a| a.starts_with("hire")));
    assert!(
        legal(&e, &s).contains(&"b1-c1".to_string()),
        "hiring is no action"
    );
}

#[test]
fn a_refused_action_says_why_from_the_declaration() {
    let e = orchard();
    let mut s = farm(&e, &["a1"], &["b2"], &[("c3", "apple"), ("b1", "pear")], 0);
    let a = e.parse_action(&s, "dig c3").unwrap();
    let err = e.apply(&mut s, &a).unwrap_err().to_string();
    assert!(
        err.contains("`dig c3`: c3 is not one of its cells"),
        "{err}"
    );
    assert!(e.parse_action(&s, "dig z9").is_err());
}

#[test]
fn the_richer_farmer_wins_when_the_orchard_is_dug_up() {
    let e = orchard();
    let mut s = farm(&e, &["a1"], &["d4"], &[("b1", "apple")], 0);
    play(&e, &mut s, &["dig b1", "end"]);
    let o = s.outcome.clone().expect("over");
    assert_eq!(o.winners, [0]);
}

/// A copy of Orchard with one edit, loaded: the error text.
fn load_edited(old: &str, new: &str) -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let dir = tempfile::tempdir().unwrap();
    for sub in ["variants", "scripts"] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
    }
    let yaml = std::fs::read_to_string(root.join("variants/orchard.yaml")).unwrap();
    assert!(yaml.contains(old), "{old}");
    let path = dir.path().join("variants/orchard.yaml");
    std::fs::write(&path, yaml.replacen(old, new, 1)).unwrap();
    std::fs::copy(
        root.join("scripts/orchard.lua"),
        dir.path().join("scripts/orchard.lua"),
    )
    .unwrap();
    match Engine::load(path.to_str().unwrap(), &[]) {
        Ok(_) => panic!("loaded"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn check_names_the_line_and_column_of_a_bad_declaration() {
    let e = load_edited(
        "from: near_own, where: [{ mark",
        "from: near_mine, where: [{ mark",
    );
    assert!(
        e.contains("orchard.yaml:35:21:") && e.contains("unknown source `near_mine`"),
        "{e}"
    );
    let e = load_edited(
        "where: [empty] }\n    moves",
        "where: [vacant] }\n    moves",
    );
    assert!(e.contains("unknown condition `vacant`"), "{e}");
    // A condition written as words (before conditions were typed) is
    // refused with its typed form.
    let e = load_edited(
        "where: [{ mark: { tile: down } }, empty]",
        "where: [mark tile=down, empty]",
    );
    assert!(
        e.contains("orchard.yaml:35:")
            && e.contains(
                "conditions are YAML now: write `{ mark: { tile: down } }` for `mark tile=down`"
            ),
        "{e}"
    );
    let e = load_edited("from: { next_to: from }", "from: next_to from");
    assert!(
        e.contains("sources are YAML now: write `{ next_to: from }` for `next_to from`"),
        "{e}"
    );
    let e = load_edited("from: { next_to: from }", "from: { next_to: goal }");
    assert!(e.contains("`goal` is not an earlier parameter"), "{e}");
    let e = load_edited("perform: dig", "perform: excavate");
    assert!(
        e.contains("orchard.yaml:") && e.contains("no function rules.excavate"),
        "{e}"
    );
    let e = load_edited("text: \"{from}-{to}\"", "text: \"{from}-{goal}\"");
    assert!(e.contains("`{goal}` is not a parameter"), "{e}");
}

/// Orchard with its script edited (each `(old, new)` once), loaded from a
/// temporary copy.
fn orchard_scripted(edits: &[(&str, &str)]) -> (tempfile::TempDir, Engine) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let dir = tempfile::tempdir().unwrap();
    for sub in ["variants", "scripts"] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
    }
    let mut lua = std::fs::read_to_string(root.join("scripts/orchard.lua")).unwrap();
    for (old, new) in edits {
        assert!(lua.contains(old), "{old}");
        lua = lua.replacen(old, new, 1);
    }
    std::fs::write(dir.path().join("scripts/orchard.lua"), lua).unwrap();
    let path = dir.path().join("variants/orchard.yaml");
    std::fs::copy(root.join("variants/orchard.yaml"), &path).unwrap();
    let e = Engine::load(path.to_str().unwrap(), &[]).unwrap_or_else(|e| panic!("{e}"));
    (dir, e)
}

/// A choice's answer keeps the turn as the action that asked it did, the
/// way a declared action keeps it: the fox's handler needs no
/// `g:continue_turn()`.
#[test]
fn a_choice_inside_the_turn_keeps_it_without_continue_turn() {
    let (_dir, e) = orchard_scripted(&[]);
    let lua = include_str!("../examples/scripts/orchard.lua");
    assert!(
        !lua.contains("continue_turn"),
        "the handler keeps no turn itself"
    );
    let down = [("b1", "fox"), ("a2", "apple")];
    let mut s = farm(&e, &["a1"], &["d4"], &down, 2);
    play(&e, &mut s, &["dig b1", "pay"]);
    assert_eq!(e.player_name(s.to_move), "gold", "the turn goes on");
    assert_eq!(
        legal(&e, &s),
        ["a1-a2", "a1-b1", "dig a2", "end"],
        "one action left"
    );
    play(&e, &mut s, &["dig a2"]);
    assert_eq!(coins(&e, &s, "gold"), 2, "paid 1, found 1");
    // Asked by an action that ends the turn, the answer ends it.
    let (_dir, e) = orchard_scripted(&[(
            "function rules.end_turn(g)\n",
            "function rules.end_turn(g)\n  if g:counter(\"asked\") == 0 then\n    g:set_counter(\"asked\", 1)\n    g:choose(g:player(), \"last words\", { \"bye\", \"ciao\" }, true, \"fox\", { cell = \"a1\" })\n  end\n",
        )]);
    let mut s = farm(&e, &["a1"], &["d4"], &down, 2);
    play(&e, &mut s, &["end"]);
    assert_eq!(legal(&e, &s), ["bye", "ciao"]);
    play(&e, &mut s, &["bye"]);
    assert_eq!(e.player_name(s.to_move), "silver", "the turn passed");
}

/// A choice's data may hold lists and maps of plain values; the handler
/// gets them back as tables, and a position keeps them.
#[test]
fn a_choices_data_holds_lists_and_maps() {
    let check = r#"  assert(data.path[1] == "b1" and data.path[2] == "c1" and #data.path == 2)
  assert(data.info.n == 3 and data.info.deep[1] == true and data.info.deep[2] == 7)
  assert(#data.none == 0)
  g:log("fox data: " .. data.path[1] .. " " .. data.info.n)
"#;
    let (_dir, e) = orchard_scripted(&[
        (
            "{ cell = a.cell })",
            "{ cell = a.cell, path = { a.cell, \"c1\" }, info = { n = 3, deep = { true, 7 } }, none = {} })",
        ),
        ("function rules.fox(g, player, answer, data)\n", &format!("function rules.fox(g, player, answer, data)\n{check}")),
    ]);
    let down = [("b1", "fox"), ("a2", "apple")];
    let mut s = farm(&e, &["a1"], &["d4"], &down, 2);
    play(&e, &mut s, &["dig b1"]);
    // Kept by a position, and the same after a round trip.
    let yaml = sandtable::record::to_yaml(&Positions::new(&e).to_position(&s)).unwrap();
    let pos: sandtable::record::Position = sandtable::record::parse_yaml(&yaml, "<test>").unwrap();
    let mut t = Positions::new(&e).from_position(&pos).unwrap();
    assert_eq!(t.pending, s.pending, "{yaml}");
    let a = e.parse_action(&t, "pay").unwrap();
    let events = e.apply(&mut t, &a).unwrap_or_else(|err| panic!("{err}"));
    assert!(
        format!("{events:?}").contains("fox data: b1 3"),
        "{events:?}"
    );
}

/// Data a script cannot make plain, too deep or too big is refused with
/// an error that says what is wrong.
#[test]
fn a_choices_data_is_bounded_and_plain() {
    let cases = [
        (
            "{ f = function() end }",
            "holds booleans, integers, strings",
        ),
        ("{ x = { 1, 2, k = 3 } }", "both"),
        ("{ x = { { { { { 1 } } } } } }", "deep"),
        ("{ x = table.create(300, 1) }", "values"),
        ("{ x = { [1.5] = 1 } }", "keys"),
    ];
    for (data, expected) in cases {
        let (_dir, e) = orchard_scripted(&[("{ cell = a.cell })", &format!("{data})"))]);
        let down = [("b1", "fox"), ("a2", "apple")];
        let mut s = farm(&e, &["a1"], &["d4"], &down, 2);
        let a = e.parse_action(&s, "dig b1").unwrap();
        let before = s.clone();
        let err = e.apply(&mut s, &a).expect_err(data).to_string();
        assert!(err.contains(expected), "{data}: {err}");
        assert_eq!(s, before, "{data}: nothing changed");
    }
}
