//! Turn and game-end settings (the `rules:` section, as validated): what
//! happens to a player with no moves, the no-progress draw, when
//! `rules.after_action` is called.
//!
//! Changes when the host gains or changes a built-in turn or ending rule.

use serde::Deserialize;

use crate::base::cell_set::CellSet;
use crate::base::geometry::Cell;
use crate::base::state::{KindId, PlayerId};

/// What happens to a player who has no legal action on their turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum NoMoves {
    /// The player loses (with two players, the other wins).
    Lose,
    /// The game is drawn.
    Draw,
    /// The turn passes to the next player.
    Pass,
    /// The player loses if another player can still move; if nobody can,
    /// the game is drawn.
    LoseUnlessAllStuck,
}

/// A draw after `plies` plies without a capture or a move of one of
/// `reset_kinds`, counted in the global counter `counter`.
#[derive(Clone, Debug)]
pub struct NoProgress {
    pub plies: u32,
    pub counter: String,
    pub reset_kinds: Vec<KindId>,
    pub reason: String,
}

/// A declared win (`rules.ends.win_when`), checked by the host after every
/// rules call: a player one of whose pieces on the board carries
/// `holds_attr` (if given) and who (with `alone`) owns every piece on the
/// board wins, for `reason` (`{player}`: the winner's name).
#[derive(Clone, Debug)]
pub struct WinWhen {
    pub holds_attr: Option<String>,
    pub alone: bool,
    pub reason: String,
}

impl WinWhen {
    /// The winner on a board of pieces given as (owner, whether it carries
    /// `holds_attr`), if any.
    pub fn winner(&self, pieces: impl Iterator<Item = (PlayerId, bool)>) -> Option<PlayerId> {
        let (mut owners, mut holder) = (0u64, None);
        for (owner, holds) in pieces {
            owners |= 1 << owner;
            if holds && holder.is_none() {
                holder = Some(owner);
            }
        }
        let winner = match (&self.holds_attr, holder) {
            (Some(_), None) => return None,
            (Some(_), Some(h)) => h,
            (None, _) => owners.trailing_zeros() as PlayerId,
        };
        (owners != 0 && (!self.alone || owners == 1 << winner)).then_some(winner)
    }

    /// The outcome's reason for `winner`, named `name`.
    pub fn reason_for(&self, name: &str) -> String {
        self.reason.replace("{player}", name)
    }
}

/// A clause of the moves after which `rules.after_action` is called: each
/// condition that is not empty must hold.
#[derive(Clone, Debug, Default)]
pub struct AfterActionWhen {
    pub kinds: Vec<KindId>,
    /// Cells one of which the move must start or end on (none: any).
    pub cells: CellSet,
    /// Per player, the cells the move must start on.
    pub from_zone: Option<Vec<CellSet>>,
    /// Per player, the cells the move must end on.
    pub to_zone: Option<Vec<CellSet>>,
    pub counters: Vec<String>,
    /// The move must have captured a piece (known once it is performed).
    pub captures: bool,
}

impl AfterActionWhen {
    /// Whether a move of a `kind` piece of `player` from `from` to `to`
    /// meets this clause, with `counter` reading global counters (before
    /// the move); `captures` is left to the caller, who knows it after.
    pub fn holds(
        &self,
        kind: KindId,
        player: PlayerId,
        from: Cell,
        to: Cell,
        counter: impl Fn(&str) -> i64,
    ) -> bool {
        (self.kinds.is_empty() || self.kinds.contains(&kind))
            && (self.cells.is_empty() || self.cells.contains(from) || self.cells.contains(to))
            && self
                .from_zone
                .as_ref()
                .is_none_or(|z| z.get(player as usize).is_some_and(|z| z.contains(from)))
            && self
                .to_zone
                .as_ref()
                .is_none_or(|z| z.get(player as usize).is_some_and(|z| z.contains(to)))
            && (self.counters.is_empty() || self.counters.iter().any(|c| counter(c) != 0))
    }
}

#[cfg(test)]
mod tests {
    use super::WinWhen;

    #[test]
    fn a_declared_win_needs_the_holder_alone_or_the_last_player_standing() {
        let crown = WinWhen {
            holds_attr: Some("crown".into()),
            alone: true,
            reason: "{player} wins".into(),
        };
        assert_eq!(crown.winner([(1, false), (1, true)].into_iter()), Some(1));
        assert_eq!(crown.winner([(1, true), (0, false)].into_iter()), None);
        assert_eq!(crown.winner([(1, false), (1, false)].into_iter()), None);
        assert_eq!(crown.winner(std::iter::empty()), None);
        let last = WinWhen {
            holds_attr: None,
            ..crown.clone()
        };
        assert_eq!(last.winner([(2, false), (2, false)].into_iter()), Some(2));
        assert_eq!(last.winner([(2, false), (0, false)].into_iter()), None);
        assert_eq!(crown.reason_for("red"), "red wins");
    }
}
