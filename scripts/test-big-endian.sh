#!/usr/bin/env bash
# Big-endian: the library's whole test suite built for s390x-unknown-linux-gnu and run under
# qemu-user. Only the portable backends exist there (ct64, the T-tables, scalar ACE, portable
# GHASH), so this is where their byte order is checked: every block, counter, GHASH element and
# ACE word is read and written as the specifications order its bytes, whatever the machine's.
# The tests against OpenSSL are left out on this target (Debian's s390x libssl does not
# co-install here); the known answers, Wycheproof and RustCrypto's `aes` are the references.
# Installs what it needs: the rustup target, Debian's cross gcc (ring's C code, and the linker)
# and qemu-user.
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET=s390x-unknown-linux-gnu

rustup target add "$TARGET" >/dev/null 2>&1
need=()
command -v s390x-linux-gnu-gcc >/dev/null 2>&1 || need+=(gcc-s390x-linux-gnu libc6-dev-s390x-cross)
command -v qemu-s390x >/dev/null 2>&1 || need+=(qemu-user)
if [ ${#need[@]} -gt 0 ]; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

export CARGO_TARGET_S390X_UNKNOWN_LINUX_GNU_LINKER=s390x-linux-gnu-gcc
export CARGO_TARGET_S390X_UNKNOWN_LINUX_GNU_RUNNER="qemu-s390x -L /usr/s390x-linux-gnu"
export CC_s390x_unknown_linux_gnu=s390x-linux-gnu-gcc
export AR_s390x_unknown_linux_gnu=s390x-linux-gnu-ar

. scripts/lib/suite-on-target.sh
suite_on_target test-big-endian "$TARGET"
