//! What an API call works through: the call context that points at the
//! game state during a hook call, and converting Lua values to the game's
//! (players, cells, pieces, player sets) and back.

use std::collections::HashMap;
use std::sync::Arc;

use mlua::{Function, Lua, Value as LV};

use super::limits::Name;
use super::prelude::Builders;
use super::{budget, Facts};
use crate::base::effect::Effect;
use crate::base::geometry::{Board, Cell};
use crate::base::state::{GameState, PieceId, PlayerId, PlayerSet};
use crate::variant::{Value, Variant};

/// What a hook call sees: the state, the variant, and what it has done.
///
/// One context lives in the Lua state for its whole life; a hook call points
/// it at the caller's state instead of moving or copying the state. A call
/// that may change the state (`Rules::call`) writes through the pointer; a
/// question (`Rules::query`) reads through it, and its first write makes a
/// private copy that the rest of the call reads and writes (copy on write),
/// so a question never changes the caller's state.
pub struct CallCtx {
    pub(super) target: *mut GameState,
    pub(super) writable: bool,
    pub(super) scratch: Option<Box<GameState>>,
    pub(super) variant: Option<Arc<Variant>>,
    pub effects: Vec<Effect>,
    /// Log lines written by the running call (see `limits::LOG_LINES_MAX`).
    pub(super) notes: u32,
    /// Strings and prelude builders made once for the Lua state's life.
    pub(super) names: Option<Names>,
    /// How `g:attacked` is answered (see [`Rules::set_attacked`](super::Rules::set_attacked)).
    pub(super) attacked: Option<Arc<AttackedQuery>>,
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
pub(super) struct Names {
    pub(super) players: Vec<mlua::LuaString>,
    /// Cell names in index order.
    pub(super) cells: Vec<mlua::LuaString>,
    /// Other strings handed out (marks' values, parameter names), made on
    /// first use, at most [`INTERNED_MAX`] of them.
    interned: HashMap<String, mlua::LuaString>,
    /// Builds piece tables (see `prelude.luau`).
    pub(super) piece: Function,
    pub(super) cell_list: Function,
    pub(super) cell_map: Function,
    pub(super) declared: Function,
    pub(super) piece_list: Function,
    /// Builds an action's table (see `prelude.luau`).
    pub(super) action: Function,
}

impl Names {
    /// Makes the strings once, when the rules load.
    pub(super) fn make(lua: &Lua, facts: &Facts, b: &Builders) -> mlua::Result<Names> {
        Ok(Names {
            cells: facts
                .cells
                .iter()
                .map(|c| lua.create_string(c))
                .collect::<mlua::Result<_>>()?,
            interned: HashMap::new(),
            piece: b.piece.clone(),
            cell_list: b.cell_list.clone(),
            cell_map: b.cell_map.clone(),
            declared: b.declared.clone(),
            piece_list: b.piece_list.clone(),
            action: b.action.clone(),
            players: facts
                .players
                .iter()
                .map(|p| lua.create_string(p))
                .collect::<mlua::Result<_>>()?,
        })
    }
}

/// How many strings [`Names::intern`] keeps.
const INTERNED_MAX: usize = 1024;

impl Names {
    /// `text` as a Lua string, made once while fewer than
    /// [`INTERNED_MAX`] are kept.
    pub(super) fn intern(&mut self, lua: &Lua, text: &str) -> mlua::Result<mlua::LuaString> {
        if let Some(s) = self.interned.get(text) {
            return Ok(s.clone());
        }
        let s = lua.create_string(text)?;
        if self.interned.len() < INTERNED_MAX {
            self.interned.insert(text.to_string(), s.clone());
        }
        Ok(s)
    }

    /// The name of cell `c` (made once when the rules know the board).
    pub(super) fn cell(&self, lua: &Lua, c: Cell, board: &Board) -> mlua::Result<mlua::LuaString> {
        match self.cells.get(c as usize) {
            Some(s) => Ok(s.clone()),
            None => lua.create_string(board.cell_name(c)),
        }
    }
}

// SAFETY: the pointer is set only for the duration of one hook call, made by
// the thread that holds the borrow it came from; between calls it is null.
unsafe impl Send for CallCtx {}

impl CallCtx {
    pub(super) fn idle() -> CallCtx {
        CallCtx {
            target: std::ptr::null_mut(),
            writable: false,
            scratch: None,
            variant: None,
            effects: Vec::new(),
            notes: 0,
            names: None,
            attacked: None,
        }
    }

    #[inline]
    pub(super) fn active(&self) -> bool {
        !self.target.is_null() && self.variant.is_some()
    }

    /// The state the hook sees.
    #[inline]
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
    #[inline]
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

    #[inline]
    pub fn variant(&self) -> &Variant {
        self.variant.as_deref().expect("checked by with_ctx")
    }

    #[inline]
    pub(super) fn names(&self) -> &Names {
        self.names.as_ref().expect("made when the rules load")
    }

