#!/usr/bin/env python3
"""Solves a kharbaga position on a Dask cluster by splitting it at a frontier.

`kharbaga solve --frontier K` lists the positions K plies below the root that are still
open; each becomes one task that runs `kharbaga solve --position X --proof part-i.txt.gz`;
`kharbaga solve --combine` then works the root's value out of the parts' results and writes
one proof, which `kharbaga verify-proof` checks. Once the parts solved decide the root, the
others stop (unless --every-part). Everything is kept in WORKDIR, and a part already solved
is not solved again, so a failed, interrupted or limited run is simply started again. See
cluster/README.md.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import uuid

from distributed import Client, LocalCluster, as_completed, get_worker

from shared import default_kharbaga, shared_dir_problem

VALUES = ("win", "loss", "draw", "unknown")


class BadInput(Exception):
    """An error in what the user asked for (exit status 2)."""


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


def solve_command(kharbaga, rules, tables, position):
    """The start of every `kharbaga solve` command the driver runs: rules, position, tables."""
    cmd = [kharbaga, "solve", "--rules", rules, "--position", position]
    if tables:
        cmd += ["--tables", tables]
    return cmd


def result_of(text):
    """The last `result: POSITION VALUE [MOVE]` line of a solve's output, split, or None."""
    for line in reversed(text.splitlines()):
        fields = line.split()
        if len(fields) >= 3 and fields[0] == "result:" and fields[2] in VALUES:
            return {"position": fields[1], "value": fields[2],
                    "move": fields[3] if len(fields) > 3 else None, "line": line.strip()}
    return None


def part_files(workdir, i, value):
    """The proof files part i leaves for its value (relative to workdir)."""
    if value in ("win", "loss"):
        return [f"part-{i}.txt.gz"]
    if value == "draw":
        return [f"part-{i}.black.txt.gz", f"part-{i}.white.txt.gz"]
    return []


def write_atomically(path, text):
    tmp = f"{path}.tmp-{uuid.uuid4().hex}"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def make_frontier(kharbaga, rules, tables, position, moves, plies, workdir):
    """The task that lists the frontier into WORKDIR/frontier.txt: returns the root, the
    positions, the indices of the parts that ran before (those with a part-i.out) and of
    those split before and not yet solved (a part-i.split directory), or an error (status 2
    for bad input, else 1) with its message."""
    cmd = solve_command(kharbaga, rules, tables, position)
    if moves:
        cmd += ["--moves", moves]
    cmd += ["--frontier", str(plies)]
    out = run_command(cmd)
    if out.returncode != 0:
        status = 2 if out.returncode in (2, None) else 1
        return {"status": status, "error": failure(cmd, out)}
    lines = out.stdout.splitlines()
    header = lines[0].split() if lines else []
    if len(header) != 5 or header[:2] != ["#", "frontier:"]:
        return {"status": 1, "error": f"`{' '.join(cmd)}` printed no frontier header:\n"
                + out.stdout[:2000]}
    positions = [line.strip() for line in lines[1:]
                 if line.strip() and not line.startswith("#")]

    # A work directory belongs to one solve: the same frontier under the same rules.
    frontier_path = os.path.join(workdir, "frontier.txt")
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
    split = {i for i, x in enumerate(positions)
             if os.path.isdir(os.path.join(workdir, f"part-{i}.split"))
             and not finished(workdir, i, x, earlier_result(workdir, i))}
    return {"status": 0, "root": header[2], "positions": positions, "ran": ran,
            "split": split}


def needed_path(workdir, run_id):
    """The file of this run's parts still needed: the frontier positions, one a line, that
    can still change the root's value (none once it is decided)."""
    return os.path.join(workdir, f"needed-{run_id}")


def read_needed(path):
    """The set of positions in a needed file, or None when there is none yet."""
    try:
        with open(path) as f:
            return {line.strip() for line in f if line.strip() and not line.startswith("#")}
    except FileNotFoundError:
        return None


