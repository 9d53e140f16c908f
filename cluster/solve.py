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
import math
import os
import queue
import sys
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import cloudpickle
import dask
from distributed import Client, LocalCluster

import archive
from commands import VALUES
from frontier import decides, make_frontier, prune
from part import drop_resume_files, solve_part, standing_results
from proof import adopt, combine, verify
from shared import default_kharbaga, shared_dir_problem
from slots import Slots
from workdir import stop_every_part

# The tasks are pickled by value, as they were when they were all defined in this file
# (and as shared.py's are): a worker needs the kharbaga binary, not these modules.
for module in ("commands", "workdir", "frontier", "part", "proof"):
    cloudpickle.register_pickle_by_value(sys.modules[module])


class BadInput(Exception):
    """An error in what the user asked for (exit status 2)."""


# The scheduler's priority of the short tasks; a part's is below it, higher the deeper.
PRIORITY_LIGHT = 1000


def task(fn, *args):
    """Runs fn(*args) on a worker: every task is submitted through it. Defined in the
    script (`__main__`), it makes Dask pickle the whole task with cloudpickle, which takes
    the driver's modules by value (registered above), so a cluster's scheduler and workers
    need only the binary. (Dask tries the standard pickle first, which would refer to
    `frontier.make_frontier` by name, a module the scheduler cannot import.)"""
    return fn(*args)


def light(client, fn, *args):
    """Submits a short task (a frontier, a prune, a combine, a check): ahead of the parts
    waiting in the scheduler, so that a split started while every worker is busy lists its
    frontier as soon as one is free, not after the parts queued before it."""
    return client.submit(task, fn, *args, priority=PRIORITY_LIGHT, pure=False)


def counts(values):
    return ", ".join(f"{values.count(v)} {v}" for v in VALUES)


def run(client, args, kharbaga, slots=None):
    """Solves the position on `client`'s cluster, `slots` parts at a time (by default one
    per worker thread). Returns the exit status."""
    workers = client.scheduler_info()["workers"]
    problem = shared_dir_problem(client, args.workdir)
    if problem:
        raise BadInput(problem)
    slots = slots or max(1, sum(w.get("nthreads", 1) for w in workers.values()))
    status = solve_tree(client, args, kharbaga, args.position, args.moves, args.workdir,
                        (), Slots(slots), slots)[0]
    archive.keep(args.workdir, args.archive)
    return status


def split_plies(args):
    """The depth at which a part left unknown is split: --split-plies, by default --plies
    but at least 2. A 1-ply split of a part whose prover is to move gives the prover's
    moves, each with the opponent to move and about as hard as the part itself."""
    return args.split_plies or max(2, args.plies)


def part_limits(args):
    """Each pass's limits of a part, (seconds, nodes), from --time-per-part and
    --nodes-per-part (a list shorter than the other repeats its last limit)."""
    times = args.time_per_part or [None]
    nodes = args.nodes_per_part or [None]
    return [(times[min(k, len(times) - 1)], nodes[min(k, len(nodes) - 1)])
            for k in range(max(len(times), len(nodes)))]


def show_limits(seconds, nodes):
    return " and ".join(([f"{seconds}s"] if seconds else [])
                        + ([f"{nodes} nodes"] if nodes else []))


