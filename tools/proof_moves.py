"""Moves for tools/check_proof.py: the syntax of a move as the Rust notation reader reads it,
the legal move that a proof's MOVE names (full path, or `fromxto` when that names one move),
and whether a side has a legal move at all."""

import re

import reference_movegen as ref
from proof_positions import COLOUR, parse_point

MAX_PATH = 20  # landing points of one move, as the Rust notation reader accepts


def parse_move_text(text):
    """Reads the syntax of a move as the Rust notation reader does: points joined all by `-`
    (a step or slide: two points) or all by `x` (`X` and `:` too: a capture). Returns
    (points, is_capture); raises ValueError."""
    names = re.split(r"[-xX:]", text)
    separators = set(re.findall(r"[-xX:]", text))
    if "-" in separators and len(separators) > 1:
        raise ValueError("'-' (a step) and 'x' (a capture) are mixed")
    points = []
    for name in names:
        if not name:
            raise ValueError("a point name is missing")
        points.append(parse_point(name))
    if len(points) < 2:
        raise ValueError("expected at least two points, like e3-e5 or c5xe3")
    if len(points) - 1 > MAX_PATH:
        raise ValueError("too many landing points")
    capture = bool(separators) and "-" not in separators
    if not capture and len(points) > 2:
        raise ValueError("a step or slide has two points; captures are written with x")
    return points, capture


def effect(move):
    """What a move does: its start, its end and the set it captures (two paths with the same
    effect are one move)."""
    _, path, captured = move
    return path[0], path[-1], frozenset(captured)


def find_move(board, side, rules, text, paths=None):
    """The legal move that `text` names, as the Rust notation reader finds it: a capture by
    any of its full paths, or by `fromxto` when that names exactly one move; a step or slide
    by its two points. `paths` is every legal path (computed when not given). Returns
    (move, None), the move written with its canonical path, or (None, reason)."""
    points, capture = parse_move_text(text)
    start, rest = points[0], points[1:]
    if paths is None:
        paths = ref.legal_moves(board, side, rules, all_paths=True)
    if capture:
        sequences = [m for m in paths if m[0] == "x" and m[1][0] == start]
        exact = any(m[1][1:] == rest for m in sequences)
        fits = [m for m in sequences if (m[1][1:] == rest if exact else len(rest) == 1 and m[1][-1] == rest[0])]
    else:
        fits = [m for m in paths if m[0] == "-" and m[1][0] == start and m[1][-1] == rest[0]]
    found = {effect(m) for m in fits}
    if len(found) == 1:
        return canonical(paths, found.pop()), None
    if found:
        names = sorted(ref.notation(canonical(paths, e)) for e in found)
        return None, f"{text} is ambiguous; write the whole path: {' or '.join(names)}"
    legal = ref.legal_moves(board, side, rules)
    from_here = [m for m in legal if m[1][0] == start]
    piece = board.get(start)
    if piece is None:
        reason = f"there is no piece on {ref.name(start)}"
    elif piece[0] != side:
        reason = f"the piece on {ref.name(start)} is {COLOUR[piece[0]]}'s, and {COLOUR[side]} is to move"
    elif not from_here and rules["compulsory"] and any(m[0] == "x" for m in legal):
        reason = "a capture is compulsory and this piece cannot make one"
    elif not from_here:
        reason = f"the piece on {ref.name(start)} cannot move"
    else:
        reason = f"the piece on {ref.name(start)} has no such move"
    names = sorted(ref.notation(m) for m in (from_here or legal))
    return None, f"{text} is not legal here: {reason}" + (f"; legal: {' '.join(names)}" if names else "")


def canonical(paths, move_effect):
    """The move of the given effect written as `kharbaga moves` writes it: with the path
    whose points come first in point order."""
    return min((m for m in paths if effect(m) == move_effect), key=lambda m: [ref.number(p) for p in m[1]])


def has_move(board, side, rules):
    """Whether `side` has a legal move (a step or slide, or a capture)."""
    mine = [p for p in board if board[p][0] == side]
    return any(ref.plain_moves(board, p, rules) for p in mine) or any(
        ref.capture_sequences(board, p, rules) for p in mine
    )
