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
