#!/usr/bin/env bash
# 32-bit x86: the library's whole test suite built for i686-unknown-linux-gnu, run natively
# (the kernel runs 32-bit binaries). Only the portable backends exist there (ct64, the T-tables,
# scalar ACE, portable GHASH), so this is where their 32-bit arithmetic (u64 and u128 on a
# 32-bit machine) is checked against the known answers and each other. The tests against
# OpenSSL are left out on this target (Debian's i386 libssl does not co-install here); the CTR
# references come from RustCrypto's `aes` instead.
# Installs what it needs: the rustup target and gcc-multilib (ring's C code, and the linker).
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET=i686-unknown-linux-gnu

rustup target add "$TARGET" >/dev/null 2>&1
if ! echo 'int main(void){return 0;}' | gcc -m32 -x c - -o /dev/null 2>/dev/null; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc-multilib >/dev/null
fi

. scripts/lib/suite-on-target.sh
suite_on_target test-i686 "$TARGET"
