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
    Str(String),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
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
            Value::Str(_) => Ok(Value::Str(text.to_string())),
        }
    }
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Str(_) => "a string",
        }
    }
}
