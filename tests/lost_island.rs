//! Rule tests for Stratego Lost Island (variants/lost_island.yaml), written as
//! positions: every tile face up unless a line says otherwise.

mod common;
use common::{engine, legal, play, position};
use sandtable::base::state::{Container, GameState, Item};
use sandtable::engine::Engine;
use sandtable::record::game::Positions;
use sandtable::record::view::Viewer;
use sandtable::record::view::Views;

/// A position from short lines:
/// `red v3 c3 [flag] [ring]` a scout; `boat red v5 v6` a boat, front first;
/// `coins red 2`; `down c4 [loot2]` a face-down tile (its token, if given,
/// the bag `tiles` holds: the bags hold exactly the tokens given, so a
/// test turning a tile gives one token, or tokens that give the same
/// outcome); `stone b2 [flag]` likewise with the bag `stones`;
/// `water a1`; `loot c4 2` coins lying; `flag c4` the flag lying;
/// `to_move blue`; `counter NAME V`.
fn island(e: &Engine, lines: &[&str]) -> GameState {
    let players = e.variant.players.clone();
    let all = format!("[{}]", players.join(", "));
    let mut tiles: Vec<(String, String, Option<String>)> = Vec::new();
    for r in 1..=6 {
        for f in "abcdef".chars() {
            tiles.push((format!("{f}{r}"), "up".into(), None));
        }
    }
    let mut pieces = String::new();
    let mut boats = String::new();
    let mut counters = String::new();
    let mut water = Vec::new();
    let mut marks = String::new();
    let mut cell_counters = String::new();
    let mut to_move = players[0].clone();
    for l in lines {
        let w: Vec<&str> = l.split_whitespace().collect();
        match w[0] {
            "boat" => {
                boats.push_str(&format!(
                    "  - name: boat\n    owner: {}\n    pieces:\n",
                    w[1]
                ));
                for k in &w[2..] {
                    boats.push_str(&format!("      - {{ owner: {}, kind: {k} }}\n", w[1]));
                }
            }
            "coins" => counters.push_str(&format!(
                "  - {{ name: coins, player: {}, value: {} }}\n",
                w[1], w[2]
            )),
            "counter" => counters.push_str(&format!("  - {{ name: {}, value: {} }}\n", w[1], w[2])),
            "down" | "stone" => {
                let t = tiles.iter_mut().find(|t| t.0 == w[1]).unwrap();
                t.1 = w[0].into();
                t.2 = w.get(2).map(|x| x.to_string());
                if w[0] == "stone" {
                    marks.push_str(&format!(
                        "  - {{ cell: {}, name: stone, value: \"1\", known_by: {all} }}\n",
                        w[1]
                    ));
                }
            }
            "turned" => marks.push_str(&format!(
                "  - {{ cell: {}, name: stone, value: \"1\", known_by: {all} }}\n",
                w[1]
            )),
            "water" => {
                tiles.retain(|t| t.0 != w[1]);
                water.push(w[1].to_string());
            }
            "loot" => cell_counters.push_str(&format!(
                "  - {{ name: coins, cell: {}, value: {} }}\n",
                w[1], w[2]
            )),
            "flag" => marks.push_str(&format!(
                "  - {{ cell: {}, name: item, value: flag, known_by: {all} }}\n",
                w[1]
            )),
            "to_move" => to_move = w[1].into(),
            owner => {
                let mut attrs = Vec::new();
                for x in &w[3..] {
                    attrs.push(format!("{x}: 1"));
                }
                pieces.push_str(&format!(
                    "  - {{ at: {}, owner: {owner}, kind: {}, attrs: {{ {} }} }}\n",
                    w[2],
                    w[1],
                    attrs.join(", ")
                ));
            }
        }
    }
    let mut bags: [Vec<String>; 2] = Default::default();
    for (c, face, token) in &tiles {
        marks.push_str(&format!(
            "  - {{ cell: {c}, name: tile, value: {face}, known_by: {all} }}\n"
        ));
        if let Some(x) = token {
            bags[usize::from(face == "stone")].push(x.clone());
        }
    }
    let mut yaml = format!("variant: lost_island\nto_move: {to_move}\npieces:\n{pieces}");
    if !boats.is_empty() {
        yaml.push_str(&format!("containers:\n{boats}"));
    }
    if !counters.is_empty() {
        yaml.push_str(&format!("counters:\n{counters}"));
    }
    yaml.push_str(&format!("marks:\n{marks}"));
    if !cell_counters.is_empty() {
        yaml.push_str(&format!("cell_counters:\n{cell_counters}"));
    }
    if !water.is_empty() {
        yaml.push_str(&format!("terrain:\n  water: [{}]\n", water.join(", ")));
    }
    let mut s = position(e, &yaml);
    for (name, tokens) in ["tiles", "stones"].iter().zip(bags) {
        let items = tokens
            .into_iter()
            .map(|value| Item { value, known_by: 0 })
            .collect();
        match s.containers.iter_mut().find(|c| c.name == *name) {
            Some(c) => c.items = items,
            None => s.containers.push(Container {
                name: name.to_string(),
                owner: None,
                pieces: Vec::new(),
                items,
            }),
        }
    }
    s
}

fn two() -> Engine {
    engine("lost_island", &[("players", "2")])
}

/// Owner and kind on a cell.
fn at(e: &Engine, s: &GameState, cell: &str) -> Option<String> {
    let c = e.variant.board.parse_cell(cell).unwrap();
    s.piece_at(c).map(|id| {
        let p = &s.pieces[id as usize];
        format!(
            "{} {}",
            e.player_name(p.owner),
            e.variant.kinds[p.kind as usize].name
        )
    })
}

