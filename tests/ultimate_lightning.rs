//! Rule tests for Ultimate Lightning (shared/RULES.md §2).

mod common;
use common::*;
use sandtable::engine::Engine;
use sandtable::record::view::Views;

fn ul() -> Engine {
    engine("ultimate_lightning", &[])
}

const FLAGS: &str = "  - { at: a1, owner: red, kind: flag }\n  - { at: j10, owner: blue, kind: flag }\n  - { at: a10, owner: blue, kind: general }\n";

fn pos(e: &Engine, pieces: &str) -> sandtable::base::state::GameState {
    position(e, &format!("to_move: red\npieces:\n{pieces}{FLAGS}"))
}

#[test]
fn the_army_has_twenty_pieces_with_the_corporal_instead_of_the_miner() {
    let e = ul();
    assert!(e.variant.kind_index("miner").is_none());
    let count = |k: &str| e.variant.kinds[e.variant.kind_index(k).unwrap()].count;
    assert_eq!(e.army().len(), 20); // 17 movable pieces, the flag and 2 bombs
    assert_eq!(
        (
            count("scout"),
            count("corporal"),
            count("captain"),
            count("bomb")
        ),
        (4, 2, 2, 2)
    );
    let s = e.new_game(5, &[]);
    assert_eq!(s.pieces.len(), 40);
    assert!(e.variant.option("two_squares_limit").is_none());
    assert_eq!(e.variant.repetition_limit, Some(5));
}

#[test]
fn the_captain_takes_one_or_two_orthogonal_steps_or_one_diagonal() {
    let e = ul();
    let s = pos(&e, "  - { at: e3, owner: red, kind: captain }\n");
    assert_eq!(
        targets(&e, &s, "e3"),
        vec!["c3", "d2", "d3", "d4", "e1", "e2", "e4", "e5", "f2", "f3", "f4", "g3"]
    );
    // Blocked straight ahead: e5 is out of reach, d4 still reached.
    let s = pos(
        &e,
        "  - { at: e3, owner: red, kind: captain }\n  - { at: e4, owner: red, kind: bomb }\n",
    );
    let t = targets(&e, &s, "e3");
    assert!(
        !t.contains(&"e5".to_string())
            && t.contains(&"d4".to_string())
            && t.contains(&"f4".to_string())
    );
    // The last square may hold an enemy; no jumping over one.
    let s = pos(&e, "  - { at: e3, owner: red, kind: captain }\n  - { at: e4, owner: blue, kind: scout }\n  - { at: f4, owner: blue, kind: scout }\n");
    let t = targets(&e, &s, "e3");
    assert!(t.contains(&"e4".to_string()) && t.contains(&"f4".to_string()));
    assert!(!t.contains(&"e5".to_string()));
}

fn strike(
    e: &Engine,
    attacker: &str,
    defender: &str,
    from: &str,
) -> (Option<String>, Option<String>) {
    let mut s = pos(e, &format!("  - {{ at: {from}, owner: red, kind: {attacker} }}\n  - {{ at: e5, owner: blue, kind: {defender} }}\n"));
    play(e, &mut s, &[&format!("{from}-e5")]);
    (
        kind_at(e, &s, "e5").map(|k| format!("{} {k}", owner_at(e, &s, "e5").unwrap())),
        kind_at(e, &s, from),
    )
}

#[test]
fn ties_go_to_the_striker_and_bombs_are_spent() {
    let e = ul();
    assert_eq!(
        strike(&e, "lieutenant", "lieutenant", "e4"),
        (Some("red lieutenant".into()), None)
    );
    assert_eq!(
        strike(&e, "spy", "marshal", "e4"),
        (Some("red spy".into()), None)
    );
    assert_eq!(
        strike(&e, "marshal", "spy", "e4"),
        (Some("red marshal".into()), None)
    );
    assert_eq!(
        strike(&e, "spy", "spy", "e4"),
        (Some("red spy".into()), None)
    );
    // One-use bombs: the striker and the bomb both go.
    assert_eq!(strike(&e, "marshal", "bomb", "e4"), (None, None));
    assert_eq!(strike(&e, "corporal", "bomb", "e4"), (None, None));
    // Scouts defuse bombs, and strike at the end of a slide.
    assert_eq!(
        strike(&e, "scout", "bomb", "e4"),
        (Some("red scout".into()), None)
    );
    assert_eq!(
        strike(&e, "scout", "bomb", "e1"),
        (Some("red scout".into()), None)
    );
    assert_eq!(
        strike(&e, "scout", "sergeant", "e1"),
        (Some("blue sergeant".into()), None)
    );
}

