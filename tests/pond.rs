//! Rule tests for Pond (examples/variants/pond.yaml), the example of the
//! declared turn flow: the first player and phases with their own order
//! (and the hooks at their boundaries), a bag and per-player containers of
//! items with their visibility, and a reaction window out of turn.

mod common;
use common::{engine, legal, play};
use sandtable::base::state::{GameState, Item};
use sandtable::engine::Engine;
use sandtable::record::view::Viewer;
use sandtable::record::view::Views;

const POND: &str = "examples/variants/pond.yaml";

fn pond(options: &[(&str, &str)]) -> Engine {
    engine(POND, options)
}

fn who(e: &Engine, s: &GameState) -> String {
    assert!(s.outcome.is_none(), "{:?}", s.outcome);
    e.player_name(e.acting_player(s).unwrap()).to_string()
}

/// The container `name` of `owner` (`None`: shared).
fn items(e: &Engine, s: &GameState, name: &str, owner: Option<&str>) -> Vec<String> {
    let owner = owner.map(|o| e.variant.player_index(o).unwrap() as u8);
    s.containers
        .iter()
        .find(|c| c.name == name && c.owner == owner)
        .map(|c| c.items.iter().map(|i| i.value.clone()).collect())
        .unwrap_or_default()
}

/// Sets the pond's items (the next draws, whatever the generator picks,
/// come from these).
fn stock(s: &mut GameState, faces: &[&str]) {
    let k = s.containers.iter().position(|c| c.name == "pond").unwrap();
    s.containers[k].items = faces
        .iter()
        .map(|f| Item {
            value: f.to_string(),
            known_by: 0,
        })
        .collect();
}

fn coins(e: &Engine, s: &GameState, p: &str) -> i64 {
    s.counter("coins", Some(e.variant.player_index(p).unwrap() as u8))
}

/// A game moored: jade on `jade_at`, amber on `amber_at`, amber to fish.
fn moored(e: &Engine, jade_at: &str, amber_at: &str) -> GameState {
    let mut s = e.new_game(1, &[]);
    play(
        e,
        &mut s,
        &[&format!("moor {jade_at}"), &format!("moor {amber_at}")],
    );
    s
}

#[test]
fn mooring_goes_in_reverse_order_then_fishing_starts_with_the_first_player() {
    let e = pond(&[]);
    let mut s = e.new_game(1, &[]);
    assert_eq!(
        who(&e, &s),
        "jade",
        "reverse order: the player before amber"
    );
    assert_eq!(
        Views::new(&e).view(&s, Viewer::Public).phase.as_deref(),
        Some("mooring")
    );
    assert!(legal(&e, &s).iter().all(|a| a.starts_with("moor ")));
    play(&e, &mut s, &["moor b2"]);
    assert_eq!(who(&e, &s), "amber");
    assert!(!legal(&e, &s).contains(&"moor b2".to_string()));
    play(&e, &mut s, &["moor a1"]);
    assert_eq!(
        Views::new(&e).view(&s, Viewer::Public).phase.as_deref(),
        Some("fishing")
    );
    assert_eq!(who(&e, &s), "amber", "the first player opens the phase");
    assert_eq!(legal(&e, &s), ["a1-a2", "a1-b1", "fish"]);
    assert_eq!(coins(&e, &s, "jade"), 2, "rules.on_phase_start paid them");
    play(&e, &mut s, &["fish"]);
    assert_eq!(who(&e, &s), "jade", "then clockwise");
}

#[test]
fn the_first_player_is_an_option_a_seat_or_random() {
    let e = pond(&[("first", "jade")]);
    let s = e.new_game(1, &[]);
    assert_eq!(who(&e, &s), "amber", "jade first: amber moors first");
    let e = pond(&[("first", "random")]);
    let firsts: Vec<String> = (0..16)
        .map(|seed| who(&e, &e.new_game(seed, &[])))
        .collect();
    assert!(firsts.contains(&"amber".into()) && firsts.contains(&"jade".into()));
    assert_eq!(
        who(&e, &e.new_game(5, &[])),
        who(&e, &e.new_game(5, &[])),
        "seeded"
    );
}

