#!/usr/bin/env python3
"""Test of the Dask solve driver: python3 cluster/test_solve.py KHARBAGA_BINARY

Solves a small position (White to move wins; 79 frontier positions at 2 plies, each solved
in well under a second without tables) on a local cluster of 2 workers: first with a node
limit that leaves the root unknown (exit status 3), then again without one, which resumes
the parts left open, combines them into a win and a proof that `kharbaga verify-proof`
accepts (with --every-part); a third run skips every part. A run in a new directory runs
first the parts that alone would decide the root and stops those not needed once it is
decided, and a run after it runs none; a loss needs only one refuting part for each move
(8-piece, 83 parts at 2 plies); at 1 ply and a node
limit that leaves every part unknown, --split-unknown splits them again until the win
is proven, without solving again the parts a run before left unknown at the same limits
(also in a directory where archive.py restored them, without the proofs; the solved parts'
values restored with them are a record the driver solves again, or with --values takes as
results, solving again only the parts the root's proof rests on);
a part left unknown that alone can decide the root is split before the parts not started;
with rising limits (--nodes-per-part 20000,2000000) each level runs its parts in passes,
and a part split in a run before is split after the last pass even if it ran no part, or
during it when it alone can decide the root;
splits run side by side, and those a decided root no longer needs are stopped; the slots go
to the waiting parts depth first in frontier order;
with --hash-dir each worker passes its table from one part to the next; the stop kills
a part's command while it runs. Another run finds the 3-piece tables in the default
directory (XDG_DATA_HOME) and must verify its proof with them; with them, the parts
archive.py restored (left unknown without tables) are solved again. Also checks that a bad
position gives exit status 2 and a failing part exit status 1 with the command's standard
error.
"""

import os
import re
import shutil
import socket
import stat
import subprocess
import sys
import tarfile
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import commands  # noqa: E402 (the driver's module that runs commands)
import workdir  # noqa: E402 (the driver's work directory's files)
from distributed import Client  # noqa: E402
from frontier import make_frontier  # noqa: E402 (the driver's frontier task)
from feed import Feed  # noqa: E402 (the driver's feed of a pass's parts)
from level import Level  # noqa: E402 (a level of the driver's split tree)
from slots import Slots  # noqa: E402 (the driver's slots for the parts)
import solver  # noqa: E402 (the driver's kept solver processes)

DRIVER = os.path.join(HERE, "solve.py")
ARCHIVE = os.path.join(HERE, "archive.py")
POSITION = "W:Ba1,g1,d2:Wb4,c7,b8,d8,h8,e9,g9"
LOSS = "B:Bb2,b4:WKg1,i5,e7,a9,e9,i9"  # 8 pieces, Black to move loses
HARD = "W:Ba1,e1,g1,i1,h2,a3,e5:Wa7,c7,b8,d8,a9,e9,i9"  # 14 pieces, open after hours
PLIES = 2
# No default tables (~/.local/share/kharbaga/tables) for the driver's commands nor ours.
ENV = dict(os.environ, XDG_DATA_HOME="/nonexistent/kharbaga-tests")

passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok - {name}", flush=True)
    else:
        failed += 1
        print(f"FAIL - {name}" + (f": {detail}" if detail else ""), flush=True)


def driver(kharbaga, workdir, *extra, position=POSITION, env=ENV, plies=PLIES):
    return subprocess.run(
        [sys.executable, DRIVER, "--binary", kharbaga, "--position", position, "--plies",
         str(plies), "--workdir", workdir, "--workers", "2", "--hash", "64", *extra],
        capture_output=True, text=True, env=env)


def archive_cmd(*args):
    return subprocess.run([sys.executable, ARCHIVE, *args], capture_output=True, text=True,
                          env=ENV)


def lines_matching(text, pattern, whole=True):
    """The indices of the lines of text that match pattern (the whole line, or its start)."""
    test = re.fullmatch if whole else re.match
    return [k for k, line in enumerate(text.splitlines()) if test(pattern, line)]


def show(run):
    return f"status {run.returncode}\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"


def parts_line(run):
    """(parts, run now, already done, not needed) of the driver's summary, or None."""
    m = re.search(r"^parts: (\d+) \((\d+) run now in .*, (\d+) already done, (\d+) not "
                  r"needed\)", run.stdout, re.M)
    return tuple(int(g) for g in m.groups()) if m else None


