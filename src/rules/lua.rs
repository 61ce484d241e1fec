//! The Lua bridge: a sandboxed Luau state per loaded variant, the host API
//! exposed to rules, and the hooks the engine calls.
//!
//! Sandbox: only the `math`, `string`, `table`, `utf8`, `bit32` and `buffer`
//! libraries; no `io`, `os`, `debug`, `require`, `load`, `loadstring`,
//! `getfenv`/`setfenv`, `collectgarbage`, `newproxy`; globals and the `rules`
//! table are read-only once the script has loaded, so a script keeps no state
//! of its own between calls. Every hook call has an instruction budget
//! (counted by Luau's interrupt, which fires on calls and loop back-edges) and
//! the state has a memory limit. `math.random` draws from the game's seeded
//! generator.
//!
//! During a hook call the Lua state's call context points at the game state
//! (see [`CallCtx`]), so API functions read and change it directly; a hook
//! that may change it works on the engine's copy, which is discarded if the
//! hook fails, and a read-only question copies the state only if it writes.

use std::sync::Arc;

use mlua::{Function, Lua, LuaOptions, StdLib, Table, UserData, UserDataMethods, Value as LV};
use rand::Rng;

use crate::base::effect::Effect;
use crate::base::geometry::Cell;
use crate::base::state::{Choice, GameState, Loc, Mark, Outcome, PieceId, PlayerId, PlayerSet};
use crate::rules::variant::{Diagnostic, LoadError, Value, Variant};

thread_local! {
    /// Interrupt ticks left to the hook call running on this thread (each
    /// call sets it; calls on one Lua state always run on the calling
    /// thread).
    static TICKS: std::cell::Cell<i64> = const { std::cell::Cell::new(DEFAULT_BUDGET) };
}

/// Luau's interrupt (at calls and loop back-edges): counts a tick and
/// raises a Lua error when the call's budget is spent. A plain function on
/// a thread-local counter, because it runs many millions of times.
unsafe extern "C-unwind" fn budget_interrupt(
    state: *mut mlua::ffi::lua_State,
    gc: std::ffi::c_int,
) {
    if gc >= 0 {
        return; // a garbage-collector step, not a safepoint
    }
    let left = TICKS.with(|t| {
        let v = t.get() - 1;
        t.set(v);
        v
    });
    if left < 0 {
        // Room for the error to be handled; the next call resets it.
        TICKS.with(|t| t.set(DEFAULT_BUDGET));
        // SAFETY: raising a Lua error from the interrupt is how Luau aborts
        // a running script; it unwinds to the protected call.
        unsafe {
            mlua::ffi::luaL_error(
                state,
                c"instruction budget exceeded (a runaway loop?)".as_ptr(),
            )
        }
    }
}

/// Instruction budget per hook call, in interrupt ticks.
pub const DEFAULT_BUDGET: i64 = 2_000_000;
/// Memory limit of a variant's Lua state.
pub const DEFAULT_MEMORY: usize = 64 << 20;

/// What an action is, as `rules.after_action` names it (`action.kind`,
/// one of [`ACTION_KINDS`], in the same order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionKind {
    Move,
    Choice,
    Scripted,
    Draw,
}

/// The names of the [`ActionKind`]s, handed to the prelude once.
const ACTION_KINDS: [&str; 4] = ["move", "choice", "scripted", "draw"];

/// An action as `rules.after_action` sees it.
#[derive(Clone, Debug)]
pub struct ActionInfo {
    pub kind: ActionKind,
    /// The action's text; `None` for a move (the table builds `from-to`
    /// when the script asks for it).
    pub text: Option<String>,
    pub player: PlayerId,
    pub from: Option<Cell>,
    pub to: Option<Cell>,
    pub piece: Option<PieceId>,
    /// The acting piece's kind (before the action).
    pub piece_kind: Option<crate::base::state::KindId>,
    /// How many pieces the action captured.
    pub captured: usize,
}

/// Tables rules receive, built inside Luau from numbers (names come from
/// tables made once): one call across the boundary instead of one per
/// field. `after_action` builds the `action` table (`text` of a move made
/// only when read) and calls the hook; `piece` builds a piece table.
const HOST_PRELUDE: &str = r#"
local PLAYERS, KINDS, CELLS, RANKS, MOBILE, KATTRS, ACTION_KINDS = ...
local MOVE_TEXT = { __index = function(t, k)
  if k == "text" then return t.from .. "-" .. t.to end
end }
local function after_action(hook, g, kind, player, from, to, piece, piece_kind, captured, text)
  local t = {
    kind = ACTION_KINDS[kind], player = PLAYERS[player], piece = piece, captured = captured,
    from = from and CELLS[from + 1], to = to and CELLS[to + 1],
    from_index = from, to_index = to,
    piece_kind = piece_kind and KINDS[piece_kind + 1], text = text,
  }
  if text == nil and from then setmetatable(t, MOVE_TEXT) end
  return hook(g, t)
end
-- A piece as rules see it: the kind's attributes, the piece's own, then
-- the fixed fields. Each kind's part is a template made once and copied
-- (`table.clone` sizes the copy at once, no rehash per field).
local TEMPLATE = {}
for k = 1, #KINDS do
  local t = {}
  for key, v in pairs(KATTRS[k]) do t[key] = v end
  t.id = 0
  t.kind = KINDS[k]
  t.owner = PLAYERS[1]
  t.rank = RANKS[k]
  t.cell = false
  t.moved = false
  t.mobile = MOBILE[k]
  TEMPLATE[k] = t
end
local clone = table.clone
local function piece(id, k, o, c, moved, own)
  local t = clone(TEMPLATE[k + 1])
  if own then
    for key, v in pairs(own) do t[key] = v end
    t.kind = KINDS[k + 1]
    t.rank = RANKS[k + 1]
    t.mobile = MOBILE[k + 1]
  end
  t.id = id
  t.owner = PLAYERS[o + 1]
  t.cell = c and CELLS[c + 1]
  t.moved = moved
  return t
end
-- rules.strike(g, attacker, defender) with both tables built here.
local function strike(hook, g, a, ka, oa, ca, ma, owna, d, kd, od, cd, md, ownd)
  return hook(g, piece(a, ka, oa, ca, ma, owna), piece(d, kd, od, cd, md, ownd))
end
return after_action, piece, strike
"#;

/// What a hook call sees: the state, the variant, and what it has done.
///
/// One context lives in the Lua state for its whole life; a hook call points
/// it at the caller's state instead of moving or copying the state. A call
/// that may change the state (`Rules::call`) writes through the pointer; a
/// question (`Rules::query`) reads through it, and its first write makes a
/// private copy that the rest of the call reads and writes (copy on write),
/// so a question never changes the caller's state.
pub struct CallCtx {
    target: *mut GameState,
    writable: bool,
    scratch: Option<Box<GameState>>,
    variant: Option<Arc<Variant>>,
    pub effects: Vec<Effect>,
    /// Builds piece tables (see `HOST_PRELUDE`).
    piece_maker: Option<Function>,
    /// Strings made once for the Lua state's life.
    names: Option<Names>,
    /// How `g:attacked` is answered (see [`Rules::set_attacked`]).
    attacked: Option<Arc<AttackedQuery>>,
}

/// Whether player `by` could capture on `cell` with a declared move, on the
/// board `occupant`: asked by `g:attacked`, answered by the engine above
/// this layer (which builds the movement tables), so the bridge does not
/// depend on it.
pub type AttackedQuery =
    dyn Fn(&GameState, &[Option<PieceId>], Cell, PlayerId) -> bool + Send + Sync;

/// Strings the API hands to scripts or looks up often, made once: making
/// a Lua string through mlua hashes it and, under the memory limit, does so
/// in a protected call (over a thousand instructions each time).
struct Names {
    players: Vec<mlua::LuaString>,
    /// The keys of a piece filter (`g:pieces`, `g:count`).
    owner: mlua::LuaString,
    kind: mlua::LuaString,
    mobile: mlua::LuaString,
}

// SAFETY: the pointer is set only for the duration of one hook call, made by
// the thread that holds the borrow it came from; between calls it is null.
unsafe impl Send for CallCtx {}

impl CallCtx {
    fn idle() -> CallCtx {
        CallCtx {
            target: std::ptr::null_mut(),
            writable: false,
            scratch: None,
            variant: None,
            effects: Vec::new(),
            piece_maker: None,
            names: None,
            attacked: None,
        }
    }

    fn active(&self) -> bool {
        !self.target.is_null() && self.variant.is_some()
    }

