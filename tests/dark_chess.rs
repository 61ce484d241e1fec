//! Dark chess (OpenSpiel's `dark_chess`, `docs/rules/dark_chess.md`): no
//! check, the king's capture wins, and each player sees only the squares
//! of their pieces and of those pieces' moves. The sight is checked against
//! OpenSpiel's own observations of ten random games
//! (`tests/data/dark_chess_openspiel.txt`, made outside the repository with
//! open_spiel 2.0.2), ply by ply and player by player.

mod common;

use common::{engine, fen, play, texts};
use sandtable::base::state::GameState;
use sandtable::engine::Engine;
use sandtable::front::session::Session;
use sandtable::play::determinize::Determinizer;
use sandtable::record::view::{View, Viewer, Views};

fn dark() -> Engine {
    engine("dark_chess", &[])
}

/// A view as OpenSpiel's dark FEN writes the board: rank 8 first, `?` for
/// a square not seen, a digit for a run of seen empty squares, the piece's
/// letter (upper case for White) otherwise.
fn dark_fen(e: &Engine, v: &View) -> String {
    let unseen = sandtable::record::fog::unseen_cells(v, &e.variant.board);
    let mut rows = Vec::new();
    for r in (0..8).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for f in 0..8 {
            let c = r * 8 + f;
            let ch = match &v.cells[c] {
                _ if unseen[c] => Some('?'),
                None => None,
                Some(p) => {
                    let kind = p.kind.as_deref().expect("kinds are public");
                    let code = e.variant.kinds[e.variant.kind_index(kind).unwrap()]
                        .code
                        .unwrap();
                    Some(if p.owner == "white" {
                        code.to_ascii_uppercase()
                    } else {
                        code.to_ascii_lowercase()
                    })
                }
            };
            match ch {
                None => empty += 1,
                Some(ch) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(ch);
                }
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    rows.join("/")
}

struct Game {
    name: String,
    moves: Vec<String>,
    /// Per ply: White's and Black's observation boards.
    boards: Vec<(String, String)>,
}

fn openspiel_games() -> Vec<Game> {
    let text = std::fs::read_to_string("tests/data/dark_chess_openspiel.txt").unwrap();
    let mut games: Vec<Game> = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        if line.starts_with("game ") {
            games.push(Game {
                name: line.to_string(),
                moves: Vec::new(),
                boards: Vec::new(),
            });
        } else if let Some(m) = line.strip_prefix("moves:") {
            games.last_mut().unwrap().moves = m.split_whitespace().map(String::from).collect();
        } else {
            let parts: Vec<&str> = line.split(' ').collect();
            games
                .last_mut()
                .unwrap()
                .boards
                .push((parts[1].to_string(), parts[2].to_string()));
        }
    }
    games
}

