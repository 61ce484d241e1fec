//! The instruction budget of one call into Lua: Luau's interrupt counts
//! ticks (at calls and loop back-edges), allocations and host API calls
//! charge more, and a state close to its memory limit spends the budget.
//! A spent budget stays spent for the rest of the call: every later
//! interrupt raises again, so a `pcall` that catches the error gets no
//! fresh budget. `pcall` and `xpcall` are the host's: a caught error costs
//! what raising and catching it costs, a caught memory error spends the
//! budget (the state is at its limit), and once the budget is spent they
//! raise again instead of catching, so a loop that keeps catching ends.
//!
//! Besides each call's budget, the calls of one engine step share a total
//! ([`ActionScope`], [`ACTION_BUDGET`]): listing the legal actions, or
//! applying one action with its hooks, its reactions, the end of the turn
//! and the next player's listing. A script whose every hook stays just
//! under the call's budget cannot then hold the host for a minute: the
//! step that spends the total fails at the script line that spent it.

use std::cell::Cell;
use std::ffi::c_int;

use mlua::ffi;

use super::{ACTION_BUDGET, DEFAULT_BUDGET, DEFAULT_MEMORY};

/// Why a budget is spent.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Spent {
    Ticks,
    Memory,
}

/// `ACTION` when no engine step is under way.
const NO_ACTION: i64 = i64::MIN;

thread_local! {
    /// Interrupt ticks left to the call running on this thread (calls on
    /// one Lua state always run on the calling thread), less `HELD` while
    /// a look at the memory is due: the interrupt's common case reads this
    /// one counter and nothing else.
    static TICKS: Cell<i64> = const { Cell::new(DEFAULT_BUDGET) };
    /// While a look at the memory is due: the ticks set aside so that
    /// `TICKS` runs out at the next interrupt, which looks and puts them
    /// back.
    static HELD: Cell<Option<i64>> = const { Cell::new(None) };
    static REASON: Cell<Spent> = const { Cell::new(Spent::Ticks) };
    /// Bytes allocated since the interrupt last looked at the memory in use.
    static ALLOCATED: Cell<usize> = const { Cell::new(0) };
    /// Ticks left to the engine step under way on this thread (its calls
    /// together), or `NO_ACTION`.
    static ACTION: Cell<i64> = const { Cell::new(NO_ACTION) };
    /// Whether the running call was given less than its own budget because
    /// the step's total was nearly spent (its error then says so).
    static SHORT: Cell<bool> = const { Cell::new(false) };
}

/// One engine step's share of script time: while it lives, the outermost
/// calls into Lua on this thread spend one total of [`ACTION_BUDGET`]
/// ticks between them. Steps nest (applying an action lists the next
/// player's actions): an inner scope joins the outer one.
#[must_use]
pub struct ActionScope {
    outer: bool,
}

impl ActionScope {
    /// Opens a step's scope, or joins the one open on this thread.
    #[inline]
    pub fn open() -> ActionScope {
        let outer = ACTION.get() == NO_ACTION;
        if outer {
            ACTION.set(ACTION_BUDGET);
        }
        ActionScope { outer }
    }
}

impl Drop for ActionScope {
    #[inline]
    fn drop(&mut self) {
        if self.outer {
            ACTION.set(NO_ACTION);
        }
    }
}

/// The ticks an outermost call may spend: its own budget, or what is left
/// of the step's when that is less.
pub(super) fn call_budget(per_call: i64) -> i64 {
    match ACTION.get() {
        NO_ACTION => per_call,
        left => per_call.min(left.max(0)),
    }
}

/// Counts what an outermost call given `given` ticks spent against the
/// step under way.
pub(super) fn spent_of_action(given: i64) {
    let left = ACTION.get();
    if left != NO_ACTION {
        ACTION.set(left - (given - self::left().max(0)));
    }
}

