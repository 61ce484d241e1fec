//! How many bytes a copy of a game state occupies: the state itself plus
//! every heap block a clone allocates (each `Vec` at its length, as
//! `clone` allocates it; strings at their length). Shared names
//! (`Arc<str>` counters) cost a pointer only. Tree maps are counted at
//! their entries' size, a lower bound of what their nodes take.

use std::mem::size_of;

use crate::geometry::Cell;
use crate::state::{Choice, GameState, Mark};

fn vec_bytes<T>(v: &[T]) -> usize {
    std::mem::size_of_val(v)
}

fn choice_bytes(c: &Choice) -> usize {
    c.reason.len() + vec_bytes(&c.options) + c.options.iter().map(String::len).sum::<usize>()
}

impl GameState {
    /// The bytes a clone of this state occupies (see the module's note).
    pub fn clone_bytes(&self) -> usize {
        let mut n = size_of::<GameState>();
        n += vec_bytes(&self.pieces) + self.attrs_bytes();
        n += vec_bytes(self.board()) + vec_bytes(self.terrain());
        n += vec_bytes(&self.containers);
        n += self
            .containers
            .iter()
            .map(|c| {
                c.name.len()
                    + vec_bytes(&c.pieces)
                    + vec_bytes(&c.items)
                    + c.items.iter().map(|i| i.value.len()).sum::<usize>()
            })
            .sum::<usize>();
        n += self.counters.iter().count()
            * (size_of::<(std::sync::Arc<str>, Option<u8>, i64, u16)>());
        n += vec_bytes(&self.pending) + self.pending.iter().map(choice_bytes).sum::<usize>();
        n += vec_bytes(&self.windows)
            + self
                .windows
                .iter()
                .map(|w| vec_bytes(&w.asked) + vec_bytes(&w.data))
                .sum::<usize>();
        n += vec_bytes(&self.shuttles) + vec_bytes(self.positions.as_slice());
        if let Some(o) = &self.outcome {
            n += vec_bytes(&o.winners) + o.reason.len();
        }
        n += self
            .marks
            .iter()
            .map(|((_, k), m)| size_of::<((Cell, String), Mark)>() + k.len() + m.value.len())
            .sum::<usize>();
        n += self.cell_counters.heap_size();
        n
    }
}
