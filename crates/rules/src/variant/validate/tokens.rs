//! Checking `tokens:`: the kinds of things that lie on cells (tile faces,
//! cards), each a name with attributes, with errors at the token's line.
//!
//! Changes when tokens gain more than plain attributes.

use super::Ctx;
use crate::variant::raw::RawVariant;
use crate::variant::{Token, Value};

fn is_word(s: &str) -> bool {
    !s.is_empty() && s.len() <= 64 && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The declared tokens, in the order written.
pub(super) fn tokens(raw: &RawVariant, cx: &mut Ctx) -> Vec<Token> {
    cx.from("tokens");
    let mut out = Vec::new();
    for (name, t) in &raw.tokens {
        if !is_word(name) {
            cx.err_at(
                t.referenced,
                format!("tokens: `{name}` is not a name (letters, digits and `_`)"),
            );
            continue;
        }
        let mut attrs: Vec<(String, Value)> = Vec::new();
        for (k, v) in &t.value {
            if !is_word(k) || k == "name" {
                cx.err_at(
                    t.referenced,
                    format!("tokens.{name}: `{k}` cannot be an attribute's name"),
                );
                continue;
            }
            if !v.is_scalar() {
                cx.err_at(
                    t.referenced,
                    format!("tokens.{name}.{k}: an attribute is a boolean, an integer or a string, found {}", v.type_name()),
                );
                continue;
            }
            attrs.push((k.clone(), v.clone()));
        }
        out.push(Token {
            name: name.clone(),
            attrs,
        });
    }
    out
}
