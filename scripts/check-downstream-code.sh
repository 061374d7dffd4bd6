#!/usr/bin/env bash
# A user's crate must not compile aeslab's kernels again. Release builds share no generic
# instances between crates, so a kernel reached from a function the user's crate inlines
# (through a vtable made there, say) is compiled again in that crate: on Emerald Rapids
# (2026-12-03) the seal_file example's own object held 1.49 MB of code and a fifteen-line crate
# sealing with Aes128Gcm took 52 s to build; with the dispatch out of line (crate::ctr::engine's
# comment) 93 KB and 6 s. This builds the examples a user would copy, release, and fails when
# their own code passes LIMIT_KB (400 by default).
#
# Usage: scripts/check-downstream-code.sh   (after `cargo build --release --examples`, which it reuses)
set -euo pipefail
cd "$(dirname "$0")/.."
limit_kb=${LIMIT_KB:-400}
command -v size >/dev/null 2>&1 || { echo "check-downstream-code.sh needs binutils' size"; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0
for example in seal_file face_on_my_cpu; do
    # One object file for the example's own code: one codegen unit, no LTO (which would
    # leave one object per module and pull the library's code in).
    cargo rustc -q --release -p aeslab --example "$example" -- \
        -C codegen-units=1 -C lto=off --emit=obj="$out/$example.o"
    text=$(size "$out/$example.o" | awk 'NR == 2 {print $1}')
    echo "$example: $((text / 1024)) KB of code in its own crate (limit $limit_kb KB)"
    if [ "$text" -gt $((limit_kb * 1024)) ]; then
        echo "  $example compiles aeslab's kernels again: a public inlined function reaches them"
        echo "  other than through an out-of-line dispatch (see crate::ctr::engine)"
        status=1
    fi
done
exit $status
