# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Rule sets: which moves are legal, and what theory knows about each game.

A position is a list of heap sizes. Each rule set is one small class that
generates the positions reachable in one move (``moves``) and, where the
mathematics is known, answers directly (``theory``). Misère play is not a
copy of a rule set: the search treats it as a hook on the terminal position,
and theories that know misère play say so in ``theory``.

    >>> from nimatron.games.rules import parse_rules
    >>> rules = parse_rules("subtract:3")
    >>> list(rules.moves([2, 5]))[:3]
    [[2, 4], [2, 3], [2, 2]]

Pure Python in the subset shared by CPython, MicroPython and CircuitPython.
"""

import sys

from .. import ascii_digits

MAX_HEAP = 65535
MAX_HEAPS = 32
# A board's heap is small: search far less there than on a PC (beyond the
# exhibit-size tables, a board answers by theory or says the position is
# too large; it never runs out of memory half-way through a search).
SMALL = sys.implementation.name != "cpython"


class RulesError(ValueError):
    """Unknown rules, or a position that is not a position."""


class SizeError(RulesError):
    """A position beyond what this rule set can solve on this machine."""


def nim_sum(heaps):
    """The nim-sum (binary digital sum without carries) of the heaps."""
    total = 0
    for h in heaps:
        total ^= h
    return total


def mex(values):
    """Minimum excludant: the least non-negative int not in ``values``."""
    n = 0
    while n in values:
        n += 1
    return n


def states(heaps):
    """How many unordered positions lie at or below ``heaps`` (search size)."""
    n = len(heaps)
    top = max(heaps) if heaps else 0
    count = 1
    for i in range(1, n + 1):  # C(top + n, n), exactly, without math.comb
        count = count * (top + i) // i
    return count


class Rules:
    """Base class: one game of taking from heaps. Subclasses override hooks.

    ``name`` and ``k`` round-trip through ``spec`` ("subtract:3").
    ``ordered`` says whether a position keeps its heap order (heaps may fall
    to 0) or is a multiset of parts >= 1 (Grundy's game, circular Nim).
    ``search_states`` caps exhaustive search: beyond it, a position needs a
    theory or is refused with SizeError instead of hanging the machine.
    """

    name = ""
    ordered = True
    takes_k = False
    default_k = None  # type: int | None  # the K of a bare name, for rules that have one
    has_ring = False
    search_states = 2000
    about = ""
    last_move = "takes the last lamp"  # the goal in words: "whoever takes the last lamp wins"
    removes = True  # a move puts lamps out for good (Grundy's game only moves them)
    # What the rest of the machine asks a rule set instead of testing its name:
    panel = "heaps"  # its lamps: heaps (rows), ring, cells, supply (a row to place), tally, splits
    one_row = False  # every move takes from one row: one button per row can play it
    countable = False  # one heap of it can be played as a binary counter
    nim_sum = False  # the binary nim-sum is the whole explanation (plain Nim)
    reasoning = None  # type: str | None  # Nimrod's panel: "nim", "values" (one per heap), "groups", "moore", "building"
    teach = None  # type: str | None  # its lesson (games/lesson.py): "subtract", "columns", "values", ...
    dead_below = 1  # parts smaller than this never move again (Grundy's 1s and 2s)

    def starts_for(self, layout):
        """Starts to try, largest first, when these rules are chosen for lamps
        in rows of ``layout`` without a start: every row full, then one heap
        as long as a row, shorter and shorter."""
        return [list(layout)] + [[h] for h in range(max(layout), 0, -1)]

    def most_parts(self, heaps):
        """The most heaps a position reachable from ``heaps`` can have (taking never adds one)."""
        return len(heaps)

    def __init__(self, k=None):
        self.k = k
        if k is not None and " k " in self.about:  # "take 1 to k from one heap" -> "1 to 3"
            self.about = self.about.replace(" k ", " %d " % k)

    @property
    def spec(self):
        return self.name if self.k is None else "%s:%d" % (self.name, self.k)

    def __repr__(self):
        return "<Rules %s>" % self.spec

    # -- validation -------------------------------------------------------
    def check(self, position, ring=False):
        """Return the position as a fresh list, or raise RulesError."""
        if not isinstance(position, (list, tuple)):
            raise RulesError("position must be a list of heap sizes")
        if not position:
            raise RulesError("position needs at least one heap")
        if len(position) > MAX_HEAPS:
            raise RulesError("at most %d heaps" % MAX_HEAPS)
        heaps = []
        for h in position:
            if isinstance(h, bool) or not isinstance(h, int):
                raise RulesError("heap sizes must be whole numbers, got %r" % (h,))
            if h < 0:
                raise RulesError("heap sizes cannot be negative, got %d" % h)
            if h > MAX_HEAP:
                raise RulesError("heap sizes stop at %d, got %d" % (MAX_HEAP, h))
            heaps.append(h)
        if ring and not self.has_ring:
            raise RulesError("only circular Nim has a ring")
        return heaps

    # -- moves ------------------------------------------------------------
    def moves(self, heaps, ring=False):
        """Yield every position reachable in one move (fresh lists)."""
        raise NotImplementedError

    def has_move(self, heaps, ring=False):
        for _ in self.moves(heaps, ring):
            return True
        return False

    def is_legal(self, before, after, ring=False):
        """True if ``after`` is reachable from ``before`` in one move."""
        if self.ordered:
            after = list(after)
            for m in self.moves(before, ring):
                if m == after:
                    return True
            return False
        target = self.key(after)
        for m in self.moves(before, ring):
            if self.key(m) == target:
                return True
        return False

    def gentle(self, heaps, ring=False):
        """A move for a lost position: take as little as possible.

        Leaving the most objects leaves the opponent the most chances to go
        wrong. Ties go to the move on the largest heap (generation order).
        """
        best = None
        best_total = -1
        for m in self.moves(heaps, ring):
            total = sum(m)
            if total > best_total:
                best, best_total = m, total
        return best

    # -- search support -----------------------------------------------------
    def key(self, heaps, ring=False):
        """Canonical memo key: positions with the same key play the same."""
        parts = sorted(h for h in heaps if h)
        if ring:
            return bytes([255] + parts)
        return bytes(parts)

    def searchable(self, heaps, ring=False):
        limit = self.search_states // 10 if SMALL else self.search_states
        return max(heaps) <= 250 and states(heaps) <= limit

    def size_error(self, heaps, misere):
        return SizeError(
            "%s%s: position too large to search (%d heaps, largest %d)"
            % (self.spec, " misere" if misere else "", len(heaps), max(heaps))
        )

    # -- theory hooks ---------------------------------------------------------
    def table_spec(self, misere):
        """Name of the precomputed exhibit-size table for this game, if any."""
        return None

    def nimber(self, heaps, ring=False):
        """Sprague-Grundy value by theory, or None when none is known."""
        return None

    def search_nimber(self, heaps):
        """Whether the engine may search for a nim-value ``nimber`` did not
        give (for the report only: the move never needs it)."""
        return True

    def theory(self, heaps, misere, ring=False):
        """Winning moves by theory: a list of after-positions ([] if lost),
        or None when no theory covers this position."""
        return None

    def losing_move(self, heaps, misere, ring=False):
        """The move to make in a lost position (``gentle`` unless a game
        has a second goal, such as Candy Nim's candies)."""
        return self.gentle(heaps, ring)

    def lesson(self, heaps, misere, ring, result):
        """The rule a pupil can carry home and how this position and the move
        ``result`` (``strategy.solve``'s) follow it: English sentences
        (``games/lesson.py``, loaded only when a position is explained)."""
        if self.teach is None:
            return []
        from .lesson import lesson

        return lesson(self, heaps, misere, ring, result)

    def notes(self, heaps, misere):
        """More words for the machine's reasoning (a second goal), if any."""
        return []

    # -- words: a rule set says its own positions (in English, the board's
    # language; the faces translate them by lang/*.json's phrases) -----------
    def position_words(self, position, ring=False):
        """A position in words: "3 4 5", "nothing" (a circle: ``splits``)."""
        return " ".join([str(h) for h in position]) or "nothing"


# The registry: every rule set, one line each, in the order the menus list
# them: its name, the module of ``games/`` that holds its class, the class,
# and the K its menus offer (none: the bare name). Every list of rule sets
# is derived from these lines (the operator menu, the faces' settings,
# ``nimatron tables``, the engraved panels, the docs' table), and only the
# module of a rule set in play is imported. (Lines of text: on a board they
# take less heap than tuples.)
REGISTRY = (
    # name     module    class     K offered
    "nim       nim       Nim",
    "subtract  heaps     Subtract  2 3 10",
    "moore     heaps     Moore     2",
    "greedy    heaps     Greedy",
    "allheaps  heaps     AllHeaps",
    "grundy    splits    Grundy",
    "circular  splits    Circular",
    "candy     candy     Candy",
    "nim2d     nim2d     Nim2D",
    "building  building  Building",
    "graph     graph     Graph     2 3",
)
# What each rule set loads beyond its line's module, in load order (each
# module after what it imports), for a board that loads one a pass: derived
# from the imports and the lines above by tools/memory_table.py, never by
# hand (tests/test_memory_table.py fails when it is stale and names the command).
LOADS = "subtract:nim,heaps,subtract moore:nim,heaps,moore greedy:nim,heaps,greedy allheaps:nim,heaps,allheaps candy:nim,candy nim2d:grid,nim2d building:nim,building graph:grid,graph"
MAX_K = 1000


def rules_class(name):
    """The class of a registered rule set, its module imported now (only it)."""
    for line in REGISTRY:
        words = line.split()
        if words[0] == name:
            break
    else:
        from .registry import usage  # the menus' reading of the lines: not resident on a board

        raise RulesError("unknown rules %r (choose from %s)" % (name, usage(REGISTRY)))
    module, cls = words[1], words[2]
    package = __name__[: __name__.rfind(".")]  # nimatron.games, wherever the package sits
    try:
        found = getattr(__import__(package + "." + module, None, None, (cls,)), cls, None)
    except ImportError as e:  # a drive deployed for row buttons goes without the grid's games
        raise RulesError("rules %r are not on this board (%s)" % (name, e))
    if found is None:
        raise RulesError(
            "rules %r: games/%s.py has no class %s (its registry line in games/rules.py names it)" % (name, module, cls)
        )
    return found


def rule_modules(spec):
    """The modules of ``games/`` the rule set of ``spec`` ("graph:2") loads, each
    after what it imports (["grid", "graph"]); [] for a name not registered."""
    if not isinstance(spec, str):
        return []
    name = spec.strip().partition(":")[0]
    for item in LOADS.split():
        split = item.partition(":")
        if split[0] == name:
            return split[2].split(",")
    for line in REGISTRY:
        words = line.split()
        if words[0] == name:
            return [words[1]]
    return []


def parse_rules(spec):
    """A Rules object from a spec such as "nim", "subtract:3" or a Rules."""
    if isinstance(spec, Rules):
        return spec
    if not isinstance(spec, str):
        raise RulesError("rules must be a name such as 'nim' or 'subtract:3'")
    name, sep, arg = spec.strip().partition(":")
    cls = rules_class(name)
    if not cls.takes_k:
        if sep:
            raise RulesError("rules %r take no number" % name)
        return cls()
    if not sep:
        if cls.default_k is not None:
            return cls(cls.default_k)  # "graph" is graph:2
        raise RulesError("rules %r need a number: %s:K" % (name, name))
    arg = arg.strip()
    if not ascii_digits(arg) or len(arg) > 6:
        raise RulesError("rules %s:K need a whole number K, got %r" % (name, arg[:12]))
    k = int(arg)
    if not 1 <= k <= MAX_K:
        raise RulesError("rules %s:K need 1 <= K <= %d, got %d" % (name, MAX_K, k))
    return cls(k)
