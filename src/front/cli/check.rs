//! `check`: how problems found in variant files are reported.

use crate::base::limits::escape_controls;
use crate::engine::Engine;
use crate::front::session::parse_pairs;

pub(super) fn check(variants: &[String], options: &[String]) -> i32 {
    let overrides = match parse_pairs(options) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {}", escape_controls(&e));
            return 2;
        }
    };
    let mut bad = false;
    for v in variants {
        match Engine::load(v, &overrides) {
            Ok(e) => println!(
                "{}",
                escape_controls(&format!("{}: ok ({})", v, e.variant.name))
            ),
            Err(err) => {
                bad = true;
                for d in err.0 {
                    println!("{}", escape_controls(&d.to_string()));
                }
            }
        }
    }
    i32::from(bad)
}
