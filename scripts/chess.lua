-- Orthodox chess: what variants/chess.yaml cannot say. The host generates
-- the pieces' moves, castling (`rules.bookkeeping.joint_moves`) and en passant
-- (`rules.bookkeeping.passing`), keeps their counters, forbids leaving one's king in
-- check, ends the game on checkmate or stalemate, offers the promotion
-- choice, counts repeated positions, the fifty-move rule and move numbers.
-- This script reads the FEN fields after the side to move into counters.
--
-- Counters (global):
--   castling  rights still open, a bit mask: 1 White king side (K),
--             2 White queen side (Q), 4 Black king side (k), 8 Black queen side (q)
--   ep        1 + the cell a pawn may capture en passant on, 0 for none; set
--             by the host only when an enemy pawn could take there
--   halfmove  plies since the last capture or pawn move (kept by the host)
--   fullmove  the move number (starts at 1, grows after Black's move; host)

local RIGHTS = { K = 1, Q = 2, k = 4, q = 8 }

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
