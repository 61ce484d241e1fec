-- Stratego Lost Island (docs/rules/lost_island.md). The YAML declares the turn's
-- actions (which cells, what they cost, how they count); the host lists
-- them and keeps the turn's steps. This script says what each one does.
-- State (all in the host): scouts v1..v6 (rank = value; attrs flag, ring),
-- a "boat" container per player (front first), "coins" counters per player
-- and on cells (loot lying), marks "tile" (down | stone | up), "stone" (a
-- stone tile not yet ordinary), "item" = flag (the flag lying), "new" (loot found this turn), "target"
-- (scouts the exploding bomb still has to hit); the turn note won_fight.
-- What lies under the face-down tiles is in two bags of the YAML
-- (containers "tiles" and "stones", nobody sees into them): a tile's token
-- is drawn when the tile is turned or removed face down.

-- Choices everyone sees at the table (a bomb's orientation, a storm's
-- direction, the tile removed...) are public; setup answers are not.
local PUBLIC = true
local DIRS = { north = { 0, 1 }, south = { 0, -1 }, east = { 1, 0 }, west = { -1, 0 } }
local DIR_ORDER = { "north", "east", "south", "west" }
-- A bomb's lines by pattern (a line bomb: by the orientation chosen).
local LINES = {
  orth = { DIRS.north, DIRS.south, DIRS.east, DIRS.west },
  diag = { { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 } },
  vertical = { DIRS.north, DIRS.south },
  horizontal = { DIRS.east, DIRS.west },
}

local function shuffle(list)
  for i = #list, 2, -1 do
    local j = math.random(i)
    list[i], list[j] = list[j], list[i]
  end
  return list
end

local function boat(g, player) return g:container("boat", player) end
local function add_coins(g, p, n) g:set_counter("coins", g:counter("coins", p) + n, p) end
local function coin_words(n) return n == 1 and "1 coin" or (n .. " coins") end

-- The token under a tile being turned: drawn from a bag ("tiles", or
-- "stones" for a stone tile).
local function draw_token(g, bag)
  return tokens[g:draw_from(bag) or "loot1"]
end

local function ring_of(p) return (p.ring or 0) > 0 and 1 or 0 end
local function has_flag(p) return (p.flag or 0) > 0 end

-- A scout goes to the back of its owner's boat; its ring is lost; a flag it
-- carried drops on `drop_at` (or stays with the caller, who handles it).
local function to_boat(g, p, drop_at)
  if has_flag(p) and drop_at then g:set_mark(drop_at, "item", "flag") end
  g:clear_attr(p.id, "ring")
  g:clear_attr(p.id, "flag")
  g:send(p.id, "boat", p.owner)
end

-- Turns a stone tile (entering it) and gives its content to the scout. The
-- flag's stone tile is an ordinary tile once the flag has left it.
local function enter(g, p, cell)
  if g:mark(cell, "tile") == "stone" then
    local t = draw_token(g, "stones")
    g:set_mark(cell, "tile", "up")
    if t.flag then
      g:set_attr(p.id, "flag", 1)
      g:clear_mark(cell, "stone")
      g:log(p.owner .. " turns the stone tile " .. cell .. ": the flag!")
    else
      local n = t.loot or 0
      add_coins(g, p.owner, n)
      g:log(p.owner .. " turns the stone tile " .. cell .. " and takes " .. coin_words(n))
    end
  end
  if g:mark(cell, "item") == "flag" then
    g:clear_mark(cell, "item")
    g:set_attr(p.id, "flag", 1)
    g:log(p.owner .. " picks up the flag on " .. cell)
  end
  local c = g:cell_counter("coins", cell)
  if c > 0 and g:mark(cell, "new") == nil then
    g:set_cell_counter("coins", cell, 0)
    add_coins(g, p.owner, c)
    g:log(p.owner .. " takes " .. coin_words(c) .. " on " .. cell)
  end
end

local function move_to(g, p, cell)
  g:move(p.id, cell)
  enter(g, g:piece(p.id), cell)
end

