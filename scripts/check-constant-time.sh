#!/usr/bin/env bash
# Constant-time check: runs every aeslab path valgrind can execute under memcheck with the
# secrets (keys, plaintexts, ACE states) marked undefined, and the variable-time `table`
# backend as the negative control. Exits 0 only when every constant-time path is clean and the
# control is flagged. Installs valgrind from Debian if it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v valgrind >/dev/null; then
    echo "installing valgrind" >&2
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind
fi

# Debug info for readable reports; the release profile's optimisations, so the code checked is
# the code that ships.
CARGO_PROFILE_RELEASE_DEBUG=true cargo build --release -q -p aeslab-ctgrind
# Memcheck reports go to the log; the harness counts them per path and prints the verdicts.
log="$(mktemp)"
status=0
valgrind --tool=memcheck --error-limit=no --log-file="$log" target/release/aeslab-ctgrind || status=$?
if [ "$status" -ne 0 ]; then
    echo "--- first memcheck reports ---"
    grep -m 40 -A 12 "uninitialised" "$log" || true
fi
rm -f "$log"
exit "$status"
