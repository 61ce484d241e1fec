//! Counters on cells ([`CellCounters`]): for each name, the values by
//! cell in a plain vector, so a read or a write compares one short name
//! and indexes, allocating nothing, and a copy of the state copies a
//! vector per name (the names are shared). A child of `state`.

use std::sync::Arc;

use super::GameState;
use crate::geometry::Cell;

/// Named counters on cells (public facts). Each name keeps its values by
/// cell and how many of them are not 0; a name whose values are all 0 is
/// dropped, and a value of 0 is the same as none.
#[derive(Clone, Debug, Default)]
pub struct CellCounters {
    /// (name, values by cell, how many are not 0), sorted by name.
    names: Vec<(Arc<str>, Vec<i64>, u32)>,
}

impl PartialEq for CellCounters {
    fn eq(&self, o: &Self) -> bool {
        self.iter().eq(o.iter())
    }
}

impl Eq for CellCounters {}

impl CellCounters {
    fn find(&self, name: &str) -> Result<usize, usize> {
        self.names.binary_search_by(|(n, _, _)| (**n).cmp(name))
    }

    /// The values of `name` by cell (cells past the end hold 0).
    pub fn values(&self, name: &str) -> &[i64] {
        self.find(name).map_or(&[], |i| &self.names[i].1)
    }

    /// The counter `name` on `cell` (0 when it has none).
    pub fn get(&self, name: &str, cell: Cell) -> i64 {
        self.values(name).get(cell as usize).copied().unwrap_or(0)
    }

    /// Sets a counter; 0 removes it.
    pub fn set(&mut self, name: &str, cell: Cell, value: i64) {
        let i = match self.find(name) {
            Ok(i) => i,
            Err(_) if value == 0 => return,
            Err(i) => {
                self.names.insert(i, (Arc::from(name), Vec::new(), 0));
                i
            }
        };
        let (_, values, set) = &mut self.names[i];
        let c = cell as usize;
        if c >= values.len() {
            if value == 0 {
                return;
            }
            values.resize(c + 1, 0);
        }
        match (values[c] != 0, value != 0) {
            (false, true) => *set += 1,
            (true, false) => *set -= 1,
            _ => {}
        }
        values[c] = value;
        if *set == 0 {
            self.names.remove(i);
        }
    }

    /// Every counter other than 0, by name then cell.
    pub fn iter(&self) -> impl Iterator<Item = (&str, Cell, i64)> + '_ {
        self.names.iter().flat_map(|(n, values, _)| {
            values
                .iter()
                .enumerate()
                .filter(|(_, v)| **v != 0)
                .map(move |(c, v)| (&**n, c as Cell, *v))
        })
    }

    /// How many counters are not 0.
    pub fn len(&self) -> usize {
        self.names.iter().map(|x| x.2 as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Whether `name` on `cell` is not 0.
    pub fn contains(&self, name: &str, cell: Cell) -> bool {
        self.get(name, cell) != 0
    }

    pub fn clear(&mut self) {
        self.names.clear();
    }

    /// The bytes held besides the struct itself.
    pub fn heap_size(&self) -> usize {
        self.names
            .iter()
            .map(|(n, v, _)| size_of::<(Arc<str>, Vec<i64>, u32)>() + n.len() + v.len() * 8)
            .sum()
    }
}

impl GameState {
    /// The counter `name` on `cell` (0 when it has none).
    pub fn cell_counter(&self, name: &str, cell: Cell) -> i64 {
        self.cell_counters.get(name, cell)
    }

    /// Sets a cell counter; zero removes it.
    pub fn set_cell_counter(&mut self, name: &str, cell: Cell, value: i64) {
        self.cell_counters.set(name, cell, value);
    }
}

#[cfg(test)]
mod tests {
    use super::CellCounters;

    #[test]
    fn counters_are_kept_by_name_and_cell() {
        let mut k = CellCounters::default();
        k.set("b", 3, 5);
        k.set("a", 4, 2);
        k.set("ab", 3, 7);
        k.set("b", 3, 6);
        k.set("b", 9, 0);
        assert_eq!(k.get("b", 3), 6);
        assert_eq!(k.get("a", 4), 2);
        assert_eq!(k.get("ab", 3), 7);
        assert_eq!(k.get("a", 3), 0);
        assert_eq!(k.get("c", 3), 0);
        let all: Vec<_> = k.iter().collect();
        assert_eq!(all, [("a", 4, 2), ("ab", 3, 7), ("b", 3, 6)]);
        k.set("a", 4, 0);
        assert_eq!((k.get("a", 4), k.len()), (0, 2));
        let mut other = CellCounters::default();
        other.set("b", 3, 6);
        other.set("b", 20, 1);
        other.set("b", 20, 0);
        other.set("ab", 3, 7);
        assert_eq!(k, other, "a value of 0 is the same as none");
    }
}
