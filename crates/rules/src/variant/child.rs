//! What a file may say about the variant it extends, checked before it is
//! laid over its base: a piece kind the base lacks must be a whole new kind
//! (else it is probably misspelt), and `name: value` under `options:` sets
//! the default of an option the base declares.
//!
//! Changes when what a child variant may add or change changes.

use super::raw::RawVariant;
use super::Diagnostic;
use crate::base::suggest::did_you_mean;

/// The problems of `child` (shown as `file`) laid over `base` (what the
/// files before it merged to; empty for the first file of the chain).
pub(super) fn child_problems(base: &RawVariant, child: &RawVariant, file: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let has_base = child.extends.is_some();
    let at = |loc: serde_saphyr::Location, message: String| Diagnostic {
        file: file.to_string(),
        line: loc.line().max(1),
        column: loc.column().max(1),
        message,
    };
    for (name, piece) in &child.pieces {
        let Some(piece) = piece else { continue };
        if !has_base || base.pieces.contains_key(name) || piece.value.symbol.is_some() {
            continue;
        }
        let kinds = base.pieces.keys().map(String::as_str);
        let message = if base.removed.contains(&format!("pieces.{name}")) {
            format!("piece kind `{name}` was removed by a base variant (`{name}: ~`); to add it back, give it a `symbol`")
        } else {
            format!(
                "unknown piece kind `{name}`{}; to add a new kind, give it a `symbol`",
                did_you_mean(name, kinds)
            )
        };
        out.push(at(piece.referenced, message));
    }
    for (name, option) in &child.options {
        let Some(option) = option else { continue };
        if !option.value.only_default {
            continue;
        }
        let declared = base.options.get(name).and_then(Option::as_ref);
        let new = &option.value.default;
        let message = match declared {
            None if !has_base => format!(
                "option `{name}` is declared as `{name}: {{ default: {new}, doc: \"...\" }}` (a plain value sets the default of an option the base variant declares)"
            ),
            None if base.removed.contains(&format!("options.{name}")) => format!(
                "option `{name}` was removed by a base variant (`{name}: ~`), so it has no default to set; to declare it again, write `{name}: {{ default: {new}, doc: \"...\" }}`"
            ),
            None => format!(
                "the base variant has no option `{name}`{} to set; to declare a new one, write `{name}: {{ default: {new}, doc: \"...\" }}`",
                did_you_mean(name, base.options.keys().map(String::as_str))
            ),
            Some(d) if d.value.default.type_name() != new.type_name() => format!(
                "option `{name}` is {} (default {}); found {} `{new}`",
                d.value.default.type_name(),
                d.value.default,
                new.type_name()
            ),
            Some(_) => continue,
        };
        out.push(at(option.referenced, message));
    }
    out
}