/// Ticks a host API call costs (a few instructions of bookkeeping).
pub(super) const API_CALL_TICKS: i64 = 8;
/// Bytes a script allocates or copies through the host per tick.
const BYTES_PER_TICK: usize = 256;
/// Above this many KiB in use, the interrupt counts the state as out of
/// memory (with a script line to show), before the allocator's hard limit.
const SOFT_MEMORY_KIB: c_int = ((DEFAULT_MEMORY - DEFAULT_MEMORY / 8) >> 10) as c_int;
/// Ticks a caught error costs: raising, unwinding and catching one takes
/// about as long as this many loop iterations.
const ERROR_TICKS: i64 = 1_000;
/// How many bytes allocated make the interrupt look at the memory in use.
const MEMORY_CHECK_BYTES: usize = 256 << 10;

/// Starts a call's budget of `ticks`, `short` when that is less than the
/// call's own because the step's total is nearly spent (a look at the
/// memory that is due stays due).
pub(super) fn start_short(ticks: i64, short: bool) {
    start(ticks);
    SHORT.set(short);
}

/// Starts a call's budget (a look at the memory that is due stays due).
pub(super) fn start(ticks: i64) {
    SHORT.set(false);
    match HELD.get() {
        Some(_) => {
            HELD.set(Some(ticks));
            TICKS.set(0);
        }
        None => TICKS.set(ticks),
    }
    REASON.set(Spent::Ticks);
}

/// Ticks left (negative once spent).
pub(super) fn left() -> i64 {
    TICKS.get() + HELD.get().unwrap_or(0)
}

/// Spends the budget for `reason`: every later interrupt raises.
fn spend(reason: Spent) {
    HELD.set(None);
    TICKS.set(-1);
    REASON.set(reason);
}

/// Whether the running call has spent its budget.
pub(super) fn spent() -> bool {
    left() < 0
}

/// Charges host work to the running call: an error once the budget is spent.
#[inline]
pub(super) fn charge(ticks: i64) -> mlua::Result<()> {
    let v = TICKS.get() - ticks;
    TICKS.set(v);
    if v < 0 && left() < 0 {
        return Err(mlua::Error::runtime(message()));
    }
    Ok(())
}

/// Charges copying `bytes` bytes for a script.
#[inline]
pub(super) fn charge_bytes(bytes: usize) -> mlua::Result<()> {
    charge(API_CALL_TICKS + (bytes / BYTES_PER_TICK) as i64)
}

fn message() -> String {
    match REASON.with(Cell::get) {
        Spent::Ticks if SHORT.get() => format!(
            "instruction budget exceeded: the script calls of one step (listing the legal actions, or applying an action with its hooks and reactions) may run {ACTION_BUDGET} ticks in all, {DEFAULT_BUDGET} in one call"
        ),
        Spent::Ticks => "instruction budget exceeded (a runaway loop?)".into(),
        Spent::Memory => format!("out of memory (the limit is {} MiB)", DEFAULT_MEMORY >> 20),
    }
}

/// Installs the interrupt and the allocation counter on a state.
pub(super) fn install(lua: &mlua::Lua) -> mlua::Result<()> {
    // SAFETY: sets plain C callbacks on this state; both touch only
    // thread-locals (and, when raising, the state they are given).
    unsafe {
        lua.exec_raw::<()>((), |state| {
            let cb = ffi::lua_callbacks(state);
            (*cb).interrupt = Some(interrupt);
            (*cb).onallocate = Some(on_allocate);
        })
    }
}

/// Replaces the global `pcall` and `xpcall` with ones that charge a caught
/// error to the budget (see the module's documentation).
pub(super) fn install_protected_calls(lua: &mlua::Lua) -> mlua::Result<()> {
    let g = lua.globals();
    // SAFETY: both are C functions following Lua's calling convention.
    unsafe {
        g.raw_set("pcall", lua.create_c_function(budget_pcall)?)?;
        g.raw_set("xpcall", lua.create_c_function(budget_xpcall)?)?;
    }
    Ok(())
}

