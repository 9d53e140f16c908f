#!/usr/bin/env python3
"""Tests of the Python proof checker, tools/check_proof.py, with small proofs built by hand.

Usage: test_check_proof.py [BINARY] [unittest options]

Each test writes a proof file and runs the checker on it as a command, checking the exit
status and the message. The positions were worked out with the rules and their move lists
are checked against the reference generator first (test_positions_as_worked_out), so a
proof here fails for the reason its test names and no other.

Table leaves are tested with a stand-in for `kharbaga tablebase probe` (a small script that
answers from a JSON file of values taken from the real 3-piece tables and logs how it was
called), and, when BINARY (default target/release/kharbaga) exists, again with real 3-piece
tables that it builds in a temporary directory.
"""

import gzip
import json
import os
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True  # leave no __pycache__ in the work tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import reference_movegen as ref  # noqa: E402

CHECKER = os.path.join(HERE, "check_proof.py")
BINARY = os.path.join(os.path.dirname(HERE), "target", "release", "kharbaga")

# Black men on e1 and g7 against a White man on d4 (standard). e1-d2 leaves the White man
# two steps, d4-c3 and d4-e3, each next to d2 with the point beyond empty: d2xb4 or d2xf4
# takes White's last piece.
WIN = [
    "B:Be1,g7:Wd4 e1-d2",
    "W:Bd2,g7:Wd4 all",
    "B:Bd2,g7:We3 d2xf4",
    "B:Bd2,g7:Wc3 d2xb4",
]

# Black's Mullah must take h2 (g1xi3); the White man left has two steps, and Black's Mullah
# takes it after either: each ply captures or moves a man.
MULLAH_WIN = [
    "B:BKg1:Wh2,f4 g1xi3",
    "W:BKi3:Wf4 all",
    "B:BKi3:Wg3 i3xe3",
    "B:BKi3:We3 i3xc3",
]

# A White Mullah shut in on a7/a9: a3 and a5 are White men that cannot move (a1, b2, b4 are
# taken) or capture (the points beyond their neighbours are taken), and every Black piece
# next to a7 or a9 has a taken point or the edge beyond it, so neither side can capture.
# White's only move is the Mullah's a7-a9 or a9-a7. Black's Mullah on i9 waits with i9-i7
# and i7-i9, and with White's Mullah on a9, b6-a7 leaves White without a move.
WALL = "Ba1,c1,b2,c3,e3,b4,c5,e5,b6,c7,e7,b8,Kc9,Ke9"


def canonical(position):
    """A position string as the checker writes it (points in order, a1 to i9)."""
    return ref.position_string(*ref.parse_position(position))


SHUT_IN = {
    (9, 7): canonical(f"B:{WALL},Ki9:Wa3,a5,Ka7"),
    (7, 7): canonical(f"W:{WALL},Ki7:Wa3,a5,Ka7"),
    (7, 9): canonical(f"B:{WALL},Ki7:Wa3,a5,Ka9"),
    (9, 9): canonical(f"W:{WALL},Ki9:Wa3,a5,Ka9"),
}
CYCLE = [  # Black holds: the four positions come round again
    f"{SHUT_IN[9, 7]} i9-i7",
    f"{SHUT_IN[7, 7]} all",
    f"{SHUT_IN[7, 9]} i7-i9",
    f"{SHUT_IN[9, 9]} all",
]
QUIET_WIN = [  # two quiet plies, then b6-a7: White cannot move
    f"{SHUT_IN[9, 7]} i9-i7",
    f"{SHUT_IN[7, 7]} all",
    f"{SHUT_IN[7, 9]} b6-a7",
]