#[test]
fn a_rescue_brings_back_a_captured_piece_that_everyone_sees() {
    let e = ul();
    let mut s = position(
        &e,
        r#"
to_move: red
pieces:
  - { at: a1, owner: red, kind: flag }
  - { at: e9, owner: red, kind: captain }
  - { at: b9, owner: red, kind: scout }
  - { at: j10, owner: blue, kind: flag }
  - { at: a7, owner: blue, kind: general }
containers:
  - name: captured
    owner: red
    pieces:
      - { owner: red, kind: marshal, known_by: [blue] }
      - { owner: red, kind: sergeant, known_by: [blue] }
"#,
    );
    play(&e, &mut s, &["e9-e10"]);
    // Red must now choose, before blue moves.
    assert_eq!(e.acting_player(&s), Some(0));
    assert_eq!(legal(&e, &s), vec!["marshal", "none", "sergeant"]);
    assert!(e.legal_actions_for(&s, 1).is_empty());
    play(&e, &mut s, &["marshal"]);
    let cells = legal(&e, &s);
    assert!(cells.contains(&"e3".to_string()) && cells.contains(&"j5".to_string()));
    assert!(
        !cells.contains(&"a1".to_string())
            && !cells.contains(&"c5".to_string())
            && !cells.contains(&"a6".to_string())
    );
    play(&e, &mut s, &["e3"]);
    assert_eq!(kind_at(&e, &s, "e3").as_deref(), Some("marshal"));
    let id = s
        .piece_at(e.variant.board.parse_cell("e3").unwrap())
        .unwrap();
    assert!(
        s.knows(0, id) && s.knows(1, id),
        "the rescued piece comes back from the public pile onto a square both see: public"
    );
    assert_eq!(s.counter("rescues", Some(0)), 1);
    assert_eq!(e.acting_player(&s), Some(1), "the rescue ends red's turn");
    // The same piece cannot rescue twice; a scout never rescues.
    play(&e, &mut s, &["a7-a6", "e10-d10", "a6-a7", "d10-e10"]);
    assert_eq!(e.acting_player(&s), Some(1));
    play(&e, &mut s, &["a7-a6", "b9-b10"]);
    assert_eq!(e.acting_player(&s), Some(1));
}

/// A piece on the opponent's back row with a marshal in red's pile, and a
/// general of blue's to shuttle with.
const RESCUE_AGAIN: &str = r#"
to_move: red
pieces:
  - { at: a1, owner: red, kind: flag }
  - { at: e9, owner: red, kind: captain }
  - { at: j10, owner: blue, kind: flag }
  - { at: a7, owner: blue, kind: general }
containers:
  - name: captured
    owner: red
    pieces:
      - { owner: red, kind: marshal, known_by: [blue] }
"#;

#[test]
fn declining_a_rescue_does_not_use_up_the_piece() {
    let e = ul();
    let mut s = position(&e, RESCUE_AGAIN);
    play(&e, &mut s, &["e9-e10", "none"]);
    assert_eq!(e.acting_player(&s), Some(1));
    assert_eq!(s.counter("rescues", Some(0)), 0);
    // Back off the row and on again: the same piece may still rescue.
    play(&e, &mut s, &["a7-a6", "e10-e9", "a6-a7", "e9-e10"]);
    assert_eq!(e.acting_player(&s), Some(0), "a second chance to rescue");
    assert_eq!(legal(&e, &s), vec!["marshal", "none"]);
    play(&e, &mut s, &["marshal", "e4"]);
    assert_eq!(s.counter("rescues", Some(0)), 1);
    // Now it is used up.
    play(&e, &mut s, &["a7-a6", "e10-e9", "a6-a7", "e9-e10"]);
    assert_eq!(e.acting_player(&s), Some(1), "a piece rescues once");
}

