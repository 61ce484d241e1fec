//! Dice as public chance: the values a player still has to use this turn
//! ([`Dice`]), rolled from the state's seeded generator at the start of a
//! turn. Plain fixed-size data: a state copies it with a `memcpy`.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// The most dice values a turn may hold (dice times the times a double is
/// played).
pub const MAX_DICE: usize = 8;

/// The dice values left to use this turn, largest first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dice {
    vals: [u8; MAX_DICE],
    len: u8,
}

impl Dice {
    /// The values, largest first.
    pub fn values(&self) -> &[u8] {
        &self.vals[..self.len as usize]
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Dice holding these values (at most [`MAX_DICE`]; more are left
    /// out), sorted largest first.
    pub fn of(values: &[u8]) -> Dice {
        let mut d = Dice::default();
        for &v in values.iter().take(MAX_DICE) {
            d.vals[d.len as usize] = v;
            d.len += 1;
        }
        d.vals[..d.len as usize].sort_unstable_by(|a, b| b.cmp(a));
        d
    }

    /// Rolls `count` dice of `faces` faces; when all show the same value,
    /// each is played `doubles` times.
    pub fn roll(rng: &mut ChaCha8Rng, count: u8, faces: u8, doubles: u8) -> Dice {
        let mut v = [0u8; MAX_DICE];
        let n = (count as usize).min(MAX_DICE);
        for x in v.iter_mut().take(n) {
            *x = rng.random_range(1..=faces.max(1));
        }
        Dice::from_roll(&v[..n], doubles)
    }

    /// The dice a roll of these values gives: a roll whose values are all
    /// equal (of two dice or more) is played `doubles` times over.
    pub fn from_roll(values: &[u8], doubles: u8) -> Dice {
        let same = values.len() > 1 && values.iter().all(|&x| x == values[0]);
        let times = if same { doubles.max(1) as usize } else { 1 };
        let all: Vec<u8> = (0..times).flat_map(|_| values.iter().copied()).collect();
        Dice::of(&all)
    }

    /// Uses one die of value `v` (returns whether one was there).
    pub fn take(&mut self, v: u8) -> bool {
        let n = self.len as usize;
        match self.vals[..n].iter().position(|&x| x == v) {
            Some(i) => {
                self.vals.copy_within(i + 1..n, i);
                self.len -= 1;
                self.vals[self.len as usize] = 0;
                true
            }
            None => false,
        }
    }

    /// The distinct values, largest first.
    pub fn distinct(&self) -> impl Iterator<Item = u8> + '_ {
        let v = self.values();
        (0..v.len())
            .filter(move |&i| i == 0 || v[i] != v[i - 1])
            .map(move |i| v[i])
    }

    /// The text of the dice (`6,5`; `-` for none).
    pub fn text(&self) -> String {
        if self.is_empty() {
            return "-".into();
        }
        let mut t = String::with_capacity(2 * self.len());
        for (i, &x) in self.values().iter().enumerate() {
            if i > 0 {
                t.push(',');
            }
            if x >= 10 {
                t.push_str(&x.to_string());
            } else {
                t.push(char::from(b'0' + x));
            }
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn a_double_is_played_twice_and_values_sort_largest_first() {
        assert_eq!(Dice::from_roll(&[3, 5], 2).values(), &[5, 3]);
        assert_eq!(Dice::from_roll(&[4, 4], 2).values(), &[4, 4, 4, 4]);
        assert_eq!(Dice::from_roll(&[4, 4], 1).values(), &[4, 4]);
        assert_eq!(Dice::from_roll(&[6], 2).values(), &[6]);
    }

    #[test]
    fn taking_a_die_removes_one_of_that_value() {
        let mut d = Dice::from_roll(&[2, 2], 2);
        assert!(d.take(2));
        assert_eq!(d.values(), &[2, 2, 2]);
        assert!(!d.take(5));
        let mut d = Dice::of(&[6, 1]);
        assert!(d.take(6));
        assert_eq!(d.values(), &[1]);
        assert_eq!(d.distinct().collect::<Vec<_>>(), vec![1]);
        assert_eq!(
            Dice::of(&[5, 5, 3]).distinct().collect::<Vec<_>>(),
            vec![5, 3]
        );
    }

    #[test]
    fn rolls_stay_within_the_faces_and_follow_the_seed() {
        let mut a = ChaCha8Rng::seed_from_u64(7);
        let mut b = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..200 {
            let d = Dice::roll(&mut a, 2, 6, 2);
            assert_eq!(d, Dice::roll(&mut b, 2, 6, 2));
            assert!(d.values().iter().all(|&v| (1..=6).contains(&v)));
            assert!(d.len() == 2 || d.len() == 4);
        }
    }
}
