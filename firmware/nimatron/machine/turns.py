# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The two players' turns, mixins of ``Controller``: their methods read and
write the controller's state, every attribute of which is born in
``Controller.__init__`` (none here; tests/test_controller_state.py checks).
What each turn uses of it, and of the controller's methods, is declared in
its ``if _MYPY:`` block, for mypy alone (a board compiles the block away).

The visitor's: presses of row buttons or keys, and DONE, become one legal
move or a refusal that says why (and restores every lamp); a row board
takes lamps from one row, press by press; a grid board selects lamps, then
DONE commits them; in Building Nim's first half a press places a stone.

The machine's: it chooses a move at the set difficulty, shows it, then
plays it, and can say why in words (Nimrod's panel, the link). It never
dies mid-game: if the engine fails (SizeError, MemoryError on a board), it
plays the gentlest legal move.
"""

import gc

from .. import const
from ..games import budget, strategy
from ..panels.panel import row_label
from ..passes import busy, collect, heap, heap_low
from .ports import THINKING, VISITOR

_MYPY = const(0)  # true to mypy alone (pyproject's always_true): a board compiles ``if _MYPY:`` away
if _MYPY:
    from typing import Any


def prepare(rules, settings):
    """Load now what the game's first turns would: its tables, and the words
    when the machine explains itself (Nimrod). On a board each module compiles
    for 0.1-0.15 s from source: at set-up that is part of the start; inside a
    turn it was the main loop's longest tick (CircuitPython 9.2.8, emulated)."""
    for play in (settings["misere"], False):
        if plays_by_table(rules, play):
            strategy._tables().load(rules, play)  # read from flash now, not in a turn
    if settings.get("explain"):
        from ..games import explain  # noqa: F401 - compiled now, used inside a turn


def plays_by_table(rules, misere):
    """True if the machine's moves (``misere`` play) read this rule set's
    table; False where its theory always answers (Moore's Nim in normal
    play: the table gave only the words' nim-value, and held a share of a
    stock MacroPad's heap through every game: ``explain`` reads it)."""
    if rules.table_spec(misere) is None:
        return False
    theory = (
        rules.plays_by_theory if hasattr(rules, "plays_by_theory") else None
    )  # a name in the code: interned as it compiles
    return theory is None or not theory(misere)


def bare_solve(rules, heaps, misere, ring):
    """``strategy.solve`` with no table read for the nim-value alone
    (``nimbers=False``): the machine's own moves; the words read it."""
    return strategy.solve(rules, heaps, misere, ring, None, False)


_LAMPS = {}  # type: dict  # a grid key's role -> its lamp (row, index), made at its first press


def roomy(n=16):
    """An empty list with room for ``n`` items: a press that appends to it
    grows no list before its lamp."""
    out = [None] * n
    del out[:]  # the room stays (``clear`` gives it back)
    return out


def row_of(role):
    """The row a row button's role names ("row3": 3), or None; no object
    made (``int(role[3:])`` made a str: garbage before a press's lamp)."""
    if not role.startswith("row") or len(role) == len("row"):
        return None
    row = 0
    for i in range(len("row"), len(role)):
        digit = role[i]  # one character: an interned name, no object made
        if digit < "0" or digit > "9":
            return None
        row = row * 10 + ord(digit) - ord("0")
    return row


class VisitorTurn:
    """The visitor's presses, turned into a move by ``_commit`` or refused."""

    if _MYPY:  # the controller's state and calls it uses (born in Controller.__init__)
        panel: Any
        rules: Any
        input_model: str
        turn_start: Any  # (heaps, ring)
        turn_row: int | None
        taken: list
        selected: list
        moved: bool
        _checked: list | None

        def _refuse(self, reason: str, lamps: list, now: int) -> None: ...
        def _commit(self, now: int) -> None: ...
        def _enter(self, state: str, now: int) -> None: ...

    def _row(self, role, now):
        row = row_of(role)
        if row is None:
            return
        panel = self.panel
        if self._building():
            self._place(row, now)
            return
        if self.turn_row is not None and row != self.turn_row:
            self._refuse(
                "one row per turn: keep taking from row %s or press DONE" % row_label(self.turn_row),
                self._row_lamps(row),
                now,
            )
            return
        answers = self._checked  # made once the last lamps showed: a row's press allocates nothing before its lamp
        if answers is None:
            answers = self._checked = self._check_rows()
        got = answers[row] if row < len(answers) else None
        if got is None:
            self._refuse("row %s is empty" % row_label(row), [], now)
            return
        lamp, legal, last = got
        if not legal:
            self._refuse("not a legal move: %s" % self.rules.about, self._row_lamps(row), now)
            return
        panel.lit[lamp[0]][lamp[1]] = False
        self.turn_row = row
        self.taken.append(lamp)
        self._checked = None  # checked again once its lamp shows (``_after_lamps``)
        if last:
            self.moved = True  # the last lamp: no DONE needed to end the game (committed once it shows)

    def _check_rows(self):
        """What the next press of each row would do, worked out after the
        lamps show (``_after_lamps``): (the lamp it puts out, legal, the
        game's last move), or None for an empty row and, once a row is
        taken from, for every other (``_row`` refuses them first). Checking
        a take lists the rule set's moves (``is_legal``): in the press's own
        pass that garbage could bring a collection before its lamp went out."""
        panel = self.panel
        heaps, ring = self.turn_start
        now_heaps = panel.position()[0]
        out = []  # type: list
        for row in range(len(now_heaps)):
            lamp = panel.last_lit(row)
            if lamp is None or (self.turn_row is not None and row != self.turn_row):
                out.append(None)
                continue
            after = list(now_heaps)
            after[row] -= 1
            legal = self.rules.is_legal(heaps, after, ring)
            out.append((lamp, legal, legal and not self.rules.has_move(after, False)))
        return out

    def _row_lamps(self, row):
        if row >= len(self.panel.lit):
            return []
        return [(row, i) for i in range(len(self.panel.lit[row])) if self.panel.lit[row][i]]

    def _key(self, role, now):
        lamp = _LAMPS.get(role)
        if lamp is None:  # the key's first press: its lamp made once (a split and a tuple: garbage before its lamp)
            parts = role.split()
            try:
                lamp = (int(parts[1]), int(parts[2]))
            except (IndexError, ValueError):
                return
        r, i = lamp
        if self._building():
            self._place(r, now)
            return
        counter = hasattr(self.panel, "selectable")  # a counter: only its (lit) choice lamps
        if (
            r >= len(self.panel.lit)
            or i >= len(self.panel.lit[r])
            or not self.panel.lit[r][i]
            or (counter and lamp not in self.panel.choice_lamps)  # its list: ``selectable()`` makes one
        ):
            self._refuse("lamp %d of row %s is not in play" % (i + 1, row_label(r)), [], now)  # as the screen counts
            return
        _LAMPS[role] = lamp  # a lamp in play: as many as the board has (a host's made-up roles are never kept)
        if lamp in self.selected:
            self.selected.remove(lamp)
        else:
            self.selected.append(lamp)
        self._checked = None  # checked again once its lamp shows (``_after_lamps``)

    def _building(self):
        """Building Nim's first half: a press places a stone (``supply``)."""
        panel = self.panel  # called, not fetched: a bound method fetched is an object made in a press's pass
        return hasattr(panel, "building") and panel.building()

    def _place(self, row, now):
        reason = self.panel.put(row)  # in the lamps themselves: nothing made before the press's lamp
        if reason is not None:
            self._refuse(reason, [], now)
            return
        self.moved = True  # one stone is the whole move: no DONE (committed once it shows)

    def _done(self, now):
        if self._building():
            self._refuse("press a heap's row to place a stone there", [], now)
            return
        if self.input_model == "rows":
            if not self.taken:
                self._refuse("take at least one lamp before DONE", [], now)
                return
            self.moved = True  # its event and the machine's turn once its lamps show (``_after_lamps``)
            self._enter(THINKING, now)  # DONE's lamp: the turn lamp passes to the machine at once
            return
        if not self.selected:
            self._refuse("select lamps before DONE", [], now)
            return
        checked = self._checked  # made once the last key's lamp showed: DONE's pass allocates nothing for it
        if checked is None or checked[0] != self.selected:
            checked = self._check_selection()
        self._checked = None
        if not checked[2]:
            lamps = self.selected
            self.selected = []  # every lamp restored: nothing lost
            self._refuse("not a legal move: %s" % self.rules.about, lamps, now)
            return
        self.panel.apply_selection(self.selected)
        self.selected.clear()  # emptied, not replaced: no list made before the lamps show
        self.moved = True  # the lamps go out in this pass; the move is committed once they show

    def _check_selection(self):
        """[selection, the position it leaves (None: no position), legal]."""
        heaps, ring = self.turn_start
        after = self.panel.after_selection(self.selected)
        legal = getattr(self.panel, "legal", None)  # a grid's: without a matrix per move
        ok = after is not None and (
            legal(self.rules, heaps, after) if legal else self.rules.is_legal(heaps, after, ring)
        )
        return [list(self.selected), after, ok]


class Rng:
    """A tiny linear congruential generator: the same game on every Python."""

    def __init__(self, seed):
        self.state = seed & 0x7FFFFFFF

    def below(self, n):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n


# Work units a search may spend in one main-loop tick: under half of a
# pass's budget on an RP2040 (``games.budget``; measured: docs/board.md),
# leaving room for the tick's own work.
SEARCH_UNITS = 64

# Bytes a tick of search may allocate (circular Nim on pico-ring the most,
# docs/board.md). With less free, the garbage
# is collected in a pass of its own before the search goes on (a collection
# is most of a pass on a Pico): one falling inside a search's tick overran it.
SEARCH_HEAP = 32 * 1024


# Bytes a new game allocates before its lamps show (its panel, its turn, its
# event), Graph Nim's the most (tests/test_micropython_controller.py). Between
# games, with less than NEW_ROOM free, the garbage is collected in a pass with
# no press: else a NEW pressed then met the automatic collection before its lamps.
NEW_ROOM = 16 * 1024

ROOM_MS = 500  # between games, the heap looked at this often (a look walks the whole heap on a stock board)
_SEARCH_GARBAGE = const(4 * 1024)  # worth collecting before a search tick, below the search's reserve


class MachineTurn:
    """The machine's move: chosen (``_think``, over as many ticks as its
    search needs), shown, then played."""

    if _MYPY:  # the controller's state and calls it uses (born in Controller.__init__)
        panel: Any
        rules: Any
        misere: bool
        settings: dict
        audits: Any
        rng: Rng
        now: int
        hint: list | None
        last_move: tuple | None
        equalized: bool
        machine_after: list | None
        machine_out: list
        machine_light: list
        _slip: bool | None
        _tidied: bool
        _swept: int | None
        _room_at: int
        solved: tuple | None

        def _enter(self, state: str, now: int) -> None: ...
        def _emit(self, event: dict) -> None: ...
        def _finish(self, last: str, now: int) -> None: ...
        def _reset_turn(self, now: int) -> None: ...
        def _tell_panel(self, by: str, before: list, after: list) -> None: ...
        def redraw(self) -> None: ...

    def _tidy(self):
        """While the machine thinks or shows its move, collect in a pass of
        its own if below SEARCH_HEAP or the search's reserve, with garbage
        made since the last; True if it did, or if the pass has collected
        already (the link's, ``passes.collect_next``): no search in it.
        Never two passes in a row."""
        if busy():
            return True
        figures = heap(gc)
        if figures is None or self._tidied:
            self._tidied = False
            return False
        free = figures[0]
        garbage = self._garbage(free)
        if free >= SEARCH_HEAP and free * strategy.HEAP_RESERVE >= figures[1]:
            return False
        if garbage is not None and garbage < _SEARCH_GARBAGE:
            return False
        self._tidied = self._sweep()
        return True

    def _room(self):
        """Between games, every ROOM_MS: collect if less than NEW_ROOM is
        free, with garbage made since the last; True if it did."""
        if self.now < self._room_at or busy():
            return False
        self._room_at = self.now + ROOM_MS
        figures = heap(gc)
        if figures is None:
            return False
        garbage = self._garbage(figures[0])
        if figures[0] >= NEW_ROOM or (garbage is not None and garbage < NEW_ROOM // 2):
            return False
        return self._sweep()

    def _garbage(self, free):
        """Bytes allocated since the last collection (None: none yet)."""
        swept = self._swept
        if swept is None:
            return None
        if free > swept:
            self._swept = swept = free  # just collected, or more came free since
        return swept - free

    def _sweep(self):
        collect(gc)
        self._swept = -1  # what is free after it: read next time (``passes.heap``)
        return True

    def _think(self, now):
        self.machine_after = None
        self._slip = None
        self._enter(THINKING, now)  # the search starts next tick (``_timers``): this one shows the visitor's move first

    def _decide(self):
        """Choose the machine's move within one tick's search budget; False
        while still searching (the controller asks again next tick, the
        search resuming where it stopped: ``games.budget``)."""
        if self.machine_after is not None:
            return True
        heaps, ring = self.panel.position()
        budget.start(SEARCH_UNITS, heap_low(strategy.HEAP_RESERVE, gc))
        try:
            after = self._choose(heaps, ring)
        except budget.Later:
            return False
        finally:
            budget.stop()
        self.machine_out, self.machine_light = self.panel.lamps_for(after)
        self.machine_after = after
        return True

    def _choose(self, heaps, ring):
        difficulty = self.settings["difficulty"]
        if difficulty == "equalizer" and not self.equalized:
            self.equalized = True  # Dr. NIM's lever: one deliberate small move
            return self.rules.gentle(heaps, ring)
        if difficulty == "fallible" and self._slip is None:
            self._slip = self.rng.below(100) < self.settings["error_rate"]  # drawn once a turn, kept while searching
        if difficulty == "fallible" and self._slip:
            moves = list(self.rules.moves(heaps, ring))
            return moves[self.rng.below(len(moves))]
        result = self._solve(heaps, ring)
        if result is not None:
            return result["after"]
        try:  # the engine could not answer: still a legal move, the gentlest
            return self.rules.gentle(heaps, ring)
        except Exception:  # MemoryError even for that: the first legal move
            for after in self.rules.moves(heaps, ring):
                return after

    def _solve(self, heaps, ring):
        """strategy.solve, or None (and a ``fault`` event) if the engine fails.

        Settings are checked so that this never happens (``playable``); if
        it does anyway (SizeError, MemoryError on a board), the machine
        must go on playing, never die mid-game.
        """
        try:
            result = bare_solve(self.rules, heaps, self.misere, ring)  # the words read the nim-value: ``explain``
        except budget.Later:
            raise  # not a fault: this tick's share of the search is spent
        except Exception as e:
            try:
                self.audits.count("engine_faults")
                self.audits.save()  # a fault is worth a write of its own
            except Exception:
                pass
            self._emit(
                {
                    "event": "fault",
                    "what": "engine",
                    "position": heaps,
                    "error": "%s: %s" % (type(e).__name__, str(e)[:80]),
                }
            )
            return None
        self.solved = (self.rules, self.misere, list(heaps), ring, result)
        return result

    def solution(self, heaps, ring):
        """``strategy.solve`` for a position: the machine's last search's own
        result when it is that position, so the words for its move need no
        second search (two of them made the tick of a Graph Nim move overrun
        its budget on pico-grid)."""
        done = self.solved
        if (
            done is not None
            and done[0] is self.rules
            and done[1] == self.misere
            and done[2] == heaps
            and done[3] == ring
        ):
            return done[4]
        return bare_solve(self.rules, heaps, self.misere, ring)  # ``explain`` reads the nim-value itself

    def _machine_moved(self, now):
        before, ring = self.panel.position()
        self.panel.apply(self.machine_out, self.machine_light)
        after = self.panel.position()[0]
        self._tell_panel("machine", before, after)
        event = {"event": "move", "by": "machine", "before": before, "after": after}
        if self.settings["explain"]:
            try:
                event["why"] = self.explain(before, ring)
            except Exception:  # the move stands without its reasoning
                pass
        self._emit(event)
        self.last_move = ("machine", before, after)
        if not self.rules.has_move(after, False):
            self._finish("machine", now)
        else:
            self._reset_turn(now)
            self._enter(VISITOR, now)

    def words_table(self):
        """True if the words' nim-value comes from a table the game in play
        does not read (Moore's Nim: ``plays_by_table``): the host link loads
        it for the words, in a pass of its own, and drops it with them."""
        r = self.rules
        return not (self.misere or r.nim_sum or r.table_spec(False) is None or plays_by_table(r, False))

    def explain(self, heaps=None, ring=None, result=None):
        """The machine's reasoning for a position, in words (Nimrod's panel);
        ``result``: the position's ``strategy.solve`` if the caller has it."""
        from ..games import explain

        if heaps is None:
            if not self.panel:
                return "no game in play"
            heaps, ring = self.panel.position()
        if result is None:
            result = self.solution(heaps, ring)
        words = []
        if self.rules.nim_sum:
            x = 0
            for h in heaps:
                x ^= h
            words.append("nim-sum " + explain.binary(x, 1) + " (binary) = %d" % x)  # marked: the board speaks ASCII
            if self.misere:  # the seeds' endgame rule (normal play: the nim-sum is the lesson, no module loaded)
                words.extend(self.rules.lesson(heaps, True, ring, result))
        else:
            taught = self.rules.lesson(heaps, self.misere, ring, result)  # the rule to carry home (games/lesson.py)
            nimber = result["nimber"]
            if not taught and nimber is None and not self.misere and self.rules.table_spec(False) is not None:
                nimber = strategy._tables().value(self.rules, heaps, False, ring)  # the machine's search left it out
            if taught:
                words.extend(taught)
            elif nimber is not None:
                words.append("nim-value %d" % nimber)
        words.extend(self.rules.notes(heaps, self.misere))
        if result["after"] is None:
            words.append("no move left")
        else:
            move = explain.describe_move(
                heaps, result["after"], self.rules.ordered, ring, getattr(self.panel, "unlettered", None)
            )
            if result["outcome"] == "win":
                words.append("winning move: " + move)
            else:
                words.append("no winning move; plays for time: " + move)
        return "; ".join(words)

    def _hint(self):
        """The teaching hint, searched within the tick's budget like the
        machine's own move: ``hint`` stays None (asked again next tick) until
        the search is done."""
        heaps, ring = self.panel.position()
        budget.start(SEARCH_UNITS, heap_low(strategy.HEAP_RESERVE, gc))
        try:
            result = self._solve(heaps, ring)
        except budget.Later:
            return
        finally:
            budget.stop()
        self.hint = []
        self.redraw()
        if result is not None and result["outcome"] == "win":
            show = getattr(self.panel, "hint_lamps", None)  # Building Nim: the stone and where it lands
            self.hint = show(result["after"]) if show else self.panel.lamps_for(result["after"])[0]
            self._emit({"event": "hint", "after": result["after"]})