fn boat(e: &Engine, s: &GameState, player: &str) -> Vec<String> {
    let p = e.variant.player_index(player).unwrap() as u8;
    s.containers
        .iter()
        .find(|c| c.name == "boat" && c.owner == Some(p))
        .map(|c| {
            c.pieces
                .iter()
                .map(|&id| {
                    e.variant.kinds[s.pieces[id as usize].kind as usize]
                        .name
                        .clone()
                })
                .collect()
        })
        .unwrap_or_default()
}

fn coins(e: &Engine, s: &GameState, player: &str) -> i64 {
    s.counter("coins", Some(e.variant.player_index(player).unwrap() as u8))
}

fn attr(e: &Engine, s: &GameState, cell: &str, name: &str) -> i64 {
    let c = e.variant.board.parse_cell(cell).unwrap();
    let id = s.piece_at(c).expect("a piece");
    s.attrs(id)
        .iter()
        .find(|(k, _)| k == name)
        .map(|x| x.1)
        .unwrap_or(0)
}

fn mark(e: &Engine, s: &GameState, cell: &str, name: &str) -> Option<String> {
    let c = e.variant.board.parse_cell(cell).unwrap();
    s.marks.get(&(c, name.to_string())).map(|m| m.value.clone())
}

fn cell_coins(e: &Engine, s: &GameState, cell: &str) -> i64 {
    s.cell_counter("coins", e.variant.board.parse_cell(cell).unwrap())
}

fn is_water(e: &Engine, s: &GameState, cell: &str) -> bool {
    let c = e.variant.board.parse_cell(cell).unwrap();
    s.terrain()[c as usize] & e.variant.board.blocking != 0
}

fn has(e: &Engine, s: &GameState, action: &str) -> bool {
    legal(e, s).iter().any(|a| a == action)
}

fn to_move(e: &Engine, s: &GameState) -> String {
    e.player_name(s.to_move).to_string()
}

// ------------------------------------------------------------ actions

#[test]
fn two_actions_then_buying_then_end() {
    let e = two();
    let mut s = island(&e, &["red v3 c3", "blue v4 f6", "coins red 1"]);
    assert!(has(&e, &s, "c3-c4"));
    play(&e, &mut s, &["c3-c4", "c4-c5"]);
    assert_eq!(to_move(&e, &s), "red", "the turn goes on until `end`");
    assert!(!has(&e, &s, "c5-c6"), "two actions at most");
    assert!(has(&e, &s, "ring c5"), "buying after the actions");
    play(&e, &mut s, &["ring c5"]);
    assert_eq!(attr(&e, &s, "c5", "ring"), 1);
    assert!(!has(&e, &s, "ring c5"), "one ring per scout");
    play(&e, &mut s, &["end"]);
    // Shrinking: a free tile of the outer ring, chosen by red.
    let l = legal(&e, &s);
    assert!(l.contains(&"a1".to_string()) && !l.contains(&"c3".to_string()));
    play(&e, &mut s, &["a1"]);
    assert!(is_water(&e, &s, "a1"));
    assert_eq!(to_move(&e, &s), "blue");
}

#[test]
fn buying_closes_the_actions_unless_power_ups_any_time() {
    let e = two();
    let mut s = island(&e, &["red v3 c3", "blue v4 f6", "coins red 2"]);
    play(&e, &mut s, &["ring c3"]);
    assert!(!has(&e, &s, "c3-c4"));
    let e = engine(
        "lost_island",
        &[("players", "2"), ("power_ups_any_time", "true")],
    );
    let mut s = island(&e, &["red v3 c3", "blue v4 f6", "coins red 2"]);
    play(&e, &mut s, &["ring c3", "c3-c4", "c4-c5"]);
    assert_eq!(at(&e, &s, "c5").unwrap(), "red v3");
}

#[test]
fn flipping_loot_leaves_coins_for_a_later_turn() {
    let e = two();
    let mut s = island(&e, &["red v3 c3", "blue v4 f6", "down c4 loot2", "down d3"]);
    assert!(has(&e, &s, "flip c4"));
    assert!(!has(&e, &s, "flip b3"), "face-up tiles are not flipped");
    play(&e, &mut s, &["flip c4"]);
    assert_eq!(cell_coins(&e, &s, "c4"), 2);
    assert_eq!(mark(&e, &s, "c4", "tile").unwrap(), "up");
    play(&e, &mut s, &["c3-c4"]);
    assert_eq!(
        coins(&e, &s, "red"),
        0,
        "not claimable in the turn it was found"
    );
    play(&e, &mut s, &["end", "a1", "end", "a2", "c4-c5", "c5-c4"]);
    assert_eq!(coins(&e, &s, "red"), 2);
    assert_eq!(cell_coins(&e, &s, "c4"), 0);
}

#[test]
fn flip_needs_an_orthogonal_free_tile_without_the_flag() {
    let e = two();
    let s = island(
        &e,
        &[
            "red v3 c3",
            "blue v4 c4",
            "down c4 loot1",
            "down d4 loot1",
            "down b3 loot1",
            "flag b3",
        ],
    );
    assert!(!has(&e, &s, "flip c4"), "a scout stands on it");
    assert!(!has(&e, &s, "flip d4"), "diagonal");
    assert!(!has(&e, &s, "flip b3"), "the flag lies on it");
}

#[test]
fn entering_a_stone_tile_turns_it_flag_or_loot() {
    let e = two();
    let mut s = island(
        &e,
        &["red v3 b3", "blue v4 f6", "stone b2 flag", "stone e2"],
    );
    play(&e, &mut s, &["b3-b2"]);
    assert_eq!(attr(&e, &s, "b2", "flag"), 1);
    assert_eq!(mark(&e, &s, "b2", "tile").unwrap(), "up");
    let mut s = island(&e, &["red v3 e3", "blue v4 f6", "stone e2 loot3"]);
    play(&e, &mut s, &["e3-e2"]);
    assert_eq!(coins(&e, &s, "red"), 3);
}

