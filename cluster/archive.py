#!/usr/bin/env python3
"""Carries a solve driver's work directory (cluster/solve.py) from one machine to another,
without its proofs: the record of what its runs found that would be costly to find again.

    python3 cluster/archive.py save WORKDIR FILE.tar.gz
    python3 cluster/archive.py restore FILE.tar.gz WORKDIR
    python3 cluster/archive.py show FILE.tar.gz

`save` keeps, in WORKDIR and in every split directory below it (part-I.split), the frontier
(frontier.txt, rules.txt), the directories of the splits, and the .out of every part left
unknown, which records the limits and tables it reached: a run on the restored directory
with those limits and tables does not solve it again, and with --split-unknown splits it
at once. A part solved (a win, a loss or a draw) is kept without its proofs, which are
large: its .out goes in as part-I.value, the record of its value, which a save keeps
until the part is solved again. The driver reads it only with --values (it then takes the
value as the part's result until the root is decided, and solves again only the parts the
root's proof rests on); without, the run on the restored directory solves the part again,
since the root's proof is made of the parts' proofs. So
the archive is small (a few kilobytes a hundred parts), the hours a part spent before it
was left unknown are not spent again, and what was decided is not forgotten.

`restore` unpacks it into WORKDIR (created if missing) and refuses to overwrite a file
there. `show` counts what an archive holds, by level. Exit status 2 for bad input."""

import io
import os
import re
import sys
import tarfile
import threading

from commands import result_of, tables_of

FRONTIER_FILES = ("frontier.txt", "rules.txt")
PART_OUT = re.compile(r"part-\d+\.out")
PART_VALUE = re.compile(r"part-\d+\.value")
SPLIT_DIR = re.compile(r"part-\d+\.split")


class BadInput(Exception):
    """A missing work directory, a bad archive, a file that would be overwritten."""


def kept(workdir):
    """The files and directories of WORKDIR that `save` keeps, relative to it, in the
    order of a walk (a directory before what it holds), each with its name in the
    archive: a solved part's .out goes in as its .value, and a .value is kept while its
    part has no solved .out."""
    found = []

    def walk(rel):
        here = os.path.join(workdir, rel)
        names = sorted(os.listdir(here))
        solved = set()
        for name in names:
            path = os.path.join(here, name)
            sub = os.path.join(rel, name) if rel else name
            if os.path.isdir(path):
                if SPLIT_DIR.fullmatch(name):
                    found.append((sub, sub))
                    walk(sub)
            elif name in FRONTIER_FILES:
                found.append((sub, sub))
            elif PART_OUT.fullmatch(name):
                with open(path) as f:
                    result = result_of(f.read())
                if result and result["value"] == "unknown":
                    found.append((sub, sub))
                elif result:
                    solved.add(name[:-len(".out")])
                    found.append((sub, sub[:-len(".out")] + ".value"))
        for name in names:
            if PART_VALUE.fullmatch(name) and name[:-len(".value")] not in solved:
                sub = os.path.join(rel, name) if rel else name
                found.append((sub, sub))

    walk("")
    return found


def save(workdir, archive):
    """Writes the archive of WORKDIR; returns the number of parts left unknown (their .out
    files) and of parts solved (their values) it keeps."""
    if not os.path.isfile(os.path.join(workdir, "frontier.txt")):
        raise BadInput(f"{workdir} is not a solve driver's work directory (no frontier.txt)")
    names = kept(workdir)
    tmp = f"{archive}.tmp"
    with tarfile.open(tmp, "w:gz") as tar:
        for name, arcname in names:
            tar.add(os.path.join(workdir, name), arcname=arcname, recursive=False)
    os.replace(tmp, archive)
    def count(pattern):
        return sum(1 for _, name in names if pattern.fullmatch(os.path.basename(name)))

    return count(PART_OUT), count(PART_VALUE)


SAVING = threading.Lock()


def keep(workdir, archive):
    """The solve driver's --archive: saves WORKDIR's archive as it is now (one save at a
    time, from any of the driver's threads), when archive is set; a failure is reported and
    the run goes on."""
    if not archive:
        return
    with SAVING:
        try:
            save(workdir, archive)
        except (OSError, BadInput) as e:
            print(f"solve.py: could not save the archive {archive}: {e}", file=sys.stderr,
                  flush=True)


