//! Piece kinds as validated: [`Kind`], its [`MovePattern`]s and their
//! [`Target`]s.
//!
//! Changes when what a kind of piece can be or how it may move changes (the
//! engine's move generation reads these).

use super::actions::Filter;
use super::Value;
use crate::base::cell_set::CellSet;
use crate::base::geometry::Cell;
use crate::base::state::KindId;

/// What a move may end on.
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    /// An empty cell.
    pub empty: bool,
    /// A cell holding an enemy piece (a strike or a capture by displacement).
    pub enemy: bool,
    /// When set, only enemies of these kinds.
    pub enemy_kinds: Option<Vec<KindId>>,
    /// The directions are relative to the mover (see
    /// [`crate::base::geometry::Directions::relative`]).
    pub relative: bool,
    /// When set, the move is only made from these cells (one list per player).
    pub from_zone: Option<Vec<Vec<Cell>>>,
    /// When set, the move only ends on these cells (`to_zone`): per player,
    /// per cell, whether it is one.
    pub to_zone: Option<Vec<Vec<bool>>>,
    /// When set, the move is only made while this holds for the mover.
    pub when: Option<When>,
    /// Conditions on the landing cell itself (`where`): every one holds.
    pub landing: Vec<Filter>,
    /// Conditions on every cell the move passes (`through`): the move may
    /// end on a cell that fails one, but not pass it.
    pub through: Vec<Filter>,
}

/// A condition on the mover under which a move may be made (`when:`).
#[derive(Clone, Debug, PartialEq)]
pub enum When {
    /// The mover has placed every piece of a kind's supply
    /// (`when: { placed_all: man }`): the kind, the counter the host keeps
    /// ([`super::forms::placed_counter`]), and the supply's size.
    PlacedAll {
        kind: KindId,
        counter: String,
        supply: u16,
    },
}

impl When {
    /// Whether the condition holds for `player` in `s`.
    #[inline]
    pub fn holds(
        &self,
        s: &crate::base::state::GameState,
        player: crate::base::state::PlayerId,
    ) -> bool {
        match self {
            When::PlacedAll {
                counter, supply, ..
            } => s.counter(counter, Some(player)) >= *supply as i64,
        }
    }
}

impl MovePattern {
    /// What the pattern may end on, and its other conditions.
    #[inline]
    pub fn target(&self) -> &Target {
        match self {
            MovePattern::Step { target, .. }
            | MovePattern::Slide { target, .. }
            | MovePattern::Path { target, .. } => target,
        }
    }
}

impl Target {
    pub const ANY: Target = Target {
        empty: true,
        enemy: true,
        enemy_kinds: None,
        relative: false,
        from_zone: None,
        to_zone: None,
        when: None,
        landing: Vec::new(),
        through: Vec::new(),
    };
    /// Whether the move tests cells beyond what stands on them
    /// (`where`, `through`): the fast paths that assume plain movement
    /// (attack masks, pins, drawn slots, quiet masks) leave such a move to
    /// the generator, which tests them.
    #[inline]
    pub fn conditioned(&self) -> bool {
        !self.landing.is_empty() || !self.through.is_empty()
    }
    /// Whether the move may end on `cell` for `player` (its `to_zone`).
    #[inline]
    pub fn lands(&self, player: crate::base::state::PlayerId, cell: Cell) -> bool {
        self.to_zone
            .as_ref()
            .is_none_or(|z| z[player as usize][cell as usize])
    }
    /// Whether an enemy of `kind` may be struck.
    pub fn strikes(&self, kind: KindId) -> bool {
        self.enemy && self.enemy_kinds.as_ref().is_none_or(|k| k.contains(&kind))
    }
}

/// Jumping over enemy pieces during a slide (each jumped piece must be
/// followed by an empty cell, so two adjacent pieces are never jumped).
#[derive(Clone, Debug, PartialEq)]
pub struct Jump {
    /// When set, only enemies of these kinds may be jumped.
    pub kinds: Option<Vec<KindId>>,
    pub max: u8,
}

/// A movement pattern, generated natively by the host.
#[derive(Clone, Debug, PartialEq)]
pub enum MovePattern {
    /// One step in any of the directions. A `lame` leap is blocked when
    /// one of the cells it passes ([`lame_legs`]) holds a piece or
    /// blocking terrain.
    Step {
        deltas: Vec<(i8, i8)>,
        target: Target,
        lame: bool,
    },
    /// Any number of empty squares in a straight line (up to `max`).
    /// A strike is allowed from an adjacent square, or at the end of a longer
    /// slide when `strike_at_range` is set. A slide longer than
    /// `reveal_beyond` reveals the piece's kind to everyone.
    Slide {
        deltas: Vec<(i8, i8)>,
        max: u8,
        strike_at_range: bool,
        reveal_beyond: Option<u8>,
        target: Target,
        jump: Option<Jump>,
        /// How many pieces (of any owner) the slide must pass before it
        /// may end (`screens`): 0 for a plain slide.
        screens: u8,
    },
    /// Up to `steps` single steps through empty squares, turning freely; the
    /// last square may hold an enemy.
    Path {
        deltas: Vec<(i8, i8)>,
        steps: u8,
        target: Target,
    },
}

