-- Stratego Lost Island (shared/RULES.md §3). The host knows cells, pieces,
-- containers, counters and marks; this script gives them their meaning.
--
-- State used (all in the host, nothing kept here):
--   pieces v1..v6        scouts; rank = printed value; hidden from others
--   container "boat"     per player, front first
--   counter "coins"      per player
--   counters turn_*      the steps of the turn in progress (public)
--   mark "tile"          down | stone | up (public)
--   mark "stone"         a stone tile, turned or not (public; never removed)
--   mark "content"       what lies under a tile (known to nobody until turned)
--   mark "item" = flag   the flag lying on a tile (public)
--   mark "new"           loot turned up this turn (not claimable yet)
--   mark "target"        scouts still to be hit by the exploding bomb (public)
--   cell counter "coins" loot lying on a tile
--   piece attrs flag, ring (public)

-- Choices whose answer everyone sees at the table (a bomb's orientation,
-- a storm's direction, the tile removed...) are declared public; the setup
-- answers (which scout starts where, the boat order) are not.
local PUBLIC = true

local DIRS = {
  north = { 0, 1 },
  south = { 0, -1 },
  east = { 1, 0 },
  west = { -1, 0 },
}
local DIR_ORDER = { "north", "east", "south", "west" }
local DIAGS = { { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 } }

local function split(text, sep)
  local out = {}
  for part in string.gmatch(text, "[^" .. sep .. "]+") do
    table.insert(out, (string.gsub(part, "^%s*(.-)%s*$", "%1")))
  end
  return out
end

-- "a:2,b:1" -> { "a", "a", "b" }
local function expand_mix(text)
  local out = {}
  for _, item in ipairs(split(text, ",")) do
    local parts = split(item, ":")
    local n = tonumber(parts[2] or "1") or 0
    for _ = 1, n do
      table.insert(out, parts[1])
    end
  end
  return out
end

local function shuffle(list)
  for i = #list, 2, -1 do
    local j = math.random(i)
    list[i], list[j] = list[j], list[i]
  end
  return list
end

local function contains(list, x)
  for _, v in ipairs(list) do
    if v == x then
      return true
    end
  end
  return false
end

local function step(g, cell, dx, dy)
  local f, r = g:coords(cell)
  return g:cell_at(f + dx, r + dy)
end

local function is_water(g, cell)
  return g:has_terrain(cell, "water")
end

local function on_island(g, cell)
  return cell ~= nil and not is_water(g, cell)
end

-- Every cell of the 6x6 board, a1 b1 ... f6 (cell index order).
local ALL = {}
for r = 1, 6 do
  for f = 1, 6 do
    table.insert(ALL, string.char(96 + f) .. r)
  end
end
table.freeze(ALL)

local function all_cells(_g)
  return ALL
end

local function scout_at(g, cell)
  return g:piece_at(cell)
end

local function flag_lies(g, cell)
  return g:mark(cell, "item") == "flag"
end

local function free_tile(g, cell)
  return on_island(g, cell) and scout_at(g, cell) == nil
end

local function boat(g, player)
  return g:container("boat", player)
end

local function coins(g, player)
  return g:counter("coins", player)
end

local function add_coins(g, player, n)
  g:set_counter("coins", g:counter("coins", player) + n, player)
end

local function tcount(name)
  return "turn_" .. name
end

local function turn(g, name)
  return g:counter(tcount(name))
end

local function set_turn(g, name, v)
  g:set_counter(tcount(name), v)
end

local function value_of(p)
  return p.rank
end

local function ring_of(p)
  return (p.ring or 0) > 0 and 1 or 0
end

local function has_flag(p)
  return (p.flag or 0) > 0
end

-- ---------------------------------------------------------------- the win

local function check_win(g)
  local carrier = nil
  local owners = {}
  for _, p in ipairs(g:pieces()) do
    owners[p.owner] = true
    if has_flag(p) then
      carrier = p.owner
    end
  end
  if carrier == nil then
    return
  end
  for o in pairs(owners) do
    if o ~= carrier then
      return
    end
  end
  g:win(carrier, carrier .. " holds the flag and only " .. carrier .. "'s scouts are on the island")
end

-- ---------------------------------------------------------------- moving pieces

-- A scout goes to the back of its owner's boat; its ring is lost; a flag it
-- carried drops on `drop_at` (or stays with the caller, who handles it).
local function to_boat(g, p, drop_at)
  if has_flag(p) and drop_at then
    g:set_mark(drop_at, "item", "flag")
  end
  g:clear_attr(p.id, "ring")
  g:clear_attr(p.id, "flag")
  g:send(p.id, "boat", p.owner)
end

-- Turns a stone tile (entering it) and gives its content to the scout.
local function enter(g, p, cell)
  local tile = g:mark(cell, "tile")
  if tile == "stone" then
    local content = g:mark(cell, "content") or ""
    g:set_mark(cell, "tile", "up")
    g:clear_mark(cell, "content")
    if content == "flag" then
      g:set_attr(p.id, "flag", 1)
      g:log(p.owner .. " turns the stone tile " .. cell .. ": the flag!")
    else
      local n = tonumber(string.match(content, "^loot(%d+)$") or "0") or 0
      add_coins(g, p.owner, n)
      g:log(p.owner .. " turns the stone tile " .. cell .. ": " .. n .. " coins")
    end
  end
  if flag_lies(g, cell) then
    g:clear_mark(cell, "item")
    g:set_attr(p.id, "flag", 1)
    g:log(p.owner .. " picks up the flag on " .. cell)
  end
  local c = g:cell_counter("coins", cell)
  if c > 0 and g:mark(cell, "new") == nil then
    g:set_cell_counter("coins", cell, 0)
    add_coins(g, p.owner, c)
    g:log(p.owner .. " takes " .. c .. " coins on " .. cell)
  end
end

local function move_to(g, p, cell)
  g:move(p.id, cell)
  enter(g, g:piece(p.id), cell)
end

-- ---------------------------------------------------------------- fights

-- Who wins between printed values a and b with rings ra, rb: 1, -1 or 0.
local function compare(a, ra, b, rb)
  if a == 1 and b == 6 then
    return 1
  end
  if a == 6 and b == 1 then
    return -1
  end
  local x, y = a + ra, b + rb
  if x > y then
    return 1
  elseif x < y then
    return -1
  end
  return 0
end

local function fight(g, att, def)
  local from, to = att.cell, def.cell
  local who = options.secret_fights and { att.owner, def.owner } or "all"
  g:reveal(att.id, who)
  g:reveal(def.id, who)
  local r = compare(value_of(att), ring_of(att), value_of(def), ring_of(def))
  g:clear_attr(att.id, "ring")
  g:clear_attr(def.id, "ring")
  local a_flag, d_flag = has_flag(att), has_flag(def)
  local words
  if r > 0 then
    to_boat(g, def, nil)
    if d_flag then
      g:set_attr(att.id, "flag", 1)
    end
    move_to(g, g:piece(att.id), to)
    set_turn(g, "won_fight", 1)
    words = att.owner .. " wins"
  elseif r < 0 then
    to_boat(g, att, nil)
    if a_flag then
      g:set_attr(def.id, "flag", 1)
    end
    words = def.owner .. " wins"
  else
    to_boat(g, att, nil)
    to_boat(g, def, nil)
    if a_flag or d_flag then
      g:set_mark(to, "item", "flag")
    end
    words = "a tie: both go back to their boats"
  end
  if options.secret_fights then
    g:log("fight " .. from .. "x" .. to .. " (" .. att.owner .. " against " .. def.owner .. "): " .. words)
  else
    g:log(
      "fight " .. from .. "x" .. to .. ": " .. att.owner .. " " .. value_of(att)
        .. (ring_of(att) > 0 and "+ring" or "") .. " against " .. def.owner .. " " .. value_of(def)
        .. (ring_of(def) > 0 and "+ring" or "") .. ": " .. words
    )
  end
end

-- ---------------------------------------------------------------- reinforcing

local function landing_cells(g, player)
  local near, seen = {}, {}
  for _, p in ipairs(g:pieces({ owner = player })) do
    for _, c in ipairs(g:neighbors(p.cell)) do
      if not seen[c] and free_tile(g, c) then
        seen[c] = true
        table.insert(near, c)
      end
    end
  end
  if #near > 0 then
    table.sort(near)
    return near
  end
  local any = {}
  for _, c in ipairs(ALL) do
    if free_tile(g, c) then
      table.insert(any, c)
    end
  end
  return any
end

local function reinforce(g, player, cell)
  local front = boat(g, player)[1]
  g:log(player .. " reinforces on " .. cell)
  move_to(g, front, cell)
end

-- ---------------------------------------------------------------- swimming

-- Island tiles reachable by swimming from `cell`: through orthogonally
-- connected shallow water starting next to it, ending on a tile next to that water.
local function swim_targets(g, cell)
  local seen, queue = {}, {}
  for _, n in ipairs(g:neighbors(cell)) do
    if is_water(g, n) and not seen[n] then
      seen[n] = true
      table.insert(queue, n)
    end
  end
  local targets, tseen = {}, {}
  local i = 1
  while i <= #queue do
    local w = queue[i]
    i += 1
    for _, n in ipairs(g:neighbors(w)) do
      if is_water(g, n) then
        if not seen[n] then
          seen[n] = true
          table.insert(queue, n)
        end
      elseif n ~= cell and not tseen[n] then
        tseen[n] = true
        table.insert(targets, n)
      end
    end
  end
  table.sort(targets)
  return targets
end

-- ---------------------------------------------------------------- spying

local function spy_targets(g, player)
  local out, seen = {}, {}
  for _, p in ipairs(g:pieces({ owner = player })) do
    for _, name in ipairs(DIR_ORDER) do
      local d = DIRS[name]
      local c = step(g, p.cell, d[1], d[2])
      while c do
        local q = scout_at(g, c)
        if q then
          if q.owner ~= player and not seen[c] then
            seen[c] = true
            table.insert(out, c)
          end
          break
        end
        c = step(g, c, d[1], d[2])
      end
    end
  end
  table.sort(out)
  return out
end

-- ---------------------------------------------------------------- bombs

local function bomb_lines(pattern, orientation)
  if pattern == "orth" then
    return { DIRS.north, DIRS.south, DIRS.east, DIRS.west }
  elseif pattern == "diag" then
    return DIAGS
  elseif orientation == "vertical" then
    return { DIRS.north, DIRS.south }
  end
  return { DIRS.east, DIRS.west }
end

local offer_expert

local function continue_bomb(g)
  local targets = {}
  for c, _ in pairs(g:marked("target")) do
    if scout_at(g, c) then
      table.insert(targets, c)
    else
      g:clear_mark(c, "target")
    end
  end
  table.sort(targets)
  if #targets == 0 then
    g:set_counter("bomb_value", 0)
    return
  end
  if #targets == 1 then
    offer_expert(g, targets[1], 1)
  else
    g:choose(g:player(), "the bomb hits next", targets, PUBLIC)
  end
end

-- Offers the bomb expert to the next player (in turn order from `after`)
-- who can pay; resolves the hit on `cell` when nobody is left to ask.
function offer_expert(g, cell, from_index)
  local order = g:turn_order()
  for i = from_index, #order do
    if coins(g, order[i]) >= 2 then
      g:set_counter("bomb_asked", i)
      g:set_counter("bomb_cell", g:cell(cell).index)
      g:choose(order[i], "bomb expert? the bomb is about to hit " .. cell, { "pass", "expert" }, PUBLIC)
      return
    end
  end
  -- Nobody stops it: the hit.
  g:clear_mark(cell, "target")
  local p = scout_at(g, cell)
  local v = g:counter("bomb_value")
  if p then
    local val = value_of(p) + ring_of(p)
    g:clear_attr(p.id, "ring")
    g:reveal(p.id, "all")
    if value_of(p) == 1 or val <= v then
      g:log("the bomb hits " .. p.owner .. "'s scout on " .. cell .. ": back to the boat")
      to_boat(g, p, cell)
    else
      g:log("the bomb hits " .. p.owner .. "'s scout on " .. cell .. ": it stays")
    end
  end
  continue_bomb(g)
end

local function start_bomb(g, cell, value, pattern, orientation)
  local n = 0
  for _, d in ipairs(bomb_lines(pattern, orientation)) do
    local c = step(g, cell, d[1], d[2])
    while c do
      if scout_at(g, c) then
        g:set_mark(c, "target", "hit")
        n += 1
      end
      c = step(g, c, d[1], d[2])
    end
  end
  g:log("the bomb on " .. cell .. " (value " .. value .. ") explodes"
    .. (orientation and (" " .. orientation .. "ly") or "") .. ": " .. n .. " scouts in its lines")
  g:set_counter("bomb_value", value)
  continue_bomb(g)
end

-- ---------------------------------------------------------------- storms

local function storm_dirs(g, cell)
  local out = {}
  for _, name in ipairs(DIR_ORDER) do
    local d = DIRS[name]
    local c = step(g, cell, d[1], d[2])
    while c do
      if scout_at(g, c) then
        table.insert(out, name)
        break
      end
      c = step(g, c, d[1], d[2])
    end
  end
  return out
end

-- The storm tile disappears (advanced option): shallow water.
local function vanish(g, cell)
  if g:mark(cell, "tile") ~= nil and scout_at(g, cell) == nil then
    g:set_cell_counter("coins", cell, 0)
    g:clear_mark(cell, "tile")
    g:clear_mark(cell, "content")
    g:clear_mark(cell, "new")
    g:set_terrain(cell, "water", true)
    g:log("the storm tile " .. cell .. " disappears")
  end
end

local function blow(g, cell, dir)
  local d = DIRS[dir]
  local line = {}
  local c = step(g, cell, d[1], d[2])
  while c do
    table.insert(line, c)
    c = step(g, c, d[1], d[2])
  end
  g:log("the storm on " .. cell .. " blows " .. dir)
  -- Farthest first, so each scout moves into the place the next one left.
  for i = #line, 1, -1 do
    local p = scout_at(g, line[i])
    if p then
      local dest = line[i + 1]
      if dest == nil or is_water(g, dest) then
        g:log(p.owner .. "'s scout on " .. line[i] .. " is blown into the water")
        to_boat(g, p, line[i])
      else
        move_to(g, p, dest)
      end
    end
  end
  if options.storms_disappear then
    vanish(g, cell)
  end
end

local function start_storm(g, cell)
  local dirs = storm_dirs(g, cell)
  if #dirs == 0 then
    g:log("the storm on " .. cell .. " finds nobody to blow away")
    if options.storms_disappear then
      vanish(g, cell)
    end
    return
  end
  g:choose(g:player(), "storm on " .. cell .. ": which direction", dirs, PUBLIC)
end

-- ---------------------------------------------------------------- flipping

local function flip(g, cell)
  local content = g:mark(cell, "content") or ""
  g:set_mark(cell, "tile", "up")
  g:clear_mark(cell, "content")
  local n = string.match(content, "^loot(%d+)$")
  if n then
    g:set_cell_counter("coins", cell, tonumber(n) or 0)
    g:set_mark(cell, "new", "1", "none")
    g:log(g:player() .. " turns " .. cell .. ": " .. n .. " coins")
    return
  end
  local value, pattern = string.match(content, "^bomb(%d+)_(%a+)$")
  if value then
    g:log(g:player() .. " turns " .. cell .. ": a bomb of value " .. value .. " (" .. pattern .. ")")
    if pattern == "line" then
      g:set_counter("bomb_tile", g:cell(cell).index)
      g:choose(g:player(), "bomb on " .. cell .. " (value " .. value .. "): which orientation",
        { "horizontal", "vertical" }, PUBLIC)
      g:set_counter("bomb_value", tonumber(value) or 0)
    else
      start_bomb(g, cell, tonumber(value) or 0, pattern, nil)
    end
    return
  end
  if content == "storm" then
    g:log(g:player() .. " turns " .. cell .. ": a storm")
    start_storm(g, cell)
    return
  end
  g:log(g:player() .. " turns " .. cell .. ": nothing")
end

-- ---------------------------------------------------------------- shrinking

-- Stone tiles carry the public mark "stone" for good (also once turned).
local function removable(g, cell)
  return on_island(g, cell) and g:mark(cell, "tile") ~= nil and g:mark(cell, "stone") == nil
    and not flag_lies(g, cell)
end

local function shrink_candidates(g)
  for _, ring in ipairs({ "outer", "middle", "centre" }) do
    local free, taken = {}, {}
    for _, c in ipairs(g:zone(ring)) do
      if removable(g, c) then
        if scout_at(g, c) then
          table.insert(taken, c)
        else
          table.insert(free, c)
        end
      end
    end
    table.sort(free)
    table.sort(taken)
    if #free > 0 then
      return free
    end
    if #taken > 0 then
      return taken
    end
  end
  return {}
end

local function finish_turn(g)
  for _, k in ipairs({ "actions", "reinforced", "bought_reinforce", "bought", "won_fight", "ending" }) do
    set_turn(g, k, 0)
  end
  for c, _ in pairs(g:marked("new")) do
    g:clear_mark(c, "new")
  end
  check_win(g)
end

local function distance(g, a, b)
  local f1, r1 = g:coords(a)
  local f2, r2 = g:coords(b)
  return math.abs(f1 - f2) + math.abs(r1 - r2)
end

-- Places the flag on the island tile nearest `from` (a choice on ties).
local function flag_to_nearest(g, from)
  local best, list = 99, {}
  for _, c in ipairs(all_cells(g)) do
    if c ~= from and on_island(g, c) then
      local d = distance(g, from, c)
      if d < best then
        best, list = d, { c }
      elseif d == best then
        table.insert(list, c)
      end
    end
  end
  return list
end

local function put_flag(g, cell)
  local p = scout_at(g, cell)
  if p then
    g:set_attr(p.id, "flag", 1)
    g:log("the flag moves to " .. cell .. ": " .. p.owner .. "'s scout takes it")
  else
    g:set_mark(cell, "item", "flag")
    g:log("the flag moves to " .. cell)
  end
end

-- Removes a tile; returns true when the turn must wait for a choice.
local function remove_tile(g, cell)
  local me = g:player()
  local content = g:mark(cell, "content")
  local face = g:mark(cell, "tile")
  local words = cell
  if face == "down" and content then
    if options.removed_face_down then
      words = cell .. " (face down)"
    else
      words = cell .. " (" .. content .. ")"
    end
  end
  g:log(me .. " removes the tile " .. words)
  local coins_here = g:cell_counter("coins", cell)
  if coins_here > 0 then
    g:log(coins_here .. " coins sink with it")
  end
  g:set_cell_counter("coins", cell, 0)
  g:clear_mark(cell, "tile")
  g:clear_mark(cell, "content")
  g:clear_mark(cell, "new")
  local wait = false
  local p = scout_at(g, cell)
  local flag_moves = false
  if p then
    flag_moves = has_flag(p)
    to_boat(g, p, nil)
  end
  g:set_terrain(cell, "water", true)
  if flag_moves then
    local list = flag_to_nearest(g, cell)
    if #list == 1 then
      put_flag(g, list[1])
    elseif #list > 1 then
      g:choose(me, "where the flag goes", list, PUBLIC)
      wait = true
    end
  end
  if face == "down" and content then
    local n = string.match(content, "^loot(%d+)$")
    if n and options.extra_loot and turn(g, "won_fight") > 0 then
      add_coins(g, me, tonumber(n) or 0)
      g:log(me .. " takes the " .. n .. " coins (extra loot)")
    end
    if content == "storm" and options.shrink_storms and not wait then
      local dirs = storm_dirs(g, cell)
      if #dirs > 0 then
        g:choose(me, "storm on " .. cell .. ": which direction", dirs, PUBLIC)
        wait = true
      end
    end
  end
  return wait
end

local function shrink(g)
  local me = g:player()
  set_turn(g, "ending", 1)
  if #g:pieces({ owner = me }) == 0 then
    finish_turn(g)
    return
  end
  local list = shrink_candidates(g)
  if #list == 0 then
    finish_turn(g)
  elseif #list == 1 then
    if not remove_tile(g, list[1]) then
      finish_turn(g)
    end
  else
    g:choose(me, "remove a tile", list, PUBLIC)
  end
end

-- ---------------------------------------------------------------- setup

local function seat_stones(g)
  local n = #g:players()
  return split(options["seats_" .. n] or options.seats_4, ",")
end

local function place_tiles(g, stones)
  local stone_mix = shuffle(expand_mix(options.stone_mix))
  local mix = shuffle(expand_mix(options.tile_mix))
  local k, j = 1, 1
  for _, c in ipairs(all_cells(g)) do
    if contains(stones, c) then
      g:set_mark(c, "tile", "stone")
      g:set_mark(c, "stone", "1")
      g:set_mark(c, "content", stone_mix[k] or "loot1", "none")
      k += 1
    else
      g:set_mark(c, "tile", "down")
      g:set_mark(c, "content", mix[j] or "loot1", "none")
      j += 1
    end
  end
end

local function setup_stage(g)
  return g:counter("setup_stage")
end

function rules.setup(g)
  local players = g:players()
  for _, p in ipairs(players) do
    g:set_counter("coins", options.start_coins, p)
  end
  if options.free_setup then
    -- Stone tiles placed in turn, then scouts one at a time.
    g:set_counter("setup_stage", 1)
    g:choose(players[1], "place a stone tile", all_cells(g), PUBLIC)
    return
  end
  local stones = split(options.stones, ",")
  place_tiles(g, stones)
  local seats = seat_stones(g)
  for i, p in ipairs(players) do
    local values = shuffle({ 1, 2, 3, 4, 5, 6 })
    if options.choose_setup then
      for _, v in ipairs(values) do
        g:add_piece("v" .. v, p, "boat")
      end
    else
      local around = g:zone("around_" .. seats[i])
      for n, v in ipairs(values) do
        g:add_piece("v" .. v, p, n <= 3 and around[n] or "boat")
      end
    end
  end
  if options.choose_setup then
    g:set_counter("setup_stage", 3)
    local first = players[1]
    g:choose(first, "which scout starts on " .. g:zone("around_" .. seats[1])[1], { "1", "2", "3", "4", "5", "6" })
  end
end

-- The setup choices: in turn, each player names the scouts for the three
-- start tiles, then the order of the other three in the boat (front first).
local function setup_next(g)
  local players = g:players()
  local seats = seat_stones(g)
  for i, p in ipairs(players) do
    local around = g:zone("around_" .. seats[i])
    local placed = #g:pieces({ owner = p })
    local b = boat(g, p)
    local left = {}
    for _, q in ipairs(b) do
      table.insert(left, tostring(q.rank))
    end
    table.sort(left)
    if placed < 3 then
      g:choose(p, "which scout starts on " .. around[placed + 1], left)
      return
    end
    local ordered = g:counter("boat_ordered", p)
    if ordered < 2 then
      -- The first `ordered` boat places are fixed; choose the next one.
      local rest = {}
      for n = ordered + 1, #b do
        table.insert(rest, tostring(b[n].rank))
      end
      table.sort(rest)
      g:choose(p, "which scout goes to boat place " .. (ordered + 1), rest)
      return
    end
  end
  g:set_counter("setup_stage", 0)
end

local function free_setup_next(g)
  local players = g:players()
  local stones = {}
  for c, v in pairs(g:marked("tile")) do
    if v == "stone" then
      table.insert(stones, c)
    end
  end
  if #stones < 4 then
    local free = {}
    for _, c in ipairs(all_cells(g)) do
      if not contains(stones, c) then
        table.insert(free, c)
      end
    end
    g:choose(players[(#stones % #players) + 1], "place a stone tile", free, PUBLIC)
    return
  end
  if g:counter("setup_stage") == 1 then
    place_tiles(g, stones)
    for _, p in ipairs(players) do
      -- In a shuffled order, so that a scout's id says nothing of its value.
      for _, v in ipairs(shuffle({ 1, 2, 3, 4, 5, 6 })) do
        g:add_piece("v" .. v, p, "boat")
      end
    end
    g:set_counter("setup_stage", 2)
  end
  -- Scouts one at a time, in turn order, until each player has 3.
  local total = #g:pieces()
  if total < 3 * #players then
    local p = players[(total % #players) + 1]
    local opts = {}
    for _, c in ipairs(all_cells(g)) do
      if scout_at(g, c) == nil and not contains(stones, c) then
        for _, q in ipairs(boat(g, p)) do
          table.insert(opts, "v" .. q.rank .. " " .. c)
        end
      end
    end
    table.sort(opts)
    g:choose(p, "place a scout (value and tile)", opts)
    return
  end
  g:set_counter("setup_stage", 3)
  setup_next(g)
end

-- ---------------------------------------------------------------- actions

-- One read of the board for listing actions: scouts by cell, tile faces
-- (a cell without a tile is water), the flag lying.
local function snapshot(g)
  local occ = {}
  for _, p in ipairs(g:pieces()) do
    occ[p.cell] = p
  end
  return { occ = occ, tiles = g:marked("tile"), items = g:marked("item") }
end

local NEIGHBORS = {}
for _, c in ipairs(ALL) do
  local f, r = string.byte(c, 1) - 96, tonumber(string.sub(c, 2))
  local list = {}
  for _, d in ipairs({ { 0, 1 }, { 1, 0 }, { 0, -1 }, { -1, 0 } }) do
    local nf, nr = f + d[1], r + d[2]
    if nf >= 1 and nf <= 6 and nr >= 1 and nr <= 6 then
      table.insert(list, string.char(96 + nf) .. nr)
    end
  end
  NEIGHBORS[c] = list
end
table.freeze(NEIGHBORS)

local function fast_swim_targets(sn, cell)
  local seen, queue = {}, {}
  for _, n in ipairs(NEIGHBORS[cell]) do
    if sn.tiles[n] == nil and not seen[n] then
      seen[n] = true
      table.insert(queue, n)
    end
  end
  local targets, tseen = {}, {}
  local i = 1
  while i <= #queue do
    local w = queue[i]
    i += 1
    for _, n in ipairs(NEIGHBORS[w]) do
      if sn.tiles[n] == nil then
        if not seen[n] then
          seen[n] = true
          table.insert(queue, n)
        end
      elseif n ~= cell and not tseen[n] then
        tseen[n] = true
        table.insert(targets, n)
      end
    end
  end
  table.sort(targets)
  return targets
end

local function fast_landing(sn, me)
  local near, seen = {}, {}
  for c, p in pairs(sn.occ) do
    if p.owner == me then
      for _, n in ipairs(NEIGHBORS[c]) do
        if not seen[n] and sn.tiles[n] ~= nil and sn.occ[n] == nil then
          seen[n] = true
          table.insert(near, n)
        end
      end
    end
  end
  if #near == 0 then
    for _, c in ipairs(ALL) do
      if sn.tiles[c] ~= nil and sn.occ[c] == nil then
        table.insert(near, c)
      end
    end
  end
  table.sort(near)
  return near
end

local function fast_spy(g, sn, me)
  local out, seen = {}, {}
  for c, p in pairs(sn.occ) do
    if p.owner == me then
      local f, r = string.byte(c, 1) - 96, tonumber(string.sub(c, 2)) or 0
      for _, name in ipairs(DIR_ORDER) do
        local d = DIRS[name]
        local nf, nr = f + d[1], r + d[2]
        while nf >= 1 and nf <= 6 and nr >= 1 and nr <= 6 do
          local n = string.char(96 + nf) .. nr
          local q = sn.occ[n]
          if q then
            if q.owner ~= me and not seen[n] then
              seen[n] = true
              table.insert(out, n)
            end
            break
          end
          nf, nr = nf + d[1], nr + d[2]
        end
      end
    end
  end
  table.sort(out)
  return out
end

function rules.actions(g)
  local me = g:player()
  local out = {}
  if setup_stage(g) > 0 then
    return out
  end
  local sn = snapshot(g)
  local acting = turn(g, "actions") < 2 and (turn(g, "bought") == 0 or options.power_ups_any_time)
  local mine = {}
  for _, c in ipairs(ALL) do
    local p = sn.occ[c]
    if p and p.owner == me then
      table.insert(mine, p)
    end
  end
  local front = boat(g, me)[1]
  local landing = nil
  if front then
    landing = fast_landing(sn, me)
  end
  if acting then
    for _, p in ipairs(mine) do
      for _, n in ipairs(NEIGHBORS[p.cell]) do
        if sn.tiles[n] ~= nil then
          local q = sn.occ[n]
          if q == nil then
            table.insert(out, p.cell .. "-" .. n)
          elseif q.owner ~= me then
            table.insert(out, p.cell .. "x" .. n)
          end
        end
      end
      for _, t in ipairs(fast_swim_targets(sn, p.cell)) do
        local q = sn.occ[t]
        if q == nil or q.owner ~= me then
          table.insert(out, p.cell .. "~" .. t)
        end
      end
    end
    local flips = {}
    for _, p in ipairs(mine) do
      for _, n in ipairs(NEIGHBORS[p.cell]) do
        if sn.tiles[n] == "down" and sn.occ[n] == nil and sn.items[n] == nil and not flips[n] then
          flips[n] = true
          table.insert(out, "flip " .. n)
        end
      end
    end
    if front and turn(g, "reinforced") == 0 then
      for _, c in ipairs(landing) do
        table.insert(out, "reinforce " .. c)
      end
    end
  end
  if coins(g, me) >= 1 then
    for _, p in ipairs(mine) do
      if ring_of(p) == 0 then
        table.insert(out, "ring " .. p.cell)
      end
    end
    if front and turn(g, "bought_reinforce") == 0 then
      for _, c in ipairs(landing) do
        table.insert(out, "buy reinforce " .. c)
      end
    end
    for _, c in ipairs(fast_spy(g, sn, me)) do
      table.insert(out, "spy " .. c)
    end
  end
  table.insert(out, "end")
  return out
end

local function bought(g)
  if not options.power_ups_any_time then
    set_turn(g, "bought", 1)
  end
end

function rules.perform(g, label)
  local me = g:player()
  if label == "end" then
    shrink(g)
    check_win(g)
    return
  end
  g:continue_turn()
  local verb, arg = string.match(label, "^(%a+) (.+)$")
  if verb == "flip" then
    set_turn(g, "actions", turn(g, "actions") + 1)
    flip(g, arg)
  elseif verb == "reinforce" then
    set_turn(g, "actions", turn(g, "actions") + 1)
    set_turn(g, "reinforced", 1)
    reinforce(g, me, arg)
  elseif verb == "ring" then
    add_coins(g, me, -1)
    g:set_attr(scout_at(g, arg).id, "ring", 1)
    g:log(me .. " buys a power ring for the scout on " .. arg)
    bought(g)
  elseif verb == "buy" then
    local cell = string.match(arg, "^reinforce (.+)$")
    add_coins(g, me, -1)
    set_turn(g, "bought_reinforce", 1)
    bought(g)
    reinforce(g, me, cell)
  elseif verb == "spy" then
    add_coins(g, me, -1)
    g:reveal(scout_at(g, arg).id, me)
    g:log(me .. " spies on the scout on " .. arg)
    bought(g)
  else
    local from, sep, to = string.match(label, "^(%a%d)([-x~])(%a%d)$")
    local p = scout_at(g, from)
    local q = scout_at(g, to)
    set_turn(g, "actions", turn(g, "actions") + 1)
    if q then
      if sep == "~" then
        set_turn(g, "actions", 2)
      end
      fight(g, p, q)
    else
      move_to(g, p, to)
    end
  end
  check_win(g)
end

function rules.on_choice(g, player, reason, option)
  if setup_stage(g) > 0 then
    -- Setup choices are no turns: the first player starts when they are done.
    g:continue_turn()
  end
  if string.find(reason, "^place a stone tile") then
    g:set_mark(option, "tile", "stone")
    free_setup_next(g)
    return
  end
  if string.find(reason, "^place a scout") then
    local kind, cell = string.match(option, "^v(%d) (%a%d)$")
    for _, q in ipairs(boat(g, player)) do
      if tostring(q.rank) == kind then
        g:move(q.id, cell)
        break
      end
    end
    free_setup_next(g)
    return
  end
  if string.find(reason, "^which scout starts on") then
    local cell = string.match(reason, "(%a%d)$")
    for _, q in ipairs(boat(g, player)) do
      if tostring(q.rank) == option then
        g:move(q.id, cell)
        break
      end
    end
    setup_next(g)
    return
  end
  if string.find(reason, "^which scout goes to boat place") then
    local ordered = g:counter("boat_ordered", player)
    for n, q in ipairs(boat(g, player)) do
      if n > ordered and tostring(q.rank) == option then
        -- Move it to the front, then the fixed ones back in front of it.
        local b = boat(g, player)
        g:send(q.id, "boat", player, true)
        for m = ordered, 1, -1 do
          g:send(b[m].id, "boat", player, true)
        end
        break
      end
    end
    g:set_counter("boat_ordered", ordered + 1, player)
    setup_next(g)
    return
  end
  -- Everything below happens inside a turn.
  if reason == "remove a tile" then
    if not remove_tile(g, option) then
      finish_turn(g)
    end
    return
  end
  if reason == "where the flag goes" then
    put_flag(g, option)
    -- A storm under the removed tile (advanced) is not applied after a flag move.
    finish_turn(g)
    return
  end
  local storm_cell = string.match(reason, "^storm on (%a%d)")
  if storm_cell then
    blow(g, storm_cell, option)
    if turn(g, "ending") > 0 then
      -- A storm from a removed tile (shrinking): the turn ends with it.
      finish_turn(g)
    else
      g:continue_turn()
    end
    check_win(g)
    return
  end
  g:continue_turn()
  local bomb_cell = string.match(reason, "^bomb on (%a%d)")
  if bomb_cell then
    local value, pattern = g:counter("bomb_value"), "line"
    start_bomb(g, bomb_cell, value, pattern, option)
  elseif reason == "the bomb hits next" then
    offer_expert(g, option, 1)
  elseif string.find(reason, "^bomb expert") then
    local cell = g:cell_name(g:counter("bomb_cell"))
    if option == "expert" then
      add_coins(g, player, -2)
      g:log(player .. " pays a bomb expert: the bomb stops")
      for c, _ in pairs(g:marked("target")) do
        g:clear_mark(c, "target")
      end
      g:set_counter("bomb_value", 0)
    else
      offer_expert(g, cell, g:counter("bomb_asked") + 1)
    end
  end
  check_win(g)
end