    /// The state the hook sees.
    pub fn state(&self) -> &GameState {
        match &self.scratch {
            Some(s) => s,
            // SAFETY: `active()` was checked by `with_ctx`; the caller of
            // the hook holds the borrow for the call's duration.
            None => unsafe { &*self.target },
        }
    }

    /// The state the hook changes: the caller's in a call, a private copy
    /// in a question.
    pub fn state_mut(&mut self) -> &mut GameState {
        if self.writable {
            // SAFETY: as in `state`; a writable call came from `&mut`.
            return unsafe { &mut *self.target };
        }
        let target = self.target;
        // SAFETY: as in `state`.
        self.scratch
            .get_or_insert_with(|| Box::new(unsafe { (*target).clone() }))
    }

    pub fn variant(&self) -> &Variant {
        self.variant.as_deref().expect("checked by with_ctx")
    }

    fn names(&self) -> &Names {
        self.names.as_ref().expect("made when the rules load")
    }
}

/// A kind as piece tables show it: rank, whether it moves, attributes.
pub type KindInfo = (i64, bool, Vec<(String, Value)>);

/// Static facts about a variant that scripts may read as globals.
#[derive(Clone, Debug, Default)]
pub struct Facts {
    pub kinds: Vec<String>,
    /// Per kind: its rank, whether it moves, and its attributes.
    pub kind_info: Vec<KindInfo>,
    /// Cell names in index order.
    pub cells: Vec<String>,
    pub players: Vec<String>,
    pub files: i64,
    pub ranks: i64,
}

/// The board as the fast hooks receive it: a buffer of two bytes per cell
/// (cell index order), the kind's number (from 1; 0 for an empty cell) and
/// the owner's number (from 1).
fn cells_buffer(lua: &Lua, state: &GameState) -> mlua::Result<mlua::Buffer> {
    let mut bytes = Vec::with_capacity(state.board.len() * 2);
    for slot in &state.board {
        match slot {
            Some(id) => {
                let p = &state.pieces[*id as usize];
                bytes.push((p.kind + 1).min(255) as u8);
                bytes.push(p.owner + 1);
            }
            None => bytes.extend([0, 0]),
        }
    }
    lua.create_buffer(bytes)
}

/// A loaded rules script.
pub struct Rules {
    lua: Lua,
    budget_per_call: i64,
    script_name: String,
    script_names: Vec<String>,
    strike: Option<Function>,
    after_action: Option<Function>,
    on_choice: Option<Function>,
    filter: Option<Function>,
    frozen: Option<Function>,
    consistent: Option<Function>,
    evaluate: Option<Function>,
    captures: Option<Function>,
    attacked: Option<Function>,
    check_cells: Option<Function>,
    extra_moves: Option<Function>,
    position_fields: Option<Function>,
    api: mlua::AnyUserData,
    /// Builds the action table and calls `rules.after_action`.
    after_action_caller: Function,
    /// Builds both piece tables and calls `rules.strike`.
    strike_caller: Function,
    actions: Option<Function>,
    perform: Option<Function>,
    setup: Option<Function>,
}

/// The `g` object passed to every hook.
struct Api;

