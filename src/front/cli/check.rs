//! `check`: how problems found in variant files are reported.

use crate::engine::Engine;
use crate::front::session::parse_pairs;

pub(super) fn check(variants: &[String], options: &[String]) -> i32 {
    let overrides = match parse_pairs(options) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let mut bad = false;
    for v in variants {
        match Engine::load(v, &overrides) {
            Ok(e) => println!("{}: ok ({})", v, e.variant.name),
            Err(err) => {
                bad = true;
                for d in err.0 {
                    println!("{d}");
                }
            }
        }
    }
    i32::from(bad)
}
