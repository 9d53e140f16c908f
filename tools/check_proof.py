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
import array
import collections
import gzip
import os
import re
import subprocess
import sys
import zlib

sys.dont_write_bytecode = True  # leave no __pycache__ in the work tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference_movegen as ref  # noqa: E402

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_BINARY = os.path.join(REPOSITORY, "target", "release", "kharbaga")

COLOUR = {"B": "Black", "W": "White"}
MAX_PIECES = 20  # per side
MAX_PATH = 20  # landing points of one move, as the Rust notation reader accepts
# The draw rules of each named set: (threefold repetition, no-progress limit or None).
DRAW_RULES = {"standard": (True, 100), "sideways": (True, 100), "ludii": (False, None), "dagaz": (False, None)}

# Every position the checker meets gets a number, its id: the lines' positions 0, 1, ... in
# file order (so a position has a line exactly when its id is below the number of lines), the
# others from there as they are reached. What is known of a position is kept in arrays by id,
# not in dicts and objects, because a proof has tens of millions of lines (a few hundred bytes
# a position in all, most of it the position string and its dict entry).
#
# A proof edge (a move of a line) is the id of the position it leads to and a few bits: what it
# leads to (END: the game is over, a prover win; LINE: a line; LEAF: neither, to be settled by
# the tables, a cycle or the no-progress count), QUIET (no capture and no man move) and BACK (it
# closes a cycle). A line's edges are consecutive in two flat arrays, from `first[id]`.
END, LINE, LEAF = 1, 2, 4
KIND = END | LINE | LEAF
QUIET, BACK = 8, 16
ALL = sys.intern("all")

# A position is kept as a number, not as its string (a third of the memory): bit 0 the side to
# move (1: White), then three bits a point in point order (a1 first), 0 for an empty point.
PIECE_CODE = {("B", False): 1, ("B", True): 2, ("W", False): 3, ("W", True): 4}
CODE_PIECE = {code: piece for piece, code in PIECE_CODE.items()}
POINT_SHIFT = {p: 1 + 3 * ref.number(p) for p in ref.POINTS}
POINTS_IN_ORDER = sorted(ref.POINTS, key=ref.number)


def encode(board, side):
    """The number of a position (board and side to move)."""
    key = 1 if side == "W" else 0
    for p, piece in board.items():
        key |= PIECE_CODE[piece] << POINT_SHIFT[p]
    return key


def decode(key):
    """The board and side to move of a position's number."""
    side = "W" if key & 1 else "B"
    key >>= 1
    board = {}
    for p in POINTS_IN_ORDER:
        if not key:
            break
        if key & 7:
            board[p] = CODE_PIECE[key & 7]
        key >>= 3
    return board, side


def side_of(key):
    """The side to move in a position's number."""
    return "W" if key & 1 else "B"


def text_of(key):
    """The canonical string of a position's number."""
    return ref.position_string(*decode(key))


class Unreadable(Exception):
    """The file cannot be read or parsed, or cannot be checked as asked (exit status 2)."""


class ProofError(Exception):
    """The proof does not prove its claim (exit status 1)."""


Rules = collections.namedtuple("Rules", "text moves limit repetition")
# The node lines: `index` maps a position's number to its id, `keys` the ids back to the numbers,
# `numbers` and `moves` give each line's number and its MOVE or `all`; the root is id 0.
Proof = collections.namedtuple("Proof", "claim rules rules_line index keys numbers moves")


# ---------------------------------------------------------------------------------------
# Reading rules, positions, moves and the proof file


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


def parse_point(text):
    """A point from its name, in either case, like the Rust reader (`C3` is `c3`)."""
    return ref.parse_point(text.lower())