def combine_results(kharbaga, rules, tables, root, workdir, *extra):
    """`kharbaga solve --combine` on frontier.txt, the part-*.out files and the `extra` files
    in WORKDIR (no proof): its result line, split (None when it printed none), and its
    output."""
    files = ["frontier.txt"] + sorted(name for name in os.listdir(workdir)
                                      if re.fullmatch(r"part-\d+\.out", name))
    cmd = solve_command(kharbaga, rules, tables, root)
    out = run_command(cmd + ["--combine", *files, *extra], cwd=workdir)
    if out.returncode != 0:
        raise RuntimeError(failure(cmd + ["--combine", "FRONTIER", "PARTS..."], out))
    return result_of(out.stdout), out.stdout


def prune(kharbaga, rules, tables, root, workdir, run_id):
    """Works out from the parts' results so far (`kharbaga solve --combine` on frontier.txt
    and the part-*.out files, no proof) which unsolved parts can still change the root, and
    writes them to the needed file (only ever fewer: a part once not needed stays so).
    Returns the root's value (None while unknown) and the set of parts still needed."""
    result, output = combine_results(kharbaga, rules, tables, root, workdir)
    value = result["value"] if result and result["value"] != "unknown" else None
    needed = set()
    if value is None:
        needed = {line.split()[1] for line in output.splitlines()
                  if line.startswith("needed: ")}
    path = needed_path(workdir, run_id)
    before = read_needed(path)
    if before is not None:
        needed &= before
    if before is None or needed != before:
        write_atomically(path, "".join(f"{p}\n" for p in sorted(needed))
                         or "# none: the root is decided\n")
    return value, needed


def decides(kharbaga, rules, tables, root, workdir, position):
    """Whether the part at `position` (left unknown) alone can decide the root: the root's
    value would be known if that part were a win, or a loss, for its side to move, with the
    other parts' results so far (`kharbaga solve --combine`, each value assumed in turn in
    a file of its own that is removed after)."""
    for value in ("win", "loss"):
        name = f"assume-{uuid.uuid4().hex[:8]}.out"
        path = os.path.join(workdir, name)
        write_atomically(path, f"result: {position} {value}\n")
        try:
            result, _ = combine_results(kharbaga, rules, tables, root, workdir, name)
        finally:
            os.remove(path)
        if result and result["value"] != "unknown":
            return True
    return False


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


LIMITS = "# limits:"


def limits_line(seconds, nodes, hash_mib):
    """The line the driver puts first in a part's .out: the limits it was solved with
    (`-` for none; a hash of `-` is the binary's default)."""
    return f"{LIMITS} time {seconds or '-'} nodes {nodes or '-'} hash {hash_mib or '-'}\n"


def spent(text, seconds, nodes, hash_mib):
    """Whether a part's .out (text) that ended unknown was run with limits at least these
    (time, nodes, hash), so that running it again would end the same way."""
    for line in text.splitlines():
        fields = line[len(LIMITS):].split() if line.startswith(LIMITS) else []
        if fields[0::2] == ["time", "nodes", "hash"]:
            before = [None if f == "-" else int(f) for f in fields[1::2]]
            now = [seconds, nodes, hash_mib]
            # time and nodes: none is no limit, the most; hash: none is the default.
            return (all(b is None or (n is not None and b >= n)
                        for b, n in zip(before[:2], now[:2]))
                    and (before[2] == now[2]
                         or None not in (before[2], now[2]) and before[2] >= now[2]))
    return False


def earlier_result(workdir, i, limits=None):
    """The result in part i's .out from a run before, or None. With limits (time, nodes,
    hash), an unknown result counts only when it was reached with limits at least those
    (`spent`): a run with larger limits solves it again."""
    try:
        with open(os.path.join(workdir, f"part-{i}.out")) as f:
            text = f.read()
    except FileNotFoundError:
        return None
    result = result_of(text)
    if result and result["value"] == "unknown" and limits and not spent(text, *limits):
        return None
    return result


def finished(workdir, i, position, done):
    """Whether done (part i's earlier result) solves it: a value, for this position, with
    its proof files."""
    return bool(done and done["value"] != "unknown" and done["position"] == position
                and all(os.path.exists(os.path.join(workdir, p))
                        for p in part_files(workdir, i, done["value"])))


