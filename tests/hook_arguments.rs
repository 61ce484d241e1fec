//! What hooks are handed: `rules.strike` gets the striking move as its
//! fourth argument (with its `distance`), `rules.after_action` the same
//! fields, so a range rule needs no arithmetic on cell names.

mod common;

/// Classic Stratego with the ISF option on by default (a plain value under
/// `options:`) and a house rule on range, as a designer would write it.
const CHILD: &str = "name: Range\nextends: classic_stratego\nscript: range.lua\noptions: { scout_move_and_strike: true }\n";
const RANGE_LUA: &str = r#"
local base_strike = rules.strike
-- A Scout that strikes from more than 3 squares away is spent.
function rules.strike(g, attacker, defender, action)
  g:set_counter("strike_distance", action.distance)
  g:set_counter("strike_from", action.from_index)
  if action.piece ~= attacker.id or action.player ~= attacker.owner or action.kind ~= "move" then
    error("the action is not the striker's move")
  end
  if attacker.kind == "scout" and action.distance > 3 then return "both" end
  return base_strike(g, attacker, defender, action)
end
function rules.after_action(g, action)
  if action.kind == "move" then
    g:set_counter("moved_distance", action.distance)
    if action.text ~= action.from .. "-" .. action.to then error("text") end
  end
end
"#;

const POSITION: &str = r#"
to_move: red
pieces:
  - { at: a1, owner: red, kind: scout }
  - { at: a6, owner: blue, kind: sergeant }
  - { at: b1, owner: red, kind: scout }
  - { at: b3, owner: blue, kind: sergeant }
  - { at: j1, owner: red, kind: flag }
  - { at: j10, owner: blue, kind: flag }
  - { at: h10, owner: blue, kind: marshal }
"#;

fn engine(lua: &str) -> (tempfile::TempDir, sandtable::engine::Engine) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("range.yaml"), CHILD).unwrap();
    std::fs::write(dir.path().join("range.lua"), lua).unwrap();
    let path = dir.path().join("range.yaml");
    let e = common::engine(path.to_str().unwrap(), &[]);
    (dir, e)
}

#[test]
fn a_strike_from_afar_is_judged_by_its_distance() {
    let (_dir, e) = engine(RANGE_LUA);
    let mut s = common::position(&e, POSITION);
    // Five squares: the house rule spends both pieces.
    common::play(&e, &mut s, &["a1-a6"]);
    assert_eq!(s.counter("strike_distance", None), 5);
    assert_eq!(s.counter("strike_from", None), 0);
    assert_eq!(s.counter("moved_distance", None), 5);
    assert_eq!(common::kind_at(&e, &s, "a6"), None);
    assert_eq!(common::kind_at(&e, &s, "a1"), None);
    // Two squares: the base rule (the Sergeant wins).
    let mut s = common::position(&e, POSITION);
    common::play(&e, &mut s, &["b1-b3"]);
    assert_eq!(s.counter("strike_distance", None), 2);
    assert_eq!(common::kind_at(&e, &s, "b3").as_deref(), Some("sergeant"));
    // A plain move: after_action gets its distance too.
    let mut s = common::position(&e, POSITION);
    common::play(&e, &mut s, &["a1-a4"]);
    assert_eq!(s.counter("moved_distance", None), 3);
}

#[test]
fn filter_gets_each_moves_distance() {
    // Scouts may go at most two squares.
    let (_dir, e) = engine(
        "function rules.filter(g, moves)\n  local out = {}\n  for i, m in ipairs(moves) do\n    if m.distance > 2 then table.insert(out, i) end\n  end\n  return out\nend\n",
    );
    let s = common::position(&e, POSITION);
    let a1 = common::targets(&e, &s, "a1");
    assert_eq!(a1, ["a2", "a3"], "{a1:?}");
}