impl UserData for Api {
    fn add_methods<M: UserDataMethods<Self>>(m: &mut M) {
        m.add_method("player", |lua, _, ()| {
            with_ctx(lua, |cx| Ok(player_name(cx, cx.state().to_move)))
        });
        m.add_method("players", |lua, _, ()| {
            let players = with_ctx(lua, |cx| Ok(cx.names().players.clone()))?;
            lua.create_sequence_from(players)
        });
        m.add_method("ply", |lua, _, ()| with_ctx(lua, |cx| Ok(cx.state().ply)));
        m.add_method("option", |lua, _, name: String| {
            let v = with_ctx(lua, |cx| {
                cx.variant()
                    .option(&name)
                    .cloned()
                    .ok_or_else(|| mlua::Error::runtime(format!("unknown option `{name}`")))
            })?;
            value_to_lua(lua, &v)
        });
        m.add_method("piece", |lua, _, id: u32| {
            let ok = with_ctx(lua, |cx| Ok((id as usize) < cx.state().pieces.len()))?;
            if !ok {
                return Ok(LV::Nil);
            }
            piece_table(lua, id as PieceId).map(LV::Table)
        });
        m.add_method("piece_at", |lua, _, cell: String| {
            let id = with_ctx(lua, |cx| {
                let c = parse_cell(cx, &cell)?;
                Ok(cx.state().piece_at(c))
            })?;
            match id {
                Some(id) => piece_table(lua, id).map(LV::Table),
                None => Ok(LV::Nil),
            }
        });
        m.add_method("pieces", |lua, _, filter: Option<Table>| {
            let mut ids = Vec::new();
            filtered_pieces(lua, filter, |id| ids.push(id))?;
            let t = lua.create_table_with_capacity(ids.len(), 0)?;
            for id in ids {
                t.push(piece_table(lua, id)?)?;
            }
            Ok(t)
        });
        m.add_method("count", |lua, _, filter: Option<Table>| {
            let mut n = 0;
            filtered_pieces(lua, filter, |_| n += 1)?;
            Ok(n)
        });
        m.add_method("reveal", |lua, _, (id, to): (u32, LV)| {
            with_ctx(lua, |cx| {
                let to = player_set(cx, &to)?;
                let id = check_piece(cx, id)?;
                cx.state_mut().reveal(id, to);
                cx.effects.push(Effect::Revealed { piece: id, to });
                Ok(())
            })
        });
        m.add_method("capture", |lua, _, id: u32| {
            with_ctx(lua, |cx| {
                let id = check_piece(cx, id)?;
                let cell = cx.state().cell_of(id);
                cx.state_mut().capture(id);
                cx.effects.push(Effect::Captured { piece: id, cell });
                Ok(())
            })
        });
        m.add_method("move", |lua, _, (id, cell): (u32, String)| {
            with_ctx(lua, |cx| {
                let id = check_piece(cx, id)?;
                let c = parse_cell(cx, &cell)?;
                if cx.state().piece_at(c).is_some() {
                    return Err(mlua::Error::runtime(format!(
                        "cannot move onto {cell}: it is occupied"
                    )));
                }
                if cx.state().terrain[c as usize] & cx.variant().board.blocking != 0 {
                    return Err(mlua::Error::runtime(format!(
                        "cannot move onto {cell}: its terrain blocks pieces"
                    )));
                }
                let from = cx.state().cell_of(id);
                cx.state_mut().place(id, c);
                cx.effects.push(Effect::Moved {
                    piece: id,
                    from,
                    to: c,
                });
                Ok(())
            })
        });
        m.add_method(
            "win",
            |lua, _, (player, reason): (String, Option<String>)| {
                with_ctx(lua, |cx| {
                    let p = parse_player(cx, &player)?;
                    if cx.state().outcome.is_none() {
                        cx.state_mut().outcome = Some(Outcome {
                            winners: vec![p],
                            reason: reason.unwrap_or_else(|| format!("{player} wins")),
                        });
                    }
                    Ok(())
                })
            },
        );
        m.add_method("draw", |lua, _, reason: Option<String>| {
            with_ctx(lua, |cx| {
                if cx.state().outcome.is_none() {
                    cx.state_mut().outcome = Some(Outcome {
                        winners: vec![],
                        reason: reason.unwrap_or_else(|| "draw".into()),
                    });
                }
                Ok(())
            })
        });
        m.add_method(
            "counter",
            |lua, _, (name, player): (String, Option<String>)| {
                with_ctx(lua, |cx| {
                    let p = player.as_deref().map(|p| parse_player(cx, p)).transpose()?;
                    Ok(cx.state().counter(&name, p))
                })
            },
        );
        m.add_method(
            "set_counter",
            |lua, _, (name, value, player): (String, i64, Option<String>)| {
                with_ctx(lua, |cx| {
                    let p = player.as_deref().map(|p| parse_player(cx, p)).transpose()?;
                    cx.state_mut().set_counter(&name, p, value);
                    Ok(())
                })
            },
        );
        m.add_method(
            "set_attr",
            |lua, _, (id, name, value): (u32, String, i64)| {
                with_ctx(lua, |cx| {
                    let id = check_piece(cx, id)?;
                    let attrs = &mut cx.state_mut().pieces[id as usize].attrs;
                    match attrs.iter_mut().find(|(k, _)| *k == name) {
                        Some(slot) => slot.1 = value,
                        None => {
                            attrs.push((name, value));
                            attrs.sort();
                        }
                    }
                    Ok(())
                })
            },
        );
        m.add_method("set_kind", |lua, _, (id, kind): (u32, String)| {
            with_ctx(lua, |cx| {
                let id = check_piece(cx, id)?;
                let k = cx
                    .variant()
                    .kind_index(&kind)
                    .ok_or_else(|| mlua::Error::runtime(format!("`{kind}` is no piece kind")))?;
                cx.state_mut().set_kind(id, k as crate::base::state::KindId);
                Ok(())
            })
        });
        m.add_method(
            "attacked",
            |lua, _, (cell, by, from): (String, String, Option<String>)| {
                with_ctx(lua, |cx| {
                    let c = parse_cell(cx, &cell)?;
                    let by = parse_player(cx, &by)?;
                    let mut board = cx.state().board.clone();
                    if let Some(f) = from {
                        let f = parse_cell(cx, &f)?;
                        board[c as usize] = board[f as usize].take();
                    }
                    let query = cx
                        .attacked
                        .clone()
                        .ok_or_else(|| mlua::Error::runtime("g:attacked is not available here"))?;
                    Ok(query(cx.state(), &board, c, by))
                })
            },
        );
        m.add_method("log", |lua, _, text: String| {
            with_ctx(lua, |cx| {
                cx.effects.push(Effect::Note(text));
                Ok(())
            })
        });
        m.add_method(
            "choose",
            |lua, _, (player, reason, options): (String, String, Vec<String>)| {
                with_ctx(lua, |cx| {
                    let p = parse_player(cx, &player)?;
                    if options.is_empty() {
                        return Err(mlua::Error::runtime("a choice needs at least one option"));
                    }
                    let mut sorted = options.clone();
                    sorted.sort();
                    if sorted.windows(2).any(|w| w[0] == w[1])
                        || options.iter().any(|o| o.trim().is_empty())
                    {
                        return Err(mlua::Error::runtime(
                            "the options of a choice must be distinct, non-empty labels",
                        ));
                    }
                    cx.state_mut().pending.push(Choice {
                        player: p,
                        reason,
                        options,
                        piece: None,
                    });
                    Ok(())
                })
            },
        );
        m.add_method(
            "neighbors",
            |lua, _, (cell, dirs): (String, Option<String>)| {
                with_ctx(lua, |cx| {
                    let c = parse_cell(cx, &cell)?;
                    let b = &cx.variant().board;
                    let name = dirs.as_deref().unwrap_or("orthogonal");
                    let d = b.directions(name).ok_or_else(|| {
                        mlua::Error::runtime(format!("unknown direction set `{name}`"))
                    })?;
                    Ok(d.deltas
                        .iter()
                        .filter_map(|&delta| b.offset(c, delta))
                        .map(|n| b.cell_name(n))
                        .collect::<Vec<_>>())
                })
            },
        );
        m.add_method("cell_name", |lua, _, index: u32| {
            with_ctx(lua, |cx| {
                let b = &cx.variant().board;
                if (index as usize) < b.cell_count() {
                    Ok(b.cell_name(index as Cell))
                } else {
                    Err(mlua::Error::runtime(format!("there is no cell {index}")))
                }
            })
        });
        m.add_method("zone", |lua, _, name: String| {
            with_ctx(lua, |cx| {
                let b = &cx.variant().board;
                let cells = b
                    .zone(&name)
                    .ok_or_else(|| mlua::Error::runtime(format!("unknown zone `{name}`")))?;
                Ok(cells.iter().map(|&c| b.cell_name(c)).collect::<Vec<_>>())
            })
        });
        m.add_method("in_zone", |lua, _, (cell, name): (String, String)| {
            with_ctx(lua, |cx| {
                let c = parse_cell(cx, &cell)?;
                let cells = cx
                    .variant()
                    .board
                    .zone(&name)
                    .ok_or_else(|| mlua::Error::runtime(format!("unknown zone `{name}`")))?;
                Ok(cells.contains(&c))
            })
        });
        m.add_method(
            "container",
            |lua, _, (name, owner): (String, Option<String>)| {
                let ids = with_ctx(lua, |cx| {
                    let owner = owner.as_deref().map(|o| parse_player(cx, o)).transpose()?;
                    Ok(cx
                        .state()
                        .containers
                        .iter()
                        .find(|c| c.name == name && c.owner == owner)
                        .map(|c| c.pieces.clone())
                        .unwrap_or_default())
                })?;
                let t = lua.create_table_with_capacity(ids.len(), 0)?;
                for id in ids {
                    t.push(piece_table(lua, id)?)?;
                }
                Ok(t)
            },
        );
        m.add_method("set_known", |lua, _, (id, to): (u32, LV)| {
            let to = to_player_set(lua, &to)?;
            with_ctx(lua, |cx| {
                let id = check_piece(cx, id)?;
                let owner = cx.state().pieces[id as usize].owner;
                cx.state_mut().pieces[id as usize].known_by = to | (1 << owner);
                Ok(())
            })
        });
        m.add_method("board_size", |lua, _, ()| {
            with_ctx(lua, |cx| {
                Ok((
                    cx.variant().board.files as i64,
                    cx.variant().board.ranks as i64,
                ))
            })
        });
        m.add_method("index", |lua, _, cell: String| {
            with_ctx(lua, |cx| parse_cell(cx, &cell).map(|c| c as i64))
        });
        // The whole board in two arrays indexed by cell index + 1: the kind
        // name (or false) and the owner's name (or false) of each cell. One
        // call instead of one per cell, for rules that scan the board.
        m.add_method("grid", |lua, _, ()| {
            with_ctx(lua, |cx| {
                let kind_names: Vec<LV> = cx
                    .variant()
                    .kinds
                    .iter()
                    .map(|k| lua.create_string(&k.name).map(LV::String))
                    .collect::<mlua::Result<_>>()?;
                let player_names: Vec<LV> = cx
                    .variant()
                    .players
                    .iter()
                    .map(|p| lua.create_string(p).map(LV::String))
                    .collect::<mlua::Result<_>>()?;
                let pieces = &cx.state().pieces;
                let kinds = lua.create_sequence_from(cx.state().board.iter().map(|slot| {
                    slot.map_or(LV::Boolean(false), |id| {
                        kind_names[pieces[id as usize].kind as usize].clone()
                    })
                }))?;
                let owners = lua.create_sequence_from(cx.state().board.iter().map(|slot| {
                    slot.map_or(LV::Boolean(false), |id| {
                        player_names[pieces[id as usize].owner as usize].clone()
                    })
                }))?;
                Ok((kinds, owners))
            })
        });
        m.add_method("cell", |lua, _, cell: String| {
            let (terrain, piece) = with_ctx(lua, |cx| {
                let c = parse_cell(cx, &cell)?;
                let bits = cx.state().terrain[c as usize];
                let names: Vec<String> = cx
                    .variant()
                    .board
                    .terrain_names
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| bits & (1 << i) != 0)
                    .map(|(_, n)| n.clone())
                    .collect();
                Ok((names, cx.state().piece_at(c)))
            })?;
            let index = with_ctx(lua, |cx| parse_cell(cx, &cell))?;
            let t = lua.create_table()?;
            t.set("name", cell)?;
            t.set("index", index)?;
            t.set("terrain", terrain)?;
            t.set("piece", piece)?;
            Ok(t)
        });
        // ---- turns of several actions, turn order, containers as queues,
        // pieces created during play, changing terrain, cell marks and cell
        // counters, coordinates.
        m.add_method("continue_turn", |lua, _, ()| {
            with_ctx(lua, |cx| {
                cx.state_mut().hold_turn = true;
                Ok(())
            })
        });
        m.add_method("turn_order", |lua, _, from: Option<String>| {
            with_ctx(lua, |cx| {
                let start = match from.as_deref() {
                    Some(p) => parse_player(cx, p)?,
                    None => cx.state().to_move,
                };
                let s = cx.state();
                let n = s.players.max(1);
                Ok((0..n)
                    .map(|i| (start + i) % n)
                    .filter(|q| s.eliminated & (1 << q) == 0)
                    .map(|q| player_name(cx, q))
                    .collect::<Vec<_>>())
            })
        });
        m.add_method(
            "send",
            |lua, _, (id, name, owner, front): (u32, String, Option<String>, Option<bool>)| {
                with_ctx(lua, |cx| {
                    let id = check_piece(cx, id)?;
                    let owner = owner.as_deref().map(|o| parse_player(cx, o)).transpose()?;
                    let cell = cx.state().cell_of(id);
                    let k = cx.state_mut().container_id(&name, owner);
                    if front.unwrap_or(false) {
                        cx.state_mut().send_to_front(id, k);
                    } else {
                        cx.state_mut().send_to(id, k);
                    }
                    cx.effects.push(Effect::Captured { piece: id, cell });
                    Ok(())
                })
            },
        );
        m.add_method(
            "add_piece",
            |lua, _, (kind, owner, place, known): (String, String, String, Option<LV>)| {
                let known = match known {
                    Some(v) => Some(to_player_set(lua, &v)?),
                    None => None,
                };
                with_ctx(lua, |cx| {
                    let k = cx.variant().kind_index(&kind).ok_or_else(|| {
                        mlua::Error::runtime(format!("unknown piece kind `{kind}`"))
                    })? as u16;
                    let p = parse_player(cx, &owner)?;
                    let known = known.unwrap_or(0) | (1 << p);
                    let id = match cx.variant().board.parse_cell(&place) {
                        Some(c) => {
                            if cx.state().piece_at(c).is_some() {
                                return Err(mlua::Error::runtime(format!(
                                    "cannot add a piece on {place}: it is occupied"
                                )));
                            }
                            let id = cx.state_mut().add_piece(k, p, c, false);
                            cx.state_mut().pieces[id as usize].known_by = known;
                            id
                        }
                        None => {
                            let c = cx.state_mut().container_id(&place, Some(p));
                            cx.state_mut().add_piece_to(k, p, c, known)
                        }
                    };
                    Ok(id)
                })
            },
        );
        m.add_method(
            "set_terrain",
            |lua, _, (cell, tag, on): (String, String, bool)| {
                with_ctx(lua, |cx| {
                    let c = parse_cell(cx, &cell)?;
                    let bit = cx.variant().board.terrain_bit(&tag).ok_or_else(|| {
                        mlua::Error::runtime(format!("`{tag}` is not a terrain tag of this board"))
                    })?;
                    if on {
                        if bit & cx.variant().board.blocking != 0
                            && cx.state().piece_at(c).is_some()
                        {
                            return Err(mlua::Error::runtime(format!(
                                "cannot make {cell} `{tag}`: a piece stands there"
                            )));
                        }
                        cx.state_mut().terrain[c as usize] |= bit;
                    } else {
                        cx.state_mut().terrain[c as usize] &= !bit;
                    }
                    // Terrain changes what every piece may reach.
                    cx.state_mut().touched.everything();
                    Ok(())
                })
            },
        );
        m.add_method(
            "set_mark",
            |lua, _, (cell, name, value, known): (String, String, String, Option<LV>)| {
                let known = match known {
                    Some(LV::String(s)) if s.to_str()? == "none" => 0,
                    Some(v) => to_player_set(lua, &v)?,
                    None => with_ctx(lua, |cx| Ok(cx.state().all_players()))?,
                };
                with_ctx(lua, |cx| {
                    let c = parse_cell(cx, &cell)?;
                    cx.state_mut().marks.insert(
                        (c, name),
                        Mark {
                            value,
                            known_by: known,
                        },
                    );
                    Ok(())
                })
            },
        );
        m.add_method("mark", |lua, _, (cell, name): (String, String)| {
            with_ctx(lua, |cx| {
                let c = parse_cell(cx, &cell)?;
                Ok(cx.state().marks.get(&(c, name)).map(|m| m.value.clone()))
            })
        });
        m.add_method("clear_mark", |lua, _, (cell, name): (String, String)| {
            with_ctx(lua, |cx| {
                let c = parse_cell(cx, &cell)?;
                cx.state_mut().marks.remove(&(c, name));
                Ok(())
            })
        });
        m.add_method(
            "reveal_mark",
            |lua, _, (cell, name, to): (String, String, LV)| {
                let to = to_player_set(lua, &to)?;
                with_ctx(lua, |cx| {
                    let c = parse_cell(cx, &cell)?;
                    if let Some(m) = cx.state_mut().marks.get_mut(&(c, name)) {
                        m.known_by |= to;
                    }
                    Ok(())
                })
            },
        );
        m.add_method("marked", |lua, _, name: String| {
            let list = with_ctx(lua, |cx| {
                let b = &cx.variant().board;
                Ok(cx
                    .state()
                    .marks
                    .iter()
                    .filter(|((_, n), _)| *n == name)
                    .map(|((c, _), m)| (b.cell_name(*c), m.value.clone()))
                    .collect::<Vec<_>>())
            })?;
            let t = lua.create_table()?;
            for (c, v) in list {
                t.set(c, v)?;
            }
            Ok(t)
        });
        m.add_method("cell_counter", |lua, _, (name, cell): (String, String)| {
            with_ctx(lua, |cx| {
                let c = parse_cell(cx, &cell)?;
                Ok(cx.state().cell_counter(&name, c))
            })
        });
        m.add_method(
            "set_cell_counter",
            |lua, _, (name, cell, value): (String, String, i64)| {
                with_ctx(lua, |cx| {
                    let c = parse_cell(cx, &cell)?;
                    cx.state_mut().set_cell_counter(&name, c, value);
                    Ok(())
                })
            },
        );
        m.add_method("coords", |lua, _, cell: String| {
            with_ctx(lua, |cx| {
                let c = parse_cell(cx, &cell)?;
                let (f, r) = cx.variant().board.coords(c);
                Ok((f, r))
            })
        });
        m.add_method("cell_at", |lua, _, (file, rank): (i32, i32)| {
            with_ctx(lua, |cx| {
                let b = &cx.variant().board;
                Ok(
                    if file >= 0 && rank >= 0 && file < b.files as i32 && rank < b.ranks as i32 {
                        Some(b.cell_name((rank * b.files as i32 + file) as Cell))
                    } else {
                        None
                    },
                )
            })
        });
        m.add_method("has_terrain", |lua, _, (cell, tag): (String, String)| {
            with_ctx(lua, |cx| {
                let c = parse_cell(cx, &cell)?;
                let bit = cx.variant().board.terrain_bit(&tag).ok_or_else(|| {
                    mlua::Error::runtime(format!("`{tag}` is not a terrain tag of this board"))
                })?;
                Ok(cx.state().terrain[c as usize] & bit != 0)
            })
        });
        m.add_method("clear_attr", |lua, _, (id, name): (u32, String)| {
            with_ctx(lua, |cx| {
                let id = check_piece(cx, id)?;
                cx.state_mut().pieces[id as usize]
                    .attrs
                    .retain(|(k, _)| *k != name);
                Ok(())
            })
        });
    }
}