-- Who wins between printed values a and b with rings ra, rb: 1, -1 or 0.
local function compare(a, ra, b, rb)
  if a == 1 and b == 6 then return 1 elseif a == 6 and b == 1 then return -1 end
  local x, y = a + ra, b + rb
  return x > y and 1 or (x < y and -1 or 0)
end

local function side(p) return p.owner .. " " .. p.rank .. (ring_of(p) > 0 and "+ring" or "") end

-- The loser goes to its boat (both on a tie); the flag goes to the winner
-- (drops on the contested tile on a tie); the winner holds the tile.
local function fight(g, att, def)
  local from, to = att.cell, def.cell
  local who = options.secret_fights and { att.owner, def.owner } or "all"
  g:reveal(att.id, who)
  g:reveal(def.id, who)
  local r = compare(att.rank, ring_of(att), def.rank, ring_of(def))
  g:clear_attr(att.id, "ring")
  g:clear_attr(def.id, "ring")
  local flag = has_flag(att) or has_flag(def)
  local win, lose = att, def
  if r < 0 then win, lose = def, att end
  to_boat(g, lose, nil)
  if r == 0 then
    to_boat(g, win, nil)
    if flag then g:set_mark(to, "item", "flag") end
  elseif flag then
    g:set_attr(win.id, "flag", 1)
  end
  if r > 0 then
    move_to(g, g:piece(att.id), to)
    g:note_turn("won_fight")
  end
  local words = r == 0 and "a tie: both go back to their boats" or (win.owner .. " wins")
  local sides = options.secret_fights and (" (" .. att.owner .. " against " .. def.owner .. ")")
    or (": " .. side(att) .. " against " .. side(def))
  g:log("fight " .. from .. "x" .. to .. sides .. ": " .. words)
end

-- The next hit of an exploding bomb of value `value`: the flipper orders them.
local function continue_bomb(g, value)
  local targets = {}
  for c, _ in pairs(g:marked("target")) do
    if g:piece_at(c) then
      table.insert(targets, c)
    else
      g:clear_mark(c, "target")
    end
  end
  table.sort(targets)
  if #targets == 1 then
    -- Before a hit, the window `bomb`: a player may pay a bomb expert.
    g:open_window("bomb", { cell = targets[1], value = value })
  elseif #targets > 1 then
    g:choose(g:player(), "the bomb hits next", targets, PUBLIC, "bomb_next", { value = value })
  end
end

-- Nobody paid a bomb expert: the bomb hits the scout on `cell`, then goes on
-- (the host ends the game at once if the hit leaves the flag's holder alone:
-- `rules.ends.win_when` in the YAML).
function rules.bomb_hit(g, data)
  local cell, value = data.cell, data.value
  g:clear_mark(cell, "target")
  local p = g:piece_at(cell)
  if p then
    g:clear_attr(p.id, "ring")
    g:reveal(p.id, "all")
    if p.rank == 1 or p.rank + ring_of(p) <= value then
      g:log("the bomb hits " .. p.owner .. "'s scout on " .. cell .. ": back to the boat")
      to_boat(g, p, cell)
    else
      g:log("the bomb hits " .. p.owner .. "'s scout on " .. cell .. ": it stays")
    end
  end
  continue_bomb(g, value)
end

local function start_bomb(g, cell, value, pattern, orientation)
  local n = 0
  for _, d in ipairs(LINES[orientation or pattern]) do
    for _, c in ipairs(g:line(cell, d[1], d[2])) do
      if g:piece_at(c) then
        g:set_mark(c, "target", "hit")
        n += 1
      end
    end
  end
  g:log("the bomb on " .. cell .. " (value " .. value .. ") explodes"
    .. (orientation and (" " .. orientation .. "ly") or "") .. ": " .. n .. " scouts in its lines")
  continue_bomb(g, value)
end

local function storm_dirs(g, cell)
  local out = {}
  for _, name in ipairs(DIR_ORDER) do
    for _, c in ipairs(g:line(cell, DIRS[name][1], DIRS[name][2])) do
      if g:piece_at(c) then
        table.insert(out, name)
        break
      end
    end
  end
  return out
end

