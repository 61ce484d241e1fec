//! The `g` object every hook receives: which areas the API has. Each area's
//! methods live in their own file and are registered here.

mod board;
mod counters;
mod events;
mod flow;
mod items;
mod marks;
mod moves;
mod pieces;
mod queries;
mod terrain;
mod turn;
mod visibility;

use mlua::{UserData, UserDataMethods};

pub(super) use events::note;

use super::context::CallCtx;
use super::limits::{over, EFFECTS_MAX};
use crate::base::effect::Effect;

/// The `g` object passed to every hook.
pub(super) struct Api;

impl UserData for Api {
    fn add_methods<M: UserDataMethods<Self>>(m: &mut M) {
        turn::register_turn(m);
        flow::register_flow(m);
        items::register_items(m);
        events::register_events(m);
        pieces::register_pieces(m);
        moves::register_moves(m);
        visibility::register_visibility(m);
        counters::register_counters(m);
        marks::register_marks(m);
        board::register_board(m);
        terrain::register_terrain(m);
        queries::register_queries(m);
    }
}

/// Records an effect of the running action, within its limit.
#[inline]
pub(super) fn push_effect(cx: &mut CallCtx, effect: Effect) -> mlua::Result<()> {
    if cx.effects.len() >= EFFECTS_MAX {
        return Err(over(
            &format!("an action has at most {EFFECTS_MAX} effects"),
            EFFECTS_MAX,
        ));
    }
    cx.effects.push(effect);
    Ok(())
}
