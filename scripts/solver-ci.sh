#!/usr/bin/env bash
# The solver in CI: solves the suite positions marked `ci` in
# crates/kharbaga-solver/tests/data/suite.txt with the tables of up to 4 pieces, checks each
# value against the pinned one and each proof with both independent checkers
# (`kharbaga verify-proof` and tools/check_proof.py), then breaks a proof on purpose (a reply
# dropped, the winning move changed) and checks that both reject it; solves a draw in parts
# on the Dask driver; last, the solver's longer tests in release mode.
# Usage: scripts/solver-ci.sh [KHARBAGA]
# With SUITE=all in the environment every suite position solved with the 4-piece tables is,
# not only those marked ci (about a minute more). With SUITE=long only the positions marked
# long are: they need the tables of up to 5 pieces (built here, about 2 minutes) and up to a
# few minutes each. With SUITE=driver only the positions marked driver are, each by the
# frontier driver cluster/solve.py at 2 plies on both cores with the tables of up to 6
# pieces, which are not built here (an hour): they are taken from TABLES, by default
# ~/.local/share/kharbaga/tables/standard (`kharbaga tablebase generate --pieces 6`); half
# an hour to an hour a position (the 12-piece draw's parts took 3,430 s of task time, 31
# minutes on two cores), and each proof checked by both checkers (ten minutes more). With
# SUITE=six only the positions marked six are (the engine's main line from the start): each
# solved by `kharbaga solve` on one core with the tables of up to 6 pieces from TABLES, as
# for SUITE=driver: seconds to two minutes each, but a quarter of an hour for the 17-piece
# position of ply 34 and ten minutes more for the Python check of its proof. With SUITE=deep
# only the positions marked deep or deep:K are, in file order, with the 6-piece tables from
# TABLES, each by the driver with 2,400 s a part and a part left unknown split again (two
# levels at most): a deep one at 2 plies; a deep:K one at K plies, the deep position before
# it in the file being on its frontier, with that position's result and proof as its part,
# so that the driver solves only the other parts its root needs. verify-proof checks each
# proof; the Python checker the last one, which holds all the others. Sessions 33 to 35
# proved them on two cores: ply 32 of the engine's main line in 4.3 hours of part time, the
# rest in minutes to a few hours each; the Python checker needs 68 minutes and 6.7 GB for
# the last proof (ply 23's, 19.1 million lines).
set -euo pipefail
cd "$(dirname "$0")/.."

bin="${1:-target/release/kharbaga}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
six_tables="${TABLES:-${XDG_DATA_HOME:-$HOME/.local/share}/kharbaga/tables/standard}"
export XDG_DATA_HOME=/nonexistent/kharbaga-tests
suite=crates/kharbaga-solver/tests/data/suite.txt

# The 6-piece tables must be in $six_tables (exit status 2 names a missing slice).
need_six_tables() {
    "$bin" tablebase probe --tables "$six_tables" "W:Ba1,c1,e1:Wa9,c9,e9" > /dev/null
}

# Runs the driver on position $3 ($4 pieces) into $1 (its output) and checks that it proved
# the pinned value $2 and verified its proof; the rest are the driver's options. Each worker
# carries its table from part to part (4 GiB a worker in $work).
drive() {
    local out=$1 value=$2 pos=$3 pieces=$4
    shift 4
    python3 cluster/solve.py --binary "$bin" --position "$pos" --tables "$six_tables" \
        --hash 4096 --hash-dir "$work/worker-tables" "$@" > "$out" || {
        echo "the driver failed on $pos:" >&2
        tail -20 "$out" >&2
        exit 1
    }
    if ! grep -q "^root $pos: $value" "$out"; then
        echo "solve $pos ($pieces pieces): $(grep "^root " "$out"), pinned $value" >&2
        exit 1
    fi
    grep -q '^proof: .*, verified$' "$out"
}

if [ "${SUITE:-ci}" = deep ]; then
    need_six_tables
    n=0 prev=""
    while read -r value pieces pos mark; do
        case "$mark" in
            deep) plies=2 ;;
            deep:*) plies=${mark#deep:} ;;
            *) continue ;;
        esac
        n=$((n + 1))
        start=$(date +%s)
        dir="$work/d$n"
        mkdir -p "$dir"
        if [ "$mark" != deep ]; then
            # The deep position above this one is on its frontier: its result and proof are
            # that part's, so the driver solves only the other parts the root needs.
            "$bin" solve --rules standard --tables "$six_tables" --position "$pos" \
                --frontier "$plies" > "$dir/frontier.txt"
            i=$(grep -n -x -F "$prev" "$dir/frontier.txt" | cut -d: -f1)
            if [ -z "$i" ]; then
                echo "$prev is not $plies plies below $pos" >&2
                exit 1
            fi
            echo "result: $prev $prev_value" > "$dir/part-$((i - 2)).out"
            ln -s "$prev_proof" "$dir/part-$((i - 2)).txt.gz"
        fi
        drive "$work/d$n.out" "$value" "$pos" "$pieces" --plies "$plies" --workdir "$dir" \
            --time-per-part 2400 --split-unknown 2
        prev=$pos
        prev_value=$(sed -n "s/^root $pos: //p" "$work/d$n.out")
        prev_proof="$dir/proof.txt.gz"
        echo "solver: $pos ($pieces pieces) $value as pinned in $(( $(date +%s) - start )) s," \
            "its proof accepted by verify-proof"
    done < <(grep -v '^#' "$suite")
    # The last proof holds every one before it (each is a part of the next): the Python
    # checker reads it once.
    python3 tools/check_proof.py --kharbaga "$bin" --tables "$six_tables" "$prev_proof" \
        > /dev/null
    echo "solver: the proof of $prev accepted by tools/check_proof.py"
    exit 0
