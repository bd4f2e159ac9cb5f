# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A search's work per main-loop tick, so no tick waits on a long decision.

Graph Nim and Candy Nim can search for a second or more on a board; the
main loop must keep blinking the thinking lamp, answering the host link and
feeding the watchdog meanwhile. The machine's turn gives the engine a
budget of work units for this tick (``start``); the searches ``spend``
them (a misère table row 1 unit, a new 2-D or Graph Nim position 3 a move,
a new Candy Nim position 4 a heap, each charged once it is known and kept,
so a tick always gets somewhere however deep the search: weighed on
CircuitPython 9.2.8 in the emulated Pico, docs/board.md), and raise ``Later`` when it is gone. What they learnt stays in their
memos (and the misère table's progress in ``graph``), so asking again next
tick goes on where it stopped. With no budget set (a PC's ``solve``, the
tests' oracle) searches run to the end, as before.

    budget.start(2000)
    try:
        result = strategy.solve(rules, heaps)
    except budget.Later:
        pass                     # still thinking: ask again next tick
    finally:
        budget.stop()
"""


class Later(Exception):
    """The search spent this tick's budget: ask again (it resumes, not restarts)."""


_left = [None, False]  # work units left this tick (None: unlimited); the heap low, as ``start`` was told
_spent = [0]  # units spent since ``start`` (for the tests and the benchmark)
_most = [0]  # the largest single ``spend`` since ``start``: how far a tick can overrun


def start(units, low=False):
    """This tick's budget; ``low``: the heap is below the search's reserve, as
    the pass read it (``strategy.HEAP_RESERVE``): a search then keeps no memo
    from earlier decisions and never reads the heap itself (a read walks the
    whole heap on a stock board, and a collection is most of a pass)."""
    _left[0] = units
    _left[1] = low
    _spent[0] = 0
    _most[0] = 0


def stop():
    _left[0] = None


def low():
    """None with no budget set (a PC's search reads the heap itself); else
    what ``start`` was told of the heap."""
    return None if _left[0] is None else _left[1]


def spent():
    return _spent[0]


def most():
    return _most[0]


def spend(units=1):
    """Count ``units`` of work; ``Later`` once this tick's budget is gone."""
    _spent[0] += units
    if units > _most[0]:
        _most[0] = units
    left = _left[0]
    if left is not None:
        left -= units
        _left[0] = left
        if left < 0:
            raise Later()
