#!/usr/bin/env bash
# Runs every fuzz target of fuzz/ (cargo-fuzz, libFuzzer) for SECONDS each (30 by default)
# on its corpus fuzz/corpus/TARGET, and prints for each target the executions per second and
# the total executions. cargo-fuzz is installed when missing; it needs the nightly toolchain.
# Exits non-zero if a target crashes; the input that crashed is left in fuzz/artifacts/TARGET,
# with libFuzzer's output of that run (the error and its stack) in fuzz/artifacts/TARGET/log.
#
#   scripts/fuzz.sh 30              every target, 30 seconds each
#   scripts/fuzz.sh 60 fen record   only these targets
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-30}
shift || true

if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi

cd fuzz
if [ $# -gt 0 ]; then
    targets=("$@")
else
    mapfile -t targets < <(cargo +nightly fuzz list)
fi
cargo +nightly fuzz build

failed=()
printf '%-12s %12s %14s %s\n' target 'execs/s' 'total execs' result
for target in "${targets[@]}"; do
    mkdir -p "corpus/$target" "artifacts/$target"
    log=$(mktemp)
    status=ok
    if ! cargo +nightly fuzz run "$target" "corpus/$target" -- \
        -max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=2048 \
        -timeout=10 >"$log" 2>&1; then
        status="CRASH (see fuzz/artifacts/$target)"
        failed+=("$target")
        grep -E 'panicked|ERROR|Test unit written' "$log" | head -n 5 >&2 || true
        cp "$log" "artifacts/$target/log"
    fi
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    printf '%-12s %12s %14s %s\n' "$target" "${rate:-?}" "${execs:-?}" "$status"
    rm -f "$log"
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzzing found crashes in: ${failed[*]}" >&2
    exit 1
fi
