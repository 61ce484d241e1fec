//! Records in the formats players use: PGN (chess), SGF (Go) and PDN
//! (English draughts), read, replayed and written back through the REPL's
//! `load-record` and `save-record` and the `replay` command; the published
//! games of `tests/data/records/` (see its README) round-trip.

mod common;

use std::path::{Path, PathBuf};

use sandtable::front::session::Session;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/records")
        .join(name)
}

fn run(s: &mut Session, line: &str) -> String {
    s.execute(line)
        .unwrap_or_else(|e| panic!("`{line}`: {e}"))
        .0
}

fn no_space(t: &str) -> String {
    t.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The games of a PGN or PDN file, each as written (split before each
/// game's first tag after movetext).
fn games_of(text: &str) -> Vec<String> {
    let mut games: Vec<String> = Vec::new();
    let mut in_moves = false;
    for line in text.lines() {
        let tag = line.starts_with('[');
        if tag && (in_moves || games.is_empty()) {
            games.push(String::new());
            in_moves = false;
        }
        if !tag && !line.trim().is_empty() {
            in_moves = true;
        }
        if let Some(g) = games.last_mut() {
            g.push_str(line);
            g.push('\n');
        }
    }
    games
}

/// Loads `file` into a session of `variant`, saves it as `out` and gives
/// the saved text.
fn load_and_save(variant: &str, file: &Path, out: &str) -> (Session, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Session::new(variant, &[], 1).unwrap();
    run(&mut s, &format!("load-record '{}'", file.display()));
    let out = dir.path().join(out);
    run(&mut s, &format!("save-record '{}'", out.display()));
    let text = std::fs::read_to_string(&out).unwrap();
    (s, text)
}

#[test]
fn published_chess_games_import_replay_and_export_equal_modulo_whitespace() {
    let text = std::fs::read_to_string(data("classics.pgn")).unwrap();
    let games = games_of(&text);
    assert_eq!(games.len(), 3);
    let dir = tempfile::tempdir().unwrap();
    for (i, game) in games.iter().enumerate() {
        let one = dir.path().join(format!("game{i}.pgn"));
        std::fs::write(&one, game).unwrap();
        let (s, saved) = load_and_save("go", &one, "out.pgn");
        assert_eq!(s.engine.variant.name, "Chess", "the tags say chess");
        assert!(s.state.outcome.is_some(), "each game ends in mate");
        assert_eq!(no_space(&saved), no_space(game), "game {}:\n{saved}", i + 1);
    }
}

#[test]
fn a_file_of_several_games_loads_its_first_and_replay_plays_them_all() {
    let mut s = Session::new("chess", &[], 1).unwrap();
    let out = run(
        &mut s,
        &format!("load-record '{}'", data("classics.pgn").display()),
    );
    assert!(out.contains("game 1 of the 3 in the file"), "{out}");
    assert_eq!(s.history.len(), 33, "the Opera game's 33 plies");
    let dir = tempfile::tempdir().unwrap();
    let o = common::run_bin(
        dir.path(),
        &["replay", data("classics.pgn").to_str().unwrap()],
        b"",
    );
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout.contains("game 3 of 3:"), "{stdout}");
    // The last move's event, the board's line and the outcome, per game.
    assert_eq!(
        stdout.matches("white wins (black is checkmated)").count(),
        9
    );
}

#[test]
fn a_published_9x9_go_game_round_trips_as_sgf_and_ends_as_its_result_says() {
    let file = data("selfplay_9x9.sgf");
    let (s, saved) = load_and_save("chess", &file, "out.sgf");
    assert_eq!(s.engine.variant.name, "Go (9x9)", "GM[1] is Go");
    let komi = s.engine.variant.options.iter().find(|o| o.name == "komi");
    assert_eq!(
        komi.unwrap().value.to_string(),
        "7",
        "KM[7.0] sets the komi"
    );
    let o = s.state.outcome.as_ref().expect("two passes end it");
    assert_eq!(o.winners, [0], "RE[B+2.0]: black wins");
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(no_space(&saved), no_space(&text), "{saved}");
}

#[test]
fn a_published_draughts_game_round_trips_as_pdn() {
    let file = data("double_corner_dyke.pdn");
    let (s, saved) = load_and_save("chess", &file, "out.pdn");
    assert_eq!(s.engine.variant.name, "English draughts", "GameType 21");
    assert_eq!(s.history.len(), 48);
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(no_space(&saved), no_space(&text), "{saved}");
}

#[test]
fn pdn_numbers_the_dark_squares_from_the_far_left_corner_as_white_sees_them() {
    // Black's men start on 1-12 (1 is g1, 4 the single corner a1), white's
    // on 21-32 (21 is h6, 29 white's single corner h8).
    let dir = tempfile::tempdir().unwrap();
    let mut s = Session::new("english_draughts", &[], 1).unwrap();
    run(&mut s, "g3-f4");
    run(&mut s, "b6-a5");
    let out = dir.path().join("g.pdn");
    run(&mut s, &format!("save-record '{}'", out.display()));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("[GameType \"21\"]"), "{text}");
    assert!(text.contains("1. 9-14 24-20 *"), "{text}");
    let mut s = Session::new("english_draughts", &[], 1).unwrap();
    let pdn = dir.path().join("n.pdn");
    std::fs::write(&pdn, "[GameType \"21\"]\n1. 11-15 23-19 2. 8-11 22-17 *\n").unwrap();
    run(&mut s, &format!("load-record '{}'", pdn.display()));
    let texts: Vec<&str> = s.history.iter().map(|p| p.text.as_str()).collect();
    assert_eq!(texts, ["c3-d4", "d6-c5", "b2-c3", "f6-g5"]);
}

