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

from . import check_fits
from ..games.rules import MAX_HEAPS, SizeError, parse_rules
from ..config import SettingsError
from ..passes import load, mark


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
        raise SettingsError(
            "start %s: %s splits into too many parts (at most %d objects in all)" % (shown, rules.spec, MAX_HEAPS)
        )
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


# -- what checking and saving a value loads, a module a pass (the operator
# menu's ``machine.adjust``, which holds this module while it checks) --------
def rules_of(key, value):
    """The rule set a ``key`` set to ``value`` brings (None: none new)."""
    if key == "rules":
        return value
    if key != "preset":
        return None
    from ..config.settings import DEFAULTS, load_preset

    try:
        return load_preset(value).get("rules", DEFAULTS["rules"])
    except ValueError:  # ``changed`` says why
        return None


def load_rules(spec):
    """True if this pass loaded a module the rule set ``spec`` needs
    (``_rules_modules``; a rule set of ``heaps`` its class's
    own, as ``parse_rules`` asks): one a pass, as a SET over the link loads
    them. The operator menu's checks and save loaded them in one: nim, heaps and
    subtract (``settings.changed``)."""
    import sys

    for name in _rules_modules(spec):
        if "nimatron." + name not in sys.modules:
            load(name)
            return True
    count = len(sys.modules)
    try:
        parse_rules(spec)
    except ValueError:  # ``changed`` says why
        return False
    if len(sys.modules) == count:
        return False
    mark()  # parse_rules loaded its class's module: this pass's work
    return True


def load_value(key, value):
    """True if this pass loaded a module the rule set that ``key`` set to ``value`` brings."""
    return load_rules(rules_of(key, value))


def load_checked(new):
    """True if this pass loaded a module the games of ``new`` (the
    settings) are checked and played with: the panels module that draws
    them, the tables the engine reads (``panels.playable.check_engine``)."""
    import sys

    from .panel import panel_module

    rules = parse_rules(new["rules"])
    shape = panel_module(rules, new.get("counter", False))
    for name in (
        "panels." + shape if shape else None,
        "games.tables" if rules.table_spec(new["misere"]) is not None else None,
    ):
        if name and "nimatron." + name not in sys.modules:
            load(name)
            return True
    return False


def _rules_modules(spec):
    """The games modules (``games.<name>``) of the rule set ``spec``, each
    after what it imports (``rules.LOADS``, derived from the imports)."""
    from ..games.rules import rule_modules

    return ["games." + m for m in rule_modules(spec)]
