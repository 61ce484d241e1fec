#![no_main]
//! Fuzz target `variant_yaml`: see `fuzz/harness.rs`.

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::variant_yaml(data));
