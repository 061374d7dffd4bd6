#!/usr/bin/env bash
# Benches two builds of aeslab side by side: OLD (a commit) against the work tree, each `aeslab
# bench ctr|gcm|aez --json` run alternately, ROUNDS times each (old, new, old, new, …), so both
# see the same machine. Prints, per record both builds share, the median cycles/byte of each
# and the ratio new/old, with the spread of the ratio over the rounds.
#
# Usage: [SIZES=16384,65536] scripts/bench-old-new.sh OLD_COMMIT [ROUNDS] [BENCH...]
#        (defaults: 3 rounds; ctr gcm aez, each with --quick and the sizes below)
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:?usage: scripts/bench-old-new.sh OLD_COMMIT [ROUNDS] [BENCH...]}
rounds=${2:-3}
shift $(( $# >= 2 ? 2 : 1 ))
benches=("$@")
[ ${#benches[@]} -gt 0 ] || benches=(ctr gcm aez)

work=$(mktemp -d)
trap 'git worktree remove --force "$work/old" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git worktree add --detach "$work/old" "$old" >/dev/null
# The old tree sits beside ../shared like this one (tests and vectors look for it there).
[ -e "$work/shared" ] || ln -s "$(cd .. && pwd)/shared" "$work/shared"
(cd "$work/old" && CARGO_TARGET_DIR="$work/old-target" cargo build --release --quiet --bin aeslab)
cargo build --release --quiet --bin aeslab
old_bin="$work/old-target/release/aeslab"
new_bin=./target/release/aeslab

# SIZES (comma-separated bytes) replaces each bench's default sizes.
args_for() {
    case "$1" in
        ctr) echo "bench ctr --quick --sizes ${SIZES:-64,1024,4096,16384} --keys 128,256" ;;
        gcm) echo "bench gcm --quick --sizes ${SIZES:-64,1024,4096,16384} --keys 128,256" ;;
        aez) echo "bench aez --quick --sizes ${SIZES:-32,1024,16384}" ;;
    esac
}

for bench in "${benches[@]}"; do
    for r in $(seq 1 "$rounds"); do
        # shellcheck disable=SC2046
        "$old_bin" $(args_for "$bench") --json >"$work/$bench-old-$r.json" 2>/dev/null
        # shellcheck disable=SC2046
        "$new_bin" $(args_for "$bench") --json >"$work/$bench-new-$r.json" 2>/dev/null
    done
    echo "== aeslab $(args_for "$bench"): old $old vs the work tree, $rounds rounds each, alternating"
    python3 - "$work" "$bench" "$rounds" <<'EOF'
import json, statistics, sys
work, bench, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
def key(r):
    return tuple(str(r.get(k)) for k in ("impl", "backend", "face", "key_bits", "bytes", "op"))
def value(r):
    return r.get("cycles_per_byte", r.get("cycles"))
runs = {side: [{key(r): value(r) for r in json.load(open(f"{work}/{bench}-{side}-{i}.json"))} for i in range(1, rounds + 1)]
        for side in ("old", "new")}
common = [k for k in runs["old"][0] if all(k in run for side in runs.values() for run in side)]
for k in common:
    if k[0] != "aeslab":
        continue
    old = [run[k] for run in runs["old"]]
    new = [run[k] for run in runs["new"]]
    ratios = [n / o for n, o in zip(new, old)]
    name = " ".join(x for x in k if x not in ("None", ""))
    print(f"{name:52} old {statistics.median(old):9.3f}  new {statistics.median(new):9.3f}  new/old {statistics.median(ratios):5.2f} (range {min(ratios):.2f}-{max(ratios):.2f})")
EOF
done
