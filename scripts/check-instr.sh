#!/usr/bin/env bash
# Checks `aeslab instr` against an independent timer: scripts/instr-reference.c, a plain C
# program with its own TSC reads, its own add-chain calibration and best-of-N timings, over the
# same chain bodies (gen/chains.py --reference writes them as assembly functions).
#
# Usage: scripts/check-instr.sh [RUNS] [TOLERANCE]      (defaults: 3 runs, 0.03)
# Each run measures with both and compares every row `aeslab instr --json` prints; the script
# fails when any row differs by more than TOLERANCE (relative) in any run. x86-64 only. This is
# a timing check of the instrument, so it is not part of `cargo test`.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}
TOL=${2:-0.03}
[ "$(uname -m)" = x86_64 ] || { echo "check-instr: x86-64 only"; exit 0; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 crates/aeslab-measure/gen/chains.py --reference "$work"
cc -O2 -Wall -I"$work" -o "$work/reference" scripts/instr-reference.c "$work/chains.S"
cargo build --release --quiet --bin aeslab
aeslab=./target/release/aeslab

failed=0
for run in $(seq 1 "$RUNS"); do
    "$aeslab" instr --json >"$work/aeslab.json"
    names=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
widths = {}
for r in d["results"] + d["noisy"]:
    widths.setdefault((r["instr"], r["kind"]), set()).add(r["width"])
# The reference names chains as `aeslab instr` does: the width only where an instruction comes
# in several (the reference table has every chain, so look the name up both ways).
for r in d["results"]:
    print("{}-{}-{}".format(r["instr"], r["width"], r["kind"]), "{}-{}".format(r["instr"], r["kind"]))
' "$work/aeslab.json")
    # Pick the spelling the reference knows.
    known=$(grep -o '{"[^"]*"' "$work/chains.h" | tr -d '{"')
    list=()
    while read -r wide short; do
        if grep -qx "$wide" <<<"$known"; then list+=("$wide"); else list+=("$short"); fi
    done <<<"$names"
    # Short timings, often repeated: on a shared VM long ones are too often stretched.
    "$work/reference" -r 201 -c 20000 "${list[@]}" >"$work/reference.txt"
    echo "== run $run of $RUNS ($(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cpu"])' "$work/aeslab.json"))"
    python3 - "$work/aeslab.json" "$work/reference.txt" "$TOL" <<'EOF' || failed=1
import json, sys
d = json.load(open(sys.argv[1]))
ref = dict((l.split()[0], float(l.split()[1])) for l in open(sys.argv[2]))
tol = float(sys.argv[3])
worst, bad = 0.0, []
for r in d["results"]:
    wide, short = "{}-{}-{}".format(r["instr"], r["width"], r["kind"]), "{}-{}".format(r["instr"], r["kind"])
    name = wide if wide in ref else short
    ours, theirs = r["cycles_per_instr"], ref[name]
    dev = abs(ours - theirs) / theirs
    worst = max(worst, dev)
    mark = "" if dev <= tol else "   <-- off by more than {:.0f}%".format(100 * tol)
    if mark:
        bad.append(name)
    print("{:32} aeslab {:8.3f}   reference {:8.3f}   {:+6.2f}%{}".format(name, ours, theirs, 100 * (ours - theirs) / theirs, mark))
for r in d["noisy"]:
    print("{}-{}-{}: aeslab called it noisy (spread {:.1f}%), not compared".format(r["instr"], r["width"], r["kind"], 100 * r["spread"]))
print("rows: {}, worst difference {:.2f}%, noisy: {}".format(len(d["results"]), 100 * worst, len(d["noisy"])))
sys.exit(1 if bad else 0)
EOF
done
if [ "$failed" -ne 0 ]; then echo "check-instr: some row differed by more than $TOL"; exit 1; fi
echo "check-instr: every row within $TOL of the reference in $RUNS runs out of $RUNS"
