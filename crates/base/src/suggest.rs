//! "Did you mean": the known name closest to a misspelt one.
//!
//! Changes when how close a name must be to be suggested changes.

/// Edit distance counting an insertion, a deletion, a substitution or a
/// swap of two neighbouring letters as one edit (optimal string alignment).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// The candidate closest to `word`, if one is close enough to be a likely
/// misspelling (one edit for short names, two from five letters up); ties
/// go to the first.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let most = if word.chars().count() >= 5 { 2 } else { 1 };
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = edit_distance(&word.to_lowercase(), &c.to_lowercase());
        if d <= most && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// ` (did you mean `x`?)`, or nothing when no candidate is close.
pub fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(word, candidates)
        .map(|c| format!(" (did you mean `{c}`?)"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swaps_and_typos_are_close_other_names_are_not() {
        assert_eq!(edit_distance("wokrer", "worker"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        let kinds = ["archer", "worker", "fox", "farmer"];
        assert_eq!(closest("wokrer", kinds), Some("worker"));
        assert_eq!(closest("Archerr", kinds), Some("archer"));
        assert_eq!(closest("fxo", kinds), Some("fox"));
        assert_eq!(closest("dragon", kinds), None);
        assert_eq!(did_you_mean("dragon", kinds), "");
        assert_eq!(did_you_mean("famrer", kinds), " (did you mean `farmer`?)");
    }
}
