#!/usr/bin/env bash
# aarch64 on an x86-64 machine: cross-builds aeslab, runs `cargo test --workspace` for aarch64
# under qemu-user (a cargo runner), then checks the aarch64 binary's `kat aez`, `kat ace` and
# `ctr`, `aez seal` and `gcm seal` output against the x86-64 binary's, and runs `aeslab instr`
# with a small count.
# qemu's default CPU ("max") has the Crypto Extensions, so the `armv8` backend runs and is tested
# at every FACE level; its timings mean nothing (the `instr` output says so).
# The outputs are compared between debug builds, the ones the tests use.
# Installs what it needs: the rustup target, Debian's cross gcc, qemu-user and arm64 libssl.
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET=aarch64-unknown-linux-gnu
# The arm64 libc the loader finds: the multiarch one that comes with libssl-dev:arm64. (With
# `-L /usr/aarch64-linux-gnu`, qemu's loader would come from the cross libc while libc.so.6
# came from multiarch; mismatched, the first pthread_create hangs.)
SYSROOT=/

SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
rustup target add "$TARGET" >/dev/null
need=()
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || need+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
command -v qemu-aarch64 >/dev/null 2>&1 || need+=(qemu-user)
# The `openssl` crate (differential tests, peers) links arm64 libssl: Debian multiarch.
if [ ! -f /usr/lib/aarch64-linux-gnu/pkgconfig/openssl.pc ]; then
    dpkg --print-foreign-architectures | grep -x arm64 >/dev/null || $SUDO dpkg --add-architecture arm64
    need+=(libssl-dev:arm64)
fi
if [ ${#need[@]} -gt 0 ]; then
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L $SYSROOT"
export CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc
export AR_aarch64_unknown_linux_gnu=aarch64-linux-gnu-ar
export PKG_CONFIG_ALLOW_CROSS=1
export PKG_CONFIG_PATH_aarch64_unknown_linux_gnu=/usr/lib/aarch64-linux-gnu/pkgconfig
export PKG_CONFIG_SYSROOT_DIR_aarch64_unknown_linux_gnu=/
# The CLI tests start the aarch64 `aeslab` binary through the same emulator.
export AESLAB_TEST_RUNNER="qemu-aarch64 -L $SYSROOT"

start=$(date +%s)
echo "== cargo test --workspace --target $TARGET (under qemu)"
log=$(mktemp)
rc=0
cargo test --workspace --no-fail-fast --target "$TARGET" >"$log" 2>&1 || rc=$?
grep -E '^(     Running|test result)' "$log" || true
if [ "$rc" -ne 0 ]; then
    grep -E -A30 '^failures:' "$log" | sed -n '1,80p' || tail -40 "$log"
    echo "test-aarch64: cargo test failed under qemu (exit $rc)"; exit 1
fi
rm -f "$log"

# The debug binaries: the aarch64 one is what the tests above ran, and the x86-64 one is what
# `cargo test --workspace` built (built here for the whole workspace, so with the same features
# and nothing compiled again). Release builds would print the same bytes, and cross-building
# the CLI's peers (aws-lc, ring) optimised for aarch64 took longer than the rest of this script.
cargo build -q --workspace --bins --examples
cargo build -q --workspace --bins --examples --target "$TARGET"
x86=./target/debug/aeslab
arm="qemu-aarch64 -L $SYSROOT ./target/$TARGET/debug/aeslab"

echo "== $($arm cpu | grep -i 'default backend')"
$arm cpu | grep 'Default backend: armv8' >/dev/null || { echo "test-aarch64: the dispatch did not pick armv8"; exit 1; }

same() {  # same DESCRIPTION ARGS... : aarch64 and x86-64 print the same bytes
    local what=$1; shift
    if cmp -s <($x86 "$@" <"$input") <($arm "$@" <"$input"); then
        echo "same output on aarch64 and x86-64: $what"
    else
        echo "test-aarch64: $what differs between aarch64 and x86-64"; exit 1
    fi
}
input=$(mktemp); trap 'rm -f "$input"' EXIT
head -c 100000 /dev/urandom >"$input"
vectors=../shared/testvectors
same "kat aez" kat aez "$vectors/aez/encrypt.json"
same "kat ace" kat ace "$vectors/ace/ACE.txt"
same "kat ace-hash" kat ace-hash "$vectors/ace/ACE-HASH.txt"
key=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
for level in none rd0 rd1 rd1p rd2 rd2p; do
    same "ctr --face $level (armv8 vs vaes/aesni)" ctr --key "$key" --iv fffffffffffffffffffffffffffffffa --face "$level"
done
same "ctr --backend ct64" ctr --key "${key:0:32}" --iv 000000000000000000000000fffffff0 --backend ct64
same "aez seal" aez seal --key "$key" --nonce 00112233 --ad 99
for level in none rd2p; do
    same "gcm seal --face $level (armv8+pmull vs vaes512+vpclmul512)" gcm seal --key "$key" --nonce cafebabefacedbaddecaf888 --ad 99 --face "$level"
done
same "gcm seal, 16-byte nonce" gcm seal --key "${key:0:32}" --nonce 000102030405060708090a0b0c0d0e0f

echo "== aeslab instr --count 2000 (emulated: the figures mean nothing)"
# Captured first, then cut by `sed`, which reads its whole input: `head` stops reading after
# 16 lines, and a writer still writing then dies of SIGPIPE, which pipefail turns into exit 141
# (the official CI failed so on 2026-12-02, after every test had passed).
instr=$($arm instr --count 2000)
printf '%s\n' "$instr" | sed -n '1,16p'
echo "test-aarch64: passed in $(( $(date +%s) - start ))s"
