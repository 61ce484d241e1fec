#![no_main]
//! Fuzz target `net_message`: see `fuzz/harness.rs`.

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::net_message(data));
