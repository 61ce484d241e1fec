//! Arranging an army by hand, piece by piece: the cells of a setup zone and
//! the army's letters, commands to place, swap and clear, and the setup
//! string once every piece stands. Works on names only (no game), so the
//! network client and `play` share it.

use crate::session::SetupPrompt;

/// An arrangement in progress.
pub struct Placement {
    prompt: SetupPrompt,
    /// The letter on each cell of the prompt, in its order.
    cells: Vec<Option<char>>,
}

/// What a command did.
#[derive(Debug, PartialEq, Eq)]
pub enum Step {
    /// Something to show; the arrangement goes on.
    Show(String),
    /// Every piece stands: the setup string to submit.
    Done(String),
}

pub const HELP: &str = "place CELL LETTER (or CELL LETTER), swap CELL CELL, clear CELL, show, done";

impl Placement {
    pub fn new(prompt: SetupPrompt) -> Placement {
        let n = prompt.cells.len();
        Placement {
            prompt,
            cells: vec![None; n],
        }
    }

    fn cell(&self, name: &str) -> Result<usize, String> {
        self.prompt
            .cells
            .iter()
            .position(|c| c.eq_ignore_ascii_case(name))
            .ok_or_else(|| format!("{name} is not a cell of your setup zone"))
    }

    /// How many of `code` are still to place.
    fn left(&self, code: char) -> u32 {
        let total = self
            .prompt
            .army
            .iter()
            .find(|k| k.code == code)
            .map_or(0, |k| k.count);
        let placed = self.cells.iter().filter(|c| **c == Some(code)).count() as u32;
        total.saturating_sub(placed)
    }

    /// What is left to place, as `KIND-LETTER Name ×count, …`.
    pub fn remaining(&self) -> String {
        let left: Vec<String> = self
            .prompt
            .army
            .iter()
            .filter(|k| self.left(k.code) > 0)
            .map(|k| format!("{} {} x{}", k.code, k.name, self.left(k.code)))
            .collect();
        if left.is_empty() {
            "every piece stands: `done` to submit".into()
        } else {
            format!("to place: {}", left.join(", "))
        }
    }

    /// The zone with the letters placed so far, one row of cells per line.
    pub fn show(&self) -> String {
        let mut out = String::new();
        for (i, (name, c)) in self.prompt.cells.iter().zip(&self.cells).enumerate() {
            out.push_str(&format!("{name:>4}={}", c.unwrap_or('.')));
            if i % 10 == 9 {
                out.push('\n');
            }
        }
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&self.remaining());
        out
    }

    /// Runs one command (see [`HELP`]).
    pub fn command(&mut self, line: &str) -> Result<Step, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["show"] => Ok(Step::Show(self.show())),
            ["done"] => self.done(),
            ["swap", a, b] => {
                let (a, b) = (self.cell(a)?, self.cell(b)?);
                self.cells.swap(a, b);
                Ok(Step::Show(self.remaining()))
            }
            ["clear", a] => {
                let a = self.cell(a)?;
                self.cells[a] = None;
                Ok(Step::Show(self.remaining()))
            }
            ["place", cell, letter] | [cell, letter] if letter.chars().count() == 1 => {
                let i = self.cell(cell)?;
                let code = letter.chars().next().expect("one letter");
                if !self.prompt.army.iter().any(|k| k.code == code) {
                    return Err(format!("`{code}` is no letter of your army"));
                }
                let old = self.cells[i].take();
                if self.left(code) == 0 {
                    self.cells[i] = old;
                    return Err(format!("every {code} already stands"));
                }
                self.cells[i] = Some(code);
                Ok(Step::Show(self.remaining()))
            }
            _ => Err(format!("placing your army: {HELP}")),
        }
    }

    fn done(&self) -> Result<Step, String> {
        if self.prompt.army.iter().any(|k| self.left(k.code) > 0) {
            return Err(format!("not yet: {}", self.remaining()));
        }
        Ok(Step::Done(
            self.cells.iter().map(|c| c.unwrap_or('.')).collect(),
        ))
    }
}

/// A setup string from a spec read on this computer: letters, `random`,
/// FILE (its first setup line) or FILE:LINE (the LINE-th setup line,
/// counting from 1, lines starting with `#` left out; one line of a Gravon
/// collection).
pub fn read_spec(spec: &str) -> Result<String, String> {
    let spec = spec.trim();
    let (file, n) = match spec.rsplit_once(':') {
        Some((f, n)) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => {
            (f, n.parse::<usize>().map_err(|e| e.to_string())?)
        }
        _ => (spec, 1),
    };
    let path = std::path::Path::new(file);
    if spec == "random" || !path.is_file() {
        return Ok(spec.to_string());
    }
    let text = crate::base::limits::read_user_file(path, file)?;
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    lines
        .get(n.wrapping_sub(1))
        .map(|l| l.to_string())
        .ok_or_else(|| {
            format!(
                "{file}: there is no setup line {n} (it has {})",
                lines.len()
            )
        })
}
