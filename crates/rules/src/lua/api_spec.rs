//! The Lua API's one table: every method of `g`, declared once with its
//! parameters and result in Luau's types, the sentence that says what it
//! does and an example. `docs/lua-api.md`'s tables of methods and the
//! `Game` type of `scripts/types/sandtable.d.luau` are written from it
//! ([`super::api_docs`]); `tests/lua_api.rs` fails when either file is not
//! what it writes, and when a registration under `api/` takes other
//! arguments than the table declares.
//!
//! The same for the functions of `rules`: each hook (named once, in
//! [`RuleHook`]) with its parameters, answer, when it is called and what
//! it answers, and the functions a variant's YAML names.
//!
//! Changes when a method of `g` or a hook is added, removed, or changes
//! what it takes or does.

use super::RuleHook;

/// What part of a game a method reads or changes: the docs' table and
/// the Luau type's group it is listed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Area {
    Reading,
    Changing,
    TurnSteps,
    Windows,
    Containers,
}

impl Area {
    pub const ALL: [Area; 5] = [
        Area::Reading,
        Area::Changing,
        Area::TurnSteps,
        Area::Windows,
        Area::Containers,
    ];

    /// The comment that heads the area's methods in the `Game` type.
    pub fn heading(self) -> &'static str {
        match self {
            Area::Reading => "Reading the game",
            Area::Changing => "Changing the game",
            Area::TurnSteps => "The turn's steps (declared actions), reset when the turn passes",
            Area::Windows => "Reaction windows, phases, who acts now",
            Area::Containers => "Containers of items (`owner` nil for a shared one)",
        }
    }
}

/// One method of `g`.
#[derive(Clone, Copy, Debug)]
pub struct Method {
    pub name: &'static str,
    pub area: Area,
    /// The parameters after `self`, in Luau's syntax (`name: Type`, an
    /// optional one's type ending in `?`).
    pub params: &'static str,
    /// The result in Luau's syntax (`()` for none, `(A, B)` for two).
    pub returns: &'static str,
    /// What it returns or does (Markdown).
    pub doc: &'static str,
    /// A line of Lua that calls it (Markdown code, without the backticks).
    pub example: &'static str,
}

impl Method {
    /// The parameters as `(name, type)` pairs.
    pub fn parameters(&self) -> Vec<(&'static str, &'static str)> {
        split_top(self.params)
            .into_iter()
            .filter_map(|p| p.split_once(": "))
            .map(|(n, t)| (n.trim(), t.trim()))
            .collect()
    }

    /// The call as the docs show it: optional parameters at the end in
    /// brackets, `g:counter(name[, player])`.
    pub fn call(&self) -> String {
        let params = self.parameters();
        let required = params
            .iter()
            .rposition(|(_, t)| !t.ends_with('?'))
            .map_or(0, |i| i + 1);
        let mut text = format!("g:{}(", self.name);
        for (i, (name, _)) in params.iter().enumerate() {
            match (i < required, i) {
                (true, 0) => text.push_str(name),
                (true, _) => text.push_str(&format!(", {name}")),
                (false, 0) => text.push_str(&format!("[{name}")),
                (false, _) => text.push_str(&format!("[, {name}")),
            }
        }
        text.push_str(&"]".repeat(params.len() - required));
        text.push(')');
        text
    }
}

/// `text` split at the commas outside brackets, parentheses and braces.
pub fn split_top(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if !text[start..].trim().is_empty() {
        out.push(&text[start..]);
    }
    out
}

