# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""On a board, the rule set a game left behind leaves the heap too.

A ``SET preset graph`` on a board that started with ``allheaps`` imported
Graph Nim's modules beside the heap games', the tables module and the
tables it had read, and the heap games' memos: all resident for nothing
(docs/board.md). ``drop_unused`` is called once the
rules change (``Controller.apply_settings``, or the next game for a change
made mid-game) and forgets every rule-set module and panel that neither the
rules in play nor those waiting for the next game are built on, the tables
when neither reads any, and the searches' memos of the rules left. Each
comes back, imported again, when asked for. CPython keeps them
(``nimatron.forget``).

Which modules a rule set is built on is read from its class and its bases
(``__module__``, ``__bases__``): an interpreter without them drops nothing.
"""

import sys

from .. import forget

PACKAGE = __name__[: __name__.rfind(".machine.") + 1]  # "nimatron.", wherever the package sits


def droppable():
    """What may be dropped, derived: every module of ``games/`` a registry
    line or ``rules.LOADS`` names (a rule set's own and what it is built on),
    the tables, and every panels module ``panel_module`` names ("games.rules",
    "panels.panel", the engine and the budget stay always)."""
    from ..games.rules import LOADS, REGISTRY

    out = ["games.tables"]
    for line in REGISTRY:
        out.append("games." + line.split()[1])
    for item in LOADS.split():
        for name in item.partition(":")[2].split(","):
            out.append("games." + name)
    panel = sys.modules.get(PACKAGE + "panels.panel")  # not loaded (the engine alone): no drawing is either
    if panel is not None:
        out.append("panels." + panel.panel_module(None, True))
        for name in panel.SHAPES.values():
            out.append("panels." + name)
    return out


def _built_on(obj, out):
    """The modules of ``obj``'s class and its bases, added to ``out``; False if unknown."""
    todo = [type(obj)]
    while todo:
        cls = todo.pop()
        if cls is object:
            continue
        name = getattr(cls, "__module__", None)
        bases = getattr(cls, "__bases__", None)
        if name is None or bases is None:
            return False
        if name not in out:
            out.append(name)
        todo.extend(bases)
    return True


def drop_unused(rules, panel=None, misere=False, shape=None, collect=True):
    """Forget the rule-set modules and panels not used by ``rules`` (the
    rules in play and any waiting: a list) nor ``panel`` (the one shown, or
    None) nor named ``shape`` (``panels.<shape>``: the drawing the next
    game needs, or None); the tables too if none of the rules reads one in play ``misere``
    or normal (what ``turns.prepare`` loads), and a table the rules left
    read if they do. Returns the names dropped (none on CPython); the
    garbage collected now, unless ``collect`` is False (the caller asks
    for it in a pass of its own: ``Controller.rules_changed``)."""
    if sys.implementation.name == "cpython":
        return []
    turns = sys.modules.get(PACKAGE + "machine.turns")  # a board's, always: the engine alone (a sweep) has none
    used = []  # type: list[str]
    tables = False
    for r in rules:
        if not _built_on(r, used):
            return []
        if turns is None:
            tables = tables or r.table_spec(False) is not None or r.table_spec(misere) is not None
        elif turns.plays_by_table(r, False) or turns.plays_by_table(r, misere):
            tables = True
    if panel is not None and not _built_on(panel, used):
        return []
    if shape:
        used.append(PACKAGE + "panels." + shape)
    if tables:
        used.append(PACKAGE + "games.tables")
        kept = sys.modules.get(PACKAGE + "games.tables")
        if kept is not None:
            kept._loaded.clear()  # the table the rules left read: the new ones read theirs when asked
    gone = []
    for name in droppable():
        if PACKAGE + name in sys.modules and PACKAGE + name not in used and name not in gone:
            gone.append(name)
    gone.append("machine.unload")  # itself too: imported again at the next change
    engine = sys.modules.get(PACKAGE + "games.strategy")
    if engine is not None:
        engine.forget()  # the memos of the rules left (the ones in play have searched nothing yet)
    forget(gone, collect)
    return gone