# Black's Mullah must take c7 (b6xd8 is the only move); White's Mullah on h2 then has ten
# slides and no capture, and each leaves a 3-piece position that the tables give as a win
# for Black in 1 to 9 plies (so the no-progress count there is 1, and 1 + 9 = 10).
TABLE_ROOT = "B:BKb2,b6:WKh2,c7"
TABLE_LEAF = ["B:BKb2,b6:WKh2,c7 b6xd8", "W:BKb2,d8:WKh2 all"]
# Values from `kharbaga tablebase probe` with 3-piece standard tables, for the side to move.
TABLE_VALUES = {
    "B:BKb2,d8:WKi3": "win 3",
    "B:BKb2,d8:WKi1": "win 9",
    "B:BKb2,d8:WKg3": "win 9",
    "B:BKb2,d8:WKf4": "win 9",
    "B:BKb2,d8:WKe5": "win 1",
    "B:BKb2,d8:WKd6": "win 9",
    "B:BKb2,d8:WKc7": "win 1",
    "B:BKb2,d8:WKb8": "win 9",
    "B:BKb2,d8:WKa9": "win 9",
    "B:BKb2,d8:WKg1": "win 9",
    "W:BKb2,d8:WKh2": "loss 10",
    "B:Be1,g7:Wd4": "win 3",
    "W:BKi1:WKh6,f8": "draw",
}
# Black's Mullah must play b8xi1, into a 3-piece draw.
DRAW_LEAF = ["B:BKb8:Wh2,Kh6,f8 b8xi1"]

# The stand-in for the kharbaga binary: `tablebase probe --tables FILE` answers from the
# JSON file FILE and appends its arguments to FILE.log.
FAKE_PROBE = """\
import json, sys
args = sys.argv[1:]
assert args[:2] == ["tablebase", "probe"], args
tables = args[args.index("--tables") + 1]
with open(tables + ".log", "a") as log:
    log.write(" ".join(args) + "\\n")
with open(tables) as f:
    values = json.load(f)
for line in sys.stdin:
    print(values.get(line.strip(), "error: no table for this position"))
"""


def proof_text(lines, rules=None, claim=None):
    """A proof file's text: the header comments, then the node lines."""
    head = ["# kharbaga proof"]
    if rules:
        head.append(f"# rules: {rules}")
    if claim:
        head.append(f"# claim: {claim}")
    return "\n".join(head + list(lines)) + "\n"


