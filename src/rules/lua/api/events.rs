//! What a rule announces besides moving pieces: the game's end (`g:win`,
//! `g:draw`), a choice to ask a player (`g:choose`) and a log note (`g:log`,
//! and `print`, which writes one).

use mlua::{Table, UserDataMethods};

use super::Api;
use crate::base::effect::Effect;
use crate::base::state::{Choice, Outcome, Plain};
use crate::rules::lua::context::{parse_player, with_ctx, CallCtx};
use crate::rules::lua::limits::{
    escape, over, Name, Str, Text, LABEL_MAX, LOG_LINES_MAX, OPTIONS_MAX, PENDING_MAX,
};

/// Registers the outcome, choice and log methods.
pub(super) fn register_events<M: UserDataMethods<Api>>(m: &mut M) {
    m.add_method("win", |lua, _, (player, reason): (Name, Option<Text>)| {
        with_ctx(lua, |cx| {
            let p = parse_player(cx, &player)?;
            if cx.state().outcome.is_none() {
                cx.state_mut().outcome = Some(Outcome {
                    winners: vec![p],
                    reason: reason
                        .map_or_else(|| format!("{} wins", &*player), |r| escape(&r).into_owned()),
                });
            }
            Ok(())
        })
    });
    m.add_method("draw", |lua, _, reason: Option<Text>| {
        with_ctx(lua, |cx| {
            if cx.state().outcome.is_none() {
                cx.state_mut().outcome = Some(Outcome {
                    winners: vec![],
                    reason: reason.map_or_else(|| "draw".into(), |r| escape(&r).into_owned()),
                });
            }
            Ok(())
        })
    });
    m.add_method(
        "choose",
        |lua,
         _,
         (player, reason, options, public, handler, data): (
            Name,
            Text,
            Table,
            Option<bool>,
            Option<Name>,
            Option<Table>,
        )| {
            let n = options.raw_len();
            if n > OPTIONS_MAX {
                return Err(over(
                    &format!("a choice has at most {OPTIONS_MAX} options, got {n}"),
                    OPTIONS_MAX,
                ));
            }
            let options = options
                .sequence_values::<Str<LABEL_MAX>>()
                .map(|o| o.map(|o| o.0))
                .collect::<mlua::Result<Vec<String>>>()?;
            let data = match data {
                Some(t) => plain_data(t)?,
                None => Vec::new(),
            };
            if let Some(h) = &handler {
                // Refused here, with this line, not when the answer comes.
                let rules: mlua::Table = lua.globals().raw_get("rules")?;
                if !matches!(
                    rules.raw_get::<mlua::Value>(h.0.as_str())?,
                    mlua::Value::Function(_)
                ) {
                    return Err(mlua::Error::runtime(format!(
                        "g:choose: the handler `{}` is not a function of `rules`",
                        h.0
                    )));
                }
            }
            let asked = Asked {
                reason: &reason,
                options,
                public: public.unwrap_or(false),
                handler: handler.map(|h| h.0),
                data,
            };
            with_ctx(lua, |cx| choose(cx, &player, asked))
        },
    );
    m.add_method("log", |lua, _, text: Text| {
        with_ctx(lua, |cx| note(cx, &text))
    });
}

/// A choice as a rule asks it: `public`: everyone sees its question,
/// options and answer (else only the chooser does); `handler`: the `rules`
/// function that takes the answer, with `data`.
struct Asked<'a> {
    reason: &'a str,
    options: Vec<String>,
    public: bool,
    handler: Option<String>,
    data: Vec<(String, Plain)>,
}

/// A choice's data table: string keys, plain values (booleans, integers,
/// strings), at most 16 of them.
pub(super) fn plain_data(t: Table) -> mlua::Result<Vec<(String, Plain)>> {
    let mut out = Vec::new();
    for pair in t.pairs::<mlua::Value, mlua::Value>() {
        let (k, v) = pair?;
        let mlua::Value::String(k) = k else {
            return Err(mlua::Error::runtime("a choice's data has string keys"));
        };
        let v = match v {
            mlua::Value::Boolean(b) => Plain::Bool(b),
            mlua::Value::Integer(i) => Plain::Int(i),
            mlua::Value::Number(n) if n.fract() == 0.0 && n.abs() < 1e15 => Plain::Int(n as i64),
            mlua::Value::String(s) if s.as_bytes().len() <= LABEL_MAX => {
                Plain::Text(s.to_str()?.to_string())
            }
            other => {
                return Err(mlua::Error::runtime(format!(
                    "a choice's data holds booleans, integers and short strings, found {}",
                    other.type_name()
                )))
            }
        };
        out.push((k.to_str()?.to_string(), v));
        if out.len() > 16 {
            return Err(mlua::Error::runtime(
                "a choice's data has at most 16 entries",
            ));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// Pushes a pending choice after checking its options.
fn choose(cx: &mut CallCtx, player: &str, asked: Asked) -> mlua::Result<()> {
    let Asked {
        reason,
        options,
        public,
        handler,
        data,
    } = asked;
    let p = parse_player(cx, player)?;
    if options.is_empty() {
        return Err(mlua::Error::runtime("a choice needs at least one option"));
    }
    let mut sorted = options.clone();
    sorted.sort();
    if sorted.windows(2).any(|w| w[0] == w[1])
        || options
            .iter()
            .any(|o| o.trim().is_empty() || o.chars().any(char::is_control))
    {
        return Err(mlua::Error::runtime(
            "the options of a choice must be distinct, non-empty labels without control characters",
        ));
    }
    if cx.state().pending.len() >= PENDING_MAX {
        return Err(over(
            &format!("at most {PENDING_MAX} choices may be pending"),
            PENDING_MAX,
        ));
    }
    cx.state_mut().pending.push(Choice {
        player: p,
        reason: escape(reason).into_owned(),
        options,
        piece: None,
        public,
        handler,
        data,
    });
    Ok(())
}

/// Writes a log line (control characters escaped), within the call's
/// limits.
pub(crate) fn note(cx: &mut CallCtx, text: &str) -> mlua::Result<()> {
    if cx.notes >= LOG_LINES_MAX {
        return Err(over(
            &format!("a call writes at most {LOG_LINES_MAX} log lines"),
            LOG_LINES_MAX as usize,
        ));
    }
    cx.notes += 1;
    super::push_effect(cx, Effect::Note(escape(text).into_owned()))
}