/// Cell indices from Lua, keeping those on the board.
fn cells_in(v: &[i64], variant: &Variant) -> Vec<Cell> {
    let n = variant.board.cell_count() as i64;
    v.iter()
        .filter(|&&c| (0..n).contains(&c))
        .map(|&c| c as Cell)
        .collect()
}

/// Calls `each` with every piece on the board that a filter table
/// (`{owner = ..., kind = ..., mobile = ...}`, each optional) picks.
fn filtered_pieces(
    lua: &Lua,
    filter: Option<Table>,
    mut each: impl FnMut(PieceId),
) -> mlua::Result<()> {
    with_ctx(lua, |cx| {
        // The filter's fields, read with the keys made once (a plain
        // table: no metamethods are consulted).
        let n = cx.names();
        let field = |key: &mlua::LuaString| match &filter {
            Some(f) => f.raw_get::<LV>(key),
            None => Ok(LV::Nil),
        };
        let owner: Option<mlua::LuaString> = lua.unpack(field(&n.owner)?)?;
        let kind: Option<mlua::LuaString> = lua.unpack(field(&n.kind)?)?;
        let mobile: Option<bool> = lua.unpack(field(&n.mobile)?)?;
        let owner = match &owner {
            Some(o) => Some(parse_player(cx, &o.to_str()?)?),
            None => None,
        };
        let kind = match &kind {
            Some(k) => {
                let k = k.to_str()?;
                let i = cx.variant().kind_index(&k);
                Some(
                    i.ok_or_else(|| mlua::Error::runtime(format!("unknown piece kind `{k}`")))?
                        as u16,
                )
            }
            None => None,
        };
        let (state, variant) = (cx.state(), cx.variant());
        for &id in state.board.iter().flatten() {
            let p = &state.pieces[id as usize];
            if owner.is_none_or(|o| p.owner == o)
                && kind.is_none_or(|k| p.kind == k)
                && mobile.is_none_or(|m| variant.kinds[p.kind as usize].is_mobile() == m)
            {
                each(id);
            }
        }
        Ok(())
    })
}

fn with_ctx<R>(lua: &Lua, f: impl FnOnce(&mut CallCtx) -> mlua::Result<R>) -> mlua::Result<R> {
    let mut cx = lua
        .app_data_mut::<CallCtx>()
        .filter(|cx| cx.active())
        .ok_or_else(|| mlua::Error::runtime("the game API is only available inside a rule call"))?;
    f(&mut cx)
}