// ------------------------------------------------------------ fights

#[test]
fn fights_higher_stays_lower_to_the_back_of_its_boat() {
    let e = two();
    let mut s = island(&e, &["red v5 c3", "blue v4 c4", "boat blue v6"]);
    play(&e, &mut s, &["c3xc4"]);
    assert_eq!(
        at(&e, &s, "c4").unwrap(),
        "red v5",
        "the winner takes the tile"
    );
    assert_eq!(boat(&e, &s, "blue"), ["v6", "v4"]);
    // Both values are shown to everybody.
    let c4 = e.variant.board.parse_cell("c4").unwrap();
    assert_eq!(s.pieces[s.piece_at(c4).unwrap() as usize].known_by, 3);
    // The attacker loses.
    let mut s = island(&e, &["red v2 c3", "blue v4 c4"]);
    play(&e, &mut s, &["c3xc4"]);
    assert_eq!(at(&e, &s, "c4").unwrap(), "blue v4");
    assert_eq!(at(&e, &s, "c3"), None);
    assert_eq!(boat(&e, &s, "red"), ["v2"]);
    // A tie: both go back.
    let mut s = island(&e, &["red v4 c3", "blue v4 c4"]);
    play(&e, &mut s, &["c3xc4"]);
    assert_eq!((at(&e, &s, "c3"), at(&e, &s, "c4")), (None, None));
    assert_eq!(boat(&e, &s, "red"), ["v4"]);
    assert_eq!(boat(&e, &s, "blue"), ["v4"]);
}

#[test]
fn a_one_beats_a_six_whoever_attacks_and_rings_do_not_change_that() {
    let e = two();
    for (a, d, winner) in [
        ("v1", "v6", "red v1"),
        ("v6", "v1", "blue v1"),
        ("v1 ring", "v6", "red v1"),
        ("v6 ring", "v1", "blue v1"),
        ("v1 ring", "v5", "blue v5"),
    ] {
        let (ak, ar) = a.split_once(' ').unwrap_or((a, ""));
        let mut s = island(&e, &[&format!("red {ak} c3 {ar}"), &format!("blue {d} c4")]);
        play(&e, &mut s, &["c3xc4"]);
        let w = at(&e, &s, "c4").or(at(&e, &s, "c3")).unwrap();
        assert_eq!(w, winner, "{a} against {d}");
    }
}

#[test]
fn a_ring_adds_one_to_the_next_fight_then_is_gone() {
    let e = two();
    let mut s = island(&e, &["red v3 c3 ring", "blue v4 c4"]);
    play(&e, &mut s, &["c3xc4"]);
    assert_eq!(
        (at(&e, &s, "c3"), at(&e, &s, "c4")),
        (None, None),
        "3+1 ties 4"
    );
    let mut s = island(&e, &["red v4 c3 ring", "blue v4 c4"]);
    play(&e, &mut s, &["c3xc4"]);
    assert_eq!(at(&e, &s, "c4").unwrap(), "red v4");
    assert_eq!(attr(&e, &s, "c4", "ring"), 0, "the ring is used up");
}

#[test]
fn the_flag_changes_hands_and_drops_on_a_tie() {
    let e = two();
    let mut s = island(&e, &["red v5 c3", "blue v4 c4 flag", "red v2 a1"]);
    play(&e, &mut s, &["c3xc4"]);
    assert_eq!(attr(&e, &s, "c4", "flag"), 1);
    let mut s = island(&e, &["red v2 c3 flag", "blue v4 c4", "blue v6 f6"]);
    play(&e, &mut s, &["c3xc4"]);
    assert_eq!(
        attr(&e, &s, "c4", "flag"),
        1,
        "the defender beats the carrier"
    );
    let mut s = island(&e, &["red v4 c3", "blue v4 c4 flag", "blue v6 f6"]);
    play(&e, &mut s, &["c3xc4"]);
    assert_eq!(mark(&e, &s, "c4", "item").unwrap(), "flag");
    // Later, a scout entering the tile picks it up.
    let mut s = island(&e, &["red v4 c3", "blue v6 f6", "flag c4"]);
    play(&e, &mut s, &["c3-c4"]);
    assert_eq!(attr(&e, &s, "c4", "flag"), 1);
    assert_eq!(mark(&e, &s, "c4", "item"), None);
}

#[test]
fn secret_fights_show_values_only_to_the_fighters() {
    let e = engine(
        "lost_island",
        &[("players", "3"), ("secret_fights", "true")],
    );
    let mut s = island(&e, &["red v5 c3", "blue v4 c4", "green v2 f6"]);
    play(&e, &mut s, &["c3xc4"]);
    let c4 = e.variant.board.parse_cell("c4").unwrap();
    let p = &s.pieces[s.piece_at(c4).unwrap() as usize];
    assert_eq!(p.known_by, 0b011, "red and blue know, green does not");
    let gv = Views::new(&e).view(&s, Viewer::Player(2));
    assert!(gv.cells[c4 as usize].as_ref().unwrap().kind.is_none());
}

// ------------------------------------------------------------ swimming, reinforcing

#[test]
fn swimming_through_connected_shallow_water() {
    let e = two();
    let s = island(
        &e,
        &[
            "red v3 a3",
            "blue v4 d2",
            "water a2",
            "water b2",
            "water c2",
            "water c1",
        ],
    );
    let swims: Vec<String> = legal(&e, &s)
        .into_iter()
        .filter(|a| a.contains('~'))
        .collect();
    assert!(swims.contains(&"a3~b1".to_string()));
    assert!(swims.contains(&"a3~d1".to_string()));
    assert!(swims.contains(&"a3~c3".to_string()));
    assert!(
        swims.contains(&"a3~d2".to_string()),
        "onto an enemy: a fight"
    );
    assert!(
        !swims.contains(&"a3~a4".to_string()),
        "not next to that water"
    );
    // A swim into a fight counts as the second action.
    let mut s = s;
    play(&e, &mut s, &["a3~d2"]);
    assert!(!legal(&e, &s)
        .iter()
        .any(|a| a.contains('-') || a.contains('~')));
}

