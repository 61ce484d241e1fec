//! A piece's variant-defined attributes: a sorted list of (name, value),
//! one pointer wide and with no heap block while empty (most pieces never
//! get one), so a game state and its copies stay small.

use std::ops::{Deref, DerefMut};

/// The attributes of one piece (see the module's note).
// The box is what keeps it one pointer wide (a `Vec` is three).
#[allow(clippy::box_collection)]
#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct Attrs(Option<Box<Vec<(String, i64)>>>);

impl Clone for Attrs {
    fn clone(&self) -> Self {
        Attrs(self.0.clone())
    }

    /// Reuses `self`'s list when both have one; nothing to do when
    /// neither has (the usual case).
    #[inline]
    fn clone_from(&mut self, src: &Self) {
        match (&mut self.0, &src.0) {
            (None, None) => {}
            (Some(a), Some(b)) => a.clone_from(b),
            _ => self.0 = src.0.clone(),
        }
    }
}

impl Attrs {
    /// No attributes.
    pub const NONE: Attrs = Attrs(None);

    pub fn new() -> Self {
        Attrs(None)
    }

    /// Inserts at `i` (as `Vec::insert`).
    pub fn insert(&mut self, i: usize, item: (String, i64)) {
        self.0.get_or_insert_with(Default::default).insert(i, item);
    }

    /// Appends (as `Vec::push`).
    pub fn push(&mut self, item: (String, i64)) {
        self.0.get_or_insert_with(Default::default).push(item);
    }

    /// Keeps the attributes `f` accepts; none left frees the block.
    pub fn retain(&mut self, f: impl FnMut(&(String, i64)) -> bool) {
        if let Some(v) = &mut self.0 {
            v.retain(f);
            if v.is_empty() {
                self.0 = None;
            }
        }
    }

    /// The bytes its heap block holds (0 while empty).
    pub fn heap_bytes(&self) -> usize {
        self.0.as_ref().map_or(0, |v| {
            std::mem::size_of::<Vec<(String, i64)>>()
                + std::mem::size_of_val(&v[..])
                + v.iter().map(|(n, _)| n.len()).sum::<usize>()
        })
    }
}

impl Deref for Attrs {
    type Target = [(String, i64)];
    fn deref(&self) -> &Self::Target {
        self.0.as_deref().map_or(&[], |v| &v[..])
    }
}

impl DerefMut for Attrs {
    fn deref_mut(&mut self) -> &mut Self::Target {
        match &mut self.0 {
            Some(v) => &mut v[..],
            None => &mut [],
        }
    }
}

impl FromIterator<(String, i64)> for Attrs {
    fn from_iter<I: IntoIterator<Item = (String, i64)>>(iter: I) -> Self {
        let v: Vec<_> = iter.into_iter().collect();
        Attrs((!v.is_empty()).then(|| Box::new(v)))
    }
}
