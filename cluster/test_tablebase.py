#!/usr/bin/env python3
"""Test of the Dask driver: python3 cluster/test_tablebase.py KHARBAGA_BINARY

Builds the 4-piece standard tables on a local cluster of 2 workers into a temporary
directory, then checks that every pair's files exist, that `kharbaga tablebase verify`
agrees, and that a second run builds nothing; also checks the contract the driver relies
on: `generate --slice` with a dependency missing fails with exit status 2.
"""

import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DRIVER = os.path.join(HERE, "tablebase.py")
RULES = "standard"
PIECES = 4

passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok - {name}", flush=True)
    else:
        failed += 1
        print(f"FAIL - {name}" + (f": {detail}" if detail else ""), flush=True)


def flip(name):
    """The mirror slice: AmBk-CmDk becomes CmDk-AmBk."""
    mover, opponent = name.split("-")
    return f"{opponent}-{mover}"


def driver(kharbaga, directory, *extra):
    return subprocess.run(
        [sys.executable, DRIVER, "--pieces", str(PIECES), "--rules", RULES, "--dir",
         directory, "--kharbaga", kharbaga, "--workers", "2", *extra],
        capture_output=True, text=True)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python3 cluster/test_tablebase.py KHARBAGA_BINARY")
    kharbaga = os.path.abspath(sys.argv[1])

    plan = subprocess.run([kharbaga, "tablebase", "plan", "--pieces", str(PIECES)],
                          capture_output=True, text=True, check=True).stdout.split("\n")
    plan = [line.split() for line in plan if line.strip()]
    names = [name for name, _, _ in plan]

    with tempfile.TemporaryDirectory(prefix="kharbaga-tb-") as tmp:
        tables = os.path.join(tmp, "tables")

        first = driver(kharbaga, tables)
        check("the driver's first run exits 0", first.returncode == 0,
              f"status {first.returncode}\n{first.stdout}\n{first.stderr}")
        built = [n for n in names if f"] {n}: built in" in first.stdout]
        check("the first run builds every pair of the plan", len(built) == len(names),
              f"{len(built)} of {len(names)}:\n{first.stdout}")

        missing = [f"{s}.kbt" for n in names for s in {n, flip(n)}
                   if not os.path.isfile(os.path.join(tables, f"{s}.kbt"))]
        check("every pair has the files of both its slices", not missing,
              f"missing {missing}")

        verify = subprocess.run([kharbaga, "tablebase", "verify", "--rules", RULES,
                                 "--dir", tables], capture_output=True, text=True)
        check("kharbaga tablebase verify exits 0", verify.returncode == 0,
              f"status {verify.returncode}\n{verify.stdout[-2000:]}\n{verify.stderr}")

        mtimes = {f: os.stat(os.path.join(tables, f)).st_mtime_ns
                  for f in os.listdir(tables)}
        second = driver(kharbaga, tables)
        check("the driver's second run exits 0", second.returncode == 0,
              f"status {second.returncode}\n{second.stderr}")
        again = [n for n in names if f"] {n}: already built" in second.stdout]
        check("the second run reports every pair as already built",
              len(again) == len(names) and f"(0 built now, {len(names)} already built)"
              in second.stdout, second.stdout)
        after = {f: os.stat(os.path.join(tables, f)).st_mtime_ns
                 for f in os.listdir(tables)}
        check("the second run leaves the table files untouched", after == mtimes)

        # The binary's contract: a pair whose dependency is missing fails with status 2.
        name, _, deps = next(p for p in plan if p[2] != "-")
        empty = os.path.join(tmp, "empty")
        os.mkdir(empty)
        lone = subprocess.run([kharbaga, "tablebase", "generate", "--rules", RULES,
                               "--slice", name, "--dir", empty],
                              capture_output=True, text=True)
        check(f"generate --slice {name} without {deps} exits 2", lone.returncode == 2,
              f"status {lone.returncode}\n{lone.stderr}")
        check("and builds nothing", not any(f.endswith(".kbt") for f in os.listdir(empty)))

        # A failing task makes the driver fail, with the command's error message.
        bad = driver(kharbaga, os.path.join(tmp, "bad"), "--pieces", "2", "--rules",
                     "no-such-rules")
        check("a failing task makes the driver exit nonzero with the command's stderr",
              bad.returncode != 0 and "no-such-rules" in bad.stderr,
              f"status {bad.returncode}\n{bad.stderr}")

    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
