---@meta
-- Type annotations of the sandtable host API for the Lua language server.
-- Not loaded by the host: editors read it through scripts/.luarc.json.

---@alias Player string   -- a player's name, e.g. "red"
---@alias CellName string -- a cell's name, e.g. "e4"
---@alias Players "all"|Player|Player[]

---@class Piece
---@field id integer
---@field kind string
---@field owner Player
---@field rank integer
---@field cell CellName|nil
---@field moved boolean
---@field mobile boolean

---@class Cell
---@field name CellName
---@field index integer
---@field terrain string[]
---@field piece integer|nil

-- An action as hooks get it (`rules.after_action`, `rules.strike`); see
-- docs/lua-api.md, "The action table".
---@class ActionInfo
---@field kind "move"|"choice"|"scripted"|"draw"
---@field text string             -- the action's text (a move: from-to)
---@field player Player           -- who acted
---@field from CellName|nil       -- a move's cells
---@field to CellName|nil
---@field from_index integer|nil  -- the same cells as 0-based indices
---@field to_index integer|nil
---@field distance integer|nil    -- a move: squares between from and to (the larger of the file and rank differences)
---@field piece integer|nil       -- the id of the piece that moved
---@field piece_kind string|nil   -- its kind before the action
---@field captured integer|nil    -- pieces the action took (after_action only)

---@class MoveInfo
---@field from CellName
---@field to CellName
---@field piece integer
---@field distance integer  -- squares between from and to (the larger of the file and rank differences)

---@class PieceFilter
---@field owner Player|nil
---@field kind string|nil
---@field mobile boolean|nil

---@class Game
local Game = {}
---@return Player
function Game:player() end
---@return Player[]
function Game:players() end
---@return integer
function Game:ply() end
---@param name string
---@return boolean|integer|string
function Game:option(name) end
---@param id integer
---@return Piece|nil
function Game:piece(id) end
---@param cell CellName
---@return Piece|nil
function Game:piece_at(cell) end
---@param filter PieceFilter|nil
---@return Piece[]
function Game:pieces(filter) end
---@param filter PieceFilter|nil
---@return integer
function Game:count(filter) end
---@param name string
---@param owner Player|nil
---@return Piece[]
function Game:container(name, owner) end
---@param cell CellName
---@return Cell
function Game:cell(cell) end
---@param index integer
---@return CellName
function Game:cell_name(index) end
---@param cell CellName
---@param directions "orthogonal"|"diagonal"|"all"|"knight"|nil
---@return CellName[]
function Game:neighbors(cell, directions) end
---@param name string
---@return CellName[]
function Game:zone(name) end
--- The cells of a query declared in the variant's `queries:` (computed by
--- the host), for the player to move or `player`, in cell order.
---@param name string
---@param player Player|nil
---@return CellName[]
function Game:query(name, player) end
--- The cells from `cell` outwards by steps of (df, dr), nearest first, to
--- the board's edge: `g:line("c3", 1, 0)` is d3, e3, f3 on a 6x6 board.
---@param cell CellName
---@param df integer
---@param dr integer
---@return CellName[]
function Game:line(cell, df, dr) end
---@param cell CellName
---@param zone string
---@return boolean
function Game:in_zone(cell, zone) end
---@param name string
---@param player Player|nil
---@return integer
function Game:counter(name, player) end
---@param name string
---@param value integer
---@param player Player|nil
--- Sets a counter. Every viewer sees it unless the YAML declares it
--- `counters: { NAME: { internal: true } }` (rules bookkeeping).
function Game:set_counter(name, value, player) end
---@param id integer
---@param to Players
function Game:reveal(id, to) end
---@param id integer
---@param players Players
--- Hiding a piece again from a player who knew it is an error unless the
--- variant declares `rules: { followable_when_hidden_again: true }`.
function Game:set_known(id, players) end
---@param id integer
function Game:capture(id) end
---@param id integer
---@param cell CellName
function Game:move(id, cell) end
---@param player Player
---@param reason string|nil
function Game:win(player, reason) end
---@param reason string|nil
function Game:draw(reason) end
---@param id integer
---@param name string
---@param value integer
function Game:set_attr(id, name, value) end
-- A choice's or a window's data: plain values, and lists and maps of them.
---@alias PlainValue boolean|integer|string|PlainValue[]|table<string, PlainValue>

