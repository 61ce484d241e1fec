//! REPL sessions as transcripts: each `tests/transcripts/NAME.in` is a list of
//! REPL commands run against a fresh copy of `variants/` and `scripts/` in a
//! temporary folder (`$TMP` in a command names it). Lines starting with
//! `!edit FILE: OLD => NEW` edit a file of that copy between commands, as a
//! designer would in an editor; `!interactive` opens the session as the
//! REPL does at a terminal (banner, a player's view of a game that hides
//! pieces, the board redrawn after a move). The whole transcript (commands and output)
//! is checked against `tests/snapshots/transcripts__NAME.snap`.

use std::path::Path;

use sandtable::front::session::{Flow, Session};

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if p.is_file() {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

fn run_transcript(name: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let input = std::fs::read_to_string(root.join(format!("tests/transcripts/{name}.in"))).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().to_str().unwrap().to_string();
    copy_dir(&root.join("variants"), &dir.path().join("variants"));
    copy_dir(&root.join("scripts"), &dir.path().join("scripts"));
    for sub in ["variants", "scripts"] {
        copy_dir(
            &root.join("examples").join(sub),
            &dir.path().join("examples").join(sub),
        );
    }
    copy_dir(
        &root.join("tests/transcripts"),
        &dir.path().join("transcripts"),
    );
    // Position files name the copied variant.
    for e in std::fs::read_dir(dir.path().join("transcripts"))
        .unwrap()
        .flatten()
    {
        let text = std::fs::read_to_string(e.path()).unwrap();
        std::fs::write(e.path(), text.replace("TMPDIR", &tmp)).unwrap();
    }
    let mut session =
        Session::new(&format!("{tmp}/variants/classic_stratego.yaml"), &[], 1).unwrap();
    let mut out = String::new();
    for line in input.lines() {
        let line = line.replace("$TMP", &tmp);
        if line.trim().is_empty() || line.starts_with('#') {
            out.push_str(&format!("{line}\n"));
            continue;
        }
        if line == "!interactive" {
            // As `sandtable repl` opens at a terminal.
            out.push_str(&format!("{line}\n{}\n", session.open_interactive(1)));
            continue;
        }
        if let Some(edit) = line.strip_prefix("!edit ") {
            let (file, change) = edit.split_once(": ").expect("!edit FILE: OLD => NEW");
            let (old, new) = change.split_once(" => ").expect("OLD => NEW");
            let path = dir.path().join(file);
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(text.contains(old), "{file} does not contain `{old}`");
            std::fs::write(&path, text.replacen(old, new, 1)).unwrap();
            out.push_str(&format!("{}\n", line.replace(&tmp, "$TMP")));
            continue;
        }
        out.push_str(&format!("> {}\n", line.replace(&tmp, "$TMP")));
        match session.execute(&line) {
            Ok((text, flow)) => {
                out.push_str(&text);
                out.push('\n');
                if flow == Flow::Quit {
                    break;
                }
            }
            Err(e) => out.push_str(&format!("error: {e}\n")),
        }
    }
    out.replace(&tmp, "$TMP")
}

/// Whether some pending choice in `out` shows its question and options
/// (`P must choose: QUESTION [a b c]`) and the next command typed is one of
/// those labels.
fn a_choice_is_answered_by_label(out: &str) -> bool {
    let mut asked: Option<Vec<String>> = None;
    for line in out.lines() {
        if let Some(cmd) = line.strip_prefix("> ") {
            if asked
                .take()
                .is_some_and(|o| o.iter().any(|l| l == cmd.trim()))
            {
                return true;
            }
        } else if let Some((_, rest)) = line.split_once(" must choose: ") {
            let options = rest
                .rsplit_once(" [")
                .and_then(|(q, o)| (!q.is_empty()).then_some(o))
                .and_then(|o| o.strip_suffix(']'));
            if let Some(o) = options {
                asked = Some(o.split_whitespace().map(String::from).collect());
            }
        }
    }
    false
}

#[test]
fn reload_after_a_rule_edit_names_the_first_divergent_action() {
    insta::assert_snapshot!("reload_strike_rule", run_transcript("reload_strike_rule"));
}

#[test]
fn a_designer_session() {
    insta::assert_snapshot!("designer_session", run_transcript("designer_session"));
}

#[test]
fn a_four_player_lost_island_game_to_its_end() {
    let out = run_transcript("lost_island_four_players");
    assert!(out.contains("game over: "), "the game ends");
    assert!(a_choice_is_answered_by_label(&out), "{out}");
    insta::assert_snapshot!("lost_island_four_players", out);
}

#[test]
fn the_tutorial_game_that_is_not_chess() {
    let out = run_transcript("tutorial_orchard");
    assert!(
        out.contains("the orchard is dug up"),
        "the game ends:\n{out}"
    );
    insta::assert_snapshot!("tutorial_orchard", out);
}

#[test]
fn the_tutorial_game_with_phases_a_bag_and_a_reaction() {
    let out = run_transcript("tutorial_pond");
    assert!(out.contains("amber may react (pike"), "the window:\n{out}");
    assert!(
        out.contains("the pond is fished out"),
        "the game ends:\n{out}"
    );
    insta::assert_snapshot!("tutorial_pond", out);
}

#[test]
fn a_chess_promotion_asks_which_piece_and_is_answered_by_label() {
    let out = run_transcript("chess_promotion");
    assert!(out.contains("white must choose: promote to which piece? [queen rook bishop knight]"));
    assert!(a_choice_is_answered_by_label(&out), "{out}");
    insta::assert_snapshot!("chess_promotion", out);
}

#[test]
fn chess_is_read_and_written_in_san() {
    let out = run_transcript("chess_san");
    for w in [
        "\nO-O\n",
        "\nRxe4\n",
        "\naxb8=Q+\n",
        "\ndxe4\n",
        "error: `Bxe4` is no legal move here",
    ] {
        assert!(out.contains(w), "{w}: {out}");
    }
    insta::assert_snapshot!("chess_san", out);
}

#[test]
fn ultima_is_read_and_written_in_the_seeds_notation() {
    let out = run_transcript("ultima_notation");
    assert!(
        out.contains("\nIc3\n") && out.contains("\nLg6:f5\n"),
        "{out}"
    );
    insta::assert_snapshot!("ultima_notation", out);
}

#[test]
fn an_ultimate_lightning_rescue_asks_both_questions_with_their_options() {
    let out = run_transcript("ultimate_lightning_rescue");
    assert!(out.contains("red must choose: rescue which piece? [marshal sergeant none]"));
    assert!(a_choice_is_answered_by_label(&out), "{out}");
    assert!(out.contains("red must choose: where does the rescued marshal come back? ["));
    assert!(out.contains("`e3` is not an answer: red must choose: rescue which piece?"));
    insta::assert_snapshot!("ultimate_lightning_rescue", out);
}

#[test]
fn a_position_of_another_variant_loads_that_variant() {
    let out = run_transcript("position_of_another_variant");
    assert!(out.contains("(variant Ultimate Lightning)"), "{out}");
    assert!(out.contains("no_such_position.yaml: no such file"), "{out}");
    assert!(
        out.contains("game over: draw (black is stalemated)"),
        "{out}"
    );
}

#[test]
fn pieces_are_listed_in_the_declared_order() {
    let out = run_transcript("ultimate_lightning_pieces");
    let at = |k: &str| {
        out.find(&format!("\n{k} "))
            .unwrap_or_else(|| panic!("{k}: {out}"))
    };
    assert!(
        at("sergeant") < at("corporal") && at("corporal") < at("scout"),
        "{out}"
    );
    assert!(
        at("marshal") < at("general") && at("bomb") < at("flag"),
        "{out}"
    );
}

#[test]
fn repl_errors_have_no_command_line_prefixes_and_missing_files_say_so() {
    let out = run_transcript("repl_errors");
    assert!(!out.contains("--option"), "{out}");
    assert!(!out.contains("os error"), "{out}");
    insta::assert_snapshot!("repl_errors", out);
}

#[test]
fn the_tutorial_chapters_on_child_variants() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tutorial = std::fs::read_to_string(root.join("docs/tutorial.md")).unwrap();
    // The tutorial shows the example files as they are (comments aside).
    for file in ["diagonal_captains.yaml", "isf_stratego.yaml"] {
        let text = std::fs::read_to_string(root.join("examples/variants").join(file)).unwrap();
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            assert!(
                tutorial.contains(line),
                "docs/tutorial.md lacks `{line}` of {file}"
            );
        }
    }
    let out = run_transcript("tutorial_child_variants");
    assert!(out.contains("e4-d3 e4-e3 e4-f3"), "{out}");
    assert!(!out.contains("e4-f5: illegal"), "{out}");
    assert!(
        out.contains("unknown piece kind `captian` (did you mean `captain`?)"),
        "{out}"
    );
    assert!(
        out.contains("scout_move_and_strike = true (default true)"),
        "{out}"
    );
    assert!(out.contains("two_squares_limit = 5 (default 5)"), "{out}");
    insta::assert_snapshot!("tutorial_child_variants", out);
}

