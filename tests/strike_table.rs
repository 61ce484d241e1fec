//! The declared strike (`strike:`) and the ends by pieces left (`left:`
//! with `mobile` and `players`), held to the script that said the same
//! before (tests/variants/ultimate_lightning_scripted.*): every pair of
//! kinds strikes alike, random games play out alike, and `g:declared_strike`
//! gives a script the table's answer. A faulty table is refused with its
//! line.

mod common;

use rand::SeedableRng;
use sandtable::engine::Engine;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn declared() -> Engine {
    common::engine("ultimate_lightning", &[])
}

fn scripted() -> Engine {
    common::engine(
        &format!("{ROOT}/tests/variants/ultimate_lightning_scripted.yaml"),
        &[],
    )
}

/// Red's `attacker` on e4 strikes Blue's `defender` on e5; each side keeps
/// a Flag and a Sergeant elsewhere (unless the Flag is the one struck).
fn strike_position(attacker: &str, defender: &str) -> String {
    let blue_flag = if defender == "flag" {
        ""
    } else {
        "  - { at: j10, owner: blue, kind: flag }\n"
    };
    format!(
        "to_move: red\npieces:\n  - {{ at: e4, owner: red, kind: {attacker} }}\n  - {{ at: e5, owner: blue, kind: {defender} }}\n  - {{ at: a1, owner: red, kind: flag }}\n  - {{ at: b1, owner: red, kind: sergeant }}\n{blue_flag}  - {{ at: a10, owner: blue, kind: sergeant }}\n"
    )
}

/// What stands on e4 and e5 after the strike, and who won, if anyone.
fn after_strike(
    e: &Engine,
    attacker: &str,
    defender: &str,
) -> (Vec<Option<String>>, Option<Vec<u8>>) {
    let mut s = common::position(e, &strike_position(attacker, defender));
    common::play(e, &mut s, &["e4-e5"]);
    let cells = ["e4", "e5"]
        .iter()
        .map(|c| {
            common::kind_at(e, &s, c)
                .map(|k| format!("{} {k}", common::owner_at(e, &s, c).unwrap()))
        })
        .collect();
    (cells, s.outcome.as_ref().map(|o| o.winners.clone()))
}

#[test]
fn every_pair_of_kinds_strikes_as_the_script_said() {
    let (d, s) = (declared(), scripted());
    let kinds: Vec<String> = d.variant.kinds.iter().map(|k| k.name.clone()).collect();
    let mut pairs = 0;
    for a in d.variant.kinds.iter().filter(|k| k.is_mobile()) {
        for def in &kinds {
            let (want, got) = (
                after_strike(&s, &a.name, def),
                after_strike(&d, &a.name, def),
            );
            assert_eq!(got, want, "{} strikes {def}", a.name);
            pairs += 1;
        }
    }
    assert_eq!(pairs, 10 * 12);
    // Spot checks of the rules themselves.
    let red = |k: &str| Some(format!("red {k}"));
    assert_eq!(
        after_strike(&d, "captain", "captain").0,
        [None, red("captain")],
        "ties to the striker"
    );
    assert_eq!(
        after_strike(&d, "marshal", "bomb").0,
        [None, None],
        "a Bomb is spent"
    );
    assert_eq!(
        after_strike(&d, "scout", "bomb").0,
        [None, red("scout")],
        "Scouts defuse"
    );
    assert_eq!(after_strike(&d, "spy", "marshal").0, [None, red("spy")]);
    assert_eq!(
        after_strike(&d, "spy", "general").0[1],
        Some("blue general".into())
    );
    assert_eq!(
        after_strike(&d, "spy", "flag").1,
        Some(vec![0]),
        "the Flag's capture wins"
    );
}

#[test]
fn random_games_play_out_as_the_script_said() {
    let (d, s) = (declared(), scripted());
    let mut ends = Vec::new();
    for seed in 0..60u64 {
        let mut gd = d.new_game(seed, &[]);
        let mut gs = s.new_game(seed, &[]);
        let (mut logd, mut logs) = (Vec::new(), Vec::new());
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let pd = d
            .random_playout_logged(&mut gd, &mut rng, 3000, Some(&mut logd))
            .unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let ps = s
            .random_playout_logged(&mut gs, &mut rng, 3000, Some(&mut logs))
            .unwrap();
        assert_eq!((pd, &logd), (ps, &logs), "seed {seed}: the same moves");
        let (od, os) = (gd.outcome.clone().unwrap(), gs.outcome.clone().unwrap());
        assert_eq!(
            od.winners, os.winners,
            "seed {seed}: {} / {}",
            od.reason, os.reason
        );
        assert_eq!(gd.board(), gs.board(), "seed {seed}");
        ends.push(od.reason);
    }
    // The games must have ended every way the declarations say.
    for why in [
        "the capture of the flag",
        "the capture of every movable piece",
    ] {
        assert!(
            ends.iter().any(|r| r.contains(why)),
            "no game ended by {why}: {ends:?}"
        );
    }
}