#[test]
fn a_swimmer_keeps_the_flag() {
    let e = two();
    let mut s = island(
        &e,
        &["red v3 a3 flag", "blue v4 f6", "water a2", "water b2"],
    );
    play(&e, &mut s, &["a3~c2"]);
    assert_eq!(attr(&e, &s, "c2", "flag"), 1);
}

#[test]
fn reinforcing_lands_next_to_an_own_scout_and_takes_loot() {
    let e = two();
    let mut s = island(
        &e,
        &[
            "red v3 c3",
            "blue v4 f6",
            "boat red v5 v6",
            "loot c4 2",
            "coins red 1",
        ],
    );
    let r: Vec<String> = legal(&e, &s)
        .into_iter()
        .filter(|a| a.starts_with("reinforce"))
        .collect();
    assert_eq!(
        r,
        [
            "reinforce b3",
            "reinforce c2",
            "reinforce c4",
            "reinforce d3"
        ]
    );
    play(&e, &mut s, &["reinforce c4"]);
    assert_eq!(at(&e, &s, "c4").unwrap(), "red v5", "the front of the boat");
    assert_eq!(boat(&e, &s, "red"), ["v6"]);
    assert_eq!(coins(&e, &s, "red"), 3);
    assert!(
        !legal(&e, &s).iter().any(|a| a.starts_with("reinforce")),
        "once per turn as an action"
    );
    // And once more, bought.
    assert!(has(&e, &s, "buy reinforce c5"));
    play(&e, &mut s, &["buy reinforce c5"]);
    assert_eq!(boat(&e, &s, "red"), Vec::<String>::new());
}

#[test]
fn reinforcing_without_an_adjacent_free_tile_lands_anywhere_free() {
    let e = two();
    let s = island(&e, &["blue v4 f6", "boat red v5"]);
    let r: Vec<String> = legal(&e, &s)
        .into_iter()
        .filter(|a| a.starts_with("reinforce"))
        .collect();
    assert_eq!(r.len(), 35);
    let s = island(
        &e,
        &["red v1 a1", "blue v4 a2", "blue v4 b1", "boat red v5"],
    );
    let r: Vec<String> = legal(&e, &s)
        .into_iter()
        .filter(|a| a.starts_with("reinforce"))
        .collect();
    assert_eq!(
        r.len(),
        33,
        "any free tile when none is next to red's scouts"
    );
}

// ------------------------------------------------------------ power-ups

#[test]
fn spying_shows_one_value_to_one_player_in_a_straight_line_over_water() {
    let e = engine("lost_island", &[("players", "3")]);
    let mut s = island(
        &e,
        &[
            "red v3 a1",
            "blue v4 a4",
            "blue v2 c1",
            "green v5 e1",
            "coins red 1",
            "water a2",
        ],
    );
    assert!(has(&e, &s, "spy a4"), "water does not block");
    assert!(has(&e, &s, "spy c1"));
    assert!(!has(&e, &s, "spy e1"), "not past another scout");
    play(&e, &mut s, &["spy a4"]);
    let a4 = e.variant.board.parse_cell("a4").unwrap();
    assert_eq!(s.pieces[s.piece_at(a4).unwrap() as usize].known_by, 0b011);
    assert_eq!(coins(&e, &s, "red"), 0);
}

// ------------------------------------------------------------ bombs

#[test]
fn a_bomb_hits_every_scout_in_its_lines_own_ones_and_across_water() {
    let e = two();
    let mut s = island(
        &e,
        &[
            "red v3 c2",
            "red v5 c6",
            "blue v3 a3",
            "blue v1 f3",
            "blue v2 e5",
            "down c3 bomb3_orth",
            "water d3",
        ],
    );
    play(&e, &mut s, &["flip c3"]);
    // The flipper orders the hits.
    let l = legal(&e, &s);
    assert_eq!(l, ["a3", "c2", "c6", "f3"], "e5 is not on the lines");
    // The last one needs no choice.
    play(&e, &mut s, &["c6", "f3", "a3"]);
    assert_eq!(at(&e, &s, "c6").unwrap(), "red v5", "higher stays");
    assert_eq!(
        at(&e, &s, "f3"),
        None,
        "a 1 never beats a bomb (across water)"
    );
    assert_eq!(at(&e, &s, "a3"), None, "equal goes to the boat");
    assert_eq!(at(&e, &s, "c2"), None, "own scouts are hit too");
    assert_eq!(boat(&e, &s, "blue"), ["v1", "v3"]);
    assert_eq!(to_move(&e, &s), "red", "the turn goes on");
}

#[test]
fn a_line_bomb_asks_for_its_orientation_and_rings_count() {
    let e = two();
    let mut s = island(
        &e,
        &[
            "red v3 c2 ring",
            "blue v4 a3",
            "blue v5 c5",
            "down c3 bomb4_line",
        ],
    );
    play(&e, &mut s, &["flip c3"]);
    assert_eq!(legal(&e, &s), ["horizontal", "vertical"]);
    play(&e, &mut s, &["vertical", "c2"]);
    assert_eq!(
        at(&e, &s, "c2"),
        None,
        "3+1 equals the bomb: back to the boat"
    );
    assert_eq!(
        at(&e, &s, "a3").unwrap(),
        "blue v4",
        "not on the chosen line"
    );
    assert_eq!(at(&e, &s, "c5").unwrap(), "blue v5");
}

