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
``pad-subtract``: the stock board's lowest heap).
"""

from . import nim  # noqa: F401 - each class here is built on it (``rules.LOADS`` loads it first)


def __getattr__(name):
    """``heaps.Moore``: the class a registry line of this module names, from
    its own module (the class's name in lower case), imported now (only it)."""
    from .rules import REGISTRY

    package = __name__[: __name__.rfind(".")]  # nimatron.games, wherever the package sits
    for line in REGISTRY:
        words = line.split()
        if words[1] == __name__[len(package) + 1 :] and words[2] == name:
            return getattr(__import__(package + "." + name.lower(), None, None, (name,)), name)
    raise AttributeError(name)