    #[inline]
    pub(super) fn names_mut(&mut self) -> &mut Names {
        self.names.as_mut().expect("made when the rules load")
    }
}

/// Runs `f` on the call context of a running hook call, charging the
/// call's budget for the host's work (see `budget::API_CALL_TICKS`).
#[inline]
pub(super) fn with_ctx<R>(
    lua: &Lua,
    f: impl FnOnce(&mut CallCtx) -> mlua::Result<R>,
) -> mlua::Result<R> {
    budget::charge(budget::API_CALL_TICKS)?;
    let mut cx = lua
        .app_data_mut::<CallCtx>()
        .filter(|cx| cx.active())
        .ok_or_else(|| mlua::Error::runtime("the game API is only available inside a rule call"))?;
    f(&mut cx)
}

#[inline]
pub(super) fn player_name(cx: &CallCtx, p: PlayerId) -> String {
    cx.variant()
        .players
        .get(p as usize)
        .cloned()
        .unwrap_or_else(|| format!("player{p}"))
}

#[inline]
pub(super) fn parse_player(cx: &CallCtx, name: &str) -> mlua::Result<PlayerId> {
    cx.variant()
        .player_index(name)
        .map(|i| i as PlayerId)
        .ok_or_else(|| mlua::Error::runtime(format!("unknown player `{name}`")))
}

#[inline]
pub(super) fn parse_cell(cx: &CallCtx, name: &str) -> mlua::Result<Cell> {
    cx.variant()
        .board
        .parse_cell(name)
        .ok_or_else(|| mlua::Error::runtime(format!("`{name}` is not a cell of the board")))
}

/// A piece argument of the API, as docs/lua-api.md promises it: a piece's
/// id or its piece table (read by its `id`). Anything else is an error in
/// the API's words.
pub(super) struct PieceArg(pub u32);

impl mlua::FromLua for PieceArg {
    fn from_lua(v: LV, _: &Lua) -> mlua::Result<Self> {
        let id = |v: &LV| match *v {
            LV::Integer(i) => u32::try_from(i).ok(),
            LV::Number(n) if n.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&n) => {
                Some(n as u32)
            }
            _ => None,
        };
        if let Some(i) = id(&v) {
            return Ok(PieceArg(i));
        }
        let got = match &v {
            LV::Table(t) => match t.raw_get::<LV>("id")? {
                LV::Nil => "a table without an `id`".to_string(),
                other => match id(&other) {
                    Some(i) => return Ok(PieceArg(i)),
                    None => format!("a table whose `id` is {}", lua_type_words(&other)),
                },
            },
            other => lua_type_words(other),
        };
        Err(mlua::Error::runtime(format!(
            "expected a piece (its id or its table), got {got}"
        )))
    }
}

/// A Lua value's type as a designer reads it (`a string`, `a table`).
pub(super) fn lua_type_words(v: &LV) -> String {
    match v {
        LV::Nil => "nil".into(),
        LV::Boolean(b) => format!("the boolean {b}"),
        LV::Integer(_) | LV::Number(_) => "a number that is no piece id".into(),
        other => format!("a {}", other.type_name()),
    }
}

/// Refuses a key of a table argument that the API does not read, naming
/// it with the closest known key ("did you mean").
pub(super) fn known_keys(
    t: &mlua::Table,
    what: &dyn std::fmt::Display,
    keys: &[&str],
) -> mlua::Result<()> {
    for pair in t.pairs::<LV, LV>() {
        let (k, _) = pair?;
        if let LV::String(s) = &k {
            if keys.iter().any(|x| x.as_bytes() == &s.as_bytes()[..]) {
                continue;
            }
        }
        let name = match &k {
            LV::String(s) => s.to_str()?.to_string(),
            other => format!("[{}]", lua_type_words(other)),
        };
        if keys.contains(&name.as_str()) {
            continue;
        }
        let hint = match crate::base::suggest::closest(&name, keys.iter().copied()) {
            Some(k) => format!("; did you mean `{k}`?"),
            None => String::new(),
        };
        return Err(mlua::Error::runtime(format!(
            "{what}: unknown key `{}` (its keys: {}){hint}",
            crate::lua::limits::escape(&name),
            keys.join(", ")
        )));
    }
    Ok(())
}

#[inline]
pub(super) fn check_piece(cx: &CallCtx, PieceArg(id): PieceArg) -> mlua::Result<PieceId> {
    if (id as usize) < cx.state().pieces.len() {
        Ok(id as PieceId)
    } else {
        Err(mlua::Error::runtime(format!("there is no piece {id}")))
    }
}

#[inline]
pub(super) fn to_player_set(lua: &Lua, v: &LV) -> mlua::Result<PlayerSet> {
    with_ctx(lua, |cx| player_set(cx, v))
}

/// [`to_player_set`] inside a call that already holds the context.
#[inline]
pub(super) fn player_set(cx: &CallCtx, v: &LV) -> mlua::Result<PlayerSet> {
    match v {
        LV::String(s) if s.as_bytes() == b"all" => Ok(cx.state().all_players()),
        LV::String(s) => Ok(1 << parse_player(cx, &s.to_str()?)?),
        LV::Table(t) => {
            let mut set = 0;
            for name in t
                .sequence_values::<Name>()
                .take(cx.state().players as usize + 1)
            {
                set |= 1 << parse_player(cx, &name?)?;
            }
            Ok(set)
        }
        _ => Err(mlua::Error::runtime(
            "expected \"all\", a player name, or a list of player names",
        )),
    }
}

#[inline]
pub(super) fn value_to_lua(lua: &Lua, v: &Value) -> mlua::Result<LV> {
    Ok(match v {
        Value::Bool(b) => LV::Boolean(*b),
        Value::Int(i) => LV::Integer(*i),
        Value::Num(x) => LV::Number(*x),
        Value::Str(s) => LV::String(lua.create_string(s)?),
        // Lists and maps (option values): read-only tables.
        Value::List(items) => {
            let t = lua.create_table_with_capacity(items.len(), 0)?;
            for (i, x) in items.iter().enumerate() {
                t.raw_set(i + 1, value_to_lua(lua, x)?)?;
            }
            t.set_readonly(true);
            LV::Table(t)
        }
        Value::Map(m) => {
            let t = lua.create_table_with_capacity(0, m.len())?;
            for (k, x) in m {
                t.raw_set(k.as_str(), value_to_lua(lua, x)?)?;
            }
            t.set_readonly(true);
            LV::Table(t)
        }
    })
}