#[test]
fn each_ply_shows_each_player_exactly_what_openspiel_shows() {
    let games = openspiel_games();
    assert_eq!(games.len(), 10);
    let mut plies = 0;
    let mut wrong = Vec::new();
    for g in &games {
        let mut s = Session::new("dark_chess", &[], 1).unwrap();
        for (i, (white, black)) in g.boards.iter().enumerate() {
            for (p, want) in [(0, white), (1, black)] {
                let v = Views::new(&s.engine).view(&s.state, Viewer::Player(p));
                let got = dark_fen(&s.engine, &v);
                if &got != want {
                    wrong.push(format!(
                        "{}: ply {i}, {} (after {}):\n  host      {got}\n  OpenSpiel {want}",
                        g.name,
                        s.engine.player_name(p),
                        g.moves[..i].join(" ")
                    ));
                }
            }
            plies += 1;
            if let Some(m) = g.moves.get(i) {
                s.play(m)
                    .unwrap_or_else(|e| panic!("{}: move {} `{m}`: {e}", g.name, i + 1));
            }
        }
        let ends = g.name.contains("returns [");
        assert_eq!(s.state.outcome.is_some(), ends, "{}", g.name);
    }
    assert!(plies > 500, "{plies} plies compared");
    assert!(
        wrong.is_empty(),
        "{} of {plies} plies differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn a_king_may_walk_into_attack_and_its_capture_wins() {
    let e = dark();
    // The white king may step next to the black king: no check.
    let mut s = fen(&e, "8/8/8/3k4/8/3K4/8/8 w - - 0 1");
    assert!(texts(&e, &s).iter().any(|t| t == "d3-d4"));
    play(&e, &mut s, &["d3-d4", "d5-d4"]);
    let o = s.outcome.clone().expect("the king was taken");
    assert_eq!(o.winners, vec![1]);
}

#[test]
fn castling_may_pass_attacked_squares() {
    let e = dark();
    // The black rook on f8 attacks f1: chess forbids O-O, dark chess not.
    let s = fen(&e, "4kr2/8/8/8/8/8/8/4K2R w K - 0 1");
    assert!(
        texts(&e, &s).iter().any(|t| t == "e1-g1"),
        "{:?}",
        texts(&e, &s)
    );
    let c = engine("chess", &[]);
    let cs = fen(&c, "4kr2/8/8/8/8/8/8/4K2R w K - 0 1");
    assert!(!texts(&c, &cs).iter().any(|t| t == "e1-g1"));
}

#[test]
fn at_the_start_each_side_sees_its_own_four_ranks() {
    let e = dark();
    let s = e.new_game(1, &[]);
    let w = Views::new(&e).view(&s, Viewer::Player(0));
    assert_eq!(
        dark_fen(&e, &w),
        "????????/????????/????????/????????/8/8/PPPPPPPP/RNBQKBNR"
    );
    // A spectator sees what both see: nothing at all here.
    let p = Views::new(&e).view(&s, Viewer::Public);
    assert_eq!(p.unseen.len(), 64);
    assert!(p.cells.iter().all(|c| c.is_none()));
    // The omniscient viewer sees everything.
    assert!(Views::new(&e)
        .view(&s, Viewer::Omniscient)
        .unseen
        .is_empty());
}

/// The cells named in a line of text (`e4`, `d7-d5`, `xd4`).
fn cells_named(e: &Engine, text: &str) -> Vec<u16> {
    let b = &e.variant.board;
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .flat_map(|w| (0..w.len().saturating_sub(1)).filter_map(move |i| w.get(i..i + 2)))
        .filter_map(|w| {
            let mut ch = w.chars();
            let (f, r) = (ch.next()?, ch.next()?);
            (('a'..='h').contains(&f) && ('1'..='8').contains(&r))
                .then(|| b.parse_cell(w))
                .flatten()
        })
        .collect()
}

#[test]
fn a_record_for_white_names_no_cell_white_did_not_see() {
    for g in openspiel_games().iter().take(4) {
        let mut s = Session::new("dark_chess", &[], 1).unwrap();
        for m in &g.moves {
            s.play(m).unwrap();
        }
        let white = Viewer::Player(0);
        let rec = s.player_record(white);
        let yaml = sandtable::record::to_yaml(&rec).unwrap();
        assert!(yaml.contains("(unseen)"), "Black's moves are not written");
        let seen = |st: &GameState| s.engine.sight(st, 0).unwrap();
        // The start: only the cells seen at ply 0.
        let start = seen(&s.start);
        for (c, cell) in rec.start.cells.iter().enumerate() {
            assert!(
                cell.is_none() || start[c],
                "{}: start shows cell {c}",
                g.name
            );
        }
        for (i, a) in rec.actions.iter().enumerate() {
            let before = &s.history[i].before;
            let after = s.history.get(i + 1).map(|p| &p.before).unwrap_or(&s.state);
            let (sb, sa) = (seen(before), seen(after));
            for line in std::iter::once(&a.action).chain(&a.events) {
                for c in cells_named(&s.engine, line) {
                    assert!(
                        sb[c as usize] || sa[c as usize],
                        "{}: action {} `{line}` names {} which White did not see",
                        g.name,
                        i + 1,
                        s.engine.variant.board.cell_name(c)
                    );
                }
            }
        }
    }
}

/// The pieces on the cells `player` does not see, as (cell, owner, kind).
fn unseen_pieces(e: &Engine, s: &GameState, player: u8) -> Vec<(usize, u8, u16)> {
    let seen = e.sight(s, player).unwrap();
    s.board()
        .iter()
        .enumerate()
        .filter(|(c, _)| !seen[*c])
        .filter_map(|(c, slot)| {
            slot.map(|id| (c, s.pieces[id as usize].owner, s.pieces[id as usize].kind))
        })
        .collect()
}

#[test]
fn mcts_decides_from_what_it_saw_the_same_in_every_world_it_cannot_tell_apart() {
    use rand::SeedableRng;
    use sandtable::play::agent::{Agent, Budget, Mcts};
    let e = dark();
    let g = &openspiel_games()[4];
    let mut s = Session::new("dark_chess", &[], 1).unwrap();
    for m in &g.moves[..24] {
        s.play(m).unwrap();
    }
    let real = s.state.clone();
    let white = 0;
    assert_eq!(real.to_move, white);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let obs = Determinizer::new(&e).observe(&real, white);
    let mut differ = 0;
    for _ in 0..4 {
        // Another world White cannot tell from the real one.
        let world = Determinizer::new(&e).determinize(&obs, &mut rng);
        world.check_consistency().unwrap();
        assert_eq!(e.sight(&world, white), e.sight(&real, white));
        let (a, b) = (
            Views::new(&e).view(&world, Viewer::Player(white)),
            Views::new(&e).view(&real, Viewer::Player(white)),
        );
        assert_eq!(
            serde_json::to_string(&a).unwrap(),
            serde_json::to_string(&b).unwrap()
        );
        if unseen_pieces(&e, &world, white) != unseen_pieces(&e, &real, white) {
            differ += 1;
        }
        assert_eq!(
            format!("{:?}", Determinizer::new(&e).observe(&world, white)),
            format!("{:?}", obs),
            "the observation depends on where unseen pieces stand"
        );
        let pick = |st: &GameState| {
            let mut bot = Mcts::new(Budget::Iterations(60), 9);
            bot.choose(&e, &Determinizer::new(&e).observe(st, white))
        };
        assert_eq!(pick(&world), pick(&real));
    }
    assert!(differ > 0, "no world put Black's unseen pieces elsewhere");
}

#[test]
fn determinized_worlds_keep_every_piece_and_what_the_player_sees() {
    use rand::SeedableRng;
    let e = dark();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let mut tries = 0;
    for g in openspiel_games().iter().take(5) {
        let mut s = Session::new("dark_chess", &[], 1).unwrap();
        for m in &g.moves {
            for p in 0..2u8 {
                let w = Determinizer::new(&e).determinize_for(&s.state, p, &mut rng);
                w.check_consistency().unwrap();
                tries += 1;
                assert_eq!(w.pieces.len(), s.state.pieces.len());
                assert_eq!(
                    e.sight(&w, p),
                    e.sight(&s.state, p),
                    "{}: ply {}, {}",
                    g.name,
                    s.state.ply,
                    e.player_name(p)
                );
            }
            s.play(m).unwrap();
        }
    }
    assert!(tries > 200);
}