#[test]
fn comments_nags_and_annotations_are_written_back_after_their_moves_and_variations_are_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("c.pgn");
    std::fs::write(
        &f,
        "[Event \"t\"]\n\n{Before.} 1. e4 $1 {Good.} e5!? (1... c5 {Sicilian}) 2. Nf3 ; line\n*\n",
    )
    .unwrap();
    let mut s = Session::new("chess", &[], 1).unwrap();
    run(&mut s, &format!("load-record '{}'", f.display()));
    let out = dir.path().join("o.pgn");
    run(&mut s, &format!("save-record '{}'", out.display()));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        // The file wrote no `1...` before e5: kept so.
        text.contains("{Before.} 1. e4 $1 {Good.} e5!? 2. Nf3 {line} *"),
        "{text}"
    );
    assert!(!text.contains("c5"), "the variation is not kept: {text}");
    assert!(
        text.starts_with("[Event \"t\"]\n[Site \"?\"]\n[Date \"????.??.??\"]"),
        "{text}"
    );
    // Taken back, the last move's comment goes with it.
    run(&mut s, "undo");
    run(&mut s, &format!("save-record '{}'", out.display()));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(!text.contains("line"), "{text}");
    assert!(text.trim_end().ends_with("{Good.} e5!? *"), "{text}");
}

#[test]
fn malformed_pgn_is_refused_at_its_line_and_column_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("[Event \"x\"\n\n1. e4 *\n", "1:1", "expected `]`"),
        (
            "[Event \"x\"]\n\n1. e4 {never closed\n",
            "3:7",
            "expected `}`",
        ),
        ("[Event \"x\"]\n\n1. e4 (1. d4 d5\n", "3:7", "expected `)`"),
        (
            "[Event \"x\"]\n\n1. e4 e5\n",
            "4:1",
            "expected 1-0, 0-1, 1/2-1/2 or *",
        ),
        ("[Event \"x\"]\n\n1. e4 & *\n", "3:7", "expected a move"),
    ];
    for (text, at, expected) in cases {
        let f = dir.path().join("bad.pgn");
        std::fs::write(&f, text).unwrap();
        let mut s = Session::new("chess", &[], 1).unwrap();
        run(&mut s, "d4");
        let before = s.engine.to_fen(&s.state);
        let e = s
            .execute(&format!("load-record '{}'", f.display()))
            .unwrap_err();
        assert!(e.contains(&format!("bad.pgn:{at}:")), "{text:?}: {e}");
        assert!(e.contains(expected), "{text:?}: {e}");
        assert_eq!(s.engine.to_fen(&s.state), before, "the game is unchanged");
        assert_eq!(s.history.len(), 1);
    }
}

#[test]
fn an_illegal_move_is_named_by_its_number_and_text() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("bad.pgn");
    std::fs::write(
        &f,
        "[Event \"x\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf8# 1-0\n",
    )
    .unwrap();
    let mut s = Session::new("go", &[], 1).unwrap();
    let e = s
        .execute(&format!("load-record '{}'", f.display()))
        .unwrap_err();
    assert!(e.contains("bad.pgn:3:35: move 4. `Qxf8#`: illegal"), "{e}");
    assert_eq!(s.engine.variant.name, "Go (9x9)", "nothing changed");
    std::fs::write(&f, "(;GM[1]SZ[9];B[ee];B[cc])").unwrap();
    let f2 = dir.path().join("bad.sgf");
    std::fs::rename(&f, &f2).unwrap();
    let e = s
        .execute(&format!("load-record '{}'", f2.display()))
        .unwrap_err();
    assert!(
        e.contains("bad.sgf:1:20: move 2 `B[cc]`: illegal: white is to move, not black"),
        "{e}"
    );
    std::fs::write(&f2, "(;GM[1]SZ[19];B[pd])").unwrap();
    let e = s
        .execute(&format!("load-record '{}'", f2.display()))
        .unwrap_err();
    assert!(e.contains("SZ[19], but Go (9x9)'s board is 9x9"), "{e}");
}

#[test]
fn a_result_the_moves_contradict_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("mate.pgn");
    std::fs::write(
        &f,
        "[Result \"0-1\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 0-1\n",
    )
    .unwrap();
    let mut s = Session::new("chess", &[], 1).unwrap();
    let e = s
        .execute(&format!("load-record '{}'", f.display()))
        .unwrap_err();
    assert!(
        e.contains("says black won, but the moves end: white wins"),
        "{e}"
    );
    std::fs::write(
        &f,
        "[Result \"1/2-1/2\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1/2-1/2\n",
    )
    .unwrap();
    let e = s
        .execute(&format!("load-record '{}'", f.display()))
        .unwrap_err();
    assert!(
        e.contains("says the game was drawn, but the moves end: white wins"),
        "{e}"
    );
}

