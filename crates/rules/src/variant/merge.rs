//! `extends`: laying a child variant over its base, key by key.
//!
//! Changes when the merge rules change (which keys replace, which merge by
//! key, what `~` removes), or when the schema gains a field to merge.
//! [`Origins`] remembers which file of the chain set each item, so that
//! errors found after merging name the right file.

use serde_saphyr::Spanned;

use super::raw::{RawPiece, RawVariant};
use super::raw_rules::RawRules;

/// Which file (index into the chain, base first) last set each item, so that
/// errors found after merging name the right file.
#[derive(Default)]
pub(super) struct Origins(std::collections::HashMap<String, usize>);

impl Origins {
    pub(super) fn mark(&mut self, raw: &RawVariant, file: usize) {
        let mut set = |k: String| {
            self.0.insert(k, file);
        };
        if raw.script.is_some() {
            set("script".into());
        }
        for k in raw.board.terrain.keys() {
            set(format!("terrain.{k}"));
        }
        if raw.board.blocking.is_some() {
            set("blocking".into());
        }
        for (k, on) in [
            ("points", raw.board.points.is_some()),
            ("lines", raw.board.lines.is_some()),
            (
                "shape",
                raw.board.shape.is_some() || raw.board.size.is_some(),
            ),
        ] {
            if on {
                set(k.into());
            }
        }
        for k in raw.board.zones.keys() {
            set(format!("zones.{k}"));
        }
        for k in raw.board.counts.keys() {
            set(format!("counts.{k}"));
        }
        for k in raw.options.keys() {
            set(format!("options.{k}"));
        }
        for (k, p) in &raw.pieces {
            if let Some(p) = p {
                set(format!("pieces.{k}"));
                if p.value.moves.is_some() {
                    set(format!("pieces.{k}.moves"));
                }
                if p.value.count.is_some() {
                    set(format!("pieces.{k}.count"));
                }
                if p.value.image.is_some() {
                    set(format!("pieces.{k}.image"));
                }
            }
        }
        for k in raw.setup.zones.keys() {
            set(format!("setup.{k}"));
        }
        if raw.rules.bookkeeping.repetition_limit.is_some() {
            set("rules.bookkeeping.repetition_limit".into());
        }
        if raw.rules.bookkeeping.joint_moves.is_some() {
            set("rules.bookkeeping.joint_moves".into());
        }
        if raw.rules.bookkeeping.passing.is_some() {
            set("rules.bookkeeping.passing".into());
        }
        if raw.start.is_some() {
            set("start".into());
        }
        if raw.notation.is_some() {
            set("notation".into());
        }
        if raw.actions.is_some() {
            set("actions".into());
        }
        if !raw.queries.is_empty() {
            set("queries".into());
        }
        if !raw.tokens.is_empty() {
            set("tokens".into());
        }
        for (key, there) in [
            ("phases", raw.phases.is_some()),
            ("reactions", raw.reactions.is_some()),
            ("containers", raw.containers.is_some()),
            ("turn", raw.turn.is_some()),
            ("pass", raw.pass.is_some()),
            ("ends", raw.ends.is_some()),
            ("sight", raw.sight.is_some()),
            ("hands", raw.hands.is_some()),
            ("blast", raw.blast.is_some()),
            ("strike", raw.strike.is_some()),
            ("dice", raw.dice.is_some()),
        ] {
            if there {
                set(key.into());
            }
        }
    }

    pub(super) fn get(&self, key: &str) -> usize {
        self.0.get(key).copied().unwrap_or(0)
    }

    /// The file that set `key`, if any file did.
    pub(super) fn set_by(&self, key: &str) -> Option<usize> {
        self.0.get(key).copied()
    }
}

/// Lays `child` over `base` (see the README: scalars and lists replace, maps
/// merge by key, piece kinds merge field by field, `~` removes a kind).
pub(super) fn merge(mut base: RawVariant, child: RawVariant) -> RawVariant {
    let order = show_order(&base, &child);
    base.extends = child.extends;
    base.name = child.name.or(base.name);
    base.description = child.description.or(base.description);
    base.script = child.script.or(base.script);
    base.players = child.players.or(base.players);
    base.min_players = child.min_players.or(base.min_players);
    base.hidden_identities = child.hidden_identities.or(base.hidden_identities);
    base.colours = match (base.colours, child.colours) {
        (Some(mut b), Some(c)) => {
            b.extend(c);
            Some(b)
        }
        (b, c) => c.or(b),
    };
    base.board.files = child.board.files.or(base.board.files);
    base.board.ranks = child.board.ranks.or(base.board.ranks);
    base.board.terrain.extend(child.board.terrain);
    base.board.blocking = child.board.blocking.or(base.board.blocking);
    base.board.stacks = child.board.stacks.or(base.board.stacks);
    base.board.zones.extend(child.board.zones);
    base.board.counts.extend(child.board.counts);
    base.board.directions.extend(child.board.directions);
    base.board.points = child.board.points.or(base.board.points);
    base.board.lines = child.board.lines.or(base.board.lines);
    base.board.shape = child.board.shape.or(base.board.shape);
    base.board.size = child.board.size.or(base.board.size);
    for (k, o) in child.options {
        match o {
            // `name: value` sets the default of the base's option.
            Some(o) if o.value.only_default => {
                if let Some(Some(b)) = base.options.get_mut(&k) {
                    b.value.default = o.value.default;
                }
            }
            Some(o) => {
                base.options.insert(k, Some(o));
            }
            None => {
                base.options.shift_remove(&k);
                base.removed.push(format!("options.{k}"));
            }
        }
    }
    for (k, p) in child.pieces {
        match p {
            None => {
                base.pieces.shift_remove(&k);
                base.removed.push(format!("pieces.{k}"));
            }
            Some(p) => {
                let merged = match base.pieces.get_mut(&k).and_then(Option::take) {
                    Some(b) => merge_piece(b, p),
                    None => p,
                };
                base.pieces.insert(k, Some(merged));
            }
        }
    }
    base.piece_order = order;
    base.setup.zones.extend(child.setup.zones);
    base.words.events.extend(child.words.events);
    base.words.questions.extend(child.words.questions);
    base.counters.extend(child.counters);
    base.start = child.start.or(base.start);
    base.notation = child.notation.or(base.notation);
    merge_rules(&mut base.rules, child.rules);
    base.turn = child.turn.or(base.turn);
    base.actions = child.actions.or(base.actions);
    base.pass = child.pass.or(base.pass);
    base.ends = child.ends.or(base.ends);
    base.sight = child.sight.or(base.sight);
    base.hands = child.hands.or(base.hands);
    base.blast = child.blast.or(base.blast);
    base.strike = child.strike.or(base.strike);
    base.dice = child.dice.or(base.dice);
    base.queries.extend(child.queries);
    base.tokens.extend(child.tokens);
    base.phases = child.phases.or(base.phases);
    base.reactions = child.reactions.or(base.reactions);
    base.containers = child.containers.or(base.containers);
    base
}

