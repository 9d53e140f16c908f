"""The task of the solve driver (cluster/solve.py) that solves one frontier part: its
`kharbaga solve` with the part's limits and proof, skipped when a run before solved it,
stopped once the part is no longer needed (`StillNeeded`), with the worker's table kept
from one part to the next (`table_name`) and a part's own table kept for its next pass
(`resume_name`)."""

import hashlib
import os
import re
import shutil
import time
import uuid

from distributed import get_worker

from commands import failure, result_of, tables_now
from frontier import prune
from solver import Solver
from workdir import (earlier_result, finished, limits_line, needed_path, part_files,
                     read_needed, write_atomically)


class StillNeeded:
    """Whether a part is still needed, from the needed file, read again when it changes."""

    def __init__(self, path, position):
        self.path, self.position, self.mtime, self.needed = path, position, None, True

    def __call__(self):
        try:
            mtime = os.stat(self.path).st_mtime_ns
        except FileNotFoundError:
            return True
        if mtime != self.mtime:
            self.mtime = mtime
            parts = read_needed(self.path)
            self.needed = parts is None or self.position in parts
        return self.needed


def solve_part(kharbaga, rules, tables, hash_mib, seconds, nodes, workdir, i, position,
               root=None, run_id=None, hash_dir=None, slot=None, more_passes=False,
               keep=False):
    """The task: solves frontier position i into WORKDIR/part-i.out and its proof files,
    unless a run before did (its .out has a result other than unknown, and its proofs).

    With hash_dir, the solve starts from the table the last part of its slot (the driver's
    number for one of the parts running at once; else of its worker) left in
    HASH_DIR/table-SLOT-MIB.khtt and saves its own there (`kharbaga solve --hash-file`).
    And when more_passes (a pass with larger limits follows), a part left unknown keeps
    its own table, open entries included, in HASH_DIR/part-DIGEST-MIB.khtt, so that its
    next pass goes on where this one stopped (`kharbaga solve --resume`); the file goes
    once the part is solved, stopped or run at the last pass.

    With root and run_id (the driver's early stop), a part solved now is followed by
    `prune`; a part that is then no longer needed stops, its solve killed (or, in a kept
    process, stopped) when it runs (its files removed, as if it never ran), and returns
    `stopped`.

    With keep (the driver's --keep-solvers), the solve runs in the slot's kept process
    (cluster/solver.py), whose table goes on from part to part; HASH_DIR's slot file is
    then where that process starts from and saves its table (every half hour and when
    it ends) instead of a file read and written by every part."""
    out_path = os.path.join(workdir, f"part-{i}.out")
    worker = get_worker()
    table = hash_dir and os.path.join(
        hash_dir, table_name(worker.name if slot is None else slot, hash_mib))
    own = hash_dir and os.path.join(hash_dir, resume_name(position, hash_mib))
    worker = worker.address
    still_needed = StillNeeded(needed_path(workdir, run_id), position) if run_id else None
    done = earlier(kharbaga, rules, tables, hash_mib, seconds, nodes, workdir, i, position)
    if stands(workdir, i, position, done):
        return dict(done, index=i, seconds=0.0, already=True, stopped=False, worker=worker)
    if still_needed and not still_needed():
        return dict(position=position, value=None, move=None, index=i, seconds=0.0,
                    already=False, stopped=True, worker=worker)

    # Solve it: the proofs under a temporary name, renamed once complete, then the .out.
    # (No dot in the temporary name: the binary puts a draw's .black/.white before the
    # first dot of the file name.) A value from a run before (cluster/archive.py) stays
    # until the part is solved again.
    for name in os.listdir(workdir):
        if ((name.startswith(f"part-{i}.") and name not in (f"part-{i}.out",
                                                            f"part-{i}.value"))
                or name.startswith(f"part-{i}-tmp-")):
            os.remove(os.path.join(workdir, name))
    tmp = f"part-{i}-tmp-{uuid.uuid4().hex}"
    solver = Solver(kharbaga, rules, tables, hash_mib, table, slot if keep else None)
    job = ["--position", position]
    if seconds:
        job += ["--time", str(seconds)]
    if nodes:
        job += ["--nodes", str(nodes)]
    if table:
        os.makedirs(hash_dir, exist_ok=True)
        if os.path.exists(own) or more_passes and room_for_resume(hash_dir, hash_mib):
            job += ["--resume", own]
    job += ["--proof", os.path.join(workdir, f"{tmp}.txt.gz")]
    stop = still_needed and (lambda: not still_needed())
    start = time.monotonic()
    out = solver.run(job, stop)
    for flag, path in [("--hash-file", table), ("--resume", own)]:
        if (out is not None and out.returncode == 2 and path
                and f"{flag} {path}:" in out.stderr):
            # A table from another build or damaged: start without it.
            os.remove(path)
            out = solver.run(job, stop)
    elapsed = time.monotonic() - start
    if own and (out is None or not more_passes or out.returncode != 0
                or (result_of(out.stdout) or {}).get("value") != "unknown"):
        # Stopped, solved, failed or at the last pass: no pass will go on from it.
        remove_table(own)
    if out is None:
        for name in os.listdir(workdir):
            if name.startswith(f"part-{i}-tmp-"):
                os.remove(os.path.join(workdir, name))
        if done and done["value"] != "unknown":
            os.remove(out_path)  # its proofs were missing and the part is not redone
        return dict(position=position, value=None, move=None, index=i, seconds=elapsed,
                    already=False, stopped=True, worker=worker)
    if out.returncode != 0:
        raise RuntimeError(failure(out.args, out))
    result = result_of(out.stdout)
    if result is None:
        raise RuntimeError(f"`{' '.join(out.args)}` printed no result line:\n"
                           f"{out.stdout[-2000:]}")
    for final in part_files(workdir, i, result["value"]):
        made = final.replace(f"part-{i}.", f"{tmp}.", 1)
        os.replace(os.path.join(workdir, made), os.path.join(workdir, final))
    write_atomically(out_path, limits_line(seconds, nodes, hash_mib)
                     + out.stdout.replace(tmp, f"part-{i}"))
    if still_needed and result["value"] != "unknown":
        prune(kharbaga, rules, tables, root, workdir, run_id)
    return dict(result, index=i, seconds=elapsed, already=False, stopped=False,
                worker=worker)