#[test]
fn a_misspelt_key_of_a_piece_filter_is_an_error_naming_it() {
    let (_dir, e) = engine(RANGE_LUA);
    let s = common::position(&e, POSITION);
    let eval = |code: &str| e.rules.eval(&s, &e.variant, code);
    assert_eq!(eval("g:count{owner='red', kind='scout'}").unwrap(), "2");
    let err = eval("g:count{owner='red', knd='scout'}").unwrap_err();
    assert!(
        err.contains("`knd`") && err.contains("did you mean `kind`"),
        "{err}"
    );
    let err = eval("g:pieces{colour='red'}").unwrap_err();
    assert!(err.contains("`colour`"), "{err}");
}

#[test]
fn pieces_are_ids_or_piece_tables_everywhere_in_the_api() {
    let (_dir, e) = engine(RANGE_LUA);
    let s = common::position(&e, POSITION);
    let eval = |code: &str| e.rules.eval(&s, &e.variant, code);
    // A piece table wherever an id is accepted.
    let ok = eval(
        "(function() local p = g:piece_at('a6'); g:reveal(p, 'all'); g:set_known(p, 'all'); \
         g:set_attr(p, 'x', 3); local q = g:piece(p); return q.id == p.id end)()",
    );
    assert_eq!(ok.unwrap(), "true");
    // And an error in the API's words, not Rust's, for anything else.
    for bad in [
        "g:reveal({}, 'all')",
        "g:reveal('a6', 'all')",
        "g:capture(true)",
    ] {
        let err = eval(bad).unwrap_err();
        assert!(
            err.contains("a piece (its id or its table)") && !err.contains("u32"),
            "{bad}: {err}"
        );
    }
    let err = eval("g:set_attr(g:piece_at('a6'), 'x', {})").unwrap_err();
    assert!(
        err.contains("g:set_attr: argument 3: expected a whole number, got a table"),
        "{err}"
    );
}

#[test]
fn in_rules_strike_both_pieces_are_still_on_the_board_as_documented() {
    // docs/lua-api.md: the attacker on `action.from`, the defender on
    // `action.to`, both revealed (classic Stratego sets strike_reveals).
    let lua = r#"
local base_strike = rules.strike
function rules.strike(g, attacker, defender, action)
  local a, d = g:piece_at(action.from), g:piece_at(action.to)
  g:set_counter("seen", (a and a.id == attacker.id and d and d.id == defender.id) and 1 or 2)
  return base_strike(g, attacker, defender, action)
end
"#;
    let (_dir, e) = engine(lua);
    let mut s = common::position(&e, POSITION);
    common::play(&e, &mut s, &["b1-b3"]);
    assert_eq!(s.counter("seen", None), 1);
}

// ---- issue 65: every move's kind and cells in its action table, every
// move in the filter.

/// What `rules.after_action` is told, kept as counters.
const TELL_LUA: &str = r#"
local CODES = { move = 1, jump = 2, place = 3, pass = 4, draw = 5, choice = 6, scripted = 7 }
function rules.after_action(g, action)
  g:set_counter("kind", CODES[action.kind] or 0)
  g:set_counter("from", action.from_index or -1)
  g:set_counter("to", action.to_index or -1)
  g:set_counter("piece", action.piece or -1)
  g:set_counter("distance", action.distance or -1)
  local listed = 0
  for k in pairs(action) do if k == "distance" then listed = 1 end end
  g:set_counter("pairs_distance", listed)
end
"#;

/// A filter that refuses every move it is given (each with the fields of
/// its kind, else an error).
const REFUSE_ALL_LUA: &str = r#"
function rules.filter(g, moves)
  local out = {}
  for i, m in ipairs(moves) do
    out[i] = i
    if m.kind == "jump" and not (m.from and m.to and m.piece and m.text and m.distance) then error("a jump's fields") end
    if m.kind == "place" and not (m.to and m.piece_kind and not m.from) then error("a placement's fields") end
    if m.kind == "move" and not (m.from and m.to and m.piece and m.distance) then error("a move's fields") end
  end
  return out
end
"#;

/// A child of `base` whose script is `lua`.
fn child_of(base: &str, lua: &str) -> (tempfile::TempDir, sandtable::engine::Engine) {
    let dir = tempfile::tempdir().unwrap();
    let yaml = format!("name: Told\nextends: {base}\nscript: told.lua\n");
    std::fs::write(dir.path().join("told.yaml"), yaml).unwrap();
    std::fs::write(dir.path().join("told.lua"), lua).unwrap();
    let path = dir.path().join("told.yaml");
    let e = common::engine(path.to_str().unwrap(), &[]);
    (dir, e)
}

