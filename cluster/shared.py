"""What the Dask drivers (tablebase.py, solve.py) share: finding the kharbaga binary and
checking that a directory is shared by every worker."""

import os
import shutil
import uuid

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def default_kharbaga():
    """target/release/kharbaga of this repository when built, else kharbaga on PATH."""
    local = os.path.join(REPO, "target", "release", "kharbaga")
    return local if os.path.exists(local) else (shutil.which("kharbaga") or "kharbaga")


def shared_dir_problem(client, directory):
    """None when a file written by one worker in DIRECTORY is seen by every worker, else
    what is wrong."""
    probe = os.path.join(directory, f".shared-check-{uuid.uuid4().hex}")

    def write():
        os.makedirs(directory, exist_ok=True)
        with open(probe, "w"):
            pass

    def remove():
        try:
            os.remove(probe)
        except FileNotFoundError:  # removed by another worker
            pass

    try:
        client.submit(write, pure=False).result()
    except OSError as e:
        return f"cannot write in {directory}: {e}"
    try:
        seen = client.run(os.path.exists, probe)
    finally:
        client.run(remove)
    missing = sorted(w for w, ok in seen.items() if not ok)
    if missing:
        return f"{directory} is not shared by every worker (not seen by {', '.join(missing)})"
    return None