-- A tile goes: shallow water, with the `coins` that lay on it (and the
-- mark of loot found this turn). A tile that goes is never a stone tile
-- not yet ordinary (the shrink's query leaves them out; a vanishing storm
-- tile is not one).
local function sink(g, cell, coins)
  if coins > 0 then
    g:set_cell_counter("coins", cell, 0)
    g:clear_mark(cell, "new")
  end
  g:clear_mark(cell, "tile")
  g:set_terrain(cell, "water", true)
end

-- The storm tile disappears (advanced option).
local function vanish(g, cell)
  if g:mark(cell, "tile") ~= nil and g:piece_at(cell) == nil then
    sink(g, cell, g:cell_counter("coins", cell))
    g:log("the storm tile " .. cell .. " disappears")
  end
end

local function blow(g, cell, dir)
  local cells = g:line(cell, DIRS[dir][1], DIRS[dir][2])
  g:log("the storm on " .. cell .. " blows " .. dir)
  -- Farthest first, so each scout moves into the place the next one left.
  for i = #cells, 1, -1 do
    local p = g:piece_at(cells[i])
    if p then
      local dest = cells[i + 1]
      if dest == nil or g:has_terrain(dest, "water") then
        g:log(p.owner .. "'s scout on " .. cells[i] .. " is blown into the water")
        to_boat(g, p, cells[i])
      else
        move_to(g, p, dest)
      end
    end
  end
  if options.storms_disappear then vanish(g, cell) end
end

-- Asks the direction of a storm on `cell`; false when nobody is in its lines.
local function ask_storm(g, player, cell, ending)
  local dirs = storm_dirs(g, cell)
  if #dirs == 0 then return false end
  g:choose(player, "storm on " .. cell .. ": which direction", dirs, PUBLIC, "storm", { cell = cell, ending = ending })
  return true
end

local function finish_turn(g)
  for c, _ in pairs(g:marked("new")) do g:clear_mark(c, "new") end
end

-- The island tiles nearest `from` (a choice on ties).
local function flag_to_nearest(g, from)
  local f0, r0 = g:coords(from)
  local best, list = 99, {}
  for _, c in ipairs(g:cells()) do
    if c ~= from and not g:has_terrain(c, "water") then
      local f, r = g:coords(c)
      local d = math.abs(f - f0) + math.abs(r - r0)
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
  local p = g:piece_at(cell)
  if p then
    g:set_attr(p.id, "flag", 1)
    g:log("the flag moves to " .. cell .. ": " .. p.owner .. "'s scout takes it")
  else
    g:set_mark(cell, "item", "flag")
    g:log("the flag moves to " .. cell)
  end
end

-- Removes a tile; returns true when the turn must wait for a choice.
local function remove_tile(g, me, cell, won_fight)
  local face = g:mark(cell, "tile")
  local t = face == "down" and draw_token(g, "tiles") or nil
  local words = cell
  if face == "down" and t then
    words = cell .. (options.removed_face_down and " (face down)" or (" (" .. t.name .. ")"))
  end
  g:log(me .. " removes the tile " .. words)
  local coins_here = g:cell_counter("coins", cell)
  if coins_here > 0 then g:log(coin_words(coins_here) .. " sink with it") end
  local p = g:piece_at(cell)
  local flag_moves = p ~= nil and has_flag(p)
  if p then to_boat(g, p, nil) end
  sink(g, cell, coins_here)
  if flag_moves then
    local list = flag_to_nearest(g, cell)
    if #list == 1 then
      put_flag(g, list[1])
    elseif #list > 1 then
      g:choose(me, "where the flag goes", list, PUBLIC, "flag_goes")
      return true
    end
  end
  if face == "down" and t then
    if t.loot and options.extra_loot and won_fight then
      add_coins(g, me, t.loot)
      g:log(me .. " takes the " .. coin_words(t.loot) .. " (extra loot)")
    end
    if t.storm and options.shrink_storms then return ask_storm(g, me, cell, true) end
  end
  return false
end

-- A move (made by the host): what the scout finds where it arrives.
function rules.arrive(g, a)
  enter(g, g:piece_at(a.to), a.to)
end

function rules.attack(g, a)
  fight(g, g:piece_at(a.from), g:piece_at(a.to))
end

