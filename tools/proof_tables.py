"""The endgame tables for tools/check_proof.py: positions without a line are looked up by
running `kharbaga tablebase probe` in batch mode (the only use of the Rust binary), and the
values it answers are turned to the prover's side and put in words."""

import subprocess

from proof_errors import Unreadable


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