#[test]
fn arriving_with_nothing_captured_does_not_use_up_the_piece() {
    let e = ul();
    let mut s = position(
        &e,
        r#"
to_move: red
pieces:
  - { at: a1, owner: red, kind: flag }
  - { at: e9, owner: red, kind: captain }
  - { at: a6, owner: red, kind: sergeant }
  - { at: j10, owner: blue, kind: flag }
  - { at: a7, owner: blue, kind: general }
"#,
    );
    play(&e, &mut s, &["e9-e10"]);
    assert_eq!(e.acting_player(&s), Some(1), "nothing to rescue yet");
    // Blue captures the sergeant; the captain comes back to the row.
    play(&e, &mut s, &["a7-a6", "e10-e9", "a6-a7", "e9-e10"]);
    assert_eq!(
        e.acting_player(&s),
        Some(0),
        "the captain still has its rescue"
    );
    assert_eq!(legal(&e, &s), vec!["none", "sergeant"]);
}

#[test]
fn after_a_rescue_blue_sees_what_the_rules_make_public() {
    use sandtable::record::view::Viewer;
    let e = ul();
    let mut s = position(&e, RESCUE_AGAIN);
    play(&e, &mut s, &["e9-e10"]);
    // Blue and spectators see the question and the options: both are public.
    for v in [Viewer::Player(1), Viewer::Public] {
        let view = Views::new(&e).view(&s, v);
        let c = view.pending.as_ref().unwrap();
        assert_eq!(c.reason.as_deref(), Some("rescue"));
        assert_eq!(c.options.as_ref().unwrap(), &vec!["marshal", "none"]);
    }
    let events = {
        let a = e.parse_action(&s, "marshal").unwrap();
        e.apply(&mut s, &a).unwrap()
    };
    assert!(Views::new(&e)
        .event_lines(&s, &events, Viewer::Player(1))
        .contains(&"choice: red chose marshal".to_string()));
    let a = e.parse_action(&s, "e4").unwrap();
    let events = e.apply(&mut s, &a).unwrap();
    let blue = Views::new(&e).event_lines(&s, &events, Viewer::Player(1));
    assert!(
        blue.iter().any(|l| l == "place: red Marshal on e4"),
        "{blue:?}"
    );
    let board = Views::new(&e).render(&Views::new(&e).view(&s, Viewer::Player(1)), None);
    assert!(board.contains("RM") || board.contains("R10"), "{board}");
}

#[test]
fn rescues_are_limited_by_the_option_and_need_a_captured_piece() {
    let yaml = r#"
to_move: red
pieces:
  - { at: a1, owner: red, kind: flag }
  - { at: e9, owner: red, kind: captain }
  - { at: j10, owner: blue, kind: flag }
  - { at: a7, owner: blue, kind: general }
counters:
  - { name: rescues, player: red, value: 2 }
containers:
  - name: captured
    owner: red
    pieces:
      - { owner: red, kind: marshal }
"#;
    let e = ul();
    let mut s = position(&e, yaml);
    play(&e, &mut s, &["e9-e10"]);
    assert_eq!(
        legal(&e, &s),
        vec!["marshal", "none"],
        "3 rescues by default"
    );
    let e2 = engine("ultimate_lightning", &[("rescues", "2")]);
    let mut s = position(&e2, yaml);
    play(&e2, &mut s, &["e9-e10"]);
    assert_eq!(
        e2.acting_player(&s),
        Some(1),
        "no rescue left with the Gravon limit"
    );
    // Nothing captured: nothing to choose.
    let mut s = position(
        &e,
        &yaml
            .replace("      - { owner: red, kind: marshal }\n", "")
            .replace(
                "containers:\n  - name: captured\n    owner: red\n    pieces:\n",
                "",
            ),
    );
    play(&e, &mut s, &["e9-e10"]);
    assert_eq!(e.acting_player(&s), Some(1));
}

