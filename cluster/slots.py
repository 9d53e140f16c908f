"""The slots of the solve driver (cluster/solve.py): the parts that run at once, shared by
every level of its split tree, and the order a free slot is given in."""

import heapq
import threading


class Slots:
    """The parts running at once, at most one a slot (a worker), shared by every level of
    the split tree. A level waits for a free slot with a key, the path of its parts' places
    in their levels' queues from the top ((a,) for a part of the top at place a, (a, b)
    for a part at place b in the split of that part; the driver's places are tuples that
    end with the part's index), and a free slot goes to the smallest key waiting: a split's
    parts before the parts after it at the levels above, which fill only the slots the
    split leaves idle."""

    def __init__(self, count):
        self.changed = threading.Condition()
        self.free = list(range(count))
        self.waiting = []  # a heap of keys

    def acquire(self, key, queued=None, keep=False, held=None):
        """Waits for a slot for the part `key`; returns the slot's number. Calls queued(),
        when given, once the key waits. With `keep`, the key stays in line after it has its
        slot, held by the caller (see `unhold`); `held`, a key the caller held, is given up
        as this one takes its place.

        A level holds the key of its part just started while it chooses its next part,
        which asks again with it as `held`: until then no free slot goes to a larger key
        (a part of a level above that the level's next part comes before)."""
        with self.changed:
            if held is not None:
                self._drop(held)
            heapq.heappush(self.waiting, key)
            if queued:
                queued()
            while not (self.free and self.waiting[0] == key):
                self.changed.wait()
            if not keep:
                heapq.heappop(self.waiting)
            self.free.sort()
            slot = self.free.pop(0)
            self.changed.notify_all()
            return slot

    def hold(self, key):
        """Puts `key` in line without a part, held by the caller until `unhold(key)` (or an
        `acquire(..., held=key)`): a split started holds its place until its first part
        waits, so that splits started side by side take the slots in their order, not in
        the order they list their frontiers."""
        with self.changed:
            heapq.heappush(self.waiting, key)

    def unhold(self, key):
        """Takes `key`, held since `acquire(key, keep=True)` or `hold(key)`, out of line."""
        with self.changed:
            self._drop(key)
            self.changed.notify_all()

    def _drop(self, key):
        self.waiting.remove(key)
        heapq.heapify(self.waiting)

    def release(self, slot):
        with self.changed:
            self.free.append(slot)
            self.changed.notify_all()
