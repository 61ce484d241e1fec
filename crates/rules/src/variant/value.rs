//! Option values: the typed value of a variant option (a named house rule).
//!
//! Changes when options gain a type, or their command-line parsing changes.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;

/// A value of a variant option (a named house rule): a boolean, an
/// integer, a string, or a list or a map (string keys) of values.
#[derive(Clone, Debug, PartialEq, Deserialize, serde::Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum Value {
    Bool(bool),
    Int(i64),
    /// A decimal (`default: 7.5`); an integer is read as [`Value::Int`].
    Num(f64),
    Str(String),
    List(Vec<Value>),
    Map(BTreeMap<String, Value>),
}

/// How deep an option's lists and maps may nest.
const DEPTH_MAX: usize = 4;

impl fmt::Display for Value {
    /// As a command line writes it: a list `a,b,c`, a map `k:v,k:v`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Num(x) => write!(f, "{x}"),
            Value::Str(s) => write!(f, "{s}"),
            Value::List(items) => {
                for (i, x) in items.iter().enumerate() {
                    write!(f, "{}{x}", if i > 0 { "," } else { "" })?;
                }
                Ok(())
            }
            Value::Map(m) => {
                for (i, (k, x)) in m.iter().enumerate() {
                    write!(f, "{}{k}:{x}", if i > 0 { "," } else { "" })?;
                }
                Ok(())
            }
        }
    }
}

impl Value {
    /// Parses option text given on a command line, typed like `like`: a
    /// list as `a,b,c` (its items typed like the default's first), a map as
    /// `key:value,key:value`.
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
            Value::List(items) => {
                let item = scalar_like(items.first())?;
                if text.trim().is_empty() {
                    return Ok(Value::List(Vec::new()));
                }
                text.split(',')
                    .map(|t| Value::parse_like(t.trim(), &item))
                    .collect::<Result<_, _>>()
                    .map(Value::List)
            }
            Value::Map(m) => {
                let mut out = BTreeMap::new();
                for pair in text.split(',').filter(|t| !t.trim().is_empty()) {
                    let (k, v) = pair.split_once(':').ok_or_else(|| {
                        format!("expected KEY:VALUE pairs separated by commas, found `{pair}`")
                    })?;
                    let k = k.trim();
                    let item = scalar_like(m.get(k).or_else(|| m.values().next()))?;
                    out.insert(k.to_string(), Value::parse_like(v.trim(), &item)?);
                }
                Ok(Value::Map(out))
            }
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

    /// A boolean, an integer or a string (what attributes hold).
    pub(crate) fn is_scalar(&self) -> bool {
        !matches!(self, Value::List(_) | Value::Map(_))
    }

    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Num(_) => "a decimal number",
            Value::Str(_) => "a string",
            Value::List(_) => "a list",
            Value::Map(_) => "a map",
        }
    }

    /// Why the value cannot be an option's (lists and maps nested too deep).
    pub(crate) fn problem(&self) -> Option<String> {
        fn depth(v: &Value) -> usize {
            match v {
                Value::List(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
                Value::Map(m) => 1 + m.values().map(depth).max().unwrap_or(0),
                _ => 0,
            }
        }
        (depth(self) > DEPTH_MAX)
            .then(|| format!("lists and maps nest at most {DEPTH_MAX} deep in an option"))
    }
}

/// What the items of a list (or the values of a map) given on a command
/// line are typed like: the default's own (a string when it has none).
fn scalar_like(item: Option<&Value>) -> Result<Value, String> {
    match item {
        None => Ok(Value::Str(String::new())),
        Some(Value::List(_) | Value::Map(_)) => Err(
            "an option of nested lists or maps is set in the variant's YAML, not on a command line"
                .into(),
        ),
        Some(v) => Ok(v.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::Value;

    fn strs(items: &[&str]) -> Value {
        Value::List(items.iter().map(|s| Value::Str(s.to_string())).collect())
    }

    #[test]
    fn lists_and_maps_parse_from_a_command_line_and_show_the_same() {
        let like = strs(&["b2", "e5"]);
        let v = Value::parse_like("a1, c3,d4", &like).unwrap();
        assert_eq!(v, strs(&["a1", "c3", "d4"]));
        assert_eq!(v.to_string(), "a1,c3,d4");
        assert_eq!(Value::parse_like(&v.to_string(), &like).unwrap(), v);
        let ints = Value::List(vec![Value::Int(1)]);
        let e = Value::parse_like("1,x", &ints).unwrap_err();
        assert!(e.contains("expected an integer, found `x`"), "{e}");
        let map: Value = serde_json::from_str(r#"{"loot": 2, "storm": 6}"#).unwrap();
        let v = Value::parse_like("loot:3,bomb:1", &map).unwrap();
        assert_eq!(v.to_string(), "bomb:1,loot:3");
        assert!(Value::parse_like("loot", &map)
            .unwrap_err()
            .contains("KEY:VALUE"));
        let nested: Value = serde_json::from_str("[[1]]").unwrap();
        assert!(Value::parse_like("1", &nested)
            .unwrap_err()
            .contains("YAML"));
        let deep: Value = serde_json::from_str("[[[[[1]]]]]").unwrap();
        assert!(deep.problem().unwrap().contains("4 deep"));
        assert_eq!(nested.problem(), None);
    }
}