/// `rules:` group by group: each key the child sets replaces the base's.
fn merge_rules(base: &mut RawRules, child: RawRules) {
    let (b, c) = (&mut base.ends, child.ends);
    b.no_moves = c.no_moves.or(b.no_moves.take());
    b.max_plies = c.max_plies.or(b.max_plies);
    b.draw_offers = c.draw_offers.or(b.draw_offers);
    b.repetition_draw = c.repetition_draw.or(b.repetition_draw.take());
    b.no_progress = c.no_progress.or(b.no_progress.take());
    b.win_when = c.win_when.or(b.win_when.take());
    let (b, c) = (&mut base.bookkeeping, child.bookkeeping);
    b.repetition_limit = c.repetition_limit.or(b.repetition_limit.take());
    if !c.repetition_counters.is_empty() {
        b.repetition_counters = c.repetition_counters;
    }
    b.move_number = c.move_number.or(b.move_number.take());
    b.joint_moves = c.joint_moves.or(b.joint_moves.take());
    b.passing = c.passing.or(b.passing.take());
    let (b, c) = (&mut base.visibility, child.visibility);
    b.strike_reveals = c.strike_reveals.or(b.strike_reveals);
    b.followable_when_hidden_again = c
        .followable_when_hidden_again
        .or(b.followable_when_hidden_again);
    b.public_attrs = c.public_attrs.or(b.public_attrs.take());
    base.display.mark_symbols = child
        .display
        .mark_symbols
        .or(base.display.mark_symbols.take());
    let (b, c) = (&mut base.script, child.script);
    if !c.extra_moves_when.is_empty() {
        b.extra_moves_when = c.extra_moves_when;
    }
    b.after_action_when = c.after_action_when.or(b.after_action_when.take());
    b.captures_when = c.captures_when.or(b.captures_when.take());
}

/// A child's kind over its base's of the same name: field by field, the
/// attributes key by key.
fn merge_piece(b: Spanned<RawPiece>, p: Spanned<RawPiece>) -> Spanned<RawPiece> {
    let (b, c) = (b.value, p.value);
    let mut attrs = b.attrs;
    attrs.extend(c.attrs);
    Spanned {
        value: RawPiece {
            name: c.name.or(b.name),
            symbol: c.symbol.or(b.symbol),
            code: c.code.or(b.code),
            code_mark: c.code_mark.or(b.code_mark),
            demotes_to: c.demotes_to.or(b.demotes_to),
            rank: c.rank.or(b.rank),
            count: c.count.or(b.count),
            moves: c.moves.or(b.moves),
            letter: c.letter.or(b.letter),
            royal: c.royal.or(b.royal),
            not_facing: c.not_facing.or(b.not_facing),
            promote: c.promote.or(b.promote),
            freezes: c.freezes.or(b.freezes),
            custody: c.custody.or(b.custody),
            barred: c.barred.or(b.barred),
            no_stop: c.no_stop.or(b.no_stop),
            image: c.image.or(b.image),
            sight: c.sight.or(b.sight),
            attrs,
        },
        referenced: p.referenced,
        defined: p.defined,
    }
}

/// The order in which the merged kinds are shown: the child's order for the
/// kinds it lists, each base kind it does not list kept just before the
/// next listed kind that followed it in the base (or at the end).
fn show_order(base: &RawVariant, child: &RawVariant) -> Vec<String> {
    let base_order: Vec<String> = if base.piece_order.is_empty() {
        base.pieces.keys().cloned().collect()
    } else {
        base.piece_order.clone()
    };
    let mut out: Vec<String> = Vec::new();
    let mut next_base = 0;
    for (k, p) in &child.pieces {
        if let Some(at) = base_order.iter().position(|b| b == k) {
            // Base kinds the child leaves alone, up to this one, come first.
            for b in &base_order[next_base.min(at)..at] {
                if !child.pieces.contains_key(b) && !out.contains(b) {
                    out.push(b.clone());
                }
            }
            next_base = next_base.max(at + 1);
        }
        if p.is_some() && !out.contains(k) {
            out.push(k.clone());
        }
    }
    for b in &base_order[next_base.min(base_order.len())..] {
        if !child.pieces.contains_key(b) && !out.contains(b) {
            out.push(b.clone());
        }
    }
    out
}
