"""Reading for tools/check_proof.py: rules strings (move options, no-progress limit,
repetition) and the proof file (docs/proof-format.md), gzip-compressed or not, read a line
at a time into its claim, its `# rules:` and its node lines."""

import array
import collections
import gzip
import re
import sys
import zlib

import reference_movegen as ref
from proof_errors import Unreadable
from proof_moves import parse_move_text
from proof_positions import encode, read_position, text_of

# The draw rules of each named set: (threefold repetition, no-progress limit or None).
DRAW_RULES = {"standard": (True, 100), "sideways": (True, 100), "ludii": (False, None), "dagaz": (False, None)}
# The MOVE of an `all` line (one string for every `all`).
ALL = sys.intern("all")

Rules = collections.namedtuple("Rules", "text moves limit repetition")
# The node lines: `index` maps a position's number to its id, `keys` the ids back to the numbers,
# `numbers` and `moves` give each line's number and its MOVE or `all`; the root is id 0.
Proof = collections.namedtuple("Proof", "claim rules rules_line index keys numbers moves")


def parse_rules(text):
    """Reads a rules string into Rules: the move options (reference_movegen.parse_rules,
    which ignores the draw options), the no-progress limit (None when off) and whether
    threefold repetition draws. Raises ValueError when the string is wrong."""
    moves = ref.parse_rules(text)
    name, *overrides = [part.strip() for part in text.split(",")]
    repetition, limit = DRAW_RULES[name]
    for item in overrides:
        key, _, value = (s.strip() for s in item.partition("="))
        if key == "repetition":
            if value not in ref.YES:
                raise ValueError(f"bad value {value!r} for repetition (yes|no)")
            repetition = ref.YES[value]
        elif key == "no-progress":
            if value in ("off", "no"):
                limit = None
            elif re.fullmatch(r"[0-9]+", value) and int(value) > 0:
                limit = int(value)
            else:
                raise ValueError(f"bad value {value!r} for no-progress (a number above 0, or off)")
    return Rules(text, moves, limit, repetition)


def read_proof(path):
    """Reads a proof file into a Proof: the claim, the `# rules:` string (or None) and its
    line number, and the node lines with their canonical positions, the root first.
    Raises Unreadable with the line number of the first problem."""
    try:
        with (gzip.open if path.endswith(".gz") else open)(path, "rb") as f:
            return parse_proof(path, f)
    except (OSError, EOFError, zlib.error) as e:
        raise Unreadable(f"{path}: cannot read: {e}")


def parse_proof(path, f):
    """read_proof's work on an open binary file, read a line at a time (a proof of tens of
    millions of lines is never held whole)."""
    claim = rules = claim_line = rules_line = None
    index, keys, numbers, moves = {}, [], array.array("q"), []
    for number, data in enumerate(f, 1):
        try:
            raw = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise Unreadable(f"{path}: line {number}: not UTF-8 (byte {e.start} of the line)")
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            key, sep, value = line[1:].partition(":")
            key, value = key.strip(), value.strip()
            if sep and key == "rules":
                if rules is not None and value != rules:
                    raise Unreadable(
                        f"{path}: line {number}: a second `# rules:` ({value!r}; line {rules_line}: {rules!r})"
                    )
                try:
                    parse_rules(value)
                except ValueError as e:
                    raise Unreadable(f"{path}: line {number}: bad rules {value!r}: {e}")
                rules, rules_line = value, number
            elif sep and key == "claim":
                if value not in ("win", "hold"):
                    raise Unreadable(f"{path}: line {number}: the claim is `win` or `hold`, not {value!r}")
                if claim is not None and value != claim:
                    raise Unreadable(
                        f"{path}: line {number}: a second `# claim:` ({value}; line {claim_line}: {claim})"
                    )
                claim, claim_line = value, number
            continue
        fields = line.split()
        if len(fields) != 2:
            raise Unreadable(f"{path}: line {number}: expected `POSITION MOVE` or `POSITION all`, not {line!r}")
        position, move = fields
        try:
            key = encode(*read_position(position))
        except ValueError as e:
            raise Unreadable(f"{path}: line {number}: bad position string {position!r}: {e}")
        if move == ALL:
            move = ALL  # one string for every `all`
        else:
            try:
                parse_move_text(move)
            except ValueError as e:
                raise Unreadable(f"{path}: line {number}: bad move {move!r}: {e}")
        if key in index:
            raise Unreadable(
                f"{path}: line {number}: {text_of(key)} already has a line (line {numbers[index[key]]})"
            )
        index[key] = len(keys)
        keys.append(key)
        numbers.append(number)
        moves.append(move)
    if not keys:
        raise Unreadable(f"{path}: no node line (a proof needs at least its root)")
    return Proof(claim or "win", rules, rules_line, index, keys, numbers, moves)
