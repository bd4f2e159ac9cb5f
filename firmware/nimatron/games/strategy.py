# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The machine's brain: the move to make, by theory where known, else search.

    >>> from nimatron.games.strategy import solve
    >>> solve("nim", [3, 4, 5])
    {'outcome': 'win', 'after': [1, 4, 5], 'ring': False, 'nimber': 2}

Theory first (Bouton's nim-sum, heaps mod k+1, Moore's digit sums, Greedy
Nim's parity, Wythoff's pairs, nim-value tables); exhaustive memoised search
where no theory applies, within each rule set's size limit; a SizeError
beyond it, never a hang. Misère play is the one hook of the search: a
player with no move has lost in normal play and has won in misère play.
"""

import gc
import sys

from .rules import SizeError, mex, parse_rules


def _tables():
    """``nimatron.games.tables``, imported on first use (Nim never needs it).
    No handle is kept here: ``nimatron.forget`` alone drops it from the heap."""
    from . import tables

    return tables


MEMO_MAX = 8000  # entries kept across decisions, all rule sets together
HEAP_RESERVE = 4  # on MicroPython, keep 1/4 of the heap free for the rest

_memos = {}  # type: dict


def _memo(rules, misere):
    name = rules.spec + ("-" if misere else "+")
    memo = _memos.get(name)
    if memo is None:
        memo = {}
        _memos[name] = memo
    return memo


def forget():
    """Drop every memoised position (frees the heap on a small board)."""
    _memos.clear()


def _heap_low():
    """True on MicroPython when less than 1/HEAP_RESERVE of the heap is free.

    A memo that filled the heap would leave the game loop itself (a lamp
    frame, an event) to fail on its next allocation, outside any search.
    Under a tick's budget (a board's main loop) the pass has read the heap
    and collected its garbage in a pass of its own (``machine.turns._tidy``,
    at this reserve too), and says so (``budget.low``): reading it here
    was a fifth of every search tick on a stock MacroPad, and the collection
    here fell in the search's own pass (past its budget).
    """
    budget = sys.modules.get("nimatron.games.budget")  # loaded wherever a search is budgeted: not for this
    low = budget and budget.low()
    if low is not None:
        return low
    try:
        free = gc.mem_free()  # type: ignore[attr-defined]  # MicroPython's (CPython: AttributeError)
        used = gc.mem_alloc()  # type: ignore[attr-defined]  # as mem_free
    except AttributeError:  # CPython: no fixed heap to guard
        return False
    if free * HEAP_RESERVE >= free + used:
        return False
    gc.collect()  # garbage, not the memo, may be what fills it
    free = gc.mem_free()  # type: ignore[attr-defined]  # reached on MicroPython only
    return free * HEAP_RESERVE < free + gc.mem_alloc()  # type: ignore[attr-defined]  # as mem_free


def _trim():
    total = 0
    for memo in _memos.values():
        total += len(memo)
    if total > MEMO_MAX or (total and _heap_low()):
        _memos.clear()


def nim_value(rules, heaps, ring, memo):
    """Sprague-Grundy value by exhaustive search (normal play)."""
    key = rules.key(heaps, ring)
    value = memo.get(key)
    if value is None:
        seen = []
        for after in rules.moves(heaps, ring):
            v = nim_value(rules, after, False, memo)
            if v not in seen:
                seen.append(v)
        value = mex(seen)
        memo[key] = value
    return value


def misere_wins(rules, heaps, ring, memo):
    """True if the player to move wins in misère play (exhaustive search)."""
    key = rules.key(heaps, ring)
    wins = memo.get(key)
    if wins is None:
        wins = True  # no move left: the opponent took the last object
        for after in rules.moves(heaps, ring):
            wins = False
            if not misere_wins(rules, after, False, memo):
                wins = True
                break
        memo[key] = wins
    return wins


def _searched_wins(rules, heaps, misere, ring, every):
    """Winning moves found by search: the first one, or ``every`` one."""
    memo = _memo(rules, misere)
    wins = []
    for after in rules.moves(heaps, ring):
        lost = not misere_wins(rules, after, False, memo) if misere else nim_value(rules, after, False, memo) == 0
        if lost:
            wins.append(after)
            if not every:
                break
    return wins


def _table_wins(rules, heaps, misere, ring, every):
    """Winning moves from the precomputed tables, or None if not covered."""
    if rules.table_spec(misere) is None:
        return None
    tables = _tables()
    if tables.name(rules, misere) is None:
        return None
    if not every:
        stored = tables.move(rules, heaps, misere, ring)
        if stored is not None:
            return stored
    if tables.value(rules, heaps, misere, ring) == 0:
        return []  # lost: no need to look at every move
    wins = []
    for after in rules.moves(heaps, ring):
        value = tables.value(rules, after, misere)
        if value is None:
            return None
        if value == 0:
            wins.append(after)
            if not every:
                break
    return wins


def _pick(moves, seed):
    if seed is None or len(moves) == 1:
        return moves[0]
    # A small hash, identical on every interpreter, so a seed replays.
    return moves[(seed * 1103515245 + 12345) % 2147483648 % len(moves)]


def solve(rules, position, misere=False, ring=False, seed=None, nimbers=True):
    """Outcome for the player to move, and the machine's move.

    Returns a dict: ``outcome`` ("win" or "loss" under perfect play),
    ``after`` (the position after the chosen move, None if no move exists),
    ``ring`` (whether ``after`` is still an unbroken circle: never, since
    any move breaks it) and ``nimber`` (Sprague-Grundy value in normal play,
    None in misère play or where no theory or search reaches). Raises
    RulesError for bad input and SizeError beyond a rule set's limits.
    A ``seed`` varies the choice among equally good winning moves.
    ``nimbers=False``: a nim-value only a table would give is left out, no
    table read for it (the machine's own moves: ``turns.bare_solve``).
    """
    rules = parse_rules(rules)
    heaps = rules.check(position, ring)
    try:
        return _solve(rules, heaps, bool(misere), bool(ring), seed, nimbers)
    except MemoryError:
        # a small heap ran out mid-search: what earlier decisions keep may be
        # what filled it (the 64 KB sweep of Candy Nim, on its edge)
        forget_searches()
        gc.collect()
    try:
        return _solve(rules, heaps, bool(misere), bool(ring), seed, nimbers)
    except MemoryError:
        forget_searches()  # free it, say so, go on
        raise SizeError("%s: not enough memory to search this position" % rules.spec)


def forget_searches():
    """Drop what every search loaded keeps between decisions (``forget()`` in
    each loaded module of ``games/`` that has one: strategy, candy, nim2d,
    graph, grid, tables): caches all, so a search asked again only takes
    longer. Only what is loaded holds one: nothing is imported here."""
    head = __name__[: __name__.rfind(".") + 1]  # "nimatron.games.", wherever the package sits
    for name in sys.modules:  # no list made: this runs where the heap ran out
        clear = getattr(sys.modules[name], "forget", None) if name[: len(head)] == head else None
        if clear is not None:
            clear()


def _solve(rules, heaps, misere, ring, seed, nimbers):
    _trim()
    if not rules.has_move(heaps, ring):
        return _result("win" if misere else "loss", None, None if misere else 0)
    searchable = rules.searchable(heaps, ring)
    wins = rules.theory(heaps, misere, ring)
    if wins is None:
        wins = _table_wins(rules, heaps, misere, ring, seed is not None)
    if wins is None:
        if not searchable:
            raise rules.size_error(heaps, misere)
        wins = _searched_wins(rules, heaps, misere, ring, seed is not None)
    nimber = None
    if not misere:
        nimber = rules.nimber(heaps, ring)
        if nimber is None and not wins:
            nimber = 0  # a lost position is exactly one of nim-value 0
        if nimber is None and rules.table_spec(False) is not None:
            if not nimbers:
                return _result("win", _pick(wins, seed), None)  # not the table's nim-value, nor a search for it
            nimber = _tables().value(rules, heaps, False, ring)
        if nimber is None and searchable and rules.search_nimber(heaps):
            try:
                nimber = nim_value(rules, heaps, ring, _memo(rules, False))
            except MemoryError:
                forget()  # the move is known; only the nim-value is missing
                nimber = None
    if wins:
        return _result("win", _pick(wins, seed), nimber)
    return _result("loss", rules.losing_move(heaps, misere, ring), nimber)


def _result(outcome, after, nimber):
    return {"outcome": outcome, "after": after, "ring": False, "nimber": nimber}


def winning_moves(rules, position, misere=False, ring=False):
    """Every winning move (after-positions); [] when the position is lost.

    For the teaching hint and the "how the machine thinks" panel.
    """
    rules = parse_rules(rules)
    heaps = rules.check(position, ring)
    misere = bool(misere)
    ring = bool(ring)
    wins = _table_wins(rules, heaps, misere, ring, True)
    if wins is None and rules.searchable(heaps, ring):
        wins = _searched_wins(rules, heaps, misere, ring, True)
    if wins is None:
        wins = rules.theory(heaps, misere, ring)
    if wins is None:
        raise rules.size_error(heaps, misere)
    return wins