#[test]
fn fishing_draws_from_the_bag_into_the_anglers_catch() {
    let e = pond(&[]);
    let s = e.new_game(1, &[]);
    assert_eq!(items(&e, &s, "pond", None).len(), 12);
    let mut s = moored(&e, "c3", "a1");
    stock(&mut s, &["trout", "minnow", "minnow"]);
    play(&e, &mut s, &["fish"]);
    assert_eq!(items(&e, &s, "pond", None).len(), 2);
    assert_eq!(items(&e, &s, "catch", Some("amber")).len(), 1);
    // From the middle of the pond, two tiles.
    let mut s = moored(&e, "c3", "b2");
    stock(&mut s, &["trout", "minnow", "minnow"]);
    play(&e, &mut s, &["fish"]);
    assert_eq!(items(&e, &s, "catch", Some("amber")).len(), 2);
}

#[test]
fn a_bag_shows_its_count_and_a_catch_only_to_its_owner() {
    let e = pond(&[]);
    let mut s = moored(&e, "c3", "a1");
    stock(&mut s, &["trout"]);
    play(&e, &mut s, &["fish"]);
    let view = |v| Views::new(&e).view(&s, v);
    let find = |v: &sandtable::record::view::View, name: &str, owner: Option<&str>| {
        v.containers
            .iter()
            .find(|c| c.name == name && c.owner.as_deref() == owner)
            .unwrap()
            .items
            .clone()
    };
    let amber = view(Viewer::Player(0));
    let jade = view(Viewer::Player(1));
    assert_eq!(
        find(&amber, "catch", Some("amber")),
        Some(vec![Some("trout".into())])
    );
    assert_eq!(
        find(&jade, "catch", Some("amber")),
        Some(vec![None]),
        "a count, no face"
    );
    assert_eq!(find(&jade, "pond", None), Some(vec![]));
    assert_eq!(
        find(&view(Viewer::Omniscient), "catch", Some("amber")),
        Some(vec![Some("trout".into())])
    );
}

#[test]
fn a_pike_opens_a_window_where_the_other_angler_acts() {
    let e = pond(&[]);
    let mut s = moored(&e, "c3", "a1");
    stock(&mut s, &["pike"]);
    play(&e, &mut s, &["fish"]);
    assert_eq!(who(&e, &s), "jade", "jade may react");
    assert_eq!(e.player_name(s.to_move), "amber", "in amber's turn");
    assert_eq!(legal(&e, &s), ["cut", "pass"]);
    let v = Views::new(&e).view(&s, Viewer::Public);
    assert_eq!(
        (v.window.as_deref(), v.acting.as_deref()),
        (Some("pike"), Some("jade"))
    );
    let a = e.parse_action(&s, "c3-c2").unwrap();
    let err = e.apply(&mut s.clone(), &a).unwrap_err().to_string();
    assert!(err.contains("jade is asked to react first (pike)"), "{err}");
    // Pass: the window closes, the pike is landed, the turn passes (and
    // the pond, fished out, ends the game).
    let mut passed = s.clone();
    play(&e, &mut passed, &["pass"]);
    assert_eq!(items(&e, &passed, "catch", Some("amber")), ["pike"]);
    assert!(passed.windows.is_empty());
    assert_eq!(passed.outcome.expect("over").winners, [0]);
    // Cut: a coin, and the pike swims back.
    play(&e, &mut s, &["cut"]);
    assert_eq!(coins(&e, &s, "jade"), 1);
    assert!(items(&e, &s, "catch", Some("amber")).is_empty());
    assert_eq!(items(&e, &s, "pond", None), ["pike"]);
    assert_eq!(who(&e, &s), "jade", "the turn passed as fishing ends it");
    assert_eq!(s.steps.actions, 0);
}

#[test]
fn a_player_who_cannot_pay_is_not_asked() {
    let e = pond(&[("coins", "0")]);
    let mut s = moored(&e, "c3", "a1");
    stock(&mut s, &["pike"]);
    play(&e, &mut s, &["fish"]);
    assert!(
        s.windows.is_empty(),
        "nobody able: the window closed at once"
    );
    assert_eq!(items(&e, &s, "catch", Some("amber")), ["pike"], "landed");
    assert!(
        s.outcome.is_some(),
        "and the turn passed: the pond is fished out"
    );
}

#[test]
fn the_best_catch_wins_when_the_pond_is_fished_out() {
    let e = pond(&[]);
    let mut s = moored(&e, "c3", "a1");
    stock(&mut s, &["trout"]);
    play(&e, &mut s, &["fish"]);
    let o = s.outcome.clone().expect("rules.on_turn_end ended it");
    assert_eq!(o.winners, [0]);
    assert!(o.reason.contains("best catch (2)"), "{}", o.reason);
}

