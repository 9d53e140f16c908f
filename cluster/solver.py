"""How a part's solve runs (cluster/part.py): a `kharbaga solve` command of its own, or,
with the driver's --keep-solvers, a request to its slot's `kharbaga solve --serve` process,
which the worker keeps from one part to the next, its table with it: a part then starts
with every solved entry of the slot's parts before it (not the most-worked eighth that a
`--hash-file` carries), and no table file is read or written a part."""

import collections
import queue
import subprocess
import threading

from distributed import get_worker

from commands import run_command, solve_base


class Solver:
    """Runs the solves of one part: `run(job, stop)` with the job's arguments
    (`--position X --time S ...`), as `run_command` would run `kharbaga solve` with them and
    the solver's own (rules, tables, --hash, --hash-file `table`). With `slot` (not None),
    through the slot's kept process."""

    def __init__(self, kharbaga, rules, tables, hash_mib, table, slot=None):
        self.base = solve_base(kharbaga, rules, tables)
        if hash_mib:
            self.base += ["--hash", str(hash_mib)]
        if table:
            self.base += ["--hash-file", table]
        self.slot = slot

    def run(self, job, stop=None):
        """The solve's CompletedProcess (status 0 and its output when it answered), or None
        when stop() came true first (the solve stopped; a kept process stays)."""
        if self.slot is None:
            return run_command(self.base + job, stop=stop)
        return kept_process(self.slot, self.base + ["--serve"]).solve(job, stop)


def kept_process(slot, cmd):
    """The worker's process for `slot` that runs `cmd`, started when there is none or the
    one there runs another command or has ended. (Kept on the worker object: the driver's
    modules reach the workers by value, so their globals do not outlive a task.)"""
    worker = get_worker()
    with worker.__dict__.setdefault("kharbaga_solvers_lock", threading.Lock()):
        kept = worker.__dict__.setdefault("kharbaga_solvers", {})
        process = kept.get(slot)
        if process is None or process.cmd != cmd or not process.alive():
            if process is not None:
                process.close()
            process = kept[slot] = KeptProcess(cmd)
        return process


class KeptProcess:
    """A `kharbaga solve --serve` process (see crates/kharbaga-cli/src/solve/serve.rs):
    requests on its input, one a line with tabs between the arguments; each answer is a
    solve's output and a line `end`; a line `stop` stops the solve running."""

    def __init__(self, cmd):
        self.cmd = cmd
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines = queue.Queue()
        self.errors = collections.deque(maxlen=50)  # the last lines of standard error
        self.error_reader = threading.Thread(target=self.read_errors, daemon=True)
        threading.Thread(target=self.read, daemon=True).start()
        self.error_reader.start()

    def read(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def read_errors(self):
        for line in self.proc.stderr:
            self.errors.append(line)

    def alive(self):
        return self.proc.poll() is None

    def close(self):
        """Ends the process: its input closed, it saves its table and exits."""
        try:
            self.proc.stdin.close()
        except OSError:
            pass

    def send(self, line):
        """Writes `line` to the process's input (nothing when it has ended: its status comes
        with the end of its output)."""
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except OSError:
            pass

    def solve(self, job, stop=None):
        """Sends the request `job` and waits for its answer, asking stop() twice a second:
        once it is true, the solve is stopped and the answer is None. A request refused
        (`error:`) has status 2 with the error as its standard error; a process that ends
        first, its own status and standard error."""
        cmd = self.cmd + job
        self.send("\t".join(job))
        answer, stopped = [], False
        while True:
            try:
                line = self.lines.get(timeout=0.5)
            except queue.Empty:
                if stop and not stopped and stop():
                    stopped = True
                    self.send("stop")
                continue
            if line is None:
                self.proc.wait()
                self.error_reader.join(timeout=10)
                status = self.proc.returncode or 1
                return subprocess.CompletedProcess(cmd, status, "".join(answer),
                                                   "".join(self.errors))
            if line == "end\n":
                break
            answer.append(line)
        if stopped:
            return None
        text = "".join(answer)
        refused = [line for line in answer if line.startswith("error: ")]
        if refused:
            return subprocess.CompletedProcess(cmd, 2, text, "".join(refused))
        return subprocess.CompletedProcess(cmd, 0, text, "")
