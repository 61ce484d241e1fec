//! Views must hold no identity the viewer does not know: not in the view, not
//! in its serialized form, not in the events shown to that player.

mod common;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sandtable::base::state::{GameState, PlayerId};
use sandtable::engine::Engine;
use sandtable::record::view::Viewer;
use sandtable::record::view::Views;

/// Shuffles the kinds of the pieces `viewer` does not know. A view that
/// leaks nothing is the same before and after.
fn shuffle_unknown(e: &Engine, s: &GameState, viewer: PlayerId, rng: &mut ChaCha8Rng) -> GameState {
    let mut t = s.clone();
    let unknown: Vec<usize> = (0..t.pieces.len())
        .filter(|&i| !t.knows(viewer, i as u16))
        .collect();
    let mut kinds: Vec<u16> = unknown.iter().map(|&i| t.pieces[i].kind).collect();
    kinds.shuffle(rng);
    for (i, k) in unknown.iter().zip(kinds) {
        t.set_kind(*i as u16, k);
    }
    let _ = e;
    t
}

#[test]
fn views_do_not_depend_on_hidden_identities() {
    let e = common::engine("classic_stratego", &[]);
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for seed in 0..6 {
        let mut s = e.new_game(seed, &[]);
        for ply in 0..300 {
            if s.outcome.is_some() {
                break;
            }
            if ply % 25 == 0 {
                for p in 0..2u8 {
                    let v1 = Views::new(&e).view(&s, Viewer::Player(p));
                    let t = shuffle_unknown(&e, &s, p, &mut rng);
                    let v2 = Views::new(&e).view(&t, Viewer::Player(p));
                    assert_eq!(v1, v2);
                    let j1 = serde_json::to_string(&v1).unwrap();
                    let j2 = serde_json::to_string(&v2).unwrap();
                    assert_eq!(j1, j2, "serialized view depends on hidden kinds");
                    // And the picture of the board as well.
                    assert_eq!(
                        Views::new(&e).render(&v1, None),
                        Views::new(&e).render(&v2, None)
                    );
                    // Every kind named in the JSON belongs to a piece the viewer knows.
                    for (c, cell) in v1.cells.iter().enumerate() {
                        if let (Some(vp), Some(id)) = (cell, s.board()[c]) {
                            assert_eq!(vp.kind.is_some(), s.knows(p, id));
                        }
                    }
                }
                // Spectators see only what everybody knows.
                let pv = Views::new(&e).view(&s, Viewer::Public);
                for (c, cell) in pv.cells.iter().enumerate() {
                    if let (Some(vp), Some(id)) = (cell, s.board()[c]) {
                        assert_eq!(vp.kind.is_some(), s.pieces[id as usize].known_by == 3);
                    }
                }
            }
            let acts = e.legal_actions(&s);
            let a = acts[rng.random_range(0..acts.len())];
            let before = s.clone();
            let events = e.apply(&mut s, &a).unwrap();
            // Events shown to the opponent of the mover name only what they know after it.
            let opp = 1 - before.to_move;
            let lines = Views::new(&e).event_lines(&s, &events, Viewer::Player(opp));
            let t = shuffle_unknown(&e, &s, opp, &mut rng);
            assert_eq!(
                lines,
                Views::new(&e).event_lines(&t, &events, Viewer::Player(opp))
            );
        }
    }
}

#[test]
fn the_opening_view_names_no_enemy_piece() {
    let e = common::engine("classic_stratego", &[]);
    let s = e.new_game(11, &[]);
    let json = serde_json::to_string(&Views::new(&e).view(&s, Viewer::Player(0))).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let mut blue_known = 0;
    for cell in v["cells"].as_array().unwrap() {
        if cell["owner"] == "blue" && !cell["kind"].is_null() {
            blue_known += 1;
        }
    }
    assert_eq!(blue_known, 0);
    // Piece ids follow the board, so they carry no identity either: the
    // same setup with two enemy kinds swapped gives the same ids.
    let mut t = s.clone();
    let blue: Vec<usize> = (0..t.pieces.len())
        .filter(|&i| t.pieces[i].owner == 1)
        .collect();
    let (a, b) = (blue[0], blue[1]);
    let (ka, kb) = (t.pieces[a].kind, t.pieces[b].kind);
    t.set_kind(a as u16, kb);
    t.set_kind(b as u16, ka);
    assert_eq!(
        json,
        serde_json::to_string(&Views::new(&e).view(&t, Viewer::Player(0))).unwrap()
    );
}