def members(archive):
    """The archive's members, each checked to be a file or directory the driver writes,
    under the work directory (no absolute path, no `..`, no link)."""
    try:
        with tarfile.open(archive, "r:gz") as tar:
            items = tar.getmembers()
    except (OSError, tarfile.TarError) as e:
        raise BadInput(f"{archive}: not an archive of a work directory ({e})")
    for m in items:
        parts = m.name.split("/")
        ok = (all(SPLIT_DIR.fullmatch(p) for p in parts[:-1])
              and (m.isdir() and SPLIT_DIR.fullmatch(parts[-1])
                   or m.isfile() and (parts[-1] in FRONTIER_FILES
                                      or PART_OUT.fullmatch(parts[-1])
                                      or PART_VALUE.fullmatch(parts[-1]))))
        if not ok:
            raise BadInput(f"{archive}: {m.name!r} is not a file of a work directory")
    return items


def restore(archive, workdir):
    """Unpacks the archive into WORKDIR; returns the number of files written."""
    items = members(archive)
    clashes = [m.name for m in items
               if m.isfile() and os.path.exists(os.path.join(workdir, m.name))]
    if clashes:
        raise BadInput(f"{workdir} already holds {clashes[0]}"
                       + (f" and {len(clashes) - 1} more files" if len(clashes) > 1 else "")
                       + " of the archive: restore into an empty directory")
    os.makedirs(workdir, exist_ok=True)
    with tarfile.open(archive, "r:gz") as tar:
        for m in items:
            target = os.path.join(workdir, m.name)
            if m.isdir():
                os.makedirs(target, exist_ok=True)
            else:
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with open(target, "wb") as f:
                    f.write(tar.extractfile(m).read())
    return sum(1 for m in items if m.isfile())


def show(archive):
    """Per level (the split depth), the splits and the parts left unknown the archive
    holds, and the limits and tables they reached."""
    items = members(archive)
    lines = []
    with tarfile.open(archive, "r:gz") as tar:
        by_depth = {}
        for m in items:
            depth = m.name.count("/")
            level = by_depth.setdefault(depth, {"splits": 0, "unknown": 0, "limits": {},
                                                "solved": {}})
            if m.isdir():
                level["splits"] += 1
            elif PART_VALUE.fullmatch(os.path.basename(m.name)):
                result = result_of(io.TextIOWrapper(tar.extractfile(m)).read())
                value = result["value"] if result else "no result"
                level["solved"][value] = level["solved"].get(value, 0) + 1
            elif PART_OUT.fullmatch(os.path.basename(m.name)):
                level["unknown"] += 1
                text = io.TextIOWrapper(tar.extractfile(m)).read()
                first = text.splitlines()[0] if text else ""
                pieces = tables_of(text)
                if pieces:
                    first += f", tables of up to {pieces} pieces"
                level["limits"][first] = level["limits"].get(first, 0) + 1
        for depth in sorted(by_depth):
            level = by_depth[depth]
            limits = "; ".join(f"{count} with {line.lstrip('# ')}"
                               for line, count in sorted(level["limits"].items()))
            solved = ", ".join(f"{count} {value}" for value, count
                               in sorted(level["solved"].items()))
            lines.append(f"level {depth}: {level['unknown']} parts left unknown"
                         + (f" ({limits})" if limits else "")
                         + f", {sum(level['solved'].values())} solved"
                         + (f" ({solved}; values only)" if solved else "")
                         + f", {level['splits']} split directories")
    return "\n".join(lines)


USAGE = __doc__.split("\n\n")[1]


def main(argv):
    try:
        if len(argv) == 3 and argv[0] == "save":
            unknown, solved = save(os.path.abspath(argv[1]), argv[2])
            print(f"{argv[2]}: {unknown} parts left unknown and {solved} solved (their "
                  f"values), with the frontiers and splits of {argv[1]}")
        elif len(argv) == 3 and argv[0] == "restore":
            count = restore(argv[1], os.path.abspath(argv[2]))
            print(f"{argv[2]}: {count} files restored from {argv[1]}")
        elif len(argv) == 2 and argv[0] == "show":
            print(show(argv[1]))
        else:
            print(f"usage:\n{USAGE}", file=sys.stderr)
            return 2
    except (BadInput, FileNotFoundError, NotADirectoryError) as e:
        print(f"archive.py: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
