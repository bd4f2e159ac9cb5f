# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The heap-taking variants of Nim that keep heap order, each known by its
theory where one exists (Bouton, Moore, Greedy Nim's parity, Wythoff); the
strategy searches where none does.

Each lives in a module of its own (``subtract``, ``moore``, ``greedy``,
``allheaps``), imported only when its class is asked for here: the
registry's lines (``rules.REGISTRY``) name this module, and
``rules_class("moore")`` reads ``heaps.Moore``, which imports
``games/moore.py`` and nothing of the other three. Whole, this module was
a whole module of ``.mpy`` beside a MacroPad's one rule set (``pad-moore``,
``pad-subtract``: the stock board's lowest heap). The registry's lines stay
as they are: changing one (same length) tipped the 64 KB MicroPython sweep
over its edge (tests/test_micropython.py).
"""

from . import nim  # noqa: F401 - each class here is built on it: a SET loads it first, a pass of its own (link.setting.NEEDS)

WHERE = {"Subtract": "subtract", "Moore": "moore", "Greedy": "greedy", "AllHeaps": "allheaps"}


def __getattr__(name):
    """``heaps.Moore``: the class, its own module imported now (only it)."""
    module = WHERE.get(name)
    if module is None:
        raise AttributeError(name)
    package = __name__[:__name__.rfind(".")]  # nimatron.games, wherever the package sits
    return getattr(__import__(package + "." + module, None, None, (name,)), name)