class CheckerTest(unittest.TestCase):
    """Runs the checker on proof files written to a temporary directory."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def write(self, text, name="proof.txt"):
        """Writes a proof file (gzip when the name ends in .gz); returns its path."""
        path = os.path.join(self.dir.name, name)
        data = text.encode() if isinstance(text, str) else text
        with (gzip.open if name.endswith(".gz") and isinstance(text, str) else open)(path, "wb") as f:
            f.write(data)
        return path

    def check(self, lines, *args, rules=None, claim=None, name="proof.txt"):
        """Runs the checker on a proof; returns (exit status, stdout + stderr)."""
        path = self.write(proof_text(lines, rules, claim), name)
        return self.run_checker(path, *args)

    def run_checker(self, path, *args):
        done = subprocess.run([sys.executable, CHECKER, *args, path], capture_output=True, text=True)
        return done.returncode, done.stdout + done.stderr

    def assertHolds(self, result, summary):
        status, output = result
        self.assertEqual((status, output), (0, f"proof holds: {summary}\n"))

    def assertFails(self, result, *parts, status=1):
        got, output = result
        self.assertEqual(got, status, output)
        self.assertEqual(output.count("\n"), 1, output)
        for part in parts:
            self.assertIn(part, output)


class Positions(unittest.TestCase):
    def test_positions_as_worked_out(self):
        """The move lists the proofs below were built from, by the reference generator."""
        rules = ref.parse_rules("standard")
        expect = {
            "B:Be1,g7:Wd4": "e1-d2 e1-e3 e1-f2 g7-f8 g7-g9 g7-h8",
            "W:Bd2,g7:Wd4": "d4-c3 d4-e3",
            "B:Bd2,g7:We3": "d2xf4",
            "B:Bd2,g7:Wc3": "d2xb4",
            "W:Be5:Wf6": "f6xd4",
            "B:Be3:Wd4,b6": "e3xc5xa7",
            "B:Bc5:Wd4,f4,e5": "c5xe3xg5xc5",
            "B:BKe5:Wa7,c5,b2": "e5xa1xa9 e5xa5xa9",
            SHUT_IN[7, 7]: "a7-a9",
            SHUT_IN[9, 9]: "a9-a7",
            f"W:{WALL.replace('b6', 'a7')},Ki7:Wa3,a5,Ka9": "",
            "B:Ba7:Wa9,b8,c9": "",
            TABLE_ROOT: "b6xd8",
            "W:BKb2,d8:WKh2": "h2-a9 h2-b8 h2-c7 h2-d6 h2-e5 h2-f4 h2-g1 h2-g3 h2-i1 h2-i3",
            "B:BKb8:Wh2,Kh6,f8": "b8xi1",
            "B:BKg1:Wh2,f4": "g1xi3",
            "W:BKi3:Wf4": "f4-e3 f4-g3",
            "B:BKi3:Wg3": "i3xa3 i3xc3 i3xe3",
            "B:BKi3:We3": "i3xa3 i3xc3",
        }
        for position, moves in expect.items():
            self.assertEqual(ref.moves_line(position, rules, False), moves, position)
        self.assertIn("i9-i7", ref.moves_line(SHUT_IN[9, 7], rules, False).split())
        self.assertIn("i7-i9", ref.moves_line(SHUT_IN[7, 9], rules, False).split())
        self.assertIn("b6-a7", ref.moves_line(SHUT_IN[7, 9], rules, False).split())
        self.assertEqual(ref.moves_line("B:Bc5:Wd4,f4,e5", rules, True), "c5xe3xg5xc5 c5xg5xe3xc5")


class WinProofs(CheckerTest):
    def test_win(self):
        self.assertHolds(
            self.check(WIN, rules="standard", claim="win"),
            "standard, Black wins from B:Be1,g7:Wd4 (4 lines, 6 positions, longest line 3 plies)",
        )

    def test_loss_written_with_an_all_root(self):
        """White to move loses: written as Black's win, the root line `all`."""
        self.assertHolds(
            self.check(WIN[1:]),
            "standard, Black wins from W:Bd2,g7:Wd4 (3 lines, 5 positions, longest line 2 plies)",
        )

    def test_root_side_without_moves(self):
        self.assertHolds(
            self.check(["B:Ba7:Wa9,b8,c9 all"]),
            "standard, White wins from B:Ba7:Wb8,a9,c9 (1 line, 1 position, longest line 0 plies;"
            " the opponent has no legal move)",
        )
        self.assertFails(self.check(["B:Ba7:Wa9,b8,c9 a7-a9"]), "line 2:", "Black (the prover) has no legal move")

    def test_dropped_reply_line(self):
        self.assertFails(
            self.check(WIN[:3]),
            "line 3: after d4-c3 in W:Bd2,g7:Wd4, B:Bd2,g7:Wc3 has no line: the proof is incomplete",
        )

    def test_illegal_move(self):
        self.assertFails(
            self.check(["B:Be1,g7:Wd4 e1-e5"] + WIN[1:]),
            "line 2: B:Be1,g7:Wd4: e1-e5 is not legal here: the piece on e1 has no such move;"
            " legal: e1-d2 e1-e3 e1-f2",
        )
        self.assertFails(self.check(["B:Be1,g7:Wd4 d4-c3"]), "line 2:", "White's, and Black is to move")

    def test_legal_but_losing_move(self):
        """e1-e3 lets the White man through: the position after it has no line."""
        self.assertFails(
            self.check(["B:Be1,g7:Wd4 e1-e3"] + WIN[1:]),
            "line 2: after e1-e3 in B:Be1,g7:Wd4, W:Be3,g7:Wd4 has no line: the proof is incomplete",
        )

    def test_move_into_a_lost_position(self):
        """e3-e5 puts Black's last man where f6xd4 takes it."""
        self.assertFails(
            self.check(["B:Be3:Wf6 e3-e5", "W:Be5:Wf6 all"]),
            "line 3: after f6xd4 in W:Be5:Wf6, Black (the prover) has no legal move in B:B:Wd4: a loss",
        )

    def test_line_of_the_wrong_kind(self):
        self.assertFails(
            self.check([WIN[0], "W:Bd2,g7:Wd4 d4-c3"] + WIN[2:]),
            "line 3: W:Bd2,g7:Wd4 has a move, but White, the opponent, is to move there",
        )
        self.assertFails(
            self.check(WIN[:2] + ["B:Bd2,g7:We3 all", WIN[3]]),
            "line 4: B:Bd2,g7:We3 is `all`, but Black, the prover, is to move there",
        )

    def test_cycle_is_not_a_win(self):
        self.assertFails(
            self.check(CYCLE, rules="standard,no-progress=off"),
            f"line 6: a9-a7 in {SHUT_IN[9, 9]} comes back to {SHUT_IN[9, 7]} (line 3),",
            "a cycle is a draw, not a win",
        )

    def test_no_progress_limit(self):
        """Two quiet plies (i9-i7, a7-a9) before the man move that wins."""
        summary = "Black wins from " + SHUT_IN[9, 7] + " (3 lines, 4 positions, longest line 3 plies)"
        self.assertHolds(self.check(QUIET_WIN), "standard, " + summary)
        self.assertHolds(
            self.check(QUIET_WIN, rules="standard,no-progress=3"), "standard,no-progress=3, " + summary
        )
        self.assertFails(
            self.check(QUIET_WIN, rules="standard,no-progress=2"),
            f"line 4: a7-a9 in {SHUT_IN[7, 7]} reaches {SHUT_IN[7, 9]} after 2 plies without a capture or a man"
            " move, the no-progress limit (2): a draw, not a win",
            f"(from {SHUT_IN[9, 7]}: i9-i7 a7-a9)",
        )
        self.assertFails(self.check(QUIET_WIN, "--rules", "standard,no-progress=2"), "line 3: a7-a9", "limit (2)")

    def test_man_moves_and_captures_are_progress(self):
        """Every ply of these moves a man or captures, so even a limit of 1 is never reached."""
        self.assertHolds(
            self.check(WIN, rules="standard,no-progress=1"),
            "standard,no-progress=1, Black wins from B:Be1,g7:Wd4 (4 lines, 6 positions, longest line 3 plies)",
        )
        self.assertHolds(
            self.check(MULLAH_WIN, rules="standard,no-progress=1"),
            "standard,no-progress=1, Black wins from B:BKg1:Wh2,f4 (4 lines, 6 positions, longest line 3 plies)",
        )

    def test_unreached_lines_are_counted(self):
        self.assertHolds(
            self.check(WIN + ["B:Be3:Wf6 e3-d4"]),
            "standard, Black wins from B:Be1,g7:Wd4 (5 lines, 6 positions, longest line 3 plies, 1 not reached)",
        )

    def test_a_line_where_the_game_is_over(self):
        """Not needed, allowed, and not followed: the opponent has no move there."""
        self.assertHolds(
            self.check(WIN + ["W:Bf4,g7:W all"]),
            "standard, Black wins from B:Be1,g7:Wd4 (5 lines, 6 positions, longest line 3 plies)",
        )

    def test_transpositions_are_walked_once(self):
        """Positions in any order, written in any order of points; several lines reach one."""
        lines = [WIN[3], WIN[2], "W:Wd4:Bg7,d2 all", "B:Bg7,e1:Wd4 e1-d2"]
        self.assertHolds(
            self.check([lines[3]] + lines[:3]),
            "standard, Black wins from B:Be1,g7:Wd4 (4 lines, 6 positions, longest line 3 plies)",
        )


