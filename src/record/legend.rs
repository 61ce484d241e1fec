//! The legend under a text board: what each two-letter code on it means
//! (`W white, B black; A Alpha, B Beta, …`), from the variant's
//! player names and the kinds' symbols and names.
//!
//! Changes when the text board writes its pieces differently.

use crate::record::view::View;
use crate::record::view::Views;

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
}
