//! The hashes of the positions played since the last capture, for the draw
//! by repetition, with a small filter of the hashes held, so that counting
//! a new position's earlier occurrences (once a ply) rarely reads the list.

/// The hashes in order, and a 256-bit filter: bit `h % 256` is set for
/// every hash `h` held. A hash whose bit is clear is not in the list; one
/// whose bit is set is counted by a scan.
#[derive(Debug, Default)]
pub struct PositionHashes {
    list: Vec<u64>,
    filter: [u64; 4],
}

impl PositionHashes {
    /// The filter's word and bit for `h`.
    #[inline]
    fn bit(h: u64) -> (usize, u64) {
        (((h >> 6) & 3) as usize, 1 << (h & 63))
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The hashes, oldest first.
    pub fn as_slice(&self) -> &[u64] {
        &self.list
    }

    pub fn clear(&mut self) {
        self.list.clear();
        self.filter = [0; 4];
    }

    #[inline]
    pub fn push(&mut self, h: u64) {
        let (w, b) = Self::bit(h);
        self.filter[w] |= b;
        self.list.push(h);
    }

    /// How many times `h` is held.
    #[inline]
    pub fn count(&self, h: u64) -> usize {
        let (w, b) = Self::bit(h);
        if self.filter[w] & b == 0 {
            return 0;
        }
        self.list.iter().filter(|&&x| x == h).count()
    }
}

impl Clone for PositionHashes {
    fn clone(&self) -> PositionHashes {
        PositionHashes {
            list: self.list.clone(),
            filter: self.filter,
        }
    }

    /// Copies `src` into the list's memory.
    #[inline]
    fn clone_from(&mut self, src: &PositionHashes) {
        self.list.clone_from(&src.list);
        self.filter = src.filter;
    }
}

impl From<Vec<u64>> for PositionHashes {
    fn from(list: Vec<u64>) -> PositionHashes {
        let mut p = PositionHashes {
            list: Vec::with_capacity(list.len()),
            filter: [0; 4],
        };
        list.into_iter().for_each(|h| p.push(h));
        p
    }
}

impl PartialEq for PositionHashes {
    /// The same hashes in the same order (the filter follows from them).
    fn eq(&self, o: &PositionHashes) -> bool {
        self.list == o.list
    }
}

impl Eq for PositionHashes {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The count with the filter is the count of a plain scan, through
    /// pushes, clears, copies and a list read back.
    #[test]
    fn counts_as_a_scan_does() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut p = PositionHashes::default();
        let mut plain: Vec<u64> = Vec::new();
        for i in 0..5_000 {
            // Few distinct hashes, so that repeats are common, spread
            // over the filter's bits and beyond.
            let h = rng.random_range(0..40u64) * 0x9e37_79b9_7f4a_7c15;
            let expected = plain.iter().filter(|&&x| x == h).count();
            assert_eq!(p.count(h), expected, "at {i}");
            if rng.random_range(0..50) == 0 {
                p.clear();
                plain.clear();
            } else {
                p.push(h);
                plain.push(h);
            }
            if i % 97 == 0 {
                let mut copy = PositionHashes::from(vec![1, 2, 3]);
                copy.clone_from(&p);
                assert_eq!(copy, p);
                p = PositionHashes::from(p.as_slice().to_vec());
            }
            assert_eq!(p.as_slice(), &plain[..]);
        }
    }
}