class MoveNotation(CheckerTest):
    def test_short_and_full_capture_paths(self):
        for move in ["e3xa7", "e3xc5xa7", "E3:A7", "e3Xc5Xa7"]:
            self.assertHolds(
                self.check([f"B:Be3:Wd4,b6 {move}"]),
                "standard, Black wins from B:Be3:Wd4,b6 (1 line, 2 positions, longest line 1 ply)",
            )
        for move in ["c5xc5", "c5xe3xg5xc5", "c5xg5xe3xc5"]:  # two paths of one move
            self.assertHolds(
                self.check([f"B:Bc5:Wd4,f4,e5 {move}"]),
                "standard, Black wins from B:Bc5:Wd4,f4,e5 (1 line, 2 positions, longest line 1 ply)",
            )

    def test_partial_paths_are_not_moves(self):
        """As `kharbaga play` reads moves: the whole path, or only its two ends."""
        self.assertFails(self.check(["B:Be3:Wd4,b6 e3xc5"]), "e3xc5 is not legal here")
        self.assertFails(self.check(["B:Bc5:Wd4,f4,e5 c5xe3xc5"]), "c5xe3xc5 is not legal here")
        self.assertFails(self.check(["B:Be3:Wd4,b6 e3-a7"]), "e3-a7 is not legal here")

    def test_ambiguous_short_form(self):
        self.assertFails(
            self.check(["B:BKe5:Wa7,c5,b2 e5xa9"]),
            "line 2: B:BKe5:Wb2,c5,a7: e5xa9 is ambiguous; write the whole path: e5xa1xa9 or e5xa5xa9",
        )
        self.assertFails(  # the full path is a move (and the proof stops there)
            self.check(["B:BKe5:Wa7,c5,b2 e5xa5xa9"]), "after e5xa5xa9 in B:BKe5:Wb2,c5,a7, W:BKa9:Wb2 has no line"
        )


