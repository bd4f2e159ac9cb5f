"""Exhaustive game-tree oracle for the Nimatron strategy tests.

Written from the rules alone: it shares no code with ``nimatron`` and uses no
theory (no nim-sums, no closed forms), only the definition of each game, a
plain search and a dict memo. It is slow on purpose and small enough to trust.

    >>> o = Oracle("nim")
    >>> o.win([1, 2, 3]), o.sg([1, 2, 3]), o.win([1, 1], misere=True)
    (False, 0, True)
    >>> sorted(Oracle("grundy").moves([6]))
    [(1, 5), (2, 4)]

Positions
  * ordered rules (nim, subtract:K, moore:K, greedy, allheaps): a list of heap
    sizes; a move keeps the length and heaps may fall to 0. ``moves`` returns
    tuples in the same heap order.
  * grundy and circular: a multiset of heaps / rows, canonically a sorted
    tuple of the parts >= 1. A circle of n objects is ``ring=True`` with the
    position ``[n]``.

Written in the subset shared by CPython and MicroPython (no functools,
itertools, typing or dataclasses; no int.bit_length), so the MicroPython test
runner uses the very same oracle.
"""

ORDERED_RULES = ("nim", "subtract", "moore", "greedy", "allheaps")
MULTISET_RULES = ("grundy", "circular")
NEEDS_K = ("subtract", "moore")


def parse_spec(spec):
    """"moore:2" -> ("moore", 2); "nim" -> ("nim", None)."""
    if ":" in spec:
        name, arg = spec.split(":", 1)
        k = int(arg)
    else:
        name, k = spec, None
    if name not in ORDERED_RULES and name not in MULTISET_RULES:
        raise ValueError("oracle does not know rules %r" % spec)
    if (name in NEEDS_K) != (k is not None) or (k is not None and k < 1):
        raise ValueError("bad rules spec %r" % spec)
    return name, k


def mex(values):
    n = 0
    while n in values:
        n += 1
    return n


def multiset(parts):
    """Canonical multiset: sorted tuple of the parts >= 1."""
    return tuple(sorted([p for p in parts if p > 0]))


# ---------------------------------------------------------------- move lists

def _nim_moves(hs):
    for i in range(len(hs)):
        for v in range(hs[i]):
            yield hs[:i] + (v,) + hs[i + 1:]


def _subtract_moves(hs, k):
    for i in range(len(hs)):
        low = hs[i] - k
        if low < 0:
            low = 0
        for v in range(low, hs[i]):
            yield hs[:i] + (v,) + hs[i + 1:]


def _moore_moves(hs, k, i=0, changed=0):
    """Every way to lower 1..k distinct heaps, each by any amount >= 1."""
    if i == len(hs):
        if changed:
            yield hs
        return
    # leave heap i alone
    for after in _moore_moves(hs, k, i + 1, changed):
        yield after
    if changed < k:
        for v in range(hs[i]):
            lowered = hs[:i] + (v,) + hs[i + 1:]
            for after in _moore_moves(lowered, k, i + 1, changed + 1):
                yield after


def _greedy_moves(hs):
    top = 0
    for h in hs:
        if h > top:
            top = h
    for i in range(len(hs)):
        if hs[i] == top and top > 0:
            for v in range(top):
                yield hs[:i] + (v,) + hs[i + 1:]


def _allheaps_moves(hs):
    for after in _nim_moves(hs):
        yield after
    if len(hs) > 1:  # with one heap the "every heap" move is a nim move
        low = hs[0]
        for h in hs:
            if h < low:
                low = h
        for t in range(1, low + 1):
            yield tuple([h - t for h in hs])


def _grundy_moves(parts):
    """parts: sorted tuple. Split one heap into two unequal non-empty heaps."""
    done = []
    for i in range(len(parts)):
        h = parts[i]
        if h in done:
            continue
        done.append(h)
        rest = parts[:i] + parts[i + 1:]
        a = 1
        while a < h - a:
            yield multiset(rest + (a, h - a))
            a += 1


def _row_moves(parts):
    """parts: sorted tuple of rows. Take 1..3 adjacent objects from a row."""
    done = []
    for i in range(len(parts)):
        n = parts[i]
        if n in done:
            continue
        done.append(n)
        rest = parts[:i] + parts[i + 1:]
        for t in (1, 2, 3):
            if t > n:
                break
            left = 0
            while left <= n - t - left:  # the mirror image gives the same
                yield multiset(rest + (left, n - t - left))
                left += 1


def _ring_moves(n):
    """A circle of n: taking t adjacent objects leaves one row of n - t."""
    for t in (1, 2, 3):
        if t <= n:
            yield multiset((n - t,))


# ---------------------------------------------------------------- the oracle

