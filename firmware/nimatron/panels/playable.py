# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Can this machine play these games? One check for every way a setting arrives.

``Controller.__init__`` and ``apply_settings`` call ``check_games`` (so the
settings file, ``--set``, ``SET`` over the link and the operator menu all
pass through it): a start is accepted only if its lamps fit the board and
the engine can answer every position reachable from it. Raises PanelError
or SettingsError (both ValueError) naming the start; changes nothing.
"""

from .panel import check_fits
from ..games.rules import MAX_HEAPS, SizeError
from ..config import SettingsError


def check_games(rules, misere, layout, starts, counter=False):
    for start in starts:
        check_fits(rules, layout, start, None, counter)  # every reachable position can be shown (PanelError)
        check_engine(rules, misere, start)


def check_engine(rules, misere, start):
    """SettingsError unless the engine answers every position of the game.

    The engine answers a position by theory, by its exhibit-size tables, or
    by search within this interpreter's limits (smaller on a board). Each of
    the three is closed under moves for every rule set: theories cover a
    shape that moves keep (Bouton always, misère subtraction on one live
    heap, Wythoff on two heaps, nim-value tables up to a part size); tables
    and search cover heaps up to a size, or a count of smaller positions,
    or (split games) a total, and moves only shrink those. So a start one
    of them covers is a game the machine can play to the end. (Asking the
    engine for the start's move is not enough: just outside a table it may
    find a winning move into the table, then fail on a later position.)
    Split games also multiply parts; the engine takes MAX_HEAPS of them and
    every part holds an object, so a total within that bound is enough.
    tests/test_playable.py walks every reachable position to check this.
    """
    ring = rules.has_ring
    shown = start
    start = rules.check(start, ring)  # as the rules read it (nim2d: rows of cells)
    if not rules.ordered and sum(start) > MAX_HEAPS:
        raise SettingsError("start %s: %s splits into too many parts (at most %d objects in all)"
                            % (shown, rules.spec, MAX_HEAPS))
    try:
        if covered(rules, start, misere, ring):
            return
    except SizeError as e:  # a theory that knows at once the position is too large
        raise SettingsError("start %s: the machine cannot play it here (%s)" % (shown, e))
    if rules.table_spec(misere) is not None:
        from ..games import tables

        if tables.name(rules, misere) is not None and tables.covers(rules, start):
            return
    raise SettingsError("start %s: the machine cannot play it here (%s)" % (shown, rules.size_error(start, misere)))


def covered(rules, start, misere, ring):
    """True if theory or search answers every position from ``start``, found
    without searching (issue 27: Graph Nim's theory searched each of its four
    starts whole, 0.9 s in one pass of a SET on a Pico). The same answer as
    "theory gives the start's moves, or search reaches it": a theory that
    searches (Candy Nim, 2-D Nim, Building Nim, Graph Nim) answers None
    exactly where its search does not reach, so the search's limit is asked
    first and the theory only where it is a formula; a rule set whose theory
    has a limit of its own says so in ``covers`` (Graph Nim's misere play).
    tests/test_checks.py holds the two answers equal for every rule set."""
    own = getattr(rules, "covers", None)
    if own is not None:
        return own(start, misere)
    return rules.searchable(start, ring) or rules.theory(start, misere, ring) is not None