/// A kind of piece.
#[derive(Clone, Debug)]
pub struct Kind {
    pub name: String,
    pub display: String,
    pub symbol: String,
    pub code: Option<char>,
    /// The mark beside the code in positions (`+` before it, `~` after).
    pub code_mark: Option<char>,
    /// The kind a captured piece of this kind becomes in its captor's hand.
    pub demotes_to: Option<KindId>,
    pub rank: i64,
    pub count: u32,
    pub moves: Vec<MovePattern>,
    /// The kind's moves of the move language beyond steps, slides and
    /// paths (placements, jumps).
    pub forms: Vec<super::forms::Form>,
    pub attrs: Vec<(String, Value)>,
    /// The letter naming the kind in move notation, if any.
    pub letter: Option<String>,
    /// Royal and checked: a move that leaves it capturable is illegal.
    pub royal: bool,
    /// Royal and captured (`royal: captured`): no check rule; its capture
    /// wins the game for the captor.
    pub royal_captured: bool,
    /// The directions along which this royal kind may not face an enemy
    /// royal piece with nothing between (`not_facing`); empty: none.
    pub not_facing: Vec<(i8, i8)>,
    pub promote: Option<Promote>,
    /// Which enemy pieces next to a piece of this kind cannot move.
    pub freezes: Option<Freeze>,
    /// What a piece of this kind captures by custody when it lands.
    pub custody: Option<super::forms::Custody>,
    /// Terrain tags (as bits) whose cells a piece of this kind may neither
    /// enter nor pass (`barred:`), beside the board's blocking terrain.
    pub barred: u32,
    /// Terrain tags (as bits) whose cells a piece of this kind may pass
    /// but not stop on (`no_stop:`).
    pub no_stop: u32,
    /// Some move of the kind tests cells (`where`, `through`; see
    /// [`Target::conditioned`]).
    pub conditioned: bool,
    /// The kind's picture (`image:`), checked at load.
    pub image: Option<super::image::PieceImage>,
}

/// A declared freeze (the YAML `freezes:` of a kind): every enemy piece
/// (of `kinds`, when given) at one of `near`'s offsets from the freezer
/// cannot move, unless a piece of the victim's owner of one of
/// `unless_beside`'s kinds, other than the victim, stands at one of those
/// offsets from the freezer.
#[derive(Clone, Debug, PartialEq)]
pub struct Freeze {
    pub near: Vec<(i8, i8)>,
    pub kinds: Option<Vec<KindId>>,
    pub unless_beside: Vec<KindId>,
}

/// Promotion of a kind (see the YAML `promote:`).
#[derive(Clone, Debug)]
pub struct Promote {
    /// The promotion cells of each player.
    pub zone: Vec<Vec<Cell>>,
    /// `zone` as sets, for the moves' membership tests.
    pub zone_set: Vec<CellSet>,
    pub to: Vec<KindId>,
    /// The owner may keep the kind, unless the piece could never move
    /// again where it stands (`optional:`).
    pub optional: bool,
    /// A move that starts in the zone promotes too (`leaving:`).
    pub leaving: bool,
}

impl Kind {
    pub fn is_mobile(&self) -> bool {
        !self.moves.is_empty() || !self.forms.is_empty()
    }
}

/// The cells a lame leap by `d` passes, as offsets from its start: its
/// straight steps first, then its diagonal ones, every cell before the
/// last (`(1, 2)` passes `(0, 1)`; `(2, 2)` passes `(1, 1)`; a step of one
/// cell passes none).
pub fn lame_legs(d: (i8, i8)) -> impl Iterator<Item = (i8, i8)> {
    let (ax, ay) = (d.0.unsigned_abs(), d.1.unsigned_abs());
    let (sx, sy) = (d.0.signum(), d.1.signum());
    let diagonal = ax.min(ay);
    let straight = ax.max(ay) - diagonal;
    // A straight step goes along the longer component.
    let along = if ax >= ay { (sx, 0) } else { (0, sy) };
    let total = straight + diagonal;
    (1..total).map(move |i| {
        let s = i.min(straight) as i8;
        let g = i.saturating_sub(straight) as i8;
        (along.0 * s + sx * g, along.1 * s + sy * g)
    })
}

#[cfg(test)]
mod tests {
    use super::lame_legs;

    #[test]
    fn lame_legs_go_straight_first_then_diagonally() {
        let legs = |d| lame_legs(d).collect::<Vec<_>>();
        assert_eq!(legs((1, 2)), vec![(0, 1)]);
        assert_eq!(legs((-2, 1)), vec![(-1, 0)]);
        assert_eq!(legs((2, -2)), vec![(1, -1)]);
        assert_eq!(legs((3, 1)), vec![(1, 0), (2, 0)]);
        assert_eq!(legs((0, 3)), vec![(0, 1), (0, 2)]);
        assert!(legs((1, 1)).is_empty());
        assert!(legs((0, -1)).is_empty());
    }
}
