# Sourced by the scripts that run the library's test suite for another target
# (test-i686.sh, test-big-endian.sh).

# suite_on_target NAME TARGET: `cargo test -p aeslab` for TARGET (its runner, if any, from the
# environment); prints the failures and exits 1 if any test fails, else how many passed and
# how long it took, prefixed with NAME.
suite_on_target() {
    local name=$1 target=$2 start log
    start=$(date +%s)
    log=$(mktemp)
    if ! cargo test -p aeslab --no-fail-fast --target "$target" >"$log" 2>&1; then
        grep -E -A30 '^failures:' "$log" | sed -n '1,80p' || tail -40 "$log"
        rm -f "$log"
        echo "$name: the test suite failed on $target"; exit 1
    fi
    grep -E '^test result' "$log" | awk -v name="$name" -v target="$target" '{p += $4} END {printf "%s: %d tests passed on %s", name, p, target}'
    echo " in $(( $(date +%s) - start ))s"
    rm -f "$log"
}
