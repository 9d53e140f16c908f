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

    def acquire(self, key, queued=None):
        """Waits for a slot for the part `key`; returns the slot's number. Calls queued(),
        when given, once the key waits."""
        with self.changed:
            heapq.heappush(self.waiting, key)
            if queued:
                queued()
            while not (self.free and self.waiting[0] == key):
                self.changed.wait()
            heapq.heappop(self.waiting)
            self.free.sort()
            slot = self.free.pop(0)
            self.changed.notify_all()
            return slot

    def release(self, slot):
        with self.changed:
            self.free.append(slot)
            self.changed.notify_all()
