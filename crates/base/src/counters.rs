//! Named counters of a game state (global or per player), and their
//! numbering by the names a variant's host rules use.

use std::sync::Arc;

use crate::state::PlayerId;

/// The counter names a variant's host rules use, numbered once when the
/// variant loads and shared by the states of its games
/// ([`Counters::number`]).
pub type CounterNames = Arc<[Arc<str>]>;

/// A counter's name with its number in a [`CounterNames`] list, made when
/// the variant loads: in a state numbered from that list it is found by
/// number, comparing no strings; in any other, by name.
#[derive(Clone, Debug)]
pub struct CounterId {
    names: CounterNames,
    id: u16,
}

impl CounterId {
    /// `name`'s number in `names`, if it is there.
    pub fn new(names: &CounterNames, name: &str) -> Option<CounterId> {
        let id = names.iter().position(|n| **n == *name)?;
        Some(CounterId {
            names: names.clone(),
            id: id as u16,
        })
    }

    pub fn name(&self) -> &str {
        &self.names[self.id as usize]
    }
}

/// The number of a counter whose name is not in the state's list.
const UNNUMBERED: u16 = u16::MAX;

/// Named counters, global (`None`) or per player, sorted by name then
/// player (the order a `BTreeMap` would keep). A sorted vector: lookups by
/// `&str` allocate nothing, and a copy shares the names. Each counter also
/// carries its name's number in the variant's list ([`Counters::number`]),
/// so that the host's rules find theirs without comparing strings.
#[derive(Debug, Default)]
pub struct Counters {
    /// (name, player, value, the name's number in `names` or
    /// `UNNUMBERED`).
    entries: Vec<(Arc<str>, Option<PlayerId>, i64, u16)>,
    names: CounterNames,
}

impl Clone for Counters {
    fn clone(&self) -> Self {
        Counters {
            entries: self.entries.clone(),
            names: self.names.clone(),
        }
    }

    /// Copies the values only when `self` has the same counters (the
    /// usual case in a search, whose states share their names): no
    /// reference count is touched.
    #[inline]
    fn clone_from(&mut self, src: &Self) {
        let same = self.entries.len() == src.entries.len()
            && self
                .entries
                .iter()
                .zip(&src.entries)
                .all(|(a, b)| Arc::ptr_eq(&a.0, &b.0) && a.1 == b.1);
        if same {
            for (a, b) in self.entries.iter_mut().zip(&src.entries) {
                a.2 = b.2;
                a.3 = b.3;
            }
        } else {
            self.entries.clone_from(&src.entries);
        }
        if !Arc::ptr_eq(&self.names, &src.names) {
            self.names = src.names.clone();
        }
    }
}

impl PartialEq for Counters {
    fn eq(&self, o: &Self) -> bool {
        self.iter().eq(o.iter())
    }
}

impl Eq for Counters {}

impl std::hash::Hash for Counters {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        for e in self.iter() {
            e.hash(h);
        }
    }
}

impl Counters {
    fn find(&self, name: &str, player: Option<PlayerId>) -> Result<usize, usize> {
        self.entries
            .binary_search_by(|(n, p, _, _)| (&**n, *p).cmp(&(name, player)))
    }

    /// Numbers the counters (those there now and those set later) by
    /// `names`, the list the variant's [`CounterId`]s come from.
    pub fn number(&mut self, names: &CounterNames) {
        self.names = names.clone();
        for e in &mut self.entries {
            e.3 = names
                .iter()
                .position(|n| *n == e.0)
                .map_or(UNNUMBERED, |i| i as u16);
        }
    }

    /// The position of counter `id` of `player`, found by number when the
    /// counters are numbered from `id`'s list.
    #[inline]
    fn position_of(&self, id: &CounterId, player: Option<PlayerId>) -> Option<usize> {
        if Arc::ptr_eq(&self.names, &id.names) {
            self.entries
                .iter()
                .position(|e| e.3 == id.id && e.1 == player)
        } else {
            self.find(id.name(), player).ok()
        }
    }

