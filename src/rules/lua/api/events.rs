//! What a rule announces besides moving pieces: the game's end (`g:win`,
//! `g:draw`), a choice to ask a player (`g:choose`) and a log note (`g:log`).

use mlua::UserDataMethods;

use super::Api;
use crate::base::effect::Effect;
use crate::base::state::{Choice, Outcome};
use crate::rules::lua::context::{parse_player, with_ctx};

/// Registers the outcome, choice and log methods.
pub(super) fn register_events<M: UserDataMethods<Api>>(m: &mut M) {
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
        "choose",
        |lua, _, (player, reason, options, public): (String, String, Vec<String>, Option<bool>)| {
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
                    public: public.unwrap_or(false),
                });
                Ok(())
            })
        },
    );
    m.add_method("log", |lua, _, text: String| {
        with_ctx(lua, |cx| {
            cx.effects.push(Effect::Note(text));
            Ok(())
        })
    });
}
