//! The declared strike (`strike:`): an ordered table of lines, each with
//! conditions on the attacker and the defender and a result; the first
//! line that fits decides. The host reads it natively, so a game whose
//! pieces fight by rank needs no script to say who wins.
//!
//! Changes when a strike line gains a condition.

use std::cmp::Ordering;

use crate::base::effect::Strike;
use crate::base::state::{GameState, KindId, PieceId};

use super::{Kind, Value};

/// How the attacker's rank compares with the defender's (`rank:`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RankTest {
    Higher,
    Lower,
    Equal,
    NotLower,
    NotHigher,
}

impl RankTest {
    /// The words `rank:` takes, for messages.
    pub const WORDS: &'static str = "`higher`, `lower`, `equal`, `not_lower` or `not_higher`";

    pub fn parse(word: &str) -> Option<RankTest> {
        Some(match word {
            "higher" => RankTest::Higher,
            "lower" => RankTest::Lower,
            "equal" => RankTest::Equal,
            "not_lower" => RankTest::NotLower,
            "not_higher" => RankTest::NotHigher,
            _ => return None,
        })
    }

    /// The word for it in `strike:`.
    pub fn word(self) -> &'static str {
        match self {
            RankTest::Higher => "higher",
            RankTest::Lower => "lower",
            RankTest::Equal => "equal",
            RankTest::NotLower => "not_lower",
            RankTest::NotHigher => "not_higher",
        }
    }

    fn holds(self, o: Ordering) -> bool {
        match self {
            RankTest::Higher => o == Ordering::Greater,
            RankTest::Lower => o == Ordering::Less,
            RankTest::Equal => o == Ordering::Equal,
            RankTest::NotLower => o != Ordering::Less,
            RankTest::NotHigher => o != Ordering::Greater,
        }
    }
}

/// An attribute a piece must have (`attacker_has:`, `defender_has:`): its
/// own (set by a script; any value) or else its kind's (not `false`).
#[derive(Clone, Debug, PartialEq)]
pub struct HasAttr {
    pub name: String,
    /// By kind: whether the kind's `attrs:` give it (and not `false`).
    pub kinds: Vec<bool>,
}

impl HasAttr {
    /// The test for `name` over the variant's kinds.
    pub fn new(name: &str, kinds: &[Kind]) -> HasAttr {
        let by_kind = kinds
            .iter()
            .map(|k| {
                k.attrs
                    .iter()
                    .any(|(n, v)| n == name && *v != Value::Bool(false))
            })
            .collect();
        HasAttr {
            name: name.to_string(),
            kinds: by_kind,
        }
    }

    #[inline]
    fn holds(&self, s: &GameState, id: PieceId) -> bool {
        let own = s.attrs(id);
        if !own.is_empty() && own.iter().any(|(n, _)| *n == self.name) {
            return true;
        }
        let kind = s.pieces[id as usize].kind as usize;
        self.kinds.get(kind).copied().unwrap_or(false)
    }
}

/// One line of the table: every condition given must hold.
#[derive(Clone, Debug, PartialEq)]
pub struct StrikeLine {
    pub attacker: Option<Vec<KindId>>,
    pub defender: Option<Vec<KindId>>,
    pub attacker_has: Option<HasAttr>,
    pub defender_has: Option<HasAttr>,
    pub rank: Option<RankTest>,
    pub result: Strike,
}

impl StrikeLine {
    #[inline]
    fn fits(&self, s: &GameState, kinds: &[Kind], a: PieceId, d: PieceId) -> bool {
        let (ka, kd) = (s.pieces[a as usize].kind, s.pieces[d as usize].kind);
        self.attacker.as_ref().is_none_or(|ks| ks.contains(&ka))
            && self.defender.as_ref().is_none_or(|ks| ks.contains(&kd))
            && self.attacker_has.as_ref().is_none_or(|t| t.holds(s, a))
            && self.defender_has.as_ref().is_none_or(|t| t.holds(s, d))
            && self.rank.is_none_or(|r| {
                let rank = |k: KindId| kinds.get(k as usize).map_or(0, |k| k.rank);
                r.holds(rank(ka).cmp(&rank(kd)))
            })
    }
}

/// The declared strike: its lines in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StrikeTable {
    pub lines: Vec<StrikeLine>,
}

impl StrikeTable {
    /// How `a` striking `d` ends: the first line that fits; none fits:
    /// the attacker wins.
    #[inline]
    pub fn resolve(&self, s: &GameState, kinds: &[Kind], a: PieceId, d: PieceId) -> Strike {
        self.lines
            .iter()
            .find(|l| l.fits(s, kinds, a, d))
            .map_or(Strike::AttackerWins, |l| l.result)
    }
}
