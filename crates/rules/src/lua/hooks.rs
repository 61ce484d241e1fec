//! Calling the hooks a script defines: which hooks there are, and the
//! methods the engine calls them through (each hook's arguments and how its
//! answer is read), inside the call context and budget.

use std::sync::Arc;

use mlua::{Function, Lua, Table, Value as LV};

use super::call;
use super::context::{with_ctx, AttackedQuery, CallCtx};
use super::prelude::{piece_args, piece_table};
use super::{ActionInfo, Rules};
use crate::base::effect::{Effect, Strike};
use crate::base::geometry::Cell;
use crate::base::state::{Choice, GameState, PieceId, PlayerId};
use crate::variant::Variant;

/// Declares the hooks of the `rules` table, once: each one's name in the
/// enum, its key in the table, and what it must answer (for errors).
macro_rules! rule_hooks {
    ($($variant:ident = $key:literal returns $returns:literal;)*) => {
        /// A hook a script may define in its `rules` table. This table is
        /// the one list of them: what the host looks up when the rules
        /// load, how errors name each one and what it must answer, and what
        /// `tests/lua_api.rs` holds `docs/lua-api.md` and the type
        /// declarations to.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum RuleHook {
            $($variant,)*
        }

        impl RuleHook {
            /// Every hook, in the table's order.
            pub const ALL: &'static [RuleHook] = &[$(RuleHook::$variant,)*];

            /// Its key in the `rules` table (`strike`).
            pub fn key(self) -> &'static str {
                match self {
                    $(RuleHook::$variant => $key,)*
                }
            }

            /// The call as errors name it, and what it must answer.
            pub(super) const fn call(self) -> call::Hook {
                match self {
                    $(RuleHook::$variant => call::Hook {
                        name: concat!("rules.", $key),
                        returns: $returns,
                    },)*
                }
            }
        }
    };
}

rule_hooks! {
    Strike = "strike" returns "a string: \"attacker\", \"defender\", \"both\" or \"none\"";
    AfterAction = "after_action" returns "nothing";
    OnChoice = "on_choice" returns "nothing";
    Filter = "filter" returns "nil or a list of move numbers";
    Frozen = "frozen" returns "nil or a list of cell indices";
    Consistent = "consistent" returns "a boolean (or nil)";
    Evaluate = "evaluate" returns "a number between 0 and 1";
    Captures = "captures" returns "nil or a list of cell indices";
    Attacked = "attacked" returns "a boolean";
    CheckCells = "check_cells" returns "nil or a list of cell indices";
    Sight = "sight" returns "nil or a list of cell indices";
    ExtraMoves = "extra_moves" returns "nil or a list of {from, to, captures} (cell indices)";
    PositionFields = "position_fields" returns "nothing";
    Actions = "actions" returns "nil or a list of labels (strings)";
    Perform = "perform" returns "nothing";
    Setup = "setup" returns "nothing";
    OnTurnEnd = "on_turn_end" returns "nothing";
    OnPhaseStart = "on_phase_start" returns "nothing";
    OnTurnStart = "on_turn_start" returns "nothing";
}

/// The hooks a script defined in its `rules` table (each optional), by
/// [`RuleHook`].
pub(super) struct Hooks([Option<Function>; RuleHook::ALL.len()]);

impl Hooks {
    /// Reads every hook of [`RuleHook`] from the loaded `rules` table: each
    /// must be a function or absent, and `actions` and `perform` come
    /// together.
    pub(super) fn collect(rules: &Table) -> Result<Hooks, String> {
        let mut fns: [Option<Function>; RuleHook::ALL.len()] = Default::default();
        for &h in RuleHook::ALL {
            let name = h.key();
            fns[h as usize] = match rules.get::<LV>(name).map_err(|e| e.to_string())? {
                LV::Nil => None,
                LV::Function(f) => Some(f),
                other => {
                    return Err(format!(
                        "rules.{name} must be a function, found {}",
                        other.type_name()
                    ))
                }
            };
        }
        let hooks = Hooks(fns);
        if hooks.get(RuleHook::Actions).is_some() != hooks.get(RuleHook::Perform).is_some() {
            return Err(
                "rules.actions and rules.perform go together: define both or neither".into(),
            );
        }
        Ok(hooks)
    }

