#!/usr/bin/env bash
# Builds a profile-guided kharbaga binary, target/pgo/release/kharbaga: a build instrumented
# to count its branches and calls runs the usual work (the search's bench, perft and random
# playouts under every rule set, a proof search, an endgame table build), and the compiler
# then lays the code out and inlines by those counts. The same program, faster (see
# docs/strength.md, "A profile-guided build"): the script checks that the new binary's bench
# signature and perft counts are those of the instrumented one.
# Needs the Rust toolchain's llvm-tools (installed with rustup when missing).
# Usage: scripts/build-pgo.sh
set -euo pipefail
cd "$(dirname "$0")/.."

sysroot="$(rustc --print sysroot)"
find_profdata() {
    for tool in "$sysroot"/lib/rustlib/*/bin/llvm-profdata; do
        if [ -x "$tool" ]; then
            echo "$tool"
            return
        fi
    done
}
profdata="$(find_profdata)"
if [ -z "$profdata" ]; then
    rustup component add llvm-tools
    profdata="$(find_profdata)"
fi
if [ -z "$profdata" ]; then
    echo "build-pgo.sh: llvm-profdata not found under $sysroot (rustup component add llvm-tools)" >&2
    exit 1
fi

# RUSTFLAGS replaces the flags of .cargo/config.toml, so its target CPU is given again here.
flags=""
if [ "$(uname -m)" = x86_64 ]; then
    flags="-C target-cpu=x86-64-v2"
fi
data="$PWD/target/pgo-data"
rm -rf "$data"
mkdir -p "$data"

RUSTFLAGS="$flags -C profile-generate=$data" \
    cargo build --release -p kharbaga-cli --target-dir target/pgo-gen
gen=target/pgo-gen/release/kharbaga
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
train() {
    LLVM_PROFILE_FILE="$data/%m-%p.profraw" XDG_DATA_HOME="$work/data" "$gen" "$@" > /dev/null
}
echo "training: bench, perft and playouts under every rule set, a solve, a table build"
train bench
for rules in standard sideways dagaz; do
    train perft --depth 13 --rules "$rules"
    train bench --playouts 20000 --rules "$rules"
done
train perft --depth 9 --rules ludii
train bench --playouts 5000 --rules ludii
train tablebase generate --pieces 3 --dir "$work/tables"
train solve --tables "$work/tables" --hash 64 --nodes 2000000 \
    --position 'B:Ba1,e1,g1,i1,b2,h2,a3,c3,g3,i3,h4,i5:Wa5,b6,a7,i7,b8,d8,h8,a9,c9,e9,i9'
"$profdata" merge -o "$data/merged.profdata" "$data"

RUSTFLAGS="$flags -C profile-use=$data/merged.profdata" \
    cargo build --release -p kharbaga-cli --target-dir target/pgo
pgo=target/pgo/release/kharbaga

# The same program: the bench's node count and perft's leaves as the instrumented build's.
for bin in "$gen" "$pgo"; do
    LLVM_PROFILE_FILE="$work/check-%p.profraw" "$bin" bench --depth 10 | grep "^nodes"
    LLVM_PROFILE_FILE="$work/check-%p.profraw" "$bin" perft --depth 12 | awk '{print $1, $2}'
done > "$work/check"
half=$(($(wc -l < "$work/check") / 2))
if ! diff <(head -n "$half" "$work/check") <(tail -n "$half" "$work/check") > /dev/null; then
    echo "build-pgo.sh: $pgo counts differently from the instrumented build:" >&2
    cat "$work/check" >&2
    exit 1
fi
echo "built $pgo (bench $(head -n 1 "$work/check"), perft counts as the instrumented build's)"
