"""The walk of a proof for tools/check_proof.py: the Checker expands each position of the proof
graph once, with an iterative depth-first search from the root, checks every move and every
position reached against the rules of docs/proof-format.md, computes the no-progress counts,
settles the leaves (by the tables, a cycle or the no-progress count) and writes the summary
line."""

import array
import collections

import reference_movegen as ref
from proof_errors import ProofError
from proof_file import ALL
from proof_moves import find_move, has_move
from proof_positions import COLOUR, decode, encode, side_of, text_of
from proof_tables import describe, for_prover

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
