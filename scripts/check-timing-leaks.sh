#!/usr/bin/env bash
# Statistical constant-time check (dudect style): times every aeslab path this CPU has on a
# fixed and on random secrets, in random order, and fails when Welch's t says the two classes
# take different times (|t| > 4.5) — or when the variable-time `table` backend, the negative
# control, is NOT flagged (the run could not have seen a leak). It covers what valgrind cannot
# run (VAES, AVX-512, the ymm/zmm GHASH, ACE avx512) and the GCM, AEZ and ACE-AE tag checks.
#
#   scripts/check-timing-leaks.sh            # 100 000 timings per path (several minutes)
#   scripts/check-timing-leaks.sh --short    # CI: 30 000 per path, 200 000 for the control (about a minute)
#   scripts/check-timing-leaks.sh -- ARGS    # passed on to aeslab-dudect (see its --help)
#
# Statistical, so not part of `cargo test`. A leak found here is re-run once: on a shared
# machine a burst of noise that happens to fall on one class can push |t| over the threshold,
# a real leak does so again.
set -euo pipefail
cd "$(dirname "$0")/.."

args=()
case "${1:-}" in
    --short) args=(--samples 30000 --control-samples 200000); shift ;;
    --) shift ;;
esac
args+=("$@")

cargo build --release -q -p aeslab-ctgrind --bin aeslab-dudect
bin=target/release/aeslab-dudect
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if "$bin" "${args[@]}" | tee "$log"; then
    exit 0
fi
# Re-run each path that failed, alone, with the same settings.
failed=0
while IFS= read -r name; do
    echo "== re-running: $name"
    "$bin" "${args[@]}" --only "$name" --exact || failed=1
done < <(sed -n -e 's/^LEAKS    \([^:]*\):.*/\1/p' -e 's/^NOT FLAGGED \([^:]*\):.*/\1/p' "$log")
exit "$failed"