fn player_name(cx: &CallCtx, p: PlayerId) -> String {
    cx.variant()
        .players
        .get(p as usize)
        .cloned()
        .unwrap_or_else(|| format!("player{p}"))
}

fn parse_player(cx: &CallCtx, name: &str) -> mlua::Result<PlayerId> {
    cx.variant()
        .player_index(name)
        .map(|i| i as PlayerId)
        .ok_or_else(|| mlua::Error::runtime(format!("unknown player `{name}`")))
}

fn parse_cell(cx: &CallCtx, name: &str) -> mlua::Result<Cell> {
    cx.variant()
        .board
        .parse_cell(name)
        .ok_or_else(|| mlua::Error::runtime(format!("`{name}` is not a cell of the board")))
}

fn check_piece(cx: &CallCtx, id: u32) -> mlua::Result<PieceId> {
    if (id as usize) < cx.state().pieces.len() {
        Ok(id as PieceId)
    } else {
        Err(mlua::Error::runtime(format!("there is no piece {id}")))
    }
}

fn to_player_set(lua: &Lua, v: &LV) -> mlua::Result<PlayerSet> {
    with_ctx(lua, |cx| player_set(cx, v))
}

/// [`to_player_set`] inside a call that already holds the context.
fn player_set(cx: &CallCtx, v: &LV) -> mlua::Result<PlayerSet> {
    match v {
        LV::String(s) if s.as_bytes() == b"all" => Ok(cx.state().all_players()),
        LV::String(s) => Ok(1 << parse_player(cx, &s.to_str()?)?),
        LV::Table(t) => {
            let mut set = 0;
            for name in t.sequence_values::<String>() {
                set |= 1 << parse_player(cx, &name?)?;
            }
            Ok(set)
        }
        _ => Err(mlua::Error::runtime(
            "expected \"all\", a player name, or a list of player names",
        )),
    }
}

fn value_to_lua(lua: &Lua, v: &Value) -> mlua::Result<LV> {
    Ok(match v {
        Value::Bool(b) => LV::Boolean(*b),
        Value::Int(i) => LV::Integer(*i),
        Value::Str(s) => LV::String(lua.create_string(s)?),
    })
}

/// A piece as a Lua table: `id`, `kind`, `owner`, `rank`, `cell`, `moved`,
/// the kind's attributes and the piece's own attributes.
fn piece_table(lua: &Lua, id: PieceId) -> mlua::Result<Table> {
    let maker = with_ctx(lua, |cx| {
        cx.piece_maker
            .clone()
            .ok_or_else(|| mlua::Error::runtime("the host prelude is missing"))
    })?;
    maker.call(piece_args(lua, id)?)
}

/// What the prelude's `piece` needs to build a piece table: id, kind,
/// owner, cell, moved, and the piece's own attributes (if any).
type PieceArgs = (
    PieceId,
    crate::base::state::KindId,
    PlayerId,
    Option<Cell>,
    bool,
    Option<Table>,
);

fn piece_args(lua: &Lua, id: PieceId) -> mlua::Result<PieceArgs> {
    let (kind, owner, cell, moved, own) = with_ctx(lua, |cx| {
        let p = &cx.state().pieces[id as usize];
        let cell = match p.loc {
            Loc::Cell(c) => Some(c),
            _ => None,
        };
        let own = (!p.attrs.is_empty()).then(|| p.attrs.clone());
        Ok((p.kind, p.owner, cell, p.moved, own))
    })?;
    let own = own.map(|own| lua.create_table_from(own)).transpose()?;
    Ok((id, kind, owner, cell, moved, own))
}

/// Turns an mlua error into one line that starts with the script location.
pub fn describe_error(e: &mlua::Error, scripts: &[String]) -> String {
    match e {
        mlua::Error::CallbackError { traceback, cause } => {
            let root = describe_error(cause, scripts);
            if scripts.iter().any(|s| root.starts_with(s.as_str())) {
                return root;
            }
            // An error raised by the host API: find the script line that called it.
            let place = traceback
                .lines()
                .map(str::trim)
                .find_map(|l| {
                    let script = scripts.iter().find(|s| l.starts_with(s.as_str()))?;
                    let rest = l[script.len()..].strip_prefix(':')?;
                    let n: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
                    (!n.is_empty()).then(|| format!("{script}:{n}: "))
                })
                .unwrap_or_default();
            format!("{place}{root}")
        }
        mlua::Error::RuntimeError(m) => m.lines().next().unwrap_or("").to_string(),
        mlua::Error::MemoryError(_) => {
            let script = scripts.last().map(String::as_str).unwrap_or("script");
            format!(
                "{script}: out of memory (the limit is {} MiB)",
                DEFAULT_MEMORY >> 20
            )
        }
        mlua::Error::SyntaxError { message, .. } => message.clone(),
        mlua::Error::WithContext { cause, .. } => describe_error(cause, scripts),
        other => other.to_string().lines().next().unwrap_or("").to_string(),
    }
}

impl Rules {
    /// Creates the sandboxed state and loads the variant's scripts, base
    /// variant first: a script that extends another finds `rules` already
    /// filled by its base, and may keep a base hook in a local before
    /// replacing it.
    pub fn load(variant: &Variant) -> Result<Rules, LoadError> {
        let mut sources = Vec::new();
        for (path, shown) in &variant.scripts {
            let src = std::fs::read_to_string(path).map_err(|e| {
                LoadError(vec![Diagnostic {
                    file: shown.clone(),
                    line: 1,
                    column: 1,
                    message: format!("cannot read script: {e}"),
                }])
            })?;
            sources.push((src, shown.clone()));
        }
        let options: Vec<(String, Value)> = variant
            .options
            .iter()
            .map(|o| (o.name.clone(), o.value.clone()))
            .collect();
        let facts = Facts {
            kinds: variant.kinds.iter().map(|k| k.name.clone()).collect(),
            players: variant.players.clone(),
            kind_info: variant
                .kinds
                .iter()
                .map(|k| (k.rank, k.is_mobile(), k.attrs.clone()))
                .collect(),
            cells: (0..variant.board.cell_count())
                .map(|c| variant.board.cell_name(c as Cell))
                .collect(),
            files: variant.board.files as i64,
            ranks: variant.board.ranks as i64,
        };
        Rules::from_sources_with(&sources, &options, &facts)
            .map_err(|(shown, msg)| LoadError(vec![script_diagnostic(&shown, &msg)]))
    }

    /// Loads rules from Lua sources `(source, file name)`, in order. On error,
    /// returns the file that failed and the message.
    /// The variant's option values are readable while the scripts load, as
    /// the read-only global `options`, so a script can define a hook only
    /// when an option asks for it.
    pub fn from_sources(
        sources: &[(String, String)],
        options: &[(String, Value)],
    ) -> Result<Rules, (String, String)> {
        Rules::from_sources_with(sources, options, &Facts::default())
    }

