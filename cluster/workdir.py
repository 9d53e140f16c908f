"""The files of the solve driver's work directory (cluster/solve.py) and what they say: a
part's proof files, a file written atomically, the needed file of a run (the parts that can
still change the root's value), and a part's .out from a run before (its result, and the
limits and tables it was solved with)."""

import os
import uuid

from commands import result_of, tables_of


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


def needed_path(workdir, run_id):
    """The file of this run's parts still needed: the frontier positions, one a line, that
    can still change the root's value (none once it is decided)."""
    return os.path.join(workdir, f"needed-{run_id}")


# The needed file's text when no part is needed (the root is decided, or the split stopped).
NONE_NEEDED = "# none: the root is decided\n"


def read_needed(path):
    """The set of positions in a needed file, or None when there is none yet."""
    try:
        with open(path) as f:
            return {line.strip() for line in f if line.strip() and not line.startswith("#")}
    except FileNotFoundError:
        return None


LIMITS = "# limits:"


def limits_line(seconds, nodes, hash_mib):
    """The line the driver puts first in a part's .out: the limits it was solved with
    (`-` for none; a hash of `-` is the binary's default)."""
    return f"{LIMITS} time {seconds or '-'} nodes {nodes or '-'} hash {hash_mib or '-'}\n"


def spent(text, seconds, nodes, hash_mib, tables=None):
    """Whether a part's .out (text) that ended unknown was run with limits at least these
    (time, nodes, hash), so that running it again would end the same way. With tables (a
    function giving the most pieces of the tables a solve has now), also with tables at
    least as large: a part left unknown before the 6-piece tables were built is tried
    again with them."""
    for line in text.splitlines():
        fields = line[len(LIMITS):].split() if line.startswith(LIMITS) else []
        if fields[0::2] == ["time", "nodes", "hash"]:
            before = [None if f == "-" else int(f) for f in fields[1::2]]
            now = [seconds, nodes, hash_mib]
            # time and nodes: none is no limit, the most; hash: none is the default.
            return (all(b is None or (n is not None and b >= n)
                        for b, n in zip(before[:2], now[:2]))
                    and (before[2] == now[2]
                         or None not in (before[2], now[2]) and before[2] >= now[2])
                    and (tables is None or tables_of(text) >= tables()))
    return False


def earlier_result(workdir, i, limits=None, tables=None):
    """The result in part i's .out from a run before, or None. With limits (time, nodes,
    hash), an unknown result counts only when it was reached with limits at least those
    and with tables at least as large (`spent`, tables as there): a run with larger limits
    or tables solves it again."""
    try:
        with open(os.path.join(workdir, f"part-{i}.out")) as f:
            text = f.read()
    except FileNotFoundError:
        return None
    result = result_of(text)
    if result and result["value"] == "unknown" and limits and not spent(text, *limits, tables):
        return None
    return result


def finished(workdir, i, position, done):
    """Whether done (part i's earlier result) solves it: a value, for this position, with
    its proof files."""
    return bool(done and done["value"] != "unknown" and done["position"] == position
                and all(os.path.exists(os.path.join(workdir, p))
                        for p in part_files(workdir, i, done["value"])))


def stop_every_part(directory):
    """Makes every part running or waiting in DIRECTORY and its split directories not
    needed: each needed file there says that none is (so a part's solve is killed, and a
    part not started does not start)."""
    for top, _, names in os.walk(directory):
        for name in names:
            if name.startswith("needed-") and ".tmp-" not in name:
                write_atomically(os.path.join(top, name), NONE_NEEDED)
