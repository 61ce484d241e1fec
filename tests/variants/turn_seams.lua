-- Counts turn starts and ends (seams of the turn hooks), adds a white man
-- on c1 with g:add_piece after a move (option `add`), and asks the mover a
-- choice after every move (option `ask`).

function rules.on_turn_start(g)
  g:set_counter("starts", g:counter("starts") + 1)
end

function rules.on_turn_end(g)
  g:set_counter("ends", g:counter("ends") + 1)
end

function rules.after_action(g, action)
  if action.kind == "move" and g:option("add") and g:piece_at("c1") == nil then
    g:add_piece("man", "white", "c1")
  end
  if action.kind == "move" and g:option("ask") then
    g:choose(g:actor(), "a mark", { "left", "right" }, false, "marked")
  end
end

function rules.marked(g, player, option, data)
end