def solve_part(kharbaga, rules, tables, hash_mib, seconds, nodes, workdir, i, position,
               root=None, run_id=None, hash_dir=None):
    """The task: solves frontier position i into WORKDIR/part-i.out and its proof files,
    unless a run before did (its .out has a result other than unknown, and its proofs).

    With hash_dir, the solve starts from the table the worker's last part left in
    HASH_DIR/table-WORKER-MIB.khtt and saves its own there (`kharbaga solve --hash-file`).

    With root and run_id (the driver's early stop), a part solved now is followed by
    `prune`; a part that is then no longer needed stops, its solve killed when it runs
    (its files removed, as if it never ran), and returns `stopped`."""
    out_path = os.path.join(workdir, f"part-{i}.out")
    worker = get_worker()
    table = hash_dir and os.path.join(hash_dir, table_name(worker.name, hash_mib))
    worker = worker.address
    still_needed = StillNeeded(needed_path(workdir, run_id), position) if run_id else None
    done = earlier_result(workdir, i, (seconds, nodes, hash_mib))
    if finished(workdir, i, position, done) or (done and done["value"] == "unknown"
                                                 and done["position"] == position):
        # Solved, or left unknown by limits as large as these: the same again.
        return dict(done, index=i, seconds=0.0, already=True, stopped=False, worker=worker)
    if still_needed and not still_needed():
        return dict(position=position, value=None, move=None, index=i, seconds=0.0,
                    already=False, stopped=True, worker=worker)

    # Solve it: the proofs under a temporary name, renamed once complete, then the .out.
    # (No dot in the temporary name: the binary puts a draw's .black/.white before the
    # first dot of the file name.)
    for name in os.listdir(workdir):
        if ((name.startswith(f"part-{i}.") and name != f"part-{i}.out")
                or name.startswith(f"part-{i}-tmp-")):
            os.remove(os.path.join(workdir, name))
    tmp = f"part-{i}-tmp-{uuid.uuid4().hex}"
    cmd = solve_command(kharbaga, rules, tables, position)
    if hash_mib:
        cmd += ["--hash", str(hash_mib)]
    if seconds:
        cmd += ["--time", str(seconds)]
    if nodes:
        cmd += ["--nodes", str(nodes)]
    if table:
        cmd += ["--hash-file", table]
    cmd += ["--proof", os.path.join(workdir, f"{tmp}.txt.gz")]
    stop = still_needed and (lambda: not still_needed())
    start = time.monotonic()
    if table:
        os.makedirs(hash_dir, exist_ok=True)
    out = run_command(cmd, stop=stop)
    if (out is not None and out.returncode == 2 and table
            and f"--hash-file {table}:" in out.stderr):
        # The worker's table is from another build or damaged: start without it.
        os.remove(table)
        out = run_command(cmd, stop=stop)
    elapsed = time.monotonic() - start
    if out is None:
        for name in os.listdir(workdir):
            if name.startswith(f"part-{i}-tmp-"):
                os.remove(os.path.join(workdir, name))
        if done and done["value"] != "unknown":
            os.remove(out_path)  # its proofs were missing and the part is not redone
        return dict(position=position, value=None, move=None, index=i, seconds=elapsed,
                    already=False, stopped=True, worker=worker)
    if out.returncode != 0:
        raise RuntimeError(failure(cmd, out))
    result = result_of(out.stdout)
    if result is None:
        raise RuntimeError(f"`{' '.join(cmd)}` printed no result line:\n{out.stdout[-2000:]}")
    for final in part_files(workdir, i, result["value"]):
        made = final.replace(f"part-{i}.", f"{tmp}.", 1)
        os.replace(os.path.join(workdir, made), os.path.join(workdir, final))
    write_atomically(out_path, limits_line(seconds, nodes, hash_mib)
                     + out.stdout.replace(tmp, f"part-{i}"))
    if still_needed and result["value"] != "unknown":
        prune(kharbaga, rules, tables, root, workdir, run_id)
    return dict(result, index=i, seconds=elapsed, already=False, stopped=False,
                worker=worker)


def table_name(worker_name, hash_mib):
    """The file of a worker's table (`--hash-dir`): by the worker's name, which a local
    cluster numbers from 0 (so a run after it finds the same files), and the table's size."""
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", str(worker_name))
    return f"table-{name}-{hash_mib or 'default'}.khtt"


ROOT_PROOFS = ("proof.txt.gz", "proof.black.txt.gz", "proof.white.txt.gz")