class HoldProofs(CheckerTest):
    def test_cycle_holds(self):
        for rules in ["standard,no-progress=off", "standard", "ludii"]:
            self.assertHolds(
                self.check(CYCLE, claim="hold", rules=rules),
                f"{rules}, Black holds at least a draw from {SHUT_IN[9, 7]}"
                " (4 lines, 4 positions, longest line 4 plies)",
            )

    def test_a_hold_proof_ends_at_the_no_progress_limit(self):
        """Without the last two lines the position after a7-a9 is reached with count 2."""
        self.assertHolds(
            self.check(CYCLE[:2], "--rules", "standard,no-progress=2", claim="hold"),
            f"standard,no-progress=2, Black holds at least a draw from {SHUT_IN[9, 7]}"
            " (2 lines, 3 positions, longest line 2 plies)",
        )
        self.assertFails(
            self.check(CYCLE[:2], "--rules", "standard,no-progress=3", claim="hold"),
            f"line 4: after a7-a9 in {SHUT_IN[7, 7]}, {SHUT_IN[7, 9]} has no line: the proof is incomplete",
        )

    def test_a_win_is_a_hold(self):
        self.assertHolds(
            self.check(WIN, claim="hold"),
            "standard, Black holds at least a draw from B:Be1,g7:Wd4 (4 lines, 6 positions, longest line 3 plies)",
        )

    def test_a_hold_proof_still_needs_its_replies(self):
        self.assertFails(self.check(CYCLE[:3], claim="hold", rules="standard,no-progress=off"), "has no line")