def read_position(text):
    """Reads a position string as `kharbaga moves` does (`SIDE:B<points>:W<points>`, K before
    a Mullah's point, lists in either order, or `start`) and checks it: no point twice, no
    man on its promotion rank, at most 20 pieces a side. Returns (board, side) in the
    reference generator's form; raises ValueError saying what is wrong."""
    text = text.strip()
    if not text:
        raise ValueError("empty")
    if text.lower() == "start":
        text = ref.START
    fields = text.split(":")
    if len(fields) > 3:
        raise ValueError("too many ':'-separated fields (expected SIDE:LIST:LIST)")
    side = fields[0].strip().upper()
    if side not in COLOUR:
        raise ValueError(f"side to move {fields[0]!r} is not B or W")
    board, lists = {}, set()
    for field in fields[1:]:
        field = field.strip()
        colour = field[:1].upper()
        if colour not in COLOUR:
            raise ValueError(f"piece list {field!r} does not start with B or W")
        if colour in lists:
            raise ValueError(f"a second list for {COLOUR[colour]}")
        lists.add(colour)
        if not field[1:].strip():
            continue
        for item in field[1:].split(","):
            item = item.strip()
            mullah = item[:1] in ("K", "k")
            point = parse_point(item[1:] if mullah else item)
            if point in board:
                raise ValueError(f"point {ref.name(point)} is listed twice")
            if not mullah and point[1] == ref.far_rank(colour):
                raise ValueError(f"a {COLOUR[colour]} man on {ref.name(point)} stands on its promotion rank")
            board[point] = (colour, mullah)
    for colour in COLOUR:
        count = sum(1 for piece in board.values() if piece[0] == colour)
        if count > MAX_PIECES:
            raise ValueError(f"{COLOUR[colour]} has {count} pieces (at most {MAX_PIECES})")
    return board, side


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


# ---------------------------------------------------------------------------------------
# Moves


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


# ---------------------------------------------------------------------------------------
# Tables


def probe_tables(binary, tables, rules_text, positions):
    """The table values of `positions` from one run of `BINARY tablebase probe` in batch
    mode: a dict from position to (result, plies) for the side to move, result `win`,
    `loss` or `draw` (plies None), or to None where the tables do not hold it."""
    if not positions:
        return {}
    command = [binary, "tablebase", "probe", "--rules", rules_text, "--tables", tables]
    try:
        done = subprocess.run(command, input="".join(p + "\n" for p in positions), capture_output=True, text=True)
    except OSError as e:
        raise Unreadable(f"cannot run {binary}: {e}")
    answers = done.stdout.splitlines()
    if len(answers) != len(positions):
        raise Unreadable(
            f"`{' '.join(command)}` answered {len(answers)} lines for {len(positions)} positions"
            f" (exit status {done.returncode}): {done.stderr.strip()}"
        )
    values = {}
    for position, answer in zip(positions, answers):
        words = answer.split()
        if answer.startswith("error:"):
            values[position] = None
        elif words == ["draw"]:
            values[position] = ("draw", None)
        elif len(words) == 2 and words[0] in ("win", "loss") and words[1].isdigit():
            values[position] = (words[0], int(words[1]))
        else:
            raise Unreadable(f"`{' '.join(command)}` answered {answer!r} for {position}")
    return values


def for_prover(value, position, prover):
    """A table value (for the side to move in `position`) seen from the prover's side."""
    if value is None or value[0] == "draw" or position[0] == prover:
        return value
    return ("loss" if value[0] == "win" else "win", value[1])


def describe(value):
    """A table value from the prover's side, in words."""
    result, plies = value
    return "a draw" if result == "draw" else f"a {result} in {plies} plies for the prover"


# ---------------------------------------------------------------------------------------
# Checking