#[test]
fn a_record_for_one_player_holds_only_what_that_player_knew() {
    use sandtable::front::session::Session;
    for (variant, blue) in [
        ("classic_stratego", Viewer::Player(1)),
        ("ultimate_lightning", Viewer::Player(1)),
        ("ultimate_lightning", Viewer::Public),
    ] {
        let mut session = Session::new(variant, &[], 21).unwrap();
        session.execute("random 120").unwrap();
        let yaml = sandtable::record::to_yaml(&session.player_record(blue)).unwrap();
        // Permute the kinds of every piece blue never learned, in every state
        // of the game alike: blue's record must not change.
        let end = session.state.clone();
        let unknown: Vec<usize> = (0..end.pieces.len())
            .filter(|&i| !end.knows(1, i as u16))
            .collect();
        let mut kinds: Vec<u16> = unknown.iter().map(|&i| end.pieces[i].kind).collect();
        kinds.rotate_left(1);
        let permute = |s: &mut GameState| {
            for (&i, &k) in unknown.iter().zip(&kinds) {
                s.set_kind(i as u16, k);
            }
        };
        permute(&mut session.start);
        permute(&mut session.state);
        for p in &mut session.history {
            permute(&mut p.before);
        }
        let again = sandtable::record::to_yaml(&session.player_record(blue)).unwrap();
        assert_eq!(
            yaml, again,
            "{variant}: blue's record depends on what blue did not know"
        );
        assert!(kinds.len() > 5, "{variant}: the test needs hidden pieces");
    }
}

/// Shuffles what `viewer` does not know in a Lost Island-like state: the
/// kinds of unknown pieces, the values of cell marks hidden from it and
/// the faces of container items it does not know (across containers: a
/// token of one bag may change places with one of another).
fn shuffle_hidden(s: &GameState, viewer: Viewer, rng: &mut ChaCha8Rng) -> GameState {
    let knows = |set: u8| match viewer {
        Viewer::Player(p) => set & (1 << p) != 0,
        Viewer::Public => set == s.all_players(),
        Viewer::Omniscient => true,
    };
    let mut t = s.clone();
    let unknown: Vec<usize> = (0..t.pieces.len())
        .filter(|&i| !knows(t.pieces[i].known_by))
        .collect();
    let mut kinds: Vec<u16> = unknown.iter().map(|&i| t.pieces[i].kind).collect();
    kinds.shuffle(rng);
    for (i, k) in unknown.iter().zip(kinds) {
        t.set_kind(*i as u16, k);
    }
    let hidden: Vec<_> = t
        .marks
        .iter()
        .filter(|(_, m)| !knows(m.known_by))
        .map(|(k, _)| k.clone())
        .collect();
    let mut values: Vec<String> = hidden.iter().map(|k| t.marks[k].value.clone()).collect();
    values.shuffle(rng);
    for (k, v) in hidden.iter().zip(values) {
        t.marks.get_mut(k).unwrap().value = v;
    }
    let places: Vec<(usize, usize)> = (0..t.containers.len())
        .flat_map(|k| (0..t.containers[k].items.len()).map(move |i| (k, i)))
        .filter(|&(k, i)| !knows(t.containers[k].items[i].known_by))
        .collect();
    deal_faces(&mut t, places, rng);
    t
}

