# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Every exhibit-size position of a rule set, for the engine benchmark.

Shared by CPython and the MicroPython benchmark runner (plain Python subset).
"""

CASES = [
    ("nim", False),
    ("nim", True),
    ("subtract:3", False),
    ("subtract:3", True),
    ("moore:2", False),
    ("moore:2", True),
    ("moore:3", False),
    ("moore:3", True),
    ("greedy", False),
    ("greedy", True),
    ("allheaps", False),
    ("allheaps", True),
    ("grundy", False),
    ("grundy", True),
    ("circular", False),
    ("circular", True),
    ("candy", False),
    ("candy", True),
    ("nim2d", False),
    ("nim2d", True),
    ("building", False),
    ("building", True),
    ("graph:2", False),
    ("graph:2", True),
]
# Graph Nim: the pico-grid and MacroPad presets' starts (row bitmasks).
GRAPH_STARTS = ([7, 7, 0, 15], [7, 5, 7, 0, 7], [11, 8, 14], [3, 0, 27, 0, 31], [3, 3, 12], [15, 0, 7])


def cells(rows, cols, mask):
    return [[(mask >> (r * cols + c)) & 1 for c in range(cols)] for r in range(rows)]


def sorted_heaps(total, parts, top):
    """Heaps of ``parts`` parts summing to ``total``, largest first, each <= top."""
    if parts == 0:
        return [[]] if total == 0 else []
    out = []
    for first in range(min(total, top), -1, -1):
        for rest in sorted_heaps(total - first, parts - 1, first):
            out.append([first] + rest)
    return out


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
            yield cells(3, 4, mask), False
        for mask in range(1, 1 << 16, 16):
            yield cells(4, 4, mask), False
    elif spec == "circular":
        for n in range(1, 17):
            yield [n], True
        for p in partitions(16, 1):
            yield p, False
    elif spec == "building":  # every building position of BN(8, 3) and BN(8, 5)
        for s in (3, 5):
            for placed in range(8):
                for heaps in sorted_heaps(placed, s, placed):
                    yield heaps + [8 - placed], False
    elif spec == "graph:2":  # every position the presets' starts can reach
        for start in GRAPH_STARTS:
            width = 1
            while any(row >> width for row in start):
                width += 1
            lit = [(r, c) for r in range(len(start)) for c in range(width) if start[r] >> c & 1]
            for subset in range(1, 1 << len(lit)):
                mask = 0
                for j in range(len(lit)):
                    if subset >> j & 1:
                        mask |= 1 << (lit[j][0] * width + lit[j][1])
                yield cells(len(start), width, mask), False
    else:
        for p in heap_positions():
            yield p, False
