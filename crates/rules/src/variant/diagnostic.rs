//! How a failed load is reported: each problem as `file:line:col: message`.
//!
//! Changes when the shape or printing of load errors changes.

use std::fmt;

/// One problem found while loading a variant, with its place in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub file: String,
    pub line: u64,
    pub column: u64,
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A problem with no file (an option value given on a command or a
        // REPL line) is its message alone.
        if self.file.is_empty() {
            return write!(f, "{}", self.message);
        }
        write!(
            f,
            "{}:{}:{}: {}",
            self.file, self.line, self.column, self.message
        )
    }
}

/// All problems found while loading a variant.
#[derive(Clone, Debug)]
pub struct LoadError(pub Vec<Diagnostic>);

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LoadError {}
