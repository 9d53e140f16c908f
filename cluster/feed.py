"""The feed of the solve driver (cluster/solve.py): the thread that submits one pass of a
level's parts (cluster/level.py), each once a slot is free for it and only if it is still
worth running then."""

import threading

from part import solve_part


class Feed:
    """Submits the parts of one pass of `level`, each with `seconds` and `nodes` limits,
    once a slot is free for it and if it is still worth running then, the lowest place
    (`Level.place`) first. Its choice uses the level's `value` and `needed` of the last
    look, taken in as parts end: it waits for the results of the parts that ended before it
    chooses (`wait_for_reports`, `taken_in`), so that the counts are current and no part is submitted
    for a root just decided; a part that never ran is skipped once it cannot change the
    root. What happens goes to the level's `finished` queue: ("part", a part's Dask future)
    when it ends, ("skipped", a part's index) for a part no longer worth running when its
    turn came, and ("fed", None) once every part worth running is submitted."""

    def __init__(self, level, seconds, nodes, pass_number):
        self.level = level
        self.seconds = seconds
        self.nodes = nodes
        self.pass_number = pass_number
        # The futures of the parts submitted.
        self.futures = []
        # Set to stop submitting (a failure at the level).
        self.stopped = threading.Event()
        # The parts ended whose results the level has not taken in yet.
        self.reports = threading.Condition()
        self.unreported = 0
        # The parts not submitted yet (set by the level before the feed starts).
        self.waiting = []
        # The parts run ahead at a later pass's limits (`promote`): part -> (seconds,
        # nodes, whether that pass is the last).
        self.ahead = {}
        self.thread = threading.Thread(target=self.run, daemon=True)

    def start(self):
        self.thread.start()

    def stop(self):
        self.stopped.set()
        with self.reports:
            self.reports.notify_all()

    def taken_in(self):
        """The level has taken in the result of a part that ended."""
        with self.reports:
            self.unreported -= 1
            self.reports.notify_all()

    def promote(self, i, x, seconds, nodes, last):
        """Part i (position x), left unknown by this pass, waits again to run at a later
        pass's limits (`Level.promote_first`)."""
        self.ahead[i] = (seconds, nodes, last)
        self.waiting.append((i, x))

    def halted(self):
        return self.stopped.is_set() or self.level.cancelled()

    def skipped(self, i, x):
        """Whether part i (position x) is not worth running now."""
        level = self.level
        return i not in level.ran_before and (level.value or level.needed is not None
                                              and x not in level.needed)

    def next_part(self):
        """The part to run next (None when no part is left), after dropping the parts no
        longer worth running."""
        for i, x in [p for p in self.waiting if self.skipped(*p)]:
            self.waiting.remove((i, x))
            self.level.finished.put(("skipped", i))
        return min(self.waiting, key=lambda p: self.level.place(*p), default=None)

    def splits_listing(self):
        """Waits until each split started has its first part waiting for a slot; returns
        whether one had not."""
        listing = [e for e in list(self.level.listed.values()) if not e.is_set()]
        for e in listing:
            while not (e.wait(1) or self.halted()):
                pass
        return bool(listing)

    def wait_for_reports(self):
        """Waits until the level has taken in the results of the parts that ended."""
        with self.reports:
            while not self.reports.wait_for(
                    lambda: not self.unreported or self.stopped.is_set(), timeout=1):
                if self.level.cancelled():
                    break

    def run(self):
        level = self.level
        held = None  # the key of the part last given a slot (see Slots.acquire)
        try:
            while not self.halted():
                # Chosen before waiting for a slot (a part not worth running does not wait)
                # and again after (the wait may be long, and the parts' places change).
                part = self.next_part()
                if part is None:
                    break
                key = level.path + (level.place(*part),)
                slot = level.slots.acquire(key, level.queued, keep=True, held=held)
                held = key
                # The places after the results of the parts that ended meanwhile.
                self.wait_for_reports()
                if self.splits_listing():
                    # A split started meanwhile (a part left unknown that comes first, or
                    # alone decides the root): its parts come first, so the slot goes back
                    # to the smallest key waiting.
                    level.slots.release(slot)
                    continue
                if self.halted():
                    level.slots.release(slot)
                    self.waiting.remove(part)
                    level.finished.put(("skipped", part[0]))
                    continue
                part = self.next_part()
                if part is None:
                    level.slots.release(slot)
                    break
                self.submit(part, slot)
        finally:
            if held is not None:
                level.slots.unhold(held)
            if level.last:
                # Every part of the level has its slot, or none is left to run. (After an
                # earlier pass the next may still have parts: a split whose first pass only
                # took in a run before's results would let the level above take the slots
                # its next pass's parts come before.)
                level.queued()
            level.finished.put(("fed", None))

    def submit(self, part, slot):
        """Submits `part` to run in `slot`, which it frees when it ends."""
        level, args = self.level, self.level.args
        i, x = part
        self.waiting.remove(part)
        seconds, nodes, last = self.ahead.get(i, (self.seconds, self.nodes, level.last))
        future = level.tasks.part(
            f"kharbaga-part-{i}-{level.run_id}-{self.pass_number}"
            + ("-ahead" if i in self.ahead else ""), slot, solve_part,
            level.kharbaga, args.rules, args.tables, args.hash, seconds, nodes,
            level.workdir, i, x, level.root, level.early, args.hash_dir, slot,
            not last, args.keep_solvers)
        self.futures.append(future)

        def done(future):
            with self.reports:
                self.unreported += 1
            level.slots.release(slot)
            level.finished.put(("part", future))
        future.add_done_callback(done)