#[test]
fn a_bomb_expert_stops_the_bomb_midway_out_of_turn() {
    let e = engine("lost_island", &[("players", "3")]);
    let mut s = island(
        &e,
        &[
            "red v2 c2",
            "blue v2 c5",
            "green v2 a3",
            "coins green 2",
            "down c3 bomb3_orth",
        ],
    );
    play(&e, &mut s, &["flip c3", "c5"]);
    // Before the hit: red cannot pay, green is asked (blue has no coins).
    assert_eq!(e.acting_player(&s), Some(2));
    assert_eq!(legal(&e, &s), ["expert", "pass"]);
    play(&e, &mut s, &["pass"]);
    assert_eq!(at(&e, &s, "c5"), None);
    play(&e, &mut s, &["c2", "expert"]);
    assert_eq!(coins(&e, &s, "green"), 0);
    assert_eq!(
        at(&e, &s, "c2").unwrap(),
        "red v2",
        "not yet resolved: stays"
    );
    assert_eq!(at(&e, &s, "a3").unwrap(), "green v2");
    assert_eq!(e.acting_player(&s), Some(0), "back to red's turn");
}

#[test]
fn a_bomb_ends_the_game_at_once_when_a_hit_leaves_the_flag_holder_alone() {
    let e = two();
    let mut s = island(
        &e,
        &[
            "red v6 c4",
            "red v2 f3 flag",
            "blue v2 c5",
            "blue v3 a3",
            "down c3 bomb3_orth",
        ],
    );
    play(&e, &mut s, &["flip c3", "c4", "c5"]);
    assert!(s.outcome.is_none(), "blue's a3 is still on the island");
    // Nobody can pay an expert: the hit on a3 follows the choice at once,
    // and the game ends before the last hit (f3: the flag holder, value 2).
    play(&e, &mut s, &["a3"]);
    let o = s.outcome.clone().expect("ended before the hit on f3");
    assert_eq!(o.winners, [0]);
    assert_eq!(at(&e, &s, "f3").unwrap(), "red v2", "not hit");
}

// ------------------------------------------------------------ storms

#[test]
fn a_storm_pushes_scouts_away_off_the_island_and_onto_loot_and_stones() {
    let e = two();
    let mut s = island(
        &e,
        &[
            "red v5 d3",
            "red v3 c5",
            "blue v4 c6 flag",
            "blue v2 c2",
            "down c3 storm",
        ],
    );
    play(&e, &mut s, &["flip c3"]);
    assert_eq!(legal(&e, &s), ["east", "north", "south"]);
    play(&e, &mut s, &["north"]);
    assert_eq!(at(&e, &s, "c6").unwrap(), "red v3");
    assert_eq!(boat(&e, &s, "blue"), ["v4"], "pushed into the water");
    assert_eq!(
        attr(&e, &s, "c6", "flag"),
        1,
        "the flag stayed on its tile: picked up"
    );
    // Landing on loot.
    let mut s = island(
        &e,
        &["red v3 d3", "blue v2 c2", "down c3 storm", "loot c1 2"],
    );
    play(&e, &mut s, &["flip c3", "south"]);
    assert_eq!(coins(&e, &s, "blue"), 2);
    // Landing on a stone tile turns it.
    let mut s = island(
        &e,
        &["red v3 c4", "blue v2 b3", "down c3 storm", "stone a3 loot3"],
    );
    play(&e, &mut s, &["flip c3", "west"]);
    assert_eq!(coins(&e, &s, "blue"), 3);
    assert_eq!(mark(&e, &s, "a3", "tile").unwrap(), "up");
}

#[test]
fn a_storm_blows_a_flag_carrier_into_the_water_leaving_the_flag() {
    let e = two();
    let mut s = island(&e, &["red v3 d3", "blue v4 c6 flag", "down c3 storm"]);
    play(&e, &mut s, &["flip c3", "north"]);
    assert_eq!(mark(&e, &s, "c6", "item").unwrap(), "flag");
    assert_eq!(boat(&e, &s, "blue"), ["v4"]);
}

#[test]
fn storms_disappear_option_leaves_shallow_water() {
    let e = engine(
        "lost_island",
        &[("players", "2"), ("storms_disappear", "true")],
    );
    let mut s = island(&e, &["red v3 c4", "blue v4 c6", "down c3 storm"]);
    play(&e, &mut s, &["flip c3", "north"]);
    assert!(is_water(&e, &s, "c3"));
    assert_eq!(at(&e, &s, "c5").unwrap(), "red v3");
}

// ------------------------------------------------------------ shrinking, the end

#[test]
fn shrinking_goes_ring_by_ring_and_forces_an_occupied_tile_last() {
    let e = two();
    let mut lines = vec!["red v3 c3", "blue v4 a1 flag", "blue v2 c4", "turned e2"];
    let outer = [
        "b1", "c1", "d1", "e1", "f1", "a2", "f2", "a3", "f3", "a4", "f4", "a5", "f5", "a6", "b6",
        "c6", "d6", "e6", "f6",
    ];
    let water: Vec<String> = outer.iter().map(|c| format!("water {c}")).collect();
    lines.extend(water.iter().map(String::as_str));
    let mut s = island(&e, &lines);
    // Only a1 is left in the outer ring, and a scout stands there: removed.
    play(&e, &mut s, &["end"]);
    assert!(is_water(&e, &s, "a1"));
    assert_eq!(boat(&e, &s, "blue"), ["v4"]);
    // The flag moves to the nearest island tile: b2 (stone? no: plain here).
    assert_eq!(mark(&e, &s, "b2", "item").unwrap(), "flag");
    // Next: the middle ring; never a stone tile or the flag's tile.
    play(&e, &mut s, &["end"]);
    let l = legal(&e, &s);
    assert!(!l.contains(&"b2".to_string()));
    assert!(!l.contains(&"e2".to_string()), "a stone tile (turned)");
    assert!(l.contains(&"c2".to_string()));
    assert!(!l.contains(&"c3".to_string()), "the centre comes last");
}

