-- What the declarations cannot say: red also sees the cell above its
-- soldier's (a signal fire), blue sees nothing more.
function rules.sight(g, player, cells)
  if player ~= "red" then return nil end
  for c = 0, board.files * board.ranks - 1 do
    if buffer.readu8(cells, 2 * c) == kinds.soldier and buffer.readu8(cells, 2 * c + 1) == players.red then
      local above = c + 2 * board.files
      if above < board.files * board.ranks then return { above } end
    end
  end
  return nil
end
