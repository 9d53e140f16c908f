#!/usr/bin/env bash
# The solver's benchmark: solves the suite positions that SUITE=all solves (those marked ci
# and those unmarked in crates/kharbaga-solver/tests/data/suite.txt) with the tables of up to
# 4 pieces, --time 120 and --hash MIB each, and prints one line a position (result/pinned,
# pieces, nodes, user and system seconds, peak memory in KB, position) and the totals.
# CPU time rather than wall time, so that a busy machine still gives comparable figures
# (measured by GNU time, /usr/bin/time: Debian's package `time`).
# Usage: scripts/solver-bench.sh [KHARBAGA] [MIB]   (defaults: target/release/kharbaga, 4096)
# With MARK=six and TABLES=DIR in the environment, the positions marked six instead, with
# the tables in DIR (every table of up to 6 pieces: `kharbaga tablebase generate --pieces
# 6`); TIME=S sets the time limit of each solve (default 120 s).
set -euo pipefail
cd "$(dirname "$0")/.."

bin="${1:-target/release/kharbaga}"
hash="${2:-4096}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tables="${TABLES:-$work/tables}"
if [ -z "${TABLES:-}" ]; then
    "$bin" tablebase generate --pieces 4 --dir "$tables" > /dev/null
fi

while read -r value pieces pos mark; do
    [[ "$value" == \#* ]] && continue
    if [ -n "${MARK:-}" ]; then
        [ "$mark" = "$MARK" ] || continue
    else
        case "$mark" in ci | "") ;; *) continue ;; esac
    fi
    out=$( { /usr/bin/time -f "TIME %U %S %M" "$bin" solve --tables "$tables" \
        --position "$pos" --time "${TIME:-120}" --hash "$hash"; } 2>&1)
    got=$(sed -n 's/^result: [^ ]* \([a-z]*\).*/\1/p' <<< "$out")
    nodes=$(sed -n 's/^\([0-9]*\) nodes in .*/\1/p' <<< "$out" | tail -1)
    echo "$got/$value $pieces $nodes $(sed -n 's/^TIME //p' <<< "$out") $pos"
done < crates/kharbaga-solver/tests/data/suite.txt | tee "$work/lines"
awk '{n += $3; u += $4; s += $5; if ($1 !~ /^(win\/win|loss\/loss|draw\/draw)$/) bad++}
     END {printf "%d positions, %d nodes, %.1f s user, %.1f s system, %d not as pinned\n",
          NR, n, u, s, bad}' "$work/lines"