#[test]
fn a_turned_stone_tile_is_never_removed() {
    let e = two();
    let water = outer_water_except(&[]);
    let mut lines = vec!["red v3 c3", "blue v4 d4", "turned b2"];
    lines.extend(water.iter().map(String::as_str));
    let mut s = island(&e, &lines);
    play(&e, &mut s, &["end"]);
    let l = legal(&e, &s);
    assert!(!l.contains(&"b2".to_string()), "{l:?}");
    assert!(l.contains(&"c2".to_string()));
}

#[test]
fn the_flags_stone_tile_is_an_ordinary_tile_once_the_flag_has_left_it() {
    let e = two();
    let water = outer_water_except(&[]);
    let mut lines = vec!["red v3 b3", "blue v4 d4", "stone b2 flag", "turned e2"];
    lines.extend(water.iter().map(String::as_str));
    let mut s = island(&e, &lines);
    play(&e, &mut s, &["b3-b2", "b2-c2", "end"]);
    let l = legal(&e, &s);
    assert!(l.contains(&"b2".to_string()), "the flag left it: {l:?}");
    assert!(
        !l.contains(&"e2".to_string()),
        "a loot stone tile stays: {l:?}"
    );
    play(&e, &mut s, &["b2"]);
    assert!(is_water(&e, &s, "b2"));
}

#[test]
fn no_shrinking_without_a_scout_on_the_island() {
    let e = two();
    let mut s = island(&e, &["blue v4 c4", "boat red v3"]);
    play(&e, &mut s, &["end"]);
    assert_eq!(to_move(&e, &s), "blue");
    assert!(!is_water(&e, &s, "a1"));
}

#[test]
fn removing_a_face_down_tile_shows_it_unless_removed_face_down() {
    let e = two();
    let mut s = island(
        &e,
        &["red v3 c3", "blue v4 c4", "down a1 bomb2_orth", "red v1 b1"],
    );
    let events = {
        let a = common::act(&e, &s, "end");
        e.apply(&mut s, &a).unwrap();
        let a = common::act(&e, &s, "a1");
        e.apply(&mut s, &a).unwrap()
    };
    let lines = Views::new(&e)
        .event_lines(&s, &events, Viewer::Player(1))
        .join("\n");
    assert!(lines.contains("bomb2_orth"), "{lines}");
    assert_eq!(
        at(&e, &s, "b1").unwrap(),
        "red v1",
        "its bomb has no effect"
    );
    let e = engine(
        "lost_island",
        &[("players", "2"), ("removed_face_down", "true")],
    );
    let mut s = island(&e, &["red v3 c3", "blue v4 c4", "down a1 bomb2_orth"]);
    play(&e, &mut s, &["end"]);
    let a = common::act(&e, &s, "a1");
    let events = e.apply(&mut s, &a).unwrap();
    let lines = Views::new(&e)
        .event_lines(&s, &events, Viewer::Player(1))
        .join("\n");
    assert!(!lines.contains("bomb"), "{lines}");
}

/// Every outer tile gone except those named.
fn outer_water_except(keep: &[&str]) -> Vec<String> {
    let outer = [
        "a1", "b1", "c1", "d1", "e1", "f1", "a2", "f2", "a3", "f3", "a4", "f4", "a5", "f5", "a6",
        "b6", "c6", "d6", "e6", "f6",
    ];
    outer
        .iter()
        .filter(|c| !keep.contains(c))
        .map(|c| format!("water {c}"))
        .collect()
}

#[test]
fn shrink_storms_option_a_storm_under_a_removed_tile_works() {
    let e = engine(
        "lost_island",
        &[("players", "2"), ("shrink_storms", "true")],
    );
    let water = outer_water_except(&["a1", "b1", "c1"]);
    let mut lines = vec!["red v3 c3", "blue v4 b1", "red v2 c1", "down a1 storm"];
    lines.extend(water.iter().map(String::as_str));
    let mut s = island(&e, &lines);
    play(&e, &mut s, &["end"]);
    // Only a1 is free in the outer ring: removed, and the storm works.
    assert_eq!(legal(&e, &s), ["east"]);
    play(&e, &mut s, &["east"]);
    assert_eq!(at(&e, &s, "c1").unwrap(), "blue v4");
    assert_eq!(boat(&e, &s, "red"), ["v2"]);
    assert_eq!(to_move(&e, &s), "blue");
    // Without the option the storm has no effect.
    let e = two();
    let mut s = island(&e, &lines);
    play(&e, &mut s, &["end"]);
    assert_eq!(at(&e, &s, "b1").unwrap(), "blue v4");
    assert_eq!(to_move(&e, &s), "blue");
}

#[test]
fn extra_loot_option_loot_under_a_removed_tile_after_a_won_fight() {
    let water = outer_water_except(&["a1"]);
    let mut lines = vec!["red v5 c3", "blue v4 c4", "blue v1 e4", "down a1 loot3"];
    lines.extend(water.iter().map(String::as_str));
    for (extra, want) in [("true", 3), ("false", 0)] {
        let e = engine("lost_island", &[("players", "2"), ("extra_loot", extra)]);
        let mut s = island(&e, &lines);
        play(&e, &mut s, &["c3xc4", "end"]);
        assert!(is_water(&e, &s, "a1"));
        assert_eq!(coins(&e, &s, "red"), want, "extra_loot={extra}");
    }
    // No fight won: no extra loot.
    let e = engine("lost_island", &[("players", "2"), ("extra_loot", "true")]);
    let mut s = island(&e, &lines);
    play(&e, &mut s, &["end"]);
    assert_eq!(coins(&e, &s, "red"), 0);
}