def earlier(kharbaga, rules, tables, hash_mib, seconds, nodes, workdir, i, position):
    """Part i's result from a run before (`earlier_result`: an unknown one only if reached
    with these limits and the tables there are now), or None."""
    return earlier_result(workdir, i, (seconds, nodes, hash_mib),
                          lambda: tables_now(kharbaga, rules, tables, position))


def stands(workdir, i, position, done):
    """Whether part i's earlier result done stands: solved (with its proofs), or left
    unknown by limits and tables as large as these (the same again)."""
    return finished(workdir, i, position, done) or bool(
        done and done["value"] == "unknown" and done["position"] == position)


def standing_results(kharbaga, rules, tables, hash_mib, seconds, nodes, workdir, parts):
    """The task that reads at once the results of parts (index, position pairs) that ran
    before: those that stand (`stands`), each as `solve_part` reports it, so that a run
    started again takes them in without a slot each."""
    worker = get_worker().address
    out = []
    for i, position in parts:
        done = earlier(kharbaga, rules, tables, hash_mib, seconds, nodes, workdir, i,
                       position)
        if stands(workdir, i, position, done):
            out.append(dict(done, index=i, seconds=0.0, already=True, stopped=False,
                            worker=worker))
    return out


def table_name(owner, hash_mib):
    """The file of a slot's (or worker's) table (`--hash-dir`): by its number or name (the
    driver numbers the slots from 0, so a run after it finds the same files), and the
    table's size."""
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", str(owner))
    return f"table-{name}-{hash_mib or 'default'}.khtt"


def resume_name(position, hash_mib):
    """The file of a part's own table between its passes (`--hash-dir`): by a digest of
    its position, so that a run after it, or a split that holds the same position, finds
    it."""
    digest = hashlib.sha1(position.encode()).hexdigest()[:16]
    return f"part-{digest}-{hash_mib or 'default'}.khtt"


def room_for_resume(hash_dir, hash_mib):
    """Whether the disk of hash_dir has room for one more part's table: a file is at most
    about a seventh of --hash, and twice --hash is left free for the other files."""
    free = shutil.disk_usage(hash_dir).free
    return free > 2 * (hash_mib or 256) * 2**20


def drop_resume_files(hash_dir, hash_mib, positions):
    """Removes the parts' own tables (`resume_name`) of positions from hash_dir: a level's,
    once its passes are over."""
    for position in positions:
        remove_table(os.path.join(hash_dir, resume_name(position, hash_mib)))


def remove_table(path):
    """Removes a table file and the temporary file a solve stopped while saving it left."""
    for name in (path, path + ".tmp"):
        if os.path.exists(name):
            os.remove(name)
