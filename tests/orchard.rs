//! Rule tests for Orchard (examples/variants/orchard.yaml), the tutorial's
//! game that is not chess: declared actions, the turn's budget, a choice
//! inside the turn with its data, costs and a container.

mod common;
use common::{engine, legal, play, position};
use sandtable::base::state::GameState;
use sandtable::engine::Engine;

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
        "from: near_own, where: [mark",
        "from: near_mine, where: [mark",
    );
    assert!(
        e.contains("orchard.yaml:34:21:") && e.contains("unknown source `near_mine`"),
        "{e}"
    );
    let e = load_edited(
        "where: [empty] }\n    moves",
        "where: [vacant] }\n    moves",
    );
    assert!(e.contains("unknown condition `vacant`"), "{e}");
    let e = load_edited("perform: dig", "perform: excavate");
    assert!(
        e.contains("orchard.yaml:") && e.contains("no function rules.excavate"),
        "{e}"
    );
    let e = load_edited("text: \"{from}-{to}\"", "text: \"{from}-{goal}\"");
    assert!(e.contains("`{goal}` is not a parameter"), "{e}");
}
