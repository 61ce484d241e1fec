//! The `options:` section: the declared options, with the command-line
//! overrides applied.
//!
//! Changes when how options are declared or overridden changes.

use super::option_error;
use crate::variant::raw::RawVariant;
use crate::variant::{Diagnostic, OptionSpec, Value};

/// The declared options, each set to its override when one is given, and a
/// problem for each override that names no option or has the wrong type.
pub(super) fn options(
    raw: &RawVariant,
    overrides: &[(String, String)],
) -> (Vec<OptionSpec>, Vec<Diagnostic>) {
    let mut options: Vec<OptionSpec> = raw
        .options
        .iter()
        .filter_map(|(name, o)| o.as_ref().map(|o| (name, o)))
        .map(|(name, o)| OptionSpec {
            name: name.clone(),
            default: o.value.default.clone(),
            value: o.value.default.clone(),
            doc: o.value.doc.clone(),
        })
        .collect();
    let mut override_errors = Vec::new();
    for o in &options {
        if let Some(p) = o.default.problem() {
            override_errors.push(option_error(format!("option `{}`: {p}", o.name)));
        }
    }
    for (k, v) in overrides {
        match options.iter_mut().find(|o| &o.name == k) {
            Some(o) => match Value::parse_like(v, &o.default) {
                Ok(val) => o.value = val,
                Err(e) => override_errors.push(option_error(format!("option `{k}`: {e}"))),
            },
            None => {
                let known: Vec<_> = raw.options.keys().cloned().collect();
                override_errors.push(option_error(format!(
                    "unknown option `{k}` (this variant has: {})",
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                )))
            }
        }
    }
    (options, override_errors)
}

#[cfg(test)]
mod tests {
    use crate::variant::load::tests::{load, MINI};

    #[test]
    fn options_resolve_and_override() {
        assert_eq!(load(MINI, &[]).unwrap().repetition_limit, Some(2));
        assert_eq!(load(MINI, &[("n", "4")]).unwrap().repetition_limit, Some(4));
        let e = load(MINI, &[("n", "many")]).unwrap_err().to_string();
        assert!(e.contains("expected an integer"), "{e}");
        let e = load(MINI, &[("m", "1")]).unwrap_err().to_string();
        assert!(e.contains("unknown option `m`"), "{e}");
    }
}
