//! Calling the hooks a script defines: which hooks there are, and the
//! methods the engine calls them through (each hook's arguments and how its
//! answer is read), inside the call context and budget.

use std::sync::Arc;

use mlua::{Function, Lua, Table, Value as LV};

use super::call;
use super::context::{AttackedQuery, CallCtx};
use super::prelude::{piece_args, piece_table};
use super::{ActionInfo, Rules};
use crate::base::effect::Effect;
use crate::base::geometry::Cell;
use crate::base::state::{Choice, GameState, PieceId, PlayerId};
use crate::rules::variant::Variant;

/// The hooks a script defined in its `rules` table (each optional).
pub(super) struct Hooks {
    pub(super) strike: Option<Function>,
    pub(super) after_action: Option<Function>,
    pub(super) on_choice: Option<Function>,
    pub(super) filter: Option<Function>,
    pub(super) frozen: Option<Function>,
    pub(super) consistent: Option<Function>,
    pub(super) evaluate: Option<Function>,
    pub(super) captures: Option<Function>,
    pub(super) attacked: Option<Function>,
    pub(super) check_cells: Option<Function>,
    pub(super) extra_moves: Option<Function>,
    pub(super) position_fields: Option<Function>,
    pub(super) actions: Option<Function>,
    pub(super) perform: Option<Function>,
    pub(super) setup: Option<Function>,
}