fi

if [ "${SUITE:-ci}" = driver ]; then
    need_six_tables
    n=0
    while read -r value pieces pos mark; do
        [ "$mark" = driver ] || continue
        n=$((n + 1))
        start=$(date +%s)
        drive "$work/d$n.out" "$value" "$pos" "$pieces" --plies 2 --workdir "$work/d$n"
        # The proofs the driver wrote and verified: a win's or a loss's, or each side's
        # strategy of a draw.
        for proof in $(sed -n 's/^proof: \(.*\), verified$/\1/p' "$work/d$n.out"); do
            python3 tools/check_proof.py --kharbaga "$bin" --tables "$six_tables" \
                "$proof" > /dev/null
        done
        echo "solver: $pos ($pieces pieces) $value as pinned in $(( $(date +%s) - start )) s," \
            "its proof accepted by both checkers"
    done < "$suite"
    exit 0
fi
tables="$work/tables"
table_pieces=4 time_limit=120 hash=128
if [ "${SUITE:-ci}" = long ]; then
    table_pieces=5 time_limit=600 hash=4096
fi
if [ "${SUITE:-ci}" = six ]; then
    need_six_tables
    tables="$six_tables" time_limit=3600 hash=4096
else
    "$bin" tablebase generate --pieces "$table_pieces" --dir "$tables" > /dev/null
fi

# Both checkers must accept the proof file $1.
accept() {
    "$bin" verify-proof --tables "$tables" "$1" > /dev/null
    python3 tools/check_proof.py --kharbaga "$bin" --tables "$tables" "$1" > /dev/null
}

# Both checkers must reject the proof file $1 as a proof that does not hold (exit status 1).
reject() {
    local status
    for checker in "$bin verify-proof" "python3 tools/check_proof.py --kharbaga $bin"; do
        status=0
        $checker --tables "$tables" "$1" > /dev/null 2>&1 || status=$?
        if [ "$status" != 1 ]; then
            echo "$checker accepted a broken proof ($2), exit status $status" >&2
            exit 1
        fi
    done
}

n=0
start=$(date +%s)
while read -r value pieces pos mark; do
    [[ "$value" == \#* ]] && continue
    case "${SUITE:-ci}:$mark" in
        ci:ci | all:ci | all: | long:long | six:six) ;;
        *) continue ;;
    esac
    n=$((n + 1))
    out=$("$bin" solve --tables "$tables" --position "$pos" --time "$time_limit" --hash "$hash" \
        --proof "$work/p$n.txt")
    got=$(sed -n 's/^result: [^ ]* \([a-z]*\).*/\1/p' <<< "$out")
    if [ "$got" != "$value" ]; then
        echo "solve $pos ($pieces pieces): $got, pinned $value" >&2
        exit 1
    fi
    if [ "$value" = draw ]; then
        accept "$work/p$n.black.txt"
        accept "$work/p$n.white.txt"
    else
        accept "$work/p$n.txt"
    fi
done < "$suite"
echo "solver: $n suite positions solved as pinned in $(( $(date +%s) - start )) s, every proof accepted by both checkers"
if [ "${SUITE:-ci}" = six ]; then
    exit 0
fi

# Break the proofs of the first win with a reply after the winning move.
for f in "$work"/p*.txt; do
    root_line=$(sed -n '/^#/!{p;q}' "$f")
    root=${root_line%% *}
    move=${root_line##* }
    [ "$move" = all ] && continue
    child=$("$bin" solve --position "$root" --moves "$move" --frontier 1 | sed -n 's/^# frontier: \([^ ]*\) .*/\1/p')
    grep -q "^$child all\$" "$f" || continue
    grep -v "^$child all\$" "$f" > "$work/dropped.txt"
    reject "$work/dropped.txt" "the reply line of $child dropped"
    other=$("$bin" moves "$root" | awk -v m="$move" '$0 != m { print; exit }')
    sed "s|^$root $move\$|$root $other|" "$f" > "$work/changed.txt"
    reject "$work/changed.txt" "$move changed to $other at the root"
    echo "solver: the proof of $root broken two ways, rejected by both checkers"
    break
done

# A draw split at 2 plies on the Dask driver (8 parts): combined into each side's strategy,
# both verified by the driver.
draw="B:Ba1,i1,i3:Wc3,d4,i5,d6,a9"
python3 cluster/solve.py --binary "$bin" --position "$draw" --plies 2 --workdir "$work/draw" \
    --tables "$tables" --hash 128 --workers 2 > "$work/draw.out"
grep -q "^root $draw: draw$" "$work/draw.out"
[ "$(grep -c '^proof: .*, verified$' "$work/draw.out")" = 2 ]
echo "solver: the draw $draw combined from 8 parts into two verified strategies"

cargo test --release -p kharbaga-solver -- --ignored
