# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Graph Nim on the lamps (the seeds: "the starting board is a disconnected
graph, and players take turns removing adjacent vertices").

Read here as: the vertices are the lit lamps of a grid board, two lamps
joined when they are neighbours in a row or a column (no diagonals). A move
of ``graph:K`` puts out 1 to K lit lamps that are connected to each other
(K = 2 by default: one lamp, or two neighbouring lamps); whoever puts out
the last lamp wins (misère: loses). A position is a 0/1 matrix, as in
two-dimensional Nim (settings: row bitmasks, bit c = column c); what the
two share is in ``grid``, so a board playing Graph Nim never loads ``nim2d``.

Putting lamps out never joins two groups, so in normal play the position
is the sum of its groups of connected lamps: the nim-value is the XOR of
the groups' values (Sprague-Grundy), each searched once and memoised on the
group's shape moved to the top-left corner. Misère play is no sum: the
whole position is searched bottom-up over every subset of its lit lamps
(a bytearray of 2**lamps, 4 KB for 12 lamps).

``solve`` also takes any graph, ``{"nodes": [...], "edges": [[a, b], ...]}``:
``anygraph.NetGraph``, imported only then (a board never needs it).
"""

from .. import const
from . import grid
from .budget import spend
from .grid import GridRules, _cell_bits, _largest_group as largest_group, _mask, _near, _split
from .rules import SMALL, RulesError, SizeError

MAX_K = 4
GROUP_LAMPS = (12, 8)  # normal play, the largest group searched: a PC (about a second), a board
MISERE_LAMPS = (16, 12)  # misère, every lit lamp at once: a PC, a board (a 4 KB bytearray)
_SUBSETS_A_SPEND = const(16)  # misère table rows filled between two ``spend`` calls (a unit each)

# The misère table being filled, kept so a search that ran out of a tick's
# budget goes on where it stopped (and the last finished one, for EXPLAIN
# and the hint): [key, win bytearray, next subset to fill, the moves].
_table = [None, None, 0, None]  # type: list
# Normal play's theory going through one position's moves, kept so an EXPLAIN
# or a hint whose tick's budget ran out goes on at the next move instead of
# looking at every move again (the groups' values stay in ``grid``'s memo,
# but looking them up for 50 moves was 0.2 s on a Pico, in one tick):
# [(rules, lamps, width), the moves (cuts), next move to look at, winning cuts].
_walk = [None, None, 0, None]  # type: list


def _limit(limits):
    return limits[1] if SMALL else limits[0]


class Graph(GridRules):
    name = "graph"
    takes_k = True
    default_k = 2
    about = "put out 1 to k lamps that touch each other in a row or a column"

    def __init__(self, k=2):
        if not 1 <= k <= MAX_K:
            raise RulesError("graph:K takes 1 <= K <= %d, got %d" % (MAX_K, k))
        GridRules.__init__(self, k)

    def moves(self, matrix, ring=False):
        mask, width = _mask(matrix)
        for cut in connected_sets(mask, width, self.k):
            yield self._cut(matrix, cut)

    def cuts(self, mask, width):
        return connected_sets(mask, width, self.k)

    def searchable(self, matrix, ring=False):
        return largest_group(matrix) <= _limit(GROUP_LAMPS)

    def size_error(self, matrix, misere):
        if misere:
            return SizeError(
                "%s misere: %d lit lamps is too many to search here (at most %d)"
                % (self.spec, lit(matrix), _limit(MISERE_LAMPS))
            )
        return SizeError(
            "%s: a group of %d connected lamps is too large to search here (at most %d)"
            % (self.spec, largest_group(matrix), _limit(GROUP_LAMPS))
        )

    def covers(self, matrix, misere):
        """Whether theory answers every position from ``matrix``, asked
        without searching (``panels.playable``): normal play searches its
        groups within their limit; misere play the whole, within its own
        (beyond it, the SizeError that says so)."""
        if misere:
            if _bits(self._board(matrix)[0]) > _limit(MISERE_LAMPS):
                raise self.size_error(matrix, True)
            return True
        return self.searchable(matrix)

    def groups(self, matrix):
        """(lamps, nim-value) of each group of connected lit lamps."""
        mask, width = _mask(matrix)
        out = []
        for group in _split(mask, width):
            out.append((_bits(group), grid._value(home(group, width), width, False, self.cuts, self.k)))
        return out

    def nimber(self, matrix, ring=False):
        if not self.searchable(matrix):
            return None
        x = 0
        for _, value in self.groups(matrix):
            x ^= value
        return x

    def theory(self, matrix, misere, ring=False):
        if misere:  # searched whole, within its own limit (SizeError), not the normal-play group's
            return self._misere_wins(matrix)
        if not self.searchable(matrix):
            return None
        mask, width = self._board(matrix)
        key = (self.spec, mask, width)
        if _walk[0] != key:
            if self._cut_value(matrix, mask, width, 0) == 0:
                return []
            _walk[0], _walk[1], _walk[2], _walk[3] = key, connected_sets(mask, width, self.k), 0, []
        cuts = _walk[1]
        while _walk[2] < len(cuts):
            cut = cuts[_walk[2]]
            if self._cut_value(matrix, mask, width, cut) == 0:
                _walk[3].append(cut)
            _walk[2] += 1
            spend(3)  # a move looked at, its groups' values known or not: as a move of a new position
        return [self._cut(matrix, cut) for cut in _walk[3]]

    def _cut_value(self, matrix, mask, width, cut):
        """The nim-value once the lamps ``cut`` are out (``anygraph``: a graph's)."""
        x = 0
        for group in _split(mask & ~cut, width):
            x ^= grid._value(home(group, width), width, False, self.cuts, self.k)
        return x

    def _cut(self, matrix, cut):
        """The position once the lamps ``cut`` are out (``anygraph``: a graph's)."""
        width = len(matrix[0])
        after = [list(row) for row in matrix]
        for r in range(len(matrix)):
            for c in range(width):
                if cut >> (r * width + c) & 1:
                    after[r][c] = 0
        return after

    def _board(self, matrix):
        """(what is in play, width): a grid's; ``anygraph`` a graph's."""
        return _mask(matrix)

    def _misere_wins(self, matrix):
        """Winning moves in misère play: every subset of the lit lamps,
        smallest first (a move only lowers the subset's index)."""
        mask, width = self._board(matrix)
        cells = _cell_bits(mask)
        n = len(cells)
        if n > _limit(MISERE_LAMPS):
            raise self.size_error(matrix, True)
        local = []  # each move as a subset of the lamps' own numbering
        cuts = connected_sets(mask, width, self.k)
        for cut in cuts:
            bits = 0
            for j in range(n):
                if cut & cells[j]:
                    bits |= 1 << j
            local.append(bits)
        win = _misere_table((self.name, self.k, mask, width), n, local)
        full = (1 << n) - 1
        wins = []
        for j in range(len(local)):
            if not win[full ^ local[j]]:
                wins.append(self._cut(matrix, cuts[j]))  # only the winning moves' positions are made
        return wins


def _misere_table(key, n, local):
    """win[subset] for every subset of the n lit lamps, filled smallest first
    (a move only lowers the subset's index), resumed if a tick's budget ran
    out while filling it for the same position."""
    if _table[0] != key:
        win = bytearray(1 << n)
        win[0] = 1  # no lamp left: the other player put out the last one
        _table[0], _table[1], _table[2], _table[3] = key, win, 1, local
    win = _table[1]
    subset = _table[2]
    end = 1 << n
    while subset < end:
        stop = min(subset + _SUBSETS_A_SPEND, end)
        spend(stop - subset)  # a position examined is a unit, as in the other searches
        while subset < stop:
            for cut in local:
                if cut & subset == cut and not win[subset ^ cut]:
                    win[subset] = 1
                    break
            subset += 1
        _table[2] = subset
    return win


def connected_sets(mask, width, k):
    """Every set of 1 to k lit cells connected to each other, as bitmasks,
    each once, smallest first, in a fixed order (``width``: a grid's, or a
    graph's neighbours, as ``grid._near`` reads them)."""
    out = []
    seen = {}
    level = _cell_bits(mask)
    for size in range(1, k + 1):
        grown = []
        for cut in level:
            if cut in seen:
                continue
            seen[cut] = True
            out.append(cut)
            if size == k:
                continue
            for bit in _cell_bits(cut):
                near = _near(bit, width) & mask & ~cut
                while near:
                    one = near & -near
                    near ^= one
                    grown.append(cut | one)
        level = grown
    return out


def home(group, width):
    """A group moved to the top-left corner: the same shape, the same memo key."""
    while group and not group & ((1 << width) - 1):
        group >>= width  # up a row
    column = (1 << width) - 1
    left = 0
    probe = group
    col0 = 0
    while probe:
        col0 |= probe & column
        probe >>= width
    while col0 and not col0 & 1:
        col0 >>= 1
        left += 1
    return group >> left


def _bits(mask):
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


def lit(matrix):
    return _bits(_mask(matrix)[0])


def forget():
    """Drop the misère table and the groups' values (``strategy.forget``):
    built again when asked."""
    grid.forget()
    _table[0] = None
    _table[1] = None
    _table[2] = 0
    _table[3] = None
    _walk[0] = None
    _walk[1] = None
    _walk[3] = None