/// Charges a caught error (`status`, not `LUA_OK`) and raises the budget's
/// error when that spends it, or when it was spent already.
unsafe fn caught(state: *mut ffi::lua_State, status: c_int) {
    if status == ffi::LUA_ERRMEM {
        spend(Spent::Memory);
    } else {
        TICKS.set(TICKS.get() - ERROR_TICKS);
    }
    if spent() {
        // SAFETY: called from a C function of this state.
        unsafe { raise(state) }
    }
}

/// `pcall(f, ...)`: Luau's, with a caught error charged (see [`caught`]).
unsafe extern "C-unwind" fn budget_pcall(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: plain stack work on the state calling this function.
    unsafe {
        ffi::luaL_checkstack(state, 2, std::ptr::null());
        let top = ffi::lua_gettop(state);
        if top == 0 {
            ffi::luaL_error(state, c"missing argument #1 to 'pcall'".as_ptr());
        }
        let status = ffi::lua_pcall(state, top - 1, ffi::LUA_MULTRET, 0);
        if status == ffi::LUA_OK {
            ffi::lua_pushboolean(state, 1);
            ffi::lua_insert(state, 1);
            return ffi::lua_gettop(state);
        }
        caught(state, status);
        ffi::lua_pushboolean(state, 0);
        ffi::lua_insert(state, -2);
        2
    }
}

/// `xpcall(f, handler, ...)`: Luau's, with a caught error charged.
unsafe extern "C-unwind" fn budget_xpcall(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: plain stack work on the state calling this function.
    unsafe {
        ffi::luaL_checkstack(state, 2, std::ptr::null());
        let top = ffi::lua_gettop(state);
        if top < 2 {
            ffi::luaL_error(state, c"missing argument #2 to 'xpcall'".as_ptr());
        }
        // [f, handler, args...] -> [handler, f, args...]
        ffi::lua_pushvalue(state, 1);
        ffi::lua_pushvalue(state, 2);
        ffi::lua_replace(state, 1);
        ffi::lua_replace(state, 2);
        let status = ffi::lua_pcall(state, top - 2, ffi::LUA_MULTRET, 1);
        if status == ffi::LUA_OK {
            ffi::lua_pushboolean(state, 1);
            ffi::lua_replace(state, 1);
            return ffi::lua_gettop(state);
        }
        caught(state, status);
        ffi::lua_pushboolean(state, 0);
        ffi::lua_replace(state, 1);
        2
    }
}

/// Luau's interrupt: counts a tick, and raises a Lua error naming the
/// script line when the budget is spent (then at every later interrupt of
/// the call). The common case is one thread-local counter, because it runs
/// many millions of times (at every loop back-edge); the rest is
/// [`interrupt_slow`].
unsafe extern "C-unwind" fn interrupt(state: *mut ffi::lua_State, gc: c_int) {
    if gc >= 0 {
        return; // a garbage-collector step, not a safepoint
    }
    let left = TICKS.get() - 1;
    TICKS.set(left);
    if left < 0 {
        // SAFETY: as the interrupt's own contract.
        unsafe { interrupt_slow(state) }
    }
}

/// The counter ran out: either a look at the memory in use is due (see
/// `HELD`), or the budget is spent.
#[cold]
#[inline(never)]
unsafe fn interrupt_slow(state: *mut ffi::lua_State) {
    if let Some(held) = HELD.take() {
        TICKS.set(TICKS.get() + held);
        ALLOCATED.set(0);
        // SAFETY: reads the state's byte count.
        let kib = unsafe { ffi::lua_gc(state, ffi::LUA_GCCOUNT, 0) };
        if kib > SOFT_MEMORY_KIB {
            spend(Spent::Memory);
        }
    }
    if TICKS.get() < 0 {
        // SAFETY: raising a Lua error from the interrupt is how Luau aborts
        // a running script; it unwinds to the protected call.
        unsafe { raise(state) }
    }
}