impl Hooks {
    /// Reads the hooks from the loaded `rules` table: each must be a
    /// function or absent, and `actions` and `perform` come together.
    pub(super) fn collect(rules: &Table) -> Result<Hooks, String> {
        let hook = |name: &str| -> Result<Option<Function>, String> {
            match rules.get::<LV>(name).map_err(|e| e.to_string())? {
                LV::Nil => Ok(None),
                LV::Function(f) => Ok(Some(f)),
                other => Err(format!(
                    "rules.{name} must be a function, found {}",
                    other.type_name()
                )),
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
            return Err(
                "rules.actions and rules.perform go together: define both or neither".into(),
            );
        }
        let extra_moves = hook("extra_moves")?;
        let position_fields = hook("position_fields")?;
        Ok(Hooks {
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
            actions,
            perform,
            setup,
        })
    }
}

/// The board as the fast hooks receive it: a buffer of two bytes per cell
/// (cell index order), the kind's number (from 1; 0 for an empty cell) and
/// the owner's number (from 1).
fn cells_bytes(state: &GameState, bytes: &mut Vec<u8>) {
    bytes.clear();
    bytes.resize(state.board.len() * 2, 0);
    for (pair, slot) in bytes.chunks_exact_mut(2).zip(&state.board) {
        if let Some(id) = slot {
            let p = &state.pieces[*id as usize];
            pair[0] = (p.kind + 1).min(255) as u8;
            pair[1] = p.owner + 1;
        }
    }
}

/// One `cells` buffer kept for the fast hooks' calls, rewritten before
/// each: a call does not allocate a buffer (a script keeps nothing between
/// calls, so none sees an old board). A call made while it is in use (a
/// hook that leads to another) gets a new one.
#[derive(Default)]
pub(super) struct SharedCells {
    buffer: std::sync::OnceLock<mlua::Buffer>,
    busy: std::sync::atomic::AtomicBool,
    /// The players' names as Lua strings, made once.
    names: std::sync::OnceLock<Vec<mlua::LuaString>>,
}

thread_local! {
    static CELL_BYTES: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Rules {
    /// Player `p`'s name as a Lua string (made once per rules state).
    fn player_string(
        &self,
        lua: &Lua,
        variant: &Variant,
        p: PlayerId,
    ) -> mlua::Result<&mlua::LuaString> {
        if self.cells.names.get().is_none() {
            let names = variant
                .players
                .iter()
                .map(|n| lua.create_string(n))
                .collect::<mlua::Result<Vec<_>>>()?;
            let _ = self.cells.names.set(names);
        }
        let names = self.cells.names.get().expect("set above");
        names
            .get(p as usize)
            .ok_or_else(|| mlua::Error::runtime(format!("no player number {p}")))
    }

    /// Runs `f` with the board of `state` as a `cells` buffer.
    fn with_cells<R>(
        &self,
        lua: &Lua,
        state: &GameState,
        f: impl FnOnce(&mlua::Buffer) -> mlua::Result<R>,
    ) -> mlua::Result<R> {
        use std::sync::atomic::Ordering;
        let shared = &self.cells;
        let len = state.board.len() * 2;
        let free = !shared.busy.swap(true, Ordering::Acquire);
        let buffer = match shared.buffer.get() {
            Some(b) if free && b.len() == len => Some(b),
            None if free => lua
                .create_buffer_with_capacity(len)
                .ok()
                .map(|b| shared.buffer.get_or_init(|| b)),
            _ => None,
        }
        .filter(|b| b.len() == len);
        // The bytes are written before `f` runs (a nested call reuses them).
        let fresh = CELL_BYTES.with(|bytes| {
            let mut bytes = bytes.borrow_mut();
            cells_bytes(state, &mut bytes);
            match buffer {
                Some(b) => {
                    b.write_bytes(0, &bytes);
                    Ok(None)
                }
                None => lua.create_buffer(&bytes[..]).map(Some),
            }
        });
        let result = match fresh {
            Ok(Some(b)) => f(&b),
            Ok(None) => buffer.map_or_else(|| Err(mlua::Error::runtime("no cells buffer")), f),
            Err(e) => Err(e),
        };
        if free {
            shared.busy.store(false, Ordering::Release);
        }
        result
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
impl Rules {
    pub fn script_name(&self) -> &str {
        &self.script_name
    }

    pub fn has_after_action(&self) -> bool {
        self.hooks.after_action.is_some()
    }

    /// Sets how `g:attacked` is answered: the engine gives its movement
    /// query when it loads the rules.
    pub fn set_attacked(&mut self, query: Box<AttackedQuery>) {
        if let Some(mut cx) = self.lua.app_data_mut::<CallCtx>() {
            cx.attacked = Some(Arc::from(query));
        }
    }

    /// Asks `rules.strike(g, attacker, defender, action)` who wins a
    /// strike: `"attacker"`, `"defender"`, `"both"` (both removed) or
    /// `"none"`. `action` is the striking move from `cells.0` to `cells.1`
    /// (with its `distance`).
    pub fn strike(
        &self,
        state: &mut GameState,
        variant: &Arc<Variant>,
        effects: &mut Vec<Effect>,
        (attacker, defender): (PieceId, PieceId),
        (from, to): (Cell, Cell),
    ) -> Result<String, String> {
        let Some(hook) = &self.hooks.strike else {
            return Ok("attacker".into());
        };
        let answer = self.call(&call::STRIKE, state, variant, effects, |lua, api| {
            let (a, d) = (piece_args(lua, attacker)?, piece_args(lua, defender)?);
            self.strike_caller.call::<String>((
                hook, api, a.0, a.1, a.2, a.3, a.4, a.5, d.0, d.1, d.2, d.3, d.4, d.5, from, to,
            ))
        })?;
        if !matches!(answer.as_str(), "attacker" | "defender" | "both" | "none") {
            let at = self
                .defined_at(&call::STRIKE)
                .unwrap_or_else(|| self.script_name().to_string());
            return Err(format!(
                "{at}: rules.strike returned \"{answer}\"; expected \"attacker\", \"defender\", \"both\" or \"none\""
            ));
        }
        Ok(answer)
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
        let Some(hook) = &self.hooks.after_action else {
            return Ok(());
        };
        self.call(&call::AFTER_ACTION, state, variant, effects, |_, api| {
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
        self.hooks.filter.is_some()
    }

    /// Asks `rules.filter(g, moves)` which of the generated moves a rule
    /// forbids: `moves` is a list of `{from, to, piece, distance}`; the answer a list of
    /// their indices (1-based) to remove, or nil. The state is not changed.
    pub fn filter(
        &self,
        state: &GameState,
        variant: &Arc<Variant>,
        moves: &[(Cell, Cell, PieceId)],
    ) -> Result<Vec<(usize, Option<String>)>, String> {
        let Some(hook) = &self.hooks.filter else {
            return Ok(Vec::new());
        };
        self.query(&call::FILTER, state, variant, |lua, api| {
            let list = lua.create_table_with_capacity(moves.len(), 0)?;
            for &(from, to, piece) in moves {
                let t = lua.create_table_with_capacity(0, 4)?;
                t.set("from", variant.board.cell_name(from))?;
                t.set("to", variant.board.cell_name(to))?;
                t.set("piece", piece)?;
                let ((f0, r0), (f1, r1)) = (variant.board.coords(from), variant.board.coords(to));
                t.set("distance", (f1 - f0).abs().max((r1 - r0).abs()))?;
                list.push(t)?;
            }
            let out: Option<Table> = hook.call((api, list))?;
            let Some(out) = out else {
                return Ok(Vec::new());
            };
            // A list of indices (`{2, 5}`), or indices mapped to a reason
            // (`{[2] = "the wall holds"}`) or to `true`.
            let index = |v: &LV| match *v {
                LV::Integer(i) => usize::try_from(i).ok(),
                LV::Number(n) if n.fract() == 0.0 && n >= 0.0 => Some(n as usize),
                _ => None,
            };
            let mut vetoes = Vec::new();
            for pair in out.pairs::<LV, LV>() {
                let (k, v) = pair?;
                match &v {
                    LV::Integer(_) | LV::Number(_) => vetoes.extend(index(&v).map(|i| (i, None))),
                    LV::String(r) => {
                        let r = super::limits::escape(&r.to_str()?).into_owned();
                        vetoes.extend(index(&k).map(|i| (i, Some(r))));
                    }
                    LV::Boolean(true) => vetoes.extend(index(&k).map(|i| (i, None))),
                    LV::Boolean(false) => {}
                    other => {
                        return Err(mlua::Error::runtime(format!(
                            "rules.filter must return move indices, or indices mapped to a reason; \
                             it returned a {} among them",
                            other.type_name()
                        )))
                    }
                }
            }
            Ok(vetoes)
        })
    }

    pub fn has_consistent(&self) -> bool {
        self.hooks.consistent.is_some()
    }

    /// Asks `rules.consistent(g, piece)` whether a sampled kind is possible
    /// for a piece (used when sampling determinizations); true without the hook.
    pub fn consistent(
        &self,
        state: &GameState,
        variant: &Arc<Variant>,
        piece: PieceId,
    ) -> Result<bool, String> {
        let Some(hook) = &self.hooks.consistent else {
            return Ok(true);
        };
        self.query(&call::CONSISTENT, state, variant, |lua, api| {
            let t = piece_table(lua, piece)?;
            let ok: Option<bool> = hook.call((api, t))?;
            Ok(ok.unwrap_or(true))
        })
    }

    pub fn has_evaluate(&self) -> bool {
        self.hooks.evaluate.is_some()
    }

    /// Asks `rules.evaluate(g, player)` how good a position is for a player,
    /// as an estimated chance of winning in [0, 1] (clamped).
    pub fn evaluate(
        &self,
        state: &GameState,
        variant: &Arc<Variant>,
        player: PlayerId,
    ) -> Result<f64, String> {
        let Some(hook) = &self.hooks.evaluate else {
            return Ok(0.5);
        };
        let name = variant.players[player as usize].clone();
        self.query(&call::EVALUATE, state, variant, |_, api| {
            let v: f64 = hook.call((api, name))?;
            Ok(if v.is_nan() { 0.5 } else { v.clamp(0.0, 1.0) })
        })
    }

    pub fn has_frozen(&self) -> bool {
        self.hooks.frozen.is_some()
    }

    pub fn has_captures(&self) -> bool {
        self.hooks.captures.is_some()
    }

    pub fn has_attacked(&self) -> bool {
        self.hooks.attacked.is_some()
    }

    pub fn has_check_cells(&self) -> bool {
        self.hooks.check_cells.is_some()
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
        let Some(hook) = &self.hooks.check_cells else {
            return Ok(None);
        };
        self.query(&call::CHECK_CELLS, state, variant, |lua, api| {
            self.with_cells(lua, state, |cells| {
                hook.call::<Option<Vec<i64>>>((
                    api,
                    self.player_string(lua, variant, player)?,
                    cells,
                ))
            })
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
        let Some(hook) = &self.hooks.frozen else {
            return Ok(Vec::new());
        };
        self.query(&call::FROZEN, state, variant, |lua, api| {
            let out: Option<Vec<i64>> = self.with_cells(lua, state, |cells| {
                hook.call((api, self.player_string(lua, variant, player)?, cells))
            })?;
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
        let Some(hook) = &self.hooks.captures else {
            return Ok(Vec::new());
        };
        self.query(&call::CAPTURES, state, variant, |lua, api| {
            let out: Option<Vec<i64>> = self.with_cells(lua, state, |cells| {
                hook.call((api, from as i64, to as i64, cells))
            })?;
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
        let Some(hook) = &self.hooks.attacked else {
            return Ok(false);
        };
        self.query(&call::ATTACKED, state, variant, |lua, api| {
            self.with_cells(lua, state, |cells| {
                hook.call::<bool>((
                    api,
                    cell as i64,
                    self.player_string(lua, variant, by)?,
                    cells,
                ))
            })
        })
    }

    pub fn has_extra_moves(&self) -> bool {
        self.hooks.extra_moves.is_some()
    }

    pub fn has_on_choice(&self) -> bool {
        self.hooks.on_choice.is_some()
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
        let Some(hook) = &self.hooks.extra_moves else {
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
        self.query(&call::EXTRA_MOVES, state, variant, |lua, api| {
            let list: Option<Vec<Table>> = self.with_cells(lua, state, |cells| {
                hook.call((api, self.player_string(lua, variant, player)?, cells))
            })?;
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
        let Some(hook) = &self.hooks.position_fields else {
            return Ok(());
        };
        let mut effects = Vec::new();
        self.call(
            &call::POSITION_FIELDS,
            state,
            variant,
            &mut effects,
            |_, api| hook.call::<()>((api, fields.to_vec())),
        )
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
        let Some(hook) = &self.hooks.on_choice else {
            return Err(format!(
                "{}: a choice was answered but the script defines no rules.on_choice",
                self.script_name
            ));
        };
        let player = variant.players[choice.player as usize].clone();
        self.call(&call::ON_CHOICE, state, variant, effects, |_, api| {
            hook.call::<()>((api, player, choice.reason.clone(), option.to_string()))
        })
    }

    pub fn has_actions(&self) -> bool {
        self.hooks.actions.is_some()
    }

    /// Asks `rules.actions(g)` for the extra actions of the player to move:
    /// a list of distinct labels (the state is not changed).
    pub fn actions(
        &self,
        state: &GameState,
        variant: &Arc<Variant>,
    ) -> Result<Vec<String>, String> {
        let Some(hook) = &self.hooks.actions else {
            return Ok(Vec::new());
        };
        self.query(&call::ACTIONS, state, variant, |lua, api| {
            let out: Option<Vec<String>> =
                self.with_cells(lua, state, |cells| hook.call((api, cells)))?;
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
        let Some(hook) = &self.hooks.perform else {
            return Err("the script defines no rules.perform".into());
        };
        self.call(&call::PERFORM, state, variant, effects, |_, api| {
            hook.call::<()>((api, label.to_string()))
        })
    }

    pub fn has_setup(&self) -> bool {
        self.hooks.setup.is_some()
    }

    /// Calls `rules.setup(g)` once on a new game, after the declared setups.
    pub fn setup(
        &self,
        state: &mut GameState,
        variant: &Arc<Variant>,
        effects: &mut Vec<Effect>,
    ) -> Result<(), String> {
        let Some(hook) = &self.hooks.setup else {
            return Ok(());
        };
        self.call(&call::SETUP, state, variant, effects, |_, api| {
            hook.call::<()>(api)
        })?;
        // Answers to the choices of a new game belong to its first turn.
        for c in &mut state.pending {
            c.passes_turn = false;
        }
        Ok(())
    }
}
