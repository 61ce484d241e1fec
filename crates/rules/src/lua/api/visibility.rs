//! Who knows a piece's identity: `g:reveal` (an effect players see) and
//! `g:set_known` (set quietly).

use mlua::{UserDataMethods, Value as LV};

use super::Api;
use crate::base::effect::Effect;
use crate::lua::context::{check_piece, player_set, to_player_set, with_ctx, PieceArg};

/// Registers the visibility methods.
pub(super) fn register_visibility<M: UserDataMethods<Api>>(m: &mut M) {
    m.add_method("reveal", |lua, _, (id, to): (PieceArg, LV)| {
        with_ctx(lua, |cx| {
            let to = player_set(cx, &to)?;
            let id = check_piece(cx, id)?;
            cx.state_mut().reveal(id, to);
            super::push_effect(cx, Effect::Revealed { piece: id, to })?;
            Ok(())
        })
    });
    m.add_method("set_known", |lua, _, (id, to): (PieceArg, LV)| {
        let to = to_player_set(lua, &to)?;
        with_ctx(lua, |cx| {
            let id = check_piece(cx, id)?;
            let piece = &cx.state().pieces[id as usize];
            let known = to | (1 << piece.owner);
            // A viewer who knew the piece could follow it by its id.
            if piece.known_by & !known != 0 && !cx.variant().followable_when_hidden_again {
                return Err(mlua::Error::runtime(format!(
                    "g:set_known: piece {id} would be hidden again from a player who knew it, \
                     who could still follow it by its id (reveal it instead, or declare \
                     `rules: {{ visibility: {{ followable_when_hidden_again: true }} }}`)"
                )));
            }
            cx.state_mut().pieces[id as usize].known_by = known;
            Ok(())
        })
    });
}