#[test]
fn the_variant_comes_from_the_tags_or_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("v.pgn");
    std::fs::write(&f, "[Variant \"Nonesuch\"]\n\n1. e4 *\n").unwrap();
    let mut s = Session::new("chess", &[], 1).unwrap();
    let e = s
        .execute(&format!("load-record '{}'", f.display()))
        .unwrap_err();
    assert!(e.contains("`Variant` `Nonesuch` names no variant"), "{e}");
    assert!(e.contains("chess (Variant Standard)"), "{e}");
    run(
        &mut s,
        &format!("load-record '{}' --variant chess", f.display()),
    );
    assert_eq!(s.history.len(), 1);
    // A PDN file without GameType names no game: the variant is asked for.
    let p = dir.path().join("g.pdn");
    std::fs::write(&p, "1. 11-15 *\n").unwrap();
    let e = s
        .execute(&format!("load-record '{}'", p.display()))
        .unwrap_err();
    assert!(e.contains("no `GameType` tag"), "{e}");
    run(
        &mut s,
        &format!("load-record '{}' --variant english_draughts", p.display()),
    );
    assert_eq!(s.engine.variant.name, "English draughts");
}

#[test]
fn a_repl_game_from_a_position_saves_its_fen_and_a_promotion_as_one_move() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Session::new("chess", &[], 1).unwrap();
    run(&mut s, "position 4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    run(&mut s, "a8=Q+");
    run(&mut s, "Kd7");
    let out = dir.path().join("p.pgn");
    run(&mut s, &format!("save-record '{}'", out.display()));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        text.contains("[SetUp \"1\"]\n[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]"),
        "the FEN as given, castling and move fields too: {text}"
    );
    assert!(text.contains("1. a8=Q+ Kd7 *"), "{text}");
    let mut t = Session::new("go", &[], 1).unwrap();
    run(&mut t, &format!("load-record '{}'", out.display()));
    assert_eq!(t.engine.to_fen(&t.state), s.engine.to_fen(&s.state));
}

#[test]
fn the_format_comes_from_the_extension_or_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Session::new("go", &[], 1).unwrap();
    run(&mut s, "e5");
    run(&mut s, "pass");
    let sgf = dir.path().join("g.sgf");
    run(&mut s, &format!("save-record '{}'", sgf.display()));
    let text = std::fs::read_to_string(&sgf).unwrap();
    assert!(text.starts_with("(;FF[4]GM[1]SZ[9]KM[7.5]"), "{text}");
    assert!(text.contains(";B[ee] ;W[]"), "{text}");
    let other = dir.path().join("g.txt");
    run(
        &mut s,
        &format!("save-record '{}' --format sgf", other.display()),
    );
    assert_eq!(std::fs::read_to_string(&other).unwrap(), text);
    let e = s
        .execute(&format!(
            "save-record '{}'",
            dir.path().join("g.pgn").display()
        ))
        .unwrap_err();
    assert!(
        e.contains("PGN holds moves in standard algebraic notation"),
        "{e}"
    );
    assert!(!dir.path().join("g.pgn").exists(), "nothing written");
    let e = s
        .execute(&format!("save-record '{}' --format xyz", other.display()))
        .unwrap_err();
    assert!(e.contains("`xyz` is not a record format"), "{e}");
}

#[test]
fn a_viewer_gets_a_players_format_only_of_a_game_they_saw_whole() {
    let dir = tempfile::tempdir().unwrap();
    // Chess hides nothing: white's record is the whole game.
    let mut s = Session::new("chess", &[], 1).unwrap();
    run(&mut s, "e4");
    let w = dir.path().join("w.pgn");
    run(&mut s, &format!("save-record '{}' --as white", w.display()));
    assert!(std::fs::read_to_string(&w).unwrap().contains("1. e4 *"));
    // Stratego hides the armies: refused, nothing written.
    let mut s = Session::new("classic_stratego", &[], 1).unwrap();
    run(&mut s, "random 2");
    let r = dir.path().join("r.pgn");
    let e = s
        .execute(&format!("save-record '{}' --as red", r.display()))
        .unwrap_err();
    assert!(e.contains("red did not see the whole game"), "{e}");
    assert!(!r.exists());
}

#[test]
fn replay_reads_sgf_and_pdn_files_with_the_variant_from_the_tags() {
    let dir = tempfile::tempdir().unwrap();
    for (file, end) in [
        ("selfplay_9x9.sgf", "outcome: black wins"),
        ("double_corner_dyke.pdn", "outcome: still playing"),
    ] {
        let o = common::run_bin(dir.path(), &["replay", data(file).to_str().unwrap()], b"");
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            o.status.success(),
            "{file}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(out.contains(end), "{file}: {out}");
    }
}
