-- Ultimate Lightning: only what classic Stratego's declarations cannot say.
-- The strikes (ties to the striker, spent Bombs) and the ends (the Flag,
-- every movable piece) are declared in variants/ultimate_lightning.yaml;
-- here are the rescue and the optional chasing rule.

-- The declared strike decides: the base's scripted one gives way to it.
rules.strike = nil

-- Each player's opponent, found once from the global `players` (the
-- names and their numbers).
local OPPONENT = {}
for a in pairs(players) do
  for b in pairs(players) do
    if a ~= b then
      OPPONENT[a] = b
    end
  end
end

local function opponent(_, player)
  return OPPONENT[player]
end

-- The back row of a player's opponent, from the board zones.
local back_row = { red = "blue_back_row", blue = "red_back_row" }

local function adjacent(g, a, b)
  for _, n in ipairs(g:neighbors(a)) do
    if n == b then
      return true
    end
  end
  return false
end

-- The chasing rule (option `chasing_rule`, off by default). Our reading of
-- "no piece may be attacked continuously without a move in between": a chase
-- move is a move of a piece P that ends next to the enemy piece T when T's
-- owner has just moved T away from a square next to P. The same piece may not
-- chase the same enemy piece on more than `chase_limit` turns in a row; any
-- other move in between resets the count.
-- The bookkeeping lives on the pieces (attributes nobody is shown): the
-- piece a player moved last has `moved_last` and `left_from` (the cell it
-- left); a piece chasing has `chases` (its chase moves in a row) and
-- `chasing` (the piece it chases).

-- The player's piece on the board with attribute `attr`, if any.
local function marked(g, player, attr)
  return g:pieces({ owner = player, attr = attr })[1]
end

local function unmark(g, p, attrs)
  for _, a in ipairs(attrs) do g:clear_attr(p.id, a) end
end

local function chased(g, me, from, to)
  local target = marked(g, opponent(g, me), "moved_last")
  if not target then
    return nil
  end
  local t_from = g:cell_name(target.left_from)
  if adjacent(g, t_from, from) and adjacent(g, to, target.cell) then
    return target.id
  end
  return nil
end

if options.chasing_rule then
  function rules.filter(g, moves)
    local me = g:player()
    local chaser = marked(g, me, "chases")
    if not chaser or chaser.chases < options.chase_limit then
      return nil
    end
    local out = {}
    for i, m in ipairs(moves) do
      if m.piece == chaser.id and chased(g, me, m.from, m.to) == chaser.chasing then
        table.insert(out, i)
      end
    end
    return out
  end
end

local function count_chase(g, me, action)
  local target = chased(g, me, action.from, action.to)
  local chaser = marked(g, me, "chases")
  if target ~= nil and chaser and chaser.id == action.piece and chaser.chasing == target then
    g:set_attr(chaser.id, "chases", chaser.chases + 1)
  else
    if chaser then unmark(g, chaser, { "chases", "chasing" }) end
    if target ~= nil then
      g:set_attr(action.piece, "chases", 1)
      g:set_attr(action.piece, "chasing", target)
    end
  end
  local last = marked(g, me, "moved_last")
  if last then unmark(g, last, { "moved_last", "left_from" }) end
  g:set_attr(action.piece, "moved_last", 1)
  g:set_attr(action.piece, "left_from", g:cell(action.from).index)
end

-- After a move: the chase count, then the rescue.
function rules.after_action(g, action)
  if action.kind ~= "move" then
    return
  end
  local me = action.player
  if options.chasing_rule then
    count_chase(g, me, action)
  end
  if not g:in_zone(action.to, back_row[me]) then
    return
  end
  local piece = g:piece(action.piece)
  if piece.cell ~= action.to or piece.no_rescue or piece.rescued then
    return
  end
  local used = g:counter("rescues", me)
  if used >= g:option("rescues") then
    return
  end
  local kinds, seen = {}, {}
  for _, p in ipairs(g:container("captured", me)) do
    if not seen[p.kind] then
      seen[p.kind] = true
      table.insert(kinds, p.kind)
    end
  end
  if #kinds == 0 then
    return
  end
  table.insert(kinds, "none")
  -- Public: the captured pile is seen by both players, and so is the
  -- piece that comes back from it (variants/README.md, ultimate_lightning).
  -- The piece that may rescue rides along; it is used up only if a rescue
  -- takes place.
  g:choose(me, "rescue", kinds, true, "rescue", { rescuer = piece.id })
end

-- The answers: which captured piece comes back, then where it goes. Both
-- are public; the rescued piece stays known to everyone.
function rules.rescue(g, player, kind, data)
  if kind == "none" then
    return
  end
  local cells = {}
  for _, cell in ipairs(g:zone(player .. "_half")) do
    local c = g:cell(cell)
    if c.piece == nil and #c.terrain == 0 then
      table.insert(cells, cell)
    end
  end
  g:choose(player, "rescue " .. kind, cells, true, "rescue_to", { kind = kind, rescuer = data.rescuer })
end

function rules.rescue_to(g, player, cell, data)
  for _, p in ipairs(g:container("captured", player)) do
    if p.kind == data.kind then
      g:move(p.id, cell)
      -- It comes back with no chase behind it.
      unmark(g, p, { "moved_last", "left_from", "chases", "chasing" })
      g:reveal(p.id, "all")
      g:set_counter("rescues", g:counter("rescues", player) + 1, player)
      g:set_attr(data.rescuer, "rescued", 1)
      g:log(player .. " rescues " .. data.kind .. " onto " .. cell)
      return
    end
  end
  error("no captured " .. tostring(data.kind) .. " to rescue")
end
