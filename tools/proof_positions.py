"""Positions for tools/check_proof.py: reading position strings as `kharbaga moves` does, and
the compact number a position is kept as (with its board, side to move and canonical string
worked back from it)."""

import reference_movegen as ref

COLOUR = {"B": "Black", "W": "White"}
MAX_PIECES = 20  # per side


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