/// Every method of `g`, in the order the docs and the types list them.
pub const METHODS: &[Method] = &[
    Method {
        name: "player",
        area: Area::Reading,
        params: r#""#,
        returns: r#"Player"#,
        doc: r#"the player to move"#,
        example: r#"if g:player() == "red" then ... end"#,
    },
    Method {
        name: "players",
        area: Area::Reading,
        params: r#""#,
        returns: r#"{ Player }"#,
        doc: r#"all players, in turn order"#,
        example: r#"for _, p in ipairs(g:players()) do ... end"#,
    },
    Method {
        name: "ply",
        area: Area::Reading,
        params: r#""#,
        returns: r#"number"#,
        doc: r#"actions played so far"#,
        example: r#"g:ply() > 100"#,
    },
    Method {
        name: "option",
        area: Area::Reading,
        params: r#"name: string"#,
        returns: r#"Plain"#,
        doc: r#"an option's value"#,
        example: r#"g:option("rescues")"#,
    },
    Method {
        name: "piece",
        area: Area::Reading,
        params: r#"id: PieceRef"#,
        returns: r#"Piece?"#,
        doc: r#"a piece table, or nil"#,
        example: r#"g:piece(action.piece).kind"#,
    },
    Method {
        name: "piece_at",
        area: Area::Reading,
        params: r#"cell: CellName"#,
        returns: r#"Piece?"#,
        doc: r#"the piece on a cell, or nil"#,
        example: r#"g:piece_at("e5")"#,
    },
    Method {
        name: "pieces",
        area: Area::Reading,
        params: r#"filter: PieceFilter?"#,
        returns: r#"{ Piece }"#,
        doc: r#"pieces on the board matching every field `filter` gives: `owner`, `kind`, `mobile`, `attr` (that attribute set, not 0)"#,
        example: r#"g:pieces({ owner = "blue", kind = "bomb" })"#,
    },
    Method {
        name: "count",
        area: Area::Reading,
        params: r#"filter: PieceFilter?"#,
        returns: r#"number"#,
        doc: r#"how many pieces `g:pieces(filter)` would list (no tables built)"#,
        example: r#"g:count({ owner = them, mobile = true }) == 0"#,
    },
    Method {
        name: "container",
        area: Area::Reading,
        params: r#"name: string, owner: Player?"#,
        returns: r#"{ Piece }"#,
        doc: r#"the pieces in a container, in order"#,
        example: r#"g:container("captured", "red")"#,
    },
    Method {
        name: "declared_strike",
        area: Area::Reading,
        params: r#"attacker: PieceRef, defender: PieceRef"#,
        returns: r#"StrikeResult"#,
        doc: r#"what the variant's declared `strike:` table answers for these two pieces (`"attacker"` when it has none or no line fits), so a `rules.strike` deviates only where its rule does"#,
        example: r#"if attacker.kind == "scout" and action.distance > 3 then return "both" end return g:declared_strike(attacker, defender)"#,
    },
    Method {
        name: "cell",
        area: Area::Reading,
        params: r#"cell: CellName"#,
        returns: r#"Cell"#,
        doc: r#"`{name, index, terrain = {tags}, piece = id or nil}`"#,
        example: r#"#g:cell("c5").terrain > 0"#,
    },
    Method {
        name: "cell_name",
        area: Area::Reading,
        params: r#"index: number"#,
        returns: r#"CellName"#,
        doc: r#"a cell's name from its index"#,
        example: r#"g:cell_name(0) == "a1""#,
    },
    Method {
        name: "index",
        area: Area::Reading,
        params: r#"cell: CellName"#,
        returns: r#"number"#,
        doc: r#"a cell's index (0-based, `rank * files + file`), as the fast hooks number cells"#,
        example: r#"g:index("b1") == 1"#,
    },
    Method {
        name: "board_size",
        area: Area::Reading,
        params: r#""#,
        returns: r#"(number, number)"#,
        doc: r#"the board's files and ranks"#,
        example: r#"local files, ranks = g:board_size()"#,
    },
    Method {
        name: "coords",
        area: Area::Reading,
        params: r#"cell: CellName"#,
        returns: r#"(number, number)"#,
        doc: r#"file and rank, from 0"#,
        example: r#"local f, r = g:coords("c3")"#,
    },
    Method {
        name: "cell_at",
        area: Area::Reading,
        params: r#"file: number, rank: number"#,
        returns: r#"CellName?"#,
        doc: r#"the cell's name, or nil off the board (and on a rectangle's cell that is not a point of a hex or graph board)"#,
        example: r#"g:cell_at(f + 1, r)"#,
    },
    Method {
        name: "cells",
        area: Area::Reading,
        params: r#""#,
        returns: r#"{ CellName }"#,
        doc: r#"every cell of the board, in index order (on a hex or graph board, its points only, never the rest of the rectangle)"#,
        example: r#"for _, c in ipairs(g:cells()) do ... end"#,
    },
    Method {
        name: "neighbors",
        area: Area::Reading,
        params: r#"cell: CellName, directions: Directions?"#,
        returns: r#"{ CellName }"#,
        doc: r#"neighbouring cells in a direction set (`orthogonal` by default, `diagonal`, `all`, `knight`, `hex` on a hex board, or one the board declares); only cells of the board"#,
        example: r#"g:neighbors("e4", "all")"#,
    },
    Method {
        name: "line",
        area: Area::Reading,
        params: r#"cell: CellName, df: number, dr: number"#,
        returns: r#"{ CellName }"#,
        doc: r#"the cells from `cell` outwards by steps of (df, dr), nearest first, to the board's edge (on a hex or graph board, to the last point before the walk leaves the board)"#,
        example: r#"g:line("c3", 1, 1)"#,
    },
    Method {
        name: "zone",
        area: Area::Reading,
        params: r#"name: string"#,
        returns: r#"{ CellName }"#,
        doc: r#"the cells of a YAML zone"#,
        example: r#"g:zone("red_home")"#,
    },
    Method {
        name: "in_zone",
        area: Area::Reading,
        params: r#"cell: CellName, zone: string"#,
        returns: r#"boolean"#,
        doc: r#"whether a cell is in a zone"#,
        example: r#"g:in_zone(action.to, "blue_back_row")"#,
    },
    Method {
        name: "query",
        area: Area::Reading,
        params: r#"name: string, player: Player?"#,
        returns: r#"{ CellName }"#,
        doc: r#"the cells of a query declared in `queries:` (computed by the host; for the player to move unless `player` is given), in cell order"#,
        example: r#"g:query("shrinkable")"#,
    },
    Method {
        name: "grid",
        area: Area::Reading,
        params: r#""#,
        returns: r#"({ string | false }, { Player | false })"#,
        doc: r#"the whole board in one call: two lists indexed by cell index + 1, each cell's kind and its owner (`false` for an empty cell)"#,
        example: r#"local kinds, owners = g:grid()"#,
    },
    Method {
        name: "attacked",
        area: Area::Reading,
        params: r#"cell: CellName, by: Player, from: CellName?"#,
        returns: r#"boolean"#,
        doc: r#"whether player `by` could capture on `cell` with a declared move (the host's native answer; with `from`, as if the piece on `from` stood on `cell`)"#,
        example: r#"g:attacked("f1", "black", "e1")"#,
    },
    Method {
        name: "counter",
        area: Area::Reading,
        params: r#"name: string, player: Player?"#,
        returns: r#"number"#,
        doc: r#"a counter (0 if never set)"#,
        example: r#"g:counter("rescues", "red")"#,
    },
    Method {
        name: "turn_order",
        area: Area::Reading,
        params: r#"from: Player?"#,
        returns: r#"{ Player }"#,
        doc: r#"players still in the game, in turn order starting at `from` (default: the player to move)"#,
        example: r#"for _, p in ipairs(g:turn_order()) do ... end"#,
    },
    Method {
        name: "has_terrain",
        area: Area::Reading,
        params: r#"cell: CellName, tag: string"#,
        returns: r#"boolean"#,
        doc: r#"whether a cell has a terrain tag now"#,
        example: r#"g:has_terrain("c3", "water")"#,
    },
    Method {
        name: "mark",
        area: Area::Reading,
        params: r#"cell: CellName, name: string"#,
        returns: r#"string?"#,
        doc: r#"the value of a cell mark, or nil (scripts see every mark)"#,
        example: r#"g:mark("c3", "tile") == "down""#,
    },
    Method {
        name: "marked",
        area: Area::Reading,
        params: r#"name: string"#,
        returns: r#"{ [CellName]: string }"#,
        doc: r#"`{cell = value}` of every cell with that mark"#,
        example: r#"for c, v in pairs(g:marked("target")) do ... end"#,
    },
    Method {
        name: "cell_counter",
        area: Area::Reading,
        params: r#"name: string, cell: CellName"#,
        returns: r#"number"#,
        doc: r#"a counter on a cell (0 if none)"#,
        example: r#"g:cell_counter("coins", "c3")"#,
    },
    Method {
        name: "reveal",
        area: Area::Changing,
        params: r#"id: PieceRef, to: Players"#,
        returns: r#"()"#,
        doc: r#"`to` (`"all"`, a player, or a list) learns the piece's kind; a piece every player knows is shown to spectators too (a spectator sees what all players know)"#,
        example: r#"g:reveal(defender.id, "all")"#,
    },
    Method {
        name: "set_known",
        area: Area::Changing,
        params: r#"id: PieceRef, players: Players"#,
        returns: r#"()"#,
        doc: r#"exactly these players (and the owner) know it"#,
        example: r#"g:set_known(p.id, "red")"#,
    },
    Method {
        name: "capture",
        area: Area::Changing,
        params: r#"id: PieceRef"#,
        returns: r#"()"#,
        doc: r#"the piece goes to its owner's `captured` container"#,
        example: r#"g:capture(defender.id)"#,
    },
    Method {
        name: "move",
        area: Area::Changing,
        params: r#"id: PieceRef, cell: CellName"#,
        returns: r#"()"#,
        doc: r#"a piece (on the board or in a container) to an empty cell"#,
        example: r#"g:move(p.id, "e3")"#,
    },
    Method {
        name: "win",
        area: Area::Changing,
        params: r#"player: Player, reason: string?"#,
        returns: r#"()"#,
        doc: r#"ends the game"#,
        example: r#"g:win(attacker.owner, "flag taken")"#,
    },
    Method {
        name: "draw",
        area: Area::Changing,
        params: r#"reason: string?"#,
        returns: r#"()"#,
        doc: r#"ends the game in a draw"#,
        example: r#"g:draw("neither side can move")"#,
    },
    Method {
        name: "set_counter",
        area: Area::Changing,
        params: r#"name: string, value: number, player: Player?"#,
        returns: r#"()"#,
        doc: r#"sets a counter"#,
        example: r#"g:set_counter("rescues", 1, "red")"#,
    },
    Method {
        name: "set_attr",
        area: Area::Changing,
        params: r#"id: PieceRef, name: string, value: number"#,
        returns: r#"()"#,
        doc: r#"sets a piece attribute (an integer)"#,
        example: r#"g:set_attr(piece.id, "rescued", 1)"#,
    },
    Method {
        name: "clear_attr",
        area: Area::Changing,
        params: r#"id: PieceRef, name: string"#,
        returns: r#"()"#,
        doc: r#"removes a piece attribute"#,
        example: r#"g:clear_attr(p.id, "ring")"#,
    },
    Method {
        name: "set_kind",
        area: Area::Changing,
        params: r#"id: PieceRef, kind: string"#,
        returns: r#"()"#,
        doc: r#"changes a piece's kind"#,
        example: r#"g:set_kind(p.id, "queen")"#,
    },
    Method {
        name: "choose",
        area: Area::Changing,
        params: r#"player: Player, reason: string, options: { string }, public: boolean?, handler: string?, data: { [string]: Plain }?"#,
        returns: r#"()"#,
        doc: r#"a pending choice: play waits for the player's answer; `public`: everyone sees question, options and answer; `handler`: the `rules` function that takes the answer with `data` (string keys, at most 16; values: booleans, integers, strings of at most 200 bytes, and lists (tables with keys 1..n) and maps (string keys) of them, at most 4 deep and 256 values in all), never shown to players; without it `rules.on_choice` does"#,
        example: r#"g:choose("red", "rescue", { "marshal", "none" }, true, "rescue", { rescuer = p.id })"#,
    },
    Method {
        name: "log",
        area: Area::Changing,
        params: r#"text: string"#,
        returns: r#"()"#,
        doc: r#"a note in the events, shown to everybody: never name a hidden fact in it"#,
        example: r#"g:log("red rescues a piece")"#,
    },
    Method {
        name: "send",
        area: Area::Changing,
        params: r#"id: PieceRef, container: string, owner: Player?, front: boolean?"#,
        returns: r#"()"#,
        doc: r#"a piece to the back (or the front) of an ordered container, created on demand"#,
        example: r#"g:send(p.id, "boat", p.owner)"#,
    },
    Method {
        name: "add_piece",
        area: Area::Changing,
        params: r#"kind: string, owner: Player, place: CellName | string, known: Players?"#,
        returns: r#"number"#,
        doc: r#"creates a piece on a cell or at the back of the owner's container `place`; known to its owner and `known` (without `known`: to everyone, unless the variant hides identities)"#,
        example: r#"g:add_piece("v3", "red", "boat")"#,
    },
    Method {
        name: "set_terrain",
        area: Area::Changing,
        params: r#"cell: CellName, tag: string, on: boolean"#,
        returns: r#"()"#,
        doc: r#"terrain changes during play (not onto a piece if the tag blocks)"#,
        example: r#"g:set_terrain("a1", "water", true)"#,
    },
    Method {
        name: "set_mark",
        area: Area::Changing,
        params: r#"cell: CellName, name: string, value: string, known: Players?"#,
        returns: r#"()"#,
        doc: r#"a fact on a cell, known to `known` (`"all"` by default, a player, a list, or `"none"`); views show a mark only to those who know it"#,
        example: r#"g:set_mark("c3", "content", "storm", "none")"#,
    },
    Method {
        name: "reveal_mark",
        area: Area::Changing,
        params: r#"cell: CellName, name: string, to: Players"#,
        returns: r#"()"#,
        doc: r#"more players learn a mark"#,
        example: r#"g:reveal_mark("c3", "content", "all")"#,
    },
    Method {
        name: "clear_mark",
        area: Area::Changing,
        params: r#"cell: CellName, name: string"#,
        returns: r#"()"#,
        doc: r#"removes a mark"#,
        example: r#"g:clear_mark("c3", "item")"#,
    },
    Method {
        name: "set_cell_counter",
        area: Area::Changing,
        params: r#"name: string, cell: CellName, value: number"#,
        returns: r#"()"#,
        doc: r#"a public counter on a cell (0 removes it)"#,
        example: r#"g:set_cell_counter("coins", "c3", 2)"#,
    },
    Method {
        name: "continue_turn",
        area: Area::TurnSteps,
        params: r#""#,
        returns: r#"()"#,
        doc: r#"the player to move acts again after this action"#,
        example: r#"g:continue_turn()"#,
    },
    Method {
        name: "close_actions",
        area: Area::TurnSteps,
        params: r#""#,
        returns: r#"()"#,
        doc: r#"the action part of the turn is over: counted declared actions are no longer listed"#,
        example: r#"g:close_actions()"#,
    },
    Method {
        name: "note_turn",
        area: Area::TurnSteps,
        params: r#"name: string"#,
        returns: r#"()"#,
        doc: r#"note a fact about the turn in progress (forgotten when the turn passes)"#,
        example: r#"g:note_turn("won_fight")"#,
    },
    Method {
        name: "turn_noted",
        area: Area::TurnSteps,
        params: r#"name: string"#,
        returns: r#"boolean"#,
        doc: r#"whether a fact was noted in the turn in progress"#,
        example: r#"if g:turn_noted("won_fight") then ... end"#,
    },
    Method {
        name: "turn_actions",
        area: Area::TurnSteps,
        params: r#""#,
        returns: r#"number"#,
        doc: r#"how many counted declared actions this turn has taken"#,
        example: r#"g:turn_actions() < 2"#,
    },
    Method {
        name: "open_window",
        area: Area::Windows,
        params: r#"name: string, data: { [string]: Plain }?"#,
        returns: r#"()"#,
        doc: r#"opens the declared window `name` when the running action ends; `data`: plain values as for `g:choose`"#,
        example: r#"g:open_window("pike", { angler = me })"#,
    },
    Method {
        name: "window",
        area: Area::Windows,
        params: r#""#,
        returns: r#"(string?, { [string]: Plain }?)"#,
        doc: r#"the open window's name and data, or nil"#,
        example: r#"local name, data = g:window()"#,
    },
    Method {
        name: "actor",
        area: Area::Windows,
        params: r#""#,
        returns: r#"Player"#,
        doc: r#"the player acting now: the chooser of a pending choice, the player a window asks, else the player to move"#,
        example: r#"g:log(g:actor() .. " cuts the line")"#,
    },
    Method {
        name: "phase",
        area: Area::Windows,
        params: r#""#,
        returns: r#"string?"#,
        doc: r#"the current phase's name (nil without `phases:`)"#,
        example: r#"if g:phase() == "mooring" then"#,
    },
    Method {
        name: "end_phase",
        area: Area::Windows,
        params: r#""#,
        returns: r#"()"#,
        doc: r#"the next turn starts the next phase"#,
        example: r#""#,
    },
    Method {
        name: "draw_from",
        area: Area::Containers,
        params: r#"name: string, owner: Player?"#,
        returns: r#"string?"#,
        doc: r#"takes an item out (a bag: a random one; else the top/front); nil when empty"#,
        example: r#"local tile = g:draw_from("pond")"#,
    },
    Method {
        name: "put_in",
        area: Area::Containers,
        params: r#"name: string, owner: Player?, face: string, where: ("top" | "bottom" | "random")?"#,
        returns: r#"()"#,
        doc: r#"puts an item in (`owner` nil for a shared one); `where`: `top`, `bottom`, `random` (default: a bag random, a stack top, a queue bottom); nobody knows it but what `contents` shows"#,
        example: r#"g:put_in("catch", me, "trout")"#,
    },
    Method {
        name: "peek",
        area: Area::Containers,
        params: r#"name: string, owner: Player?, n: number, player: Player"#,
        returns: r#"{ string }"#,
        doc: r#"the top `n` faces; `player` now knows them"#,
        example: r#"g:peek("deck", nil, 2, me)"#,
    },
    Method {
        name: "shuffle",
        area: Area::Containers,
        params: r#"name: string, owner: Player?"#,
        returns: r#"()"#,
        doc: r#"shuffles with the game's generator; nobody knows where any item is"#,
        example: r#"g:shuffle("deck")"#,
    },
    Method {
        name: "items",
        area: Area::Containers,
        params: r#"name: string, owner: Player?"#,
        returns: r#"{ string }"#,
        doc: r#"every face, in order (the script sees all)"#,
        example: r#"#g:items("pond")"#,
    },
];

