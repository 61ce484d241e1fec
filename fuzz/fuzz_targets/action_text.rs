#![no_main]
//! Fuzz target `action_text`: see `fuzz/harness.rs`.

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::action_text(data));
