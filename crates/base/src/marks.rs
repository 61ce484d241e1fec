//! Facts on cells ([`GameState::marks`](crate::state::GameState)):
//! a list kept sorted by (cell, name), so that a cell's marks are found by
//! a binary search on the cell number and a short scan of that cell's few
//! names, with no string compared before the cell matches (the declared
//! conditions `mark NAME[=VALUE]` ask this for every candidate cell).
//!
//! Changes when what a mark holds or how marks are looked up changes.

use std::cmp::Ordering;
use std::ops::Index;

use crate::geometry::Cell;
use crate::state::Mark;

/// A mark's key: its cell and its name.
pub type MarkKey = (Cell, String);

/// The marks of a game, in (cell, name) order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Marks {
    list: Vec<(MarkKey, Mark)>,
}

impl Marks {
    pub fn new() -> Marks {
        Marks::default()
    }

    /// Where mark `name` of `cell` is, or where it would go.
    fn find(&self, cell: Cell, name: &str) -> Result<usize, usize> {
        let start = self.list.partition_point(|((c, _), _)| *c < cell);
        for (i, ((c, n), _)) in self.list[start..].iter().enumerate() {
            if *c != cell {
                return Err(start + i);
            }
            match n.as_str().cmp(name) {
                Ordering::Less => {}
                Ordering::Equal => return Ok(start + i),
                Ordering::Greater => return Err(start + i),
            }
        }
        Err(self.list.len())
    }

    /// Mark `name` of `cell`.
    pub fn of(&self, cell: Cell, name: &str) -> Option<&Mark> {
        self.find(cell, name).ok().map(|i| &self.list[i].1)
    }

    pub fn get(&self, key: &MarkKey) -> Option<&Mark> {
        self.of(key.0, &key.1)
    }

    pub fn get_mut(&mut self, key: &MarkKey) -> Option<&mut Mark> {
        let i = self.find(key.0, &key.1).ok()?;
        Some(&mut self.list[i].1)
    }

    pub fn contains_key(&self, key: &MarkKey) -> bool {
        self.find(key.0, &key.1).is_ok()
    }

    /// Sets a mark; the one it replaces, if any.
    pub fn insert(&mut self, key: MarkKey, mark: Mark) -> Option<Mark> {
        match self.find(key.0, &key.1) {
            Ok(i) => Some(std::mem::replace(&mut self.list[i].1, mark)),
            Err(i) => {
                self.list.insert(i, (key, mark));
                None
            }
        }
    }

    pub fn remove(&mut self, key: &MarkKey) -> Option<Mark> {
        let i = self.find(key.0, &key.1).ok()?;
        Some(self.list.remove(i).1)
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The marks in (cell, name) order.
    pub fn iter(&self) -> impl Iterator<Item = (&MarkKey, &Mark)> {
        self.list.iter().map(|(k, m)| (k, m))
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&MarkKey, &mut Mark)> {
        self.list.iter_mut().map(|(k, m)| (&*k, m))
    }
}

impl<'a> IntoIterator for &'a Marks {
    type Item = (&'a MarkKey, &'a Mark);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (MarkKey, Mark)>,
        fn(&'a (MarkKey, Mark)) -> (&'a MarkKey, &'a Mark),
    >;

    fn into_iter(self) -> Self::IntoIter {
        self.list.iter().map(|(k, m)| (k, m))
    }
}

impl Index<&MarkKey> for Marks {
    type Output = Mark;

    fn index(&self, key: &MarkKey) -> &Mark {
        self.get(key).expect("no such mark")
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    fn mark(v: &str) -> Mark {
        Mark {
            value: v.to_string(),
            known_by: 1,
        }
    }

    /// The same answers and order as a map, over a mixed run of edits.
    #[test]
    fn marks_behave_as_an_ordered_map() {
        let mut m = Marks::new();
        let mut want: BTreeMap<MarkKey, Mark> = BTreeMap::new();
        let names = ["tile", "item", "a", "zz"];
        for step in 0..400u32 {
            let cell = (step * 7 % 13) as Cell;
            let name = names[(step % 4) as usize].to_string();
            let key = (cell, name);
            if step % 5 == 3 {
                assert_eq!(m.remove(&key), want.remove(&key));
            } else {
                let v = mark(&step.to_string());
                assert_eq!(m.insert(key.clone(), v.clone()), want.insert(key, v));
            }
            let got: Vec<_> = m.iter().collect();
            let exp: Vec<_> = want.iter().collect();
            assert_eq!(got, exp);
        }
        for cell in 0..14 {
            for n in names.iter().chain(&["b", ""]) {
                let key = (cell, n.to_string());
                assert_eq!(m.get(&key), want.get(&key));
                assert_eq!(m.contains_key(&key), want.contains_key(&key));
            }
        }
        assert_eq!(m.len(), want.len());
    }
}
