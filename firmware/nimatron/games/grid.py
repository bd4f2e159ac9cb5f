# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Rule sets played on a grid of lit cells: two-dimensional Nim (``nim2d``)
and Graph Nim (``graph``).

What they share: a position as a 0/1 matrix (in settings, rows as bitmasks,
bit c being column c), its checks and words, the groups of neighbouring lit
cells (removing cells never joins two groups) and the memoised search of a
group's value. Each game's moves and tables are in its own module, so Graph
Nim on a board never loads two-dimensional Nim's (nor the reverse).
"""

from .budget import spend
from .rules import SMALL, Rules, RulesError, mex

MAX_SIDE = 8  # the pico-grid's 8 x 8
_memo = {}  # type: dict[tuple, int]  # (misere, group mask, width) -> nim-value or win (0/1)


def _cells(matrix):
    return [(r, c) for r in range(len(matrix)) for c in range(len(matrix[r])) if matrix[r][c]]


class GridRules(Rules):
    """A rule set played on a grid of lit cells (a 0/1 matrix): reading,
    checking and wording a position; the moves are the subclass's."""

    teach = "groups"
    panel = "cells"
    reasoning = "groups"

    def check(self, position, ring=False):
        if ring:
            raise RulesError("only circular Nim has a ring")
        if not isinstance(position, (list, tuple)) or not position:
            raise RulesError(self.name + ": the position is a matrix of 0s and 1s, one list per row")
        if len(position) > MAX_SIDE:
            raise RulesError(self.name + ": at most %d rows" % MAX_SIDE)
        rows = []
        width = 1
        for row in position:
            if isinstance(row, int) and not isinstance(row, bool):
                if not 0 <= row < (1 << MAX_SIDE):
                    raise RulesError(self.name + ": a row bitmask is 0..%d, got %d" % ((1 << MAX_SIDE) - 1, row))
                bits = [(row >> c) & 1 for c in range(MAX_SIDE)]
                while len(bits) > 1 and not bits[-1]:
                    bits.pop()
                row = bits
            if not isinstance(row, (list, tuple)):
                raise RulesError(self.name + ": each row is a list of 0s and 1s")
            for x in row:
                if x not in (0, 1) or isinstance(x, float):
                    raise RulesError(self.name + ": cells are 0 (dark) or 1 (lit), got %r" % (x,))
            rows.append([1 if x else 0 for x in row])
            if len(row) > width:
                width = len(row)
        if width > MAX_SIDE:
            raise RulesError(self.name + ": at most %d columns" % MAX_SIDE)
        return [row + [0] * (width - len(row)) for row in rows]  # short rows: dark to the right

    def position_words(self, matrix, ring=False):
        """The lamps row by row: "1101 / 0110"."""
        return " / ".join(["".join([str(x) for x in row]) for row in matrix])

    def read_heap(self, text):
        """One row of the board typed as 0s and 1s: "1101"."""
        if not text or text.strip("01"):
            raise RulesError("%s: each row is a string of 0s and 1s, got %r" % (self.name, text))
        return [int(ch) for ch in text]

    def check_rows(self, position):
        """A position from a program (``solve --batch``): a rectangle of rows
        of 0s and 1s, nothing padded or read as a bitmask (the board's settings
        file may hold bitmask rows; a program asking the engine says what it means)."""
        if not isinstance(position, list) or not position or [row for row in position if not isinstance(row, list)]:
            raise RulesError("%s: the position is a list of rows, each a list of 0s and 1s" % self.name)
        widths = sorted({len(row) for row in position})
        if len(widths) != 1:
            raise RulesError(
                "%s: every row has the same number of cells, got rows of %s"
                % (self.name, ", ".join([str(w) for w in widths]))
            )

    def has_move(self, matrix, ring=False):
        for row in matrix:
            for x in row:
                if x:
                    return True
        return False

    def key(self, matrix, ring=False):
        return _mask(matrix)[0] * 16 + len(matrix[0])

    def gentle(self, matrix, ring=False):
        cells = _cells(matrix)
        after = [list(row) for row in matrix]
        r, c = cells[-1]
        after[r][c] = 0
        return after

    def search_nimber(self, matrix):
        # A board's win or loss comes from nim2d.bin; searching the whole
        # board for its nim-value as well (only for the report) took up to
        # 1.4 s of MicroPython and then ran out of memory, emptying the memo.
        return not SMALL