#[test]
fn capturing_every_movable_piece_wins() {
    let e = ul();
    let mut s = position(
        &e,
        "to_move: red\npieces:\n  - { at: a1, owner: red, kind: flag }\n  - { at: e4, owner: red, kind: marshal }\n  - { at: e5, owner: blue, kind: general }\n  - { at: j10, owner: blue, kind: flag }\n  - { at: j9, owner: blue, kind: bomb }\n",
    );
    play(&e, &mut s, &["e4-e5"]);
    let o = s.outcome.expect("over");
    assert_eq!(o.winners, vec![0]);
    assert!(o.reason.contains("every movable piece"), "{}", o.reason);
}

#[test]
fn a_draw_when_neither_side_can_move_and_by_agreement() {
    let e = ul();
    // Red's last movable piece strikes a bomb: both gone, nobody can move.
    let mut s = position(
        &e,
        "to_move: red\npieces:\n  - { at: a1, owner: red, kind: flag }\n  - { at: e4, owner: red, kind: general }\n  - { at: e5, owner: blue, kind: bomb }\n  - { at: j10, owner: blue, kind: flag }\n  - { at: a10, owner: blue, kind: lieutenant }\n  - { at: a9, owner: blue, kind: bomb }\n  - { at: b10, owner: blue, kind: bomb }\n",
    );
    play(&e, &mut s, &["e4-e5"]);
    let o = s.outcome.clone().expect("over");
    assert!(
        o.winners.is_empty() && o.reason.contains("nobody can move"),
        "{o:?}"
    );

    let mut s = e.new_game(3, &[]);
    let first = legal(&e, &s);
    assert!(
        first.contains(&"offer-draw".to_string()) && !first.contains(&"accept-draw".to_string())
    );
    play(&e, &mut s, &["offer-draw"]);
    assert_eq!(
        e.acting_player(&s),
        Some(0),
        "an offer does not end the turn"
    );
    assert!(!legal(&e, &s).contains(&"offer-draw".to_string()));
    let mv = legal(&e, &s)
        .into_iter()
        .find(|a| a.contains('-') && a != "offer-draw")
        .unwrap();
    play(&e, &mut s, &[&mv]);
    assert!(legal(&e, &s).contains(&"accept-draw".to_string()));
    play(&e, &mut s, &["accept-draw"]);
    assert_eq!(s.outcome.unwrap().reason, "draw by agreement");
}

#[test]
fn a_move_instead_of_an_answer_declines_the_offer() {
    let e = ul();
    let mut s = e.new_game(3, &[]);
    play(&e, &mut s, &["offer-draw"]);
    let mv = legal(&e, &s)
        .into_iter()
        .find(|a| a.contains('-') && a != "offer-draw")
        .unwrap();
    play(&e, &mut s, &[&mv]);
    let reply = legal(&e, &s)
        .into_iter()
        .find(|a| a.contains('-') && !a.ends_with("draw"))
        .unwrap();
    play(&e, &mut s, &[&reply]);
    assert!(!legal(&e, &s).contains(&"accept-draw".to_string()));
    assert!(legal(&e, &s).contains(&"offer-draw".to_string()));
}

#[test]
fn the_five_times_back_and_forth_limit() {
    let e = ul();
    let mut s = pos(
        &e,
        "  - { at: e4, owner: red, kind: major }\n  - { at: h4, owner: red, kind: major }\n",
    );
    play(
        &e,
        &mut s,
        &[
            "e4-e5", "a10-b10", "e5-e4", "b10-a10", "e4-e5", "a10-b10", "e5-e4", "b10-c10",
            "e4-e5", "c10-b10",
        ],
    );
    // Five moves between e4 and e5: the sixth is refused.
    let a = act(&e, &s, "e5-e4");
    assert!(e
        .apply(&mut s.clone(), &a)
        .unwrap_err()
        .to_string()
        .contains("back and forth"));
    let e3 = engine("ultimate_lightning", &[("back_and_forth_limit", "3")]);
    let mut s = pos(&e3, "  - { at: e4, owner: red, kind: major }\n");
    play(
        &e3,
        &mut s,
        &["e4-e5", "a10-b10", "e5-e4", "b10-a10", "e4-e5", "a10-b10"],
    );
    assert!(e3.apply(&mut s.clone(), &act(&e3, &s, "e5-e4")).is_err());
}

