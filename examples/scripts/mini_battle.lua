-- Mini Battle: who wins a strike, and taking the King.
function rules.strike(g, attacker, defender)
  g:reveal(attacker.id, "all")
  g:reveal(defender.id, "all")
  if defender.kind == "king" then
    g:win(attacker.owner, attacker.owner .. " took the King")
    return "attacker"
  end
  if attacker.rank > defender.rank then
    return "attacker"
  elseif attacker.rank < defender.rank then
    return "defender"
  end
  return "both"
end