    pub fn get(&self, name: &str, player: Option<PlayerId>) -> Option<i64> {
        // A few counters at most: a linear scan beats the search.
        self.entries
            .iter()
            .find(|(n, p, _, _)| *p == player && n.len() == name.len() && **n == *name)
            .map(|e| e.2)
    }

    /// [`Counters::get`] by number.
    #[inline]
    pub fn get_id(&self, id: &CounterId, player: Option<PlayerId>) -> Option<i64> {
        self.position_of(id, player).map(|i| self.entries[i].2)
    }

    pub fn set(&mut self, name: &str, player: Option<PlayerId>, value: i64) {
        if let Some(e) = self
            .entries
            .iter_mut()
            .find(|(n, p, _, _)| *p == player && n.len() == name.len() && **n == *name)
        {
            e.2 = value;
            return;
        }
        match self.find(name, player) {
            Ok(i) => self.entries[i].2 = value,
            Err(i) => {
                let (name, id) = match self.names.iter().position(|n| **n == *name) {
                    Some(id) => (self.names[id].clone(), id as u16),
                    None => (Arc::from(name), UNNUMBERED),
                };
                self.entries.insert(i, (name, player, value, id));
            }
        }
    }

    /// [`Counters::set`] by number.
    #[inline]
    pub fn set_id(&mut self, id: &CounterId, player: Option<PlayerId>, value: i64) {
        match self.position_of(id, player) {
            Some(i) => self.entries[i].2 = value,
            None => self.set(id.name(), player, value),
        }
    }

    pub fn remove(&mut self, name: &str, player: Option<PlayerId>) {
        if let Ok(i) = self.find(name, player) {
            self.entries.remove(i);
        }
    }

    /// `(name, player, value)` in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, Option<PlayerId>, i64)> {
        self.entries.iter().map(|(n, p, v, _)| (&**n, *p, *v))
    }

    /// The `(player, value)` of counter `id` for each player (and global),
    /// in order.
    pub fn iter_id<'a>(
        &'a self,
        id: &'a CounterId,
    ) -> impl Iterator<Item = (Option<PlayerId>, i64)> + 'a {
        let numbered = Arc::ptr_eq(&self.names, &id.names);
        self.entries
            .iter()
            .filter(move |e| {
                if numbered {
                    e.3 == id.id
                } else {
                    *e.0 == *id.name()
                }
            })
            .map(|e| (e.1, e.2))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// By number or by name, numbered before or after the counters were
    /// set, or not numbered at all: the same counters.
    #[test]
    fn numbers_find_what_names_find() {
        let names: CounterNames = ["gate", "bank", "quiet"]
            .iter()
            .map(|&n| Arc::from(n))
            .collect();
        let gate = CounterId::new(&names, "gate").unwrap();
        let bank = CounterId::new(&names, "bank").unwrap();
        assert!(CounterId::new(&names, "moves").is_none());
        let mut early = Counters::default();
        early.number(&names);
        let mut late = Counters::default();
        let mut plain = Counters::default();
        for c in [&mut early, &mut late, &mut plain] {
            c.set("moves", None, 3);
            c.set("bank", None, 15);
            c.set_id(&gate, None, 21);
            c.set_id(&bank, Some(1), 4);
            c.set("gate", Some(0), 9);
        }
        late.number(&names);
        for c in [&early, &late, &plain] {
            assert_eq!(c.get_id(&bank, None), Some(15));
            assert_eq!(c.get_id(&bank, Some(1)), Some(4));
            assert_eq!(c.get_id(&gate, None), Some(21));
            assert_eq!(c.get_id(&gate, Some(1)), None);
            assert_eq!(c.get("gate", None), Some(21));
            let gate_all: Vec<_> = c.iter_id(&gate).collect();
            assert_eq!(gate_all, [(None, 21), (Some(0), 9)]);
            assert_eq!(c, &plain);
        }
        let order: Vec<&str> = early.iter().map(|e| e.0).collect();
        assert_eq!(order, ["bank", "bank", "gate", "gate", "moves"]);
    }
}
