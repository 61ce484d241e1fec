//! What a rule announces besides moving pieces: the game's end (`g:win`,
//! `g:draw`), a choice to ask a player (`g:choose`) and a log note (`g:log`,
//! and `print`, which writes one).

use mlua::{Table, UserDataMethods};

use super::Api;
use crate::base::effect::Effect;
use crate::base::state::{Choice, Outcome, Plain};
use crate::lua::context::{parse_player, with_ctx, CallCtx};
use crate::lua::limits::{
    escape, over, Name, Str, Text, LABEL_MAX, LOG_LINES_MAX, OPTIONS_MAX, PENDING_MAX,
};

/// The reason of `g:win(player)` and `g:draw()` given none: the outcome
/// then reads `red wins (the script's verdict)`, not `red wins (red wins)`.
const VERDICT: &str = "the script's verdict";

/// Registers the outcome, choice and log methods.
pub(super) fn register_events<M: UserDataMethods<Api>>(m: &mut M) {
    m.add_method("win", |lua, _, (player, reason): (Name, Option<Text>)| {
        with_ctx(lua, |cx| {
            let p = parse_player(cx, &player)?;
            if cx.state().outcome.is_none() {
                cx.state_mut().outcome = Some(Outcome {
                    winners: vec![p],
                    reason: reason.map_or_else(|| VERDICT.into(), |r| escape(&r).into_owned()),
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
                    reason: reason.map_or_else(|| VERDICT.into(), |r| escape(&r).into_owned()),
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

/// How deep a choice's or a window's data may nest lists and maps (the
/// data table itself is level 0).
pub(crate) const DATA_DEPTH: usize = 4;
/// How many plain values one data table may hold, counting every value in
/// its lists and maps.
pub(crate) const DATA_VALUES: usize = 256;

/// A choice's or a window's data table: string keys (at most 16), plain
/// values: booleans, integers, short strings, and tables of them — an
/// array-like table (keys 1..n) is a list, a table with string keys a map;
/// at most [`DATA_DEPTH`] levels and [`DATA_VALUES`] values in all.
pub(super) fn plain_data(t: Table) -> mlua::Result<Vec<(String, Plain)>> {
    let mut budget = DATA_VALUES;
    let mut out = Vec::new();
    for (k, v) in plain_map(t, 1, &mut budget)? {
        out.push((k, v));
        if out.len() > 16 {
            return Err(mlua::Error::runtime(
                "a choice's data has at most 16 entries",
            ));
        }
    }
    Ok(out)
}

/// A table of plain values at nesting `depth`, as (key, value) sorted by
/// key; `budget`: the values still allowed.
fn plain_map(
    t: Table,
    depth: usize,
    budget: &mut usize,
) -> mlua::Result<std::collections::BTreeMap<String, Plain>> {
    let mut out = std::collections::BTreeMap::new();
    for pair in t.pairs::<mlua::Value, mlua::Value>() {
        let (k, v) = pair?;
        let mlua::Value::String(k) = k else {
            return Err(mlua::Error::runtime(format!(
                "a choice's data has string keys (or is a list), found a {} key",
                k.type_name()
            )));
        };
        let k = k.to_str()?.to_string();
        if k.len() > LABEL_MAX {
            return Err(mlua::Error::runtime(format!(
                "a choice's data has keys of at most {LABEL_MAX} bytes"
            )));
        }
        out.insert(k, plain_value(v, depth, budget)?);
    }
    Ok(out)
}

/// One plain value at nesting `depth` (a table in it is one level deeper).
fn plain_value(v: mlua::Value, depth: usize, budget: &mut usize) -> mlua::Result<Plain> {
    if *budget == 0 {
        return Err(mlua::Error::runtime(format!(
            "a choice's data holds at most {DATA_VALUES} values in all"
        )));
    }
    *budget -= 1;
    Ok(match v {
        mlua::Value::Boolean(b) => Plain::Bool(b),
        mlua::Value::Integer(i) => Plain::Int(i),
        mlua::Value::Number(n) if n.fract() == 0.0 && n.abs() < 1e15 => Plain::Int(n as i64),
        mlua::Value::String(s) if s.as_bytes().len() <= LABEL_MAX => {
            Plain::Text(s.to_str()?.to_string())
        }
        mlua::Value::Table(t) => {
            if depth >= DATA_DEPTH {
                return Err(mlua::Error::runtime(format!(
                    "a choice's data nests lists and maps at most {DATA_DEPTH} deep"
                )));
            }
            let n = t.raw_len();
            let mut count = 0;
            let mut strings = false;
            for pair in t.clone().pairs::<mlua::Value, mlua::Value>() {
                let (k, _) = pair?;
                count += 1;
                strings |= matches!(k, mlua::Value::String(_));
                if count > *budget {
                    return Err(mlua::Error::runtime(format!(
                        "a choice's data holds at most {DATA_VALUES} values in all"
                    )));
                }
            }
            if strings && count > 0 && n > 0 {
                return Err(mlua::Error::runtime(
                    "a table in a choice's data is a list (keys 1..n) or a map (string keys), not both",
                ));
            }
            if strings {
                Plain::Map(plain_map(t, depth + 1, budget)?)
            } else if count != n {
                return Err(mlua::Error::runtime(
                    "a list in a choice's data has keys 1..n only (a map has string keys)",
                ));
            } else {
                let mut list = Vec::with_capacity(n.min(*budget));
                for i in 1..=n {
                    list.push(plain_value(t.raw_get(i)?, depth + 1, budget)?);
                }
                Plain::List(list)
            }
        }
        other => {
            return Err(mlua::Error::runtime(format!(
                "a choice's data holds booleans, integers, strings (of at most {LABEL_MAX} bytes) and lists and maps of them, found {}",
                other.type_name()
            )))
        }
    })
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
    // The answer keeps the turn if the turn is kept now.
    let passes_turn = !cx.state().holds_turn();
    cx.state_mut().pending.push(Choice {
        player: p,
        reason: escape(reason).into_owned(),
        options,
        piece: None,
        public,
        handler,
        data,
        passes_turn,
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