    /// The script's function for `h`, if it defines one.
    pub(super) fn get(&self, h: RuleHook) -> Option<&Function> {
        self.0[h as usize].as_ref()
    }
}

/// The board as the fast hooks receive it: a buffer of two bytes per cell
/// (cell index order), the kind's number (from 1; 0 for an empty cell) and
/// the owner's number (from 1).
fn cells_bytes(state: &GameState, bytes: &mut Vec<u8>) {
    bytes.clear();
    bytes.resize(state.board().len() * 2, 0);
    for (pair, slot) in bytes.chunks_exact_mut(2).zip(state.board()) {
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
    /// The buffer and its length (asking Luau for it costs a lock).
    buffer: std::sync::OnceLock<(mlua::Buffer, usize)>,
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
        let len = state.board().len() * 2;
        let free = !shared.busy.swap(true, Ordering::Acquire);
        let buffer = match shared.buffer.get() {
            Some((b, n)) if free && *n == len => Some(b),
            None if free => lua
                .create_buffer_with_capacity(len)
                .ok()
                .map(|b| shared.buffer.get_or_init(|| (b, len)))
                .filter(|(_, n)| *n == len)
                .map(|(b, _)| b),
            _ => None,
        };
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
    /// Whether the script defines the hook `h`.
    pub fn has(&self, h: RuleHook) -> bool {
        self.hooks.get(h).is_some()
    }

    pub fn script_name(&self) -> &str {
        &self.script_name
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
    ) -> Result<Strike, String> {
        let Some(hook) = self.hooks.get(RuleHook::Strike) else {
            return Ok(Strike::AttackerWins);
        };
        let answer = self.call(
            &RuleHook::Strike.call(),
            state,
            variant,
            effects,
            |lua, api| {
                let (a, d) = (piece_args(lua, attacker)?, piece_args(lua, defender)?);
                self.strike_caller.call::<String>((
                    hook, api, a.0, a.1, a.2, a.3, a.4, a.5, d.0, d.1, d.2, d.3, d.4, d.5, from, to,
                ))
            },
        )?;
        Strike::parse(&answer).ok_or_else(|| {
            let at = self
                .defined_at(&RuleHook::Strike.call())
                .unwrap_or_else(|| self.script_name().to_string());
            format!(
                "{at}: rules.strike returned \"{answer}\"; expected {}",
                Strike::ANSWERS
            )
        })
    }

    /// Calls `rules.after_action(g, action)` if the script defines it;
    /// `action` is the action's table (`docs/lua-api.md`, "The action
    /// table").
    pub fn after_action(
        &self,
        state: &mut GameState,
        variant: &Arc<Variant>,
        effects: &mut Vec<Effect>,
        action: &ActionInfo,
    ) -> Result<(), String> {
        let Some(hook) = self.hooks.get(RuleHook::AfterAction) else {
            return Ok(());
        };
        self.call(
            &RuleHook::AfterAction.call(),
            state,
            variant,
            effects,
            |_, api| {
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
                    cell_indices(&action.path),
                    cell_indices(&action.captures),
                ))
            },
        )
    }

    /// Asks `rules.filter(g, moves)` which of the generated moves a rule
    /// forbids: `moves` is a list of action tables, built as
    /// `after_action`'s are (every field but `captured` and `captures`);
    /// the answer a list of their indices (1-based) to remove, or nil. The
    /// state is not changed.
    pub fn filter(
        &self,
        state: &GameState,
        variant: &Arc<Variant>,
        moves: &[ActionInfo],
    ) -> Result<Vec<(usize, Option<String>)>, String> {
        let Some(hook) = self.hooks.get(RuleHook::Filter) else {
            return Ok(Vec::new());
        };
        self.query(&RuleHook::Filter.call(), state, variant, |lua, api| {
            let list = lua.create_table_with_capacity(moves.len(), 0)?;
            let action = with_ctx(lua, |cx| Ok(cx.names().action.clone()))?;
            for m in moves {
                let t: Table = action.call(action_args(m))?;
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

    /// Asks `rules.consistent(g, piece)` whether a sampled kind is possible
    /// for a piece (used when sampling determinizations); true without the hook.
    pub fn consistent(
        &self,
        state: &GameState,
        variant: &Arc<Variant>,
        piece: PieceId,
    ) -> Result<bool, String> {
        let Some(hook) = self.hooks.get(RuleHook::Consistent) else {
            return Ok(true);
        };
        self.query(&RuleHook::Consistent.call(), state, variant, |lua, api| {
            let t = piece_table(lua, piece)?;
            let ok: Option<bool> = hook.call((api, t))?;
            Ok(ok.unwrap_or(true))
        })
    }

    /// Asks `rules.evaluate(g, player)` how good a position is for a player,
    /// as an estimated chance of winning in [0, 1] (clamped).
    pub fn evaluate(
        &self,
        state: &GameState,
        variant: &Arc<Variant>,
        player: PlayerId,
    ) -> Result<f64, String> {
        let Some(hook) = self.hooks.get(RuleHook::Evaluate) else {
            return Ok(0.5);
        };
        let name = variant.players[player as usize].clone();
        self.query(&RuleHook::Evaluate.call(), state, variant, |_, api| {
            let v: f64 = hook.call((api, name))?;
            Ok(if v.is_nan() { 0.5 } else { v.clamp(0.0, 1.0) })
        })
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
        let Some(hook) = self.hooks.get(RuleHook::CheckCells) else {
            return Ok(None);
        };
        self.query(&RuleHook::CheckCells.call(), state, variant, |lua, api| {
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

    /// Asks `rules.sight(g, player, cells)` which cells `player` sees
    /// besides those the variant's `sight:` declares (fog of war). The
    /// state is not changed.
    pub fn sight(
        &self,
        state: &GameState,
        variant: &Arc<Variant>,
        player: PlayerId,
    ) -> Result<Vec<Cell>, String> {
        let Some(hook) = self.hooks.get(RuleHook::Sight) else {
            return Ok(Vec::new());
        };
        self.query(&RuleHook::Sight.call(), state, variant, |lua, api| {
            let out: Option<Vec<i64>> = self.with_cells(lua, state, |cells| {
                hook.call((api, self.player_string(lua, variant, player)?, cells))
            })?;
            Ok(out.unwrap_or_default())
        })
        .map(|v| cells_in(&v, variant))
    }

    /// Asks `rules.frozen(g, player)` which cells hold pieces of `player`
    /// that cannot move now (cell indices, 0-based). The state is not changed.
    pub fn frozen(
        &self,
        state: &GameState,
        variant: &Arc<Variant>,
        player: PlayerId,
    ) -> Result<Vec<Cell>, String> {
        let Some(hook) = self.hooks.get(RuleHook::Frozen) else {
            return Ok(Vec::new());
        };
        self.query(&RuleHook::Frozen.call(), state, variant, |lua, api| {
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
        let Some(hook) = self.hooks.get(RuleHook::Captures) else {
            return Ok(Vec::new());
        };
        self.query(&RuleHook::Captures.call(), state, variant, |lua, api| {
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
        let Some(hook) = self.hooks.get(RuleHook::Attacked) else {
            return Ok(false);
        };
        self.query(&RuleHook::Attacked.call(), state, variant, |lua, api| {
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

    /// Asks `rules.extra_moves(g, player, cells)` for the moves the rules add
    /// to the declared ones: `{from, to, captures}` (cell indices; `captures`
    /// the cells the move empties besides `to`). The state is not changed.
    pub fn extra_moves(
        &self,
        state: &GameState,
        variant: &Arc<Variant>,
        player: PlayerId,
    ) -> Result<Vec<(Cell, Cell, Vec<Cell>)>, String> {
        let Some(hook) = self.hooks.get(RuleHook::ExtraMoves) else {
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
        self.query(&RuleHook::ExtraMoves.call(), state, variant, |lua, api| {
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
        let Some(hook) = self.hooks.get(RuleHook::PositionFields) else {
            return Ok(());
        };
        let mut effects = Vec::new();
        self.call(
            &RuleHook::PositionFields.call(),
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
        let Some(hook) = self.hooks.get(RuleHook::OnChoice) else {
            return Err(format!(
                "{}: a choice was answered but the script defines no rules.on_choice",
                self.script_name
            ));
        };
        let player = variant.players[choice.player as usize].clone();
        self.call(
            &RuleHook::OnChoice.call(),
            state,
            variant,
            effects,
            |_, api| hook.call::<()>((api, player, choice.reason.clone(), option.to_string())),
        )
    }

    /// Asks `rules.actions(g)` for the extra actions of the player to move:
    /// a list of distinct labels (the state is not changed).
    pub fn actions(
        &self,
        state: &GameState,
        variant: &Arc<Variant>,
    ) -> Result<Vec<String>, String> {
        let Some(hook) = self.hooks.get(RuleHook::Actions) else {
            return Ok(Vec::new());
        };
        self.query(&RuleHook::Actions.call(), state, variant, |lua, api| {
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
        let Some(hook) = self.hooks.get(RuleHook::Perform) else {
            return Err("the script defines no rules.perform".into());
        };
        self.call(
            &RuleHook::Perform.call(),
            state,
            variant,
            effects,
            |_, api| hook.call::<()>((api, label.to_string())),
        )
    }

    /// Calls `rules.setup(g)` once on a new game, after the declared setups.
    pub fn setup(
        &self,
        state: &mut GameState,
        variant: &Arc<Variant>,
        effects: &mut Vec<Effect>,
    ) -> Result<(), String> {
        let Some(hook) = self.hooks.get(RuleHook::Setup) else {
            return Ok(());
        };
        self.call(
            &RuleHook::Setup.call(),
            state,
            variant,
            effects,
            |_, api| hook.call::<()>(api),
        )?;
        // Answers to the choices of a new game belong to its first turn.
        for c in &mut state.pending {
            c.passes_turn = false;
        }
        Ok(())
    }
}

/// A list of cell indices for the prelude, or nil when empty.
fn cell_indices(cells: &[Cell]) -> Option<Vec<i64>> {
    (!cells.is_empty()).then(|| cells.iter().map(|&c| c as i64).collect())
}

/// The prelude's `action` builder's arguments (the hook's and `g` left
/// out): numbers from 1 for the kind and player, cell indices, and nil
/// for what the action does not have.
type ActionArgs<'a> = (
    i64,
    i64,
    Option<i64>,
    Option<i64>,
    Option<PieceId>,
    Option<i64>,
    Option<usize>,
    Option<&'a str>,
    Option<Vec<i64>>,
    Option<Vec<i64>>,
);

/// `action`'s arguments for a move `rules.filter` is asked about (nothing
/// captured yet).
fn action_args(m: &ActionInfo) -> ActionArgs<'_> {
    (
        m.kind as i64 + 1,
        m.player as i64 + 1,
        m.from.map(|c| c as i64),
        m.to.map(|c| c as i64),
        m.piece,
        m.piece_kind.map(|k| k as i64),
        None,
        m.text.as_deref(),
        cell_indices(&m.path),
        None,
    )
}
