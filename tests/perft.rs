//! Perft counts as data: every `tests/perft/*.perft` file names a variant,
//! options and a position, then `perft DEPTH COUNT` lines. The default run
//! checks the counts of at most `NODE_LIMIT` nodes; `--ignored` checks all.
//!
//! ```text
//! # a comment
//! variant: chess
//! options: suicide=false          (optional, NAME=VALUE separated by spaces)
//! position: start                 (or a FEN line)
//! perft 1 20
//! after: e2-e4 e7-e5              (optional: actions played from it first)
//! position: ...                   (more positions, each with its counts)
//! ```

use std::path::PathBuf;

use sandtable::engine::Engine;

const NODE_LIMIT: u64 = 200_000;

struct PerftFile {
    path: PathBuf,
    variant: String,
    options: Vec<(String, String)>,
    /// Each position with its `(depth, count)` lines.
    positions: Vec<(String, Vec<(u32, u64)>)>,
    /// The actions played from each position first (`after:`).
    after: Vec<Vec<String>>,
}

fn read(path: PathBuf) -> PerftFile {
    let text = std::fs::read_to_string(&path).unwrap();
    let mut f = PerftFile {
        path: path.clone(),
        variant: String::new(),
        options: Vec::new(),
        positions: vec![("start".into(), Vec::new())],
        after: vec![Vec::new()],
    };
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        let at = || format!("{}:{}", path.display(), i + 1);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(v) = line.strip_prefix("variant:") {
            f.variant = v.trim().to_string();
        } else if let Some(o) = line.strip_prefix("options:") {
            for pair in o.split_whitespace() {
                let (k, v) = pair
                    .split_once('=')
                    .unwrap_or_else(|| panic!("{}: expected NAME=VALUE", at()));
                f.options.push((k.to_string(), v.to_string()));
            }
        } else if let Some(p) = line.strip_prefix("position:") {
            // The first `position:` replaces the implicit start.
            if f.positions.len() == 1 && f.positions[0].1.is_empty() && f.after[0].is_empty() {
                f.positions.clear();
                f.after.clear();
            }
            f.positions.push((p.trim().to_string(), Vec::new()));
            f.after.push(Vec::new());
        } else if let Some(a) = line.strip_prefix("after:") {
            *f.after.last_mut().unwrap() = a.split_whitespace().map(String::from).collect();
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut it = rest.split_whitespace().map(|n| n.parse::<u64>());
            match (it.next(), it.next()) {
                (Some(Ok(d)), Some(Ok(n))) => f.positions.last_mut().unwrap().1.push((d as u32, n)),
                _ => panic!("{}: expected `perft DEPTH COUNT`", at()),
            }
        } else {
            panic!("{}: cannot read `{line}`", at());
        }
    }
    assert!(!f.variant.is_empty(), "{}: no `variant:`", path.display());
    f
}

fn files() -> Vec<PerftFile> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/perft");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "perft"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty());
    paths.into_iter().map(read).collect()
}

fn run(limit: u64) {
    let mut checked = 0;
    for f in files() {
        let engine = Engine::load(&f.variant, &f.options)
            .unwrap_or_else(|e| panic!("{}: {e}", f.path.display()));
        for ((position, counts), after) in f.positions.iter().zip(&f.after) {
            let mut state = if position == "start" {
                engine.new_game(1, &[])
            } else {
                engine
                    .parse_fen(position, 1)
                    .unwrap_or_else(|e| panic!("{}: {e}", f.path.display()))
            };
            for text in after {
                let a = engine
                    .parse_action(&state, text)
                    .unwrap_or_else(|e| panic!("{}: {position}: `{text}`: {e}", f.path.display()));
                engine
                    .apply(&mut state, &a)
                    .unwrap_or_else(|e| panic!("{}: {position}: `{text}`: {e}", f.path.display()));
            }
            let position = &format!("{position} after {}", after.join(" "));
            // Every depth from one walk (as `sandtable perft` counts), and
            // the deepest again on its own.
            let within: Vec<(u32, u64)> = counts
                .iter()
                .copied()
                .filter(|&(_, n)| n <= limit)
                .collect();
            let Some(&(deepest, deepest_count)) = within.iter().max() else {
                continue;
            };
            let levels = engine.perft_levels(&state, deepest).unwrap();
            for &(depth, count) in &within {
                assert_eq!(
                    levels[depth as usize - 1],
                    count,
                    "{}: {position}: perft {depth} (one walk)",
                    f.path.display()
                );
                checked += 1;
            }
            let got = engine.perft(&state, deepest).unwrap();
            assert_eq!(
                got,
                deepest_count,
                "{}: {position}: perft {deepest}",
                f.path.display()
            );
        }
    }
    assert!(checked > 0);
}

#[test]
fn perft_counts_up_to_the_node_limit() {
    run(NODE_LIMIT);
}

#[test]
#[ignore = "deep counts: minutes"]
fn perft_counts_all() {
    run(u64::MAX);
}
