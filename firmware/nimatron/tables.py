"""Precomputed answers for exhibit sizes, so a small board never searches.

``tables.bin`` (written by ``nimatron tables``, checked by the tests against
a fresh search) holds, per rule set and play convention, one byte per
position of up to 4 heaps of up to 7 (the Nimatron's panel): the nim-value
in normal play, 1/0 for win/loss in misère play. Splitting games list their
misère losing positions instead. One table is loaded at a time: about 500
bytes of RAM.

    >>> from nimatron import tables
    >>> from nimatron.rules import parse_rules
    >>> tables.value(parse_rules("moore:2"), [3, 4, 5], misere=True)
    1
"""

import json

TOP = 7     # heap rules: heaps of up to 7 ...
HEAPS = 4   # ... in up to 4 heaps
SPLIT_TOTAL = {"grundy": 24, "circular": 16}  # splitting rules: objects in all
FILE = "tables.bin"

# Binomials C(n, k) for n <= TOP + HEAPS: ranks sorted heaps.
_C = [[1]]
for _n in range(1, TOP + HEAPS + 1):
    _row = [1]
    for _k in range(1, _n):
        _row.append(_C[_n - 1][_k - 1] + _C[_n - 1][_k])
    _row.append(1)
    _C.append(_row)


def _binom(n, k):
    return _C[n][k] if 0 <= k <= n else 0


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


def covers(rules, heaps):
    limit = SPLIT_TOTAL.get(rules.name)
    if limit is not None:
        return sum(heaps) <= limit
    return 0 < len(heaps) <= HEAPS and max(heaps) <= TOP


_index = []  # [header length, {name: [offset, length]}] once read
_loaded = {}


def _path():
    here = __file__
    cut = here.rfind("/")
    if cut < 0:
        cut = here.rfind("\\")
    return here[: cut + 1] + FILE


def _table(table):
    data = _loaded.get(table)
    if data is not None:
        return data
    try:
        f = open(_path(), "rb")
    except OSError:
        return None  # not deployed: the strategy searches instead
    with f:
        if not _index:
            line = f.readline()
            _index.append(len(line))
            _index.append(json.loads(line))
        where = _index[1].get(table)
        if where is None:
            return None
        f.seek(_index[0] + where[0])
        data = f.read(where[1])
    if table[-1] == "-" and table[:-1] in SPLIT_TOTAL:
        data = _key_set(data)
    _loaded.clear()  # keep one table in RAM
    _loaded[table] = data
    return data


def _key_set(data):
    """Length-prefixed keys -> a set of keys (losing positions)."""
    keys = set()
    i = 0
    while i < len(data):
        n = data[i]
        keys.add(bytes(data[i + 1 : i + 1 + n]))
        i += 1 + n
    return keys


def value(rules, heaps, misere, ring=False):
    """0 if the player to move loses, else nim-value (normal) or 1 (misère).

    None when no table covers this position.
    """
    table = name(rules, misere)
    if table is None or ring or not covers(rules, heaps):
        return None
    data = _table(table)
    if data is None:
        return None
    if isinstance(data, set):
        return 0 if rules.key(heaps) in data else 1
    return data[rank(heaps)]
