#!/usr/bin/env bash
# Miri in CI: tests/miri.rs, short inputs through the portable code and the AES-NI kernels
# (with PCLMULQDQ for GHASH) compiled in, since under Miri feature detection reports what the
# build enables: AEZ's pair loads and stores, GCM's kernel and its tail buffer, CTR to the end
# of its counter space. About 5 minutes on 2 cores. scripts/miri.sh runs the larger portable
# suite (by hand: it takes longer than CI has). Undefined behaviour — out-of-bounds pointer
# arithmetic, a pointer used after its borrow was invalidated, uninitialised reads — fails it.
# Installs nightly's Miri.
set -euo pipefail
cd "$(dirname "$0")/.."
rustup toolchain install nightly --profile minimal >/dev/null 2>&1 || true
rustup component add --toolchain nightly miri rust-src >/dev/null
# A target directory of its own: the flags below change every crate's build.
export CARGO_TARGET_DIR=target/miri
export RUSTFLAGS="-C target-feature=+ssse3,+aes,+pclmulqdq"
# The test reads no files and no environment beyond what Miri isolates.
cargo +nightly miri test -p aeslab --test miri "$@"