-- A swim (the host moves the swimmer onto a free tile) onto an enemy scout
-- is a fight, which counts as the turn's second action.
function rules.swim(g, a)
  local p = g:piece_at(a.from)
  if p then
    g:close_actions()
    fight(g, p, g:piece_at(a.to))
  else
    rules.arrive(g, a)
  end
end

function rules.flip(g, a)
  local cell, me = a.cell, g:player()
  local t = draw_token(g, "tiles")
  g:set_mark(cell, "tile", "up")
  local value, pattern = t.bomb, t.pattern
  if t.loot then
    g:set_cell_counter("coins", cell, t.loot)
    g:set_mark(cell, "new", "1", "none")
    g:log(me .. " turns " .. cell .. ": loot of " .. coin_words(t.loot))
  elseif value then
    g:log(me .. " turns " .. cell .. ": a bomb of value " .. value .. " (" .. pattern .. ")")
    if pattern == "line" then
      g:choose(me, "bomb on " .. cell .. " (value " .. value .. "): which orientation",
        { "horizontal", "vertical" }, PUBLIC, "bomb_orientation", { cell = cell, value = value })
    else
      start_bomb(g, cell, value, pattern, nil)
    end
  elseif t.storm then
    g:log(me .. " turns " .. cell .. ": a storm")
    if not ask_storm(g, me, cell, false) then
      g:log("the storm on " .. cell .. " finds nobody to blow away")
      if options.storms_disappear then vanish(g, cell) end
    end
  else
    g:log(me .. " turns " .. cell .. ": nothing")
  end
end

-- A reinforcement (landed by the host) finds something.
function rules.reinforce(g, a)
  enter(g, g:piece_at(a.cell), a.cell)
end

function rules.ring(g, a)
  g:set_attr(g:piece_at(a.cell).id, "ring", 1)
  g:log(g:player() .. " buys a power ring for the scout on " .. a.cell)
end

function rules.spy(g, a)
  g:reveal(g:piece_at(a.cell).id, g:player())
  g:log(g:player() .. " spies on the scout on " .. a.cell)
end