#[test]
fn a_window_declared_after_an_action_asks_everyone_in_order() {
    // A copy of Pond where rowing opens a window that asks everyone, the
    // rower last, and keeps asking after a reaction.
    let dir = tempfile::tempdir().unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    std::fs::create_dir_all(dir.path().join("variants")).unwrap();
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    std::fs::copy(
        root.join("scripts/pond.lua"),
        dir.path().join("scripts/pond.lua"),
    )
    .unwrap();
    let yaml = std::fs::read_to_string(root.join("variants/pond.yaml")).unwrap().replace(
        "reactions:\n",
        "reactions:\n  wake:\n    after: [row]\n    who: all\n    ask: everyone\n    after_react: next\n    actions: [cut]\n  splash:\n    after: [row]\n    who: all\n    from: mover\n    ask: everyone\n    actions: [cut]\n",
    );
    let path = dir.path().join("variants/pond.yaml");
    std::fs::write(&path, yaml).unwrap();
    let e = Engine::load(path.to_str().unwrap(), &[]).unwrap();
    let mut s = moored(&e, "c3", "a1");
    stock(&mut s, &[]);
    play(&e, &mut s, &["a1-a2"]);
    // Both windows open after the row; the last declared is asked first,
    // the rower first (`from: mover`).
    assert_eq!(
        Views::new(&e).view(&s, Viewer::Public).window.as_deref(),
        Some("splash")
    );
    assert_eq!(who(&e, &s), "amber", "from: mover");
    play(&e, &mut s, &["pass", "pass"]);
    assert_eq!(who(&e, &s), "jade", "the next player first");
    assert_eq!(
        Views::new(&e).view(&s, Viewer::Public).window.as_deref(),
        Some("wake")
    );
    play(&e, &mut s, &["cut"]);
    assert_eq!(who(&e, &s), "amber", "after a reaction the next is asked");
    play(&e, &mut s, &["pass"]);
    assert!(s.windows.is_empty());
    assert_eq!(who(&e, &s), "jade", "rowing ended amber's turn");
    assert_eq!(coins(&e, &s, "jade"), 1);
}

/// A copy of Pond with one edit, loaded: the error text.
fn load_edited(old: &str, new: &str) -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let dir = tempfile::tempdir().unwrap();
    for sub in ["variants", "scripts"] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
    }
    let yaml = std::fs::read_to_string(root.join("variants/pond.yaml")).unwrap();
    assert!(yaml.contains(old), "{old}");
    let path = dir.path().join("variants/pond.yaml");
    std::fs::write(&path, yaml.replacen(old, new, 1)).unwrap();
    std::fs::copy(
        root.join("scripts/pond.lua"),
        dir.path().join("scripts/pond.lua"),
    )
    .unwrap();
    match Engine::load(path.to_str().unwrap(), &[]) {
        Ok(_) => panic!("loaded"),
        Err(e) => e
            .to_string()
            .replace(&dir.path().display().to_string(), "TMP"),
    }
}

#[test]
fn check_names_the_line_and_column_of_a_bad_flow_declaration() {
    insta::assert_snapshot!(
        "pond_bad_reaction_action",
        load_edited("actions: [cut]", "actions: [snip]")
    );
    insta::assert_snapshot!(
        "pond_bad_container_order",
        load_edited("order: bag", "order: sack")
    );
    insta::assert_snapshot!(
        "pond_bad_phase_action",
        load_edited("actions: [row, fish]", "actions: [row, fly]")
    );
    insta::assert_snapshot!(
        "pond_bad_first_player",
        load_edited("first: $first", "first: coral")
    );
    insta::assert_snapshot!(
        "pond_missing_on_pass",
        load_edited("on_pass: land", "on_pass: landed")
    );
    insta::assert_snapshot!(
        "pond_shared_container_for_owner",
        load_edited(
            "pond: { order: bag,",
            "pond: { order: bag, contents: owner,"
        )
    );
}

// ---- issue 38: declarations that cannot work are refused at load, with their place

/// [`load_edited`] that must fail with `want` at `line:col` of the YAML.
fn refused(old: &str, new: &str, place: &str, want: &str) {
    let err = load_edited(old, new);
    assert!(
        err.contains(&format!("TMP/variants/pond.yaml:{place}: ")) && err.contains(want),
        "{new}: {err}"
    );
}

