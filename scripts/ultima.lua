-- Ultima (Baroque chess): how each piece captures, the Immobilizer's freeze,
-- and "could this square be captured" for the host's check test.
--
-- The host generates movement from variants/ultima.yaml and asks three
-- questions, each on the board as it stands (cells are 0-based indices,
-- rank * files + file; g:grid() gives every cell's kind and owner at once):
--   rules.frozen(g, player)       which of player's pieces cannot move
--   rules.captures(g, from, to)   what a move captures besides displacement
--   rules.attacked(g, cell, by)   could `by`, moving now, capture on `cell`

local ORTHO = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } }
local ALL = {
  { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 },
  { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 },
}

local pure_immobilizer = options.pure_immobilizer
local single_leap = options.single_leap
local single_kind = options.chameleon_single_kind

local function sign(x)
  if x > 0 then return 1 elseif x < 0 then return -1 else return 0 end
end

-- A board snapshot: kind and owner arrays (1-based: cell c at c + 1) and
-- the board's size.
local function snapshot(g)
  local kind, owner = g:grid()
  local F, R = g:board_size()
  return { kind = kind, owner = owner, F = F, R = R }
end

-- The cell at file f, rank r, or nil off the board.
local function at(b, f, r)
  if f < 0 or r < 0 or f >= b.F or r >= b.R then return nil end
  return r * b.F + f
end

-- Is there a piece of someone other than `p` next to `c` that freezes a
-- piece of kind `k`? An enemy Immobilizer freezes everything; an enemy
-- Chameleon freezes an Immobilizer (and is frozen by it in turn).
local function immobilizer_supported(b, c)
  -- Cambridge reading: an Immobilizer with a friendly Chameleon or
  -- Immobilizer beside it freezes nothing.
  local f, r = c % b.F, c // b.F
  local p = b.owner[c + 1]
  for _, d in ipairs(ALL) do
    local n = at(b, f + d[1], r + d[2])
    if n and b.owner[n + 1] == p then
      local k = b.kind[n + 1]
      if k == "chameleon" or k == "immobilizer" then return true end
    end
  end
  return false
end

local function is_frozen(b, c)
  local p, k = b.owner[c + 1], b.kind[c + 1]
  local f, r = c % b.F, c // b.F
  for _, d in ipairs(ALL) do
    local n = at(b, f + d[1], r + d[2])
    if n then
      local o = b.owner[n + 1]
      if o and o ~= p then
        local nk = b.kind[n + 1]
        if nk == "immobilizer" and not (pure_immobilizer and immobilizer_supported(b, n)) then
          return true
        end
        if k == "immobilizer" and nk == "chameleon" then return true end
      end
    end
  end
  return false
end

