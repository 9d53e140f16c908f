#!/usr/bin/env python3
"""An independent reference move generator for Kharbaga, written from the specification
(shared/kharbaga-rules.md, docs/rules.md) and not from the Rust code, to cross-check it.

It is deliberately simple and slow: the board is a dict from points to pieces, a capture
sequence is a plain recursive search, and every rule option is a dictionary entry tested
where the specification states the rule.

Points are (x, y) in doubled coordinates, 0..8 each, where x and y have the same parity
(grid points: both even; cell centres: both odd). A piece is (colour, is_mullah), colour
'B' or 'W'. A move is (sep, path, captured): sep '-' for a step or slide and 'x' for a
capture, path the start and every landing point, captured the list of points jumped.

Usage:
    reference_movegen.py moves [--rules R] [--paths] [POSITION]
        Prints the legal moves of POSITION (default: positions read from standard input,
        one per line, one output line each), sorted in byte order, separated by spaces.
    reference_movegen.py perft [--rules R] [--paths] [--position P] DEPTH
        Prints "depth nodes" for every depth from 1 to DEPTH.

A rules string is a set name (standard, sideways, ludii, dagaz) optionally followed by
comma-separated OPTION=VALUE overrides, e.g. `standard,removal=immediate`. The options that
change move generation: sideways, backwards, compulsory, chains, majority (yes|no),
removal (delayed|immediate), back-rank (continue|promote), turn-back (yes|no).
`repetition` and `no-progress` are accepted and ignored (they only end games).

When several capture paths have the same start, end and captured set they are one move
(specification, "Moves"); `moves` then prints the path that is smallest when its points
are compared by their number, rank by rank from a1 (a1=0, c1=1, ..., i9=40), which is the
convention of `kharbaga moves`. With --paths every path is printed.
"""

import argparse
import sys

FILES = "abcdefghi"
POINTS = [(x, y) for y in range(9) for x in range(9) if x % 2 == y % 2]
ON_BOARD = set(POINTS)
DIAGONAL = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
ORTHOGONAL = [(0, 2), (0, -2), (2, 0), (-2, 0)]

START = (
    "B:Ba1,c1,e1,g1,i1,b2,d2,f2,h2,a3,c3,e3,g3,i3,b4,d4,f4,h4,g5,i5"
    ":Wa5,c5,b6,d6,f6,h6,a7,c7,e7,g7,i7,b8,d8,f8,h8,a9,c9,e9,g9,i9"
)

STANDARD = {
    "sideways": False,
    "backwards": True,
    "compulsory": True,
    "chains": True,
    "majority": True,
    "removal": "delayed",
    "back-rank": "continue",
    "turn-back": True,
}
RULE_SETS = {
    "standard": STANDARD,
    "sideways": dict(STANDARD, sideways=True, backwards=False, majority=False),
    "ludii": dict(STANDARD, compulsory=False, chains=False, majority=False),
    "dagaz": dict(STANDARD, sideways=True, removal="immediate", **{"back-rank": "promote", "turn-back": False}),
}
CHOICES = {"removal": ("delayed", "immediate"), "back-rank": ("continue", "promote")}
IGNORED = ("repetition", "no-progress")
YES = {"yes": True, "on": True, "true": True, "no": False, "off": False, "false": False}


def parse_rules(text):
    """Reads a rules string like `standard,removal=immediate` into an option dict."""
    name, *overrides = [part.strip() for part in text.split(",")]
    if name not in RULE_SETS:
        raise ValueError(f"unknown rule set {name!r}")
    rules = dict(RULE_SETS[name])
    for item in overrides:
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not sep:
            raise ValueError(f"{item!r} is not OPTION=VALUE")
        if key in IGNORED:
            continue
        if key in CHOICES:
            if value not in CHOICES[key]:
                raise ValueError(f"bad value {value!r} for {key}")
            rules[key] = value
        elif key in STANDARD:
            if value not in YES:
                raise ValueError(f"bad value {value!r} for {key}")
            rules[key] = YES[value]
        else:
            raise ValueError(f"unknown option {key!r}")
    return rules


def name(p):
    return FILES[p[0]] + str(p[1] + 1)


def parse_point(text):
    if len(text) != 2 or text[0] not in FILES or text[1] not in "123456789":
        raise ValueError(f"bad point {text!r}")
    p = (FILES.index(text[0]), int(text[1]) - 1)
    if p not in ON_BOARD:
        raise ValueError(f"no point {text!r}")
    return p


def number(p):
    """The point's number, rank by rank from a1 = 0 to i9 = 40."""
    return (9 * p[1] + p[0]) // 2


def parse_position(text):
    """Reads `SIDE:B<points>:W<points>` (K before a point marks a Mullah) or `start`."""
    text = text.strip()
    if text == "start":
        text = START
    side, *lists = text.split(":")
    if side not in ("B", "W") or len(lists) > 2:
        raise ValueError(f"bad position {text!r}")
    board = {}
    for lst in lists:
        colour = lst[0]
        for item in filter(None, lst[1:].split(",")):
            mullah = item.startswith("K")
            board[parse_point(item[1:] if mullah else item)] = (colour, mullah)
    return board, side


def position_string(board, side):
    def lst(colour):
        pts = sorted((p for p in board if board[p][0] == colour), key=number)
        return colour + ",".join(("K" if board[p][1] else "") + name(p) for p in pts)

    return f"{side}:{lst('B')}:{lst('W')}"


def directions(p):
    """Line directions at p: centres (odd coordinates) have only the diagonals."""
    return DIAGONAL + ORTHOGONAL if p[0] % 2 == 0 else DIAGONAL


def step(p, d, k=1):
    return (p[0] + k * d[0], p[1] + k * d[1])