class FileFormat(CheckerTest):
    def test_gzip(self):
        self.assertHolds(
            self.check(WIN, name="proof.txt.gz"),
            "standard, Black wins from B:Be1,g7:Wd4 (4 lines, 6 positions, longest line 3 plies)",
        )
        path = self.write(proof_text(WIN).encode(), "plain.gz")  # not compressed
        self.assertFails(self.run_checker(path), "plain.gz: cannot read", status=2)

    def test_rules_comment(self):
        self.assertFails(
            self.check(WIN, "--rules", "ludii", rules="standard"),
            "line 2: the proof's rules 'standard' do not agree with --rules 'ludii'",
            status=2,
        )
        self.assertHolds(  # the same rules, written differently
            self.check(WIN, "--rules", "standard,no-progress=100", rules="standard"),
            "standard,no-progress=100, Black wins from B:Be1,g7:Wd4 (4 lines, 6 positions, longest line 3 plies)",
        )
        self.assertFails(self.check(QUIET_WIN, rules="standard,no-progress=2"), "limit (2)")

    def test_malformed_files(self):
        cases = [
            ([WIN[0], "W:Bd2,g7:Wd4"], "line 3: expected `POSITION MOVE` or `POSITION all`"),
            ([WIN[0], "W:Bd2,g7:Wd4 all extra"], "line 3: expected `POSITION MOVE`"),
            ([WIN[0], "W:Bd2,g7:Wx4 all"], "line 3: bad position string 'W:Bd2,g7:Wx4': bad point 'x4'"),
            ([WIN[0], "W:Bd2,g9:Wd4 all"], "line 3: bad position string", "a Black man on g9 stands on its"),
            ([WIN[0], "W:Bd2,d2:Wd4 all"], "line 3: bad position string", "point d2 is listed twice"),
            ([WIN[0], "X:Bd2:Wd4 all"], "line 3: bad position string", "side to move 'X' is not B or W"),
            (["B:Be1,g7:Wd4 e1-d2-c3"], "line 2: bad move 'e1-d2-c3'"),
            (["B:Be1,g7:Wd4 e1xd2-c3"], "line 2: bad move", "mixed"),
            (["B:Be1,g7:Wd4 e1-z9"], "line 2: bad move 'e1-z9'"),
            ([WIN[0], "B:Bg7,e1:Wd4 e1-d2"], "line 3: B:Be1,g7:Wd4 already has a line (line 2)"),
            (["# claim: maybe"] + WIN, "line 2: the claim is `win` or `hold`, not 'maybe'"),
            (["# rules: standard,no-progress=0"] + WIN, "line 2: bad rules 'standard,no-progress=0'"),
            (["# rules: classic"] + WIN, "line 2: bad rules 'classic'"),
            (["# rules: standard", "# rules: ludii"] + WIN, "line 3: a second `# rules:`"),
            ([], "no node line"),
        ]
        for lines, *parts in cases:
            with self.subTest(lines=lines):
                self.assertFails(self.check(lines), *parts, status=2)
        path = self.write(b"\xff\xfe\n")
        self.assertFails(self.run_checker(path), "not UTF-8", status=2)
        self.assertFails(self.run_checker(os.path.join(self.dir.name, "missing.txt")), "cannot read", status=2)


class TableLeaves(CheckerTest):
    """Table leaves through the stand-in probe: values from the real tables."""

    def setUp(self):
        super().setUp()
        self.binary = os.path.join(self.dir.name, "fake-kharbaga")
        with open(self.binary, "w") as f:
            f.write(f"#!{sys.executable}\n" + FAKE_PROBE)
        os.chmod(self.binary, 0o755)
        self.tables = os.path.join(self.dir.name, "values.json")
        self.write_values(TABLE_VALUES)

    def write_values(self, values):
        """Gives the stand-in these values (position -> probe answer)."""
        with open(self.tables, "w") as f:
            json.dump(values, f)

    def probe_calls(self):
        """The argument lists the stand-in was called with."""
        try:
            with open(self.tables + ".log") as f:
                return f.read().splitlines()
        except FileNotFoundError:
            return []

    def with_tables(self, lines, *args, **kw):
        return self.check(lines, "--tables", self.tables, "--kharbaga", self.binary, *args, **kw)

    def test_leaves_are_table_wins(self):
        self.assertHolds(
            self.with_tables(TABLE_LEAF),
            f"standard, Black wins from {TABLE_ROOT} (2 lines, 12 positions, longest line 2 plies)",
        )
        # The root on its own, then the ten leaves in one batch.
        self.assertEqual(self.probe_calls(), [f"tablebase probe --rules standard --tables {self.tables}"] * 2)
        self.assertFails(self.check(TABLE_LEAF), "has no line: the proof is incomplete")

    def test_table_wins_within_the_no_progress_limit(self):
        """The leaves are reached after one quiet ply; the slowest wins take 9 plies."""
        self.assertHolds(
            self.with_tables(TABLE_LEAF, rules="standard,no-progress=10"),
            f"standard,no-progress=10, Black wins from {TABLE_ROOT} (2 lines, 12 positions, longest line 2 plies)",
        )
        self.assertFails(
            self.with_tables(TABLE_LEAF, rules="standard,no-progress=9"),
            "line 4: after h2-i1 in W:BKb2,d8:WKh2, B:BKb2,d8:WKi1 has no line, and the tables give a win in 9"
            " plies for the prover, but it is reached after 1 quiet ply: 1 + 9 is over the no-progress limit (9)"
            " (from W:BKb2,d8:WKh2: h2-i1)",
        )

    def test_the_root_in_the_tables(self):
        self.assertHolds(
            self.with_tables(WIN[:1]),
            "standard, Black wins from B:Be1,g7:Wd4 (1 line, 1 position, longest line 0 plies;"
            " the root is in the tables as a win in 3 plies for the prover)",
        )
        self.assertFails(self.with_tables(["B:Be1,g7:Wd4 e1-e5"]), "e1-e5 is not legal here")

    def test_a_drawn_leaf(self):
        self.assertHolds(
            self.with_tables(DRAW_LEAF, claim="hold"),
            "standard, Black holds at least a draw from B:BKb8:Wh2,Kh6,f8"
            " (1 line, 2 positions, longest line 1 ply)",
        )
        self.assertFails(
            self.with_tables(DRAW_LEAF),
            "line 2: after b8xi1 in B:BKb8:Wh2,Kh6,f8, W:BKi1:WKh6,f8 has no line, and the tables give a draw",
        )

    def test_a_lost_leaf(self):
        """White's Mullah slides into a lost position (a win for Black in 9)."""
        for claim in ["win", "hold"]:
            self.assertFails(
                self.with_tables(["W:BKb2,d8:WKh2 h2-i1"], claim=claim),
                "line 3: after h2-i1 in W:BKb2,d8:WKh2, B:BKb2,d8:WKi1 has no line, and the tables give a loss"
                " in 9 plies for the prover",
            )

    def test_position_not_in_the_tables(self):
        self.write_values({k: v for k, v in TABLE_VALUES.items() if k != "B:BKb2,d8:WKg1"})
        self.assertFails(
            self.with_tables(TABLE_LEAF),
            "line 3: after h2-g1 in W:BKb2,d8:WKh2, B:BKb2,d8:WKg1 has no line or in the tables: the proof is"
            " incomplete",
        )

    def test_probe_that_cannot_run(self):
        self.assertFails(
            self.check(WIN, "--tables", self.tables, "--kharbaga", os.path.join(self.dir.name, "none")),
            "cannot run",
            status=2,
        )


