#!/usr/bin/env python3
"""An independent checker of Kharbaga proof files (docs/proof-format.md).

It replays a proof with the independent reference move generator
(tools/reference_movegen.py) and shares no code with the Rust solver or its checker
(`kharbaga verify-proof`); the only use of the Rust binary is to read the endgame tables for
table leaves, when --tables is given.

Usage:
    check_proof.py [--rules R] [--tables DIR] [--kharbaga BIN] FILE

FILE is a proof file, gzip-compressed when its name ends in `.gz`. --rules defaults to the
file's `# rules:` comment, else `standard`; when both are given they must agree. With
--tables, positions that have no line are looked up by running
`BIN tablebase probe --rules R --tables DIR` once, in batch mode (BIN defaults to
target/release/kharbaga in this repository); the root is looked up first, on its own.

What it checks, from the root (the first node line) with no history and a no-progress count
of 0: the prover is the side to move at the root when the root line has a move, the other
side when it is `all`. Every move of a `MOVE` line must be legal (full path, or `fromxto`
when that names one move, as `kharbaga play` reads it), every legal reply of an `all` line
is followed, and every position reached is covered by the rules of docs/proof-format.md:
the game is over (a win for the prover, or an error), it has a line of the right kind, it
is a table leaf of the right value, or, in a `hold` proof, it closes a cycle or the
no-progress count has reached the limit. A `win` proof may not contain a cycle, and no
position on it may be reached with the no-progress count at the limit (for a table win in
d plies reached with count q: q + d <= limit).

The proof is a graph with transpositions, and it is walked as one: each position is
expanded once, with an iterative depth-first search. Cycles are the search's back edges.
The no-progress count is, in a `win` proof, the longest run of quiet plies (no capture, no
man move) that reaches a position (the graph has no cycle, so it is computed in
topological order); in a `hold` proof the shortest one, since a smaller count leaves fewer
positions that end the game.

How it reads the points docs/proof-format.md leaves open:
- The rules are applied in their order: a position whose side to move has no move ends the
  game even when it has a line, and a position with a line is followed on that line even in
  a `hold` proof where the count has reached the limit.
- The root is first looked up in the tables (with --tables); when they give it the claimed
  value (in a `win` proof a win within the limit) nothing else is followed, but a root
  MOVE must still be legal.
- In a `hold` proof a leaf that the tables give as lost for the prover is still a leaf when
  the count there has reached the limit (the game is drawn before the loss).
- The repetition option changes nothing here: a `win` proof has no cycle at all, and a
  `hold` proof accepts every cycle (a draw by repetition, by the no-progress rule, or an
  endless game).
- A shortened capture is `fromxto` only, as the Rust notation reader accepts it; a path
  with some of the landing points left out is not a move.

Output: `proof holds: RULES, SIDE wins from ROOT (N lines, M positions, longest line K
plies)` (or `SIDE holds at least a draw from ROOT`) and exit status 0; otherwise
`proof fails: ` and the first error found, with the line number, and exit status 1. A
file that cannot be read or parsed, or rules that disagree with --rules, give a message
on standard error and exit status 2. In a `hold` proof the longest line is counted up to
the point where it comes back to a position already on it.
"""

import argparse
import os
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the work tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# The checker's parts, each in its own file beside this one (this file keeps the command):
# proof_errors (the two failures), proof_positions (position strings and numbers),
# proof_moves (move notation, finding a MOVE among the legal moves), proof_file (rules
# strings, reading the proof file), proof_tables (probing the tables with the binary) and
# proof_checker (the walk of the proof graph).
from proof_checker import Checker  # noqa: E402
from proof_errors import ProofError, Unreadable  # noqa: E402
from proof_file import parse_rules, read_proof  # noqa: E402
from proof_tables import probe_tables  # noqa: E402

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_BINARY = os.path.join(REPOSITORY, "target", "release", "kharbaga")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", metavar="FILE", help="the proof file (gzip when the name ends in .gz)")
    parser.add_argument("--rules", help="the rules string (default: the file's `# rules:`, else standard)")
    parser.add_argument("--tables", metavar="DIR", help="the endgame tables, for table leaves")
    parser.add_argument(
        "--kharbaga", metavar="BIN", default=DEFAULT_BINARY, help="the kharbaga binary, to probe the tables"
    )
    args = parser.parse_args(argv)
    try:
        proof = read_proof(args.file)
        text = args.rules or proof.rules or "standard"
        try:
            rules = parse_rules(text)
        except ValueError as e:
            raise Unreadable(f"bad rules {text!r}: {e}")
        if args.rules and proof.rules and parse_rules(proof.rules) != rules._replace(text=proof.rules):
            raise Unreadable(
                f"{args.file}: line {proof.rules_line}: the proof's rules {proof.rules!r} do not agree with"
                f" --rules {args.rules!r}"
            )
        def probe(positions):
            return probe_tables(args.kharbaga, args.tables, rules.text, positions)
        summary = Checker(proof, rules, probe if args.tables else None).check()
    except Unreadable as e:
        print(f"check_proof.py: {e}", file=sys.stderr)
        return 2
    except ProofError as e:
        print(f"proof fails: {e}")
        return 1
    print(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
