//! `strike:`, the declared strike: each line's kinds, attributes, rank
//! test and result.
//!
//! Changes when a strike line gains a condition.

use serde_saphyr::Location;

use super::Ctx;
use crate::base::effect::Strike;
use crate::base::state::KindId;
use crate::base::suggest::did_you_mean;
use crate::variant::raw::RawVariant;
use crate::variant::strike::{HasAttr, RankTest, StrikeLine, StrikeTable};
use crate::variant::Kind;

/// The table, if declared; every line is checked and each fault reported
/// at its line.
pub(super) fn strike(raw: &RawVariant, kinds: &[Kind], cx: &mut Ctx) -> Option<StrikeTable> {
    let lines = raw.strike.as_ref()?;
    cx.from("strike");
    let mut table = StrikeTable::default();
    let mut ok = true;
    for line in lines {
        match strike_line(&line.value, line.referenced, kinds, cx) {
            Some(l) => table.lines.push(l),
            None => ok = false,
        }
    }
    ok.then_some(table)
}

fn strike_line(
    l: &crate::variant::raw_forms::RawStrikeLine,
    loc: Location,
    kinds: &[Kind],
    cx: &mut Ctx,
) -> Option<StrikeLine> {
    let mut ok = true;
    let mut kind_list = |names: &Option<Vec<String>>, what: &str, cx: &mut Ctx| {
        let names = names.as_ref()?;
        if names.is_empty() {
            cx.err_at(
                loc,
                format!("`{what}: []`: name at least one kind, or leave `{what}` out"),
            );
            ok = false;
        }
        let mut ids: Vec<KindId> = Vec::new();
        for k in names {
            match kinds.iter().position(|x| &x.name == k) {
                Some(i) => ids.push(i as KindId),
                None => {
                    let hint = did_you_mean(k, kinds.iter().map(|x| x.name.as_str()));
                    cx.err_at(
                        loc,
                        format!("`{what}` names `{k}`, which is no piece kind{hint}"),
                    );
                    ok = false;
                }
            }
        }
        Some(ids)
    };
    let attacker = kind_list(&l.attacker, "attacker", cx);
    let defender = kind_list(&l.defender, "defender", cx);
    let rank = l.rank.as_deref().and_then(|w| {
        let r = RankTest::parse(w);
        if r.is_none() {
            cx.err_at(loc, format!("`rank: {w}`: expected {}", RankTest::WORDS));
            ok = false;
        }
        r
    });
    let result = Strike::parse(&l.result);
    if result.is_none() {
        cx.err_at(
            loc,
            format!("`result: {}`: expected {}", l.result, Strike::ANSWERS),
        );
        ok = false;
    }
    let has = |name: &Option<String>| name.as_deref().map(|n| HasAttr::new(n, kinds));
    let line = StrikeLine {
        attacker,
        defender,
        attacker_has: has(&l.attacker_has),
        defender_has: has(&l.defender_has),
        rank,
        result: result?,
    };
    ok.then_some(line)
}
