"""The proofs of the solve driver (cluster/solve.py): the task that combines the parts into
the root's proof, the task that verifies it, and a split part's proof made part i's own."""

import os
import re
import shutil

from commands import failure, result_of, run_command, solve_command
from workdir import part_files, write_atomically


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
        raise RuntimeError("`kharbaga solve --combine` printed no result line:\n"
                           + out.stdout[-2000:])
    proofs = [os.path.join(workdir, name) for name in ROOT_PROOFS
              if os.path.exists(os.path.join(workdir, name))]
    return dict(result, output=out.stdout, proofs=proofs, tables=tables_of(out.stdout))


def tables_of(text):
    """The directory of the `tables: DIR (up to N pieces...)` line of a combine's output (the
    tables it used, the binary's default ones when --tables was not given), or None."""
    for line in text.splitlines():
        m = re.match(r"^tables: (.*) \((?:up to \d+ pieces|\d+ slices? of \d).*\)$", line)
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


def adopt(workdir, i, c, sub):
    """Makes a split part's combined result part i's own: its proofs copied from the split's
    directory to part i's names, then its output as part-i.out (so a run after it finds
    part i done)."""
    for final in part_files(workdir, i, c["value"]):
        shutil.copyfile(os.path.join(sub, final.replace(f"part-{i}.", "proof.", 1)),
                        os.path.join(workdir, final))
    write_atomically(os.path.join(workdir, f"part-{i}.out"), c["output"])