#[test]
fn an_action_named_like_a_move_a_cell_or_pass_is_refused() {
    let fish = "  fish:\n    ends_turn: true\n    perform: fish\n";
    for (name, want) in [
        ("c2-c1", "reads as a move"),
        ("c2xc1", "reads as a move"),
        ("b2", "reads as a cell"),
        ("pass", "reserved"),
        ("offer-draw", "reserved"),
        ("#1", "reserved"),
    ] {
        refused(
            fish,
            &format!("{fish}  \"{name}\":\n    ends_turn: true\n    perform: fish\n"),
            "56:5",
            want,
        );
    }
    // Its text, too.
    refused(
        fish,
        "  fish:\n    text: pass\n    ends_turn: true\n    perform: fish\n",
        "53:11",
        "reserved",
    );
    // Two actions with the same text.
    refused(
        fish,
        &format!("{fish}  angle:\n    text: fish\n    ends_turn: true\n    perform: fish\n"),
        "56:11",
        "the same text as `fish`",
    );
    // An action listed twice in a phase or a reaction window.
    refused(
        "actions: [row, fish]",
        "actions: [row, fish, row]",
        "28:43",
        "`row` twice",
    );
    refused(
        "actions: [cut]",
        "actions: [cut, cut]",
        "37:20",
        "`cut` twice",
    );
}

#[test]
fn declarations_that_cannot_work_are_refused_with_their_place() {
    refused("amount: 1", "amount: -1", "56:5", "a cost is at least 0");
    for yes in ["\"yes\"", "yes", "on"] {
        refused(
            "catch: { per_player: true",
            &format!("catch: {{ per_player: {yes}"),
            "32:24",
            "expected true or false",
        );
    }
    let many: String = (0..300)
        .map(|i| format!("  c{i}: {{ order: bag }}\n"))
        .collect();
    refused(
        "  catch: { per_player: true, contents: owner }\n",
        &format!("  catch: {{ per_player: true, contents: owner }}\n{many}"),
        "287:9",
        "at most 256 containers, found 302",
    );
    refused(
        "    perform: fish\n",
        &format!("    perform: fish\n    text: {}\n", "x".repeat(1 << 20)),
        "55:11",
        "at most 200 bytes",
    );
}

#[test]
fn strike_at_range_on_a_step_is_refused() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let dir = tempfile::tempdir().unwrap();
    let yaml = std::fs::read_to_string(root.join("variants/mini_battle.yaml"))
        .unwrap()
        .replace(
            "moves: [{ step: orthogonal }] }",
            "moves: [{ step: orthogonal, strike_at_range: $nope }] }",
        )
        .replace("../scripts/mini_battle.lua", "rules.lua");
    std::fs::write(dir.path().join("rules.lua"), "").unwrap();
    let path = dir.path().join("m.yaml");
    std::fs::write(&path, yaml).unwrap();
    let err = Engine::load(path.to_str().unwrap(), &[])
        .err()
        .expect("refused")
        .to_string();
    assert!(
        err.contains("m.yaml:21:") && err.contains("strike_at_range"),
        "{err}"
    );
}

#[test]
fn windows_that_keep_opening_name_the_reaction_and_hook_that_open_them() {
    // A copy of Pond whose landing opens another pike window; with no
    // coins nobody is asked, so each closes at once and opens the next.
    let dir = tempfile::tempdir().unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    std::fs::create_dir_all(dir.path().join("variants")).unwrap();
    std::fs::create_dir_all(dir.path().join("scripts")).unwrap();
    let script = std::fs::read_to_string(root.join("scripts/pond.lua"))
        .unwrap()
        .replace(
            "  g:put_in(\"catch\", data.angler, \"pike\")\n",
            "  g:open_window(\"pike\", data)\n",
        );
    std::fs::write(dir.path().join("scripts/pond.lua"), script).unwrap();
    let path = dir.path().join("variants/pond.yaml");
    std::fs::copy(root.join("variants/pond.yaml"), &path).unwrap();
    let e = Engine::load(path.to_str().unwrap(), &[("coins".into(), "0".into())]).unwrap();
    let mut s = moored(&e, "c3", "a1");
    stock(&mut s, &["pike"]);
    let before = s.clone();
    let fish = e.parse_action(&s, "fish").unwrap();
    let err = e.apply(&mut s, &fish).unwrap_err().to_string();
    assert!(err.contains("over 64 in one action"), "{err}");
    assert!(
        err.contains("reaction `pike`") && err.contains("rules.land"),
        "{err}"
    );
    assert_eq!(s, before, "a failed action changes nothing");
}