#[test]
fn lost_island_views_hide_scout_values_tiles_and_boats_with_2_3_and_4_players() {
    for n in 2..=4u8 {
        let count = n.to_string();
        for secret in ["false", "true"] {
            let e = common::engine(
                "lost_island",
                &[("players", count.as_str()), ("secret_fights", secret)],
            );
            let mut rng = ChaCha8Rng::seed_from_u64(n as u64);
            let mut hidden_tiles_seen = false;
            for seed in 0..3 {
                let mut s = e.new_game(seed, &[]);
                for ply in 0..400 {
                    if s.outcome.is_some() {
                        break;
                    }
                    if ply % 9 == 0 {
                        let mut viewers: Vec<Viewer> = (0..n).map(Viewer::Player).collect();
                        viewers.push(Viewer::Public);
                        for v in viewers {
                            let v1 = Views::new(&e).view(&s, v);
                            let t = shuffle_hidden(&s, v, &mut rng);
                            let v2 = Views::new(&e).view(&t, v);
                            assert_eq!(v1, v2, "view of {v:?} depends on hidden facts");
                            assert_eq!(
                                Views::new(&e).render(&v1, None),
                                Views::new(&e).render(&v2, None)
                            );
                            // Nobody sees into the bags of face-down tiles.
                            assert!(v1.containers.iter().all(|c| c
                                .items
                                .iter()
                                .flatten()
                                .all(Option::is_none)));
                            hidden_tiles_seen |= t.containers != s.containers;
                        }
                    }
                    let acts = e.legal_actions(&s);
                    let a = acts[rng.random_range(0..acts.len())];
                    let events = e.apply(&mut s, &a).unwrap();
                    for p in 0..n {
                        let v = Viewer::Player(p);
                        let lines = Views::new(&e).event_lines(&s, &events, v);
                        let t = shuffle_hidden(&s, v, &mut rng);
                        assert_eq!(
                            lines,
                            Views::new(&e).event_lines(&t, &events, v),
                            "events shown to {p} depend on hidden facts"
                        );
                    }
                }
            }
            assert!(hidden_tiles_seen, "the test needs face-down tiles");
        }
    }
}

/// Plays random actions in a session (drawn from `seed`) until `stop` holds
/// or `plies` are played.
fn play_until(session: &mut sandtable::front::session::Session, seed: u64, plies: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..plies {
        let mut acts = session.engine.legal_actions(&session.state);
        acts.retain(|a| !a.is_social());
        if acts.is_empty() {
            break;
        }
        let a = acts[rng.random_range(0..acts.len())];
        let text = session.engine.action_text(&session.state, &a);
        session.play(&text).unwrap();
    }
}

#[test]
fn lost_island_records_and_replays_for_a_viewer_hold_no_setup_answer() {
    use sandtable::front::session::Session;
    for players in ["2", "4"] {
        let o = [("players".to_string(), players.to_string())];
        let mut session = Session::new("lost_island", &o, 5).unwrap();
        play_until(&mut session, 5, 60);
        // The setup answers of the game: which scout starts where, the boat order.
        let setup: Vec<(usize, u8)> = session
            .history
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                let c = p.before.pending.first()?;
                c.reason.starts_with("which scout").then_some((i, c.player))
            })
            .collect();
        assert_eq!(setup.len(), 5 * players.parse::<usize>().unwrap());
        for viewer in [Viewer::Public, Viewer::Player(1)] {
            let name = Views::new(&session.engine).viewer_name(viewer);
            let rec = session.player_record(viewer);
            let yaml = sandtable::record::to_yaml(&rec).unwrap();
            let replay =
                sandtable::front::cli::replay_text(&session.record(), Some(&name)).unwrap();
            assert!(!yaml.contains("seed") && !replay.contains("seed"));
            for &(i, chooser) in &setup {
                let own = viewer == Viewer::Player(chooser);
                let shown = &rec.actions[i].action;
                assert_eq!(
                    own,
                    shown != "(choice)",
                    "{name}: action {i} shows `{shown}`"
                );
                let line = format!("{}. {}\n", i + 1, session.history[i].text);
                assert_eq!(own, replay.contains(&line), "{name}: replay shows `{line}`");
                // Nor the question (which tile) or the options.
                assert!(rec.actions[i]
                    .events
                    .iter()
                    .all(|e| own || !e.contains("which scout")));
            }
        }
    }
}

