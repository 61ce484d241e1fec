//! Pieces' attributes, kept beside the pieces so that a piece is plain
//! copyable data: a state's piece list copies as one block, and a game
//! whose rules set no attribute keeps no list at all.
//!
//! Changes when how attributes are stored changes.

use super::{Attrs, GameState, PieceId};

/// The attributes of a piece that has none.
static NO_ATTRS: Attrs = Attrs::NONE;

impl GameState {
    /// Piece `id`'s attributes (none for a piece no rule gave any).
    #[inline]
    pub fn attrs(&self, id: PieceId) -> &Attrs {
        self.piece_attrs.get(id as usize).unwrap_or(&NO_ATTRS)
    }

    /// Piece `id`'s attributes, to change.
    pub fn attrs_mut(&mut self, id: PieceId) -> &mut Attrs {
        let i = id as usize;
        if self.piece_attrs.len() <= i {
            self.piece_attrs.resize_with(i + 1, Attrs::new);
        }
        &mut self.piece_attrs[i]
    }

    /// Every piece's attributes at once, by id (after the pieces were
    /// replaced or renumbered); none kept past the last piece that has some.
    pub fn set_attrs(&mut self, mut attrs: Vec<Attrs>) {
        let kept = attrs
            .iter()
            .rposition(|a| !a.is_empty())
            .map_or(0, |i| i + 1);
        attrs.truncate(kept);
        self.piece_attrs = attrs;
    }

    /// The bytes the attributes' list and blocks occupy.
    pub fn attrs_bytes(&self) -> usize {
        std::mem::size_of_val(&self.piece_attrs[..])
            + self
                .piece_attrs
                .iter()
                .map(Attrs::heap_bytes)
                .sum::<usize>()
    }

    /// Whether every piece has the same attributes in both states (a
    /// missing entry is an empty one).
    pub(super) fn same_attrs(&self, o: &GameState) -> bool {
        let n = self.piece_attrs.len().max(o.piece_attrs.len());
        (0..n).all(|i| self.attrs(i as PieceId)[..] == o.attrs(i as PieceId)[..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_entry_is_no_attributes() {
        let mut a = GameState::empty(4, 2, 0);
        let mut b = a.clone();
        assert!(a.same_attrs(&b));
        a.attrs_mut(3);
        assert!(a.attrs(3).is_empty() && a.same_attrs(&b));
        b.attrs_mut(1).push(("hp".into(), 2));
        assert!(!a.same_attrs(&b) && !b.same_attrs(&a));
        assert_eq!(b.attrs(1).iter().next(), Some(&("hp".to_string(), 2)));
        assert!(b.attrs(7).is_empty());
    }

    #[test]
    fn replacing_the_pieces_keeps_each_ids_attributes() {
        let mut s = GameState::empty(4, 2, 0);
        s.add_piece(0, 0, 1, true).unwrap();
        s.add_piece(0, 1, 2, true).unwrap();
        s.attrs_mut(1).push(("hp".into(), 3));
        let pieces = s.pieces.clone();
        s.set_pieces(pieces).unwrap();
        assert_eq!(s.attrs(1).iter().next(), Some(&("hp".to_string(), 3)));
        s.set_attrs(vec![Attrs::new(), Attrs::new()]);
        assert!(s.attrs(1).is_empty() && s.piece_attrs.is_empty());
        s.set_pieces(Vec::new()).unwrap();
        assert!(s.attrs(1).is_empty());
    }
}