/// Gravon's 100-letter board field: red's 40 squares back row first from a1,
/// blue's 40 from a7 in board order (letters N..Y for blue).
type Setup = Vec<(u16, u16)>;

fn gravon_setups(e: &Engine, field: &str) -> (Setup, Setup) {
    let chars: Vec<char> = field.chars().collect();
    let red: String = chars[0..40].iter().collect();
    let blue: String = chars[60..100]
        .iter()
        .rev()
        .map(|&c| {
            if ('N'..='Y').contains(&c) {
                (c as u8 - 12) as char
            } else {
                c
            }
        })
        .collect();
    (
        e.parse_setup(0, &red, true).unwrap(),
        e.parse_setup(1, &blue, true).unwrap(),
    )
}

#[test]
fn all_555_gravon_setups_are_legal_armies() {
    let e = ul();
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/data/gravon-ultimate-lightning-setups.csv"
    );
    let Ok(text) = std::fs::read_to_string(path) else {
        eprintln!("skipped: {path} not present");
        return;
    };
    let flag = e.variant.kind_index("flag").unwrap() as u16;
    let mut n = 0;
    let (mut red_back, mut blue_back) = (0, 0);
    for line in text.lines().skip(1) {
        let field = line.split(',').nth(3).unwrap();
        let (red, blue) = gravon_setups(&e, field);
        assert_eq!((red.len(), blue.len()), (20, 20));
        let rank = |cells: &[(u16, u16)]| {
            e.variant
                .board
                .coords(cells.iter().find(|x| x.1 == flag).unwrap().0)
                .1
        };
        red_back += (rank(&red) == 0) as u32;
        blue_back += (rank(&blue) == 9) as u32;
        // The board field and the setup agree square by square.
        for (cell, kind) in &red {
            let ch = field.as_bytes()[*cell as usize] as char;
            assert_eq!(Some(ch), e.variant.kinds[*kind as usize].code);
        }
        let s = e.new_game(n, &[Some(red), Some(blue)]);
        s.check_consistency().unwrap();
        n += 1;
    }
    assert_eq!(n, 555);
    // As measured in shared/data/README.md.
    assert_eq!((red_back, blue_back), (418, 397));
}

#[test]
fn running_out_of_time_loses() {
    use sandtable::front::clock::Clock;
    use sandtable::front::session::Session;
    use std::time::Duration;
    let (source, t) = Clock::manual_time();
    let advance = |secs: u64| *t.lock().unwrap() += Duration::from_secs(secs);
    let mut s = Session::new("ultimate_lightning", &[], 4).unwrap();
    s.set_clock_with(Some("15m+5s"), Some(source)).unwrap();
    assert_eq!(s.clock_text().unwrap(), "red 15:00*  blue 15:00");
    advance(60);
    let mv = legal(&s.engine, &s.state)
        .into_iter()
        .find(|a| a.contains('-') && !a.ends_with("draw"))
        .unwrap();
    s.play(&mv).unwrap();
    // Red paid a minute and got the increment; blue's time now runs.
    assert_eq!(s.clock_text().unwrap(), "red 14:05  blue 15:00*");
    advance(15 * 60 + 1);
    let mv = legal(&s.engine, &s.state)
        .into_iter()
        .find(|a| a.contains('-') && !a.ends_with("draw"))
        .unwrap();
    let err = s.play(&mv).unwrap_err();
    assert!(err.contains("blue ran out of time"), "{err}");
    let o = s.state.outcome.clone().unwrap();
    assert_eq!(o.winners, vec![0]);
    assert!(s.engine.legal_actions(&s.state).is_empty());
}