def combine(kharbaga, rules, tables, root, workdir, count):
    """The task: `kharbaga solve --combine` on the parts in WORKDIR, into proof.txt.gz (a win
    or a loss) or proof.black.txt.gz and proof.white.txt.gz (a draw: each side's strategy)."""
    for name in os.listdir(workdir):
        if name in ROOT_PROOFS or name.startswith("needed-"):
            os.remove(os.path.join(workdir, name))
    files = ["frontier.txt"]
    for i in range(count):
        names = (f"part-{i}.out", f"part-{i}.txt.gz", f"part-{i}.black.txt.gz",
                 f"part-{i}.white.txt.gz")
        files += [name for name in names if os.path.exists(os.path.join(workdir, name))]
    cmd = solve_command(kharbaga, rules, tables, root)
    # Relative names (run in WORKDIR) keep the command line short for a large frontier.
    cmd += ["--proof", "proof.txt.gz", "--combine", *files]
    out = run_command(cmd, cwd=workdir)
    if out.returncode != 0:
        raise RuntimeError(failure(cmd[:-len(files)] + ["FRONTIER", "PARTS..."], out))
    result = result_of(out.stdout)
    if result is None:
        raise RuntimeError(f"`kharbaga solve --combine` printed no result line:\n"
                           + out.stdout[-2000:])
    proofs = [os.path.join(workdir, name) for name in ROOT_PROOFS
              if os.path.exists(os.path.join(workdir, name))]
    return dict(result, output=out.stdout, proofs=proofs, tables=tables_of(out.stdout))


def tables_of(text):
    """The directory of the `tables: DIR (up to N pieces)` line of a combine's output (the
    tables it used, the binary's default ones when --tables was not given), or None."""
    for line in text.splitlines():
        m = re.match(r"^tables: (.*) \(up to \d+ pieces\)$", line)
        if m:
            return m.group(1)
    return None


def verify(kharbaga, rules, tables, proof):
    """The task: `kharbaga verify-proof` on the combined proof."""
    cmd = [kharbaga, "verify-proof", "--rules", rules]
    if tables:
        cmd += ["--tables", tables]
    cmd.append(proof)
    out = run_command(cmd)
    if out.returncode != 0:
        raise RuntimeError(failure(cmd, out))
    return out.stdout.strip()


def counts(values):
    return ", ".join(f"{values.count(v)} {v}" for v in VALUES)


def adopt(workdir, i, c, sub):
    """Makes a split part's combined result part i's own: its proofs copied from the split's
    directory to part i's names, then its output as part-i.out (so a run after it finds
    part i done)."""
    for final in part_files(workdir, i, c["value"]):
        shutil.copyfile(os.path.join(sub, final.replace(f"part-{i}.", "proof.", 1)),
                        os.path.join(workdir, final))
    write_atomically(os.path.join(workdir, f"part-{i}.out"), c["output"])


def run(client, args, kharbaga):
    workers = client.scheduler_info()["workers"]
    problem = shared_dir_problem(client, args.workdir)
    if problem:
        raise BadInput(problem)
    return solve_tree(client, args, kharbaga, args.position, args.moves, args.workdir,
                      0, max(1, sum(w.get("nthreads", 1) for w in workers.values())))[0]


def split_plies(args):
    """The depth at which a part left unknown is split: --split-plies, by default --plies
    but at least 2. A 1-ply split of a part whose prover is to move gives the prover's
    moves, each with the opponent to move and about as hard as the part itself."""
    return args.split_plies or max(2, args.plies)