#[test]
fn ultimate_lightning_records_and_replays_show_a_rescue_and_nothing_hidden() {
    use sandtable::front::session::Session;
    let mut found = false;
    for seed in 0..40 {
        let mut session = Session::new("ultimate_lightning", &[], seed).unwrap();
        play_until(&mut session, seed, 600);
        let Some(i) = session.history.iter().position(|p| {
            p.before
                .pending
                .first()
                .is_some_and(|c| c.reason == "rescue")
        }) else {
            continue;
        };
        found = true;
        for viewer in [Viewer::Public, Viewer::Player(1), Viewer::Player(0)] {
            let name = Views::new(&session.engine).viewer_name(viewer);
            let rec = session.player_record(viewer);
            let yaml = sandtable::record::to_yaml(&rec).unwrap();
            let replay =
                sandtable::front::cli::replay_text(&session.record(), Some(&name)).unwrap();
            assert!(!yaml.contains("seed") && !replay.contains("seed"));
            // The rescue is public: its answer is in every record.
            assert_eq!(rec.actions[i].action, session.history[i].text);
            // Nothing else is hidden: no action is masked, and no kind
            // appears that the viewer did not know at the end.
            assert!(rec.actions.iter().all(|a| a.action != "(choice)"));
            let view = Views::new(&session.engine).view(&session.state, viewer);
            let pv = Views::new(&session.engine).view(&session.start, viewer);
            for (c, cell) in pv.cells.iter().enumerate() {
                if let (Some(p), Some(id)) = (cell, session.start.board()[c]) {
                    assert_eq!(p.kind.is_some(), viewer_knew(&session.start, viewer, id));
                }
            }
            assert!(view.pending.as_ref().is_none_or(|c| c.reason.is_none()
                || viewer == Viewer::Player(0)
                || session.state.pending[0].public));
        }
        break;
    }
    assert!(found, "no rescue in 40 random games");
}

fn viewer_knew(s: &GameState, viewer: Viewer, id: u16) -> bool {
    match viewer {
        Viewer::Player(p) => s.knows(p, id),
        Viewer::Public => s.pieces[id as usize].known_by == s.all_players(),
        Viewer::Omniscient => true,
    }
}

/// A copy of classic Stratego whose script, after every move, shows the
/// moved piece to everyone and then hides it again from the opponent;
/// `follow` adds the YAML declaration that lets a player follow it.
fn rehiding_variant(follow: bool) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let mut yaml = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/variants/classic_stratego.yaml"
    ))
    .unwrap()
    .replace(
        "script: ../scripts/classic_stratego.lua",
        "script: rules.lua",
    );
    if follow {
        yaml = yaml.replace(
            "  visibility:\n",
            "  visibility:\n    followable_when_hidden_again: true\n",
        );
        assert!(yaml.contains("followable_when_hidden_again"));
    }
    let base = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scripts/classic_stratego.lua"
    ))
    .unwrap();
    let lua = format!(
        "{base}\nfunction rules.after_action(g, action)\n  if action.kind ~= \"move\" then return end\n  g:reveal(action.piece, \"all\")\n  g:set_known(action.piece, action.player)\nend\n"
    );
    let path = dir.path().join("copy.yaml");
    std::fs::write(&path, yaml).unwrap();
    std::fs::write(dir.path().join("rules.lua"), lua).unwrap();
    (dir, path)
}

#[test]
fn a_piece_shown_and_hidden_again_is_refused_unless_the_variant_lets_players_follow_it() {
    let (_dir, path) = rehiding_variant(false);
    let e = Engine::load(path.to_str().unwrap(), &[]).unwrap();
    let mut s = common::position(
        &e,
        "to_move: red\npieces:\n  - { at: a1, owner: red, kind: flag }\n  - { at: e4, owner: red, kind: major }\n  - { at: j10, owner: blue, kind: flag }\n  - { at: a10, owner: blue, kind: general }\n",
    );
    let before = s.clone();
    let a = e.parse_action(&s, "e4-e5").unwrap();
    let err = e.apply(&mut s, &a).unwrap_err().to_string();
    assert!(
        err.contains("rules.lua:") && err.contains("hidden again"),
        "{err}"
    );
    assert_eq!(s, before, "the refused action changed nothing");
    // Declared followable: allowed, and the opponent no longer knows it.
    let (_dir2, path2) = rehiding_variant(true);
    let e2 = Engine::load(path2.to_str().unwrap(), &[]).unwrap();
    let mut s2 = common::position(
        &e2,
        "to_move: red\npieces:\n  - { at: a1, owner: red, kind: flag }\n  - { at: e4, owner: red, kind: major }\n  - { at: j10, owner: blue, kind: flag }\n  - { at: a10, owner: blue, kind: general }\n",
    );
    let a = e2.parse_action(&s2, "e4-e5").unwrap();
    e2.apply(&mut s2, &a).unwrap();
    let id = s2
        .piece_at(e2.variant.board.parse_cell("e5").unwrap())
        .unwrap();
    assert!(!s2.knows(1, id));
}