#[test]
fn othello_flips_and_passes() {
    let out = run_transcript("othello");
    // A flipped disc is named once, with the owner it goes to.
    assert!(out.contains("flip: Disc on d4 to black"), "{out}");
    assert!(!out.contains("black Disc on d4 to black"), "{out}");
    assert!(out.contains("note: black passes"), "{out}");
    insta::assert_snapshot!("othello", out);
}

#[test]
fn connect_four_falls_and_wins_four_in_a_row() {
    insta::assert_snapshot!("connect_four", run_transcript("connect_four"));
}

#[test]
fn english_draughts_compulsory_jumps_and_crowning() {
    insta::assert_snapshot!("english_draughts", run_transcript("english_draughts"));
}

#[test]
fn go_captures_suicide_ko_and_area_score() {
    insta::assert_snapshot!("go", run_transcript("go"));
}

#[test]
fn the_tutorial_placement_game() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tutorial = std::fs::read_to_string(root.join("docs/tutorial.md")).unwrap();
    // The tutorial shows the example files as they are (comments aside).
    for file in ["drop_four.yaml", "five_free.yaml"] {
        let text = std::fs::read_to_string(root.join("examples/variants").join(file)).unwrap();
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            assert!(
                tutorial.contains(line),
                "docs/tutorial.md lacks `{line}` of {file}"
            );
        }
    }
    let out = run_transcript("tutorial_drop_four");
    for w in [
        "42 actions for red:",
        "7 actions for red:\na1 b1 c1 d1 e1 f1 g1\n",
        "may not be placed on d4: a piece placed there falls to d1",
        "end: red wins (a line of 4 or more)",
        "end: draw (yellow cannot move)",
        "end: red wins (a line of 5 or more)",
    ] {
        assert!(out.contains(w), "{w}: {out}");
    }
    insta::assert_snapshot!("tutorial_drop_four", out);
}

