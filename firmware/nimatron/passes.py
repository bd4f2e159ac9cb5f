# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""What a pass of the main loop has done to the heap: collected it, read it.

A pass is the controller's ``update`` then the host link's ``poll``
(``startup.Machine.tick``). On a stock CircuitPython board a collection is
most of a pass and a module's load more (it collects too: py/builtinimport.c),
so the link, last in the pass, leaves a command's step to the next pass when
this one has collected, or drawn on a display (``busy``). Reading what is free costs a whole
walk of the heap's allocation table (``gc_info``; figures: docs/board.md),
so a pass reads it once (``heap``). Boards only: a PC's search never asks.
"""

_swept = [0, -1, -1]  # [passes begun, the pass of the last collection or ``mark``, of the last ``due``]
_next = [None]  # type: list  # a collection asked for the next pass: True, or the list its figures go in
_heap = [0, 0, -2, None]  # [free, total (free + used), the pass read in, the gc module read]


def begin():
    """A pass of the main loop begins (``Controller.update``): first the
    collection asked for (``collect_next``)."""
    _swept[0] += 1
    due()


def end():
    """The link's poll ends a pass: its collection is not the next pass's."""
    _swept[0] += 1


def collect_next(into=None):
    """Collect first thing in the next pass (``begin``), before the
    controller allocates; the heap's figures read then are appended to
    ``into`` (free, used), if given. A collection the link made where its
    command was read met an allocation's own collection there (two in one
    pass: a stock pico-grid's ``MEMORY`` overran its pass)."""
    _next[0] = True if into is None else into


def due():
    """Make the collection asked for, if any; the link's ``room`` calls it
    too, for a loop that polls the link alone (tools, tests)."""
    into = _next[0]
    if into is not None:
        _next[0] = None
        collect()
        _swept[2] = _swept[0]
        figures = None if into is True else heap()
        if figures is not None:
            into.append(figures[0])
            into.append(figures[1] - figures[0])


def collect(gc=None):
    """``gc.collect()`` (of ``gc``, if given: a module's own, which tests
    replace), noted for this pass: the machine's collection and a module's
    load in one pass made a stock MacroPad's SET passes overrun."""
    if gc is None:
        import gc
    gc.collect()
    _swept[1] = _swept[0]
    _heap[2] = -2  # the heap's figures read afresh


def mark():
    """This pass has done another heavy thing: the OLED's refresh of a line of
    text on a stock MacroPad met a module's load, and the pass overran."""
    _swept[1] = _swept[0]


def load(name):
    """Import ``nimatron.<name>`` as this pass's work, and say so (``mark``):
    CircuitPython collects the heap after each module's load
    (py/builtinimport.c), and the link's command in the same pass made a
    stock pico-grid's pass overrun (the operator menu's ``machine.deployed``
    and a press over the link)."""
    __import__("nimatron." + name)
    mark()


def busy():
    """True if this pass has collected (``collect``) or done another heavy
    thing (``mark``): the link's next step waits for the next pass."""
    return _swept[1] == _swept[0]


def own():
    """True if this pass made the collection asked for (``due``): the link's
    own, which its step waits out without counting it as its one wait for
    a busy pass (a lamp frame in the next pass met a module's load)."""
    return _swept[2] == _swept[0]


def heap(gc=None):
    """[free, total, ...] bytes of the heap (of ``gc``, if given), or None
    where the interpreter cannot say (CPython); the list is this module's own
    (no tuple a pass: attract mode makes no garbage,
    tests/test_micropython_controller.py). Read at most once a pass, and
    again after a collection: on CircuitPython 9 each ``gc.mem_free()`` walks
    the whole allocation table, most of a stock MacroPad's pass in
    attract mode, and a SET's pass read it two or three times. The total
    (free + used) is read once: a heap keeps it (CircuitPython 9's free
    counts what it could still grow by)."""
    if gc is None:
        import gc
    if _heap[2] != _swept[0] or _heap[3] is not gc:
        free = getattr(gc, "mem_free", None)
        if free is None:
            return None
        _heap[0] = free()
        if _heap[3] is not gc:
            _heap[1] = _heap[0] + gc.mem_alloc()
            _heap[3] = gc
        _heap[2] = _swept[0]
    return _heap


def heap_low(reserve, gc=None):
    """True if less than 1/``reserve`` of the heap is free, as this pass read
    it (``strategy.HEAP_RESERVE``: a search then keeps no memo, ``budget.low``)."""
    figures = heap(gc)
    return figures is not None and figures[0] * reserve < figures[1]


def loaded(package, before=()):
    """The modules of ``nimatron.<package>`` resident now and not in ``before``
    (what this gave earlier), named as ``nimatron.forget`` takes them: a step
    that loads some drops them again afterwards, ``forget(loaded(package,
    before))``. Here, not in the package's ``__init__``: the engine alone on a
    64 KB heap loads that one."""
    import sys

    head = "nimatron." + package + "."
    return [name[9:] for name in sys.modules if name[: len(head)] == head and name[9:] not in before]
