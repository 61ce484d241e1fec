-- Classic Stratego: how a strike resolves (docs/rules/classic_stratego.md).
-- Movement, the back-and-forth limit and the no-move loss are declared in
-- variants/classic_stratego.yaml and run natively by the host.
--
-- rules.strike(g, attacker, defender, action) answers who wins:
--   "attacker" (the defender is removed and the attacker moves in),
--   "defender" (the attacker is removed), or "both" (both are removed).
-- `action` is the striking move (`action.from`, `action.to`, and
-- `action.distance`, how many squares it went); classic Stratego needs
-- neither, a house rule on range does (docs/lua-api.md).

-- Who wins when `attacker` strikes `defender`, ignoring the Flag.
-- Kept as a plain function so variants built on this one can reuse it.
function rules.resolve(attacker, defender)
  if defender.kind == "bomb" then
    if attacker.defuses_bombs then
      return "attacker"
    end
    return "defender"
  end
  if attacker.beats_when_striking == defender.kind then
    return "attacker"
  end
  if attacker.rank > defender.rank then
    return "attacker"
  elseif attacker.rank < defender.rank then
    return "defender"
  end
  return "both"
end

function rules.strike(g, attacker, defender)
  -- Both ranks are shown to both players: `strike_reveals` in the YAML has
  -- the host do that before this call.
  if defender.kind == "flag" then
    g:win(attacker.owner, attacker.owner .. " captured the flag")
    return "attacker"
  end
  return rules.resolve(attacker, defender)
end
