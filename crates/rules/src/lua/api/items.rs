//! Containers of items (`containers:` in the variant: bags, stacks,
//! queues of tiles or cards): `g:draw_from`, `g:put_in`, `g:peek`,
//! `g:shuffle`, `g:items`. A script sees every item; players see what the
//! container's declared visibility and their own peeks allow.

use mlua::UserDataMethods;
use rand::seq::SliceRandom;
use rand::Rng;

use super::Api;
use crate::base::limits::MAX_ITEMS;
use crate::base::state::{Item, PlayerId};
use crate::lua::context::{parse_player, with_ctx, CallCtx};
use crate::lua::limits::{over, Name};
use crate::variant::flow::{ContainerDecl, Order};

/// The declared container `name` of `owner` (a player's name; `nil` for a
/// shared one): its declaration and its index in the state.
fn find(cx: &mut CallCtx, name: &str, owner: Option<&str>) -> mlua::Result<(ContainerDecl, usize)> {
    let d = cx
        .variant()
        .containers
        .iter()
        .find(|d| d.name == name)
        .cloned()
        .ok_or_else(|| mlua::Error::runtime(format!("`{name}` is not a declared container")))?;
    let owner: Option<PlayerId> = owner.map(|o| parse_player(cx, o)).transpose()?;
    if d.per_player != owner.is_some() {
        return Err(mlua::Error::runtime(if d.per_player {
            format!("`{name}` is one per player: name its owner")
        } else {
            format!("`{name}` is shared: it has no owner")
        }));
    }
    let k = cx.state_mut().container_id(name, owner) as usize;
    Ok((d, k))
}

/// Registers the container methods.
pub(super) fn register_items<M: UserDataMethods<Api>>(m: &mut M) {
    m.add_method(
        "draw_from",
        |lua, _, (name, owner): (Name, Option<Name>)| {
            with_ctx(lua, |cx| {
                let (d, k) = find(cx, &name, owner.as_deref())?;
                let s = cx.state_mut();
                let n = s.containers[k].items.len();
                if n == 0 {
                    return Ok(None);
                }
                let i = if d.order == Order::Bag {
                    s.rng.random_range(0..n)
                } else {
                    0
                };
                Ok(Some(s.containers[k].items.remove(i).value))
            })
        },
    );
    m.add_method(
        "put_in",
        |lua, _, (name, owner, face, at): (Name, Option<Name>, Name, Option<Name>)| {
            with_ctx(lua, |cx| {
                let (d, k) = find(cx, &name, owner.as_deref())?;
                let s = cx.state_mut();
                let items = &s.containers[k].items;
                if items.len() >= MAX_ITEMS {
                    return Err(over(
                        &format!("a container holds at most {MAX_ITEMS} items"),
                        MAX_ITEMS,
                    ));
                }
                let i = match (at.as_deref(), d.order) {
                    (Some("random"), _) | (None, Order::Bag) => s.rng.random_range(0..=items.len()),
                    (Some("top"), _) | (None, Order::Stack) => 0,
                    (Some("bottom"), _) | (None, Order::Queue) => items.len(),
                    (Some(w), _) => {
                        return Err(mlua::Error::runtime(format!(
                            "put_in: `{w}` is not top, bottom or random"
                        )))
                    }
                };
                s.containers[k].items.insert(
                    i,
                    Item {
                        value: face.0.clone(),
                        known_by: 0,
                    },
                );
                Ok(())
            })
        },
    );
    m.add_method(
        "peek",
        |lua, _, (name, owner, n, player): (Name, Option<Name>, u32, Name)| {
            with_ctx(lua, |cx| {
                let (_, k) = find(cx, &name, owner.as_deref())?;
                let p = parse_player(cx, &player)?;
                let items = &mut cx.state_mut().containers[k].items;
                let n = (n as usize).min(items.len());
                Ok(items[..n]
                    .iter_mut()
                    .map(|it| {
                        it.known_by |= 1 << p;
                        it.value.clone()
                    })
                    .collect::<Vec<_>>())
            })
        },
    );
    m.add_method("shuffle", |lua, _, (name, owner): (Name, Option<Name>)| {
        with_ctx(lua, |cx| {
            let (_, k) = find(cx, &name, owner.as_deref())?;
            let s = cx.state_mut();
            let items = &mut s.containers[k].items;
            items.shuffle(&mut s.rng);
            // Nobody knows which item is where any more.
            items.iter_mut().for_each(|it| it.known_by = 0);
            Ok(())
        })
    });
    m.add_method("items", |lua, _, (name, owner): (Name, Option<Name>)| {
        with_ctx(lua, |cx| {
            let (_, k) = find(cx, &name, owner.as_deref())?;
            Ok(cx.state().containers[k]
                .items
                .iter()
                .map(|it| it.value.clone())
                .collect::<Vec<_>>())
        })
    });
}