#[test]
fn the_game_ends_when_the_flag_holder_is_alone_on_the_island() {
    let e = two();
    let mut s = island(&e, &["red v5 c3 flag", "blue v4 c4"]);
    play(&e, &mut s, &["c3xc4"]);
    let o = s.outcome.clone().expect("ended");
    assert_eq!(o.winners, [0]);
    // Not while another player's scout is on the island.
    let mut s = island(&e, &["red v5 c3 flag", "blue v4 c4", "blue v1 f6"]);
    play(&e, &mut s, &["c3xc4"]);
    assert!(s.outcome.is_none());
}

#[test]
fn free_setup_places_stones_then_scouts_one_at_a_time() {
    let e = engine(
        "lost_island",
        &[
            ("players", "2"),
            ("free_setup", "true"),
            ("choose_setup", "false"),
        ],
    );
    let mut s = e.new_game(1, &[]);
    play(&e, &mut s, &["c3", "d3", "c4", "d4"]);
    assert_eq!(mark(&e, &s, "c3", "tile").unwrap(), "stone");
    // Which scout, then where (one choice each).
    assert_eq!(e.acting_player(&s), Some(0));
    play(&e, &mut s, &["6"]);
    assert!(legal(&e, &s).iter().all(|o| o != "c3"), "stones stay free");
    play(&e, &mut s, &["a1"]);
    assert_eq!(e.acting_player(&s), Some(1), "one scout at a time, in turn");
    play(
        &e,
        &mut s,
        &["1", "f6", "5", "a2", "2", "f5", "4", "a3", "3", "f4"],
    );
    assert_eq!(at(&e, &s, "a1").unwrap(), "red v6");
    // Then the boats are ordered.
    assert_eq!(e.acting_player(&s), Some(0));
    play(&e, &mut s, &["3", "2"]);
    assert_eq!(boat(&e, &s, "red"), ["v3", "v2", "v1"]);
}

#[test]
fn chosen_setup_scouts_and_boat_order() {
    let e = engine("lost_island", &[("players", "2")]);
    let mut s = e.new_game(1, &[]);
    play(&e, &mut s, &["6", "5", "1", "2", "4"]);
    assert_eq!(at(&e, &s, "a1").unwrap(), "red v6");
    assert_eq!(at(&e, &s, "b1").unwrap(), "red v5");
    assert_eq!(at(&e, &s, "a2").unwrap(), "red v1");
    assert_eq!(boat(&e, &s, "red"), ["v2", "v4", "v3"]);
    // Blue's choices are hidden from red.
    assert_eq!(e.acting_player(&s), Some(1));
    let rv = Views::new(&e).view(&s, Viewer::Player(0));
    assert!(rv.pending.unwrap().options.is_none());
}

// ------------------------------------------------------------ declarations