/// Counts an allocation against the budget: big strings and tables cost
/// what copying them costs. Never raises (the allocator is mid-work); the
/// next interrupt does.
unsafe extern "C-unwind" fn on_allocate(
    _state: *mut ffi::lua_State,
    _block: *mut std::ffi::c_void,
    _osize: usize,
    nsize: usize,
    _memcat: u8,
    _tt: c_int,
    _tag: c_int,
) {
    let allocated = ALLOCATED.get() + nsize;
    ALLOCATED.set(allocated);
    if nsize >= BYTES_PER_TICK {
        TICKS.set(TICKS.get() - (nsize / BYTES_PER_TICK) as i64);
    }
    if allocated > MEMORY_CHECK_BYTES && HELD.get().is_none() {
        // The next interrupt looks at the memory in use (see `HELD`).
        HELD.set(Some(TICKS.get()));
        TICKS.set(0);
    }
}

/// Raises the spent-budget error, prefixed with the innermost script line.
unsafe fn raise(state: *mut ffi::lua_State) -> ! {
    {
        // SAFETY: reads the call stack of a running state.
        let place = unsafe { script_place(state) };
        let text = format!("{place}{}", message());
        // SAFETY: pushes a copy of the text; `text` is dropped before the
        // error unwinds past this frame.
        unsafe { ffi::lua_pushlstring(state, text.as_ptr().cast(), text.len()) };
    }
    // SAFETY: the message is on the stack.
    unsafe { ffi::lua_error(state) }
}

/// `file:line: ` of the innermost frame that runs a script (not the host
/// prelude, not a library function), or nothing.
unsafe fn script_place(state: *mut ffi::lua_State) -> String {
    // SAFETY: `lua_Debug` is plain data that `lua_getinfo` fills.
    let mut ar: ffi::lua_Debug = unsafe { std::mem::zeroed() };
    let mut level = 0;
    // SAFETY: level by level until there are no more frames.
    while unsafe { ffi::lua_getinfo(state, level, c"sl".as_ptr(), &mut ar) } != 0 {
        level += 1;
        if ar.currentline <= 0 || ar.source.is_null() {
            continue;
        }
        // SAFETY: `lua_getinfo` set both to NUL-terminated strings.
        let source = unsafe { std::ffi::CStr::from_ptr(ar.source) };
        if source.to_bytes().starts_with(b"=host") {
            continue;
        }
        let short = unsafe { std::ffi::CStr::from_ptr(ar.short_src) };
        return format!("{}:{}: ", short.to_string_lossy(), ar.currentline);
    }
    String::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Allocates `bytes` as Luau would report it (the callback reads only
    /// the size).
    fn allocate(bytes: usize) {
        // SAFETY: `on_allocate` reads only its size argument.
        unsafe {
            on_allocate(
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                0,
                bytes,
                0,
                0,
                0,
            )
        }
    }

    #[test]
    fn a_due_look_at_the_memory_changes_no_budget() {
        // The thread may have run Lua before (one test thread): start clean.
        ALLOCATED.set(0);
        HELD.set(None);
        start(1_000_000);
        allocate(100);
        assert_eq!(left(), 1_000_000);
        // Past the threshold a look is due: the counter is parked at zero
        // (the next interrupt runs out), yet the budget left is what the
        // allocation leaves it.
        allocate(MEMORY_CHECK_BYTES);
        assert_eq!(TICKS.get(), 0);
        let cost = (MEMORY_CHECK_BYTES / BYTES_PER_TICK) as i64;
        assert_eq!(left(), 1_000_000 - cost);
        assert!(!spent());
        let before = left();
        assert!(charge(API_CALL_TICKS).is_ok());
        assert_eq!(left(), before - API_CALL_TICKS);
        // A new call while the look is still due gets its whole budget,
        // and the look stays due (its first interrupt makes it).
        start(500);
        assert_eq!(left(), 500);
        assert_eq!(TICKS.get(), 0);
        assert!(HELD.get().is_some());
        // Spending for memory ends the due look: spent, whatever was held.
        spend(Spent::Memory);
        assert!(spent());
        assert!(charge(1).is_err());
    }
}
