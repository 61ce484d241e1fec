//! The legend under a text board: what each two-letter code on it means
//! (`W white, B black; A Alpha, B Beta, …`), from the variant's
//! player names and the kinds' symbols and names; the symbols of empty
//! cells (marks, cell counters) and the lines under the board for them.
//!
//! Changes when the text board writes its pieces differently.

use crate::view::View;
use crate::view::Views;

/// The width the legend wraps at.
const WIDTH: usize = 78;

impl<'e> Views<'e> {
    /// The legend of the pieces a view shows on the board: the owners'
    /// initials, then each kind's symbol and name in the variant's order
    /// (`?` for pieces the viewer does not know). Empty for an empty board.
    pub fn legend(&self, view: &View) -> String {
        let v = &self.engine.variant;
        let shown: Vec<_> = view.cells.iter().flatten().collect();
        if shown.is_empty() {
            return String::new();
        }
        let mut items: Vec<String> = Vec::new();
        for p in &v.players {
            if shown.iter().any(|x| &x.owner == p) {
                let initial = p.chars().next().unwrap_or('?').to_ascii_uppercase();
                items.push(format!("{initial} {p}"));
            }
        }
        if let Some(last) = items.last_mut() {
            last.push(';');
        }
        for &i in &v.show_order {
            let k = &v.kinds[i];
            if shown
                .iter()
                .any(|x| x.kind.as_deref() == Some(k.name.as_str()))
            {
                items.push(format!("{} {}", k.symbol, k.display));
            }
        }
        if shown.iter().any(|x| x.kind.is_none()) {
            items.push("? unknown".into());
        }
        let mut out = String::new();
        let mut line = String::from(" ");
        for (n, it) in items.iter().enumerate() {
            let sep = if n + 1 < items.len() && !it.ends_with(';') {
                ","
            } else {
                ""
            };
            let word = format!(" {it}{sep}");
            if line.len() + word.len() > WIDTH && line.len() > 1 {
                out.push_str(&line);
                out.push('\n');
                line = String::from("   ");
            }
            line.push_str(&word);
        }
        out.push_str(&line);
        out.push('\n');
        out
    }

    /// The symbol of an empty cell: a cell counter (`$2` for 2 coins), else
    /// the symbol of its first known mark, else `.`.
    pub(super) fn cell_symbol(&self, view: &View, c: usize) -> String {
        let name = self
            .engine
            .variant
            .board
            .cell_name(c as crate::base::geometry::Cell);
        if let Some((_, _, v)) = view.cell_counters.iter().find(|x| x.1 == name) {
            return format!("${v}");
        }
        let here = || view.marks.iter().filter(|m| m.cell == name);
        let symbol = |value: &str| {
            self.engine
                .variant
                .mark_symbols
                .iter()
                .find(|(k, _)| k == value)
                .map(|(_, v)| v.clone())
        };
        // A mark with a declared symbol first (in mark order), else the
        // first two letters of the first mark.
        here()
            .find_map(|m| symbol(&m.value))
            .or_else(|| here().next().map(|m| m.value.chars().take(2).collect()))
            .unwrap_or_else(|| ".".into())
    }

    /// Lines under the board for variants with cell marks or cell counters:
    /// public piece attributes, counters, containers in order, cell counters.
    pub(super) fn render_extras(&self, view: &View) -> String {
        if view.marks.is_empty() && view.cell_counters.is_empty() {
            return String::new();
        }
        let b = &self.engine.variant.board;
        let mut out = String::new();
        for (c, p) in view.cells.iter().enumerate() {
            if let Some(p) = p {
                if !p.attrs.is_empty() {
                    let attrs: Vec<String> =
                        p.attrs.iter().map(|(k, v)| format!("{k}={v}")).collect();
                    out.push_str(&format!(
                        "  {} {} {}: {}\n",
                        b.cell_name(c as crate::base::geometry::Cell),
                        p.owner,
                        self.symbol_of(p.kind.as_deref()),
                        attrs.join(" ")
                    ));
                }
            }
        }
        let mut names: Vec<&str> = view.counters.iter().map(|c| c.0.as_str()).collect();
        names.dedup();
        for n in names {
            if view.counters.iter().all(|c| c.0 != n || c.2 == 0) {
                continue;
            }
            let parts: Vec<String> = view
                .counters
                .iter()
                .filter(|c| c.0 == n)
                .map(|(_, p, v)| match p {
                    Some(p) => format!("{p} {v}"),
                    None => v.to_string(),
                })
                .collect();
            out.push_str(&format!("  {n}: {}\n", parts.join(", ")));
        }
        for c in &view.containers {
            let mut items: Vec<String> = c
                .pieces
                .iter()
                .map(|p| self.symbol_of(p.kind.as_deref()))
                .collect();
            if let Some(list) = &c.items {
                items.extend(list.iter().map(|i| i.as_deref().unwrap_or("?").to_string()));
            }
            out.push_str(&format!(
                "  {} {}: {}\n",
                c.name,
                c.owner.as_deref().unwrap_or("shared"),
                if items.is_empty() {
                    "-".to_string()
                } else {
                    items.join(" ")
                }
            ));
        }
        out
    }
}
