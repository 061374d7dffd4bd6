#!/usr/bin/env bash
# Runs every cargo-fuzz target in fuzz/ for a bounded time and fails on the first crash.
#   scripts/fuzz-smoke.sh [SECONDS_PER_TARGET]      (default 60; env FUZZ_SECONDS also works)
# Installs what it needs: the nightly toolchain (cargo-fuzz's sanitizers need it) and cargo-fuzz.
# A crash leaves its input in fuzz/artifacts/<target>/; replay it with
#   (cd fuzz && cargo +nightly fuzz run <target> artifacts/<target>/crash-…)
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
seconds="${1:-${FUZZ_SECONDS:-60}}"

rustup toolchain list | grep '^nightly' >/dev/null || rustup toolchain install nightly --profile minimal
command -v cargo-fuzz >/dev/null 2>&1 || cargo install cargo-fuzz --locked

# cargo-fuzz builds in release, where rustc makes a crate's generic instances again in every
# crate that needs them. Each target used to reach the kernels through the library's inline
# functions (`Gcm::crypt` made the `dyn` engine inline), so each compiled every kernel anew,
# under the sanitizers' instrumentation: 16 min 19 s on Emerald Rapids (2026-12-03, 2 cores),
# 7 min 51 s with the instances shared (this nightly flag; cargo-fuzz appends RUSTFLAGS to its
# own). The library now dispatches out of line (`crate::ctr::engine`), which a user's crate
# needs too (scripts/check-downstream-code.sh); the flag stays, for any generic a target
# still instantiates. The runs below get the same flags, so they reuse the build.
export RUSTFLAGS="${RUSTFLAGS:+$RUSTFLAGS }-Zshare-generics=y"
cargo +nightly fuzz build
for target in $(cargo +nightly fuzz list); do
    echo "fuzz $target for ${seconds}s"
    # -timeout: a single input running over 10 s is a hang, reported like a crash.
    if ! cargo +nightly fuzz run "$target" -- -max_total_time="$seconds" -timeout=10 2>fuzz-"$target".log; then
        tail -n 40 fuzz-"$target".log
        echo "fuzz-smoke: target $target FAILED (input saved under fuzz/artifacts/$target/)"
        exit 1
    fi
    grep -E '^Done [0-9]+ runs' fuzz-"$target".log || true
    rm -f fuzz-"$target".log
done
echo "fuzz-smoke: every target ran ${seconds}s without a crash"