class Oracle:
    """Win/loss and Sprague-Grundy values of one rule set by full search."""

    def __init__(self, spec):
        self.spec = spec
        self.name, self.k = parse_spec(spec)
        self.ordered = self.name in ORDERED_RULES
        self._sg = {}
        self._misere = {}

    def _raw_moves(self, pos):
        """Successors of a tuple position (ordered, or sorted multiset)."""
        name = self.name
        if name == "nim":
            return _nim_moves(pos)
        if name == "subtract":
            return _subtract_moves(pos, self.k)
        if name == "moore":
            return _moore_moves(pos, self.k)
        if name == "greedy":
            return _greedy_moves(pos)
        if name == "allheaps":
            return _allheaps_moves(pos)
        if name == "grundy":
            return _grundy_moves(pos)
        return _row_moves(pos)

    def moves(self, position, ring=False):
        """Every position reachable in one move, each once, as tuples."""
        if ring:
            self._check_ring(position)
            src = _ring_moves(position[0])
        elif self.ordered:
            src = self._raw_moves(tuple(position))
        else:
            src = self._raw_moves(multiset(position))
        out = []
        seen = set()
        for after in src:
            if after not in seen:
                seen.add(after)
                out.append(after)
        return out

    def _check_ring(self, position):
        if self.name != "circular" or len(position) != 1:
            raise ValueError("a ring is one circle of circular nim")

    def is_move(self, before, after, ring=False):
        """Is ``after`` reachable from ``before`` in one legal move?

        Ordered rules compare heap by heap (a direct reading of the rule,
        cross-checked against ``moves`` in the tests); grundy and circular
        compare canonical multisets.
        """
        if ring or not self.ordered:
            return multiset(after) in self.moves(before, ring)
        if len(after) != len(before):
            return False
        diffs = []
        for i in range(len(before)):
            a = after[i]
            if type(a) is not int or a < 0 or a > before[i]:
                return False
            diffs.append(before[i] - a)
        changed = [i for i in range(len(diffs)) if diffs[i] > 0]
        if not changed:
            return False
        name = self.name
        if name == "nim":
            return len(changed) == 1
        if name == "subtract":
            return len(changed) == 1 and diffs[changed[0]] <= self.k
        if name == "moore":
            return len(changed) <= self.k
        if name == "greedy":
            return len(changed) == 1 and before[changed[0]] == max(before)
        # allheaps: one heap, or the same amount from every heap
        if len(changed) == 1:
            return True
        if len(changed) != len(before):
            return False
        for d in diffs:
            if d != diffs[0]:
                return False
        return True

    def _canon(self, position):
        """The position as the search sees it: a sorted tuple (every rule
        here is symmetric in its heaps); Grundy heaps of 1 and 2 never move,
        so they are dropped."""
        if self.ordered:
            return tuple(sorted(position))
        if self.name == "grundy":
            return tuple(sorted([p for p in position if p > 2]))
        return multiset(position)

    def _key(self, canon):
        """A small int naming a canonical position, for the memo.

        Int keys keep a MicroPython heap from fragmenting (tuple keys live
        forever, scattered between the garbage). Ordered rules: one base-256
        digit per heap, heap + 1 (so the heap count is implied). Multisets:
        a 1 bit, then for each part p, p one bits and a zero bit.
        """
        if self.ordered:
            key = 0
            for h in canon:
                if h > 254:
                    return canon  # big heaps: a tuple key, still exact
                key = key * 256 + h + 1
            return key
        key = 1
        for p in canon:
            key = ((key << p) | ((1 << p) - 1)) << 1
        return key

    def _sg_canon(self, canon):
        memo = self._sg
        key = self._key(canon)
        if key in memo:
            return memo[key]
        seen = set()
        for after in self._raw_moves(canon):
            seen.add(self._sg_canon(self._canon(after)))
        value = mex(seen)
        memo[key] = value
        return value

    def _misere_canon(self, canon):
        """True when the player to move wins misere play."""
        memo = self._misere
        key = self._key(canon)
        if key in memo:
            return memo[key]
        value = True  # no move at all: the previous player moved last, lost
        for after in self._raw_moves(canon):
            value = False
            if not self._misere_canon(self._canon(after)):
                value = True
                break
        memo[key] = value
        return value

    def sg(self, position, ring=False):
        """Sprague-Grundy value in normal play."""
        if ring:
            self._check_ring(position)
            seen = set()
            for after in _ring_moves(position[0]):
                seen.add(self._sg_canon(self._canon(after)))
            return mex(seen)
        return self._sg_canon(self._canon(position))

    def win(self, position, misere=False, ring=False):
        """Does the player to move win with perfect play?"""
        if not misere:
            return self.sg(position, ring) != 0
        if ring:
            self._check_ring(position)
            value = True
            for after in _ring_moves(position[0]):
                value = False
                if not self._misere_canon(self._canon(after)):
                    return True
            return value
        return self._misere_canon(self._canon(position))

    def winning_moves(self, position, misere=False, ring=False):
        """The moves that leave the opponent lost."""
        return [a for a in self.moves(position, ring)
                if not self.win(a, misere)]

    def forget(self):
        """Drop the memo (frees memory on a small heap)."""
        self._sg = {}
        self._misere = {}


# ------------------------------------------------------------ position lists

def ordered_positions(max_heaps, max_size, min_heaps=1):
    """Every list of min_heaps..max_heaps heaps of 0..max_size, all orders."""
    for n in range(min_heaps, max_heaps + 1):
        hs = [0] * n
        while True:
            yield list(hs)
            i = n - 1
            while i >= 0 and hs[i] == max_size:
                hs[i] = 0
                i -= 1
            if i < 0:
                break
            hs[i] += 1


def partitions(max_total, min_total=1, largest=None):
    """Every multiset of parts >= 1 with min_total <= total <= max_total,
    as a non-increasing list."""
    for total in range(min_total, max_total + 1):
        for p in _partitions_of(total, total if largest is None else largest):
            yield p


def _partitions_of(total, largest):
    if total == 0:
        yield []
        return
    top = largest if largest < total else total
    for first in range(top, 0, -1):
        for rest in _partitions_of(total - first, first):
            yield [first] + rest


def grundy_heap_values(limit):
    """Sprague-Grundy values of single heaps 0..limit of Grundy's game.

    A split leaves two independent heaps, so by the Sprague-Grundy theorem
    its value is the XOR of theirs; the tests check this against the full
    multiset search wherever that search is affordable.
    """
    g = [0] * (limit + 1)
    for n in range(3, limit + 1):
        seen = set()
        a = 1
        while a < n - a:
            seen.add(g[a] ^ g[n - a])
            a += 1
        g[n] = mex(seen)
    return g
