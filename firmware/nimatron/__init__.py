# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Nimatron: the 1940 Westinghouse Nim machine, recreated.

The core (rules, strategy, game flow, protocol) is pure Python shared by
CPython, MicroPython and CircuitPython; hardware lives in ``drivers``.
"""

__version__ = "0.1.0"


def const(value):
    """``micropython.const`` for every interpreter: ``_NAME = const(n)`` in a
    module is folded into its code by MicroPython's compiler, which keeps no
    name for it (CircuitPython never frees a name: docs/board.md)."""
    return value


# Where a package frozen into the firmware (``tools/build_firmware.sh``) finds
# its data files: only ``.py`` is frozen, and a frozen module's ``__file__`` is
# relative ("nimatron/__init__.py"); ``nimatron deploy --firmware`` puts them
# here. ``/lib`` comes after ``.frozen`` on CircuitPython's ``sys.path``, so
# this folder never hides the frozen package (a ``/nimatron`` folder would).
FROZEN_DATA = "/lib/nimatron/"


def frozen(path):
    """True if a package's ``__path__`` is CircuitPython's frozen-module entry
    (".frozen/nimatron"); CPython's ``__path__`` is a list."""
    return isinstance(path, str) and path[:8] == ".frozen/"


def resource(name):
    """Path of a data file shipped with the package (tables, pin maps)."""
    if frozen(globals().get("__path__")):
        return FROZEN_DATA + name
    here = __file__
    cut = max(here.rfind("/"), here.rfind("\\"))
    return here[: cut + 1] + name


def load_json(name):
    import json

    with open(resource(name)) as f:
        return json.load(f)


def too_deep(e):
    """Why a ``RuntimeError`` stopped ``load_json``, in words. CircuitPython
    raises ``RuntimeError("pystack exhausted")`` when its Python stack runs out
    (the start called too deep, whatever the file holds); CPython's
    ``RecursionError`` and MicroPython's recursion limit mean the file nests
    past the parser's limits."""
    if "pystack" in str(e):
        return "pystack exhausted while reading it (the start ran out of Python stack, not the file's fault)"
    return "nested too deeply"


def ascii_digits(text):
    """True if ``text`` is one or more of 0-9 (``str.isdigit`` also takes
    "²" and "١" on CPython, which ``int`` then reads or chokes on)."""
    if not text:
        return False
    for c in text:
        if c < "0" or c > "9":
            return False
    return True


def forget(names, collect=True):
    """On a board, drop modules from memory (imported again when asked for).

    Their bytecode lives in the heap of a small board; once nothing else
    refers to them, the collector frees it (now, unless ``collect`` is
    False: a pass with no time for it). CPython keeps them (tools and
    tests hold references, and memory is not short there)."""
    import sys

    if sys.implementation.name == "cpython":
        return
    for name in names:
        sys.modules.pop("nimatron." + name, None)
        package, _, leaf = name.rpartition(".")
        parent = sys.modules.get("nimatron." + package if package else "nimatron")
        if parent is not None and hasattr(parent, leaf):
            try:
                delattr(parent, leaf)  # not parent.__dict__: CircuitPython 8 modules have none
            except (AttributeError, TypeError):
                pass  # an interpreter that cannot: the module stays, a little heap is lost
    if collect:
        from .passes import collect as now

        now()  # now, before the controller's bytecode is laid out among the garbage
