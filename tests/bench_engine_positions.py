"""Every exhibit-size position of a rule set, for the engine benchmark.

Shared by CPython and the MicroPython benchmark runner (plain Python subset).
"""

CASES = [
    ("nim", False), ("nim", True),
    ("subtract:3", False), ("subtract:3", True),
    ("moore:2", False), ("moore:2", True),
    ("moore:3", False), ("moore:3", True),
    ("greedy", False), ("greedy", True),
    ("allheaps", False), ("allheaps", True),
    ("grundy", False), ("grundy", True),
    ("circular", False), ("circular", True),
    ("candy", False), ("candy", True),
    ("nim2d", False), ("nim2d", True),
]


def heap_positions():
    for n in range(1, 5):
        pos = [0] * n
        while True:
            yield list(pos)
            i = n - 1
            while i >= 0 and pos[i] == 7:
                pos[i] = 0
                i -= 1
            if i < 0:
                break
            pos[i] += 1


def partitions(total, smallest, prefix=None):
    """Every multiset of parts >= smallest with sum <= total (a generator)."""
    prefix = prefix or []
    if prefix:
        yield list(prefix)
    p = smallest
    while p <= total:
        for q in partitions(total - p, p, prefix + [p]):
            yield q
        p += 1


def positions(spec):
    """(position, ring) pairs: every exhibit-size position of the rule set."""
    if spec == "grundy":
        for p in partitions(24, 1):
            yield p, False
    elif spec == "nim2d":  # every board of 3 x 4 cells (the MacroPad's keys), then each 16th of 4 x 4
        for mask in range(1, 1 << 12):
            yield [[mask >> (4 * r + c) & 1 for c in range(4)] for r in range(3)], False
        for mask in range(1, 1 << 16, 16):
            yield [[mask >> (4 * r + c) & 1 for c in range(4)] for r in range(4)], False
    elif spec == "circular":
        for n in range(1, 17):
            yield [n], True
        for p in partitions(16, 1):
            yield p, False
    else:
        for p in heap_positions():
            yield p, False