def solve_tree(client, args, kharbaga, position, moves, workdir, path, slots, workers,
               cancelled=lambda: False, queued=lambda: None):
    """Solves position (after moves) in workdir: its frontier, its parts, each part that a
    limit left unknown split again in its own directory (to --split-unknown levels), and
    the combine, verified at the top (`path` empty: else the places, see `place`, of the
    parts that lead here from the top: its parts' slots are asked for with it). Its parts
    run in `slots`, shared by every level. Returns the exit status and the combine's
    result (None when a command failed).

    `cancelled()` turns true when the level above no longer needs this split (its root was
    decided meanwhile): from then on no part of it is needed, so none starts, and the
    combine reports it unknown. `queued()` is called once its first part waits for a slot,
    or it has none to run (the level above waits for that before it takes a slot)."""
    depth = len(path)

    def say(text):
        print("  " * depth + text, flush=True)
    plies = args.plies if depth == 0 else split_plies(args)
    f = light(client, make_frontier, kharbaga, args.rules, args.tables, position, moves,
              plies, workdir, depth > 0).result()
    if f["status"] == 2:
        raise BadInput(f["error"])
    if f["status"] != 0:
        print(f"FAILED: {f['error']}", file=sys.stderr, flush=True)
        return 1, None
    root, plies, positions = f["root"], f["plies"], f["positions"]
    n = len(positions)
    if depth == 0 and args.archive:
        if not os.path.isfile(os.path.join(workdir, "frontier.txt")):
            raise BadInput(f"--archive: {workdir} is not visible on this machine (the "
                           "driver saves the archive itself)")
        archive.keep(args.workdir, args.archive)
    say(f"{root} at {plies} plies: {n} frontier positions "
        f"({os.path.join(workdir, 'frontier.txt')}); {workers} parts at a time")

    run_id = uuid.uuid4().hex[:8]
    early = None if args.every_part else run_id

    def still_needed():
        """The root's value (None while unknown) and the parts that can change it, each
        with the fewest parts that would decide the root through it (`prune`; None with
        --every-part: all of them)."""
        if not early:
            return None, None
        if not cancelled():
            result = light(client, prune, kharbaga, args.rules, args.tables, root, workdir,
                           run_id).result()
            # Looked at again after the prune, which may have written the needed file
            # after the level above cleared it.
            if not cancelled():
                return result
        stop_every_part(workdir)
        return None, {}

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
    # The parts each when a slot is free for it, in the order of `place` (see Slots: a
    # split's parts go before the level's own that come after it, which fill the workers
    # the split leaves idle). A part that never ran and cannot change the root's value now
    # is not submitted at all (none is once the parts solved before decide it); a part
    # checks again when it starts.
    # With several --time-per-part limits the level runs in passes: every part at the
    # first, then the parts left unknown (and still needed) at the next, and so on; only
    # after the last are parts split.
    def to_submit(i, x):
        if i in split or values.get(i, "unknown") != "unknown":
            return False
        if i in ran_before:
            return True  # it reports its earlier result
        return not value and (needed is None or x in needed)

    def place(i, x):
        """Part i's place in the queue, lowest first: the parts that ran before (they
        report their results at once), then by the fewest parts that would decide the root
        through it, the cheaper way and then the other (proof-number search's choice;
        `prune`), then in frontier order (the engine's, the likeliest to decide the root
        first)."""
        fewest = needed.get(x, (math.inf, math.inf)) if needed else (0, 0)
        return (i not in ran_before, *fewest, i)

    def feed():
        """Submits the parts, each once a slot is free for it and if it is still worth
        running then, the lowest `place` first (the `value` and `needed` of the last look,
        taken in as parts end: a part that never ran is skipped once it cannot change the
        root)."""
        try:
            def skipped(i, x):
                return i not in ran_before and (value or needed is not None
                                                and x not in needed)

            def next_part():
                for i, x in [p for p in waiting if skipped(*p)]:
                    waiting.remove((i, x))
                    finished.put(("skipped", i))
                return min(waiting, key=lambda p: place(*p), default=None)

            def splits_listing():
                """Waits until each split started has its first part waiting for a slot;
                returns whether one had not."""
                listing = [e for e in list(listed.values()) if not e.is_set()]
                for e in listing:
                    while not (e.wait(1) or stop_feeding.is_set() or cancelled()):
                        pass
                return bool(listing)

            waiting = [(i, x) for i, x in todo if i not in values]  # (not taken in)
            while not (stop_feeding.is_set() or cancelled()):
                # Chosen before waiting for a slot (a part not worth running does not wait)
                # and again after (the wait may be long, and the parts' places change).
                part = next_part()
                if part is None:
                    break
                slot = slots.acquire(path + (place(*part),), queued)
                # The places after the results of the parts that ended meanwhile.
                with reports:
                    while not reports.wait_for(
                            lambda: not unreported or stop_feeding.is_set(), timeout=1):
                        if cancelled():
                            break
                if splits_listing():
                    # A split started meanwhile (a part that alone decides the root): its
                    # parts come first, so the slot goes back to the smallest key waiting.
                    slots.release(slot)
                    continue
                if stop_feeding.is_set() or cancelled():
                    slots.release(slot)
                    waiting.remove(part)
                    finished.put(("skipped", part[0]))
                    continue
                part = next_part()
                if part is None:
                    slots.release(slot)
                    break
                i, x = part
                waiting.remove(part)
                future = client.submit(
                    task, solve_part, kharbaga, args.rules, args.tables, args.hash,
                    seconds, nodes, workdir, i, x, root, early,
                    args.hash_dir, slot, not last,
                    key=f"kharbaga-part-{i}-{run_id}-{pass_number}", pure=False)
                futures.append(future)

                def done(future, slot=slot):
                    nonlocal unreported
                    with reports:
                        unreported += 1
                    slots.release(slot)
                    finished.put(("part", future))
                future.add_done_callback(done)
        finally:
            queued()  # (every part of the level has its slot, or none is left to run)
            finished.put(("fed", None))

    def split_part(i, unneeded=lambda: False):
        """Splits part i, left unknown at its limit, one level deeper in its own directory
        and makes the split's result the part's own (unless `unneeded()` turned true
        meanwhile and stopped the split before it found the value). Returns the exit status
        and the split's combine (None when a command failed)."""
        sub = os.path.join(workdir, f"part-{i}.split")
        say(f"part-{i} {positions[i]}: unknown at its limit, split in {sub}")
        os.makedirs(sub, exist_ok=True)
        try:
            status, c = solve_tree(client, args, kharbaga, positions[i], "", sub,
                                   path + (place(i, positions[i]),), slots, workers,
                                   lambda: cancelled() or unneeded(), listed[i].set)
        finally:
            listed[i].set()
        if c is None:
            return status, None
        if unneeded() and c["value"] == "unknown":
            return status, c
        values[i] = c["value"]
        if c["value"] != "unknown":
            adopt(workdir, i, c, sub)
        say(f"part-{i} {positions[i]}: {c['value']}" + (f" {c['move']}" if c["move"] else "")
            + " (split)")
        return status, c

    # The splits running, each in a thread of its own: part -> (thread, its stop event).
    splitting = {}
    # The splits started: part -> an event set once the split's first part waits for a
    # slot (or it has none to run).
    listed = {}
    threads = ThreadPoolExecutor(max_workers=max(1, n))

    def start_split(i):
        splits.add(i)
        listed[i] = threading.Event()
        event = threading.Event()
        thread = threads.submit(split_part, i, event.is_set)
        splitting[i] = (thread, event)
        thread.add_done_callback(lambda _: finished.put(("split", i)))

    def stop_split(i):
        splitting[i][1].set()
        stop_every_part(os.path.join(workdir, f"part-{i}.split"))

    def stop_unneeded_splits(everything=False):
        for i, (_, event) in splitting.items():
            # A split stopped before is not walked again.
            if not event.is_set() and (everything or value or needed is not None
                                       and positions[i] not in needed):
                stop_split(i)

    def split_deciding():
        """Splits, in frontier order, each part left unknown (and not split yet), or split
        in a run before, that alone can decide the root now."""
        if not last or not early or depth >= args.split_unknown or cancelled():
            return
        for i in sorted((split | {i for i, v in values.items() if v == "unknown"}) - splits):
            if value:
                break
            if light(client, decides, kharbaga, args.rules, args.tables, root, workdir,
                     positions[i]).result():
                start_split(i)

    def split_the_rest():
        """Splits, in frontier order, the other parts a limit left unknown (and those split
        in a run before), once this level has no part left to run: each still needed."""
        nonlocal stopped
        if depth >= args.split_unknown:
            return
        for i in sorted((split | {i for i, v in values.items() if v == "unknown"})
                        - splits):
            if value:
                break
            if needed is not None and positions[i] not in needed:
                values.pop(i, None)
                stopped += 1
                say(f"part-{i} {positions[i]}: not needed, it cannot change the root's value")
                continue
            start_split(i)

    def report_part(future):
        """Takes a part's task's result in. Returns None, or the exit status of a
        failure."""
        if future.status != "finished":
            print(f"FAILED: {future.exception()}", file=sys.stderr, flush=True)
            print(f"{len(values) + stopped} of {n} parts done before the failure; run "
                  "again to resume", file=sys.stderr)
            return 1
        return take_in(future.result())

    def take_in(r):
        """Takes a part's result in (as `solve_part` gives it). Returns None."""
        nonlocal reported, stopped, ran, part_seconds, value, needed
        reported += 1
        archive.keep(args.workdir, args.archive)
        if r["stopped"]:
            stopped += 1
            values.pop(r["index"], None)  # left unknown by a pass before
            already.discard(r["index"])
            say(f"[{reported}/{len(todo)}] part-{r['index']} {r['position']}: not needed, "
                f"it cannot change the root's value ({r['seconds']:.2f}s, {r['worker']})")
            return None
        i = r["index"]
        values[i] = r["value"]
        part_seconds += r["seconds"]
        if r["already"]:
            already.add(i)
            what = ("already done" if r["value"] != "unknown"
                    else "a run before reached these limits")
        else:
            ran += 1
            already.discard(i)
            what = f"{r['seconds']:.2f}s"
        shown = r["value"] + (f" {r['move']}" if r["move"] else "")
        say(f"[{reported}/{len(todo)}] part-{i} {r['position']}: {shown} ({what}, "
            f"{r['worker']}); so far {counts(list(values.values()))}")
        may_split = last and depth < args.split_unknown and "unknown" in values.values()
        if r["value"] != "unknown" and (not r["already"] or splitting or may_split):
            # The parts' places change (see `place`), and a split running may no longer be
            # needed (the root decided, or its part no longer able to change it): stopped
            # now rather than when a split ends. And a part left unknown is not split for a
            # root this part decided.
            value, needed = still_needed()
            stop_unneeded_splits()
        # A part left unknown that alone can decide the root (with the results so far) is
        # split now, before the parts not started yet: they may not be needed after.
        split_deciding()
        return None

    def report_split(i):
        """Takes a split's result in. Returns None, or the exit status of a failure."""
        nonlocal value, needed, stopped
        thread, event = splitting.pop(i)
        status, c = thread.result()
        archive.keep(args.workdir, args.archive)
        if event.is_set() and (c is None or c["value"] == "unknown"):
            values.pop(i, None)
            stopped += 1
            say(f"part-{i} {positions[i]}: not needed, its split stopped")
            return None
        if c is None:
            return status
        value, needed = still_needed()
        stop_unneeded_splits()
        split_deciding()
        return None

    values = {}
    ran = 0
    already = set()  # the parts whose result is from a run before
    part_seconds = 0.0
    splits = set()  # the parts split in this run
    passes = part_limits(args)
    failure = None
    for pass_number, (seconds, nodes) in enumerate(passes):
        last = pass_number == len(passes) - 1
        # The parts that ran before this run report their results in the first pass.
        ran_before = f["ran"] if pass_number == 0 else set()
        if pass_number > 0:
            value, needed = still_needed()
        todo = [(i, x) for i, x in enumerate(positions) if to_submit(i, x)]
        if pass_number > 0 and todo:
            say(f"{len(todo)} parts left unknown at {show_limits(*passes[pass_number - 1])} "
                f"and still needed: again at {show_limits(seconds, nodes)}")
        elif pass_number > 0 and not last:
            continue  # (the last pass splits, even with no part to run)
        # A part left unknown by the pass before runs again (its result then is this
        # pass's, and only this pass's unknowns are split) or is counted as not needed.
        for i in [i for i, v in values.items() if v == "unknown"]:
            values.pop(i)
        solved = sum(v != "unknown" for v in values.values())
        stopped = n - len(split) - len(todo) - solved
        reported = 0
        futures = []
        # What happens, as it does: ("part", a part's Dask future), ("split", a split
        # part's index), ("skipped", a part's index) for a part no longer worth running when
        # its turn came, or ("fed", None) once every part worth running is submitted.
        finished = queue.Queue()
        stop_feeding = threading.Event()
        # The parts ended whose results the loop below has not taken in yet: the feed
        # waits for them before it chooses the next part.
        reports = threading.Condition()
        unreported = 0
        feeder = threading.Thread(target=feed, daemon=True)
        fed = False
        rest_split = not last  # parts are split after the last pass only
        parts_done = 0
        try:
            # The parts whose results from a run before stand are taken in at once, not
            # each in a slot (where the parts of other levels would take the slots they
            # leave between them).
            before = [(i, x) for i, x in todo if i in ran_before]
            if before:
                for r in light(client, standing_results, kharbaga, args.rules, args.tables,
                               args.hash, seconds, nodes, workdir, before).result():
                    take_in(r)
            # A part split in a run before that alone can decide the root is split again
            # before the last pass's parts start (its parts come first; one of the pass's
            # may take an hour).
            split_deciding()
            feeder.start()
            while len(futures) > parts_done or splitting or not fed or not rest_split:
                if fed and len(futures) == parts_done and not rest_split:
                    # Every part of this level has run: the others a limit left unknown
                    # are split now, side by side.
                    rest_split = True
                    value, needed = still_needed()
                    split_the_rest()
                    continue
                kind, x = finished.get()
                if kind == "fed":
                    fed = True
                elif kind == "skipped":
                    stopped += 1  # not run: the root, or what it needs, changed meanwhile
                elif kind == "part":
                    parts_done += 1
                    failure = report_part(x)
                    with reports:
                        unreported -= 1
                        reports.notify_all()
                else:
                    failure = report_split(x)
                if failure is not None:
                    break
        except Exception as e:
            print(f"FAILED: {e}", file=sys.stderr, flush=True)
            failure = 1
        if failure is not None:
            stop_feeding.set()
            with reports:
                reports.notify_all()
            client.cancel(futures)
            stop_unneeded_splits(everything=True)
            break
    threads.shutdown(wait=True)
    if failure is not None:
        return failure, None  # (a run after it goes on from the parts' own tables)
    if args.hash_dir:
        # The parts' own tables kept for a pass that did not come (the root was decided,
        # or a part was no longer needed): on the disk of the worker that runs this.
        try:
            light(client, drop_resume_files, args.hash_dir, args.hash, positions).result()
        except Exception as e:
            print(f"warning: the parts' tables were not removed from {args.hash_dir}: {e}",
                  file=sys.stderr, flush=True)

    c = light(client, combine, kharbaga, args.rules, args.tables, root, workdir, n)
    try:
        c = c.result()
    except Exception as e:
        print(f"FAILED: {e}", file=sys.stderr, flush=True)
        return 1, None
    values = list(values.values())
    root_value = c["value"] + (f" {c['move']}" if c["move"] else "")
    summary = (f"parts: {n} ({ran} run now in {part_seconds:.1f}s of task time, "
               f"{len(already)} already done, {stopped} not needed): {counts(values)}")
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
                checked.append(light(client, verify, kharbaga, args.rules, tables,
                                     proof).result())
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
