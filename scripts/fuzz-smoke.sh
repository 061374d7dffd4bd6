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
