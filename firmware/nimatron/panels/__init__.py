# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Panels: how a game's position is laid out on the lamps (rows, a ring,
cells, a counter, Building Nim's supply, Candy Nim's tallies) and
whether a board can show every position of a game (``playable``).

``make_panel`` picks the panel a rule set asks for and loads only its
module; the panels import their base (``panel``), never the reverse.
"""


def make_panel(rules, layout, start, shape=None, counter=False):
    """The panel for a rule set on a board: ring, arcs, split rows or heap rows.

    ``shape`` is the board's lamp shape: ``"ring"`` (one row of lamps, the
    last touching the first) or ``"grid"``; by default a single row is a
    ring. ``counter``: show the one heap as a binary counter instead.
    Raises PanelError if some position reachable from ``start`` could
    not be shown on these lamps.
    """
    from .panel import HeapPanel, PanelError

    if counter:
        from .counter import CounterPanel

        return CounterPanel(rules, layout, start)
    if shape is None:
        shape = "ring" if len(layout) == 1 else "grid"
    kind = rules.panel  # the rule set says which lamps it needs (games/rules.py)
    if kind == "ring":
        from .circle import RingPanel

        return RingPanel(layout, start, shape)
    if kind == "cells":
        from .cells import CellPanel

        return CellPanel(rules, layout, start)
    if kind == "supply":
        from .supply import SupplyPanel

        return SupplyPanel(layout, start)
    if kind == "tally":
        from .tally import CandyPanel

        return CandyPanel(layout, start)
    if kind == "splits":
        from .shapes import ArcPanel, SplitPanel

        if shape == "ring":
            return ArcPanel(layout, start)
        return SplitPanel(layout, start)
    if kind != "heaps":
        raise PanelError("rules %s ask for %r lamps, which no panel draws" % (rules.spec, kind))
    return HeapPanel(layout, start)


def check_fits(rules, layout, start, shape=None, counter=False):
    """Raise PanelError unless every position reachable from ``start`` can be
    shown on this board (the display half of "a start is accepted only if
    the machine can play every position reachable from it")."""
    make_panel(rules, layout, start, shape, counter)


def fits_all_reachable(rules, layout, start, shape=None, counter=False):
    """True if every position reachable from ``start`` can be shown."""
    from .panel import PanelError

    try:
        check_fits(rules, layout, start, shape, counter)
    except PanelError:
        return False
    return True
