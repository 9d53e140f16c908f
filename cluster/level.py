"""A level of the solve driver's split tree (cluster/solve.py): a position's frontier, its
parts run in passes (cluster/feed.py submits them), the parts a limit left unknown split
again one level down, each in its own directory, and the combine of the parts' results."""

import math
import os
import queue
import sys
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor

import archive
from commands import VALUES
from feed import Feed
from frontier import decides, make_frontier, prune, rests_on
from part import drop_resume_files, standing_results
from proof import adopt, combine, verify
from workdir import stop_every_part


class BadInput(Exception):
    """An error in what the user asked for (exit status 2)."""


def counts(values):
    return ", ".join(f"{values.count(v)} {v}" for v in VALUES)


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


class Level:
    """Solves `position` (after `moves`) in `workdir`: its frontier, its parts, each part
    that a limit left unknown split again in its own directory (to --split-unknown levels),
    and the combine, verified at the top (`path` empty: else the places, see `place`, of
    the parts that lead here from the top: its parts' slots are asked for with it). Its
    parts run in `slots`, shared by every level; `tasks` submits the Dask tasks.

    `cancelled()` turns true when the level above no longer needs this split (its root was
    decided meanwhile): from then on no part of it is needed, so none starts, and the
    combine reports it unknown. `queued()` is called once its first part waits for a slot,
    or it has none to run (the level above waits for that before it takes a slot).

    With --values the parts' values recorded by runs before (part-I.value, kept by
    cluster/archive.py without their proofs) count as their results until the root is
    decided; the level is then solved again with `prove`, the frontier positions its proof
    rests on, as the only parts needed (see `prove_valued`)."""

    def __init__(self, tasks, args, kharbaga, position, moves, workdir, path, slots,
                 workers, cancelled=lambda: False, queued=lambda: None, prove=None):
        self.tasks = tasks
        self.args = args
        self.kharbaga = kharbaga
        self.position = position
        self.moves = moves
        self.workdir = workdir
        self.path = path
        self.depth = len(path)
        self.slots = slots
        self.workers = workers
        self.cancelled = cancelled
        self.queued = queued
        self.run_id = uuid.uuid4().hex[:8]
        # Whether the recorded values count as results (--values, before the root is
        # decided), and the parts to prove once it is (None: any part).
        self.trust = args.values and prove is None
        self.prove = prove
        # The parts' recorded values (part -> value), and those taken as results.
        self.archived, self.valued = {}, {}
        self.early = None if args.every_part else self.run_id
        # The root's value (None while unknown) and the parts that can still change it,
        # each with its counts (see `still_needed`).
        self.value, self.needed = None, None
        self.values = {}  # part -> its value (taken in)
        self.ran = 0
        self.already = set()  # the parts whose result is from a run before
        self.part_seconds = 0.0
        self.splits = set()  # the parts split in this run
        # The parts run ahead of their pass (see `promote_first`): part -> the pass whose
        # limits it ran at.
        self.promoted = {}
        # The splits running, each in a thread of its own: part -> (thread, its stop event).
        self.splitting = {}
        # The splits started: part -> an event set once the split's first part waits for a
        # slot (or it has none to run).
        self.listed = {}
        # The splits whose place is held in the slots' line (see `start_split`): part -> key.
        self.holding = {}
        self.stopped = 0  # the parts not needed
        self.reported = 0
        # The pass: whether it is the last, the parts that ran before this run (they report
        # their results in the first pass), the parts it runs, and what happens as it does
        # (see Feed).
        self.last = True
        self.ran_before = set()
        self.ran_earlier = set()  # the parts that ran before this run
        self.todo = []
        self.finished = queue.Queue()
        self.feed = None  # the pass's

    def say(self, text):
        print("  " * self.depth + text, flush=True)

    def solve(self):
        """Returns the exit status and the combine's result (None when a command
        failed)."""
        args = self.args
        plies = args.plies if self.depth == 0 else split_plies(args)
        f = self.tasks.light(make_frontier, self.kharbaga, args.rules, args.tables,
                             self.position, self.moves, plies, self.workdir,
                             self.depth > 0).result()
        if f["status"] == 2:
            raise BadInput(f["error"])
        if f["status"] != 0:
            print(f"FAILED: {f['error']}", file=sys.stderr, flush=True)
            return 1, None
        self.root, plies, self.positions = f["root"], f["plies"], f["positions"]
        self.n = len(self.positions)
        self.archived = f["valued"]
        self.valued = dict(self.archived) if self.trust else {}
        self.values.update(self.valued)
        if self.depth == 0 and args.archive:
            if not os.path.isfile(os.path.join(self.workdir, "frontier.txt")):
                raise BadInput(f"--archive: {self.workdir} is not visible on this machine "
                               "(the driver saves the archive itself)")
            archive.keep(args.workdir, args.archive)
        self.say(f"{self.root} at {plies} plies: {self.n} frontier positions "
                 f"({os.path.join(self.workdir, 'frontier.txt')}); {self.workers} parts at "
                 "a time")
        if self.valued:
            self.say(f"{len(self.valued)} parts known by their values from runs before "
                     f"(part-I.value), taken as results until the root is decided: "
                     f"{counts(list(self.valued.values()))}")
        if self.early:
            try:
                self.value, self.needed = self.still_needed()
            except Exception as e:
                print(f"FAILED: {e}", file=sys.stderr, flush=True)
                return 1, None
            if self.value:
                before = ("the parts solved before and the recorded values" if self.valued
                          else "the parts solved before")
                self.say(f"{before} decide the root ({self.value}): no part runs")
            else:
                self.say(f"{len(self.needed)} of the {self.n} parts can change the root's "
                         "value")
        # A part already split (in a run before) is not solved whole again: it is split.
        self.split = (f["split"] - set(self.valued) if self.depth < args.split_unknown
                      else set())
        # With several --time-per-part limits the level runs in passes: every part at the
        # first, then the parts left unknown (and still needed) at the next, and so on;
        # only after the last are parts split.
        self.threads = ThreadPoolExecutor(max_workers=max(1, self.n))
        self.ran_earlier = f["ran"]
        failure = None
        passes = part_limits(args)
        for pass_number, (seconds, nodes) in enumerate(passes):
            self.last = pass_number == len(passes) - 1
            self.ran_before = f["ran"] if pass_number == 0 else set()
            if pass_number > 0:
                self.value, self.needed = self.still_needed()
            self.todo = [(i, x) for i, x in enumerate(self.positions) if self.to_submit(i, x)]
            if pass_number > 0 and self.todo:
                self.say(f"{len(self.todo)} parts left unknown at "
                         f"{show_limits(*passes[pass_number - 1])} and still needed: again "
                         f"at {show_limits(seconds, nodes)}")
            elif pass_number > 0 and not self.last:
                continue  # (the last pass splits, even with no part to run)
            failure = self.run_pass(Feed(self, seconds, nodes, pass_number))
            if failure is not None:
                break
        self.threads.shutdown(wait=True)
        if failure is not None:
            return failure, None  # (a run after it goes on from the parts' own tables)
        if self.valued and not self.cancelled():
            return self.prove_valued()
        return self.combine()

    def still_needed(self):
        """The root's value (None while unknown) and the parts that can change it, each
        with the fewest parts that would decide the root through it (`prune`; None with
        --every-part: all of them)."""
        if not self.early:
            return None, None
        if not self.cancelled():
            result = self.tasks.light(prune, self.kharbaga, self.args.rules,
                                      self.args.tables, self.root, self.workdir,
                                      self.run_id, self.trust, self.prove).result()
            # Looked at again after the prune, which may have written the needed file
            # after the level above cleared it.
            if not self.cancelled():
                return result
        stop_every_part(self.workdir)
        return None, {}

    def to_submit(self, i, x):
        """Whether part i (position x) runs in this pass. The parts run each when a slot is
        free for it, in the order of `place` (see Slots: a split's parts go before the
        level's own that come after it, which fill the workers the split leaves idle). A
        part that never ran and cannot change the root's value now is not submitted at
        all (none is once the parts solved before decide it); a part checks again when it
        starts."""
        if i in self.split or self.values.get(i, "unknown") != "unknown":
            return False
        if i in self.ran_before:
            return True  # it reports its earlier result
        return not self.value and (self.needed is None or x in self.needed)

    def place(self, i, x):
        """Part i's place in the queue, lowest first: the parts that ran before (they
        report their results at once), then by the fewest parts that would decide the root
        through it, the cheaper way and then the other (proof-number search's choice;
        `prune`), then in frontier order (the engine's, the likeliest to decide the root
        first)."""
        fewest = self.needed.get(x, (math.inf, math.inf)) if self.needed else (0, 0)
        return (i not in self.ran_before, *fewest, i)

    def run_pass(self, feed):
        """Runs one pass of the level's parts through `feed`, and after the last pass the
        splits. Returns None, or the exit status of a failure."""
        # A part left unknown by the pass before runs again (its result then is this
        # pass's, and only this pass's unknowns are split) or is counted as not needed.
        for i in [i for i, v in self.values.items() if v == "unknown"]:
            self.values.pop(i)
        solved = sum(v != "unknown" for v in self.values.values())
        self.stopped = self.n - len(self.split) - len(self.todo) - solved
        self.reported = 0
        self.feed = feed
        self.finished = queue.Queue()
        fed = False
        rest_split = not self.last  # parts are split after the last pass only
        parts_done = 0
        failure = None
        try:
            # The parts whose results from a run before stand are taken in at once, not
            # each in a slot (where the parts of other levels would take the slots they
            # leave between them): at every pass (a part left unknown at 2,400 s in a run
            # before stands at this run's 2,400 s pass too).
            # They are looked at together once (one prune and one look at the splits,
            # not one each: a pass may take in sixty).
            before = [(i, x) for i, x in self.todo
                      if i in self.ran_earlier or self.promoted.get(i, -1) >= feed.pass_number]
            standing = []
            if before:
                args = self.args
                standing = self.tasks.light(standing_results, self.kharbaga, args.rules,
                                            args.tables, args.hash, feed.seconds,
                                            feed.nodes, self.workdir, before).result()
                for r in standing:
                    self.take_in(r, look=False)
                archive.keep(args.workdir, args.archive)
            feed.waiting = [(i, x) for i, x in self.todo if i not in self.values]
            # A part split in a run before, or left unknown by one, that comes first or
            # alone can decide the root is split before the pass's parts start (its parts
            # come first; one of the pass's may take an hour).
            self.look_again(any(r["value"] != "unknown" for r in standing), True)
            feed.start()
            while len(feed.futures) > parts_done or self.splitting or not fed \
                    or not rest_split:
                if fed and len(feed.futures) == parts_done and not rest_split:
                    # Every part of this level has run: the others a limit left unknown
                    # are split now, side by side.
                    rest_split = True
                    self.value, self.needed = self.still_needed()
                    self.split_the_rest()
                    continue
                kind, x = self.finished.get()
                if kind == "fed":
                    fed = True
                elif kind == "skipped":
                    self.stopped += 1  # not run: the root, or what it needs, changed
                elif kind == "part":
                    parts_done += 1
                    failure = self.report_part(x)
                    feed.taken_in()
                else:
                    failure = self.report_split(x)
                if failure is not None:
                    break
        except Exception as e:
            print(f"FAILED: {e}", file=sys.stderr, flush=True)
            failure = 1
        if failure is not None:
            feed.stop()
            self.tasks.cancel(feed.futures)
            self.stop_unneeded_splits(everything=True)
        return failure

    def report_part(self, future):
        """Takes a part's task's result in. Returns None, or the exit status of a
        failure."""
        if future.status != "finished":
            print(f"FAILED: {future.exception()}", file=sys.stderr, flush=True)
            print(f"{len(self.values) + self.stopped} of {self.n} parts done before the "
                  "failure; run again to resume", file=sys.stderr)
            return 1
        return self.take_in(future.result())

    def take_in(self, r, look=True):
        """Takes a part's result in (as `solve_part` gives it). Returns None. With `look`
        false (a batch of earlier results), the archive, the needed parts and the splits
        are left for the caller to look at once after the batch (`look_again`)."""
        args = self.args
        self.reported += 1
        if look:
            archive.keep(args.workdir, args.archive)
        if r["stopped"]:
            self.stopped += 1
            self.values.pop(r["index"], None)  # left unknown by a pass before
            self.already.discard(r["index"])
            self.say(f"[{self.reported}/{len(self.todo)}] part-{r['index']} {r['position']}: "
                     f"not needed, it cannot change the root's value ({r['seconds']:.2f}s, "
                     f"{r['worker']})")
            return None
        i = r["index"]
        self.values[i] = r["value"]
        self.compare_with_record(i, r["value"])
        self.part_seconds += r["seconds"]
        if r["already"]:
            self.already.add(i)
            what = ("already done" if r["value"] != "unknown"
                    else "a run before reached these limits")
        else:
            self.ran += 1
            self.already.discard(i)
            what = f"{r['seconds']:.2f}s"
        shown = r["value"] + (f" {r['move']}" if r["move"] else "")
        self.say(f"[{self.reported}/{len(self.todo)}] part-{i} {r['position']}: {shown} "
                 f"({what}, {r['worker']}); so far {counts(list(self.values.values()))}")
        if look:
            self.look_again(r["value"] != "unknown", r["already"])
        return None

    def look_again(self, solved, already):
        """After results taken in (`solved`: one of them a win, loss or draw; `already`: all
        of them from a run before): the root's needed parts again and the splits."""
        may_split = (self.last and self.depth < self.args.split_unknown
                     and "unknown" in self.values.values())
        if solved and (not already or self.splitting or may_split):
            # The parts' places change (see `place`), and a split running may no longer be
            # needed (the root decided, or its part no longer able to change it): stopped
            # now rather than when a split ends. And a part left unknown is not split for a
            # root this part decided.
            self.value, self.needed = self.still_needed()
            self.stop_unneeded_splits()
        # A part left unknown that comes before the parts not started yet, or alone can
        # decide the root (with the results so far), is split now (or, before the last
        # pass, run at the next pass's limits now): they may not be needed after.
        self.promote_first()
        self.split_first()

    def report_split(self, i):
        """Takes a split's result in. Returns None, or the exit status of a failure."""
        thread, event = self.splitting.pop(i)
        status, c = thread.result()
        archive.keep(self.args.workdir, self.args.archive)
        if event.is_set() and (c is None or c["value"] == "unknown"):
            self.values.pop(i, None)
            self.stopped += 1
            self.say(f"part-{i} {self.positions[i]}: not needed, its split stopped")
            return None
        if c is None:
            return status
        self.value, self.needed = self.still_needed()
        self.stop_unneeded_splits()
        self.split_first()
        return None

    def promote_first(self):
        """In a pass before the last: runs at the next pass's limits now, ahead of the
        parts still waiting, each part left unknown at this pass that alone decides the
        root (a count of 1, see `place`) while no part waiting does, and that still
        needs that pass. Its next pass would come anyway, after every part of this one:
        at ply 21, 37 parts of 300 s (counts of 7 to 12) before the two parts that each
        alone decide h8-g7's split went on at 2,400 s. A part whose count is larger waits
        for its pass: the others it needs are left unknown at this limit, or not run yet.
        And among parts that each alone decide the root (the prover to move at 1 ply),
        the pass's order stands: the next may be a quick win. (In the last pass
        `split_first` splits the parts that come first.)"""
        feed = self.feed
        # (Before the feed starts too: a restart takes in its standing results first.)
        over = feed.thread.ident is not None and not feed.thread.is_alive()
        if (self.last or not self.early or self.value or self.cancelled()
                or self.needed is None or over):
            return
        after = feed.pass_number + 1
        passes = part_limits(self.args)
        waiting = [self.place(*p)[1] for p in list(feed.waiting)]
        if not waiting or min(waiting) <= 1:
            return
        for i in sorted(i for i, v in self.values.items() if v == "unknown"):
            x = self.positions[i]
            if self.promoted.get(i, -1) >= after or self.needed.get(x, (0,))[0] != 1:
                continue
            self.promoted[i] = after
            self.values.pop(i)
            self.todo.append((i, x))
            seconds, nodes = passes[after]
            self.say(f"part-{i} {x}: unknown at {show_limits(feed.seconds, feed.nodes)}, "
                     f"and alone it decides the root: at {show_limits(seconds, nodes)} now")
            feed.promote(i, x, seconds, nodes, after == len(passes) - 1)

    # The splits.

    def unknown_unsplit(self):
        """In frontier order, the parts left unknown (and those split in a run before) not
        split in this run yet."""
        return sorted((self.split | {i for i, v in self.values.items() if v == "unknown"})
                      - self.splits)

    def split_first(self):
        """Splits, in frontier order, each part left unknown at the last pass (and not split
        yet), or split in a run before, that comes before every part still waiting for a
        slot (by the counts of `place`: proof-number search would look below it first), or
        that alone can decide the root now. (The others are split once the pass has run.)"""
        args = self.args
        if (not self.last or not self.early or self.depth >= args.split_unknown
                or self.cancelled()):
            return
        first_waiting = min((self.place(*p)[1:] for p in list(self.feed.waiting)),
                            default=None)
        for i in self.unknown_unsplit():
            if self.value:
                break
            x = self.positions[i]
            if self.needed is not None and x not in self.needed:
                continue
            if (first_waiting is not None and self.place(i, x)[1:] < first_waiting
                    or self.tasks.light(decides, self.kharbaga, args.rules, args.tables,
                                        self.root, self.workdir, x, self.trust).result()):
                self.start_split(i)

    def split_the_rest(self):
        """Splits, in frontier order, the other parts a limit left unknown (and those split
        in a run before), once this level has no part left to run: each still needed."""
        if self.depth >= self.args.split_unknown:
            return
        for i in self.unknown_unsplit():
            if self.value:
                break
            if self.needed is not None and self.positions[i] not in self.needed:
                self.values.pop(i, None)
                self.stopped += 1
                self.say(f"part-{i} {self.positions[i]}: not needed, it cannot change the "
                         "root's value")
                continue
            self.start_split(i)

    def start_split(self, i):
        """Starts splitting part i, in a thread of its own. Until the split's first part
        waits for a slot (or it has none to run) its place is held in the slots' line
        (`Slots.hold`), so that splits started side by side take the slots in their order
        (at a restart, the top level's eight splits at ply 21 list their frontiers in
        whatever order their standing results take)."""
        self.splits.add(i)
        self.listed[i] = threading.Event()
        path = self.path + (self.place(i, self.positions[i]),)
        self.holding[i] = path
        self.slots.hold(path)
        event = threading.Event()
        thread = self.threads.submit(self.split_part, i, path, event.is_set)
        self.splitting[i] = (thread, event)
        thread.add_done_callback(lambda _: self.finished.put(("split", i)))

    def stop_split(self, i):
        self.splitting[i][1].set()
        stop_every_part(os.path.join(self.workdir, f"part-{i}.split"))

    def stop_unneeded_splits(self, everything=False):
        for i, (_, event) in self.splitting.items():
            # A split stopped before is not walked again.
            if not event.is_set() and (everything or self.value or self.needed is not None
                                       and self.positions[i] not in self.needed):
                self.stop_split(i)

    def listed_now(self, i):
        """Split i's first part waits for a slot, or it has none to run: its held place
        goes."""
        self.listed[i].set()
        held = self.holding.pop(i, None)
        if held is not None:
            self.slots.unhold(held)

    def split_part(self, i, path, unneeded=lambda: False):
        """Splits part i, left unknown at its limit, one level deeper in its own directory
        (its parts' slot keys starting with `path`) and makes the split's result the part's
        own (unless `unneeded()` turned true meanwhile and stopped the split before it found
        the value). Returns the exit status and the split's combine (None when a command
        failed)."""
        x = self.positions[i]
        sub = os.path.join(self.workdir, f"part-{i}.split")
        self.say(f"part-{i} {x}: unknown at its limit, split in {sub}")
        os.makedirs(sub, exist_ok=True)
        try:
            status, c = Level(self.tasks, self.args, self.kharbaga, x, "", sub, path,
                              self.slots, self.workers,
                              lambda: self.cancelled() or unneeded(),
                              lambda: self.listed_now(i)).solve()
        finally:
            self.listed_now(i)
        if c is None:
            return status, None
        if unneeded() and c["value"] == "unknown":
            return status, c
        self.values[i] = c["value"]
        self.compare_with_record(i, c["value"])
        if c["value"] != "unknown":
            adopt(self.workdir, i, c, sub)
        self.say(f"part-{i} {x}: {c['value']}" + (f" {c['move']}" if c["move"] else "")
                 + " (split)")
        return status, c

    def compare_with_record(self, i, value):
        """Warns when part i, solved now, has another value than a run before recorded."""
        if value != "unknown" and self.archived.get(i, value) != value:
            self.say(f"warning: part-{i} {self.positions[i]} is a {value}, but a run before "
                     f"recorded a {self.archived[i]} (part-{i}.value)")

    # The end.

    def prove_valued(self):
        """After the passes with the recorded values taken as results (--values): when they
        decide the root, the level is solved again with the parts its proof rests on
        (`rests_on`) as the only parts needed, so that of the parts known by their values
        only those are solved again, with their proofs (a part split before by its split,
        the same way); else, or when the proof rests on none of them, the combine. Returns
        what `solve` returns."""
        args = self.args
        try:
            value, leaves = self.tasks.light(rests_on, self.kharbaga, args.rules,
                                             args.tables, self.root, self.workdir).result()
        except Exception as e:
            print(f"FAILED: {e}", file=sys.stderr, flush=True)
            return 1, None
        owed = [i for i in self.valued if self.positions[i] in leaves]
        if value is None or not owed:
            return self.combine()
        self.say(f"the root is decided with the recorded values ({value}): its proof rests "
                 f"on {len(leaves)} of the {self.n} parts, {len(owed)} of them known by "
                 "their values only, which are solved again")
        return Level(self.tasks, args, self.kharbaga, self.position, self.moves,
                     self.workdir, self.path, self.slots, self.workers, self.cancelled,
                     self.queued, prove=leaves).solve()

    def combine(self):
        """Combines the parts' results into the root's value and proof (verified at the
        top) and reports them. Returns the exit status and the combine's result (None when
        a command failed)."""
        args = self.args
        if args.hash_dir:
            # The parts' own tables kept for a pass that did not come (the root was decided,
            # or a part was no longer needed): on the disk of the worker that runs this.
            try:
                self.tasks.light(drop_resume_files, args.hash_dir, args.hash,
                                 self.positions).result()
            except Exception as e:
                print(f"warning: the parts' tables were not removed from {args.hash_dir}: "
                      f"{e}", file=sys.stderr, flush=True)
        try:
            c = self.tasks.light(combine, self.kharbaga, args.rules, args.tables, self.root,
                                 self.workdir, self.n).result()
        except Exception as e:
            print(f"FAILED: {e}", file=sys.stderr, flush=True)
            return 1, None
        values = list(self.values.values())
        root_value = c["value"] + (f" {c['move']}" if c["move"] else "")
        summary = (f"parts: {self.n} ({self.ran} run now in {self.part_seconds:.1f}s of task "
                   f"time, {len(self.already)} already done, {self.stopped} not needed): "
                   f"{counts(values)}")
        if self.splits:
            summary += (f"\n{'  ' * self.depth}split: {len(self.splits)} parts unknown at "
                        "their limit, each split in its part-I.split directory")
        if self.depth > 0:
            self.say(f"root {self.root}: {root_value}")
            self.say(summary)
            return (0 if c["value"] != "unknown" else 3), c
        for line in c["output"].splitlines():
            # (needed parts and leaves are counted in their `still needed:` and `rests on:`
            # lines)
            if not line.startswith(("needed: ", "leaf: ")):
                print(f"combine: {line}", flush=True)
        checked = []
        if args.verify:
            # The tables the combine used (--tables, else the binary's default):
            # verify-proof takes none unless told.
            for proof in c["proofs"]:
                try:
                    checked.append(self.tasks.light(verify, self.kharbaga, args.rules,
                                                    c["tables"], proof).result())
                except Exception as e:
                    print(f"FAILED: the combined proof does not verify: {e}",
                          file=sys.stderr, flush=True)
                    return 1, c
                print(f"verify-proof: {checked[-1]}", flush=True)

        print(f"root {self.root}: {root_value}", flush=True)
        print(summary, flush=True)
        for proof in c["proofs"]:
            print(f"proof: {proof}" + (", verified" if checked else ", not verified"),
                  flush=True)
        if c["value"] == "unknown":
            print(f"the root is unknown: {values.count('unknown')} parts stopped at a "
                  "limit; run again (with more --time-per-part, or --split-unknown) to "
                  "resume", file=sys.stderr, flush=True)
            return 3, c
        return 0, c