class Checker:
    """Checks one proof under one set of rules; `check` returns the summary line or raises
    ProofError. `probe` maps a list of positions to their table values (None: no tables).
    Positions are ids (see the comment on END above); `keys[i]` is position i's number and
    `name(i)` its string."""

    def __init__(self, proof, rules, probe=None):
        self.proof, self.rules, self.probe = proof, rules, probe
        self.index, self.keys = proof.index, proof.keys
        self.lines = len(proof.moves)  # the ids of the lines' positions are below this
        self.win = proof.claim == "win"
        root_side = side_of(self.keys[0])
        self.prover = root_side if proof.moves[0] != ALL else ref.other(root_side)
        self.moves = {}  # legal moves of line positions seen but not yet expanded
        self.terminal = bytearray(self.lines)  # by id: 0 not known yet, 1 can move, 2 cannot
        self.first = array.array("q", [-1]) * self.lines  # by line: its first edge, -1 until expanded
        self.degree = array.array("i", [0]) * self.lines  # by line: its number of edges
        self.children = array.array("i")  # by edge: the id it leads to
        self.bits = bytearray()  # by edge: END, LINE or LEAF, QUIET, BACK
        self.order = array.array("i", [0])  # every position reached, in the order first reached
        self.came_from = array.array("i", [-1]) * self.lines  # by id: the parent that first reached it
        self.postorder = array.array("i")

    def id_of(self, key):
        """The id of a position's number, given one if it has none yet."""
        i = self.index.get(key)
        if i is None:
            i = self.index[key] = len(self.keys)
            self.keys.append(key)
            self.terminal.append(0)
            self.came_from.append(-1)
        return i

    def name(self, i):
        """The string of position i."""
        return text_of(self.keys[i])

    def line_no(self, i):
        """The line number of a position's line."""
        return self.proof.numbers[i]

    def edges(self, i):
        """The edges of an expanded line, as a range of edge numbers."""
        return range(self.first[i], self.first[i] + self.degree[i])

    def legal(self, i):
        """The legal moves of a line's position: every path where the prover plays from it
        (to read its MOVE), one per move where the opponent does."""
        if i not in self.moves:
            board, side = decode(self.keys[i])
            self.moves[i] = ref.legal_moves(board, side, self.rules.moves, all_paths=side == self.prover)
        return self.moves[i]

    def is_terminal(self, i):
        """Whether the side to move in position i has no legal move (cached)."""
        if not self.terminal[i]:
            if i < self.lines:
                stuck = not self.legal(i)
            else:
                board, side = decode(self.keys[i])
                stuck = not has_move(board, side, self.rules.moves)
            self.terminal[i] = 2 if stuck else 1
        return self.terminal[i] == 2

    def expand(self, i):
        """Records the edges of line i: its MOVE's, or every legal reply of an `all` line,
        as the positions they lead to and their bits (QUIET only, until classified). The
        notation of a move is worked out again when a message needs it (`move_text`)."""
        board, side = decode(self.keys[i])
        moves = self.legal(i)
        del self.moves[i]
        text = self.proof.moves[i]
        if text != ALL:
            move, reason = find_move(board, side, self.rules.moves, text, moves)
            if move is None:
                raise ProofError(f"line {self.line_no(i)}: {self.name(i)}: {reason}")
            moves = [move]
        self.first[i] = len(self.children)
        self.degree[i] = len(moves)
        for move in moves:
            self.children.append(self.id_of(self.child(board, side, move)))
            self.bits.append(QUIET if move[0] == "-" and board[move[1][0]][1] else 0)

    def child(self, board, side, move):
        """The number of the position `move` leads to."""
        return encode(ref.play(board, side, move, self.rules.moves), ref.other(side))

    def move_text(self, i, child):
        """The notation of the move of line i that leads to position `child`, for a message."""
        board, side = decode(self.keys[i])
        text = self.proof.moves[i]
        if text != ALL:
            return ref.notation(find_move(board, side, self.rules.moves, text)[0])
        for move in ref.legal_moves(board, side, self.rules.moves):
            if self.child(board, side, move) == self.keys[child]:
                return ref.notation(move)
        raise AssertionError(f"no move of {self.name(i)} leads to {self.name(child)}")

    def classify(self, i, child):
        """Applies rules 1 and 3 of docs/proof-format.md to the position a move of line i
        leads to: END (the opponent cannot move), LINE (a line of the right kind) or LEAF (to
        be settled by the tables, a cycle or the no-progress count)."""
        side = side_of(self.keys[child])
        if self.is_terminal(child):
            if side == self.prover:
                raise ProofError(
                    f"line {self.line_no(i)}: after {self.move_text(i, child)} in {self.name(i)}, {COLOUR[side]} (the"
                    f" prover) has no legal move in {self.name(child)}: a loss"
                )
            return END
        if child >= self.lines:
            return LEAF
        all_line = self.proof.moves[child] == ALL
        if side == self.prover and all_line:
            raise ProofError(
                f"line {self.line_no(child)}: {self.name(child)} is `all`, but {COLOUR[side]}, the prover, is to"
                f" move there (it needs a move; reached by {self.move_text(i, child)} in {self.name(i)}, line"
                f" {self.line_no(i)})"
            )
        if side != self.prover and not all_line:
            raise ProofError(
                f"line {self.line_no(child)}: {self.name(child)} has a move, but {COLOUR[side]}, the opponent, is"
                f" to move there (it needs `all`; reached by {self.move_text(i, child)} in {self.name(i)}, line"
                f" {self.line_no(i)})"
            )
        return LINE

    def explore(self):
        """Walks every position the proof reaches, depth first and iteratively, expanding
        each line once (a line whose position ends the game is not expanded: rule 1 comes
        first). Raises ProofError for an illegal or ambiguous move, a line of the wrong kind,
        a lost position, and a cycle in a `win` proof (in a `hold` proof it marks the edge)."""
        on_line, done = 1, 2
        state = bytearray(self.lines)  # by line: 0 not reached, on_line, done
        state[0] = on_line
        self.expand(0)
        stack = [[0, self.first[0], self.first[0] + self.degree[0]]]
        while stack:
            frame = stack[-1]
            i, e, end = frame
            if e == end:
                state[i] = done
                self.postorder.append(i)
                stack.pop()
                continue
            frame[1] = e + 1
            child = self.children[e]
            kind = self.classify(i, child)
            self.bits[e] |= kind
            if self.came_from[child] < 0 and child != 0:
                self.came_from[child] = i
                self.order.append(child)
            if kind != LINE:
                continue
            if state[child] == on_line:
                if self.win:
                    raise ProofError(
                        f"line {self.line_no(i)}: {self.move_text(i, child)} in {self.name(i)} comes back to"
                        f" {self.name(child)} (line {self.line_no(child)}), which is already on the line: a cycle is a"
                        " draw, not a win"
                    )
                self.bits[e] |= BACK
            elif not state[child]:
                state[child] = on_line
                self.expand(child)
                stack.append([child, self.first[child], self.first[child] + self.degree[child]])

    def longest_line(self):
        """The longest line in plies. A line ends at a leaf, or with the move that comes back
        to a position already on it (postorder is a reverse topological order of the other
        edges)."""
        height = array.array("i", [0]) * self.lines
        children, bits = self.children, self.bits
        for i in self.postorder:
            height[i] = max(1 + (height[children[e]] if bits[e] & (KIND | BACK) == LINE else 0) for e in self.edges(i))
        return height[0]

    def quiet_run(self, i, count, via):
        """The quiet plies that lead to position i along `via` (by id, its parent), as text
        for an error message (empty when there are none). The move into a position is quiet
        exactly when its count is not 0."""
        moves = []
        while via[i] >= 0 and count[i] > 0:
            parent = via[i]
            moves.append(self.move_text(parent, i))
            i = parent
        return f" (from {self.name(i)}: {' '.join(reversed(moves))})" if moves else ""

    def no_counts(self):
        """A count and a parent for every id, none known (-1)."""
        n = len(self.keys)
        return array.array("i", [-1]) * n, array.array("i", [-1]) * n

    def counts_win(self):
        """The no-progress count of every position of a `win` proof (by id, -1 for none):
        the longest run of quiet plies that reaches it, and the move that gives it (by id,
        the parent, for the error message)."""
        count, via = self.no_counts()
        count[0] = 0
        children, bits = self.children, self.bits
        for i in reversed(self.postorder):
            for e in self.edges(i):
                b = bits[e]
                if b & END:
                    continue
                child = children[e]
                q = count[i] + 1 if b & QUIET else 0
                if q > count[child]:
                    count[child] = q
                    via[child] = i
        return count, via

    def counts_hold(self):
        """The no-progress count of every position of a `hold` proof: the shortest run of
        quiet plies that reaches it (a breadth-first search from the root and from every
        position a capture or a man move reaches)."""
        count, via = self.no_counts()
        count[0] = 0
        children, bits = self.children, self.bits
        queue = collections.deque([0])
        for i in self.postorder:
            for e in self.edges(i):
                child = children[e]
                if not bits[e] & (END | QUIET) and count[child] < 0:
                    count[child] = 0
                    via[child] = i
                    queue.append(child)
        while queue:
            i = queue.popleft()
            if i >= self.lines or self.first[i] < 0:
                continue
            for e in self.edges(i):
                child = children[e]
                if bits[e] & (END | QUIET) == QUIET and count[child] < 0:
                    count[child] = count[i] + 1
                    via[child] = i
                    queue.append(child)
        return count, via

    def check_root(self):
        """Rule 1 at the root, and the root as a table position. Returns the summary's tail
        when that settles the proof, else None."""
        root = self.name(0)
        board, side = decode(self.keys[0])
        if self.is_terminal(0):
            if side == self.prover:
                raise ProofError(
                    f"line {self.line_no(0)}: {COLOUR[side]} (the prover) has no legal move in the root {root}: a loss"
                )
            return "the opponent has no legal move"
        if self.probe is None:
            return None
        value = for_prover(self.probe([root]).get(root), root, self.prover)
        limit = self.rules.limit
        if value is None or not (
            value[0] == "win" and (limit is None or value[1] <= limit) or not self.win and value[0] == "draw"
        ):
            return None
        if self.proof.moves[0] != ALL:
            move, reason = find_move(board, side, self.rules.moves, self.proof.moves[0])
            if move is None:
                raise ProofError(f"line {self.line_no(0)}: {root}: {reason}")
        return f"the root is in the tables as {describe(value)}"

    def check(self):
        """Checks the proof; returns the summary line or raises ProofError."""
        limit = self.rules.limit
        settled = self.check_root()
        if settled is None:
            self.explore()
            # Every position reached but those that end the game, with its no-progress count.
            count, via = self.counts_win() if self.win else self.counts_hold()
            leaves = [i for i in self.order if count[i] >= 0 and i >= self.lines]
            wanted = [self.name(i) for i in leaves if limit is None or count[i] < limit]
            values = self.probe(wanted) if self.probe and wanted else {}
            for i in self.order:
                if count[i] < 0 or i == 0:
                    continue
                if i >= self.lines:
                    self.check_leaf(i, values.get(self.name(i)), count, via)
                elif self.win and limit is not None and count[i] >= limit:
                    raise self.no_progress(i, count, via)
        unreached = self.lines - sum(1 for i in self.order if i < self.lines)
        plies = 0 if settled else self.longest_line()
        summary = (
            f"proof holds: {self.rules.text}, {COLOUR[self.prover]} "
            + ("wins" if self.win else "holds at least a draw")
            + f" from {self.name(0)} ({plural(self.lines, 'line')}, {plural(len(self.order), 'position')},"
            + f" longest line {plural(plies, 'ply', 'plies')}"
        )
        if unreached:
            summary += f", {unreached} not reached"
        return summary + (f"; {settled})" if settled else ")")

    def no_progress(self, i, count, via):
        """The error for a position of a `win` proof reached with its no-progress count at
        the limit."""
        parent, q = via[i], count[i]
        return ProofError(
            f"line {self.line_no(parent)}: {self.move_text(parent, i)} in {self.name(parent)} reaches {self.name(i)}"
            f" after {plural(q, 'ply', 'plies')} without a capture or a man move, the no-progress limit"
            f" ({self.rules.limit}): a draw, not a win" + self.quiet_run(i, count, via)
        )

    def check_leaf(self, i, value, count, via):
        """Rules 2, 4, 5 and 6 for a position without a line, reached with its count."""
        limit, q, key = self.rules.limit, count[i], self.name(i)
        parent = self.came_from[i]
        where = (
            f"line {self.line_no(parent)}: after {self.move_text(parent, i)} in {self.name(parent)}, {key} has no line"
        )
        value = for_prover(value, key, self.prover)
        if self.win:
            if limit is not None and q >= limit:
                raise self.no_progress(i, count, via)
            if value is not None and value[0] == "win":
                if limit is None or q + value[1] <= limit:
                    return
                parent = via[i]  # the line of play with the most quiet plies
                raise ProofError(
                    f"line {self.line_no(parent)}: after {self.move_text(parent, i)} in {self.name(parent)}, {key} has"
                    f" no line, and the tables give {describe(value)}, but it is reached after"
                    f" {plural(q, 'quiet ply', 'quiet plies')}: {q} + {value[1]} is over the no-progress limit"
                    f" ({limit})" + self.quiet_run(i, count, via)
                )
        else:
            if value is not None and value[0] in ("win", "draw"):
                return
            if limit is not None and q >= limit:
                return
        if value is not None:
            raise ProofError(f"{where}, and the tables give {describe(value)}")
        tables = " or in the tables" if self.probe else ""
        raise ProofError(f"{where}{tables}: the proof is incomplete")


def plural(n, word, words=None):
    """`1 line`, `2 lines`."""
    return f"{n} {word if n == 1 else words or word + 's'}"


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
        probe = None
        if args.tables:
            def probe(positions):
                return probe_tables(args.kharbaga, args.tables, rules.text, positions)
        summary = Checker(proof, rules, probe).check()
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
