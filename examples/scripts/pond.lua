-- Pond (examples/variants/pond.yaml). The YAML declares the phases, the
-- bag and the catches, and the pike's reaction window; this script says
-- what mooring, fishing, landing and cutting do, and when the game ends.

local WORTH = { minnow = 1, trout = 2, pike = 3 }

function rules.on_phase_start(g, phase)
  if phase == "fishing" then
    for _, p in ipairs(g:players()) do
      g:set_counter("coins", options.coins, p)
    end
  end
end

function rules.moor(g, a)
  g:add_piece("boat", g:player(), a.cell, g:players())
end

-- From the middle of the pond (b2) an angler lands two tiles, else one.
function rules.fish(g)
  local me = g:player()
  local boat = g:pieces({ owner = me })[1]
  for _ = 1, boat.cell == "b2" and 2 or 1 do
    local tile = g:draw_from("pond")
    if tile == "pike" then
      g:log(me .. " has a pike on the line")
      g:open_window("pike", { angler = me })
    elseif tile then
      g:put_in("catch", me, tile)
    end
  end
end

function rules.land(g, data)
  g:put_in("catch", data.angler, "pike")
  g:log(data.angler .. " lands the pike")
end

function rules.cut(g)
  g:put_in("pond", nil, "pike")
  g:log(g:actor() .. " cuts the line: the pike swims back")
end

-- When the pond is fished out, the best catch wins.
function rules.on_turn_end(g)
  if #g:items("pond") > 0 then
    return
  end
  local score = {}
  for _, p in ipairs(g:players()) do
    score[p] = 0
    for _, t in ipairs(g:items("catch", p)) do
      score[p] = score[p] + WORTH[t]
    end
    g:log(p .. " caught " .. score[p])
  end
  local a, j = score.amber, score.jade
  if a == j then
    g:draw("the pond is fished out: " .. a .. " each")
  else
    local w = a > j and "amber" or "jade"
    g:win(w, "the pond is fished out: " .. w .. " has the best catch (" .. math.max(a, j) .. ")")
  end
end
