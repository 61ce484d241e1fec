//! The `notation:` section: how moves are written, each setting defaulting
//! to [`Notation::default`].
//!
//! Changes when the notation gains a setting.

use crate::rules::variant::raw::RawNotation;
use crate::rules::variant::Notation;

/// The notation, unset fields taken from the default.
pub(super) fn notation(raw: Option<RawNotation>) -> Notation {
    let n = raw.unwrap_or_default();
    let d = Notation::default();
    Notation {
        style: n.style.unwrap_or(d.style),
        capture_mark: n.capture_mark.unwrap_or(d.capture_mark),
        check: n.check.unwrap_or(d.check),
        mate: n.mate.unwrap_or(d.mate),
    }
}
