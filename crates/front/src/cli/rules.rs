//! `rules`: the variant's rules summary in Markdown, generated from its
//! declarations and its script's hooks.

use crate::base::limits::escape_controls;
use crate::rules::variant::describe::rules_markdown;
use crate::session::parse_pairs;

/// Prints the summary of `variant` under `options`; exit 1 (with each
/// problem on standard error) when it does not load.
pub(super) fn rules(variant: &str, options: &[String]) -> Result<i32, String> {
    let overrides = parse_pairs(options)?;
    match crate::engine::Engine::load(variant, &overrides) {
        Ok(e) => {
            print!("{}", escape_controls(&rules_markdown(&e.variant)));
            Ok(0)
        }
        Err(err) => {
            for d in err.0 {
                eprintln!("{}", escape_controls(&d.to_string()));
            }
            Ok(1)
        }
    }
}
