#![no_main]
//! Fuzz target `position_record`: see `fuzz/harness.rs`.

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::position_record(data));
