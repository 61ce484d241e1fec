-- Each piece a player captures is a point for them.
function rules.after_action(g, action)
  if action.captured > 0 then
    g:set_counter("points", g:counter("points", action.player) + action.captured, action.player)
  end
end