    /// Like [`Rules::from_sources`], with the variant's static facts as the
    /// read-only globals `kinds` (name → number, in declaration order from
    /// 1), `players` (name → number from 1) and `board` (`files`, `ranks`).
    pub fn from_sources_with(
        sources: &[(String, String)],
        options: &[(String, Value)],
        facts: &Facts,
    ) -> Result<Rules, (String, String)> {
        let display = sources
            .last()
            .map(|s| s.1.clone())
            .unwrap_or_else(|| "<no script>".into());
        let names: Vec<String> = sources.iter().map(|s| s.1.clone()).collect();
        let fail = |m: String| (display.clone(), m);
        let libs = StdLib::MATH
            | StdLib::STRING
            | StdLib::TABLE
            | StdLib::UTF8
            | StdLib::BIT
            | StdLib::BUFFER;
        let lua = Lua::new_with(libs, LuaOptions::default()).map_err(|e| fail(e.to_string()))?;
        lua.set_compiler(mlua::chunk::Compiler::new().set_optimization_level(2));
        lua.set_app_data(CallCtx::idle());
        // SAFETY: installs a plain C interrupt on this state's callbacks;
        // `budget_interrupt` touches only a thread-local counter.
        unsafe {
            lua.exec_raw::<()>((), |state| {
                (*mlua::ffi::lua_callbacks(state)).interrupt = Some(budget_interrupt);
            })
        }
        .map_err(|e| fail(e.to_string()))?;
        let setup = || -> mlua::Result<mlua::AnyUserData> {
            let g = lua.globals();
            for name in [
                "require",
                "load",
                "loadstring",
                "dofile",
                "loadfile",
                "getfenv",
                "setfenv",
                "collectgarbage",
                "newproxy",
                "gcinfo",
                "debug",
                "io",
                "os",
            ] {
                g.raw_set(name, LV::Nil)?;
            }
            let math: Table = g.get("math")?;
            math.set(
                "random",
                lua.create_function(|lua, (m, n): (Option<i64>, Option<i64>)| {
                    let mut cx = lua
                        .app_data_mut::<CallCtx>()
                        .filter(|cx| cx.active())
                        .ok_or_else(|| {
                            mlua::Error::runtime("math.random is only available inside a rule call")
                        })?;
                    let rng = &mut cx.state_mut().rng;
                    Ok(match (m, n) {
                        (None, _) => LV::Number(rng.random::<f64>()),
                        (Some(m), None) if m >= 1 => LV::Integer(rng.random_range(1..=m)),
                        (Some(m), Some(n)) if m <= n => LV::Integer(rng.random_range(m..=n)),
                        _ => return Err(mlua::Error::runtime("math.random: interval is empty")),
                    })
                })?,
            )?;
            math.set("randomseed", LV::Nil)?;
            let rules = lua.create_table()?;
            g.set("rules", rules)?;
            let opts = lua.create_table()?;
            for (k, v) in options {
                opts.set(k.as_str(), value_to_lua(&lua, v)?)?;
            }
            opts.set_readonly(true);
            g.set("options", opts)?;
            let kinds = lua.create_table()?;
            for (i, k) in facts.kinds.iter().enumerate() {
                kinds.set(k.as_str(), i + 1)?;
            }
            kinds.set_readonly(true);
            g.set("kinds", kinds)?;
            let players = lua.create_table()?;
            for (i, p) in facts.players.iter().enumerate() {
                players.set(p.as_str(), i + 1)?;
            }
            players.set_readonly(true);
            g.set("players", players)?;
            let board = lua.create_table()?;
            board.set("files", facts.files)?;
            board.set("ranks", facts.ranks)?;
            board.set_readonly(true);
            g.set("board", board)?;
            lua.create_userdata(Api)
        };
        let api = setup().map_err(|e| fail(e.to_string()))?;
        let prelude = || -> mlua::Result<(Function, Function, Function)> {
            let kattrs = facts
                .kind_info
                .iter()
                .map(|(_, _, attrs)| {
                    let t = lua.create_table()?;
                    for (k, v) in attrs {
                        t.set(k.as_str(), value_to_lua(&lua, v)?)?;
                    }
                    Ok(t)
                })
                .collect::<mlua::Result<Vec<Table>>>()?;
            lua.load(HOST_PRELUDE).set_name("=host").call((
                facts.players.clone(),
                facts.kinds.clone(),
                facts.cells.clone(),
                facts.kind_info.iter().map(|k| k.0).collect::<Vec<_>>(),
                facts.kind_info.iter().map(|k| k.1).collect::<Vec<_>>(),
                kattrs,
                ACTION_KINDS,
            ))
        };
        let (after_action_caller, piece_maker, strike_caller) =
            prelude().map_err(|e| fail(e.to_string()))?;
        let make_names = || -> mlua::Result<Names> {
            Ok(Names {
                players: facts
                    .players
                    .iter()
                    .map(|p| lua.create_string(p))
                    .collect::<mlua::Result<_>>()?,
                owner: lua.create_string("owner")?,
                kind: lua.create_string("kind")?,
                mobile: lua.create_string("mobile")?,
            })
        };
        let made = make_names().map_err(|e| fail(e.to_string()))?;
        {
            let mut cx = lua.app_data_mut::<CallCtx>().expect("call context");
            cx.piece_maker = Some(piece_maker);
            cx.names = Some(made);
        }
        lua.set_memory_limit(DEFAULT_MEMORY)
            .map_err(|e| fail(e.to_string()))?;
        // The standard globals are final from here (scripts cannot write
        // globals once loaded): let Luau use its fast paths for builtins
        // (`buffer.readu8`, `ipairs`, `math.*` called inline).
        lua.globals().set_safeenv(true);
        for (source, shown) in sources {
            TICKS.with(|t| t.set(DEFAULT_BUDGET * 5));
            lua.load(source.as_str())
                .set_name(format!("@{shown}"))
                .set_mode(mlua::chunk::ChunkMode::Text)
                .exec()
                .map_err(|e| (shown.clone(), describe_error(&e, &names)))?;
        }
        let rules: Table = lua
            .globals()
            .get("rules")
            .map_err(|e| fail(e.to_string()))?;
        let hook = |name: &str| -> Result<Option<Function>, (String, String)> {
            match rules.get::<LV>(name).map_err(|e| fail(e.to_string()))? {
                LV::Nil => Ok(None),
                LV::Function(f) => Ok(Some(f)),
                other => Err(fail(format!(
                    "rules.{name} must be a function, found {}",
                    other.type_name()
                ))),
            }
        };
        let strike = hook("strike")?;
        let after_action = hook("after_action")?;
        let on_choice = hook("on_choice")?;
        let filter = hook("filter")?;
        let frozen = hook("frozen")?;
        let consistent = hook("consistent")?;
        let evaluate = hook("evaluate")?;
        let captures = hook("captures")?;
        let attacked = hook("attacked")?;
        let check_cells = hook("check_cells")?;
        let actions = hook("actions")?;
        let perform = hook("perform")?;
        let setup = hook("setup")?;
        if actions.is_some() != perform.is_some() {
            return Err(fail(
                "rules.actions and rules.perform go together: define both or neither".into(),
            ));
        }
        let extra_moves = hook("extra_moves")?;
        let position_fields = hook("position_fields")?;
        rules.set_readonly(true);
        lua.globals().set_readonly(true);
        Ok(Rules {
            lua,
            budget_per_call: DEFAULT_BUDGET,
            script_name: display.clone(),
            script_names: names,
            strike,
            after_action,
            on_choice,
            filter,
            frozen,
            consistent,
            evaluate,
            captures,
            attacked,
            check_cells,
            extra_moves,
            position_fields,
            api,
            after_action_caller,
            strike_caller,
            actions,
            perform,
            setup,
        })
    }

    pub fn script_name(&self) -> &str {
        &self.script_name
    }

    pub fn has_after_action(&self) -> bool {
        self.after_action.is_some()
    }

    pub fn has_strike(&self) -> bool {
        self.strike.is_some()
    }

    /// Sets how `g:attacked` is answered: the engine gives its movement
    /// query when it loads the rules.
    pub fn set_attacked(&mut self, query: Box<AttackedQuery>) {
        if let Some(mut cx) = self.lua.app_data_mut::<CallCtx>() {
            cx.attacked = Some(Arc::from(query));
        }
    }

    /// Sets the instruction budget of each hook call.
    pub fn set_budget(&mut self, ticks: i64) {
        self.budget_per_call = ticks;
    }

    /// Runs `f` with the state moved into the Lua state. The state comes back
    /// whatever happens; on error its contents may be partly changed, so
    /// callers work on a copy.
    fn call<R>(
        &self,
        state: &mut GameState,
        variant: &Arc<Variant>,
        effects: &mut Vec<Effect>,
        f: impl FnOnce(&Lua, &mlua::AnyUserData) -> mlua::Result<R>,
    ) -> Result<R, String> {
        self.enter(state, true, variant, effects, f)
    }

    /// Points the call context at `state` for one hook call (`writable`: the
    /// hook may change it; else changes go to a private copy), runs `f`, and
    /// puts the context back as it was (calls may nest).
    fn enter<R>(
        &self,
        state: *mut GameState,
        writable: bool,
        variant: &Arc<Variant>,
        effects: &mut Vec<Effect>,
        f: impl FnOnce(&Lua, &mlua::AnyUserData) -> mlua::Result<R>,
    ) -> Result<R, String> {
        TICKS.with(|t| t.set(self.budget_per_call));
        let saved = {
            let mut cx = self.lua.app_data_mut::<CallCtx>().expect("call context");
            if !cx.variant.as_ref().is_some_and(|v| Arc::ptr_eq(v, variant)) {
                cx.variant = Some(variant.clone());
            }
            (
                std::mem::replace(&mut cx.target, state),
                std::mem::replace(&mut cx.writable, writable),
                cx.scratch.take(),
                std::mem::replace(&mut cx.effects, std::mem::take(effects)),
            )
        };
        let result = f(&self.lua, &self.api);
        {
            let mut cx = self.lua.app_data_mut::<CallCtx>().expect("call context");
            cx.target = saved.0;
            cx.writable = saved.1;
            cx.scratch = saved.2;
            *effects = std::mem::replace(&mut cx.effects, saved.3);
        }
        result.map_err(|e| describe_error(&e, &self.script_names))
    }