class RealTables(CheckerTest):
    """The table proofs again, with 3-piece standard tables built by the binary (skipped
    when there is no binary)."""

    @classmethod
    def setUpClass(cls):
        if not os.access(BINARY, os.X_OK):
            raise unittest.SkipTest(f"no kharbaga binary at {BINARY} to build and probe real tables")
        cls.tables = tempfile.TemporaryDirectory()
        subprocess.run(
            [BINARY, "tablebase", "generate", "--pieces", "3", "--threads", "1", "--dir", cls.tables.name],
            check=True,
            capture_output=True,
        )

    @classmethod
    def tearDownClass(cls):
        cls.tables.cleanup()

    def with_tables(self, lines, **kw):
        return self.check(lines, "--tables", self.tables.name, "--kharbaga", BINARY, **kw)

    def test_the_stand_in_values(self):
        lines = "".join(p + "\n" for p in TABLE_VALUES)
        done = subprocess.run(
            [BINARY, "tablebase", "probe", "--tables", self.tables.name],
            input=lines,
            capture_output=True,
            text=True,
        )
        self.assertEqual(done.stdout.splitlines(), list(TABLE_VALUES.values()))

    def test_table_leaves(self):
        self.assertHolds(
            self.with_tables(TABLE_LEAF),
            f"standard, Black wins from {TABLE_ROOT} (2 lines, 12 positions, longest line 2 plies)",
        )
        self.assertFails(self.with_tables(TABLE_LEAF, rules="standard,no-progress=9"), "1 + 9 is over")
        self.assertFails(self.with_tables(DRAW_LEAF), "the tables give a draw")
        self.assertHolds(
            self.with_tables(WIN[:1]),
            "standard, Black wins from B:Be1,g7:Wd4 (1 line, 1 position, longest line 0 plies;"
            " the root is in the tables as a win in 3 plies for the prover)",
        )


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        BINARY = os.path.abspath(sys.argv.pop(1))
    unittest.main()
