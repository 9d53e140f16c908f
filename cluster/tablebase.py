#!/usr/bin/env python3
"""Builds kharbaga's endgame tables on a Dask cluster, one task per slice pair.

`kharbaga tablebase plan --pieces N` lists the slice pairs in dependency order; each pair
becomes one task that runs `kharbaga tablebase generate --slice NAME` and depends on the
tasks of the pairs it reads. The command is resumable (a pair whose files exist and are
sound is not built again), so a failed or interrupted run is simply started again.
See cluster/README.md.
"""

import argparse
import os
import subprocess
import sys
import time
import uuid

from distributed import Client, LocalCluster, as_completed, get_worker

from shared import default_kharbaga, shared_dir_problem


# Memory estimate of one task (see cluster/README.md): the pair being built takes about
# 5 bytes a place, the decoded tables of its dependencies 2 bytes a place.
BYTES_PER_PLACE = 5
BYTES_PER_DEP_PLACE = 2


def size(n):
    return f"{n / 2**20:.1f} MiB" if n < 2**30 else f"{n / 2**30:.1f} GiB"


def read_plan(kharbaga, pieces):
    """The plan as a list of (name, places, [dependency names]), in dependency order."""
    out = subprocess.run(
        [kharbaga, "tablebase", "plan", "--pieces", str(pieces)],
        capture_output=True, text=True,
    )
    if out.returncode != 0:
        sys.exit(f"tablebase.py: `kharbaga tablebase plan` failed:\n{out.stderr.strip()}")
    plan = []
    for line in out.stdout.splitlines():
        name, places, deps = line.split()
        plan.append((name, int(places), [] if deps == "-" else deps.split(",")))
    return plan


def generate_pair(kharbaga, rules, name, directory, threads, memory, *_deps):
    """The task: builds one pair (the finished dependencies are only passed for ordering)."""
    os.makedirs(directory, exist_ok=True)
    cmd = [kharbaga, "tablebase", "generate", "--rules", rules, "--slice", name,
           "--dir", directory, "--threads", str(threads)]
    if memory:
        cmd += ["--memory", str(memory)]
    start = time.monotonic()
    out = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.monotonic() - start
    if out.returncode != 0:
        raise RuntimeError(
            f"`{' '.join(cmd)}` exited with status {out.returncode} on {os.uname().nodename}:\n"
            + out.stderr.strip())
    return {
        "name": name,
        "seconds": seconds,
        "already": "already built" in out.stdout,
        "worker": get_worker().address,
    }


def run(client, args, kharbaga, plan):
    places = {name: p for name, p, _ in plan}
    need = {name: BYTES_PER_PLACE * p + BYTES_PER_DEP_PLACE * sum(places[d] for d in deps)
            for name, p, deps in plan}
    biggest = max(need, key=need.get)
    workers = client.scheduler_info()["workers"]
    print(f"{len(plan)} slice pairs, {sum(places.values())} places; the largest task "
          f"({biggest}) needs about {size(need[biggest])}; {len(workers)} workers",
          flush=True)
    if args.memory_resource:
        most = max([w.get("resources", {}).get("MEMORY", 0) for w in workers.values()],
                   default=0)
        if most < need[biggest]:
            print(f"warning: no worker has MEMORY={need[biggest]} now; {biggest} waits "
                  "for one", file=sys.stderr, flush=True)
    problem = shared_dir_problem(client, args.dir)
    if problem:
        sys.exit(f"tablebase.py: {problem}")

    run_id = uuid.uuid4().hex[:8]
    futures = {}
    for name, _, deps in plan:
        resources = {"MEMORY": need[name]} if args.memory_resource else None
        futures[name] = client.submit(
            generate_pair, kharbaga, args.rules, name, args.dir, args.threads_per_task,
            args.memory, *(futures[d] for d in deps),
            key=f"kharbaga-{name}-{run_id}", pure=False, resources=resources)

    start = time.monotonic()
    built = already = 0
    task_seconds = 0.0
    for future in as_completed(futures.values()):
        if future.status != "finished":
            print(f"FAILED: {future.exception()}", file=sys.stderr, flush=True)
            client.cancel(list(futures.values()))
            print(f"{built + already} of {len(plan)} pairs done before the failure; run "
                  "again to resume", file=sys.stderr)
            return 1
        r = future.result()
        task_seconds += r["seconds"]
        if r["already"]:
            already += 1
            what = "already built"
        else:
            built += 1
            what = f"built in {r['seconds']:.1f}s"
        print(f"[{built + already}/{len(plan)}] {r['name']}: {what}, "
              f"{places[r['name']]} places ({r['worker']})", flush=True)
    print(f"{len(plan)} pairs ({built} built now, {already} already built) in "
          f"{time.monotonic() - start:.1f}s ({task_seconds:.1f}s of task time), "
          f"tables in {args.dir}", flush=True)
    return 0


def main():
    p = argparse.ArgumentParser(
        description="Build kharbaga's endgame tables on Dask, one task per slice pair "
        "(`kharbaga tablebase generate --slice NAME`), in the order of "
        "`kharbaga tablebase plan`. Resumable: pairs already built are skipped.",
        epilog="Without --scheduler a LocalCluster of --workers processes (1 thread each) "
        "runs on this machine. With --scheduler the workers of an existing cluster run the "
        "tasks: DIR must then be a directory shared by all workers (same path everywhere, "
        "e.g. NFS) and --kharbaga a path valid on every worker.")
    p.add_argument("--pieces", type=int, required=True, metavar="N",
                   help="every pair of up to N pieces")
    p.add_argument("--rules", required=True, metavar="R",
                   help="the rules, as for `kharbaga tablebase generate --rules`")
    p.add_argument("--dir", required=True, metavar="DIR",
                   help="table directory (shared by all workers with --scheduler)")
    p.add_argument("--kharbaga", default=default_kharbaga(), metavar="PATH",
                   help="the kharbaga binary (default: target/release/kharbaga of this "
                   "repository, else kharbaga on PATH)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="address of an existing scheduler, "
                   "e.g. tcp://host:8786 (default: a LocalCluster on this machine)")
    p.add_argument("--workers", type=int, default=os.cpu_count(), metavar="W",
                   help="local workers without --scheduler (default: one per core)")
    p.add_argument("--threads-per-task", type=int, default=1, metavar="T",
                   help="--threads of each generate command (default: 1)")
    p.add_argument("--memory", type=int, metavar="MIB",
                   help="--memory MIB of each generate command: a pair that needs more "
                   "fails at once instead of running out of memory")
    p.add_argument("--memory-resource", action="store_true",
                   help="give each task the Dask resource MEMORY=its estimated bytes, so "
                   "that it runs only on a worker started with enough of it "
                   "(dask worker --resources MEMORY=BYTES); local workers get this "
                   "machine's memory shared among them")
    args = p.parse_args()
    args.dir = os.path.abspath(args.dir)

    kharbaga = args.kharbaga
    if os.sep in kharbaga:
        kharbaga = os.path.abspath(kharbaga)
    plan = read_plan(kharbaga, args.pieces)

    start = time.monotonic()
    if args.scheduler:
        with Client(args.scheduler) as client:
            status = run(client, args, kharbaga, plan)
    else:
        resources = None
        if args.memory_resource:
            ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
            resources = {"MEMORY": ram // args.workers}
        with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                          dashboard_address=None, resources=resources) as cluster, \
                Client(cluster) as client:
            status = run(client, args, kharbaga, plan)
    print(f"total {time.monotonic() - start:.1f}s (with the cluster's start or connection)",
          flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