    /// Asks `rules.strike(g, attacker, defender)` who wins a strike:
    /// `"attacker"`, `"defender"`, `"both"` (both removed) or `"none"`.
    pub fn strike(
        &self,
        state: &mut GameState,
        variant: &Arc<Variant>,
        effects: &mut Vec<Effect>,
        attacker: PieceId,
        defender: PieceId,
    ) -> Result<String, String> {
        let Some(hook) = &self.strike else {
            return Ok("attacker".into());
        };
        self.call(state, variant, effects, |lua, api| {
            let (a, d) = (piece_args(lua, attacker)?, piece_args(lua, defender)?);
            self.strike_caller.call::<String>((
                hook, api, a.0, a.1, a.2, a.3, a.4, a.5, d.0, d.1, d.2, d.3, d.4, d.5,
            ))
        })
    }

    /// Calls `rules.after_action(g, action)` if the script defines it;
    /// `action` is a table `{kind, text, player, from, to, piece}` (`kind` is
    /// `"move"`, `"choice"` or `"draw"`; `piece` the id of the piece that
    /// acted, for a move).
    pub fn after_action(
        &self,
        state: &mut GameState,
        variant: &Arc<Variant>,
        effects: &mut Vec<Effect>,
        action: &ActionInfo,
    ) -> Result<(), String> {
        let Some(hook) = &self.after_action else {
            return Ok(());
        };
        self.call(state, variant, effects, |_, api| {
            self.after_action_caller.call::<()>((
                hook,
                api,
                // Its number (from 1): the prelude has the names.
                action.kind as i64 + 1,
                action.player as i64 + 1,
                action.from.map(|c| c as i64),
                action.to.map(|c| c as i64),
                action.piece,
                action.piece_kind.map(|k| k as i64),
                action.captured,
                action.text.as_deref(),
            ))
        })
    }

    pub fn has_filter(&self) -> bool {
        self.filter.is_some()
    }

    /// Asks `rules.filter(g, moves)` which of the generated moves a rule
    /// forbids: `moves` is a list of `{from, to, piece}`; the answer a list of
    /// their indices (1-based) to remove, or nil. The state is not changed.
    pub fn filter(
        &self,
        state: &GameState,
        variant: &Arc<Variant>,
        moves: &[(Cell, Cell, PieceId)],
    ) -> Result<Vec<usize>, String> {
        let Some(hook) = &self.filter else {
            return Ok(Vec::new());
        };
        self.query(state, variant, |lua, api| {
            let list = lua.create_table_with_capacity(moves.len(), 0)?;
            for &(from, to, piece) in moves {
                let t = lua.create_table_with_capacity(0, 3)?;
                t.set("from", variant.board.cell_name(from))?;
                t.set("to", variant.board.cell_name(to))?;
                t.set("piece", piece)?;
                list.push(t)?;
            }
            let out: Option<Vec<usize>> = hook.call((api.clone(), list))?;
            Ok(out.unwrap_or_default())
        })
    }

    pub fn has_consistent(&self) -> bool {
        self.consistent.is_some()
    }

    /// Asks `rules.consistent(g, piece)` whether a sampled kind is possible
    /// for a piece (used when sampling determinizations); true without the hook.
    pub fn consistent(
        &self,
        state: &GameState,
        variant: &Arc<Variant>,
        piece: PieceId,
    ) -> Result<bool, String> {
        let Some(hook) = &self.consistent else {
            return Ok(true);
        };
        self.query(state, variant, |lua, api| {
            let t = piece_table(lua, piece)?;
            let ok: Option<bool> = hook.call((api.clone(), t))?;
            Ok(ok.unwrap_or(true))
        })
    }

    pub fn has_evaluate(&self) -> bool {
        self.evaluate.is_some()
    }

    /// Asks `rules.evaluate(g, player)` how good a position is for a player,
    /// as an estimated chance of winning in [0, 1] (clamped).
    pub fn evaluate(
        &self,
        state: &GameState,
        variant: &Arc<Variant>,
        player: PlayerId,
    ) -> Result<f64, String> {
        let Some(hook) = &self.evaluate else {
            return Ok(0.5);
        };
        let name = variant.players[player as usize].clone();
        self.query(state, variant, |_, api| {
            let v: f64 = hook.call((api.clone(), name))?;
            Ok(if v.is_nan() { 0.5 } else { v.clamp(0.0, 1.0) })
        })
    }

    pub fn has_frozen(&self) -> bool {
        self.frozen.is_some()
    }

    pub fn has_captures(&self) -> bool {
        self.captures.is_some()
    }

    pub fn has_attacked(&self) -> bool {
        self.attacked.is_some()
    }

    pub fn has_check_cells(&self) -> bool {
        self.check_cells.is_some()
    }

    /// Asks `rules.check_cells(g, player, cells)` which cells can matter to
    /// whether `player`'s royal pieces could be captured after a move of
    /// theirs: `None` (the hook answered nil) means every move must be
    /// tested. The rules promise that, when no royal piece can be captured
    /// now, a move that starts, ends and captures outside the list leaves
    /// them safe.
    pub fn check_cells(
        &self,
        state: &GameState,
        variant: &Arc<Variant>,
        player: PlayerId,
    ) -> Result<Option<Vec<Cell>>, String> {
        let Some(hook) = &self.check_cells else {
            return Ok(None);
        };
        self.query(state, variant, |lua, api| {
            let cells = cells_buffer(lua, state)?;
            hook.call::<Option<Vec<i64>>>((
                api.clone(),
                variant.players[player as usize].as_str(),
                cells,
            ))
        })
        .map(|o| o.map(|v| cells_in(&v, variant)))
    }

    /// Asks `rules.frozen(g, player)` which cells hold pieces of `player`
    /// that cannot move now (cell indices, 0-based). The state is not changed.
    pub fn frozen(
        &self,
        state: &GameState,
        variant: &Arc<Variant>,
        player: PlayerId,
    ) -> Result<Vec<Cell>, String> {
        let Some(hook) = &self.frozen else {
            return Ok(Vec::new());
        };
        self.query(state, variant, |lua, api| {
            let cells = cells_buffer(lua, state)?;
            let out: Option<Vec<i64>> = hook.call((
                api.clone(),
                variant.players[player as usize].as_str(),
                cells,
            ))?;
            Ok(out.unwrap_or_default())
        })
        .map(|v| cells_in(&v, variant))
    }

    /// Asks `rules.captures(g, from, to)` which cells a move captures besides
    /// an enemy on `to` (cell indices; the state is the one before the move).
    pub fn captures(
        &self,
        state: &GameState,
        variant: &Arc<Variant>,
        from: Cell,
        to: Cell,
    ) -> Result<Vec<Cell>, String> {
        let Some(hook) = &self.captures else {
            return Ok(Vec::new());
        };
        self.query(state, variant, |lua, api| {
            let cells = cells_buffer(lua, state)?;
            let out: Option<Vec<i64>> = hook.call((api.clone(), from as i64, to as i64, cells))?;
            Ok(out.unwrap_or_default())
        })
        .map(|v| cells_in(&v, variant))
    }

    /// Asks `rules.attacked(g, cell, by)`: could player `by`, moving now,
    /// capture the piece on `cell`?
    pub fn attacked(
        &self,
        state: &GameState,
        variant: &Arc<Variant>,
        cell: Cell,
        by: PlayerId,
    ) -> Result<bool, String> {
        let Some(hook) = &self.attacked else {
            return Ok(false);
        };
        self.query(state, variant, |lua, api| {
            let cells = cells_buffer(lua, state)?;
            hook.call::<bool>((
                api.clone(),
                cell as i64,
                variant.players[by as usize].as_str(),
                cells,
            ))
        })
    }

    pub fn has_extra_moves(&self) -> bool {
        self.extra_moves.is_some()
    }

    pub fn has_on_choice(&self) -> bool {
        self.on_choice.is_some()
    }