/// Where in `docs/lua-api.md` a hook's row is: the table of that section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// "Hooks": the main hooks.
    Main,
    /// "Declared actions": the functions a declared action names.
    Declared,
    /// "Turn flow": turns, phases and windows.
    TurnFlow,
    /// "Moves the rules add, and FEN fields".
    Moves,
    /// "Fast hooks": the hooks that read the board as a buffer.
    Fast,
}

impl Section {
    pub const ALL: [Section; 5] = [
        Section::Main,
        Section::Declared,
        Section::TurnFlow,
        Section::Moves,
        Section::Fast,
    ];
}

/// What a script defines in `rules`: a hook the host looks up by its key,
/// or a function a variant's YAML names (`perform: <perform>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Defined {
    Hook(RuleHook),
    Named(&'static str),
}

/// A function of the `rules` table.
#[derive(Clone, Copy, Debug)]
pub struct Hook {
    pub defined: Defined,
    pub section: Section,
    /// The parameters in Luau's syntax (a named function's: their names).
    pub params: &'static str,
    /// The answer's Luau type (empty for a named function).
    pub returns: &'static str,
    /// When the host calls it (Markdown).
    pub called: &'static str,
    /// What it answers (Markdown).
    pub answer: &'static str,
}

impl Hook {
    /// Its name in `rules`: the hook's key, or `<perform>`.
    pub fn name(&self) -> &'static str {
        match self.defined {
            Defined::Hook(h) => h.key(),
            Defined::Named(n) => n,
        }
    }

    /// The call as the docs show it: `rules.strike(g, attacker, defender, action)`.
    pub fn call(&self) -> String {
        let names: Vec<&str> = split_top(self.params)
            .into_iter()
            .map(|p| p.split(':').next().unwrap_or(p).trim())
            .collect();
        format!("rules.{}({})", self.name(), names.join(", "))
    }
}