#[test]
fn the_chasing_rule_stops_a_fourth_chase_in_a_row_when_enabled() {
    let yaml = "to_move: blue\npieces:\n  - { at: a1, owner: red, kind: flag }\n  - { at: e4, owner: red, kind: major }\n  - { at: j2, owner: red, kind: sergeant }\n  - { at: e5, owner: blue, kind: lieutenant }\n  - { at: j10, owner: blue, kind: flag }\n";
    let moves = [
        "e5-f5", "e4-f4", "f5-f6", "f4-f5", "f6-e6", "f5-e5", "e6-e7",
    ];
    // Off by default: the chase goes on.
    let e = ul();
    let mut s = position(&e, yaml);
    play(&e, &mut s, &moves);
    assert!(legal(&e, &s).contains(&"e5-e6".to_string()));
    // On: the fourth chase move of the same piece after the same piece is refused,
    // other moves of that piece are not.
    let e = engine("ultimate_lightning", &[("chasing_rule", "true")]);
    let mut s = position(&e, yaml);
    play(&e, &mut s, &moves);
    let l = legal(&e, &s);
    assert!(!l.contains(&"e5-e6".to_string()), "{l:?}");
    assert!(l.contains(&"e5-d5".to_string()) || l.contains(&"e5-e4".to_string()));
    assert!(l.contains(&"j2-j3".to_string()));
    // A move in between resets the count (kept on the chasing piece).
    let chases = |s: &sandtable::base::state::GameState| -> Vec<i64> {
        (0..s.pieces.len())
            .flat_map(|id| {
                s.attrs(id as u16)
                    .iter()
                    .filter(|(k, _)| k == "chases")
                    .map(|(_, v)| *v)
            })
            .collect()
    };
    assert_eq!(chases(&s), [3]);
    play(&e, &mut s, &["j2-j3"]);
    assert_eq!(chases(&s), Vec::<i64>::new());
}

#[test]
fn random_games_rescue_and_keep_the_invariants() {
    use rand::{Rng, SeedableRng};
    let e = ul();
    let (mut rescues, mut declined) = (0, 0);
    for seed in 0..12u64 {
        let mut s = e.new_game(seed, &[]);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        while s.outcome.is_none() {
            let mut acts = e.legal_actions(&s);
            acts.retain(|a| !a.is_social());
            let a = acts[rng.random_range(0..acts.len())];
            if let Some(c) = s.pending.first() {
                if c.reason == "rescue" && e.action_text(&s, &a) == "none" {
                    declined += 1;
                }
            }
            e.apply(&mut s, &a).unwrap();
            s.check_consistency().unwrap();
        }
        rescues += s.counter("rescues", Some(0)) + s.counter("rescues", Some(1));
        assert!(s.counter("rescues", Some(0)) <= 3 && s.counter("rescues", Some(1)) <= 3);
    }
    assert!(rescues > 0, "no rescue in 12 random games");
    eprintln!("rescues: {rescues}, declined: {declined}");
}

/// `after_action_when` (rescue row, captures, the chasing rule's option)
/// only spares calls that would change nothing: random games replayed with
/// the hook called after every action end the same. (The playouts are
/// replayed, not drawn again: the sampler's draws depend on its history.)
#[test]
fn after_action_when_changes_no_game() {
    use rand::SeedableRng;
    use sandtable::rules::variant::Variant;
    for options in [
        vec![],
        vec![("chasing_rule".to_string(), "true".to_string())],
    ] {
        let declared = Engine::load("ultimate_lightning", &options).unwrap();
        let mut every: Variant = Variant::load("ultimate_lightning", &options).unwrap();
        assert!(every.after_action_when.is_some());
        every.after_action_when = None;
        let every = Engine::from_variant(every).unwrap();
        let mut rescued = 0;
        for seed in 1..=12u64 {
            let mut s = declared.new_game(seed, &[]);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut log = Vec::new();
            declared
                .random_playout_logged(&mut s, &mut rng, 3000, Some(&mut log))
                .unwrap();
            let mut t = every.new_game(seed, &[]);
            for (i, a) in log.iter().enumerate() {
                every
                    .apply(&mut t, a)
                    .unwrap_or_else(|e| panic!("{options:?} seed {seed} ply {i}: {e}"));
            }
            let ends = [
                (s.outcome.clone(), s.counters.clone()),
                (t.outcome.clone(), t.counters.clone()),
            ];
            assert_eq!(ends[0], ends[1], "{options:?} seed {seed}");
            rescued += ends[0].1.iter().any(|(n, _, v)| n == "rescues" && v > 0) as u32;
        }
        assert!(rescued > 0, "some game has a rescue");
    }
}