-- The end of the action part with no tile to remove (or no scout of the
-- player's on the island): the turn ends. The shrink itself is declared
-- (`actions.end.choose` in the YAML): the tile removed comes to
-- rules.remove_tile.
function rules.end_turn(g)
  finish_turn(g)
end

function rules.remove_tile(g, player, cell)
  if not remove_tile(g, player, cell, g:turn_noted("won_fight")) then finish_turn(g) end
end

-- A storm from a removed tile is not applied after a flag move. An answer
-- keeps the turn as the action that asked it did: a storm or a bomb inside
-- the turn goes on with it; a choice of the turn's end ends it.
function rules.flag_goes(g, _, cell)
  put_flag(g, cell)
  finish_turn(g)
end

function rules.storm(g, _, dir, data)
  blow(g, data.cell, dir)
  if data.ending then finish_turn(g) end -- a storm from a removed tile
end

function rules.bomb_orientation(g, _, orientation, data)
  start_bomb(g, data.cell, data.value, "line", orientation)
end

function rules.bomb_next(g, _, cell, data)
  g:open_window("bomb", { cell = cell, value = data.value })
end

-- A bomb expert (paid by the window's cost): the bomb stops, the scouts
-- not yet hit stay.
function rules.bomb_expert(g)
  g:log(g:actor() .. " pays a bomb expert: the bomb stops")
  for c, _ in pairs(g:marked("target")) do g:clear_mark(c, "target") end
end

local function seat_stones(g)
  return options["seats_" .. #g:players()] or options.seats_4
end

-- Every tile face down: the stone tiles, the others.
local function place_tiles(g, stones)
  for _, c in ipairs(g:cells()) do
    if table.find(stones, c) then
      g:set_mark(c, "tile", "stone")
      g:set_mark(c, "stone", "1")
    else
      g:set_mark(c, "tile", "down")
    end
  end
end

-- A player's six scouts, in a shuffled order (so that a scout's id says
-- nothing of its value): the first ones on `cells`, the others in the boat.
local function add_scouts(g, player, cells)
  for n, v in ipairs(shuffle({ 1, 2, 3, 4, 5, 6 })) do
    g:add_piece("v" .. v, player, n <= 3 and cells[n] or "boat")
  end
end

local function ranks_in_boat(g, player, from)
  local out = {}
  for n, q in ipairs(boat(g, player)) do
    if n >= (from or 1) then table.insert(out, tostring(q.rank)) end
  end
  table.sort(out)
  return out
end

-- The chosen setup: in turn from player `i`, each player names the scouts
-- for the three start tiles, then the order of the first two boat places.
-- The choices' data carry the scouts still to place, `scouts`: value (a
-- label, unique within a player's six) -> piece id, so an answer needs no
-- look at the boat; `n`: scouts placed, `fixed`: the boat's first place.
local function take_scout(data, rank)
  local id = data.scouts[rank]
  data.scouts[rank] = nil
  return id
end

local function scouts_left(data)
  local out = {}
  for v = 1, 6 do
    if data.scouts[tostring(v)] then table.insert(out, tostring(v)) end
  end
  return out
end

local function ask_setup(g, p, data)
  if data.n < 3 then
    local cell = g:zone(data.zone)[data.n + 1]
    g:choose(p, "which scout starts on " .. cell, scouts_left(data), false, "start_scout", data)
  else
    local place = data.fixed and 2 or 1
    g:choose(p, "which scout goes to boat place " .. place, scouts_left(data), false, "boat_place", data)
  end
end

local function setup_next(g, i)
  local p = g:players()[i]
  if p == nil then return end
  local data = { i = i, n = g:count({ owner = p }), zone = "around_" .. seat_stones(g)[i], scouts = {} }
  for _, q in ipairs(boat(g, p)) do data.scouts[tostring(q.rank)] = q.id end
  ask_setup(g, p, data)
end

function rules.start_scout(g, player, rank, data)
  g:move(take_scout(data, rank), g:zone(data.zone)[data.n + 1])
  data.n += 1
  ask_setup(g, player, data)
end

-- The chosen scout to the front, then the one fixed first back in front of it.
function rules.boat_place(g, player, rank, data)
  local id = take_scout(data, rank)
  g:send(id, "boat", player, true)
  if data.fixed then
    g:send(data.fixed, "boat", player, true)
    setup_next(g, data.i + 1)
  else
    data.fixed = id
    ask_setup(g, player, data)
  end
end

local function boat_scout(g, player, rank)
  for _, q in ipairs(boat(g, player)) do
    if tostring(q.rank) == rank then return q end
  end
  return nil
end

-- Free setup: stone tiles placed in turn, then scouts one at a time (which
-- scout, then where), then the boats ordered.
local function free_setup_next(g)
  local players = g:players()
  local stones = g:query("stones")
  if #stones < 4 then
    g:choose(players[(#stones % #players) + 1], "place a stone tile", g:query("stone_places"), PUBLIC, "place_stone")
    return
  end
  local total = #g:pieces()
  if total < 3 * #players then
    local p = players[(total % #players) + 1]
    g:choose(p, "which scout to place", ranks_in_boat(g, p), false, "scout_to_place")
    return
  end
  setup_next(g, 1)
end

function rules.place_stone(g, _, cell)
  g:set_mark(cell, "tile", "stone")
  local stones = g:query("stones")
  if #stones == 4 then
    place_tiles(g, stones)
    for _, p in ipairs(g:players()) do add_scouts(g, p, {}) end
  end
  free_setup_next(g)
end

function rules.scout_to_place(g, player, rank)
  g:choose(player, "where scout " .. rank .. " starts", g:query("scout_places"), false, "place_scout", { rank = rank })
end

function rules.place_scout(g, player, cell, data)
  g:move(boat_scout(g, player, data.rank).id, cell)
  free_setup_next(g)
end

function rules.setup(g)
  local players = g:players()
  for _, p in ipairs(players) do g:set_counter("coins", options.start_coins, p) end
  if options.free_setup then
    free_setup_next(g)
    return
  end
  place_tiles(g, options.stones)
  local seats = seat_stones(g)
  for i, p in ipairs(players) do
    add_scouts(g, p, options.choose_setup and {} or g:zone("around_" .. seats[i]))
  end
  if options.choose_setup then setup_next(g, 1) end
end
