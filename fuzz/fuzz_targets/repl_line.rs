#![no_main]
//! Fuzz target `repl_line`: see `fuzz/harness.rs`.

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::repl_line(data));
