# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""What the lamps show in a game (the operator menu's: ``menu_lamps``).

``fill`` and its parts are functions of a controller's state at ``now``
that write one frame in place: ``lamps`` (one list per row, a state of
``ports`` per lamp) and ``status`` (the four status lamps, 0 or 1);
``publish`` copies it into the frame the driver was shown. They read the
controller through ``LampsView``, the read-only view of what they draw
(mypy holds them to it, and the controller to giving it;
tests/test_lamps_view.py holds the view to what they read), change nothing
else and make no garbage: a collection in the pass that sees a press
delays that press's lamp (issue 27).

``fill`` also says when the frame it wrote can next change with time alone
(a blink turning, a countdown's second, a refusal lighting up): the
controller computes no frame before then unless the game's state changed
(64 lamps' frame, compared with the shown one, every pass was a fixed cost
of every pass on pico-grid).
"""

from .. import const
from .ports import (
    ATTRACT,
    attract_lamps,
    blinks_on,
    HINT,
    LIT,
    OFF,
    OVER,
    REFUSED,
    SELECTED,
    SHOWING,
    SLOW_MS,
    TAKING,
    THINKING,
    VISITOR,
)

_MYPY = const(0)  # true to mypy alone (pyproject's always_true): a board compiles ``if _MYPY:`` away
if _MYPY:
    from typing import Any, Protocol

    from .switches import Switches

    class LampsView(Protocol):
        """What a game's lamps are drawn from: a controller's state, read-only here."""

        @property
        def state(self) -> str: ...
        @property
        def panel(self) -> Any: ...  # the lamps in play (``lit``), None in attract mode
        @property
        def alarm(self) -> str | None: ...
        @property
        def switches(self) -> Switches: ...  # ``stuck``
        @property
        def moved(self) -> bool: ...
        @property
        def selected(self) -> list: ...
        @property
        def hint(self) -> list | None: ...
        @property
        def asking(self) -> int | None: ...
        @property
        def last_input(self) -> int: ...
        @property
        def settings(self) -> dict: ...
        @property
        def since(self) -> int: ...
        @property
        def machine_out(self) -> list: ...
        @property
        def machine_light(self) -> list: ...
        @property
        def winner(self) -> str | None: ...
        @property
        def refused(self) -> list: ...
        @property
        def refused_at(self) -> int | None: ...
        def seconds_left(self, now: int) -> int: ...


# A game's blink periods, in ms (attract's and SLOW_MS, with why none is quicker: ``ports``).
_QUICK_MS = const(250)  # half of 2 flashes a second: a selection, the machine thinking, NIM CHAMP's running lamp
_TAKE_MS = const(200)  # half of 2.5 flashes a second, from when the machine shows its move: its lamps start
# lit (the visitor sees which at once) and blink unlike a selection
SECOND_MS = 1000  # "still playing?": one lamp fewer each second
_DOUBLE_MS = const(2000)  # an alarm or a stuck button: two _QUICK_MS flashes every 2 s, a slow pattern no game lamp has


def next_turn(now, origin, half_ms):
    """When a blink of ``half_ms`` halves begun at ``origin`` next turns, after ``now``."""
    return now + half_ms - (now - origin) % half_ms


def sooner(a, b):
    """The earlier of two times; None is never."""
    return b if a is None or (b is not None and b < a) else a


def publish(lamps, status, shown_lamps, shown_status):
    """Copy a frame into the shown one; True if any lamp changed. The
    controller gives io.show the shown frame: it changes only here, just
    before io.show is given it again."""
    changed = False
    for r in range(len(lamps)):
        row, old = lamps[r], shown_lamps[r]
        for i in range(len(row)):
            if old[i] != row[i]:
                old[i] = row[i]
                changed = True
    for role in status:
        if shown_status[role] != status[role]:
            shown_status[role] = status[role]
            changed = True
    return changed


def double_blink(now):
    """1 or 0: two short flashes every _DOUBLE_MS (an alarm, a stuck button)."""
    t = now % _DOUBLE_MS
    return 1 if t < _QUICK_MS or 2 * _QUICK_MS <= t < 3 * _QUICK_MS else 0


def fill(c, lamps, status, now):  # type: (LampsView, list, dict, int) -> int | None
    """Controller ``c``'s frame at ``now``, the operator menu closed; returns
    when it can next change with time alone (None: not until the state does)."""
    if c.state == ATTRACT or c.panel is None:
        attract_lamps(lamps, status, now)
        until = next_turn(now, 0, SLOW_MS)  # the wave's step (INVITE_MS is two of them)
        if c.alarm:  # "settings", "store" or "fault": a double blink
            status["machine" if c.alarm == "fault" else "machine_wins"] = double_blink(now)
            until = next_turn(now, 0, _QUICK_MS)
    else:
        until = game(c, lamps, status, now)
    if c.switches.stuck and c.state != OVER:
        status["machine_wins"] = double_blink(now)
        until = sooner(until, next_turn(now, 0, _QUICK_MS))
    return until


def game(c, lamps, status, now):  # type: (LampsView, list, dict, int) -> int | None
    """The lamps in play, then what the game's state adds: a blink, a refusal.
    Returns when the frame next changes with time alone (None: never)."""
    lit = c.panel.lit
    for r in range(len(lamps)):
        row = lamps[r]
        for i in range(len(row)):
            row[i] = LIT if lit[r][i] else OFF
    status["visitor"] = status["machine"] = status["champ"] = status["machine_wins"] = 0
    state = c.state
    until = None
    if state == VISITOR:
        until = visitor(c, lamps, status, now)
    elif state == THINKING:
        status["machine"] = 1 if blinks_on(now, _QUICK_MS) else 0
        until = next_turn(now, 0, _QUICK_MS)
    elif state == SHOWING:
        until = showing(c, lamps, status, now)
    elif state == OVER:
        until = over(c, lamps, status, now)
    if c.refused_at is not None:
        until = sooner(until, refused(c, lamps, status, now))
    return until


def visitor(c, lamps, status, now):  # type: (LampsView, list, dict, int) -> int | None
    """The visitor's turn: a selection blinks quickly, the teaching hint slowly.
    The pass that takes the visitor's move puts their lamp out with the lamps
    taken, whatever the selection's blink showed (``Controller._after_lamps``)."""
    status["visitor"] = 0 if c.moved else 1
    until = None
    if c.selected:
        quick = blinks_on(now, _QUICK_MS)
        for r, i in c.selected:
            lamps[r][i] = SELECTED if quick else OFF
        until = next_turn(now, 0, _QUICK_MS)
    if c.hint:
        slow = blinks_on(now, SLOW_MS)
        lit = c.panel.lit
        for r, i in c.hint:
            lamps[r][i] = HINT if slow else (LIT if lit[r][i] else OFF)
        until = sooner(until, next_turn(now, 0, SLOW_MS))
    asking = c.asking
    if asking is not None:
        until = sooner(until, countdown(c, lamps, status, now, asking))
    return until


def countdown(c, lamps, status, now, asking):  # type: (LampsView, list, dict, int, int) -> int | None
    """ "Still playing?" (shown since ``asking``): one lit lamp blinks per second left (1 flash a second)."""
    left = c.seconds_left(now)
    on = blinks_on(now - asking, SLOW_MS)
    status["visitor"] = 1 if on else 0
    for r in range(len(lamps)):
        for i in range(len(lamps[r])):
            if lamps[r][i] != OFF and left > 0:
                left -= 1
                if not on:
                    lamps[r][i] = OFF
    second = next_turn(now, c.last_input + c.settings["walkaway_ms"], SECOND_MS)  # one second less left
    return sooner(next_turn(now, asking, SLOW_MS), second)


def showing(c, lamps, status, now):  # type: (LampsView, list, dict, int) -> int | None
    """The machine's move: the lamps it takes blink (_TAKE_MS), then go out."""
    status["machine"] = 1
    on = blinks_on(now - c.since, _TAKE_MS)
    for r, i in c.machine_out:
        lamps[r][i] = TAKING if on else OFF
    if hasattr(c.panel, "building") and c.panel.building():  # a stone placed: where it lands blinks too
        for r, i in c.machine_light:
            lamps[r][i] = LIT if on else OFF
    return next_turn(now, c.since, _TAKE_MS)


def over(c, lamps, status, now):  # type: (LampsView, list, dict, int) -> int | None
    """NIM CHAMP: one lamp runs through every lamp, row by row; MACHINE
    WINS: the last position blinks slowly."""
    if c.winner == "visitor":
        status["champ"] = 1
        n = 0
        for row in lamps:
            n += len(row)
        k = (now // _QUICK_MS) % n
        for row in lamps:
            for i in range(len(row)):
                row[i] = LIT if k == 0 else OFF
                k -= 1
        return next_turn(now, 0, _QUICK_MS)
    status["machine_wins"] = 1
    if not blinks_on(now, SLOW_MS):
        for row in lamps:
            for i in range(len(row)):
                row[i] = OFF
    return next_turn(now, 0, SLOW_MS)


def refused(c, lamps, status, now):  # type: (LampsView, list, dict, int) -> int | None
    """A refusal: its lamps (and the visitor's lamp) go dark, then flash
    (until the controller's timer ends it: a change of state)."""
    lit_at = c.refused_at + c.settings["refuse_ms"] // 2
    dark = now < lit_at
    if dark:
        status["visitor"] = 0
    for r, i in c.refused:
        lamps[r][i] = OFF if dark else REFUSED
    return lit_at if dark else None