def forward(colour):
    return 1 if colour == "B" else -1


def far_rank(colour):
    return 8 if colour == "B" else 0


def other(colour):
    return "W" if colour == "B" else "B"


def capture_sequences(board, start, rules):
    """Every capture sequence of the piece on `start`: a list of (path, captured)."""
    colour, mullah = board[start]
    result = []

    def legs(p, board, captured, previous):
        """The possible next jumps from p: (direction, jumped point, landing points)."""
        found = []
        for d in directions(p):
            if not mullah:
                # Short leap over an adjacent enemy to the empty point beyond, any direction
                # (backwards only if the option allows: a backward leap goes against forward).
                if not rules["backwards"] and d[1] * forward(colour) < 0:
                    continue
                over, land = step(p, d), step(p, d, 2)
                if over not in ON_BOARD or land not in ON_BOARD:
                    continue
                if over in board and board[over][0] != colour and over not in captured and land not in board:
                    found.append((d, over, [land]))
            else:
                if not rules["turn-back"] and previous and d == (-previous[0], -previous[1]):
                    continue
                # Fly over empty points to the first piece, which must be an enemy not yet taken.
                k = 1
                while step(p, d, k) in ON_BOARD and step(p, d, k) not in board:
                    k += 1
                over = step(p, d, k)
                if over not in ON_BOARD or board[over][0] == colour or over in captured:
                    continue
                lands = []
                k += 1
                while step(p, d, k) in ON_BOARD and step(p, d, k) not in board:
                    lands.append(step(p, d, k))
                    k += 1
                if lands:
                    found.append((d, over, lands))
        return found

    def search(p, board, captured, path, previous):
        nexts = legs(p, board, captured, previous)
        if captured and (not nexts or not rules["chains"]):
            result.append((path, captured))
            return
        for d, over, lands in nexts:
            for land in lands:
                after = dict(board)
                if rules["removal"] == "immediate":
                    del after[over]
                taken = captured + [over]
                if not mullah and land[1] == far_rank(colour) and rules["back-rank"] == "promote":
                    result.append((path + [land], taken))
                    continue
                search(land, after, taken, path + [land], d)

    without_mover = dict(board)
    del without_mover[start]  # the moving piece's start counts as empty during its move
    search(start, without_mover, [], [start], None)
    return result


def plain_moves(board, p, rules):
    """The steps of a man or slides of a Mullah from p, ignoring capture rules."""
    colour, mullah = board[p]
    out = []
    for d in directions(p):
        if mullah:
            k = 1
            while step(p, d, k) in ON_BOARD and step(p, d, k) not in board:
                out.append([p, step(p, d, k)])
                k += 1
        else:
            diagonal_forward = d[1] == forward(colour)
            straight_forward = d[1] == 2 * forward(colour)
            sideways = d[1] == 0 and rules["sideways"]
            if (diagonal_forward or straight_forward or sideways) and step(p, d) in ON_BOARD and step(p, d) not in board:
                out.append([p, step(p, d)])
    return out


def legal_moves(board, side, rules, all_paths=False):
    """The legal moves of `side`: a list of (sep, path, captured)."""
    captures = []
    steps = []
    for p in [q for q in board if board[q][0] == side]:
        captures += capture_sequences(board, p, rules)
        steps += plain_moves(board, p, rules)
    if captures and rules["majority"]:
        most = max(len(c) for _, c in captures)
        captures = [(path, c) for path, c in captures if len(c) == most]
    if not all_paths:
        # One move per (start, end, captured set), shown by its smallest path.
        best = {}
        for path, c in captures:
            key = (path[0], path[-1], frozenset(c))
            if key not in best or [number(q) for q in path] < [number(q) for q in best[key][0]]:
                best[key] = (path, c)
        captures = list(best.values())
    moves = [("x", path, c) for path, c in captures]
    if not captures or not rules["compulsory"]:
        moves += [("-", path, []) for path in steps]
    return moves


def notation(move):
    sep, path, _ = move
    return sep.join(name(p) for p in path)


def play(board, side, move, rules):
    """The board after `move`; a man ending on its far rank becomes a Mullah."""
    _, path, captured = move
    after = dict(board)
    colour, mullah = after.pop(path[0])
    for q in captured:
        del after[q]
    after[path[-1]] = (colour, mullah or path[-1][1] == far_rank(colour))
    return after


def perft(board, side, rules, depth, all_paths=False):
    moves = legal_moves(board, side, rules, all_paths)
    if depth == 1:
        return len(moves)
    return sum(perft(play(board, side, m, rules), other(side), rules, depth - 1, all_paths) for m in moves)


def moves_line(position, rules, all_paths):
    board, side = parse_position(position)
    return " ".join(sorted(notation(m) for m in legal_moves(board, side, rules, all_paths)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    mv = sub.add_parser("moves", help="list the legal moves, sorted")
    mv.add_argument("position", nargs="?", help="position string; default: read lines from stdin")
    pf = sub.add_parser("perft", help="count leaf nodes to each depth")
    pf.add_argument("depth", type=int)
    pf.add_argument("--position", default=START)
    for p in (mv, pf):
        p.add_argument("--rules", default="standard")
        p.add_argument("--paths", action="store_true", help="count every capture path")
    args = parser.parse_args()
    rules = parse_rules(args.rules)
    if args.command == "moves":
        lines = [args.position] if args.position else (line for line in sys.stdin if line.strip())
        for line in lines:
            print(moves_line(line, rules, args.paths), flush=True)
    else:
        board, side = parse_position(args.position)
        for depth in range(1, args.depth + 1):
            print(depth, perft(board, side, rules, depth, args.paths), flush=True)


if __name__ == "__main__":
    main()