def solve_tree(client, args, kharbaga, position, moves, workdir, depth, workers):
    """Solves position (after moves) in workdir: its frontier, its parts, each part that a
    limit left unknown split again in its own directory (to --split-unknown levels), and
    the combine, verified at the top (depth 0). Returns the exit status and the combine's
    result (None when a command failed)."""
    def say(text):
        print("  " * depth + text, flush=True)
    plies = args.plies if depth == 0 else split_plies(args)
    f = client.submit(make_frontier, kharbaga, args.rules, args.tables, position,
                      moves, plies, workdir, pure=False).result()
    if f["status"] == 2:
        raise BadInput(f["error"])
    if f["status"] != 0:
        print(f"FAILED: {f['error']}", file=sys.stderr, flush=True)
        return 1, None
    root, positions = f["root"], f["positions"]
    n = len(positions)
    say(f"{root} at {plies} plies: {n} frontier positions "
        f"({os.path.join(workdir, 'frontier.txt')}); {workers} worker threads")

    run_id = uuid.uuid4().hex[:8]
    early = None if args.every_part else run_id

    def still_needed():
        """The root's value (None while unknown) and the set of parts that can change it
        (None with --every-part: all of them)."""
        if not early:
            return None, None
        before = client.submit(prune, kharbaga, args.rules, args.tables, root, workdir,
                               run_id, pure=False)
        return before.result()

    value, needed = None, None
    if early:
        try:
            value, needed = still_needed()
        except Exception as e:
            print(f"FAILED: {e}", file=sys.stderr, flush=True)
            return 1, None
        if value:
            say(f"the parts solved before decide the root ({value}): no part runs")
        else:
            say(f"{len(needed)} of the {n} parts can change the root's value")
    # A part already split (in a run before) is not solved whole again: it is split.
    split = f["split"] if depth < args.split_unknown else set()
    # The parts in frontier order (the likeliest to decide the root first), one task per
    # worker thread at a time: a part is submitted when a thread is free, so that none
    # waits behind a long one on a busy worker while later parts run elsewhere. A part
    # that never ran and cannot change the root's value now is not submitted at all (none
    # is once the parts solved before decide it); a part checks again when it starts.
    def to_submit(i, x):
        if i in split:
            return False
        if i in f["ran"]:
            return True  # it reports its earlier result
        return not value and (needed is None or x in needed)
    todo = [(i, x) for i, x in enumerate(positions) if to_submit(i, x)]
    waiting = iter(todo)
    futures = []

    def submit_next():
        """Submits the next part still worth running (the `value` and `needed` of the last
        look: a part that never ran is skipped once it cannot change the root)."""
        for i, x in waiting:
            if i not in f["ran"] and (value or needed is not None and x not in needed):
                continue
            futures.append(client.submit(
                solve_part, kharbaga, args.rules, args.tables, args.hash, args.time_per_part,
                args.nodes_per_part, workdir, i, x, root, early, args.hash_dir,
                key=f"kharbaga-part-{i}-{run_id}", pure=False))
            return futures[-1]
        return None

    def split_part(i):
        """Splits part i, left unknown at its limit, one level deeper in its own directory
        and makes the split's result the part's own. Returns the exit status and the
        split's combine (None when a command failed)."""
        sub = os.path.join(workdir, f"part-{i}.split")
        say(f"part-{i} {positions[i]}: unknown at its limit, split in {sub}")
        os.makedirs(sub, exist_ok=True)
        status, c = solve_tree(client, args, kharbaga, positions[i], "", sub, depth + 1,
                               workers)
        if c is None:
            return status, None
        values[i] = c["value"]
        if c["value"] != "unknown":
            adopt(workdir, i, c, sub)
        say(f"part-{i} {positions[i]}: {c['value']}" + (f" {c['move']}" if c["move"] else "")
            + " (split)")
        return status, c

    def split_deciding():
        """Splits, in frontier order, each part left unknown (and not split yet) that alone
        can decide the root now. Returns None, or the exit status when a command failed."""
        nonlocal value, needed
        if not early or depth >= args.split_unknown:
            return None
        for i in sorted(i for i, v in values.items() if v == "unknown" and i not in splits):
            if value:
                break
            try:
                if not client.submit(decides, kharbaga, args.rules, args.tables, root,
                                     workdir, positions[i], pure=False).result():
                    continue
                splits.add(i)
                status, c = split_part(i)
                if c is None:
                    return status
                value, needed = still_needed()
            except Exception as e:
                print(f"FAILED: {e}", file=sys.stderr, flush=True)
                return 1
        return None

    running = as_completed([f for f in (submit_next() for _ in range(workers)) if f])
    values = {}
    ran = already = reported = 0
    stopped = n - len(split) - len(todo)
    part_seconds = 0.0
    splits = set()  # the parts split in this run
    for future in running:
        if future.status != "finished":
            print(f"FAILED: {future.exception()}", file=sys.stderr, flush=True)
            client.cancel(futures)
            print(f"{len(values) + stopped} of {n} parts done before the failure; run "
                  "again to resume", file=sys.stderr)
            return 1, None
        r = future.result()
        reported += 1
        if r["stopped"]:
            stopped += 1
            say(f"[{reported}/{len(todo)}] part-{r['index']} {r['position']}: not needed, "
                f"it cannot change the root's value ({r['seconds']:.2f}s, {r['worker']})")
        else:
            i = r["index"]
            values[i] = r["value"]
            part_seconds += r["seconds"]
            if r["already"]:
                already += 1
                what = ("already done" if r["value"] != "unknown"
                        else "a run before reached these limits")
            else:
                ran += 1
                what = f"{r['seconds']:.2f}s"
            shown = r["value"] + (f" {r['move']}" if r["move"] else "")
            say(f"[{reported}/{len(todo)}] part-{i} {r['position']}: {shown} ({what}, "
                f"{r['worker']}); so far {counts(list(values.values()))}")
            # A part left unknown that alone can decide the root (with the results so far)
            # is split now, before the parts not started yet: they may not be needed after.
            status = split_deciding()
            if status is not None:
                client.cancel(futures)
                return status, None
        following = submit_next()
        if following:
            running.add(following)

    # The other parts a limit left unknown, split one level deeper, in frontier order.
    deeper = sorted((split | {i for i, v in values.items() if v == "unknown"}) - splits
                    if depth < args.split_unknown else [])
    for i in deeper:
        try:
            value, needed = still_needed()
        except Exception as e:
            print(f"FAILED: {e}", file=sys.stderr, flush=True)
            return 1, None
        if value:
            break
        if needed is not None and positions[i] not in needed:
            values.pop(i, None)
            stopped += 1
            say(f"part-{i} {positions[i]}: not needed, it cannot change the root's value")
            continue
        splits.add(i)
        status, c = split_part(i)
        if c is None:
            return status, None

    c = client.submit(combine, kharbaga, args.rules, args.tables, root, workdir, n,
                      pure=False)
    try:
        c = c.result()
    except Exception as e:
        print(f"FAILED: {e}", file=sys.stderr, flush=True)
        return 1, None
    values = list(values.values())
    root_value = c["value"] + (f" {c['move']}" if c["move"] else "")
    summary = (f"parts: {n} ({ran} run now in {part_seconds:.1f}s of task time, {already} "
               f"already done, {stopped} not needed): {counts(values)}")
    if splits:
        summary += (f"\n{'  ' * depth}split: {len(splits)} parts unknown at their limit, "
                    "each split in its part-I.split directory")
    if depth > 0:
        say(f"root {root}: {root_value}")
        say(summary)
        return (0 if c["value"] != "unknown" else 3), c
    for line in c["output"].splitlines():
        if not line.startswith("needed: "):  # counted in its `still needed:` line
            print(f"combine: {line}", flush=True)
    checked = []
    if args.verify:
        # The tables the combine used (--tables, else the binary's default): verify-proof
        # takes none unless told.
        tables = c["tables"]
        for proof in c["proofs"]:
            try:
                checked.append(client.submit(verify, kharbaga, args.rules, tables, proof,
                                             pure=False).result())
            except Exception as e:
                print(f"FAILED: the combined proof does not verify: {e}", file=sys.stderr,
                      flush=True)
                return 1, c
            print(f"verify-proof: {checked[-1]}", flush=True)

    print(f"root {root}: {root_value}", flush=True)
    print(summary, flush=True)
    for proof in c["proofs"]:
        print(f"proof: {proof}" + (", verified" if checked else ", not verified"),
              flush=True)
    if c["value"] == "unknown":
        print(f"the root is unknown: {values.count('unknown')} parts stopped at a limit; "
              "run again (with more --time-per-part, or --split-unknown) to resume",
              file=sys.stderr, flush=True)
        return 3, c
    return 0, c