---@param player Player
---@param reason string
---@param options string[]
---@param public boolean|nil true: every player sees the question, options and answer (default: only the chooser)
---@param handler string|nil the `rules` function that takes the answer: rules[handler](g, player, option, data)
---@param data table<string, PlainValue>|nil plain values handed to the handler (never shown)
function Game:choose(player, reason, options, public, handler, data) end
-- The turn's steps (declared actions): reset when the turn passes.
function Game:close_actions() end
---@param name string
function Game:note_turn(name) end
---@param name string
---@return boolean
function Game:turn_noted(name) end
---@return integer
function Game:turn_actions() end
---@return string[]
function Game:cells() end
---@param text string
function Game:log(text) end
-- Reaction windows, phases, who acts now (declared in the YAML: `reactions:`, `phases:`).
---@param name string a declared reaction window
---@param data table<string, PlainValue>|nil plain values for its handlers
function Game:open_window(name, data) end
---@return string|nil name, table<string, PlainValue>|nil data
function Game:window() end
---@return Player the chooser of a pending choice, the player a window asks, else the player to move
function Game:actor() end
---@return string|nil
function Game:phase() end
function Game:end_phase() end
-- Containers of items (declared in the YAML: `containers:`); `owner` is nil for a shared one.
---@param name string
---@param owner Player|nil
---@return string|nil face
function Game:draw_from(name, owner) end
---@param name string
---@param owner Player|nil
---@param face string
---@param where "top"|"bottom"|"random"|nil
function Game:put_in(name, owner, face, where) end
---@param name string
---@param owner Player|nil
---@param n integer
---@param player Player who now knows them
---@return string[]
function Game:peek(name, owner, n, player) end
---@param name string
---@param owner Player|nil
function Game:shuffle(name, owner) end
---@param name string
---@param owner Player|nil
---@return string[]
function Game:items(name, owner) end
-- Turns of several actions, turn order, queues, terrain, cell marks.
function Game:continue_turn() end
---@param from Player|nil
---@return Player[]
function Game:turn_order(from) end
---@param id integer
---@param container string
---@param owner Player|nil
---@param front boolean|nil
function Game:send(id, container, owner, front) end
---@param kind string
---@param owner Player
---@param place CellName|string a cell, or the name of one of the owner's containers
---@param known Players|nil
---@return integer
function Game:add_piece(kind, owner, place, known) end
---@param cell CellName
---@param tag string
---@param on boolean
function Game:set_terrain(cell, tag, on) end
---@param cell CellName
---@param tag string
---@return boolean
function Game:has_terrain(cell, tag) end
---@param cell CellName
---@param name string
---@param value string
---@param known Players|"none"|nil
function Game:set_mark(cell, name, value, known) end
---@param cell CellName
---@param name string
---@return string|nil
function Game:mark(cell, name) end
---@param cell CellName
---@param name string
function Game:clear_mark(cell, name) end
---@param cell CellName
---@param name string
---@param to Players
function Game:reveal_mark(cell, name, to) end
---@param name string
---@return table<CellName, string>
function Game:marked(name) end
---@param name string
---@param cell CellName
---@return integer
function Game:cell_counter(name, cell) end
---@param name string
---@param cell CellName
---@param value integer
function Game:set_cell_counter(name, cell, value) end
---@param cell CellName
---@return integer, integer
function Game:coords(cell) end
---@param file integer
---@param rank integer
---@return CellName|nil
function Game:cell_at(file, rank) end
---@param id integer
---@param name string
function Game:clear_attr(id, name) end

---@class Rules
---@field strike fun(g: Game, attacker: Piece, defender: Piece, action: ActionInfo): "attacker"|"defender"|"both"|"none"
---@field after_action fun(g: Game, action: ActionInfo)
---@field on_choice fun(g: Game, player: Player, reason: string, option: string)
---@field filter fun(g: Game, moves: MoveInfo[]): integer[]|nil
---@field actions fun(g: Game): string[]
---@field perform fun(g: Game, label: string)
---@field setup fun(g: Game)
---@field on_turn_start fun(g: Game)
---@field on_turn_end fun(g: Game)
---@field on_phase_start fun(g: Game, phase: string)
rules = {}

---@type table<string, boolean|integer|string>
options = {}

--- The variant's `tokens:` (things that lie on cells: tile faces, cards):
--- `tokens[name]` is the token's attributes and its `name`.
---@type table<string, table<string, boolean|integer|string>>
tokens = {}