def wrapper(path, text):
    """Writes the shell script `text` to `path`, executable: a stand-in for the binary."""
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python3 cluster/test_solve.py KHARBAGA_BINARY")
    kharbaga = os.path.abspath(sys.argv[1])

    with tempfile.TemporaryDirectory(prefix="kharbaga-solve-") as tmp:
        # Bad input: exit status 2 with the binary's message, before any part runs.
        bad = driver(kharbaga, os.path.join(tmp, "bad"), position="garbage")
        check("a garbage position exits 2", bad.returncode == 2, show(bad))
        check("with a clear message naming it", "solve.py:" in bad.stderr
              and "'garbage'" in bad.stderr and "Traceback" not in bad.stderr, show(bad))

        work = os.path.join(tmp, "work")

        # A node limit stops most parts: the root is unknown, exit status 3, no proof.
        limited = driver(kharbaga, work, "--nodes-per-part", "1")
        check("a run with a node limit per part exits 3 (root unknown)",
              limited.returncode == 3 and f"root {POSITION}: unknown" in limited.stdout,
              show(limited))
        check("and writes no proof", not os.path.exists(os.path.join(work, "proof.txt.gz")))
        limited_done = len(re.findall(r"^\[\d+/\d+\] part-\d+ \S+: (?:win|loss|draw)",
                                      limited.stdout, re.M))

        with open(os.path.join(work, "frontier.txt")) as f:
            frontier = f.read().splitlines()
        check("frontier.txt starts with its header",
              frontier and frontier[0] == f"# frontier: {POSITION} plies {PLIES}",
              frontier[:1])
        n = len(frontier) - 1

        # Run again without a limit and with every part: the parts left unknown are solved,
        # the others skipped.
        first = driver(kharbaga, work, "--every-part")
        check("the run without a limit exits 0", first.returncode == 0, show(first))
        check("the root is a win", re.search(rf"^root {re.escape(POSITION)}: win \S+$",
                                             first.stdout, re.M), show(first))
        check("the number of parts is the number of frontier lines",
              n > 0 and parts_line(first) is not None and parts_line(first)[0] == n
              and len(re.findall(rf"^\[\d+/{n}\] part-", first.stdout, re.M)) == n,
              f"{n} frontier positions, summary {parts_line(first)}")
        check("every part has its .out and its proof",
              all(os.path.isfile(os.path.join(work, f"part-{i}.out"))
                  and os.path.isfile(os.path.join(work, f"part-{i}.txt.gz"))
                  for i in range(n)))
        check("it skips the parts the limited run solved",
              parts_line(first) == (n, n - limited_done, limited_done, 0),
              f"{limited_done} solved before, summary {parts_line(first)}")
        check("no temporary files are left",
              not [f for f in os.listdir(work) if "tmp" in f], os.listdir(work))

        proof = os.path.join(work, "proof.txt.gz")
        check("the combined proof exists", os.path.isfile(proof))
        check("the driver verified it", "proof holds:" in first.stdout, show(first))
        verify = subprocess.run([kharbaga, "verify-proof", proof], capture_output=True,
                                text=True, env=ENV)
        check("kharbaga verify-proof accepts the combined proof", verify.returncode == 0,
              f"status {verify.returncode}\n{verify.stdout}\n{verify.stderr}")

        # A third run skips every part and leaves their files untouched.
        files = [f for f in os.listdir(work) if f.startswith("part-")]
        mtimes = {f: os.stat(os.path.join(work, f)).st_mtime_ns for f in files}
        again = driver(kharbaga, work)
        check("the third run exits 0 with the same root value",
              again.returncode == 0 and re.search(rf"^root {re.escape(POSITION)}: win",
                                                  again.stdout, re.M), show(again))
        check("the third run skips every part", parts_line(again) == (n, 0, n, 0)
              and again.stdout.count("(already done, ") == n, show(again))
        after = {f: os.stat(os.path.join(work, f)).st_mtime_ns
                 for f in os.listdir(work) if f.startswith("part-")}
        check("and leaves the part files untouched", after == mtimes)

        # --hash-dir: each worker's parts pass its table on (a 1 MiB table a worker); a
        # file left there by another build or damaged is dropped, not fatal.
        carry_dir = os.path.join(tmp, "carry")
        tables_dir = os.path.join(tmp, "worker-tables")
        os.makedirs(tables_dir)
        with open(os.path.join(tables_dir, "table-0-1.khtt"), "wb") as f:
            f.write(b"not a table")
        carry = driver(kharbaga, carry_dir, "--every-part", "--hash", "1",
                       "--hash-dir", tables_dir)
        check("with --hash-dir the driver exits 0 with a win",
              carry.returncode == 0 and re.search(rf"^root {re.escape(POSITION)}: win",
                                                  carry.stdout, re.M), show(carry))
        kept = sorted(os.listdir(tables_dir))
        # A file is a 32-byte header, 24-byte entries (at most an eighth of the table's) and
        # an 8-byte checksum.
        check("each worker keeps its table in a file of entries",
              kept and all(re.fullmatch(r"table-[01]-1\.khtt", f)
                           and (os.path.getsize(os.path.join(tables_dir, f)) - 40) % 24 == 0
                           and 40 < os.path.getsize(os.path.join(tables_dir, f))
                           <= 40 + (1 << 20) // 64 * 3 // 8 * 24
                           for f in kept), kept)
        outs = []
        for name in os.listdir(carry_dir):
            if re.fullmatch(r"part-\d+\.out", name):
                with open(os.path.join(carry_dir, name)) as f:
                    outs.append(f.read())
        check("every part ran with its worker's table, most from an earlier part's",
              len(outs) == n and all("hash file: " + tables_dir in o for o in outs)
              and sum("(an earlier solve's, " in o for o in outs) >= n - 2,
              f"{len(outs)} parts; {sum('(an earlier solve' in o for o in outs)} carried")
        check("and the proof holds", "proof holds:" in carry.stdout, show(carry))

        # --keep-solvers: each slot's parts run in one kept process on the slot's own
        # worker, which starts from the slot's file (written by the run above) and saves
        # its table there when the run ends.
        keep_dir = os.path.join(tmp, "keep")
        before = {f: os.stat(os.path.join(tables_dir, f)).st_mtime_ns
                  for f in os.listdir(tables_dir)}
        keep = driver(kharbaga, keep_dir, "--every-part", "--hash", "1", "--hash-dir",
                      tables_dir, "--keep-solvers")
        check("with --keep-solvers the driver exits 0 with a win",
              keep.returncode == 0 and re.search(rf"^root {re.escape(POSITION)}: win",
                                                 keep.stdout, re.M), show(keep))
        check("and the proof holds", "proof holds:" in keep.stdout, show(keep))
        outs = []
        for name in os.listdir(keep_dir):
            if re.fullmatch(r"part-\d+\.out", name):
                with open(os.path.join(keep_dir, name)) as f:
                    outs.append(f.read())
        carried = [int(m.group(1)) for o in outs for m in
                   [re.search(r"^table: (\d+) solved entries from the solves before$", o,
                              re.M)] if m]
        check("every part ran in a kept process, each with the solved entries before it",
              len(outs) == n and len(carried) == n and all(c > 0 for c in carried)
              and not any("hash file: " in o for o in outs),
              f"{len(outs)} parts, {carried}")
        workers = set(re.findall(r"^\[\d+/\d+\] part-\d+ \S+: .*?\([\d.]+s, (tcp://[^)]+)\)",
                                 keep.stdout, re.M))
        check("two slots, each on its own worker", len(workers) == 2, workers)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(
                os.stat(os.path.join(tables_dir, f)).st_mtime_ns == t
                for f, t in before.items()):
            time.sleep(0.5)
        check("each kept process saved its slot's table when the run ended",
              all(os.stat(os.path.join(tables_dir, f)).st_mtime_ns != t
                  for f, t in before.items()), sorted(before))

        # By default the driver stops once the parts solved decide the root: the parts
        # still running are killed and the others not started, and the proof holds.
        early_dir = os.path.join(tmp, "early")
        early = driver(kharbaga, early_dir)
        check("with the early stop the driver exits 0 with a win",
              early.returncode == 0 and re.search(rf"^root {re.escape(POSITION)}: win",
                                                  early.stdout, re.M), show(early))
        summary = parts_line(early)
        solved = [f for f in os.listdir(early_dir) if re.fullmatch(r"part-\d+\.out", f)]
        check("it stops parts as not needed, and leaves them unsolved",
              summary is not None and summary[0] == n and summary[3] > 0
              and summary[1] == len(solved) == n - summary[3]
              and early.stdout.count(": not needed, it cannot change the root") <= summary[3],
              f"{len(solved)} parts solved, summary {summary}")
        # The parts run in proof-number order: first those through which the fewest parts
        # would decide the root (the combine's count on the frontier alone). White has two
        # moves with a single reply each, and the first such reply wins.
        alone = subprocess.run([kharbaga, "solve", "--combine", "frontier.txt"],
                               capture_output=True, text=True, env=ENV, cwd=early_dir)
        fewest = {line.split()[1]: line.split()[2] for line in alone.stdout.splitlines()
                  if line.startswith("needed: ")}
        firsts = {x for x, k in fewest.items() if k == "1"}
        ran_positions = {re.search(r"^result: (\S+)", open(os.path.join(early_dir, f)).read(),
                                   re.M).group(1) for f in solved}
        check("it runs first the parts that alone would decide the root, and one does",
              len(fewest) == n and len(firsts) == 2 and ran_positions == firsts,
              f"{sorted(fewest.values())}\n{ran_positions}\n{show(early)}")
        check("and leaves no needed or temporary file",
              not [f for f in os.listdir(early_dir) if "tmp" in f or f.startswith("needed-")],
              os.listdir(early_dir))
        verify = subprocess.run([kharbaga, "verify-proof",
                                 os.path.join(early_dir, "proof.txt.gz")],
                                capture_output=True, text=True, env=ENV)
        check("verify-proof accepts its proof", verify.returncode == 0
              and "proof holds:" in early.stdout, show(verify))
        resumed = driver(kharbaga, early_dir)
        check("a second run finds the root decided and runs no part",
              resumed.returncode == 0
              and "the parts solved before decide the root (win): no part runs"
              in resumed.stdout and parts_line(resumed) == (n, 0, len(solved), n - len(solved)),
              show(resumed))
        check("nor submits one that never ran: no part is reported as not needed",
              ": not needed" not in resumed.stdout
              and resumed.stdout.count(": win") + resumed.stdout.count(": loss")
              >= len(solved), show(resumed))

        # A loss needs one refutation of each move: once a part refutes a move, the other
        # replies to it are not needed.
        refuted = driver(kharbaga, os.path.join(tmp, "loss"), position=LOSS)
        summary = parts_line(refuted)
        check("a loss: the driver exits 0 and verifies it",
              refuted.returncode == 0 and f"root {LOSS}: loss" in refuted.stdout
              and "proof holds:" in refuted.stdout, show(refuted))
        check("it solves fewer than half of the parts: one reply refutes a move",
              summary is not None and summary[1] <= summary[0] // 2
              and summary[1] + summary[3] == summary[0], f"summary {summary}")

        # Splitting: at 1 ply and 20,000 nodes a part, every part of the win is unknown;
        # split again (down to 3 levels, at 2 plies: a split is never 1 ply deep unless
        # told) they decide it, and the proof holds.
        split_dir = os.path.join(tmp, "split")
        whole = driver(kharbaga, split_dir, "--nodes-per-part", "20000", plies=1)
        check("at 20,000 nodes a part, the 1-ply parts leave the root unknown",
              whole.returncode == 3 and parts_line(whole) is not None
              and f"root {POSITION}: unknown" in whole.stdout, show(whole))
        # Carried to another directory without proofs (cluster/archive.py): the parts left
        # unknown come back with their limits, so the split below is not preceded there by
        # a solve of every part again.
        archive = os.path.join(tmp, "split.tar.gz")
        saved = archive_cmd("save", split_dir, archive)
        whole_n = parts_line(whole)[0] if parts_line(whole) else -1
        check("archive.py save keeps the unknown parts' .out files",
              saved.returncode == 0 and f": {whole_n} parts left unknown" in saved.stdout,
              show(saved))
        restored_dir = os.path.join(tmp, "restored")
        restored = archive_cmd("restore", archive, restored_dir)
        check("archive.py restore writes them back with the frontier",
              restored.returncode == 0
              and sorted(os.listdir(restored_dir)) == sorted(
                  ["frontier.txt", "rules.txt"] + [f"part-{i}.out" for i in range(whole_n)])
              and all(open(os.path.join(restored_dir, f)).read()
                      == open(os.path.join(split_dir, f)).read()
                      for f in os.listdir(restored_dir)),
              f"{show(restored)}\n{os.listdir(restored_dir)}")
        clash = archive_cmd("restore", archive, restored_dir)
        check("and refuses to overwrite a file (exit 2, saying which)",
              clash.returncode == 2 and "already holds frontier.txt" in clash.stderr,
              show(clash))
        resplit = driver(kharbaga, restored_dir, "--nodes-per-part", "20000",
                         "--split-unknown", "3", plies=1)
        top = parts_line(resplit)
        check("the restored directory splits its unknown parts without solving them again",
              resplit.returncode == 0 and "proof holds:" in resplit.stdout
              and top is not None and top[1] == 0 and top[2] == top[0],
              show(resplit))
        shown = archive_cmd("show", archive)
        check("archive.py show counts the parts by level",
              shown.returncode == 0 and re.fullmatch(
                  rf"level 0: {whole_n} parts left unknown \({whole_n} with limits: time - "
                  r"nodes 20000 hash 64\), 0 solved, 0 split directories\n", shown.stdout),
              show(shown))
        again_archive = os.path.join(tmp, "resplit.tar.gz")
        archive_cmd("save", restored_dir, again_archive)
        with tarfile.open(again_archive) as tar:
            names = tar.getnames()
            outs = {n: commands.result_of(tar.extractfile(n).read().decode())["value"]
                    for n in names if n.endswith(".out")}
            values = {n: tar.extractfile(n).read().decode()
                      for n in names if n.endswith(".value")}
        solved_parts = [f for f in os.listdir(restored_dir) if re.fullmatch(r"part-\d+\.out", f)
                        and os.path.isfile(os.path.join(restored_dir, f[:-4] + ".txt.gz"))]
        check("after the split it keeps the split directories, no solved part's .out, and "
              "each solved part's result as its .value",
              any(re.fullmatch(r"part-\d+\.split", n) for n in names)
              and any(n.startswith("part-") and n.endswith("/frontier.txt") for n in names)
              and set(outs.values()) == {"unknown"} and solved_parts
              and not set(solved_parts) & set(names)
              and all(values.get(f[:-4] + ".value")
                      == open(os.path.join(restored_dir, f)).read() for f in solved_parts),
              f"{names}\n{solved_parts}")
        again_shown = archive_cmd("show", again_archive)
        check("archive.py show counts the solved parts by their values",
              again_shown.returncode == 0 and re.search(
                  rf"^level 0: \d+ parts left unknown .*, {len(solved_parts)} solved "
                  r"\((\d+ (draw|loss|win)(, )?)+; values only\), [1-9]\d* split directories$",
                  again_shown.stdout, re.M), show(again_shown))
        # The values carried are a record: a run on the restored directory solves those
        # parts again (the root's proof is made of their proofs), and a save keeps a value
        # until its part is solved again.
        valued_dir = os.path.join(tmp, "valued")
        archive_cmd("restore", again_archive, valued_dir)
        valued_archive = os.path.join(tmp, "valued.tar.gz")
        archive_cmd("save", valued_dir, valued_archive)
        with tarfile.open(valued_archive) as tar:
            valued_names = sorted(tar.getnames())
        revalued = driver(kharbaga, valued_dir, "--nodes-per-part", "20000",
                          "--split-unknown", "3", plies=1)
        check("restored, the values are kept by a save and stay through a run, which "
              "solves the parts it needs again, to the same win and a proof that holds",
              valued_names == sorted(names) and revalued.returncode == 0
              and re.search(rf"^root {re.escape(POSITION)}: win", revalued.stdout, re.M)
              and "proof holds:" in revalued.stdout
              and all(os.path.isfile(os.path.join(valued_dir, v)) for v in values),
              f"{valued_names}\n{sorted(names)}\n{show(revalued)}")
        # With --values the recorded values count as results until a level's root is
        # decided; then only the parts its proof rests on are solved again (a split part
        # through its split, the same way).
        trusted_dir = os.path.join(tmp, "trusted")
        archive_cmd("restore", again_archive, trusted_dir)
        trusted = driver(kharbaga, trusted_dir, "--nodes-per-part", "20000",
                         "--split-unknown", "3", "--values", plies=1)

        def solved_now(run):
            """The parts a run solved (not taken from a run before)."""
            return len(lines_matching(run.stdout, r"\s*\[\d+/\d+\] part-\d+ \S+: (win|loss|draw|"
                                      r"unknown).* \(\d+\.\d+s, ", whole=False))

        check("with --values the recorded values decide the root at once: its proof rests "
              "on the one part of the winning move, solved again through its split",
              re.search(r"^the root is decided with the recorded values \(win\): its proof "
                        r"rests on 1 of the \d+ parts, 1 of them known by their values only",
                        trusted.stdout, re.M)
              and re.search(r"^  the root is decided with the recorded values \(loss\)",
                            trusted.stdout, re.M), show(trusted))
        check("to the same win with a proof that holds, solving fewer parts than the run "
              "without --values",
              trusted.returncode == 0 and "proof holds:" in trusted.stdout
              and re.search(rf"^root {re.escape(POSITION)}: win", trusted.stdout, re.M)
              and 0 < solved_now(trusted) < solved_now(revalued),
              f"{solved_now(trusted)} parts solved with --values, {solved_now(revalued)} "
              f"without\n{show(trusted)}")
        everything = driver(kharbaga, trusted_dir, "--values", "--every-part", plies=1)
        check("--values with --every-part is refused (exit 2, saying why)",
              everything.returncode == 2 and "--values needs the early stop"
              in everything.stderr, show(everything))
        # (--archive saves after every result; this checks the last save, at the end.)
        kept = os.path.join(tmp, "kept.tar.gz")
        split = driver(kharbaga, split_dir, "--nodes-per-part", "20000", "--split-unknown",
                       "3", "--archive", kept, plies=1)
        fresh = os.path.join(tmp, "fresh.tar.gz")
        archive_cmd("save", split_dir, fresh)
        with tarfile.open(kept) as tar, tarfile.open(fresh) as again:
            kept_names, fresh_names = tar.getnames(), again.getnames()
        kept_shown = archive_cmd("show", kept)
        check("with --archive the driver keeps the archive up to date: at the end it is "
              "what archive.py save makes, with the splits",
              kept_names == fresh_names and re.search(
                  r"^level 0: \d+ parts left unknown .*, [1-9]\d* split directories$",
                  kept_shown.stdout, re.M), f"{kept_names}\n{kept_shown.stdout}\n{show(split)}")
        check("split again, the unknown parts decide the root: a win, verified",
              split.returncode == 0 and re.search(rf"^root {re.escape(POSITION)}: win",
                                                  split.stdout, re.M)
              and "proof holds:" in split.stdout, show(split))
        top = parts_line(split)
        check("the parts left unknown at these limits are split, not solved again",
              top is not None and top[1] == 0 and top[2] == top[0]
              and "unknown (a run before reached these limits" in split.stdout, show(split))
        adopted = [f for f in os.listdir(split_dir) if re.fullmatch(r"part-\d+\.split", f)
                   and os.path.isfile(os.path.join(split_dir, f[:-len(".split")] + ".txt.gz"))]
        check("a split part's proof becomes the part's own",
              adopted and "(split)" in split.stdout and re.search(
                  r"^  \S+ at 2 plies: \d+ frontier positions", split.stdout, re.M),
              f"{os.listdir(split_dir)}\n{show(split)}")
        started = lines_matching(split.stdout, r"part-1 \S+: unknown at its limit, split in .*")
        ended = lines_matching(split.stdout,
                               r"part-0 \S+: (?:win|loss|unknown)( \S+)? \(split\)")
        check("splits run side by side: part-1's starts before part-0's ends",
              started and ended and started[0] < ended[0], show(split))
        check("and once one decides the root, the others are stopped",
              re.search(r"^part-\d+ \S+: not needed, its split stopped$", split.stdout, re.M),
              show(split))
        deepest = max(len(re.match(r" *", line).group()) // 2
                      for line in split.stdout.splitlines())
        check("and no deeper than 3 levels", 1 <= deepest <= 3, f"{deepest} levels")
        verify = subprocess.run([kharbaga, "verify-proof",
                                 os.path.join(split_dir, "proof.txt.gz")],
                                capture_output=True, text=True, env=ENV)
        check("verify-proof accepts the proof made of split parts", verify.returncode == 0,
              show(verify))
        again = driver(kharbaga, split_dir, "--nodes-per-part", "20000", "--split-unknown",
                       "3", plies=1)
        check("a run after it finds the root decided and splits nothing",
              again.returncode == 0 and "no part runs" in again.stdout
              and "unknown at its limit, split" not in again.stdout, show(again))

        # Passes: with rising limits every part runs at the first, then those left unknown
        # and still needed at the next. At 1 ply every part is unknown at 20,000 nodes;
        # at 2,000,000 the first that runs decides the root, and the others stop.
        passes_dir = os.path.join(tmp, "passes")
        passes = driver(kharbaga, passes_dir, "--nodes-per-part", "20000,2000000",
                        "--split-unknown", "3", plies=1)
        top = parts_line(passes)
        check("with rising node limits the parts run in passes and prove the win, unsplit",
              passes.returncode == 0 and re.search(rf"^root {re.escape(POSITION)}: win",
                                                   passes.stdout, re.M)
              and "proof holds:" in passes.stdout
              and re.search(r"^(\d+) parts left unknown at 20000 nodes and still needed: "
                            r"again at 2000000 nodes$", passes.stdout, re.M)
              and "split in" not in passes.stdout, show(passes))
        check("each part ran in the first pass, and in the second ran or was not needed",
              top is not None and top[1] + top[3] == 2 * top[0] and top[1] > top[0]
              and "a run before reached these limits" not in passes.stdout,
              f"summary {top}\n{show(passes)}")
        # With --hash-dir a part left unknown at a pass keeps its own table for the next,
        # which goes on from it; no such file is left once the parts have run their last.
        resume_dir = os.path.join(tmp, "passes-resume")
        resume_tables = os.path.join(tmp, "passes-resume-tables")
        resumed = driver(kharbaga, resume_dir, "--nodes-per-part", "8000,2000000",
                         "--split-unknown", "3", "--hash-dir", resume_tables, plies=1)
        outs = [open(os.path.join(resume_dir, f)).read() for f in os.listdir(resume_dir)
                if re.fullmatch(r"part-\d+\.out", f)]
        check("a part's second pass goes on from its first pass's table",
              resumed.returncode == 0 and "proof holds:" in resumed.stdout
              and any("(this position's earlier solve goes on: " in o for o in outs)
              and re.search(r"^\d+ parts left unknown at 8000 nodes", resumed.stdout, re.M)
              and not any("resume file" in o and "(new)" in o and "2000000" in o
                          for o in outs), show(resumed))
        check("and no part's table is left after the last pass",
              sorted(f for f in os.listdir(resume_tables) if not f.startswith("table-"))
              == [], os.listdir(resume_tables))

        # And the split levels run their parts in passes too, split only after the last.
        nested_dir = os.path.join(tmp, "passes-split")
        nested = driver(kharbaga, nested_dir, "--nodes-per-part", "8000,20000",
                        "--split-unknown", "3", plies=1)
        lines = nested.stdout.splitlines()
        again_top = [k for k, line in enumerate(lines)
                     if re.fullmatch(r"\d+ parts left unknown at 8000 nodes and still "
                                     r"needed: again at 20000 nodes", line)]
        first_split = [k for k, line in enumerate(lines) if "unknown at its limit, split" in line]
        check("with splits, the top level's last pass comes before its first split",
              nested.returncode == 0 and "proof holds:" in nested.stdout and again_top
              and first_split and again_top[0] < first_split[0], show(nested))
        # (A split's part left unknown that alone decides the split's root, while no part
        # waiting does, runs at 20000 nodes ahead of the pass: see `promote_now` below.)
        check("and a split's level runs its own passes",
              re.search(r"^  (\d+ parts left unknown at 8000 nodes and still needed: "
                        r"again at 20000 nodes|part-\d+ \S+: unknown at 8000 nodes, and "
                        r"alone it decides the root: at 20000 nodes now)$", nested.stdout, re.M),
              show(nested))
        # A part split in a run before is split after the last pass even when that pass
        # has no part to run: here the loss's other three parts fall in the first pass.
        presplit_dir = os.path.join(tmp, "passes-presplit")
        os.makedirs(os.path.join(presplit_dir, "part-0.split"))
        presplit = driver(kharbaga, presplit_dir, "--nodes-per-part", "40000,80000",
                          "--split-unknown", "1", position=LOSS, plies=1)
        check("a part split before is split after a last pass with nothing to run",
              presplit.returncode == 0
              and re.search(rf"^root {re.escape(LOSS)}: loss$", presplit.stdout, re.M)
              and re.search(r"^part-0 W:Bb2,a5:WKg1,i5,e7,a9,e9,i9: win \S+ \(split\)$",
                            presplit.stdout, re.M)
              and not re.search(r"^\d+ parts left unknown", presplit.stdout, re.M),
              show(presplit))
        # A part split in a run before that alone can decide the root is split as soon as
        # the last pass begins: at 1 ply every part of the win is unknown at 20,000 nodes,
        # and in the last pass the parts but the first take a second more each and stay
        # unknown (one node). Before session 40, part 0 waited for the pass to end, and the
        # splits of the parts after it decided the root first; until session 43 it waited
        # for the pass's first result or for every part of the pass to have a slot.
        top_parts = subprocess.run(
            [kharbaga, "solve", "--position", POSITION, "--frontier", "1"], capture_output=True,
            text=True, env=ENV).stdout.splitlines()[1:]
        slow = os.path.join(tmp, "slow-last-pass-kharbaga")
        wrapper(slow, f"""#!/bin/sh
case " $* " in
    *" --frontier "*|*" --combine "*|*" verify-proof "*) ;;
    {" | ".join(f'*" --position {x} "*" --nodes 40000 "*' for x in top_parts[1:])})
        sleep 1
        for a; do shift; [ "$a" = 40000 ] && a=1; set -- "$@" "$a"; done ;;
esac
exec '{kharbaga}' "$@"
""")
        early_split_dir = os.path.join(tmp, "passes-presplit-early")
        os.makedirs(os.path.join(early_split_dir, "part-0.split"))
        early_split = driver(slow, early_split_dir, "--nodes-per-part", "20000,40000",
                             "--split-unknown", "1", plies=1)
        split_at = lines_matching(early_split.stdout,
                                  r"part-0 \S+: unknown at its limit, split in .*")
        last_pass = lines_matching(early_split.stdout,
                                   rf"\[\d+/{len(top_parts) - 1}\] part-[1-9]", whole=False)
        second = lines_matching(early_split.stdout, r"\d+ parts left unknown at 20000 nodes "
                                r"and still needed: again at 40000 nodes")
        check("a part split before that can decide the root is split as the last pass begins",
              early_split.returncode == 0 and len(top_parts) > 3 and split_at and second
              and second[0] < split_at[0]
              and all(split_at[0] < k for k in last_pass if k > second[0]),
              f"{split_at} {second} {last_pass}\n{show(early_split)}")
        # Every part is counted: the parts of the last pass that never started once the
        # root was decided are not needed.
        tally = re.search(r"^parts: (\d+) \(.*, (\d+) not needed\): (\d+) win, (\d+) loss, "
                          r"(\d+) draw, (\d+) unknown$", early_split.stdout, re.M)
        check("and the summary accounts for every part",
              tally and int(tally[1]) == len(top_parts)
              and sum(int(g) for g in tally.groups()[1:]) == len(top_parts),
              show(early_split))

        # A part left unknown that alone can decide the root is split at once, before the
        # parts not started yet. At 1 ply every White move here wins; the first part is
        # made unknown (one node) and the others slow (3 s each before solving), so a
        # driver that split only at the end would have the root decided by the second part
        # and never split the first.
        at_one = subprocess.run([kharbaga, "solve", "--position", POSITION, "--frontier", "1"],
                                capture_output=True, text=True, env=ENV).stdout.splitlines()[1:]
        critical = os.path.join(tmp, "critical-kharbaga")
        critical_started = os.path.join(tmp, "critical-started.txt")
        others = " | ".join(f"*\" --position {x} \"*" for x in at_one[1:])
        wrapper(critical, f"""#!/bin/sh
case " $* " in
    *" --frontier "*|*" --combine "*|*" verify-proof "*) exec '{kharbaga}' "$@" ;;
esac
echo "$*" | sed 's/.*--position \\([^ ]*\\).*/\\1/' >> '{critical_started}'
case " $* " in
    *" --position {at_one[0]} "*) exec '{kharbaga}' "$@" --nodes 1 ;;
    {others}) sleep 3 ;;
esac
exec '{kharbaga}' "$@"
""")
        first_split = driver(critical, os.path.join(tmp, "critical"), "--split-unknown", "1",
                             plies=1)
        summary = parts_line(first_split)
        lines = first_split.stdout.splitlines()
        split_at = [k for k, line in enumerate(lines)
                    if line.startswith(f"part-0 {at_one[0]}: unknown at its limit, split")]
        later = [k for k, line in enumerate(lines) if re.match(r"\[\d+/\d+\] part-[2-9]", line)]
        # The split either proves the part or is stopped when a slow part already running
        # (part-1) decides the root first: both end the run as soon as it can end.
        check("a part left unknown that alone decides the root is split before the others run",
              first_split.returncode == 0 and split_at
              and all(split_at[0] < k for k in later)
              and re.search(rf"^part-0 {re.escape(at_one[0])}: (?:loss \(split\)|not needed, "
                            r"its split stopped)$", first_split.stdout, re.M)
              and summary is not None and summary[1] <= 3, show(first_split))
        # The slot part 0 leaves goes to its split's first part, not to part 2, though the
        # top level's next part was waiting for a slot before the split was listed.
        with open(critical_started) as f:
            starts = [line.strip() for line in f]
        check("and the slot it leaves goes to the split's first part",
              len(starts) >= 3 and set(starts[:2]) == set(at_one[:2])
              and starts[2] not in at_one, f"{starts}\n{at_one}")

        # At a restart in passes, a split whose first pass only takes in the results of a
        # run before (here every part of the splits of parts 0 and 1 unknown at 2,000,000
        # nodes) still runs its next pass's parts before the top level's, and splits
        # started side by side take the slots in their order, not in the order they list
        # their frontiers (part 0's is slowed by 8 s): both slots go to part 0's split.
        # Until session 44 the split gave way as its first pass ended, and the top's part
        # 1 took the first slot; a level choosing its next part left a free slot to the
        # levels after it; and the split that listed first took the slots.
        # Every part at 2,000,000 nodes is made unknown (one node); the starts at 3,000,000
        # are logged.
        second_pass = os.path.join(tmp, "second-pass-starts.txt")
        passes = os.path.join(tmp, "passes-kharbaga")
        wrapper(passes, f"""#!/bin/sh
case " $* " in
    *" --position {at_one[0]} --frontier "*) sleep 8 ;;
    *" --frontier "*|*" --combine "*|*" verify-proof "*) ;;
    *" --nodes 2000000 "*) for a; do shift; [ "$a" = 2000000 ] && a=1; set -- "$@" "$a"; done ;;
    *" --nodes 3000000 "*) echo "$*" | sed 's/.*--position \\([^ ]*\\).*/\\1/' >> '{second_pass}' ;;
esac
exec '{kharbaga}' "$@"
""")
        restart_dir = os.path.join(tmp, "restart-passes")
        unknown_top = driver(passes, restart_dir, "--nodes-per-part", "2000000", plies=1)
        unknown_splits = [driver(passes, os.path.join(restart_dir, f"part-{k}.split"),
                                 "--nodes-per-part", "2000000", position=at_one[k])
                          for k in (0, 1)]
        restarted = driver(passes, restart_dir, "--nodes-per-part", "2000000,3000000",
                           "--split-unknown", "1", plies=1)
        with open(second_pass) as f:
            starts = [line.strip() for line in f]
        with open(os.path.join(restart_dir, "part-0.split", "frontier.txt")) as f:
            first_split = {line.strip() for line in f if not line.startswith("#")}
        check("at a restart in passes, a split's next pass takes the slots before the top's",
              unknown_top.returncode == 3 and [u.returncode for u in unknown_splits] == [3, 3]
              and restarted.returncode == 0 and len(starts) >= 2
              and set(starts[:2]) <= first_split
              and re.search(rf"^part-0 {re.escape(at_one[0])}: loss \(split\)$",
                            restarted.stdout, re.M),
              f"{starts}\n{show(unknown_top)}\n{show(restarted)}")

        # A part that a run before left unknown at a later pass's limit is taken in at
        # once at that pass too, not through a slot: here every part but the first is
        # unknown at 3,000,000 nodes from a run before, and the first, which never ran,
        # takes 5 s at that pass and decides the root. Until session 44 the others waited
        # for the one slot behind it at the second pass, and were then not needed.
        limits = os.path.join(tmp, "limits-kharbaga")
        wrapper(limits, f"""#!/bin/sh
case " $* " in
    *" --frontier "*|*" --combine "*|*" verify-proof "*) ;;
    *" --nodes 2000000 "*|*" --nodes 3000000 "*)
        [ -e '{tmp}/limits-real' ] && case " $* " in *" --nodes 3000000 "*) sleep 5 ;; esac
        [ -e '{tmp}/limits-real' ] && case " $* " in *" --nodes 3000000 "*) exec '{kharbaga}' "$@" ;; esac
        for a; do shift; case "$a" in 2000000|3000000) a=1 ;; esac; set -- "$@" "$a"; done ;;
esac
exec '{kharbaga}' "$@"
""")
        standing_dir = os.path.join(tmp, "standing-passes")
        before = driver(limits, standing_dir, "--nodes-per-part", "3000000", plies=1)
        os.remove(os.path.join(standing_dir, "part-0.out"))
        open(os.path.join(tmp, "limits-real"), "w").close()
        again = driver(limits, standing_dir, "--nodes-per-part", "2000000,3000000",
                       "--slots", "1", plies=1)
        second = again.stdout.split("again at 3000000 nodes", 1)[-1]
        check("a part left unknown by a run before at a pass's limit is taken in at once",
              before.returncode == 3 and again.returncode == 0
              and re.search(r"^\[\d+/\d+\] part-1 \S+: unknown \(a run before reached these "
                            r"limits", second, re.M), show(again))

        # In the last pass a part left unknown is split at once when it comes before every
        # part still waiting, by the counts of the level's order (c3-b4's split at ply 21:
        # b2xd4's two last open replies, 2 parts to decide the root through them, against
        # a3xe3's waiting replies at 8), and not when a waiting part comes before it. None
        # of them alone decides the root here.
        class Done:
            def __init__(self, value):
                self.value = value

            def result(self):
                return self.value

        class NoneDecides:
            def light(self, fn, *args):
                return Done(False)

        class Args:
            split_unknown = 3
            every_part = values = False
            rules = tables = nodes_per_part = None
            time_per_part = [300, 2400]

        def split_now(needed, left_unknown, waiting):
            level = Level(NoneDecides(), Args(), kharbaga, "P", "", tmp, (), Slots(2), 2)
            level.positions = [f"x{i}" for i in range(6)]
            level.root, level.split, level.needed = "P", set(), needed
            level.values = {i: "unknown" for i in left_unknown}
            level.feed = Feed(level, 2400, None, 1)
            level.feed.waiting = [(i, f"x{i}") for i in waiting]
            started = []
            level.start_split = started.append
            level.split_first()
            return started

        counts = {"x0": (2, 2), "x1": (2, 2), "x2": (2, 8), "x3": (2, 8), "x4": (2, 8),
                  "x5": (2, 8)}
        check("a part left unknown that comes before every waiting part is split at once",
              split_now(counts, [0, 1], [2, 3, 4]) == [0, 1]
              and split_now(counts, [2], [0, 3]) == []
              and split_now(counts, [3], [4, 5]) == [3]
              and split_now(counts, [0], []) == [], "")

        # Before the last pass, a part left unknown that alone decides the root (a count
        # of 1) while no waiting part does runs at the next pass's limits at once, ahead of
        # them (h8-g7's split at ply 21: two such parts waited behind 37 parts of 300 s);
        # a part of a larger count waits for its pass, and so does every part when none is
        # waiting, or when a waiting part alone decides the root too (at a 1-ply root whose
        # every part alone decides it, the next part may be a quick win).
        def promote_now(needed, left_unknown, waiting, last=False):
            level = Level(NoneDecides(), Args(), kharbaga, "P", "", tmp, (), Slots(2), 2)
            level.positions = [f"x{i}" for i in range(6)]
            level.root, level.needed, level.last = "P", needed, last
            level.values = {i: "unknown" for i in left_unknown}
            level.feed = Feed(level, 300, None, 0)
            level.feed.waiting = [(i, f"x{i}") for i in waiting]
            level.promote_first()
            ahead = sorted(level.feed.ahead.items())
            check_waiting = sorted(level.feed.waiting) == sorted(
                [(i, f"x{i}") for i in waiting] + [(i, f"x{i}") for i, _ in ahead])
            return ahead if check_waiting and all(i not in level.values for i, _ in ahead) \
                else "inconsistent"

        counts = {"x0": (1, 12), "x1": (2, 12), "x2": (7, 12), "x3": (7, 12),
                  "x4": (7, 12), "x5": (12, 12)}
        at_2400 = (2400, None, True)
        alone = {f"x{i}": (1, 6) for i in range(6)}
        check("before the last pass a part left unknown that alone decides the root runs at "
              "the next pass's limits at once, when no waiting part does",
              promote_now(counts, [0, 1], [2, 3]) == [(0, at_2400)]
              and promote_now(counts, [1, 2], [3, 5]) == []
              and promote_now(counts, [0, 4], []) == []
              and promote_now(alone, [0, 1], [2, 3]) == []
              and promote_now({"x1": (1, 12), "x3": (7, 12)}, [0, 1], [3]) == [(1, at_2400)]
              and promote_now(counts, [0, 1], [2, 3], last=True) == [],
              f"{promote_now(counts, [0, 1], [2, 3])}")

        # The slots go to the waiting parts depth first in frontier order, whatever the
        # order they asked in: a split's part (0, 5) before the top's parts 1 and 2.
        slots = Slots(1)
        held = slots.acquire((0,))
        granted = []

        def ask(key):
            slot = slots.acquire(key)
            granted.append(key)
            slots.release(slot)
        askers = []
        for key in [(2,), (0, 5), (1,)]:
            askers.append(threading.Thread(target=ask, args=(key,)))
            askers[-1].start()
            time.sleep(0.2)
        slots.release(held)
        for asker in askers:
            asker.join(10)
        check("a free slot goes to the first waiting part, depth first in frontier order",
              held == 0 and granted == [(0, 5), (1,), (2,)], granted)
        # A key kept in line after its slot (the level chooses its next part) keeps a free
        # slot from larger keys until it asks again with it as held.
        slots = Slots(2)
        kept = slots.acquire((0, 1), keep=True)
        granted = []
        later = threading.Thread(target=ask, args=((1,),))
        later.start()
        time.sleep(0.2)
        waited = list(granted)
        second = slots.acquire((0, 2), keep=True, held=(0, 1))
        slots.release(kept)
        time.sleep(0.2)
        waited_still = list(granted)
        slots.unhold((0, 2))
        later.join(10)
        check("a key kept in line holds the free slots for its level's next part",
              waited == [] and second == 1 and waited_still == [] and granted == [(1,)],
              f"{waited} {second} {waited_still} {granted}")

        # The stop kills a part's command while it runs (here one that would sleep a minute).
        stop = threading.Event()
        threading.Timer(1.0, stop.set).start()
        start = time.monotonic()
        killed = commands.run_command(["sleep", "60"], stop=stop.is_set)
        check("the stop file kills a running command within seconds",
              killed is None and time.monotonic() - start < 10,
              f"{killed}, {time.monotonic() - start:.1f}s")
        finished = commands.run_command(["echo", "done"], stop=lambda: False)
        check("a command that ends before any stop gives its output",
              finished.returncode == 0 and finished.stdout == "done\n", finished)

        # A kept process (--keep-solvers): the stop stops its solve, not the process, whose
        # table then carries the solved entries to the next request; a request it cannot
        # read is refused and it goes on; closed, it saves its table and ends.
        kept_file = os.path.join(tmp, "kept-process.khtt")
        process = solver.KeptProcess([kharbaga, "solve", "--serve", "--hash", "64",
                                      "--hash-file", kept_file])
        stop = threading.Event()
        threading.Timer(2.0, stop.set).start()
        start = time.monotonic()
        stopped = process.solve(["--position", HARD, "--time", "600"], stop=stop.is_set)
        check("a kept process's solve stops within seconds, and the process stays",
              stopped is None and time.monotonic() - start < 15 and process.alive(),
              f"{stopped}, {time.monotonic() - start:.1f}s")
        refused = process.solve(["--position", "garbage"])
        check("a request it cannot read is refused (status 2, saying why)",
              refused.returncode == 2 and refused.stderr.startswith("error: ")
              and "garbage" in refused.stderr and process.alive(), refused)
        answered = process.solve(["--position", POSITION, "--nodes", "2000000"])
        carried = re.search(r"^table: (\d+) solved entries from the solves before$",
                            answered.stdout, re.M)
        check("the next request is answered, with the stopped solve's solved entries",
              answered.returncode == 0 and commands.result_of(answered.stdout)
              and commands.result_of(answered.stdout)["value"] == "win"
              and carried and int(carried.group(1)) > 1000, answered)
        again = process.solve(["--position", POSITION, "--nodes", "2000000"])
        check("the same position again is answered from the table at once",
              again.returncode == 0 and commands.result_of(again.stdout)["value"] == "win"
              and re.search(r"^0 nodes in ", again.stdout, re.M), again)
        process.close()
        process.proc.wait(60)
        check("closed, the process ends and saves its table",
              process.proc.returncode == 0 and os.path.getsize(kept_file) > 40,
              f"status {process.proc.returncode}")

        # --scheduler: a cluster of its own, whose scheduler and workers run in another
        # directory and cannot import the driver's modules: the tasks must carry them.
        with socket.socket() as free:
            free.bind(("127.0.0.1", 0))
            port = free.getsockname()[1]
        address = f"tcp://127.0.0.1:{port}"
        alone = dict(ENV, PYTHONPATH="", DASK_DISTRIBUTED__SCHEDULER__WORKER_SATURATION="1.0")
        cluster = [subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
             "--port", str(port), "--no-dashboard"], cwd=tmp, env=alone,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
        try:
            for _ in range(2):
                cluster.append(subprocess.Popen(
                    [sys.executable, "-m", "distributed.cli.dask_worker", address,
                     "--nthreads", "2", "--no-dashboard"], cwd=tmp, env=alone,
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            with Client(address, timeout=60) as client:
                client.wait_for_workers(2, timeout=60)
            remote = driver(kharbaga, os.path.join(tmp, "remote"), "--scheduler", address,
                            "--slots", "2", "--nodes-per-part", "20000", "--split-unknown",
                            "2", plies=1)
        finally:
            for process in cluster:
                process.terminate()
            for process in cluster:
                process.wait(30)
        check("on a cluster of its own (--scheduler) the driver proves the win, with splits",
              remote.returncode == 0
              and re.search(rf"^root {re.escape(POSITION)}: win", remote.stdout, re.M)
              and "proof holds:" in remote.stdout and "(split)" in remote.stdout
              and "2 parts at a time" in remote.stdout, show(remote))

        # Tables in the default directory and no --tables: the parts and the combine use
        # them, and so must the driver's verify-proof, which takes none unless told.
        data = os.path.join(tmp, "data")
        default = os.path.join(data, "kharbaga", "tables", "standard")
        built = subprocess.run([kharbaga, "tablebase", "generate", "--pieces", "3", "--dir",
                                default], capture_output=True, text=True, env=ENV)
        check("the 3-piece tables build", built.returncode == 0, show(built))
        with_tables = driver(kharbaga, os.path.join(tmp, "tables"),
                             env=dict(os.environ, XDG_DATA_HOME=data))
        check("with the default tables the driver exits 0 with a win",
              with_tables.returncode == 0 and re.search(
                  rf"^root {re.escape(POSITION)}: win", with_tables.stdout, re.M),
              show(with_tables))
        check("the combine names the default tables",
              f"combine: tables: {default} (up to 3 pieces)" in with_tables.stdout,
              show(with_tables))
        check("and the driver verified the proof with them",
              "proof holds:" in with_tables.stdout, show(with_tables))
        no_tables = subprocess.run(
            [kharbaga, "verify-proof", os.path.join(tmp, "tables", "proof.txt.gz")],
            capture_output=True, text=True, env=ENV)
        check("that proof has table leaves: without the tables verify-proof rejects it",
              no_tables.returncode == 1, show(no_tables))

        # Parts left unknown without tables (the archive of the split above) are solved
        # again once there are tables, though their limits were reached.
        grown_dir = os.path.join(tmp, "tables-grown")
        archive_cmd("restore", archive, grown_dir)
        grown = driver(kharbaga, grown_dir, "--nodes-per-part", "20000", plies=1,
                       env=dict(os.environ, XDG_DATA_HOME=data))
        top = parts_line(grown)
        outs = [open(os.path.join(grown_dir, f)).read() for f in os.listdir(grown_dir)
                if f.endswith(".out")]
        check("parts left unknown without tables are solved again with them",
              grown.returncode in (0, 3) and top is not None and top[1] >= 1 and top[2] == 0
              and "a run before reached these limits" not in grown.stdout
              and any("tables of up to 3 pieces" in o for o in outs), show(grown))
        grown_archive = os.path.join(tmp, "tables-grown.tar.gz")
        archive_cmd("save", grown_dir, grown_archive)
        grown_shown = archive_cmd("show", grown_archive)
        check("archive.py show names the tables the parts left unknown had",
              grown_shown.returncode == 0
              and re.search(r"\d+ with limits: time - nodes 20000 hash 64, tables of up to 3 "
                            r"pieces", grown_shown.stdout), show(grown_shown))
        out3 = next((o for o in outs if commands.tables_of(o) == 3), "")
        check("spent: an unknown part's .out counts with tables no larger than its own",
              workdir.spent(out3, None, 20000, 64, lambda: 3)
              and workdir.spent(out3, None, 20000, 64, lambda: 2)
              and not workdir.spent(out3, None, 20000, 64, lambda: 4)
              and not workdir.spent(out3, None, 60000, 64, lambda: 3), out3[:300])

        # A set still being built counts as its complete part: with one of the 12 slices of
        # 3 pieces missing, the binary says so and the driver reads 2.
        partial = os.path.join(tmp, "tables-partial")
        shutil.copytree(default, partial)
        os.remove(os.path.join(partial, "2m0k-1m0k.kbt"))
        one = subprocess.run(commands.solve_command(kharbaga, "standard", partial, POSITION)
                             + ["--nodes", "1", "--hash", "1"],
                             capture_output=True, text=True, env=ENV)
        check("a partial set: the solve names its complete pieces and the slices beyond",
              one.returncode in (0, 3)
              and ", tables of up to 2 pieces and 11 slices of 3" in one.stdout
              and commands.tables_of(one.stdout) == 2
              and commands.tables_now(kharbaga, "standard", partial, POSITION) == 2
              and commands.tables_now(kharbaga, "standard", default, POSITION) == 3,
              show(one))

        # Parts start in the frontier's order, even when a worker is busy with a slow one
        # (here the first part sleeps 4 s before it solves): a free worker takes the next.
        started = os.path.join(tmp, "started.txt")
        slow = os.path.join(tmp, "slow-kharbaga")
        first = subprocess.run([kharbaga, "solve", "--position", POSITION, "--frontier", "1"],
                               capture_output=True, text=True, env=ENV).stdout.splitlines()[1]
        wrapper(slow, f"""#!/bin/sh
case " $* " in
    *" --frontier "*|*" --combine "*|*" verify-proof "*) exec '{kharbaga}' "$@" ;;
esac
echo "$*" | sed 's/.*--position \\([^ ]*\\).*/\\1/' >> '{started}'
case " $* " in
    *" --position {first} "*) sleep 4 ;;
esac
exec '{kharbaga}' "$@"
""")
        ordered = driver(slow, os.path.join(tmp, "ordered"), "--every-part", plies=1)
        with open(os.path.join(tmp, "ordered", "frontier.txt")) as f:
            frontier = f.read().splitlines()[1:]
        with open(started) as f:
            order = [frontier.index(line.strip()) for line in f]
        check("the parts start in the frontier's order while a slow one runs",
              ordered.returncode == 0 and len(frontier) >= 4
              and sorted(order) == list(range(len(frontier)))
              and order[2:] == list(range(2, len(frontier))),
              f"start order {order}\n{show(ordered)}")

        # A part whose command fails: exit status 1 with that command's standard error.
        fake = os.path.join(tmp, "fake-kharbaga")
        wrapper(fake, f"""#!/bin/sh
case " $* " in
    *" --frontier "*|*" --combine "*) exec '{kharbaga}' "$@" ;;
esac
echo "fake-kharbaga: no solving today" >&2
exit 101
""")
        broken = driver(fake, os.path.join(tmp, "broken"))
        check("a failing part makes the driver exit 1 with the command's stderr",
              broken.returncode == 1 and "no solving today" in broken.stderr
              and "status 101" in broken.stderr, show(broken))

        # A split whose frontier is a single position (a forced line: Black's only move is
        # the capture i5xg7, White's only reply h8xf6: the same problem two plies down) is
        # listed one ply deeper; the top level keeps its plies; a directory keeps the
        # frontier it has.
        forced = "B:Ba1,e1,g1,i1,b2,h2,a3,c3,g3,i3,h4,i5:Wa5,h6,a7,c7,b8,d8,h8,a9,c9,e9,i9"
        os.environ["XDG_DATA_HOME"] = ENV["XDG_DATA_HOME"]
        listed = {}
        for name, plies, deepen in [("top", 2, False), ("split", 2, True), ("again", 2, True),
                                    ("kept", 2, True)]:
            work = os.path.join(tmp, "forced-" + ("split" if name == "again" else name))
            os.makedirs(work, exist_ok=True)
            if name == "kept":
                with open(os.path.join(work, "frontier.txt"), "w") as f:
                    f.write(listed["top"][1])
            f = make_frontier(kharbaga, "standard", None, forced, "", plies, work, deepen)
            with open(os.path.join(work, "frontier.txt")) as file:
                listed[name] = (f.get("plies"), file.read(), len(f.get("positions", [])))
        check("a split of a single position goes one ply deeper, the top level does not",
              listed["top"][0::2] == (2, 1) and listed["split"][0] == 3
              and listed["split"][2] > 1, listed)
        check("and a split started again, or one listed before, keeps its frontier",
              listed["again"] == listed["split"] and listed["kept"] == listed["top"], listed)

    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