    /// Asks `rules.extra_moves(g, player, cells)` for the moves the rules add
    /// to the declared ones: `{from, to, captures}` (cell indices; `captures`
    /// the cells the move empties besides `to`). The state is not changed.
    pub fn extra_moves(
        &self,
        state: &GameState,
        variant: &Arc<Variant>,
        player: PlayerId,
    ) -> Result<Vec<(Cell, Cell, Vec<Cell>)>, String> {
        let Some(hook) = &self.extra_moves else {
            return Ok(Vec::new());
        };
        let n = variant.board.cell_count() as i64;
        let cell = move |v: i64| -> mlua::Result<Cell> {
            if (0..n).contains(&v) {
                Ok(v as Cell)
            } else {
                Err(mlua::Error::runtime(format!(
                    "rules.extra_moves: {v} is not a cell index"
                )))
            }
        };
        self.query(state, variant, |lua, api| {
            let cells = cells_buffer(lua, state)?;
            let list: Option<Vec<Table>> = hook.call((
                api.clone(),
                variant.players[player as usize].as_str(),
                cells,
            ))?;
            let mut out = Vec::new();
            for m in list.unwrap_or_default() {
                let from = cell(m.get("from")?)?;
                let to = cell(m.get("to")?)?;
                let caps: Option<Vec<i64>> = m.get("captures")?;
                let caps = caps
                    .unwrap_or_default()
                    .into_iter()
                    .map(cell)
                    .collect::<mlua::Result<Vec<Cell>>>()?;
                out.push((from, to, caps));
            }
            Ok(out)
        })
    }

    /// Calls `rules.position_fields(g, fields)` with the fields of a FEN
    /// line after the player to move (castling rights, en passant...).
    pub fn position_fields(
        &self,
        state: &mut GameState,
        variant: &Arc<Variant>,
        fields: &[&str],
    ) -> Result<(), String> {
        let Some(hook) = &self.position_fields else {
            return Ok(());
        };
        let mut effects = Vec::new();
        self.call(state, variant, &mut effects, |_, api| {
            hook.call::<()>((api.clone(), fields.to_vec()))
        })
    }

    /// Runs a question against a state without changing it: the hook works
    /// on a scratch copy, so whatever it writes is discarded.
    fn query<R>(
        &self,
        state: &GameState,
        variant: &Arc<Variant>,
        f: impl FnOnce(&Lua, &mlua::AnyUserData) -> mlua::Result<R>,
    ) -> Result<R, String> {
        let mut effects = Vec::new();
        let target = state as *const GameState as *mut GameState;
        self.enter(target, false, variant, &mut effects, f)
    }

    /// Calls `rules.on_choice(g, player, reason, option)` with a choice's answer.
    pub fn on_choice(
        &self,
        state: &mut GameState,
        variant: &Arc<Variant>,
        effects: &mut Vec<Effect>,
        choice: &Choice,
        option: &str,
    ) -> Result<(), String> {
        let Some(hook) = &self.on_choice else {
            return Err(format!(
                "{}: a choice was answered but the script defines no rules.on_choice",
                self.script_name
            ));
        };
        let player = variant.players[choice.player as usize].clone();
        self.call(state, variant, effects, |_, api| {
            hook.call::<()>((
                api.clone(),
                player,
                choice.reason.clone(),
                option.to_string(),
            ))
        })
    }

    pub fn has_actions(&self) -> bool {
        self.actions.is_some()
    }

    /// Asks `rules.actions(g)` for the extra actions of the player to move:
    /// a list of distinct labels (the state is not changed).
    pub fn actions(
        &self,
        state: &GameState,
        variant: &Arc<Variant>,
    ) -> Result<Vec<String>, String> {
        let Some(hook) = &self.actions else {
            return Ok(Vec::new());
        };
        self.query(state, variant, |lua, api| {
            let cells = cells_buffer(lua, state)?;
            let out: Option<Vec<String>> = hook.call((api.clone(), cells))?;
            Ok(out.unwrap_or_default())
        })
    }

    /// Calls `rules.perform(g, label)` to apply one of the listed actions.
    pub fn perform(
        &self,
        state: &mut GameState,
        variant: &Arc<Variant>,
        effects: &mut Vec<Effect>,
        label: &str,
    ) -> Result<(), String> {
        let Some(hook) = &self.perform else {
            return Err("the script defines no rules.perform".into());
        };
        self.call(state, variant, effects, |_, api| {
            hook.call::<()>((api.clone(), label.to_string()))
        })
    }

    pub fn has_setup(&self) -> bool {
        self.setup.is_some()
    }

    /// Calls `rules.setup(g)` once on a new game, after the declared setups.
    pub fn setup(
        &self,
        state: &mut GameState,
        variant: &Arc<Variant>,
        effects: &mut Vec<Effect>,
    ) -> Result<(), String> {
        let Some(hook) = &self.setup else {
            return Ok(());
        };
        self.call(state, variant, effects, |_, api| {
            hook.call::<()>(api.clone())
        })
    }

    /// Evaluates a Lua expression or statement against a state (read-only:
    /// the state is not changed), returning its printed result.
    pub fn eval(
        &self,
        state: &GameState,
        variant: &Arc<Variant>,
        code: &str,
    ) -> Result<String, String> {
        let mut copy = state.clone();
        self.eval_mut(&mut copy, variant, code)
    }

    /// Evaluates Lua against a state and keeps what it changed (the caller
    /// passes a copy and decides whether to keep it).
    pub fn eval_mut(
        &self,
        copy: &mut GameState,
        variant: &Arc<Variant>,
        code: &str,
    ) -> Result<String, String> {
        let mut effects = Vec::new();
        self.call(copy, variant, &mut effects, |lua, api| {
            let env = lua.create_table()?;
            env.set("g", api.clone())?;
            let meta = lua.create_table()?;
            meta.set("__index", lua.globals())?;
            env.set_metatable(Some(meta))?;
            let chunk = lua
                .load(format!("return {code}"))
                .set_name("=eval")
                .set_environment(env.clone());
            let vals: mlua::MultiValue = match chunk.eval() {
                Ok(v) => v,
                Err(_) => lua
                    .load(code)
                    .set_name("=eval")
                    .set_environment(env)
                    .eval()?,
            };
            Ok(vals.iter().map(show_value).collect::<Vec<_>>().join("\t"))
        })
    }
}

/// Whether Lua `code` is an unfinished block (an open `function`, `do`,
/// `{`, string...), as an expression or as statements.
pub fn is_incomplete(code: &str) -> bool {
    let lua = Lua::new_with(StdLib::NONE, LuaOptions::default());
    let Ok(lua) = lua else { return false };
    // Some(true): compiles; Some(false): unfinished; None: another error.
    let check = |src: &str| match lua.load(src).set_name("=input").into_function() {
        Ok(_) => Some(true),
        Err(mlua::Error::SyntaxError {
            incomplete_input: true,
            ..
        }) => Some(false),
        Err(_) => None,
    };
    let (expr, stmt) = (check(&format!("return {code}")), check(code));
    if expr == Some(true) || stmt == Some(true) {
        return false;
    }
    expr == Some(false) || stmt == Some(false)
}

/// A Lua value printed for people: tables shown with their keys.
pub fn show_value(v: &LV) -> String {
    fn go(v: &LV, depth: usize) -> String {
        match v {
            LV::Nil => "nil".into(),
            LV::String(s) => format!("{:?}", s.to_string_lossy()),
            LV::Table(t) if depth < 3 => {
                let mut parts = Vec::new();
                for (k, val) in t.pairs::<LV, LV>().flatten() {
                    let key = match &k {
                        LV::String(s) => s.to_string_lossy().to_string(),
                        other => format!("[{}]", go(other, depth + 1)),
                    };
                    parts.push(format!("{key} = {}", go(&val, depth + 1)));
                }
                parts.sort();
                format!("{{{}}}", parts.join(", "))
            }
            other => other
                .to_string()
                .unwrap_or_else(|_| format!("<{}>", other.type_name())),
        }
    }
    go(v, 0)
}

/// Turns a script error line `path:line: message` into a diagnostic.
pub fn script_diagnostic(display: &str, msg: &str) -> Diagnostic {
    let rest = msg.strip_prefix(display).and_then(|r| r.strip_prefix(':'));
    if let Some(rest) = rest {
        let n: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        if let Ok(line) = n.parse() {
            let message = rest[n.len()..].trim_start_matches(':').trim().to_string();
            return Diagnostic {
                file: display.to_string(),
                line,
                column: 1,
                message,
            };
        }
    }
    Diagnostic {
        file: display.to_string(),
        line: 1,
        column: 1,
        message: msg.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unfinished_blocks_are_incomplete() {
        assert!(is_incomplete("function f()"));
        assert!(is_incomplete("{1, 2,"));
        assert!(is_incomplete("for i = 1, 3 do"));
        assert!(!is_incomplete("1 + 2"));
        assert!(!is_incomplete("g:player()"));
        assert!(!is_incomplete("local x = 1 return x"));
        assert!(
            !is_incomplete("1 +* 2"),
            "a plain syntax error is not incomplete"
        );
    }
}
