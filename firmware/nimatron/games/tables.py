# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Precomputed answers for exhibit sizes, so a small board never searches.

``tables.bin`` (written by ``nimatron tables``, checked by the tests against
a fresh search) holds, per rule set and play convention, one byte per
position of up to 4 heaps of up to 7 (the Nimatron's panel): the nim-value
in normal play, 1/0 for win/loss in misère play. Splitting games list their
misère losing positions instead. One table is loaded at a time: about 500
bytes of RAM.

    >>> from nimatron.games import tables
    >>> from nimatron.games.rules import parse_rules
    >>> tables.value(parse_rules("moore:2"), [3, 4, 5], misere=True)
    1
"""

import json

from .. import resource

TOP = 7  # heap rules: heaps of up to 7 ...
HEAPS = 4  # ... in up to 4 heaps
SPLIT_TOTAL = {"grundy": 24, "circular": 16}  # splitting rules: objects in all
FILE = "games/tables.bin"
KEEP = 1  # tables kept in RAM: one on a board; a PC's batch keeps them all


def _binom(n, k):
    """C(n, k), ranks sorted heaps (computed: a table of them cost a board's heap)."""
    if k < 0 or k > n:
        return 0
    r = 1
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


def size(n):
    """How many sorted positions of n heaps of 0..TOP there are."""
    return _binom(TOP + n, n)


def _start(n):
    total = 0
    for j in range(1, n):
        total += size(j)
    return total


def rank(heaps):
    """Index of a position among sorted positions with as many heaps.

    Combinatorial number system: sorted a_0 <= a_1 <= ... map to strictly
    increasing a_i + i, ranked by the sum of C(a_i + i, i + 1).
    """
    s = sorted(heaps)
    r = 0
    for i in range(len(s)):
        r += _binom(s[i] + i, i + 1)
    return _start(len(s)) + r


def name(rules, misere):
    """The table that answers for these rules, or None."""
    spec = rules.table_spec(misere)
    if spec is None:
        return None
    return spec + ("-" if misere else "+")


def load(rules, misere):
    """Read the table for these rules into RAM now; None if there is none."""
    table = name(rules, misere)
    return None if table is None else _table(table)


def covers(rules, heaps):
    limit = SPLIT_TOTAL.get(rules.name)
    if limit is not None:
        return sum(heaps) <= limit
    return 0 < len(heaps) <= HEAPS and max(heaps) <= TOP


_index = []  # type: list  # [header length] once the file is found (the index itself is not kept)
_loaded = {}  # type: dict
LOST = 0xFFFF  # misère heap tables: no winning move


def forget():
    """Drop the table read (``strategy.forget_searches``): read again when asked."""
    _loaded.clear()


def _table(table):
    """(bytes, record size) of a table, reading it from flash on first use."""
    data = _loaded.get(table)
    if data is not None:
        return data
    try:
        f = open(resource(FILE), "rb")
    except OSError:
        return None  # not deployed: the strategy searches instead
    with f:
        line = f.readline()  # {name: [offset, length, record]}: read at each table's load, kept by none
        if not _index:
            _index.append(len(line))
        # Only this table's entry is parsed, not a dict of every table's: the
        # table's bytes are taken next, just above what the parse leaves behind
        # (MicroPython never moves a block; tests/test_micropython.py).
        where = line.find(b'"' + table.encode() + b'"')
        if where < 0:
            return None
        where = json.loads(line[line.find(b"[", where) : line.find(b"]", where) + 1])
        f.seek(len(line) + where[0])
        data = (f.read(where[1]), where[2])
    if len(_loaded) >= KEEP:
        _loaded.clear()  # keep KEEP tables in RAM (one on a board)
    _loaded[table] = data
    return data


def _lost_key(data, size, key):
    """Binary search of a sorted table of fixed-size, zero-padded keys."""
    if len(key) > size:
        return False
    key = bytes(size - len(key)) + key
    lo = 0
    hi = len(data) // size
    while lo < hi:
        mid = (lo + hi) // 2
        at = mid * size
        cmp = 0
        for j in range(size):
            a = data[at + j]
            b = key[j]
            if a != b:
                cmp = -1 if a < b else 1
                break
        if cmp == 0:
            return True
        if cmp < 0:
            lo = mid + 1
        else:
            hi = mid
    return False


def _entry(rules, heaps, misere, ring):
    table = name(rules, misere)
    if table is None or ring or not covers(rules, heaps):
        return None
    return _table(table)


def value(rules, heaps, misere, ring=False):
    """0 if the player to move loses, else nim-value (normal) or 1 (misère).

    None when no table covers this position.
    """
    found = _entry(rules, heaps, misere, ring)
    if found is None:
        return None
    data, size = found
    if rules.name in SPLIT_TOTAL:
        return 0 if _lost_key(data, size, rules.key(heaps)) else 1
    if size == 2:
        at = 2 * rank(heaps)
        return 0 if (data[at] << 8 | data[at + 1]) == LOST else 1
    return data[rank(heaps)]


def move(rules, heaps, misere, ring=False):
    """The stored winning move ([] if lost), or None if no table stores moves.

    Moves are stored per sorted slot (three bits per heap); heaps of equal
    size are interchangeable, so the slots map back to this heap order.
    """
    found = _entry(rules, heaps, misere, ring)
    if found is None or found[1] != 2:
        return None
    data, _ = found
    at = 2 * rank(heaps)
    code = data[at] << 8 | data[at + 1]
    if code == LOST:
        return []
    n = len(heaps)
    order = list(range(n))
    order.sort(key=lambda i: heaps[i] * n + i)  # ties by index: sort is not stable everywhere
    after = list(heaps)
    for slot in range(len(order)):
        after[order[slot]] = code >> (3 * slot) & 7
    return [after]


def encode(after_sorted):
    """Slot values (sorted order of the position) -> the stored 16-bit code."""
    code = 0
    for slot in range(len(after_sorted)):
        code |= after_sorted[slot] << (3 * slot)
    return code
