"""Running the commands of the solve driver (cluster/solve.py) and reading what kharbaga
prints: a command's result or its failure, the start of a `kharbaga solve` command, the
`result:` line of a solve's output and the tables it names."""

import os
import re
import subprocess
import threading
import time


VALUES = ("win", "loss", "draw", "unknown")


def run_command(cmd, cwd=None, stop=None):
    """Runs cmd; an OSError (no such binary, ...) becomes a CompletedProcess of status None.
    With stop (a function, asked twice a second), cmd is killed as soon as stop() is true,
    and the result is None."""
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, cwd=cwd)
    except OSError as e:
        return subprocess.CompletedProcess(cmd, None, "", f"cannot run {cmd[0]}: {e}")
    with proc:
        if stop:
            # The pipes are read by threads, so that a large output cannot block cmd.
            outputs = {}
            readers = [threading.Thread(target=lambda k=k, f=f: outputs.update({k: f.read()}))
                       for k, f in (("out", proc.stdout), ("err", proc.stderr))]
            for reader in readers:
                reader.start()
            while proc.poll() is None:
                if stop():
                    proc.kill()
                    proc.wait()
                    for reader in readers:
                        reader.join()
                    return None
                time.sleep(0.5)
            for reader in readers:
                reader.join()
            stdout, stderr = outputs["out"], outputs["err"]
        else:
            stdout, stderr = proc.communicate()
    return subprocess.CompletedProcess(cmd, proc.returncode, stdout, stderr)


def failure(cmd, out):
    """The message of a failed command: the command, its status, its standard error."""
    where = os.uname().nodename
    if out.returncode is None:
        return f"{out.stderr} (on {where})"
    return (f"`{' '.join(cmd)}` exited with status {out.returncode} on {where}:\n"
            + out.stderr.strip())


def solve_base(kharbaga, rules, tables):
    """The start of every `kharbaga solve` command the driver runs: rules, tables."""
    cmd = [kharbaga, "solve", "--rules", rules]
    if tables:
        cmd += ["--tables", tables]
    return cmd


def solve_command(kharbaga, rules, tables, position):
    """The start of a `kharbaga solve` command of `position`: rules, tables, position."""
    return solve_base(kharbaga, rules, tables) + ["--position", position]


def result_of(text):
    """The last `result: POSITION VALUE [MOVE]` line of a solve's output, split, or None."""
    for line in reversed(text.splitlines()):
        fields = line.split()
        if len(fields) >= 3 and fields[0] == "result:" and fields[2] in VALUES:
            return {"position": fields[1], "value": fields[2],
                    "move": fields[3] if len(fields) > 3 else None, "line": line.strip()}
    return None


TABLES = re.compile(r"^solving \S+ .*, tables of up to (\d+) pieces(?: and .*)?$", re.M)


def tables_of(text):
    """The most pieces of the complete tables a solve's output (text) says it had: 0 for
    none; `up to 5 pieces and 40 slices of 6` (a set being built) counts as 5."""
    m = TABLES.search(text)
    return int(m.group(1)) if m else 0


def tables_now(kharbaga, rules, tables, position):
    """The most pieces of the tables a solve of position would have now (0 for none): a
    solve of one node. A command that fails says 0 (the part's own solve reports it)."""
    cmd = solve_command(kharbaga, rules, tables, position) + ["--nodes", "1", "--hash", "1"]
    out = run_command(cmd)
    return tables_of(out.stdout) if out.returncode == 0 else 0
