"""The frontier of the solve driver (cluster/solve.py) and what the parts' results say about
its root: the task that lists the frontier into the work directory, and the
`kharbaga solve --combine` without a proof that works out the root's value so far, the
parts that can still change it (`prune`, the early stop), whether one part alone can
decide it (`decides`) and, with the values of runs before taken as results, the parts the
root's proof rests on (`rests_on`)."""

import math
import os
import re
import uuid

from commands import failure, result_of, run_command, solve_command
from workdir import (NONE_NEEDED, earlier_result, finished, needed_path, read_needed,
                     write_atomically)


# A split deepens its frontier by at most this many plies to get more than one position.
MAX_DEEPER = 4


def make_frontier(kharbaga, rules, tables, position, moves, plies, workdir, deepen=False):
    """The task that lists the frontier into WORKDIR/frontier.txt: returns the root, the
    plies, the positions, the indices of the parts that ran before (those with a part-i.out)
    and of those split before and not yet solved (a part-i.split directory), or an error
    (status 2 for bad input, else 1) with its message.

    With deepen (a split), a frontier of a single position (a forced line: the same problem
    a few plies down, and one worker thread busy) is listed again one ply deeper, up to
    MAX_DEEPER plies more, until it has more than one; a WORKDIR that has a frontier keeps
    its plies, so a run started again finds the same one."""
    frontier_path = os.path.join(workdir, "frontier.txt")
    if deepen and os.path.exists(frontier_path):
        with open(frontier_path) as f:
            header = f.readline().split()
        if len(header) == 5 and header[3] == "plies" and header[4].isdigit():
            plies, deepen = int(header[4]), False
    cmd = solve_command(kharbaga, rules, tables, position)
    if moves:
        cmd += ["--moves", moves]
    for more in range(MAX_DEEPER + 1 if deepen else 1):
        out = run_command(cmd + ["--frontier", str(plies + more)])
        if out.returncode != 0:
            status = 2 if out.returncode in (2, None) else 1
            return {"status": status, "error": failure(cmd + ["--frontier", str(plies + more)],
                                                       out)}
        lines = out.stdout.splitlines()
        header = lines[0].split() if lines else []
        if len(header) != 5 or header[:2] != ["#", "frontier:"]:
            return {"status": 1, "error": f"`{' '.join(cmd)}` printed no frontier header:\n"
                    + out.stdout[:2000]}
        positions = [line.strip() for line in lines[1:]
                     if line.strip() and not line.startswith("#")]
        if len(positions) != 1:
            break
    plies = int(header[4])

    # A work directory belongs to one solve: the same frontier under the same rules.
    rules_path = os.path.join(workdir, "rules.txt")
    if os.path.exists(rules_path):
        with open(rules_path) as f:
            before = f.read().strip()
        if before != rules:
            return {"status": 2, "error": f"{workdir} holds a solve under the rules "
                    f"{before!r}, not {rules!r}: use another --workdir, or empty it"}
    if os.path.exists(frontier_path):
        with open(frontier_path) as f:
            before = f.read()
        if before != out.stdout:
            first = before.splitlines()[0] if before else "(empty)"
            return {"status": 2, "error": f"{workdir} holds another solve's frontier "
                    f"({first}): use another --workdir, or empty it"}
    else:
        write_atomically(frontier_path, out.stdout)
    if not os.path.exists(rules_path):
        write_atomically(rules_path, rules + "\n")
    ran = set()
    for name in os.listdir(workdir):
        if name.startswith("needed-"):
            os.remove(os.path.join(workdir, name))
        elif re.fullmatch(r"part-\d+\.out", name):
            ran.add(int(name[len("part-"):-len(".out")]))
    unfinished = [i for i, x in enumerate(positions)
                  if not finished(workdir, i, x, earlier_result(workdir, i))]
    split = {i for i in unfinished
             if os.path.isdir(os.path.join(workdir, f"part-{i}.split"))}
    return {"status": 0, "root": header[2], "plies": plies, "positions": positions,
            "ran": ran, "split": split, "valued": archived_values(workdir, positions,
                                                                   unfinished)}


