-- Orchard (examples/variants/orchard.yaml). The YAML lists the actions and
-- keeps the turn's budget; this script says what digging, hiring and the
-- end of a turn do.

local FRUIT = { apple = 1, pear = 2 }
local WORDS = { apple = "an apple", pear = "a pear" }

function rules.setup(g)
  local mix = {}
  for i = 1, 16 do
    mix[i] = i <= options.foxes and "fox" or (i % 2 == 0 and "pear" or "apple")
  end
  for i = #mix, 2, -1 do
    local j = math.random(i)
    mix[i], mix[j] = mix[j], mix[i]
  end
  for i, c in ipairs(g:cells()) do
    g:set_mark(c, "tile", "down")
    g:set_mark(c, "content", mix[i], "none")
  end
  for i, p in ipairs(g:players()) do
    g:set_counter("coins", options.start_coins, p)
    g:add_piece("worker", p, i == 1 and "a1" or "d4")
    g:add_piece("worker", p, "barn")
  end
end

local function add_coins(g, player, n)
  g:set_counter("coins", g:counter("coins", player) + n, player)
end

function rules.dig(g, a)
  local me, what = g:player(), g:mark(a.cell, "content")
  g:set_mark(a.cell, "tile", "up")
  if what == "fox" then
    g:log(me .. " digs up a fox on " .. a.cell)
    g:choose(me, "a fox: pay it 1 coin, or run (no more actions)", { "pay", "run" }, true, "fox",
      { cell = a.cell })
  else
    add_coins(g, me, FRUIT[what])
    g:log(me .. " digs up " .. WORDS[what] .. " on " .. a.cell .. " (+" .. FRUIT[what] .. ")")
  end
end

-- The answer to the fox, with the data the choice carried; it keeps the
-- turn, as the dig that asked it does.
function rules.fox(g, player, answer, data)
  if answer == "pay" and g:counter("coins", player) > 0 then
    add_coins(g, player, -1)
    g:log(player .. " pays the fox on " .. data.cell)
  else
    g:close_actions()
    g:log(player .. " runs from the fox on " .. data.cell)
  end
end

function rules.hire(g, a)
  g:move(g:container("barn", g:player())[1].id, a.cell)
  g:log(g:player() .. " hires a worker on " .. a.cell)
end

-- When every tile is up, the richer farmer wins.
function rules.end_turn(g)
  for _, face in pairs(g:marked("tile")) do
    if face == "down" then
      return
    end
  end
  local p = g:players()
  local a, b = g:counter("coins", p[1]), g:counter("coins", p[2])
  if a == b then
    g:draw("the orchard is dug up: " .. a .. " coins each")
  else
    local w = a > b and p[1] or p[2]
    g:win(w, "the orchard is dug up: " .. w .. " has the most coins (" .. math.max(a, b) .. ")")
  end
end
