--!native
-- Ultima (Baroque chess): how each piece captures, and "could this square
-- be captured" for the host's check test.
--
-- The host generates movement, the Immobilizer's freeze and the suicide
-- from variants/ultima.yaml and asks three questions, each on the board as
-- it stands. Cells are 0-based indices (rank * files + file); `cells` is a
-- buffer with two bytes per cell: the kind's number (see the global
-- `kinds`; 0 when empty) and the owner's number (see `players`).
--   rules.captures(g, from, to, cells)   what a move captures besides displacement
--   rules.attacked(g, cell, by, cells)   could `by`, moving now, capture on `cell`
--   rules.check_cells(g, player, cells)  the cells that can matter to the King's safety

local ORTHO = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } }
local ALL = {
  { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 },
  { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 },
}

local KING, PAWN = kinds.king, kinds.pawn
local WITHDRAWER, LEAPER = kinds.withdrawer, kinds.long_leaper
local COORDINATOR, CHAMELEON = kinds.coordinator, kinds.chameleon
local IMMOBILIZER = kinds.immobilizer

local pure_immobilizer = options.pure_immobilizer
local single_leap = options.single_leap
local single_kind = options.chameleon_single_kind


local F, R = board.files, board.ranks

local function sign(x)
  if x > 0 then return 1 elseif x < 0 then return -1 else return 0 end
end

-- `b` below is always the `cells` buffer of the question.

-- The cell at file f, rank r, or nil off the board.
local function at(f, r)
  if f < 0 or r < 0 or f >= F or r >= R then return nil end
  return r * F + f
end

-- RAY[c][i]: the cells from c along ALL[i], nearest first; OPP[i] the
-- opposite direction's index.
local RAY, OPP = {}, {}
for i, d in ipairs(ALL) do
  for j, e in ipairs(ALL) do
    if e[1] == -d[1] and e[2] == -d[2] then OPP[i] = j end
  end