/// Loads lost_island with one edit of its YAML; the error text.
fn load_edited(old: &str, new: &str) -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    for sub in ["variants", "scripts"] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
    }
    let yaml = std::fs::read_to_string(root.join("variants/lost_island.yaml")).unwrap();
    assert!(yaml.contains(old), "{old}");
    let path = dir.path().join("variants/lost_island.yaml");
    std::fs::write(&path, yaml.replacen(old, new, 1)).unwrap();
    std::fs::copy(
        root.join("scripts/lost_island.lua"),
        dir.path().join("scripts/lost_island.lua"),
    )
    .unwrap();
    match Engine::load(path.to_str().unwrap(), &[]) {
        Ok(_) => panic!("loaded"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn check_names_the_line_and_column_of_a_bad_query_or_token() {
    let yaml = include_str!("../variants/lost_island.yaml");
    let line_of = |s: &str| 1 + yaml.lines().position(|l| l.contains(s)).unwrap();
    let e = load_edited(
        "first_zone: [outer, middle, centre]",
        "first_zone: [outer, middel, centre]",
    );
    let at = format!("lost_island.yaml:{}:", line_of("first_zone: [outer"));
    assert!(
        e.contains(&at) && e.contains("unknown zone `middel`"),
        "{e}"
    );
    let e = load_edited(
        "where: [{ mark: tile }, { not: { mark: stone } }",
        "where: [tiled, { not: { mark: stone } }",
    );
    assert!(e.contains("unknown condition `tiled`"), "{e}");
    let e = load_edited("perform_if: { param: to,", "perform_if: { param: dest,");
    let at = format!("lost_island.yaml:{}:", line_of("perform_if: { param: to"));
    assert!(
        e.contains(&at) && e.contains("`dest` is not a parameter of this action"),
        "{e}"
    );
    let e = load_edited(
        "{ mark: item }, { counter: coins }]",
        "{ mark: item }, { counters: coins }]",
    );
    assert!(e.contains("unknown condition `{ counters: coins }`"), "{e}");
    let e = load_edited(
        "where: [{ not: { attr: ring } }]",
        "where: [{ not: { attr: [ring] } }]",
    );
    assert!(
        e.contains("expected an attribute's name, found `[ring]`"),
        "{e}"
    );
    let e = load_edited("prefer: [empty]", "prefer: [vacant]");
    assert!(e.contains("unknown condition `vacant`"), "{e}");
    let e = load_edited("loot1: { loot: 1 }", "loot1: { \"lo ot\": 1 }");
    let at = format!("lost_island.yaml:{}:", line_of("loot1: { loot: 1 }"));
    assert!(
        e.contains(&at) && e.contains("`lo ot` cannot be an attribute's name"),
        "{e}"
    );
    let e = load_edited("loot1: { loot: 1 }", "loot1: { loot: [1] }");
    assert!(e.contains("lost_island.yaml:"), "{e}");
}

#[test]
fn the_scripts_read_tiles_as_tokens_and_cells_from_queries() {
    let e = engine("lost_island", &[("players", "2")]);
    let s = island(
        &e,
        &["red v3 a1", "blue v4 f6", "down b1 loot2", "down a2 storm"],
    );
    let v = &e.variant;
    let eval = |code: &str| e.rules.eval(&s, v, code);
    let tokens =
        eval("return tokens.loot2.loot, tokens.storm.storm, tokens.bomb3_orth.pattern == 'orth'");
    assert_eq!(tokens.unwrap(), "2\ttrue\ttrue");
    // The outer ring still has tiles: its free ones (not a1 under red's
    // scout, nor f6 under blue's), in cell order.
    let q = eval("return #g:query('shrinkable'), g:query('shrinkable')[1] == 'b1'");
    assert_eq!(q.unwrap(), "18\ttrue");
    let l = eval("return table.concat(g:line('c3', 1, 1), ' ') == 'd4 e5 f6'");
    assert_eq!(l.unwrap(), "true");
    let err = eval("return g:query('nowhere')").unwrap_err();
    assert!(err.contains("unknown query `nowhere`"), "{err}");
}

#[test]
fn check_names_the_line_of_a_bad_win_choice_placing_or_mix() {
    let yaml = include_str!("../variants/lost_island.yaml");
    let line_of = |s: &str| 1 + yaml.lines().position(|l| l.contains(s)).unwrap();
    let e = load_edited("holds_attr: flag\n      alone: true", "alone: false");
    let at = format!("lost_island.yaml:{}:", line_of("win_when:") + 1);
    assert!(
        e.contains(&at) && e.contains("`rules.ends.win_when` needs a condition"),
        "{e}"
    );
    let e = load_edited("reason: \"{player} holds", "reason: \"{winner} holds");
    assert!(e.contains("the only placeholder is `{player}`"), "{e}");
    let e = load_edited("query: shrinkable", "query: shrinkables");
    let at = format!("lost_island.yaml:{}:", line_of("query: shrinkable"));
    assert!(
        e.contains(&at) && e.contains("`query: shrinkables` names no query"),
        "{e}"
    );
    let e = load_edited("handler: remove_tile", "handler: remove_tiles");
    assert!(
        e.contains("lost_island.yaml:")
            && e.contains("the script defines no function rules.remove_tiles"),
        "{e}"
    );
    let e = load_edited("    needs: boat\n    places: true", "    places: true");
    assert!(
        e.contains("lost_island.yaml:") && e.contains("`places` needs one parameter"),
        "{e}"
    );
    let e = load_edited("default: \"loot1:6,", "default: \"loot1:x6,");
    let at = format!("lost_island.yaml:{}:", line_of("tiles: { order: bag"));
    assert!(
        e.contains(&at) && e.contains("`loot1:x6`: the count is not a number"),
        "{e}"
    );
}

/// The stones and seats are list options: the YAML gives lists, a command
/// line a comma-separated list, and the script reads them as lists.
#[test]
fn seats_and_stones_are_list_options() {
    let cells_of = |e: &Engine, s: &GameState, p: u8| {
        let mut v: Vec<String> = s
            .pieces
            .iter()
            .filter(|q| q.owner == p)
            .filter_map(|q| match q.loc {
                sandtable::base::state::Loc::Cell(c) => Some(e.variant.board.cell_name(c)),
                _ => None,
            })
            .collect();
        v.sort();
        v
    };
    let opts = [("players", "2"), ("choose_setup", "false")];
    let e = engine("lost_island", &opts);
    let s = e.new_game(5, &[]);
    let swapped = engine(
        "lost_island",
        &[
            opts[0],
            opts[1],
            ("seats_2", "e5, b2"),
            ("stones", "b2,e2,b5,e5"),
        ],
    );
    let t = swapped.new_game(5, &[]);
    assert_eq!(cells_of(&swapped, &t, 0), cells_of(&e, &s, 1));
    assert_eq!(cells_of(&swapped, &t, 1), cells_of(&e, &s, 0));
    assert_eq!(cells_of(&e, &s, 0).len(), 3);
    use sandtable::rules::variant::Value;
    let listed = |e: &Engine, name: &str| match e.variant.option(name) {
        Some(Value::List(items)) => items.iter().map(|x| x.to_string()).collect(),
        other => panic!("{name}: {other:?}"),
    };
    let seats: Vec<String> = listed(&swapped, "seats_2");
    assert_eq!(seats, ["e5", "b2"]);
    assert_eq!(listed(&e, "stones").len(), 4);
}

/// A record keeps its start position, with the setup's first choice
/// pending, in the same words as before choices knew how they keep the
/// turn; replayed from it, the setup ends with the first player to move.
#[test]
fn a_start_position_with_the_setup_pending_replays_the_same() {
    let e = engine("lost_island", &[("players", "2")]);
    let s = e.new_game(1, &[]);
    let yaml = sandtable::record::to_yaml(&Positions::new(&e).to_position(&s)).unwrap();
    assert!(!yaml.contains("turn:"), "no new field: {yaml}");
    let pos: sandtable::record::Position = sandtable::record::parse_yaml(&yaml, "<test>").unwrap();
    let mut t = Positions::new(&e).from_position(&pos).unwrap();
    let answers = ["6", "5", "1", "2", "4", "6", "5", "1", "2", "4"];
    play(&e, &mut t, &answers);
    assert!(t.pending.is_empty());
    assert_eq!(e.acting_player(&t), Some(0), "red begins");
    let mut u = s.clone();
    play(&e, &mut u, &answers);
    assert_eq!(t.to_move, u.to_move);
}