function rules.frozen(g, player)
  local b = snapshot(g)
  local out = {}
  for c = 0, b.F * b.R - 1 do
    if b.owner[c + 1] == player and is_frozen(b, c) then
      out[#out + 1] = c
    end
  end
  return out
end

-- ------------------------------------------------------------ captures

-- Adds to `out` the cells a move of the piece on `from` to `to` captures,
-- by kind of capture; `only` restricts the victims to one kind (a
-- Chameleon imitating). Cells are keyed by capture kind in `by_kind`.
local function pincer(b, from, to, p, only, out)
  local tf, tr = to % b.F, to // b.F
  for _, d in ipairs(ORTHO) do
    local n = at(b, tf + d[1], tr + d[2])
    local m = at(b, tf + 2 * d[1], tr + 2 * d[2])
    if n and m and m ~= from then
      local o = b.owner[n + 1]
      if o and o ~= p and b.owner[m + 1] == p and (not only or b.kind[n + 1] == only) then
        out[#out + 1] = n
      end
    end
  end
end

local function withdraw(b, from, to, p, only, out)
  local ff, fr = from % b.F, from // b.F
  local df, dr = sign(to % b.F - ff), sign(to // b.F - fr)
  local a = at(b, ff - df, fr - dr)
  if a then
    local o = b.owner[a + 1]
    if o and o ~= p and (not only or b.kind[a + 1] == only) then
      out[#out + 1] = a
    end
  end
end

local function leap(b, from, to, p, out)
  -- The host only lets a leaper jump what it may take: every piece on
  -- the way is taken.
  local ff, fr = from % b.F, from // b.F
  local df, dr = sign(to % b.F - ff), sign(to // b.F - fr)
  local f, r = ff + df, fr + dr
  local c = at(b, f, r)
  while c and c ~= to do
    if b.owner[c + 1] then out[#out + 1] = c end
    f, r = f + df, r + dr
    c = at(b, f, r)
  end
end

local function king_of(b, p)
  for c = 0, b.F * b.R - 1 do
    if b.owner[c + 1] == p and b.kind[c + 1] == "king" then return c end
  end
  return nil
end

local function coordinate(b, to, p, only, out)
  local k = king_of(b, p)
  if not k then return end
  local kf, kr = k % b.F, k // b.F
  local tf, tr = to % b.F, to // b.F
  for _, c in ipairs({ at(b, kf, tr), at(b, tf, kr) }) do
    if c ~= to then
      local o = b.owner[c + 1]
      if o and o ~= p and (not only or b.kind[c + 1] == only) then
        out[#out + 1] = c
      end
    end
  end
end

-- The captures of a move, as a list of cells; with `split`, also a table
-- of lists per kind of capture (for the single-kind Chameleon option).
local function captures_of(b, from, to, split)
  local k, p = b.kind[from + 1], b.owner[from + 1]
  local out = {}
  if k == "pawn" then
    pincer(b, from, to, p, nil, out)
  elseif k == "withdrawer" then
    withdraw(b, from, to, p, nil, out)
  elseif k == "long_leaper" then
    leap(b, from, to, p, out)
  elseif k == "coordinator" then
    coordinate(b, to, p, nil, out)
  elseif k == "chameleon" then
    local parts = {}
    local ff, fr = from % b.F, from // b.F
    local orthogonal = (to % b.F == ff) or (to // b.F == fr)
    if orthogonal then
      parts.pawn = {}
      pincer(b, from, to, p, "pawn", parts.pawn)
    end
    parts.withdrawer = {}
    withdraw(b, from, to, p, "withdrawer", parts.withdrawer)
    parts.long_leaper = {}
    leap(b, from, to, p, parts.long_leaper)
    parts.coordinator = {}
    coordinate(b, to, p, "coordinator", parts.coordinator)
    if split then return nil, parts end
    for _, list in pairs(parts) do
      for _, c in ipairs(list) do out[#out + 1] = c end
    end
  end
  return out
end

function rules.captures(g, from, to)
  local b = snapshot(g)
  if single_kind and b.kind[from + 1] == "chameleon" then
    local _, parts = captures_of(b, from, to, true)
    local kinds = {}
    for kind, list in pairs(parts) do
      if #list > 0 then kinds[#kinds + 1] = kind end
    end
    if #kinds > 1 then
      -- Which kind is taken is the mover's choice, asked after the move.
      return {}
    end
  end
  return captures_of(b, from, to, false)
end

-- ------------------------------------------------------------ check

-- Could a piece of `by` whose kind is `k` (or a Chameleon when the victim
-- is of kind `k`) slide like a queen (or a rook) to the empty cell `d`?
local function reaches(b, d, by, kinds, dirs, from_not)
  local df0, dr0 = d % b.F, d // b.F
  for _, u in ipairs(dirs) do
    local f, r = df0 + u[1], dr0 + u[2]
    local c = at(b, f, r)
    while c do
      local o = b.owner[c + 1]
      if o then
        if o == by and kinds[b.kind[c + 1]] and c ~= from_not and not is_frozen(b, c) then
          return true
        end
        break
      end
      f, r = f + u[1], r + u[2]
      c = at(b, f, r)
    end
  end
  return false
end

local function attacked(b, t, by)
  local vk = b.kind[t + 1]
  local tf, tr = t % b.F, t // b.F
  -- Displacement: the King, and a Chameleon against a King.
  for _, d in ipairs(ALL) do
    local n = at(b, tf + d[1], tr + d[2])
    if n and b.owner[n + 1] == by then
      local k = b.kind[n + 1]
      if (k == "king" or (k == "chameleon" and vk == "king")) and not is_frozen(b, n) then
        return true
      end
    end
  end
  -- Pincer: a pawn (or a Chameleon, against a pawn) arrives beside the
  -- victim with a piece of `by` directly beyond.
  local pincers = { pawn = true, chameleon = (vk == "pawn") }
  for _, d in ipairs(ORTHO) do
    local n = at(b, tf + d[1], tr + d[2])
    local m = at(b, tf - d[1], tr - d[2])
    if n and m and not b.owner[n + 1] and b.owner[m + 1] == by then
      if reaches(b, n, by, pincers, ORTHO, m) then return true end
    end
  end
  -- Withdrawal: a withdrawer beside the victim with room to move away.
  for _, d in ipairs(ALL) do
    local w = at(b, tf + d[1], tr + d[2])
    if w and b.owner[w + 1] == by then
      local k = b.kind[w + 1]
      if k == "withdrawer" or (k == "chameleon" and vk == "withdrawer") then
        local away = at(b, tf + 2 * d[1], tr + 2 * d[2])
        if away and not b.owner[away + 1] and not is_frozen(b, w) then return true end
      end
    end
  end
  -- Leap: looking back from the victim along each line, past empty cells
  -- and jumpable pieces, to a leaper; the cell after the victim is empty.
  for _, u in ipairs(ALL) do
    local land = at(b, tf + u[1], tr + u[2])
    if land and not b.owner[land + 1] then
      local all_leapers = (vk == "long_leaper")
      local jumps = 1
      -- Whether the cell after the one we look at (towards the victim) is
      -- empty: a jumped piece must be followed by an empty cell.
      local prev_empty = false
      local f, r = tf - u[1], tr - u[2]
      local c = at(b, f, r)
      while c do
        local o = b.owner[c + 1]
        if o == by then
          local k = b.kind[c + 1]
          if (k == "long_leaper" or (k == "chameleon" and all_leapers)) and not is_frozen(b, c) then
            return true
          end
          break
        elseif o then
          -- Another piece of the victim's side, jumped on the way.
          if not prev_empty or single_leap or b.owner[t + 1] ~= o then break end
          jumps = jumps + 1
          all_leapers = all_leapers and b.kind[c + 1] == "long_leaper"
          prev_empty = false
        else
          prev_empty = true
        end
        f, r = f - u[1], r - u[2]
        c = at(b, f, r)
      end
    end
  end
  -- Coordination: the Coordinator of `by` ends on an empty cell whose rank
  -- (or file) meets its King's file (or rank) on the victim.
  local k = king_of(b, by)
  if k then
    local kf, kr = k % b.F, k // b.F
    local coords = { coordinator = true, chameleon = (vk == "coordinator") }
    local lines = {}
    if kf == tf then lines[#lines + 1] = { 1, 0 } end -- destinations on the victim's rank
    if kr == tr then lines[#lines + 1] = { 0, 1 } end -- destinations on the victim's file
    for _, u in ipairs(lines) do
      for i = 0, (u[1] == 1 and b.F or b.R) - 1 do
        local d = (u[1] == 1) and at(b, i, tr) or at(b, tf, i)
        if d ~= t and not b.owner[d + 1] and reaches(b, d, by, coords, ALL, nil) then
          return true
        end
      end
    end
  end
  return false
end

function rules.attacked(g, cell, by)
  return attacked(snapshot(g), cell, by)
end

-- ------------------------------------------------------------ options

if single_leap then
  -- One piece per leap: forbid leaps over two or more pieces.
  function rules.filter(g, moves)
    local b = snapshot(g)
    local out = {}
    for i, m in ipairs(moves) do
      local from, to = g:index(m.from), g:index(m.to)
      local k = b.kind[from + 1]
      if k == "long_leaper" or k == "chameleon" then
        local caught = {}
        leap(b, from, to, b.owner[from + 1], caught)
        if #caught > 1 then out[#out + 1] = i end
      end
    end
    return out
  end
end