/// What a browser is sent (issue 21) depends on no hidden identity either:
/// the host's `state` message with the board parts the web relay adds (the
/// SVG, clickable moves, buttons), and the session page's frame, are the
/// same whatever the kinds the viewer does not know.
#[test]
fn the_web_channel_depends_on_no_hidden_identity() {
    use sandtable::front::net::state_message;
    use sandtable::front::web::frame::{augment, desk_frame, DeskExtras, Relayed};
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    for variant in ["classic_stratego", "ultimate_lightning"] {
        let mut s = sandtable::front::session::Session::new(variant, &[], 4).unwrap();
        for round in 0..8 {
            s.execute("random 15").unwrap();
            if s.state.outcome.is_some() {
                break;
            }
            s.history.clear();
            for p in 0..2u8 {
                let mut t = sandtable::front::session::Session::new(variant, &[], 4).unwrap();
                t.state = shuffle_unknown(&s.engine, &s.state, p, &mut rng);
                let line = |x: &sandtable::front::session::Session| {
                    let msg = serde_json::to_string(&state_message(x, Some(p), None)).unwrap();
                    augment(&x.engine, &msg, &mut Relayed::default())
                };
                let (a, b) = (line(&s), line(&t));
                assert!(a.contains("\"svg\""), "the relay adds the SVG");
                assert_eq!(
                    a, b,
                    "{variant} round {round}: a web state message depends on hidden kinds"
                );
                s.viewer = Viewer::Player(p);
                t.viewer = Viewer::Player(p);
                let extras = DeskExtras {
                    browse: None,
                    report: None,
                    watching: false,
                };
                assert_eq!(
                    desk_frame(&s, &extras),
                    desk_frame(&t, &extras),
                    "{variant} round {round}: a session page frame depends on hidden kinds"
                );
            }
        }
    }
}

/// Permutes, across every container, the item faces `viewer` does not
/// see (a bag's tiles, another player's catch).
fn shuffle_hidden_items(
    e: &Engine,
    s: &GameState,
    viewer: PlayerId,
    rng: &mut ChaCha8Rng,
) -> GameState {
    let mut t = s.clone();
    let mut places = Vec::new();
    for (k, c) in t.containers.iter().enumerate() {
        let d = e
            .variant
            .containers
            .iter()
            .find(|d| d.name == c.name)
            .unwrap();
        if d.contents.lets(Some(viewer), c.owner) {
            continue;
        }
        for (i, it) in c.items.iter().enumerate() {
            if it.known_by & (1 << viewer) == 0 {
                places.push((k, i));
            }
        }
    }
    deal_faces(&mut t, places, rng);
    t
}

#[test]
fn views_of_bags_and_hands_do_not_depend_on_hidden_faces() {
    let e = common::engine("examples/variants/pond.yaml", &[]);
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut differed = 0;
    for seed in 0..8 {
        let mut s = e.new_game(seed, &[]);
        for _ in 0..40 {
            if s.outcome.is_some() {
                break;
            }
            for p in 0..2u8 {
                let t = shuffle_hidden_items(&e, &s, p, &mut rng);
                differed += usize::from(t != s);
                for v in [Viewer::Player(p), Viewer::Public] {
                    if v == Viewer::Public && p == 1 {
                        continue;
                    }
                    let (a, b) = (Views::new(&e).view(&s, v), Views::new(&e).view(&t, v));
                    assert_eq!(
                        serde_json::to_string(&a).unwrap(),
                        serde_json::to_string(&b).unwrap()
                    );
                    assert_eq!(
                        Views::new(&e).render(&a, None),
                        Views::new(&e).render(&b, None)
                    );
                    assert_eq!(
                        Views::new(&e).captured_summary(&s, v),
                        Views::new(&e).captured_summary(&t, v)
                    );
                }
            }
            let legal = e.legal_actions(&s);
            let a = legal[rng.random_range(0..legal.len())];
            e.apply(&mut s, &a).unwrap();
        }
    }
    assert!(differed > 50, "the worlds did differ ({differed})");
}

/// Deals the faces of the container items at `places` (container, item)
/// among themselves at random: a world the viewer cannot tell apart.
fn deal_faces(t: &mut GameState, places: Vec<(usize, usize)>, rng: &mut ChaCha8Rng) {
    let mut faces: Vec<String> = places
        .iter()
        .map(|&(k, i)| t.containers[k].items[i].value.clone())
        .collect();
    faces.shuffle(rng);
    for ((k, i), f) in places.into_iter().zip(faces) {
        t.containers[k].items[i].value = f;
    }
}