#[test]
fn an_action_needing_a_container_nothing_makes_is_refused_at_its_place() {
    let fish = "  fish:\n    ends_turn: true\n    perform: fish\n";
    let err = load_edited(
        fish,
        &format!("{fish}  net:\n    needs: ctach\n    perform: fish\n"),
    );
    assert!(err.contains("names no container"), "{err}");
    assert!(err.contains("TMP/variants/pond.yaml:56:12: "), "{err}");
    assert!(err.contains("did you mean `catch`"), "{err}");
    // A container the script makes as it goes (Orchard's barns: declared
    // nowhere in its YAML) still loads.
    assert!(Engine::load("examples/variants/orchard.yaml", &[]).is_ok());
    assert!(Engine::load("variants/lost_island.yaml", &[]).is_ok());
}

/// A window's data may hold lists and maps too: `rules.<on_pass>` and
/// `g:window()` get them back as tables.
#[test]
fn a_windows_data_holds_lists_and_maps() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let dir = tempfile::tempdir().unwrap();
    for sub in ["variants", "scripts"] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
    }
    let lua = std::fs::read_to_string(root.join("scripts/pond.lua")).unwrap();
    let (old, new) = (
        "g:open_window(\"pike\", { angler = me })",
        "g:open_window(\"pike\", { angler = me, seen = { me, \"heron\" }, at = { ply = g:ply(), deep = { true } } })\n      local _, d = g:window()\n      assert(d == nil or d.seen[2] == \"heron\")",
    );
    assert!(lua.contains(old));
    let land = "function rules.land(g, data)\n";
    let check = "function rules.land(g, data)\n  assert(data.seen[1] == data.angler and data.seen[2] == \"heron\" and #data.seen == 2)\n  assert(data.at.deep[1] == true and data.at.ply >= 0)\n";
    assert!(lua.contains(land));
    let lua = lua.replacen(old, new, 1).replacen(land, check, 1);
    std::fs::write(dir.path().join("scripts/pond.lua"), lua).unwrap();
    let path = dir.path().join("variants/pond.yaml");
    std::fs::copy(root.join("variants/pond.yaml"), &path).unwrap();
    let e = Engine::load(path.to_str().unwrap(), &[]).unwrap_or_else(|e| panic!("{e}"));
    let mut s = moored(&e, "c3", "a1");
    stock(&mut s, &["pike"]);
    play(&e, &mut s, &["fish"]);
    assert!(format!("{:?}", s.windows[0].data).contains("heron"));
    play(&e, &mut s, &["pass"]);
    assert_eq!(items(&e, &s, "catch", Some("amber")), ["pike"]);
}

/// Issue 57: a reaction's legal filter, asked whom the window asks, that
/// answers neither a boolean nor a reason: the error names the line of
/// the script where the filter is defined, like any hook's wrong answer.
#[test]
fn a_windows_legal_filter_with_a_wrong_answer_names_its_line() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let dir = tempfile::tempdir().unwrap();
    for sub in ["variants", "scripts"] {
        std::fs::create_dir_all(dir.path().join(sub)).unwrap();
    }
    let script = std::fs::read_to_string(root.join("scripts/pond.lua")).unwrap();
    let line = script.lines().count() + 2;
    std::fs::write(
        dir.path().join("scripts/pond.lua"),
        format!("{script}\nfunction rules.can_cut(g, a)\n  return 1\nend\n"),
    )
    .unwrap();
    let yaml = std::fs::read_to_string(root.join("variants/pond.yaml"))
        .unwrap()
        .replacen(
            "    perform: cut\n",
            "    perform: cut\n    legal: can_cut\n",
            1,
        );
    let path = dir.path().join("variants/pond.yaml");
    std::fs::write(&path, yaml).unwrap();
    let e = Engine::load(path.to_str().unwrap(), &[]).unwrap();
    let mut s = moored(&e, "c3", "a1");
    stock(&mut s, &["pike"]);
    let before = s.clone();
    let fish = e.parse_action(&s, "fish").unwrap();
    let err = e.apply(&mut s, &fish).unwrap_err().to_string();
    let at = format!("pond.lua:{line}: ");
    assert!(
        err.contains(&at)
            && err.contains(
                "rules.can_cut must return true, false or a reason (a string), not an integer"
            ),
        "{at}\n{err}"
    );
    assert_eq!(s, before, "a failed action changes nothing");
}