#[test]
fn a_script_asks_the_declared_table_and_deviates_where_its_rule_does() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("house.yaml"),
        format!(
            "extends: {ROOT}/variants/ultimate_lightning.yaml\nname: House\nscript: house.lua\n"
        ),
    )
    .unwrap();
    // Equal ranks remove both; everything else as declared.
    std::fs::write(
        dir.path().join("house.lua"),
        "function rules.strike(g, attacker, defender)\n  if attacker.rank == defender.rank and attacker.kind ~= \"bomb\" then return \"both\" end\n  return g:declared_strike(attacker, defender.id)\nend\n",
    )
    .unwrap();
    let house = common::engine(dir.path().join("house.yaml").to_str().unwrap(), &[]);
    assert_eq!(after_strike(&house, "captain", "captain").0, [None, None]);
    let d = declared();
    for (a, def) in [
        ("marshal", "bomb"),
        ("scout", "bomb"),
        ("spy", "marshal"),
        ("major", "colonel"),
    ] {
        assert_eq!(
            after_strike(&house, a, def),
            after_strike(&d, a, def),
            "{a} strikes {def}"
        );
    }
}

fn load_error(strike: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.yaml");
    std::fs::write(
        &path,
        format!("extends: {ROOT}/variants/classic_stratego.yaml\nname: Bad\nstrike:\n{strike}"),
    )
    .unwrap();
    match Engine::load(path.to_str().unwrap(), &[]) {
        Ok(_) => panic!("{strike} loaded"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_faulty_table_is_refused_at_its_line() {
    let e = load_error("  - { result: both }\n  - { defender: [bomm], result: defender }\n");
    assert!(
        e.contains("bad.yaml:5:")
            && e.contains("`defender` names `bomm`, which is no piece kind (did you mean `bomb`?)"),
        "{e}"
    );
    let e = load_error("  - { rank: above, result: attacker }\n");
    assert!(
        e.contains("`rank: above`: expected `higher`, `lower`, `equal`"),
        "{e}"
    );
    let e = load_error("  - { result: draw }\n");
    assert!(
        e.contains("`result: draw`: expected \"attacker\", \"defender\", \"both\" or \"none\""),
        "{e}"
    );
    let e = load_error("  - { attacker: [], result: both }\n");
    assert!(e.contains("`attacker: []`: name at least one kind"), "{e}");
    let e = load_error("  - { winner: attacker }\n");
    assert!(e.contains("winner"), "{e}");
}

#[test]
fn left_takes_mobile_and_players_only_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.yaml");
    let load = |ends: &str| {
        std::fs::write(
            &path,
            format!("extends: {ROOT}/variants/classic_stratego.yaml\nname: Bad\nends:\n{ends}"),
        )
        .unwrap();
        Engine::load(path.to_str().unwrap(), &[])
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    let e = load("  - { captures: [flag], mobile: true, winner: mover }\n").unwrap_err();
    assert!(e.contains("`mobile` and `players` go with `left`"), "{e}");
    let e = load("  - { left: 0, players: some, winner: mover }\n").unwrap_err();
    assert!(e.contains("`players: some`: expected `others`"), "{e}");
    load("  - { left: 0, mobile: true, players: all, winner: draw }\n").unwrap();
}

#[test]
fn check_says_when_a_script_overrides_the_declared_table() {
    let root = std::path::Path::new(ROOT);
    let o = common::run_bin(
        root,
        &["check", "tests/variants/ultimate_lightning_scripted.yaml"],
        b"",
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains(
            "note: the script defines `rules.strike`, so the declared `strike:` table is not read"
        ),
        "{out}"
    );
    let o = common::run_bin(root, &["check", "ultimate_lightning"], b"");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success() && !out.contains("`strike:` table is not read"),
        "{out}"
    );
}
