//! The counters the host's own rules keep (a joint move's rights, the
//! passed cell, the no-progress count, the move number) and those a
//! position's repetition counts, numbered once when the variant loads, so
//! that the rules find them in a state without comparing names.

use std::sync::Arc;

use crate::base::state::{CounterId, CounterNames};
use crate::rules::variant::Variant;

/// The host rules' counters of one variant, by number.
pub(crate) struct HostCounters {
    /// The numbered names (each state of the variant's games is numbered
    /// from them: [`Counters::number`](crate::base::state::Counters::number)).
    pub names: CounterNames,
    /// `rules.bookkeeping.joint_moves`' rights.
    pub joint: Option<CounterId>,
    /// `rules.bookkeeping.passing`'s passed cell.
    pub passing: Option<CounterId>,
    /// `rules.ends.no_progress`' count.
    pub no_progress: Option<CounterId>,
    /// `rules.bookkeeping.move_number`.
    pub move_number: Option<CounterId>,
    /// `repetition_counters`, in their order.
    pub repetition: Vec<CounterId>,
}

impl HostCounters {
    pub fn new(v: &Variant) -> HostCounters {
        let joint = v.joint_moves.as_ref().map(|j| j.counter.as_str());
        let passing = v.passing.as_ref().map(|p| p.counter.as_str());
        let no_progress = v.no_progress.as_ref().map(|n| n.counter.as_str());
        let move_number = v.move_number.as_deref();
        let mut list: Vec<&str> = Vec::new();
        let named = [joint, passing, no_progress, move_number];
        let repetition = v.repetition_counters.iter().map(String::as_str);
        for name in named.into_iter().flatten().chain(repetition) {
            if !list.contains(&name) {
                list.push(name);
            }
        }
        let names: CounterNames = list.iter().map(|&n| Arc::from(n)).collect();
        let id = |name: Option<&str>| name.and_then(|n| CounterId::new(&names, n));
        HostCounters {
            joint: id(joint),
            passing: id(passing),
            no_progress: id(no_progress),
            move_number: id(move_number),
            repetition: (v.repetition_counters.iter())
                .filter_map(|n| CounterId::new(&names, n))
                .collect(),
            names,
        }
    }
}
