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
faces' reasoning panel asks for it (boards never read that file).
"""

from .budget import spend
from .rules import SMALL, Rules, RulesError, SizeError, mex

TABLE = "games/nim2d.bin"
VALUES = "games/nim2d-values.bin"  # a PC's: the nim-value of every 4 x 4 position
TABLE_SIDE = 4        # boards up to 4 x 4 are in the table
MAX_SIDE = 8          # the pico-grid's 8 x 8
GROUP_CELLS = 16      # a PC searches groups of up to this many lit cells (about a second)
_memo = {}            # type: dict[tuple, int]  # (misere, group mask, width) -> nim-value or win (0/1)


def _cells(matrix):
    return [(r, c) for r in range(len(matrix)) for c in range(len(matrix[r])) if matrix[r][c]]


class Nim2D(Rules):
    name = "nim2d"
    panel = "cells"
    reasoning = "groups"
    about = "put out neighbouring lamps of one row or one column"

    def check(self, position, ring=False):
        if ring:
            raise RulesError("only circular Nim has a ring")
        if not isinstance(position, (list, tuple)) or not position:
            raise RulesError("nim2d: the position is a matrix of 0s and 1s, one list per row")
        if len(position) > MAX_SIDE:
            raise RulesError("nim2d: at most %d rows" % MAX_SIDE)
        rows = []
        width = 1
        for row in position:
            if isinstance(row, int) and not isinstance(row, bool):
                if not 0 <= row < (1 << MAX_SIDE):
                    raise RulesError("nim2d: a row bitmask is 0..%d, got %d" % ((1 << MAX_SIDE) - 1, row))
                bits = [(row >> c) & 1 for c in range(MAX_SIDE)]
                while len(bits) > 1 and not bits[-1]:
                    bits.pop()
                row = bits
            if not isinstance(row, (list, tuple)):
                raise RulesError("nim2d: each row is a list of 0s and 1s")
            for x in row:
                if x not in (0, 1) or isinstance(x, float):
                    raise RulesError("nim2d: cells are 0 (dark) or 1 (lit), got %r" % (x,))
            rows.append([1 if x else 0 for x in row])
            if len(row) > width:
                width = len(row)
        if width > MAX_SIDE:
            raise RulesError("nim2d: at most %d columns" % MAX_SIDE)
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
        if (not isinstance(position, list) or not position
                or [row for row in position if not isinstance(row, list)]):
            raise RulesError("%s: the position is a list of rows, each a list of 0s and 1s" % self.name)
        widths = sorted(set([len(row) for row in position]))
        if len(widths) != 1:
            raise RulesError("%s: every row has the same number of cells, got rows of %s"
                             % (self.name, ", ".join([str(w) for w in widths])))

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

    def searchable(self, matrix, ring=False):
        return _in_table(matrix) or (not SMALL and _largest_group(matrix) <= GROUP_CELLS)

    def size_error(self, matrix, misere):
        return SizeError("nim2d%s: a group of %d neighbouring lit cells is too large to search here"
                         % (" misere" if misere else "", _largest_group(matrix)))

    def nimber(self, matrix, ring=False):
        if not SMALL and _in_table(matrix) and type(self) is Nim2D:
            return _table_value(matrix)
        if SMALL or _largest_group(matrix) > GROUP_CELLS:
            return None
        x = 0
        for group in _groups(matrix):
            x ^= _value(group, len(matrix[0]), False)
        return x

    def search_nimber(self, matrix):
        # A board's win or loss comes from nim2d.bin; searching the whole
        # board for its nim-value as well (only for the report) took up to
        # 1.4 s of MicroPython and then ran out of memory, emptying the memo.
        return not SMALL

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


def _in_table(matrix):
    return len(matrix) <= TABLE_SIDE and len(matrix[0]) <= TABLE_SIDE


def _table_index(matrix):
    """The position on a 4 x 4 board: bit r*4+c."""
    index = 0
    for r in range(len(matrix)):
        for c in range(len(matrix[r])):
            if matrix[r][c]:
                index |= 1 << (r * TABLE_SIDE + c)
    return index


_file = None


def _table_wins(matrix, misere):
    """The winning moves of a board position, from nim2d.bin: each move as
    the bits it clears, in ``moves``' order, a matrix made only for a win
    (making one for every move cost a board's tick 70 ms)."""
    rows, cols = len(matrix), len(matrix[0])
    index = _table_index(matrix)
    wins = []
    for r in range(rows):
        for a in range(cols):
            b = a
            cut = 0
            while b < cols and matrix[r][b]:
                cut |= 1 << (r * TABLE_SIDE + b)
                if not _bit(index & ~cut, misere):
                    wins.append(_cleared(matrix, cut))
                b += 1
    for c in range(cols):
        for a in range(rows):
            b = a
            cut = 0
            while b < rows and matrix[b][c]:
                cut |= 1 << (b * TABLE_SIDE + c)
                if b > a and not _bit(index & ~cut, misere):
                    wins.append(_cleared(matrix, cut))
                b += 1
    return wins


def _cleared(matrix, cut):
    after = [list(row) for row in matrix]
    for r in range(len(after)):
        for c in range(len(after[r])):
            if cut >> (r * TABLE_SIDE + c) & 1:
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
    spend(3)  # a read of the flash file: about 1 ms on an RP2040 (``budget``), charged once it is kept
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
        for group in _split(index, TABLE_SIDE):
            x ^= _value(group, TABLE_SIDE, False)
        out[index] = x
    return bytes(out)


def build_table():
    """The bytes of nim2d.bin: win bits of every 4 x 4 position, normal then misère."""
    out = bytearray(2 * 8192)
    for misere in (False, True):
        for index in range(1 << 16):
            if misere:
                win = _value(index, TABLE_SIDE, True) == 1
            else:
                x = 0
                for group in _split(index, TABLE_SIDE):
                    x ^= _value(group, TABLE_SIDE, False)
                win = x != 0
            if win:
                bit = index + (1 << 16 if misere else 0)
                out[bit >> 3] |= 1 << (bit & 7)
    return bytes(out)


def forget():
    """Drop the groups' values and the table bits read (``strategy.forget``)."""
    _memo.clear()
    _bits.clear()
