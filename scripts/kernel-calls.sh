#!/usr/bin/env bash
# The calls left inside aeslab's kernels: every function of a binary that runs AES or
# carry-less-multiply instructions, with the `call`s it makes and what they call. A kernel with
# the hot loop fully inlined calls nothing but, at most, memcpy/memset and cold panic paths; an
# intrinsic that was not inlined shows up as a call to `core::core_arch::…`.
#
# Usage: scripts/kernel-calls.sh [BINARY]        (default: target/release/aeslab, built first)
# Prints one line per kernel: calls, instruction count, demangled name; then each distinct
# callee under it. Matching is by instruction, not by name, so it reads any layout of the code.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-}
if [ -z "$bin" ]; then
    cargo build --release --quiet --bin aeslab
    bin=target/release/aeslab
fi
case "$(uname -m)" in
    x86_64) pattern='\t(v?aes(enc|enclast|dec|declast)|v?pclmulqdq) ' ;;
    aarch64) pattern='\t(aes[ed]|aes[i]?mc|pmull2?) ' ;;
    *) echo "kernel-calls: x86-64 or aarch64 only"; exit 0 ;;
esac
# Calls through the GOT (`call *…(%rip)  # ADDR <_DYNAMIC+…>`) name their slot; the dynamic
# relocations say which symbol fills it.
# relocations say which symbol fills it — by name, or (position-independent code) by address,
# which the symbol table names.
got=$(mktemp); syms=$(mktemp); trap 'rm -f "$got" "$syms"' EXIT
objdump -R -C "$bin" 2>/dev/null | awk '$1 ~ /^[0-9a-f]+$/ { a = $1; sub(/^0+/, "", a); $1 = ""; $2 = ""; sub(/^ +/, ""); print a "\t" $0 }' >"$got"
nm --defined-only -C "$bin" 2>/dev/null | awk '{ a = $1; sub(/^0+/, "", a); $1 = ""; $2 = ""; sub(/^ +/, ""); print a "\t" $0 }' >"$syms"
objdump -d --no-show-raw-insn -C "$bin" | awk -v pat="$pattern" -v got="$got" -v syms="$syms" '
    BEGIN {
        while ((getline line < syms) > 0) { split(line, f, "\t"); if (!(f[1] in sym)) sym[f[1]] = f[2] }
        while ((getline line < got) > 0) {
            split(line, f, "\t"); v = f[2]
            if (v ~ /^\*ABS\*\+0x/) { a = v; sub(/^\*ABS\*\+0x0*/, "", a); if (a in sym) v = sym[a] }
            slot[f[1]] = v
        }
    }
    /^[0-9a-f]+ <.*>:$/ {
        flush()
        name = substr($0, index($0, "<") + 1); sub(/>:$/, "", name)
        n = 0; kernel = 0; ncalls = 0; delete callees
        next
    }
    /^ *[0-9a-f]+:\t/ {
        n++
        if ($0 ~ pat) kernel = 1
        if ($0 ~ /\tcall /) {
            ncalls++
            t = $0
            if (t ~ /call +\*/ && t ~ /# [0-9a-f]+ </) {
                a = t; sub(/.*# /, "", a); sub(/ .*/, "", a)
                t = (a in slot) ? slot[a] : "GOT slot " a
            } else {
                sub(/.*</, "", t); sub(/>.*/, "", t); sub(/\+0x[0-9a-f]+$/, "", t)
            }
            callees[t]++
        }
    }
    function flush() {
        if (name != "" && kernel && name !~ /^aeslab_measure::chains/) {
            printf "%4d calls %6d instrs  %s\n", ncalls, n, name
            for (c in callees) printf "        %3d x %s\n", callees[c], c
        }
        name = ""
    }
    END { flush() }
'
