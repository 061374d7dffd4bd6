#!/usr/bin/env bash
# The test suite on x86-64 CPUs this machine is not: `cargo test --workspace` under qemu-user's
# emulation of older x86-64 models, each really lacking instruction sets (AESLAB_CPU_MASK only
# hides them from aeslab's detection). An instruction that runs without its runtime check is an
# illegal instruction here, not a passing test. Each model's default backend is checked too.
#
# Models (qemu 7.2, Debian 12): qemu64 (SSE2 only), Conroe (SSSE3), Westmere (AES-NI and
# PCLMULQDQ, no AVX), Haswell (AVX2, no VAES). Not `max`: qemu 7.2 computes the upper lane of
# VAES on ymm wrongly (AESENC's result of the lower lane's state); VAES and AVX-512 are tested on
# the hardware and through the masks of .ci/cpu-masks.
# Installs qemu-user if missing. One to two minutes per model on Zen 3.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(uname -m)" = x86_64 ] || { echo "test-x86-cpus: x86-64 hosts only"; exit 0; }
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
if ! command -v qemu-x86_64 >/dev/null 2>&1; then
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user >/dev/null
fi

cargo build --workspace --tests --quiet
start=$(date +%s)
# Haswell's model lists features TCG cannot offer (pcid, x2apic, …); qemu would warn about them
# on the program's stderr, which the CLI tests read, so they are turned off.
for entry in qemu64=ct64 Conroe=bitslice-sse Westmere=aesni Haswell,-pcid,-x2apic,-tsc-deadline,-hle,-invpcid,-rtm=aesni; do
    model=${entry%%=*}
    expect=${entry#*=}
    # `aeslab report --quick` measures every seed: half of a model's time under emulation. It
    # runs on qemu64, the model without AES-NI (the report's branch for a CPU without AES round
    # instructions); on the others it would only repeat what the native runs check.
    skip=()
    [ "$model" = qemu64 ] || skip=(-- --skip report_writes_every_section)
    runner="qemu-x86_64 -cpu $model"
    default=$($runner ./target/debug/aeslab cpu | sed -n 's/^- Default backend: //p')
    features=$($runner ./target/debug/aeslab cpu | sed -n 's/^- Features: //p')
    echo "== emulated ${model%%,*}: features [$features], default backend $default"
    if [ "$default" != "$expect" ]; then
        echo "test-x86-cpus: on $model dispatch chose $default, expected $expect"; exit 1
    fi
    log=$(mktemp)
    rc=0
    CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="$runner" AESLAB_TEST_RUNNER="$runner" \
        cargo test --workspace --no-fail-fast "${skip[@]}" >"$log" 2>&1 || rc=$?
    grep -E '^test result' "$log" | awk '{p += $4; f += $6} END {printf "   %d tests passed, %d failed, in %d test binaries\n", p, f, NR}'
    if [ "$rc" -ne 0 ]; then
        grep -E -A20 '^failures:' "$log" | sed -n '1,60p' || tail -40 "$log"
        echo "test-x86-cpus: cargo test failed on emulated $model (exit $rc)"; exit 1
    fi
    rm -f "$log"
done
echo "test-x86-cpus: passed on every model in $(( $(date +%s) - start ))s"
