-- Ultimate Lightning's strikes and ends as a script says them (see
-- ultimate_lightning_scripted.yaml): the reference for the declared ones.

-- Ties go to the striker; bombs are spent when hit; whoever has
-- `defuses_bombs` (the Scouts) removes a bomb and moves in.
function rules.strike(g, attacker, defender)
  if defender.kind == "flag" then
    g:win(attacker.owner, attacker.owner .. " captured the flag")
    return "attacker"
  end
  if defender.kind == "bomb" then
    if attacker.defuses_bombs then
      return "attacker"
    end
    return "both"
  end
  if attacker.beats_when_striking == defender.kind then
    return "attacker"
  end
  if attacker.rank >= defender.rank then
    return "attacker"
  end
  return "defender"
end

local rescue_and_chase = rules.after_action

-- The all-movable-pieces-captured win, then the rescue (and chase). A
-- striker that lost its own last movable piece is judged after the
-- opponent's next move (the counter `end_check`).
function rules.after_action(g, action)
  if action.kind ~= "move" then
    return
  end
  local me = action.player
  local them = if me == "red" then "blue" else "red"
  if g:counter("end_check") ~= 0 then
    g:set_counter("end_check", 0)
  end
  if g:count({ owner = them, mobile = true }) == 0 then
    if g:count({ owner = me, mobile = true }) == 0 then
      g:draw("draw: neither side can move")
    else
      g:win(me, me .. " captured every movable piece")
    end
    return
  end
  if action.captured > 0 and g:count({ owner = me, mobile = true }) == 0 then
    g:set_counter("end_check", 1)
  end
  rescue_and_chase(g, action)
end
