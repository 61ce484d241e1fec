-- Orthodox chess: what the declared movement in variants/chess.yaml leaves
-- out. The host generates the pieces' moves, forbids leaving one's king in
-- check, ends the game on checkmate or stalemate, offers the promotion
-- choice and counts repeated positions. This script adds castling and en
-- passant (rules.extra_moves) and keeps the castling and en passant counters
-- a FEN line carries; the host counts the fifty-move rule and move numbers.
--
-- Counters (global):
--   castling  rights still open, a bit mask: 1 White king side (K),
--             2 White queen side (Q), 4 Black king side (k), 8 Black queen side (q)
--   ep        1 + the cell a pawn may capture en passant on, 0 for none; set
--             only when an enemy pawn stands next to the pawn that advanced two
--   halfmove  plies since the last capture or pawn move (kept by the host)
--   fullmove  the move number (starts at 1, grows after Black's move; host)

local readu8 = buffer.readu8
local F = board.files
local KING, ROOK, PAWN = kinds.king, kinds.rook, kinds.pawn
local WHITE = players.white

local RIGHTS = { K = 1, Q = 2, k = 4, q = 8 }

-- Per player number: the back rank's first cell, castling bits, pawn step.
local SIDE = {
  [WHITE] = { base = 0, king = 1, queen = 2, step = F, them = "black" },
  [players.black] = { base = 7 * F, king = 4, queen = 8, step = -F, them = "white" },
}

-- Which castling right a corner cell guards.
local CORNER = { [0] = 2, [7] = 1, [7 * F] = 8, [7 * F + 7] = 4 }

local function kind(b, c) return readu8(b, 2 * c) end
local function owner(b, c) return readu8(b, 2 * c + 1) end
local function empty(b, c) return readu8(b, 2 * c) == 0 end
local function own(b, c, k, me) return readu8(b, 2 * c) == k and readu8(b, 2 * c + 1) == me end

-- Cell names by index ("a1" is 0), for the calls that take names.
local NAME = {}
for c = 0, F * board.ranks - 1 do
  NAME[c] = string.char(97 + c % F) .. tostring(c // F + 1)
end

local band = bit32.band

function rules.extra_moves(g, player, cells)
  local me = players[player]
  local side = SIDE[me]
  local out = {}

  -- En passant: onto the cell the enemy pawn skipped, taking that pawn.
  local ep = g:counter("ep")
  if ep > 0 then
    local target = ep - 1
    local victim = target - side.step
    local f = target % F
    if f > 0 and own(cells, victim - 1, PAWN, me) then
      out[#out + 1] = { from = victim - 1, to = target, captures = { victim } }
    end
    if f < F - 1 and own(cells, victim + 1, PAWN, me) then
      out[#out + 1] = { from = victim + 1, to = target, captures = { victim } }
    end
  end

  -- Castling: king and rook unmoved (the rights), the cells between them
  -- empty, the king not in check and not crossing an attacked cell; the
  -- host checks the cell it lands on.
  local rights = g:counter("castling")
  if band(rights, side.king + side.queen) == 0 then return out end
  local b, e = side.base, side.base + 4
  if not own(cells, e, KING, me) then return out end
  local ename = NAME[e]
  local in_check = nil
  if band(rights, side.king) ~= 0 and own(cells, b + 7, ROOK, me)
    and empty(cells, b + 5) and empty(cells, b + 6) then
    in_check = g:attacked(ename, side.them)
    if not in_check and not g:attacked(NAME[b + 5], side.them, ename) then
      out[#out + 1] = { from = e, to = b + 6 }
    end
  end
  if band(rights, side.queen) ~= 0 and own(cells, b, ROOK, me)
    and empty(cells, b + 1) and empty(cells, b + 2) and empty(cells, b + 3) then
    if in_check == nil then in_check = g:attacked(ename, side.them) end
    if not in_check and not g:attacked(NAME[b + 3], side.them, ename) then
      out[#out + 1] = { from = e, to = b + 2 }
    end
  end
  return out
end

-- Called (see `after_action_when` in the YAML) after a king move or a move
-- from or onto a corner while castling rights remain, a pawn move from its
-- start rank, and any move while an en passant cell is open.
-- The host keeps `halfmove` (`rules.no_progress`) and `fullmove`
-- (`rules.move_number`).
function rules.after_action(g, action)
  if action.kind ~= "move" then return end
  local kind = action.piece_kind
  local from, to = action.from_index, action.to_index
  local side = SIDE[players[action.player]]

  -- Castling moves the rook over the king.
  if kind == "king" and math.abs(to - from) == 2 then
    local rook_from = to > from and from + 3 or from - 4
    local rook = g:piece_at(NAME[rook_from])
    g:move(rook.id, NAME[(from + to) // 2])
  end

  -- Rights end when the king moves, or a rook leaves or is taken on its corner.
  local rights = g:counter("castling")
  if rights ~= 0 then
    local keep = rights
    if kind == "king" then
      keep = bit32.band(keep, bit32.bnot(side.king + side.queen))
    end
    if CORNER[from] then keep = bit32.band(keep, bit32.bnot(CORNER[from])) end
    if CORNER[to] then keep = bit32.band(keep, bit32.bnot(CORNER[to])) end
    if keep ~= rights then g:set_counter("castling", keep) end
  end

  -- En passant is possible right after a two-step advance next to an enemy pawn.
  local ep = 0
  if kind == "pawn" and math.abs(to - from) == 2 * F then
    local f = to % F
    for _, df in ipairs({ -1, 1 }) do
      if f + df >= 0 and f + df < F then
        local n = g:piece_at(NAME[to + df])
        if n and n.kind == "pawn" and n.owner ~= action.player then
          ep = (from + to) // 2 + 1
        end
      end
    end
  end
  if ep ~= 0 or g:counter("ep") ~= 0 then g:set_counter("ep", ep) end
end

-- The FEN fields after the side to move: castling rights, en passant cell,
-- halfmove clock, move number ("KQkq e3 0 1"; missing fields: none, 0, 1).
function rules.position_fields(g, fields)
  local rights = 0
  local castling = fields[1] or "-"
  if castling ~= "-" then
    for ch in string.gmatch(castling, ".") do
      local bit = RIGHTS[ch]
      if not bit then error("castling rights: `" .. castling .. "` (expected KQkq or -)") end
      rights = bit32.bor(rights, bit)
    end
  end
  g:set_counter("castling", rights)
  local ep = fields[2] or "-"
  g:set_counter("ep", ep == "-" and 0 or g:index(ep) + 1)
  g:set_counter("halfmove", tonumber(fields[3] or "0") or 0)
  g:set_counter("fullmove", tonumber(fields[4] or "1") or 1)
end