/// Every function of `rules` the host calls: each hook of [`RuleHook`]
/// once, and the functions a variant names.
pub const HOOKS: &[Hook] = &[
    Hook {
        defined: Defined::Hook(RuleHook::Strike),
        section: Section::Main,
        params: r#"g: Game, attacker: Piece, defender: Piece, action: Action"#,
        returns: r#"StrikeResult"#,
        called: r#"a piece moves onto an enemy piece; `attacker` and `defender` are [pieces](#a-piece), `action` the striking move ([the action table](#the-action-table), with its `distance`); during the call both are still on the board (the attacker on `action.from`, the defender on `action.to`: `g:piece_at(action.to)` is the defender), and with `rules: { visibility: { strike_reveals: true } }` both are already revealed to every player; where it is defined, a declared `strike:` table is not read (ask it with `g:declared_strike`; a later script's `rules.strike = nil` gives the decision back to the table)"#,
        answer: r#"`"attacker"` (defender removed, attacker moves in), `"defender"` (attacker removed), `"both"`, `"none"`"#,
    },
    Hook {
        defined: Defined::Hook(RuleHook::AfterAction),
        section: Section::Main,
        params: r#"g: Game, action: Action"#,
        returns: r#"()"#,
        called: r#"after every action; `action` is [the action table](#the-action-table)"#,
        answer: r#"nothing; effects through `g`"#,
    },
    Hook {
        defined: Defined::Hook(RuleHook::OnChoice),
        section: Section::Main,
        params: r#"g: Game, player: Player, reason: string, option: string"#,
        returns: r#"()"#,
        called: r#"a pending choice is answered"#,
        answer: r#"nothing; may push another choice"#,
    },
    Hook {
        defined: Defined::Hook(RuleHook::Filter),
        section: Section::Main,
        params: r#"g: Game, moves: { Move }"#,
        returns: r#"({ number } | { [number]: string })?"#,
        called: r#"legal moves are listed; `moves` holds every generated move, each a table built as [the action table](#the-action-table) is (every field but `captured` and `captures`, which only a played action has): moves, jump sequences (`kind = "jump"`, with their `text`) and placements (`kind = "place"`, `to` and `piece_kind`, no `from`), compulsory ones included"#,
        answer: r#"list of indices (1-based) of `moves` to forbid (`{2, 5}`), or a table from such an index to the reason (`{[2] = "the wall holds"}`), or nil; a refused move is explained as `rules.filter refuses it: <reason>`"#,
    },
    Hook {
        defined: Defined::Hook(RuleHook::Actions),
        section: Section::Main,
        params: r#"g: Game, cells: Cells"#,
        returns: r#"{ string }"#,
        called: r#"legal actions are listed (no choice pending)"#,
        answer: r#"list of distinct labels: extra actions of the player to move (`"flip c3"`, `"end"`); the host lists them after the declared moves, and their text is the label; `cells` is the board buffer of the fast hooks below"#,
    },
    Hook {
        defined: Defined::Hook(RuleHook::Perform),
        section: Section::Main,
        params: r#"g: Game, label: string"#,
        returns: r#"()"#,
        called: r#"one of those actions is played"#,
        answer: r#"nothing; effects through `g` (define `actions` and `perform` together)"#,
    },
    Hook {
        defined: Defined::Hook(RuleHook::Setup),
        section: Section::Main,
        params: r#"g: Game"#,
        returns: r#"()"#,
        called: r#"once, on a new game, after the declared setups (or the `start:` line)"#,
        answer: r#"nothing; may create pieces, lay marks, push choices"#,
    },
    Hook {
        defined: Defined::Hook(RuleHook::Consistent),
        section: Section::Main,
        params: r#"g: Game, piece: Piece"#,
        returns: r#"boolean?"#,
        called: r#"an agent samples a determinization (a complete state consistent with what its player knows; `g` is the sample, `piece` one whose kind was dealt)"#,
        answer: r#"`false` if this piece cannot be of its dealt kind (the sample is drawn again); `true` or nil otherwise"#,
    },
    Hook {
        defined: Defined::Hook(RuleHook::Evaluate),
        section: Section::Main,
        params: r#"g: Game, player: Player"#,
        returns: r#"number"#,
        called: r#"an agent's search stops a playout before the end"#,
        answer: r#"the estimated chance (0 to 1) that `player` wins from here; default: material, `1 + rank` per piece in play"#,
    },
    Hook {
        defined: Defined::Named("<perform>"),
        section: Section::Declared,
        params: r#"g, args"#,
        returns: r#""#,
        called: r#"a declared action with `perform: <perform>` is played (with `perform_if: { param, any: [conditions] }`, only when one of the conditions holds on that parameter's cell); `args` maps each parameter to its cell name (`args.cell`, `args.from`, `args.to`)"#,
        answer: r#"nothing; effects through `g`"#,
    },
    Hook {
        defined: Defined::Named("<legal>"),
        section: Section::Declared,
        params: r#"g, args"#,
        returns: r#""#,
        called: r#"a declared action with `legal: <legal>` is listed"#,
        answer: r#"`true` to keep it; `false`, nil or a reason (a string) to refuse it: the reason is what the refusal says, and the cells a refusal offers (`cell may be: ...`) leave out those it refuses"#,
    },
    Hook {
        defined: Defined::Named("<handler>"),
        section: Section::Declared,
        params: r#"g, player, option, data"#,
        returns: r#""#,
        called: r#"a choice asked with a handler is answered; `data` is the table of plain values given to `g:choose`"#,
        answer: r#"nothing; may push another choice"#,
    },
    Hook {
        defined: Defined::Hook(RuleHook::OnTurnEnd),
        section: Section::TurnFlow,
        params: r#"g: Game"#,
        returns: r#"()"#,
        called: r#"before the turn passes (not while a choice is pending or a window open)"#,
        answer: r#"nothing; may end the game"#,
    },
    Hook {
        defined: Defined::Hook(RuleHook::OnPhaseStart),
        section: Section::TurnFlow,
        params: r#"g: Game, phase: string"#,
        returns: r#"()"#,
        called: r#"when a phase begins (the first when the game starts)"#,
        answer: r#"nothing"#,
    },
    Hook {
        defined: Defined::Hook(RuleHook::OnTurnStart),
        section: Section::TurnFlow,
        params: r#"g: Game"#,
        returns: r#"()"#,
        called: r#"when a turn begins (the first after `rules.setup`)"#,
        answer: r#"nothing"#,
    },
    Hook {
        defined: Defined::Named("<on_pass>"),
        section: Section::TurnFlow,
        params: r#"g, data"#,
        returns: r#""#,
        called: r#"a window closes with everyone asked having passed; `data` is the window's"#,
        answer: r#"nothing; may open another window"#,
    },
    Hook {
        defined: Defined::Hook(RuleHook::ExtraMoves),
        section: Section::Moves,
        params: r#"g: Game, player: Player, cells: Cells"#,
        returns: r#"{ ExtraMove }"#,
        called: r#"legal moves are listed (only while a counter of the variant's `rules: extra_moves_when` is not 0, when that list is given)"#,
        answer: r#"a list of `{from = c, to = c, captures = {c, ...}}` (cell indices): moves added to the declared ones; `captures` are cells the move empties besides `to`"#,
    },
    Hook {
        defined: Defined::Hook(RuleHook::PositionFields),
        section: Section::Moves,
        params: r#"g: Game, fields: { string }"#,
        returns: r#"()"#,
        called: r#"a FEN line is read (`position`, `start:`, `--position`)"#,
        answer: r#"nothing; `fields` are the words after the player to move (chess: castling rights, en passant cell, clocks), to keep in counters"#,
    },
    Hook {
        defined: Defined::Hook(RuleHook::Frozen),
        section: Section::Fast,
        params: r#"g: Game, player: Player, cells: Cells"#,
        returns: r#"{ number }"#,
        called: r#"legal moves are listed"#,
        answer: r#"list of cells whose pieces (of `player`) cannot move now (besides those a kind's declared `freezes:` holds, which the host finds itself)"#,
    },
    Hook {
        defined: Defined::Hook(RuleHook::Captures),
        section: Section::Fast,
        params: r#"g: Game, from: number, to: number, cells: Cells"#,
        returns: r#"{ number }"#,
        called: r#"a move is applied or tried (board as before the move; only for the moves `rules: script: captures_when`, when given, names)"#,
        answer: r#"list of cells it captures besides an enemy on `to` (the host removes them and reports each)"#,
    },
    Hook {
        defined: Defined::Hook(RuleHook::Attacked),
        section: Section::Fast,
        params: r#"g: Game, cell: number, by: Player, cells: Cells"#,
        returns: r#"boolean"#,
        called: r#"after each candidate move, for the mover's royal pieces"#,
        answer: r#"`true` if player `by`, moving now, could capture the piece on `cell`"#,
    },
    Hook {
        defined: Defined::Hook(RuleHook::CheckCells),
        section: Section::Fast,
        params: r#"g: Game, player: Player, cells: Cells"#,
        returns: r#"{ number }?"#,
        called: r#"once per position, before the self-check test (optional)"#,
        answer: r#"nil (test every move), or a list of cells: the rules promise that while `player`'s royal pieces cannot be captured now, a move that starts, ends and captures outside these cells leaves them safe, so the host skips its test for such moves"#,
    },
    Hook {
        defined: Defined::Hook(RuleHook::Sight),
        section: Section::Fast,
        params: r#"g: Game, player: Player, cells: Cells"#,
        returns: r#"{ number }?"#,
        called: r#"when a view of a variant with `sight:` (fog of war) is made, for each player it shows"#,
        answer: r#"nil, or a list of cells `player` sees besides those `sight:` declares (a watchtower, a scout's report); never called while moves are listed"#,
    },
];

