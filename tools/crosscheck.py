#!/usr/bin/env python3
"""Cross-checks the move generator of the `kharbaga` binary against the independent Python
reference (tools/reference_movegen.py).

For every rule set below it makes positions of its own, with a seeded random generator:
the positions of random games played with the reference generator from the start, and
random placements with men and Mullahs of both colours. It feeds them, one per line, to
`BINARY moves --rules R` and to `BINARY moves --rules R --paths` (batch mode: one output
line per position, moves sorted in byte order, separated by single spaces) and compares
every line with the reference's. For a sample of the positions it also compares
`BINARY perft --divide --depth 2` (each move with the number of replies after it, which
checks how the binary plays the moves, too). Differences are printed with the position, the rules and
the moves only one side lists; the exit status is 1 if there is any, else 0 after the line
`crosscheck: N positions, 0 differences`.

Usage: crosscheck.py [BINARY] [--games N] [--placements N] [--divides N] [--seed S]
                     [--rules R ...]
BINARY defaults to target/release/kharbaga.
"""

import argparse
import os
import random
import subprocess
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the work tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference_movegen as ref  # noqa: E402

# The named sets, each option changed on its own from standard, and a few sets combined
# with the option that distinguishes another.
RULES = [
    "standard",
    "sideways",
    "ludii",
    "dagaz",
    "standard,sideways=yes",
    "standard,backwards=no",
    "standard,compulsory=no",
    "standard,chains=no",
    "standard,majority=no",
    "standard,removal=immediate",
    "standard,back-rank=promote",
    "standard,removal=immediate,turn-back=no",
    "dagaz,turn-back=yes",
    "dagaz,majority=no,backwards=no",
    "sideways,removal=immediate,back-rank=promote",
    "ludii,chains=yes",
]
MAX_PLIES = 160


def random_game_positions(rng, rules, plies):
    """The positions of one random game from the start (each before its move)."""
    board, side = ref.parse_position(ref.START)
    out = []
    for _ in range(plies):
        moves = ref.legal_moves(board, side, rules)
        if not moves:
            break
        out.append(ref.position_string(board, side))
        board = ref.play(board, side, rng.choice(moves), rules)
        side = ref.other(side)
    return out


def random_placement(rng):
    """A legal placement: up to 20 pieces a side, some Mullahs, no man on its far rank."""
    points = list(ref.POINTS)
    rng.shuffle(points)
    board = {}
    mullah_share = rng.choice([0.0, 0.2, 0.5, 1.0])
    for colour in "BW":
        for _ in range(rng.choice([1, 2, 3, 4, 6, 8, 12, 20])):
            p = points.pop()
            mullah = rng.random() < mullah_share or p[1] == ref.far_rank(colour)
            board[p] = (colour, mullah)
    return ref.position_string(board, rng.choice("BW"))


def run_binary(binary, rules, paths, positions):
    args = [binary, "moves", "--rules", rules] + (["--paths"] if paths else [])
    done = subprocess.run(args, input="\n".join(positions) + "\n", capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"crosscheck: {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()}")
    return done.stdout.splitlines()


def reference_divide(position, rules, paths):
    """Each legal move with the number of legal replies after it."""
    board, side = ref.parse_position(position)
    return {
        ref.notation(m): len(ref.legal_moves(ref.play(board, side, m, rules), ref.other(side), rules, paths))
        for m in ref.legal_moves(board, side, rules, paths)
    }


def binary_divide(binary, rules_text, position, paths):
    args = [binary, "perft", "--rules", rules_text, "--position", position, "--depth", "2", "--divide"]
    done = subprocess.run(args + (["--paths"] if paths else []), capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"crosscheck: {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()}")
    counts = dict(line.split() for line in done.stdout.splitlines() if not line.startswith("total"))
    return {move: int(n) for move, n in counts.items()}


def compare_divides(binary, rules_text, positions):
    """Compares perft --divide at depth 2 on `positions`; returns the number of differences."""
    rules = ref.parse_rules(rules_text)
    differences = 0
    for position in positions:
        for paths in (False, True):
            theirs = binary_divide(binary, rules_text, position, paths)
            ours = reference_divide(position, rules, paths)
            if theirs != ours:
                differences += 1
                print(f"DIFFERENCE perft --divide --depth 2 rules {rules_text}{' --paths' if paths else ''} position {position}")
                for move in sorted(set(theirs) | set(ours)):
                    if theirs.get(move) != ours.get(move):
                        print(f"  {move}: binary {theirs.get(move)}, reference {ours.get(move)}")
    return differences


def compare(binary, rules_text, positions):
    """Prints each position where the binary and the reference disagree; returns the count."""
    rules = ref.parse_rules(rules_text)
    differences = 0
    for paths in (False, True):
        theirs = run_binary(binary, rules_text, paths, positions)
        if len(theirs) != len(positions):
            print(f"rules {rules_text}: {len(positions)} positions in, {len(theirs)} lines out")
            return differences + 1
        for position, line in zip(positions, theirs):
            ours = ref.moves_line(position, rules, paths)
            if line != ours:
                differences += 1
                a, b = set(line.split()), set(ours.split())
                print(f"DIFFERENCE rules {rules_text}{' --paths' if paths else ''} position {position}")
                print(f"  binary:    {line}")
                print(f"  reference: {ours}")
                print(f"  only binary: {' '.join(sorted(a - b))}; only reference: {' '.join(sorted(b - a))}")
    return differences


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", nargs="?", default="target/release/kharbaga")
    parser.add_argument("--games", type=int, default=6, help="random games per rule set")
    parser.add_argument("--placements", type=int, default=150, help="random placements per rule set")
    parser.add_argument("--divides", type=int, default=20, help="positions per rule set for perft --divide")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", nargs="+", default=RULES)
    args = parser.parse_args()
    if not os.path.exists(args.binary):
        sys.exit(f"crosscheck: no binary at {args.binary} (build it: cargo build --release -p kharbaga-cli)")
    total = differences = 0
    for i, rules_text in enumerate(args.rules):
        rng = random.Random(args.seed * 1000 + i)
        rules = ref.parse_rules(rules_text)
        positions = []
        for _ in range(args.games):
            positions += random_game_positions(rng, rules, MAX_PLIES)
        positions += [random_placement(rng) for _ in range(args.placements)]
        positions = list(dict.fromkeys(positions))  # distinct, in order
        total += len(positions)
        differences += compare(args.binary, rules_text, positions)
        differences += compare_divides(args.binary, rules_text, rng.sample(positions, min(args.divides, len(positions))))
    print(f"crosscheck: {total} positions, {differences} differences")
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