end
for c = 0, F * R - 1 do
  RAY[c] = {}
  for i, d in ipairs(ALL) do
    local list, f, r = {}, c % F + d[1], c // F + d[2]
    while at(f, r) do
      list[#list + 1] = at(f, r)
      f, r = f + d[1], r + d[2]
    end
    RAY[c][i] = list
  end
end
-- DIR[(df + 1) * 3 + dr + 2]: the index in ALL of the direction (df, dr).
local DIR = {}
for i, d in ipairs(ALL) do
  DIR[(d[1] + 1) * 3 + d[2] + 2] = i
end

-- FIRST[c][i] and SECOND[c][i]: the first and second cells from c along
-- ALL[i], or false past the edge (so that reading one always finds its
-- slot: Luau's machine code reads a missing slot the slow way).
local FIRST, SECOND = {}, {}
for c = 0, F * R - 1 do
  FIRST[c], SECOND[c] = {}, {}
  for i = 1, 8 do
    FIRST[c][i] = RAY[c][i][1] or false
    SECOND[c][i] = RAY[c][i][2] or false
  end
end
-- NB[c]: the cells next to c.
local NB = {}
for c = 0, F * R - 1 do
  NB[c] = {}
  for i = 1, 8 do
    if RAY[c][i][1] then NB[c][#NB[c] + 1] = RAY[c][i][1] end
  end
end

-- Does something freeze the piece on c (a frozen piece captures nothing)?
-- The same test as the `freezes:` declarations of the YAML: an enemy
-- Immobilizer next to it freezes it; an enemy Chameleon next to an
-- Immobilizer freezes that Immobilizer. With `pure_immobilizer` (the
-- Cambridge reading) an enemy Immobilizer freezes nothing of p's while
-- another Chameleon or Immobilizer of p (not the piece on c itself) stands
-- next to it.
local function neutralized(b: buffer, n: number, p: number, c: number)
  local nb = NB[n]
  for x = 1, #nb do
    local m = nb[x]
    if m ~= c and buffer.readu8(b, 2 * m + 1) == p then
      local km = buffer.readu8(b, 2 * m)
      if km == CHAMELEON or km == IMMOBILIZER then return true end
    end
  end
  return false
end

local function is_frozen(b: buffer, c: number)
  local p, k = buffer.readu8(b, 2 * c + 1), buffer.readu8(b, 2 * c)
  local nb = NB[c]
  for x = 1, #nb do
    local n = nb[x]
    local o = buffer.readu8(b, 2 * n + 1)
    if o ~= 0 and o ~= p then
      local kn = buffer.readu8(b, 2 * n)
      if kn == IMMOBILIZER and not (pure_immobilizer and neutralized(b, n, p, c)) then
        return true
      end
      if k == IMMOBILIZER and kn == CHAMELEON then return true end
    end
  end
  return false
end

-- Each adds to `out` the cells a move of p's piece from `from` to `to`
-- captures in one way and returns it: `out` is made at the first capture
-- (most moves capture nothing, and then no table is made). `only`
-- restricts the victims to one kind (a Chameleon imitating that kind).

local function push(out: {number}?, c: number)
  if out then
    out[#out + 1] = c
    return out
  end
  return { c }
end

-- The index in ALL of the direction from `from` towards `to` (on a line).
local function direction(from: number, to: number)
  return DIR[(sign(to % F - from % F) + 1) * 3 + sign(to // F - from // F) + 2]
end

-- Pincer: an enemy beside the arrival cell, with p's piece directly beyond.
local function pincer(b: buffer, from: number, to: number, p: number, only: number?, out: {number}?)
  local first, second = FIRST[to], SECOND[to]
  for i = 1, 4 do -- the orthogonal directions come first in ALL
    local n, m = first[i], second[i]
    if n and m and m ~= from then
      local o = buffer.readu8(b, 2 * n + 1)
      if o ~= 0 and o ~= p and buffer.readu8(b, 2 * m + 1) == p and (not only or buffer.readu8(b, 2 * n) == only) then
        out = push(out, n)
      end
    end
  end
  return out
end

-- Withdrawal: the enemy next to the start cell, opposite the move.
local function withdraw(b: buffer, from: number, to: number, p: number, only: number?, out: {number}?)
  local a = FIRST[from][OPP[direction(from, to)]]
  if a then
    local o = buffer.readu8(b, 2 * a + 1)
    if o ~= 0 and o ~= p and (not only or buffer.readu8(b, 2 * a) == only) then
      out = push(out, a)
    end
  end
  return out
end

-- Leap: every piece jumped. The host lets a leaper jump only what it may
-- take (enemies, each followed by an empty cell; a Chameleon only Leapers).
local function leap(b: buffer, from: number, to: number, out: {number}?)
  local line = RAY[from][direction(from, to)]
  for j = 1, #line do
    local c = line[j]
    if c == to then break end
    if buffer.readu8(b, 2 * c + 1) ~= 0 then out = push(out, c) end
  end
  return out
end

-- p's King, looked for from the side of the board where p's pieces start
-- (where it stands in most positions).
local function king_of(b: buffer, p: number)
  local last = F * R - 1
  local a, z, step = 0, last, 1
  if p > 1 then a, z, step = last, 0, -1 end
  for c = a, z, step do
    if buffer.readu8(b, 2 * c) == KING and buffer.readu8(b, 2 * c + 1) == p then return c end
  end
  return nil
end

-- Coordination: enemies where the arrival cell's rank meets p's King's
-- file, and its file meets the King's rank.
local function coordinate(b: buffer, to: number, p: number, only: number?, out: {number}?)
  local k = king_of(b, p)
  if not k then return out end
  local kf, kr = k % F, k // F
  local tf, tr = to % F, to // F
  local c = tr * F + kf
  for _ = 1, 2 do
    if c ~= to then
      local o = buffer.readu8(b, 2 * c + 1)
      if o ~= 0 and o ~= p and (not only or buffer.readu8(b, 2 * c) == only) then
        out = push(out, c)
      end
    end
    c = kr * F + tf
  end
  return out
end

-- The captures of a move: a list of cells or nil; for a Chameleon, when
-- `split`, the same split by the kind it imitated (four lists).
local function captures_of(b: buffer, from: number, to: number, split: boolean?)
  local k, p = buffer.readu8(b, 2 * from), buffer.readu8(b, 2 * from + 1)
  if k == PAWN then
    return pincer(b, from, to, p, nil, nil)
  elseif k == WITHDRAWER then
    return withdraw(b, from, to, p, nil, nil)
  elseif k == LEAPER then
    return leap(b, from, to, nil)
  elseif k == COORDINATOR then
    return coordinate(b, to, p, nil, nil)
  elseif k == CHAMELEON then
    -- Pincers only when it moves like a rook, as a pawn does.
    local rook = to % F == from % F or to // F == from // F
    if split then
      local parts = {
        rook and pincer(b, from, to, p, PAWN, nil) or {},
        withdraw(b, from, to, p, WITHDRAWER, nil) or {},
        leap(b, from, to, nil) or {},
        coordinate(b, to, p, COORDINATOR, nil) or {},
      }
      local out = {}
      for _, list in ipairs(parts) do
        for _, c in ipairs(list) do out[#out + 1] = c end
      end
      return out, parts
    end
    local out = rook and pincer(b, from, to, p, PAWN, nil) or nil
    out = withdraw(b, from, to, p, WITHDRAWER, out)
    out = leap(b, from, to, out)
    return coordinate(b, to, p, COORDINATOR, out)
  end
  return nil
end

local PART_NAMES = { "pawns", "withdrawer", "long leapers", "coordinator" }

-- What a move captures besides what it lands on (asked only for the kinds
-- that capture in their own way: variants/ultima.yaml's `captures_when`).
function rules.captures(g, from, to, cells: buffer)
  local out, parts = captures_of(cells, from, to, single_kind)
  if single_kind and parts then
    local n = 0
    for _, list in ipairs(parts) do
      if #list > 0 then n = n + 1 end
    end
    -- Several kinds: the mover chooses one after the move (after_action).
    if n > 1 then return nil end
  end
  return out
end

-- ------------------------------------------------------------ check

-- Can an unfrozen piece of `by` of kind `k1` or `k2` slide (along the
-- directions ALL[1..ndirs], through empty cells) onto the empty cell d?
-- `skip` is a cell whose piece does not count (the pincer's partner).
local function reaches(b: buffer, d: number, by: number, k1: number, k2: number, ndirs: number, skip: number?)
  local ray = RAY[d]
  for i = 1, ndirs do
    local line = ray[i]
    for j = 1, #line do
      local c = line[j]
      local o = buffer.readu8(b, 2 * c + 1)
      if o ~= 0 then
        if o == by and c ~= skip then
          local k = buffer.readu8(b, 2 * c)
          if (k == k1 or k == k2) and not is_frozen(b, c) then return true end
        end
        break
      end
    end
  end
  return false
end

-- `ruled_out`: the caller has already ruled out a capture by coordination
-- (the costly part of the question); `no_leap`: and by a Long Leaper.
local function attacked(b: buffer, t: number, by: number, ruled_out: boolean?, no_leap: boolean?)
  local vk, vp = buffer.readu8(b, 2 * t), buffer.readu8(b, 2 * t + 1)
  local tf, tr = t % F, t // F
  local ray, first, second = RAY[t], FIRST[t], SECOND[t]
  -- Displacement: the King, and a Chameleon against a King.
  local nb = NB[t]
  for x = 1, #nb do
    local n = nb[x]
    if buffer.readu8(b, 2 * n + 1) == by then
      local k = buffer.readu8(b, 2 * n)
      if (k == KING or (k == CHAMELEON and vk == KING)) and not is_frozen(b, n) then
        return true
      end
    end
  end
  -- Pincer: a pawn (or a Chameleon, against a pawn) arrives beside the
  -- victim with a piece of `by` directly beyond.
  -- A Chameleon pincers only pawns (0 is no kind).
  local pincer2 = (vk == PAWN) and CHAMELEON or 0
  for i = 1, 4 do -- the orthogonal directions come first in ALL
    local n, m = first[i], first[OPP[i]]
    if n and m and buffer.readu8(b, 2 * n + 1) == 0 and buffer.readu8(b, 2 * m + 1) == by then
      if reaches(b, n, by, PAWN, pincer2, 4, m) then return true end
    end
  end
  -- Withdrawal: a withdrawer beside the victim with room to move away.
  for i = 1, 8 do
    local w, away = first[i], second[i]
    if w and buffer.readu8(b, 2 * w + 1) == by then
      local k = buffer.readu8(b, 2 * w)
      if k == WITHDRAWER or (k == CHAMELEON and vk == WITHDRAWER) then
        if away and buffer.readu8(b, 2 * away + 1) == 0 and not is_frozen(b, w) then return true end
      end
    end
  end
  -- Leap: looking back from the victim along each line, past empty cells
  -- and jumpable pieces, to a leaper; the cell after the victim is empty.
  for i = 1, no_leap and 0 or 8 do
    local land = first[i]
    if land and buffer.readu8(b, 2 * land + 1) == 0 then
      local all_leapers = (vk == LEAPER)
      -- Whether the cell after the one we look at (towards the victim) is
      -- empty: a jumped piece must be followed by an empty cell.
      local after_empty = false
      local back = ray[OPP[i]]
      for x = 1, #back do
        local c = back[x]
        local o = buffer.readu8(b, 2 * c + 1)
        if o == by then
          local k = buffer.readu8(b, 2 * c)
          if (k == LEAPER or (k == CHAMELEON and all_leapers)) and not is_frozen(b, c) then
            return true
          end
          break
        elseif o ~= 0 then
          -- Another piece of the victim's side, jumped on the way.
          if not after_empty or single_leap or o ~= vp then break end
          all_leapers = all_leapers and buffer.readu8(b, 2 * c) == LEAPER
          after_empty = false
        else
          after_empty = true
        end
      end
    end
  end
  -- Coordination: a Coordinator of `by` ends on an empty cell whose rank
  -- (or file) meets its King's file (or rank) on the victim, so that King
  -- shares the victim's file (or rank). ALL[1] and ALL[2] run along the
  -- victim's rank, ALL[3] and ALL[4] along its file.
  local on_file, on_rank = false, false
  if not ruled_out then
    local ek = king_of(b, by)
    if ek and ek ~= t then
      on_rank, on_file = ek // F == tr, ek % F == tf
    end
  end
  if on_file or on_rank then
    local coord2 = (vk == COORDINATOR) and CHAMELEON or 0
    for i = 1, 4 do
      if (i <= 2 and on_file) or (i > 2 and on_rank) then
        for _, d in ipairs(ray[i]) do
          if buffer.readu8(b, 2 * d + 1) == 0 and reaches(b, d, by, COORDINATOR, coord2, 8, nil) then
            return true
          end
        end
      end
    end
  end
  return false
end

-- Could `by`, moving now, capture the piece on `cell`? (The host's check
-- test asks it about the King after a move.)
function rules.attacked(g, cell, by, cells: buffer)
  return attacked(cells, cell, players[by])
end

local PLAYER_COUNT = 0
for _ in pairs(players) do PLAYER_COUNT = PLAYER_COUNT + 1 end

-- Whether p's Immobilizer on c (or, with the Cambridge reading, p's
-- Chameleon: `kd` is its kind) holds an enemy piece: moving it away frees
-- the enemies it holds. A Chameleon beside an enemy Immobilizer changes
-- only what freezes p's own pieces, so naming it is merely cautious.
local function holds_enemy(b: buffer, c: number, kd: number, p: number)
  local nb = NB[c]
  for i = 1, #nb do
    local m = nb[i]
    local om = buffer.readu8(b, 2 * m + 1)
    if om ~= 0 and om ~= p and (kd == IMMOBILIZER or buffer.readu8(b, 2 * m) == IMMOBILIZER) then
      return true
    end
  end
  return false
end

-- The cells that can matter to whether the enemy Long Leaper on l could
-- jump the King on k: none off the King's lines; else the cells between
-- them and the landing cell beyond the King. Added to `out` after its
-- `n`th; the new count returned.
local function leaper_cells(k: number, l: number, out: {number}, n: number)
  local df, dr = l % F - k % F, l // F - k // F
  if df ~= 0 and dr ~= 0 and df ~= dr and df ~= -dr then return n end
  local i = DIR[(sign(df) + 1) * 3 + sign(dr) + 2]
  local land = FIRST[k][OPP[i]]
  if land then
    n = n + 1
    out[n] = land
  end
  local line = RAY[k][i]
  for j = 1, #line do
    local c = line[j]
    if c == l then break end
    n = n + 1
    out[n] = c
  end
  return n
end

-- The occupied cells among the first `last` of `line`, added to `out`
-- after its `n`th; the new count returned.
local function occupied_along(b: buffer, line: {number}, last: number, out: {number}, n: number)
  for j = 1, last do
    local c = line[j]
    if buffer.readu8(b, 2 * c + 1) ~= 0 then
      n = n + 1
      out[n] = c
    end
  end
  return n
end

-- The cells that can matter to whether player o's Coordinator could take
-- the King on k by coordination once the King's player has moved: o's King
-- shares the King's rank (`on_rank`) or file, so the Coordinator must end
-- on an empty cell of the King's file (or rank). The pieces on that line
-- (one that moves away or is captured leaves a cell to end on) and those
-- on the Coordinator's way to it (one that moves away opens the way);
-- cells are added to `out` after its `n`th, and the new count returned.
local function coordination_cells(b: buffer, k: number, o: number, on_rank: boolean, out: {number}, n: number)
  local kf, kr = k % F, k // F
  local ray = RAY[k]
  local a = on_rank and 3 or 1
  for i = a, a + 1 do
    n = occupied_along(b, ray[i], #ray[i], out, n)
  end
  for c = 0, F * R - 1 do
    if buffer.readu8(b, 2 * c) == COORDINATOR and buffer.readu8(b, 2 * c + 1) == o then
      local cray = RAY[c]
      for i = 1, 8 do
        local line = cray[i]
        -- Where this way meets the line (a way along the line meets it at
        -- once: its cells are the line's, named above).
        local meets = nil
        for j = 1, #line do
          local d = line[j]
          if (on_rank and d % F == kf) or (not on_rank and d // F == kr) then
            meets = j
            break
          end
        end
        if meets then
          n = occupied_along(b, line, meets - 1, out, n)
        end
      end
    end
  end
  return n
end

-- Which cells can matter to whether p's King could be captured once p has
-- moved (the host skips its full test for a move that starts, ends and
-- captures outside them); nil when the King can be captured now. The King
-- can only be taken by a King or Chameleon stepping on it, a Withdrawer
-- moving away from it, a Long Leaper jumping it, a pawn closing a pincer
-- with a piece already beyond it, or a Coordinator when the two Kings
-- share a rank or file (see `coordination_cells`); p's own move can
-- change only what is frozen (moving its Immobilizer away from enemies,
-- or, with the Cambridge reading, a Chameleon away from an enemy
-- Immobilizer) and the cells those captures cross or land on.
function rules.check_cells(g, player, cells: buffer)
  local b = cells
  local readu8 = buffer.readu8
  local p = players[player]
  -- The host reads the list as a set: a cell may be named twice.
  local out, n = table.create(32), 1
  local k
  local pawns = false
  -- The players with a Coordinator, one bit each (no table to make).
  local coordinators = 0
  -- The enemy Long Leapers' cells (`leapers`: more than two), and the
  -- enemy Kings' (`kings`: more than two).
  local leaper1, leaper2, leapers = nil, nil, false
  local king1, king2, kings = nil, nil, false
  for c = 0, F * R - 1 do
    local o = readu8(b, 2 * c + 1)
    if o ~= 0 then
      local kd = readu8(b, 2 * c)
      if o == p then
        if kd == KING then
          k = c
        elseif (kd == IMMOBILIZER or (kd == CHAMELEON and pure_immobilizer)) and holds_enemy(b, c, kd, p) then
          n = n + 1
          out[n] = c
        end
      elseif kd == PAWN then
        pawns = true
      elseif kd == COORDINATOR then
        coordinators = bit32.bor(coordinators, bit32.lshift(1, o))
      elseif kd == LEAPER then
        if not leaper1 then leaper1 = c elseif not leaper2 then leaper2 = c else leapers = true end
      elseif kd == KING then
        if not king1 then king1 = c elseif not king2 then king2 = c else kings = true end
      end
    end
  end
  if not k then return {} end
  local ray, first, second = RAY[k], FIRST[k], SECOND[k]
  out[1] = k
  -- A Coordinator can take the King only while its own King shares the
  -- King's rank or file (pieces between do not matter): the players who
  -- could, one bit each.
  local coordinating = 0
  if coordinators ~= 0 then
    local kf, kr = k % F, k // F
    for x = 1, kings and F * R or 2 do
      -- With more than two enemy Kings, every cell is looked at.
      local c = if kings then x - 1 elseif x == 1 then king1 else king2
      if c and readu8(b, 2 * c) == KING and (c // F == kr or c % F == kf) then
        local o = readu8(b, 2 * c + 1)
        local bit = bit32.lshift(1, o)
        if o ~= p and bit32.btest(coordinators, bit) then
          coordinating = bit32.bor(coordinating, bit)
          n = coordination_cells(b, k, o, c // F == kr, out, n)
        end
      end
    end
  end
  -- The cells of the Long Leapers' ways to the King (with more than two,
  -- below, line by line). No Long Leaper on the King's lines: none can
  -- take it now (a Chameleon leaps only Long Leapers).
  local m = n
  if not leapers then
    if leaper1 then n = leaper_cells(k, leaper1, out, n) end
    if leaper2 then n = leaper_cells(k, leaper2, out, n) end
  end
  local no_leap = not leapers and n == m
  -- Could the King be captured now? (The costly look for a Coordinator
  -- only for the players found above.)
  for q = 1, PLAYER_COUNT do
    if q ~= p and attacked(b, k, q, not bit32.btest(coordinating, bit32.lshift(1, q)), no_leap) then
      return nil
    end
  end
  for i = 1, 8 do
    -- A Withdrawer beside the King: the cell it would withdraw to.
    local w, away = first[i], second[i]
    if w and away then
      local o = readu8(b, 2 * w + 1)
      if o ~= 0 and o ~= p and readu8(b, 2 * w) == WITHDRAWER then
        n = n + 1
        out[n] = away
      end
    end
    -- With more than two enemy Long Leapers, each line is walked for one.
    if leapers then
      local line = ray[i]
      for j = 1, #line do
        local c = line[j]
        local o = readu8(b, 2 * c + 1)
        if o ~= 0 and o ~= p and readu8(b, 2 * c) == LEAPER then
          n = leaper_cells(k, c, out, n)
          break
        end
      end
    end
  end
  -- A pincer partner beyond the King: the cell beside it and the lines a
  -- pawn would come along.
  if pawns then
    for i = 1, 4 do -- the orthogonal directions come first in ALL
      local nc, m = first[i], first[OPP[i]]
      if nc and m then
        local o = readu8(b, 2 * m + 1)
        if o ~= 0 and o ~= p then
          n = n + 1
          out[n] = nc
          local nray = RAY[nc]
          for u = 1, 4 do
            local line = nray[u]
            for x = 1, #line do
              local c = line[x]
              if c == k then break end
              n = n + 1
              out[n] = c
            end
          end
        end
      end
    end
  end
  return out
end

-- ------------------------------------------------------------ options

if single_leap then
  -- One piece per leap: forbid leaps over two or more pieces.
  function rules.filter(g, moves)
    local out = {}
    for i, m in ipairs(moves) do
      local from, to = g:index(m.from), g:index(m.to)
      local piece = g:piece(m.piece)
      if piece.kind == "long_leaper" or piece.kind == "chameleon" then
        local ff, fr = from % F, from // F
        local df, dr = sign(to % F - ff), sign(to // F - fr)
        local f, r, jumped = ff + df, fr + dr, 0
        while at(f, r) ~= to do
          if g:piece_at(g:cell_name(at(f, r))) then jumped = jumped + 1 end
          f, r = f + df, r + dr
        end
        if jumped > 1 then out[#out + 1] = i end
      end
    end
    return out
  end
end

if single_kind then
  -- After a Chameleon's move that could take several kinds at once, its
  -- player chooses which kind it takes.
  local function before_move(g, from, to)
    -- The board as it was: the Chameleon back on `from`.
    local b = buffer.create(2 * F * R)
    for c = 0, F * R - 1 do
      local p = g:piece_at(g:cell_name(c))
      if p then
        local at_cell = (c == to) and from or c
        buffer.writeu8(b, 2 * at_cell, kinds[p.kind])
        buffer.writeu8(b, 2 * at_cell + 1, players[p.owner])
      end
    end
    return b
  end

  function rules.after_action(g, action)
    if action.kind ~= "move" then return end
    local piece = g:piece(action.piece)
    if piece.kind ~= "chameleon" then return end
    local from, to = g:index(action.from), g:index(action.to)
    local _, parts = captures_of(before_move(g, from, to), from, to, true)
    local labels = {}
    -- The answer's handler gets the move and, for each label, which part
    -- of the captures it names (no label is read back).
    local data = { from = from, to = to }
    for i, list in ipairs(parts) do
      if #list > 0 then
        local names = {}
        for _, c in ipairs(list) do names[#names + 1] = g:cell_name(c) end
        local label = "take " .. PART_NAMES[i] .. " " .. table.concat(names, " ")
        labels[#labels + 1] = label
        data[label] = i
      end
    end
    if #labels > 1 then
      g:choose(action.player, "which kind the Chameleon takes", labels, nil, "chameleon_takes", data)
    end
  end

  -- The captures of the chosen kind, found again on the board as it was
  -- before the move (nothing has changed since the question).
  function rules.chameleon_takes(g, player, option, data)
    local _, parts = captures_of(before_move(g, data.from, data.to), data.from, data.to, true)
    for _, c in ipairs(parts[data[option]]) do
      local p = g:piece_at(g:cell_name(c))
      if p then g:capture(p.id) end
    end
  end
end

-- Suicide (declared in variants/ultima.yaml: which pieces, whose turn,
-- the King's safety): the piece leaves the board.
function rules.suicide(g, args)
  g:capture(g:piece_at(args.cell).id)
end
