//! Where pieces are: capturing, moving, sending to a container and adding
//! pieces during play (`g:capture`, `g:move`, `g:send`, `g:add_piece`).

use mlua::{UserDataMethods, Value as LV};

use super::Api;
use crate::base::effect::Effect;
use crate::lua::context::CallCtx;
use crate::lua::context::{
    check_piece, parse_cell, parse_player, to_player_set, with_ctx, PieceArg,
};
use crate::lua::limits::{over, Name, CONTAINERS_MAX};

/// Registers the methods that move, remove and add pieces.
pub(super) fn register_moves<M: UserDataMethods<Api>>(m: &mut M) {
    m.add_method("capture", |lua, _, id: PieceArg| {
        with_ctx(lua, |cx| {
            let id = check_piece(cx, id)?;
            let cell = cx.state().cell_of(id);
            cx.state_mut().capture(id);
            super::push_effect(cx, Effect::Captured { piece: id, cell })?;
            Ok(())
        })
    });
    m.add_method("move", |lua, _, (id, cell): (PieceArg, Name)| {
        with_ctx(lua, |cx| {
            let id = check_piece(cx, id)?;
            let c = parse_cell(cx, &cell)?;
            if cx.state().piece_at(c).is_some() {
                return Err(mlua::Error::runtime(format!(
                    "cannot move onto {cell}: it is occupied"
                )));
            }
            if cx.state().terrain()[c as usize] & cx.variant().board.blocking != 0 {
                return Err(mlua::Error::runtime(format!(
                    "cannot move onto {cell}: its terrain blocks pieces"
                )));
            }
            let from = cx.state().cell_of(id);
            cx.state_mut().place(id, c);
            super::push_effect(
                cx,
                Effect::Moved {
                    piece: id,
                    from,
                    to: c,
                },
            )?;
            Ok(())
        })
    });
    m.add_method(
        "send",
        |lua, _, (id, name, owner, front): (PieceArg, Name, Option<Name>, Option<bool>)| {
            with_ctx(lua, |cx| {
                let id = check_piece(cx, id)?;
                let owner = owner.as_deref().map(|o| parse_player(cx, o)).transpose()?;
                let cell = cx.state().cell_of(id);
                let k = container(cx, &name, owner)?;
                if front.unwrap_or(false) {
                    cx.state_mut().send_to_front(id, k);
                } else {
                    cx.state_mut().send_to(id, k);
                }
                super::push_effect(cx, Effect::Captured { piece: id, cell })?;
                Ok(())
            })
        },
    );
    m.add_method(
        "add_piece",
        |lua, _, (kind, owner, place, known): (Name, Name, Name, Option<LV>)| {
            let known = match known {
                Some(v) => Some(to_player_set(lua, &v)?),
                None => None,
            };
            with_ctx(lua, |cx| {
                let k =
                    cx.variant().kind_index(&kind).ok_or_else(|| {
                        mlua::Error::runtime(format!("unknown piece kind `{kind}`"))
                    })? as u16;
                let p = parse_player(cx, &owner)?;
                // Known to its owner and `known`; without `known`, to
                // everyone unless the variant hides identities.
                let known = match known {
                    Some(set) => set | (1 << p),
                    None if cx.variant().hidden_identities => 1 << p,
                    None => cx.state().all_players(),
                };
                let id = match cx.variant().board.parse_cell(&place) {
                    Some(c) => {
                        if cx.state().piece_at(c).is_some() {
                            return Err(mlua::Error::runtime(format!(
                                "cannot add a piece on {place}: it is occupied"
                            )));
                        }
                        let id = cx
                            .state_mut()
                            .add_piece(k, p, c, false)
                            .map_err(mlua::Error::runtime)?;
                        cx.state_mut().pieces[id as usize].known_by = known;
                        id
                    }
                    None => {
                        let c = container(cx, &place, Some(p))?;
                        cx.state_mut()
                            .add_piece_to(k, p, c, known)
                            .map_err(mlua::Error::runtime)?
                    }
                };
                Ok(id)
            })
        },
    );
}

/// The container named `name` of `owner`, made if new (within the limit).
fn container(
    cx: &mut CallCtx,
    name: &str,
    owner: Option<crate::base::state::PlayerId>,
) -> mlua::Result<u16> {
    let s = cx.state();
    let known = s
        .containers
        .iter()
        .any(|c| c.name == name && c.owner == owner);
    if !known && s.containers.len() >= CONTAINERS_MAX {
        return Err(over(
            &format!("a game has at most {CONTAINERS_MAX} containers"),
            CONTAINERS_MAX,
        ));
    }
    Ok(cx.state_mut().container_id(name, owner))
}
