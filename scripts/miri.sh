#!/usr/bin/env bash
# Miri on the portable code: the library's unit tests (key schedule, bitsliced S-box circuit,
# AEZ offsets) and tests/portable.rs (ct64, table, the FACE cache at every level, AEZ on ct64,
# ACE on scalar). Undefined behaviour fails the run. Installs the nightly toolchain and Miri.
set -euo pipefail
cd "$(dirname "$0")/.."

rustup toolchain list | grep '^nightly' >/dev/null || rustup toolchain install nightly --profile minimal
rustup +nightly component list --installed | grep '^miri' >/dev/null || rustup +nightly component add miri rust-src
cargo +nightly miri setup >/dev/null

# The known-answer files live outside the crate: Miri's isolation would refuse to open them.
export MIRIFLAGS="${MIRIFLAGS:--Zmiri-disable-isolation}"
start=$(date +%s)
cargo +nightly miri test -p aeslab --lib --test portable
echo "miri: clean in $(( $(date +%s) - start ))s"