def archived_values(workdir, positions, parts):
    """The values of `parts` (indices) that a run before solved, recorded in their
    part-i.value files (cluster/archive.py) for their positions: part -> win, loss or
    draw."""
    valued = {}
    for i in parts:
        try:
            with open(os.path.join(workdir, f"part-{i}.value")) as f:
                result = result_of(f.read())
        except FileNotFoundError:
            continue
        if result and result["value"] != "unknown" and result["position"] == positions[i]:
            valued[i] = result["value"]
    return valued


def combine_results(kharbaga, rules, tables, root, workdir, *extra, values=False):
    """`kharbaga solve --combine` on frontier.txt, the part-*.out files and the `extra` files
    in WORKDIR (no proof): its result line, split (None when it printed none), and its
    output. With values, the part-*.value files too: the values of runs before taken as
    results (--values)."""
    kinds = r"out|value" if values else r"out"
    files = ["frontier.txt"] + sorted(name for name in os.listdir(workdir)
                                      if re.fullmatch(rf"part-\d+\.({kinds})", name))
    cmd = solve_command(kharbaga, rules, tables, root)
    out = run_command(cmd + ["--combine", *files, *extra], cwd=workdir)
    if out.returncode != 0:
        raise RuntimeError(failure(cmd + ["--combine", "FRONTIER", "PARTS..."], out))
    return result_of(out.stdout), out.stdout


def prune(kharbaga, rules, tables, root, workdir, run_id, values=False, only=None):
    """Works out from the parts' results so far (`kharbaga solve --combine` on frontier.txt
    and the part-*.out files, no proof) which unsolved parts can still change the root, and
    writes them to the needed file (only ever fewer: a part once not needed stays so).
    Returns the root's value (None while unknown) and the parts still needed: a dict from
    each one's position to the fewest parts that would decide the root through it, the
    cheaper way (a win or a loss of the root) and then the other (the combine's counts,
    proof-number search's; infinity when none would). With values, the part-*.value files
    count as results too; with only (a set of positions), no other part is needed."""
    result, output = combine_results(kharbaga, rules, tables, root, workdir, values=values)
    value = result["value"] if result and result["value"] != "unknown" else None
    needed = {}
    if value is None:
        for line in output.splitlines():
            if line.startswith("needed: ") and (only is None or line.split()[1] in only):
                fields = line.split() + ["-", "-"]
                needed[fields[1]] = tuple(int(f) if f.isdigit() else math.inf
                                          for f in fields[2:4])
    path = needed_path(workdir, run_id)
    before = read_needed(path)
    if before is not None:
        needed = {x: fewest for x, fewest in needed.items() if x in before}
    if before is None or set(needed) != before:
        write_atomically(path, "".join(f"{p}\n" for p in sorted(needed))
                         or NONE_NEEDED)
    return value, needed


def decides(kharbaga, rules, tables, root, workdir, position, values=False):
    """Whether the part at `position` (left unknown) alone can decide the root: the root's
    value would be known if that part were a win, or a loss, for its side to move, with the
    other parts' results so far (`kharbaga solve --combine`, each value assumed in turn in
    a file of its own that is removed after; with values, the part-*.value files count as
    results too)."""
    for value in ("win", "loss"):
        name = f"assume-{uuid.uuid4().hex[:8]}.out"
        path = os.path.join(workdir, name)
        write_atomically(path, f"result: {position} {value}\n")
        try:
            result, _ = combine_results(kharbaga, rules, tables, root, workdir, name,
                                        values=values)
        finally:
            os.remove(path)
        if result and result["value"] != "unknown":
            return True
    return False


def rests_on(kharbaga, rules, tables, root, workdir):
    """With the values of runs before taken as results (--values): the root's value (None
    while unknown) and the frontier positions its proof rests on (the combine's `leaf:`
    lines)."""
    result, output = combine_results(kharbaga, rules, tables, root, workdir, values=True)
    if not result or result["value"] == "unknown":
        return None, set()
    return result["value"], {line.split()[1] for line in output.splitlines()
                             if line.startswith("leaf: ")}
