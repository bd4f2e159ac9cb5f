# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Two-dimensional Nim (the seeds' "higher-dimensional Nim", n = 2).

A board of lit cells; a move puts out any number >= 1 of lit cells that
lie side by side in one row or one column (no dark cell between them).
A position is a 0/1 matrix, or (in settings) a list of row bitmasks, bit c
being column c. Removing cells never joins two groups, so the game is the
sum of its groups of neighbouring lit cells: the nim-value is the XOR of
the groups' values (Sprague-Grundy), each found by memoised search over
bitmasks. A board of 4 by 4 or smaller is answered on a small board from
``nim2d.bin`` (one bit per position: lost or won, normal then misère),
built by ``nimatron tables`` and checked by the tests. On a PC the
nim-value of such a board is read from ``nim2d-values.bin`` (a byte per
position), not searched: searching a full 4 x 4 board took 4-9 s, and the
faces' reasoning panel asks for it (boards never read that file). What it
shares with Graph Nim (a position's checks and words, the groups, the
memoised search of a group) is in ``grid``.
"""

from .. import const
from .budget import spend
from .grid import (  # noqa: F401 - the shared names, where the tests and tools have found them
    MAX_SIDE,
    GridRules,
    _cell_bits,
    _cells,
    _groups,
    _index,
    _largest_group,
    _mask,
    _memo,
    _near,
    _segments,
    _split,
    _value,
)
from .rules import SMALL, SizeError

TABLE = "games/nim2d.bin"
VALUES = "games/nim2d-values.bin"  # a PC's: the nim-value of every 4 x 4 position
_TABLE_SIDE = const(4)  # boards up to 4 x 4 are in the table
_GROUP_CELLS = const(16)  # a PC searches groups of up to this many lit cells (about a second)


class Nim2D(GridRules):
    name = "nim2d"
    about = "put out neighbouring lamps of one row or one column"

    def moves(self, matrix, ring=False):
        rows = len(matrix)
        cols = len(matrix[0])
        for r in range(rows):
            for a in range(cols):
                b = a
                while b < cols and matrix[r][b]:
                    after = [list(row) for row in matrix]
                    for c in range(a, b + 1):
                        after[r][c] = 0
                    yield after
                    b += 1
        for c in range(cols):
            for a in range(rows):
                b = a
                while b < rows and matrix[b][c]:
                    if b > a:  # single cells came with the rows
                        after = [list(row) for row in matrix]
                        for r in range(a, b + 1):
                            after[r][c] = 0
                        yield after
                    b += 1

    def searchable(self, matrix, ring=False):
        return _in_table(matrix) or (not SMALL and _largest_group(matrix) <= _GROUP_CELLS)

    def size_error(self, matrix, misere):
        return SizeError(
            "nim2d%s: a group of %d neighbouring lit cells is too large to search here"
            % (" misere" if misere else "", _largest_group(matrix))
        )

    def nimber(self, matrix, ring=False):
        if not SMALL and _in_table(matrix) and type(self) is Nim2D:
            return _table_value(matrix)
        if SMALL or _largest_group(matrix) > _GROUP_CELLS:
            return None
        x = 0
        for group in _groups(matrix):
            x ^= _value(group, len(matrix[0]), False)
        return x

    def groups(self, matrix):
        """(lamps, nim-value) of each group of neighbouring lit cells (the
        lesson's words); None where ``nimber`` would not search them."""
        table = not SMALL and _in_table(matrix) and type(self) is Nim2D  # each group alone: a table position too
        if SMALL or not table and _largest_group(matrix) > _GROUP_CELLS:
            return None
        width = len(matrix[0])
        out = []
        for group in _groups(matrix):
            if table:
                alone = [[group >> (r * width + c) & 1 for c in range(width)] for r in range(len(matrix))]
                out.append((bin(group).count("1"), _table_value(alone)))
            else:
                out.append((bin(group).count("1"), _value(group, width, False)))
        return out

    def theory(self, matrix, misere, ring=False):
        if not self.searchable(matrix):
            return None
        if self.wins(matrix, misere) is False:
            return []
        if _in_table(matrix) and type(self) is Nim2D:
            return _table_wins(matrix, misere)
        wins = []
        for after in self.moves(matrix):
            if not self.wins(after, misere):
                wins.append(after)
        return wins

    def wins(self, matrix, misere):
        """True if the player to move wins (table on a board, else search)."""
        if _in_table(matrix):
            return _table_bit(matrix, misere)
        if not misere:
            return self.nimber(matrix) != 0
        mask, width = _mask(matrix)
        return _value(mask, width, True) == 1


def _in_table(matrix):
    return len(matrix) <= _TABLE_SIDE and len(matrix[0]) <= _TABLE_SIDE


def _table_index(matrix):
    """The position on a 4 x 4 board: bit r*4+c."""
    index = 0
    for r in range(len(matrix)):
        for c in range(len(matrix[r])):
            if matrix[r][c]:
                index |= 1 << (r * _TABLE_SIDE + c)
    return index


_file = None


def _table_wins(matrix, misere):
    """The winning moves of a board position, from nim2d.bin: each move as
    the bits it clears, in ``moves``' order, a matrix made only for a win
    (making one for every move cost a board's tick more than its budget)."""
    rows, cols = len(matrix), len(matrix[0])
    index = _table_index(matrix)
    wins = []
    for r in range(rows):
        for a in range(cols):
            b = a
            cut = 0
            while b < cols and matrix[r][b]:
                cut |= 1 << (r * _TABLE_SIDE + b)
                if not _bit(index & ~cut, misere):
                    wins.append(_cleared(matrix, cut))
                b += 1
    for c in range(cols):
        for a in range(rows):
            b = a
            cut = 0
            while b < rows and matrix[b][c]:
                cut |= 1 << (b * _TABLE_SIDE + c)
                if b > a and not _bit(index & ~cut, misere):
                    wins.append(_cleared(matrix, cut))
                b += 1
    return wins


def _cleared(matrix, cut):
    after = [list(row) for row in matrix]
    for r in range(len(after)):
        for c in range(len(after[r])):
            if cut >> (r * _TABLE_SIDE + c) & 1:
                after[r][c] = 0
    return after


_bits = {}  # type: dict[int, int]  # table index -> win bit, read lately: a decision a tick's budget cut short resumes cheaply


def _table_bit(matrix, misere):
    return _bit(_table_index(matrix), misere)


def _bit(position, misere):
    """The win bit of a 4 x 4 position (bit r*4+c) from nim2d.bin."""
    global _file
    index = position + (1 << 16 if misere else 0)
    got = _bits.get(index)
    if got is not None:
        return got
    if _file is None:
        from .. import resource

        _file = open(resource(TABLE), "rb")
    _file.seek(index >> 3)
    got = bool(_file.read(1)[0] >> (index & 7) & 1)
    if len(_bits) > 200:
        _bits.clear()
    _bits[index] = got
    spend(3)  # a read of the flash file costs more than a position (``budget``), charged once it is kept
    return got


_values = []  # type: list  # the bytes of nim2d-values.bin, once read (a PC's)


def _table_value(matrix):
    """The nim-value of a position of up to 4 x 4 from nim2d-values.bin."""
    if not _values:
        from .. import resource

        with open(resource(VALUES), "rb") as f:
            _values.append(f.read())
    return _values[0][_table_index(matrix)]


def build_values():
    """The bytes of nim2d-values.bin: the nim-value of every 4 x 4 position (normal play)."""
    out = bytearray(1 << 16)
    for index in range(1 << 16):
        x = 0
        for group in _split(index, _TABLE_SIDE):
            x ^= _value(group, _TABLE_SIDE, False)
        out[index] = x
    return bytes(out)


def build_table():
    """The bytes of nim2d.bin: win bits of every 4 x 4 position, normal then misère."""
    out = bytearray(2 * 8192)
    for misere in (False, True):
        for index in range(1 << 16):
            if misere:
                win = _value(index, _TABLE_SIDE, True) == 1
            else:
                x = 0
                for group in _split(index, _TABLE_SIDE):
                    x ^= _value(group, _TABLE_SIDE, False)
                win = x != 0
            if win:
                bit = index + (1 << 16 if misere else 0)
                out[bit >> 3] |= 1 << (bit & 7)
    return bytes(out)


def forget():
    """Drop the groups' values and the table bits read (``strategy.forget``)."""
    _memo.clear()
    _bits.clear()