/// A field of the action table `rules.after_action` and `rules.strike` get
/// (the `kind` field's values are `ActionKind`'s).
#[derive(Clone, Copy, Debug)]
pub struct Field {
    pub name: &'static str,
    /// Its Luau type (empty for `kind`, whose type is the kinds' names).
    pub luau: &'static str,
    /// A few words for the type declarations.
    pub short: &'static str,
    /// What it holds (Markdown).
    pub doc: &'static str,
}

/// The action table's fields, in the order the docs list them.
pub const ACTION_FIELDS: &[Field] = &[
    Field {
        name: "kind",
        luau: "",
        short: "what the action is",
        doc: "what the action is",
    },
    Field {
        name: "text",
        luau: "string",
        short: "the action's text (a move: from-to; a jump: a1xc3xe5)",
        doc: r#"the action's text: a choice's label, a scripted action's text, a jump sequence's (`"a1xc3xe5"`), a placement's (`"d1"`); a move's from-to (`"e4-e5"`)"#,
    },
    Field {
        name: "player",
        luau: "Player",
        short: "who acted",
        doc: "who acted",
    },
    Field {
        name: "from",
        luau: "CellName?",
        short: "a move's or jump's first cell (none for a placement)",
        doc: "a move's first cell; a jump sequence's first cell; nil for a placement and the kinds without cells",
    },
    Field {
        name: "to",
        luau: "CellName?",
        short: "its last cell; a placement's cell",
        doc: "a move's last cell; a jump sequence's last landing; a placement's cell; nil for the kinds without cells",
    },
    Field {
        name: "from_index",
        luau: "number?",
        short: "`from` as a 0-based index",
        doc: "`from` as a 0-based index, as the fast hooks number cells",
    },
    Field {
        name: "to_index",
        luau: "number?",
        short: "`to` as a 0-based index",
        doc: "`to` as a 0-based index",
    },
    Field {
        name: "path",
        luau: "{ CellName }?",
        short: "the cells the piece stands on, from `from` to `to`",
        doc: "the cells the piece stands on along the way, in order: a move's `from` and `to`, a jump sequence's first cell and every landing, a placement's cell; nil for the kinds without cells",
    },
    Field {
        name: "distance",
        luau: "number?",
        short: "from and to: the larger of the file and rank differences",
        doc: "a move's length in squares: the larger of the file and rank differences between `from` and `to` (1 for any neighbour, 5 for a slide of five squares; a knight's leap is 2)",
    },
    Field {
        name: "piece",
        luau: "number?",
        short: "the id of the piece that moved, or was placed",
        doc: "the id of the piece that moved (a placement: the piece placed, in `after_action`)",
    },
    Field {
        name: "piece_kind",
        luau: "string?",
        short: "its kind before the action (a placement: the kind placed)",
        doc: r#"that piece's kind before the action (a promoted pawn is still `"pawn"`; a placement: the kind placed)"#,
    },
    Field {
        name: "captured",
        luau: "number?",
        short: "pieces the action took (after_action only)",
        doc: "how many pieces the action took (`after_action` only: in `rules.strike` the strike is being decided)",
    },
    Field {
        name: "captures",
        luau: "{ CellName }?",
        short: "the cells of the pieces it took (after_action only)",
        doc: "the cells of the pieces the action took, in the order taken (a strike's loser, each capture a rule made on a cell); `after_action` only, nil when it took none",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_brackets_its_optional_parameters_at_the_end() {
        let find = |n: &str| METHODS.iter().find(|m| m.name == n).unwrap();
        assert_eq!(find("counter").call(), "g:counter(name[, player])");
        assert_eq!(find("player").call(), "g:player()");
        assert_eq!(find("turn_order").call(), "g:turn_order([from])");
        assert_eq!(
            find("send").call(),
            "g:send(id, container[, owner[, front]])"
        );
        // An optional parameter before a required one is shown plainly.
        assert_eq!(
            find("put_in").call(),
            "g:put_in(name, owner, face[, where])"
        );
    }

    #[test]
    fn every_hook_is_in_the_table_once() {
        for h in RuleHook::ALL {
            let rows = HOOKS.iter().filter(|r| r.defined == Defined::Hook(*h));
            assert_eq!(rows.count(), 1, "{}", h.key());
        }
        let strike = HOOKS.iter().find(|h| h.name() == "strike").unwrap();
        assert_eq!(strike.call(), "rules.strike(g, attacker, defender, action)");
    }

    #[test]
    fn every_method_is_named_once() {
        let mut names: Vec<&str> = METHODS.iter().map(|m| m.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), METHODS.len());
    }
}