/// The state of a seeded random draughts game at its first jump, and the
/// jump.
fn at_first_jump(
    e: &sandtable::engine::Engine,
) -> (sandtable::base::state::GameState, sandtable::engine::Action) {
    use sandtable::engine::Action;
    let mut s = e.new_game(1, &[]);
    for ply in 0..200 {
        let acts: Vec<Action> = e
            .legal_actions(&s)
            .into_iter()
            .filter(|a| !a.is_social())
            .collect();
        if let Some(j) = acts.iter().find(|a| matches!(a, Action::Jumps { .. })) {
            return (s, *j);
        }
        let a = acts[(ply * 7) % acts.len()];
        e.apply(&mut s, &a).unwrap();
    }
    panic!("no jump in 200 plies");
}

#[test]
fn a_jump_and_a_placement_are_told_by_their_kind_cells_and_piece() {
    use sandtable::engine::Action;
    let (_dir, e) = child_of("english_draughts", TELL_LUA);
    let (mut s, jump) = at_first_jump(&e);
    let text = e.action_text(&s, &jump);
    let cells: Vec<u16> = text
        .split(['x', '-'])
        .map(|c| e.variant.board.parse_cell(c).unwrap())
        .collect();
    let Action::Jumps { from, .. } = jump else {
        unreachable!()
    };
    let piece = s.piece_at(from).unwrap();
    e.apply(&mut s, &jump).unwrap();
    let (first, last) = (cells[0], *cells.last().unwrap());
    assert_eq!(s.counter("kind", None), 2, "{text}: not told as a jump");
    assert_eq!(s.counter("from", None), first as i64, "{text}");
    assert_eq!(s.counter("to", None), last as i64, "{text}");
    assert_eq!(s.counter("piece", None), piece as i64, "{text}");
    let (f0, r0) = e.variant.board.coords(first);
    let (f1, r1) = e.variant.board.coords(last);
    let distance = (f1 - f0).abs().max((r1 - r0).abs()) as i64;
    assert_eq!(s.counter("distance", None), distance, "{text}");
    assert_eq!(s.counter("pairs_distance", None), 1, "pairs lists distance");
    // A placement: its cell and the piece placed, no `from`.
    let (_dir, e) = child_of("connect_four", TELL_LUA);
    let mut s = e.new_game(1, &[]);
    common::play(&e, &mut s, &["d1"]);
    let d1 = e.variant.board.parse_cell("d1").unwrap();
    assert_eq!(s.counter("kind", None), 3, "d1: not told as a placement");
    assert_eq!(s.counter("from", None), -1);
    assert_eq!(s.counter("to", None), d1 as i64);
    assert_eq!(s.counter("piece", None), s.piece_at(d1).unwrap() as i64);
    assert_eq!(s.counter("distance", None), -1);
}

#[test]
fn a_filter_that_refuses_every_move_leaves_no_jump_and_no_placement() {
    let (_dir, e) = child_of("english_draughts", REFUSE_ALL_LUA);
    let plain = common::engine("english_draughts", &[]);
    let (s, _) = at_first_jump(&plain);
    let left: Vec<_> = e
        .try_legal_actions(&s)
        .unwrap()
        .into_iter()
        .filter(|a| !a.is_social())
        .collect();
    assert!(left.is_empty(), "left legal: {left:?}");
    // A move that is not a capture, and placements.
    let start = e.new_game(1, &[]);
    assert!(e
        .try_legal_actions(&start)
        .unwrap()
        .iter()
        .all(|a| a.is_social()));
    let (_dir, c4) = child_of("connect_four", REFUSE_ALL_LUA);
    let seen = c4.new_game(1, &[]);
    let left: Vec<_> = c4
        .try_legal_actions(&seen)
        .unwrap()
        .into_iter()
        .filter(|a| !a.is_social())
        .collect();
    assert!(left.is_empty(), "left legal: {left:?}");
}