def positive(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive integer")
    return value


def main():
    p = argparse.ArgumentParser(
        description="Solve a kharbaga position on Dask: the positions K plies below it "
        "(`kharbaga solve --frontier K`) are solved one task each, then combined "
        "(`kharbaga solve --combine`) into the root's value and one proof, which "
        "`kharbaga verify-proof` checks. Resumable: parts already solved are skipped.",
        epilog="Without --scheduler a LocalCluster of --workers processes (1 thread each) "
        "runs on this machine. With --scheduler the workers of an existing cluster run the "
        "tasks (the frontier and the combining too): WORKDIR must then be a directory "
        "shared by all workers (same path everywhere, e.g. NFS), and --binary and --tables "
        "paths valid on every worker. Exit status: 0 when the root is solved, 3 when it is "
        "unknown (a limit stopped some parts), 2 for bad input, 1 when a command failed.")
    p.add_argument("--position", required=True, metavar="P",
                   help="the position to solve: a position string or `start`")
    p.add_argument("--moves", default="", metavar="M",
                   help="moves played from P first, separated by spaces")
    p.add_argument("--plies", type=positive, required=True, metavar="K",
                   help="split at the positions K plies below the root (1 to 64)")
    p.add_argument("--workdir", required=True, metavar="DIR",
                   help="where the frontier, the parts and the proof go (shared by all "
                   "workers with --scheduler); one solve per directory")
    p.add_argument("--rules", default="standard", metavar="R",
                   help="the rules, as for `kharbaga solve --rules` (default: standard)")
    p.add_argument("--tables", metavar="DIR",
                   help="the endgame tables' directory (default: the binary's default, "
                   "~/.local/share/kharbaga/tables/RULES when it exists); also passed to "
                   "verify-proof")
    p.add_argument("--time-per-part", type=positive, metavar="S",
                   help="--time S of each part: a part not solved by then is unknown")
    p.add_argument("--nodes-per-part", type=positive, metavar="N",
                   help="--nodes N of each part")
    p.add_argument("--hash", type=positive, metavar="MIB",
                   help="--hash MIB of each part (the binary's default: 256); a worker "
                   "runs one part at a time")
    p.add_argument("--hash-dir", metavar="DIR",
                   help="keep each worker's table in a file in DIR (on the worker's own "
                   "disk, --hash MiB a worker) from one part to the next: a part starts "
                   "with what the worker's parts before it found (`kharbaga solve "
                   "--hash-file`)")
    p.add_argument("--binary", default=default_kharbaga(), metavar="PATH",
                   help="the kharbaga binary (default: target/release/kharbaga of this "
                   "repository, else kharbaga on PATH)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="address of an existing scheduler, "
                   "e.g. tcp://host:8786 (default: a LocalCluster on this machine)")
    p.add_argument("--workers", type=positive, default=os.cpu_count(), metavar="W",
                   help="local workers without --scheduler (default: one per core)")
    p.add_argument("--no-verify", dest="verify", action="store_false",
                   help="do not run `kharbaga verify-proof` on the combined proof")
    p.add_argument("--split-unknown", type=int, default=0, metavar="D",
                   help="split a part that its limit leaves unknown again, --split-plies "
                   "below it, in WORKDIR/part-I.split (solved the same way, its result then "
                   "part I's), down to D levels (default 0: no split; a run after it "
                   "goes on in the split directories, and a part that a run before left "
                   "unknown with limits as large is split without being solved again)")
    p.add_argument("--split-plies", type=positive, metavar="K",
                   help="the depth of those splits (default: --plies, at least 2: split at "
                   "1 ply, a part with its prover to move gives parts about as hard as "
                   "itself)")
    p.add_argument("--every-part", action="store_true",
                   help="solve every part, even once the parts solved decide the root "
                   "(by default the parts still running or waiting are then stopped)")
    args = p.parse_args()
    args.workdir = os.path.abspath(args.workdir)
    if args.tables:
        args.tables = os.path.abspath(args.tables)
    if args.hash_dir:
        args.hash_dir = os.path.abspath(args.hash_dir)
    if args.plies > 64 or (args.split_plies or 0) > 64:
        p.error("--plies and --split-plies must be at most 64")
    if args.split_unknown < 0:
        p.error("--split-unknown must be 0 or more")

    kharbaga = args.binary
    if os.sep in kharbaga:
        kharbaga = os.path.abspath(kharbaga)

    start = time.monotonic()
    try:
        if args.scheduler:
            with Client(args.scheduler) as client:
                status = run(client, args, kharbaga)
        else:
            with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                              dashboard_address=None) as cluster, Client(cluster) as client:
                status = run(client, args, kharbaga)
    except BadInput as e:
        print(f"solve.py: {e}", file=sys.stderr, flush=True)
        return 2
    print(f"total {time.monotonic() - start:.1f}s (with the cluster's start or connection)",
          flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
