//! Option values: the typed value of a variant option (a named house rule).
//!
//! Changes when options gain a type, or their command-line parsing changes.

use std::fmt;

use serde::Deserialize;

/// A value of a variant option (a named house rule).
#[derive(Clone, Debug, PartialEq, Deserialize, serde::Serialize)]
#[serde(untagged)]
pub enum Value {
    Bool(bool),
    Int(i64),
    /// A decimal (`komi: 7.5`); an integer is read as [`Value::Int`].
    Num(f64),
    Str(String),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Num(x) => write!(f, "{x}"),
            Value::Str(s) => write!(f, "{s}"),
        }
    }
}

impl Value {
    /// Parses option text given on a command line, typed like `like`.
    pub fn parse_like(text: &str, like: &Value) -> Result<Value, String> {
        match like {
            Value::Bool(_) => match text {
                "true" | "on" | "yes" | "1" => Ok(Value::Bool(true)),
                "false" | "off" | "no" | "0" => Ok(Value::Bool(false)),
                _ => Err(format!("expected true or false, found `{text}`")),
            },
            Value::Int(_) => text
                .parse()
                .map(Value::Int)
                .map_err(|_| format!("expected an integer, found `{text}`")),
            Value::Num(_) => match text.parse::<f64>() {
                Ok(x) if x.is_finite() => Ok(Value::Num(x)),
                _ => Err(format!("expected a decimal number, found `{text}`")),
            },
            Value::Str(_) => Ok(Value::Str(text.to_string())),
        }
    }
    /// The value as a decimal, when it is a number.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(*i as f64),
            Value::Num(x) => Some(*x),
            _ => None,
        }
    }
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Num(_) => "a decimal number",
            Value::Str(_) => "a string",
        }
    }
}
