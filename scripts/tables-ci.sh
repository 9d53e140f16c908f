#!/usr/bin/env bash
# Builds the endgame tables of up to 4 pieces for every named rule set with the release
# binary, verifies every stored value against its successors (`kharbaga tablebase verify`),
# and compares the counts of wins, draws and losses of every slice with the pinned ones in
# crates/kharbaga-tablebase/tests/data/counts-4.txt; then checks the standard ones against the
# exhaustive solver and the engine's conversion of won positions.
# Usage: scripts/tables-ci.sh [KHARBAGA]
set -euo pipefail
cd "$(dirname "$0")/.."

bin="${1:-target/release/kharbaga}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
pinned=crates/kharbaga-tablebase/tests/data/counts-4.txt

for rules in standard sideways ludii dagaz; do
    start=$(date +%s)
    "$bin" tablebase generate --rules "$rules" --pieces 4 --dir "$work/$rules" > "$work/$rules.gen"
    "$bin" tablebase verify --rules "$rules" --dir "$work/$rules" > "$work/$rules.verify"
    tail -n 1 "$work/$rules.verify"
    # "SLICE ok: N places, W wins, D draws, L losses, longest win X, longest loss Y"
    #   -> "RULES SLICE W D L X"
    sed -n 's/^\([0-9mk-]*\) ok: [0-9]* places, \([0-9]*\) wins, \([0-9]*\) draws, \([0-9]*\) losses, longest win \([0-9]*\), longest loss [0-9]*$/'"$rules"' \1 \2 \3 \4 \5/p' \
        "$work/$rules.verify" >> "$work/counts.txt"
    echo "$rules: up to 4 pieces built and verified in $(( $(date +%s) - start )) s"
done

if ! diff <(grep -v '^#' "$pinned") "$work/counts.txt"; then
    echo "the counts of wins, draws and losses differ from $pinned" >&2
    exit 1
fi
echo "tables: counts of all 4 rule sets agree with $pinned"

# The standard tables against the independent exhaustive solver (10,000 random positions of up
# to 3 pieces, 10,000 of 4, and every position it solves on the way), and the engine
# converting won 4-piece positions.
KHARBAGA_TABLES="$work/standard" cargo test --release -p kharbaga-tablebase \
    --test exhaustive_check -- --ignored --nocapture
KHARBAGA_TABLES="$work/standard" KHARBAGA_PIECES=4 cargo test --release -p kharbaga-engine \
    --test table_conversion -- --ignored --nocapture
