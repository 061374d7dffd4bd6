//! Empty: this crate only runs `crates/aeslab/tests/no_alloc.rs` (see Cargo.toml).
#![no_std]