def _mask(matrix):
    width = len(matrix[0])
    mask = 0
    for r in range(len(matrix)):
        for c in range(width):
            if matrix[r][c]:
                mask |= 1 << (r * width + c)
    return mask, width


def _groups(matrix):
    """Bitmasks of the groups of neighbouring lit cells (4-connected)."""
    mask, width = _mask(matrix)
    return _split(mask, width)


def _split(mask, width):
    out = []
    left = mask
    while left:
        seed = left & -left
        group = seed
        grow = seed
        while grow:
            bit = grow & -grow
            grow ^= bit
            near = _near(bit, width) & left & ~group
            group |= near
            grow |= near
        out.append(group)
        left &= ~group
    return out


def _near(bit, width):
    """The cells beside one cell (bit) in its row and column. ``width`` may
    instead be a graph's neighbours (dict: node bit -> mask), for Graph Nim
    on any graph."""
    if type(width) is dict:
        return width[bit]
    i = _index(bit)
    near = (bit >> width) | (bit << width)
    if i % width:
        near |= bit >> 1
    if i % width != width - 1:
        near |= bit << 1
    return near


def _index(bit):
    i = 0
    while bit > 1:
        bit >>= 1
        i += 1
    return i


def _cell_bits(mask):
    """Each lit cell of a mask as a one-bit mask, lowest first."""
    cells = []
    while mask:
        bit = mask & -mask
        mask ^= bit
        cells.append(bit)
    return cells


def _segments(mask, width):
    """Every move from a mask: bitmasks of runs of lit cells in a row or column."""
    out = []
    for bit in _cell_bits(mask):
        run = bit
        b = bit
        i = _index(bit)
        out.append(run)
        c = i % width
        while c < width - 1 and mask & (b << 1):  # along the row
            b <<= 1
            c += 1
            run |= b
            out.append(run)
        run = bit
        b = bit
        while mask & (b << width):  # down the column
            b <<= width
            run |= b
            out.append(run)
    return out


def _value(mask, width, misere, cuts=None, tag=0):
    """Normal play: the nim-value of one group. Misère: 1 if the player to
    move wins the whole position ``mask`` (not a sum: searched whole).
    ``cuts`` lists a position's moves (default: the runs of a row or a
    column); ``tag`` (0-7) keeps another game's values apart in the memo."""
    if cuts is None:
        cuts = _segments
    key = ((mask * 16 + width) * 2 + (1 if misere else 0)) * 8 + tag
    got = _memo.get(key)
    if got is not None:
        return got
    if len(_memo) > 200000:
        _memo.clear()
    segments = cuts(mask, width)
    if misere:
        got = 1 if not mask else 0  # no move left: the other player took the last cell
        for seg in segments:
            if not _value(mask & ~seg, width, True, cuts, tag):
                got = 1
                break
    else:
        seen = []
        for seg in segments:
            x = 0
            for group in _split(mask & ~seg, width):
                x ^= _value(group, width, False, cuts, tag)
            if x not in seen:
                seen.append(x)
        got = mex(seen)
    _memo[key] = got
    # A tick's share of the search (``budget``): a new position costs 3 units
    # a move, charged once it is known and kept, so every tick gets somewhere
    # however deep the search; positions known are free.
    spend(3 * len(segments) + 1)
    return got


def _largest_group(matrix):
    most = 0
    for group in _groups(matrix):
        n = 0
        while group:
            group &= group - 1
            n += 1
        if n > most:
            most = n
    return most


def forget():
    """Drop the groups' values (``nim2d.forget``, ``graph.forget``)."""
    _memo.clear()
