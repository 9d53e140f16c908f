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
import sys
import time

import cloudpickle
import dask
from distributed import Client, LocalCluster

import archive
import commands
import frontier
import part
import proof
import solver
import workdir
from level import BadInput, Level
from shared import default_kharbaga, shared_dir_problem
from slots import Slots

# The tasks are pickled by value, as they were when they were all defined in this file
# (and as shared.py's are): a worker needs the kharbaga binary, not these modules.
for module in (commands, workdir, frontier, part, proof, solver):
    cloudpickle.register_pickle_by_value(module)


# The scheduler's priority of the short tasks; a part's is below it, higher the deeper.
PRIORITY_LIGHT = 1000


def task(fn, *args):
    """Runs fn(*args) on a worker: every task is submitted through it. Defined in the
    script (`__main__`), it makes Dask pickle the whole task with cloudpickle, which takes
    the driver's modules by value (registered above), so a cluster's scheduler and workers
    need only the binary. (Dask tries the standard pickle first, which would refer to
    `frontier.make_frontier` by name, a module the scheduler cannot import.)"""
    return fn(*args)


class Tasks:
    """Submits the driver's tasks to `client`'s cluster, each through `task`."""

    def __init__(self, client, pinned=None):
        self.client = client
        self.pinned = pinned

    def light(self, fn, *args):
        """Submits a short task (a frontier, a prune, a combine, a check): ahead of the
        parts waiting in the scheduler, so that a split started while every worker is busy
        lists its frontier as soon as one is free, not after the parts queued before it."""
        return self.client.submit(task, fn, *args, priority=PRIORITY_LIGHT, pure=False)

    def part(self, key, slot, fn, *args):
        """Submits a part's task under `key`, to run in `slot`: on the slot's own worker
        when the slots are pinned (`pinned`, a list of worker names: slot s runs on
        pinned[s % len(pinned)]), else on any."""
        workers = self.pinned and [self.pinned[slot % len(self.pinned)]]
        return self.client.submit(task, fn, *args, key=key, pure=False, workers=workers)

    def cancel(self, futures):
        self.client.cancel(futures)


def run(client, args, kharbaga, slots=None):
    """Solves the position on `client`'s cluster, `slots` parts at a time (by default one
    per worker thread). Returns the exit status."""
    workers = client.scheduler_info()["workers"]
    problem = shared_dir_problem(client, args.workdir)
    if problem:
        raise BadInput(problem)
    slots = slots or max(1, sum(w.get("nthreads", 1) for w in workers.values()))
    tasks = Tasks(client, pinned_slots(workers) if args.keep_solvers else None)
    status = Level(tasks, args, kharbaga, args.position, args.moves, args.workdir,
                   (), Slots(slots), slots).solve()[0]
    archive.keep(args.workdir, args.archive)
    return status


def pinned_slots(workers):
    """The worker of each slot, in turn, for `Tasks.pinned`: each worker (by its name, which
    a restarted worker keeps) once for each thread but the one left for the short tasks."""
    return [name for name, threads in
            sorted(((w["name"], w.get("nthreads", 1)) for w in workers.values()),
                   key=lambda named: str(named[0]))
            for _ in range(max(1, threads - 1))]