#[test]
fn brandubh_captures_by_custody_and_the_king_escapes() {
    let out = run_transcript("brandubh");
    assert!(out.contains("captured"), "{out}");
    assert!(out.contains("the king's escape"), "{out}");
    insta::assert_snapshot!("brandubh", out);
}

#[test]
fn backgammon_rolls_moves_by_one_die_and_hits() {
    let out = run_transcript("backgammon");
    assert!(out.contains("black rolls 4,1"), "{out}");
    assert!(out.contains("no die left (4,1)"), "{out}");
    insta::assert_snapshot!("backgammon", out);
}

#[test]
fn crazyhouse_captures_go_to_the_hand_and_come_back_as_drops() {
    let out = run_transcript("crazyhouse");
    assert!(out.contains("[Pp] w"), "each holds the pawn it took: {out}");
    assert!(out.contains("Pawn, to white's hand"), "{out}");
    insta::assert_snapshot!("crazyhouse", out);
}

#[test]
fn shogi_promotes_by_choice_and_drops_what_it_took() {
    let out = run_transcript("shogi");
    assert!(out.contains("promotion [horse bishop]"), "{out}");
    assert!(out.contains("[Bb] w"), "each holds a bishop: {out}");
    insta::assert_snapshot!("shogi", out);
}

#[test]
fn dark_chess_shows_each_side_only_what_its_pieces_see() {
    let out = run_transcript("dark_chess");
    assert!(out.contains("appear: black Pawn on d5"), "{out}");
    assert!(out.contains("capture: black piece xd5 white Pawn"), "{out}");
    assert!(out.contains("::"), "unseen squares are drawn: {out}");
    insta::assert_snapshot!("dark_chess", out);
}

#[test]
fn what_a_newcomer_met_at_the_repl() {
    let out = run_transcript("newcomer_repl");
    for w in [
        "you see the board as red does; `as all` shows everything",
        "did you mean `show`?",
        "error: `e4`: the game is over: black wins (white is checkmated)",
    ] {
        assert!(out.contains(w), "{w}: {out}");
    }
    assert!(!out.contains("error: error:"), "{out}");
    insta::assert_snapshot!("newcomer_repl", out);
}
