//! Comparing two rule sets played on the same seeds: paired tests, since
//! game `i` of one arm and game `i` of the other share their seed.
//!
//! A rate (a seat's wins, draws, an ending) is compared with the exact
//! McNemar test: only the pairs whose outcome differs tell the rule sets
//! apart, and under "no difference" each such pair goes either way with
//! probability ½ (a binomial test on the discordant pairs). Lengths are
//! compared with the paired t-test on the per-seed differences. The
//! distributions come from `statrs`.

use serde::Serialize;
use statrs::distribution::{Binomial, ContinuousCDF, DiscreteCDF, StudentsT};

use crate::base::state::PlayerId;
use crate::simulate::{mean_sd, stats, Arm, GameResult, RunFile};

/// One statistic of a comparison: A, B, B - A and a two-sided p-value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diff {
    pub name: String,
    pub a: f64,
    pub b: f64,
    pub diff: f64,
    pub test: String,
    /// How many seed pairs the test used (for a rate: how many of them
    /// differ).
    pub pairs: u64,
    pub p_value: f64,
    pub significant: bool,
}

/// The exact McNemar test, two-sided: `b` pairs where only A has the
/// event, `c` where only B has it.
pub fn mcnemar_exact(b: u64, c: u64) -> f64 {
    let n = b + c;
    if n == 0 {
        return 1.0;
    }
    let binomial = Binomial::new(0.5, n).expect("p = 0.5 is a probability");
    (2.0 * binomial.cdf(b.min(c))).min(1.0)
}

/// The paired t-test, two-sided, on differences `d`.
pub fn paired_t(d: &[f64]) -> f64 {
    if d.len() < 2 {
        return 1.0;
    }
    let (mean, sd) = mean_sd(d);
    if sd == 0.0 {
        return if mean == 0.0 { 1.0 } else { 0.0 };
    }
    let n = d.len() as f64;
    let t = mean / (sd / n.sqrt());
    let dist = StudentsT::new(0.0, 1.0, n - 1.0).expect("n - 1 > 0 degrees of freedom");
    (2.0 * (1.0 - dist.cdf(t.abs()))).clamp(0.0, 1.0)
}

/// The games of the two arms with the same index (seed), side by side.
fn pairs<'a>(a: &'a Arm, b: &'a Arm) -> Vec<(&'a GameResult, &'a GameResult)> {
    let by_index: std::collections::HashMap<u64, &GameResult> =
        b.games.iter().map(|g| (g.index, g)).collect();
    a.games
        .iter()
        .filter_map(|g| by_index.get(&g.index).map(|h| (g, *h)))
        .collect()
}

/// Side-by-side statistics of two arms played under the same seeds.
pub fn compare(run: &RunFile, a: &Arm, b: &Arm) -> Vec<Diff> {
    let (sa, sb) = (stats(run, a), stats(run, b));
    let paired = pairs(a, b);
    let rate = |name: String, event: &dyn Fn(&GameResult) -> bool| {
        let n = paired.len().max(1) as f64;
        let (mut ka, mut kb, mut only_a, mut only_b) = (0u64, 0u64, 0u64, 0u64);
        for (x, y) in &paired {
            let (ex, ey) = (event(x), event(y));
            ka += ex as u64;
            kb += ey as u64;
            only_a += (ex && !ey) as u64;
            only_b += (ey && !ex) as u64;
        }
        let p = mcnemar_exact(only_a, only_b);
        Diff {
            name,
            a: ka as f64 / n,
            b: kb as f64 / n,
            diff: (kb as f64 - ka as f64) / n,
            test: "exact McNemar".into(),
            pairs: only_a + only_b,
            p_value: p,
            significant: p < 0.05,
        }
    };
    let mut out = Vec::new();
    for (p, seat) in sa.seats.iter().enumerate() {
        let p = p as PlayerId;
        out.push(rate(
            format!("{} ({}) wins", seat.player, seat.agent),
            &|g: &GameResult| g.winners.contains(&p),
        ));
    }
    out.push(rate("draws".into(), &|g: &GameResult| g.winners.is_empty()));
    let d: Vec<f64> = paired
        .iter()
        .map(|(x, y)| y.plies as f64 - x.plies as f64)
        .collect();
    let (ma, mb) = {
        let n = paired.len().max(1) as f64;
        (
            paired.iter().map(|(x, _)| x.plies as f64).sum::<f64>() / n,
            paired.iter().map(|(_, y)| y.plies as f64).sum::<f64>() / n,
        )
    };
    let p = paired_t(&d);
    out.push(Diff {
        name: "length (plies)".into(),
        a: ma,
        b: mb,
        diff: mb - ma,
        test: "paired t-test".into(),
        pairs: paired.len() as u64,
        p_value: p,
        significant: p < 0.05,
    });
    let endings: std::collections::BTreeSet<&String> = sa
        .endings
        .iter()
        .chain(&sb.endings)
        .map(|e| &e.ending)
        .collect();
    for e in endings {
        out.push(rate(format!("ended: {e}"), &|g: &GameResult| {
            &g.ending == e
        }));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mcnemar_matches_the_binomial_by_hand() {
        // 10 discordant pairs, 1 one way: 2 * (1 + 10) / 1024.
        assert!((mcnemar_exact(1, 9) - 22.0 / 1024.0).abs() < 1e-12);
        assert_eq!(mcnemar_exact(5, 5), 1.0);
        assert_eq!(mcnemar_exact(0, 0), 1.0);
        assert!(mcnemar_exact(0, 20) < 1e-5);
    }

    #[test]
    fn paired_t_matches_known_values() {
        // d = 1..=5: mean 3, sd sqrt(2.5), t = 4.2426 with 4 df: p = 0.01324.
        let p = paired_t(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        assert!((p - 0.013_24).abs() < 1e-4, "{p}");
        assert_eq!(paired_t(&[0.0, 0.0, 0.0]), 1.0);
        assert!(paired_t(&[1.0, -1.0, 1.0, -1.0]) > 0.99);
    }

    #[test]
    fn pairing_sees_what_independent_samples_miss() {
        // Every seed's game is 1 ply longer under B: the lengths' spread
        // hides it from an unpaired test, the paired test sees it.
        let game = |index: u64, plies: u32| GameResult {
            index,
            seed: index,
            winners: vec![0],
            ending: "x".into(),
            plies,
            search: vec![],
        };
        let a = Arm {
            options: vec![],
            games: (0..30).map(|i| game(i, 50 + 10 * i as u32)).collect(),
        };
        let b = Arm {
            options: vec!["o=1".into()],
            games: (0..30).map(|i| game(i, 51 + 10 * i as u32)).collect(),
        };
        let run = RunFile {
            variant: "v".into(),
            seed: 1,
            games: 30,
            shard: None,
            sweep: None,
            players: vec!["red".into()],
            seats: vec!["random".into()],
            arms: vec![a.clone(), b.clone()],
        };
        let diffs = compare(&run, &a, &b);
        let len = diffs.iter().find(|d| d.name.starts_with("length")).unwrap();
        assert!(len.significant && len.p_value < 1e-6, "{len:?}");
        assert_eq!(len.pairs, 30);
    }
}