def positive(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive integer")
    return value


def limits(text):
    """--time-per-part and --nodes-per-part: rising positive numbers, separated by commas."""
    values = [positive(t) for t in text.split(",")]
    if any(a >= b for a, b in zip(values, values[1:])):
        raise argparse.ArgumentTypeError(f"{text}: the limits must rise")
    return values


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
    p.add_argument("--time-per-part", type=limits, metavar="S[,S2...]",
                   help="--time S of each part: a part not solved by then is unknown. "
                   "Several rising limits run each level in passes: every part at the "
                   "first, then those left unknown and still needed at the next, and so "
                   "on (the quick parts first, as they may decide the root); parts are "
                   "split after the last")
    p.add_argument("--nodes-per-part", type=limits, metavar="N[,N2...]",
                   help="--nodes N of each part; several rising limits run in passes as "
                   "for --time-per-part (with both, the shorter list repeats its last)")
    p.add_argument("--hash", type=positive, metavar="MIB",
                   help="--hash MIB of each part (the binary's default: 256); a worker "
                   "runs one part at a time")
    p.add_argument("--hash-dir", metavar="DIR",
                   help="keep each worker's table in a file in DIR (on the worker's own "
                   "disk, --hash MiB a worker) from one part to the next: a part starts "
                   "with what the worker's parts before it found (`kharbaga solve "
                   "--hash-file`); and between passes a part left unknown keeps its own "
                   "table there, so that its next pass goes on from it (`--resume`)")
    p.add_argument("--keep-solvers", action="store_true",
                   help="run each slot's parts in one `kharbaga solve --serve` process "
                   "kept on the slot's own worker, its table kept from part to part: a "
                   "part starts with every solved entry of the slot's parts before it, "
                   "and no table file is read or written a part (with --hash-dir, the "
                   "process starts from the slot's file and saves its table there every "
                   "half hour and when it ends)")
    p.add_argument("--binary", default=default_kharbaga(), metavar="PATH",
                   help="the kharbaga binary (default: target/release/kharbaga of this "
                   "repository, else kharbaga on PATH)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="address of an existing scheduler, "
                   "e.g. tcp://host:8786 (default: a LocalCluster on this machine)")
    p.add_argument("--workers", type=positive, default=os.cpu_count(), metavar="W",
                   help="local workers without --scheduler (default: one per core)")
    p.add_argument("--slots", type=positive, metavar="N",
                   help="parts run at once (default: the local workers, or with "
                   "--scheduler the worker threads; give a cluster's workers a thread more "
                   "than their parts, for the short tasks, and set this to the parts)")
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
    p.add_argument("--archive", metavar="FILE",
                   help="keep FILE (a .tar.gz) up to date with the work directory's "
                   "archive after every part's result: its frontiers, splits and parts "
                   "left unknown, without proofs (cluster/archive.py save), so that a run "
                   "cut off with its machine can go on elsewhere (archive.py restore); "
                   "DIR must be visible on the driver's machine")
    p.add_argument("--values", action="store_true",
                   help="take the values that runs before recorded for parts (their "
                   "part-I.value files, which cluster/archive.py keeps without the proofs) "
                   "as the parts' results until a level's root is decided, then solve "
                   "again only those of them its proof rests on (a part split before "
                   "through its split, the same way): on a restored archive, the open "
                   "parts run first instead of after every decided part is proven again")
    p.add_argument("--every-part", action="store_true",
                   help="solve every part, even once the parts solved decide the root "
                   "(by default the parts still running or waiting are then stopped)")
    args = p.parse_args()
    args.workdir = os.path.abspath(args.workdir)
    if args.tables:
        args.tables = os.path.abspath(args.tables)
    if args.hash_dir:
        args.hash_dir = os.path.abspath(args.hash_dir)
    if args.archive:
        args.archive = os.path.abspath(args.archive)
    if args.plies > 64 or (args.split_plies or 0) > 64:
        p.error("--plies and --split-plies must be at most 64")
    if args.split_unknown < 0:
        p.error("--split-unknown must be 0 or more")
    if args.values and args.every_part:
        p.error("--values needs the early stop: it solves again only the parts a proof "
                "rests on, where --every-part solves every part")

    kharbaga = args.binary
    if os.sep in kharbaga:
        kharbaga = os.path.abspath(kharbaga)

    start = time.monotonic()
    try:
        if args.scheduler:
            with Client(args.scheduler) as client:
                status = run(client, args, kharbaga, args.slots)
        else:
            # A worker runs one part at a time (the slots) and has a second thread for the
            # short tasks, so that a split need not wait for a part to end to list its
            # frontier; the tasks beyond a worker's threads wait in the scheduler.
            with dask.config.set({"distributed.scheduler.worker-saturation": 1.0}), \
                    LocalCluster(n_workers=args.workers, threads_per_worker=2, processes=True,
                                 dashboard_address=None) as cluster, Client(cluster) as client:
                status = run(client, args, kharbaga, args.slots or args.workers)
    except BadInput as e:
        print(f"solve.py: {e}", file=sys.stderr, flush=True)
        return 2
    print(f"total {time.monotonic() - start:.1f}s (with the cluster's start or connection)",
          flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
