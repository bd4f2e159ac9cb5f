# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""What the lamps show in the operator menu (``nimatron.machine.service``):
a bar of k lamps for item k, every lamp in each colour (the lamp test), the
buttons held, an audit counter in binary, a blinking YES/NO.

Functions of the menu's state at ``now``; they change nothing.
"""

from .. import const
from ..config import STATUS
from .ports import HINT, LIT, OFF, REFUSED, SELECTED, TAKING

_INDEX_MS = const(1000)  # audits: which counter, shown this long after a step
_STEP_MS = const(500)  # lamp test: each lamp this long, one at a time
_COLOUR_MS = const(1000)  # lamp test: every lamp in each colour this long
COLOURS = (LIT, SELECTED, HINT, TAKING, REFUSED)


def frame(menu, now):
    """(lamps, status) for the screen ``menu`` shows at ``now``."""
    lamps = [[OFF] * n for n in menu.c.layout]
    status = {"visitor": 0, "machine": 0, "champ": 1, "machine_wins": 0}
    screen = menu.screen
    t = now - menu.since
    slow = (t // 500) % 2 == 0  # 1 flash a second
    if screen == "menu":
        bar(lamps, menu.item + 1)
        status["machine"] = 1
    elif screen == "lamp_test":
        lamp_test(menu, lamps, status, t, menu.one_by_one)
    elif screen == "burn_in":
        t = t % cycle_ms(menu.c.layout)
        colours = _COLOUR_MS * len(COLOURS)
        if t < colours:
            lamp_test(menu, lamps, status, t, False)
        else:
            lamp_test(menu, lamps, status, t - colours, True)
    elif screen == "button_test":
        shown = list(menu.held) if menu.held else ([menu.last] if menu.last else [])
        buttons(lamps, status, shown, True)
    elif screen == "audits":
        if t < _INDEX_MS:
            bar(lamps, menu.index + 1)
            status["machine"] = 1
        else:
            binary(lamps, menu.counter())
    elif screen == "adjust":
        bar(lamps, menu.index + 1)
        status["machine"] = 1
    elif screen == "adjust_value":
        bar(lamps, menu.index + 1)
        status["visitor"] = 1
    elif screen == "check_switch":
        watch = menu.c.switches
        buttons(lamps, status, watch.check_switch(), True)
        buttons(lamps, status, watch.stuck_now(), slow)
    elif screen == "confirm":
        status["machine_wins"] = 1 if slow else 0
        if menu.yes:
            if slow:
                bar(lamps, lamp_count(menu.c.layout))
        else:
            bar(lamps, 1)
    return lamps, status


def lamp_test(menu, lamps, status, t, one_by_one):
    """Every lamp in each colour in turn, or (``one_by_one``) one lamp at a time."""
    if not one_by_one:
        colour = COLOURS[(t // _COLOUR_MS) % len(COLOURS)]
        for row in lamps:
            for i in range(len(row)):
                row[i] = colour
        for role in STATUS:
            status[role] = 1
        return
    for role in STATUS:
        status[role] = 0
    n = lamp_count(menu.c.layout)
    k = (t // _STEP_MS) % (n + len(STATUS))
    if k < n:
        bar(lamps, k + 1, k)
    else:
        status[STATUS[k - n]] = 1


def buttons(lamps, status, roles, on):
    """Light what stands for each button: its row, its key's lamp, or a status lamp."""
    if not on:
        return
    for role in roles:
        if role == "done":
            status["visitor"] = 1
        elif role == "new":
            status["machine"] = 1
        elif role[:3] == "row":
            r = int(role[3:])
            if r < len(lamps):
                for i in range(len(lamps[r])):
                    lamps[r][i] = LIT
        elif role[:4] == "key ":
            parts = role.split()
            r, i = int(parts[1]), int(parts[2])
            if r < len(lamps) and i < len(lamps[r]):
                lamps[r][i] = LIT


def bar(lamps, n, start=0):
    """Light lamps start..n-1, counted in reading order (row A first)."""
    k = 0
    for row in lamps:
        for i in range(len(row)):
            if start <= k < n:
                row[i] = LIT
            k += 1


def binary(lamps, value):
    """``value`` in binary, its last digit on the last lamp (all lit: too big)."""
    flat = []
    for r in range(len(lamps)):
        for i in range(len(lamps[r])):
            flat.append((r, i))
    if value >> len(flat):
        value = (1 << len(flat)) - 1
    k = len(flat) - 1
    while value and k >= 0:
        if value & 1:
            r, i = flat[k]
            lamps[r][i] = LIT
        value >>= 1
        k -= 1


def lamp_count(layout):
    n = 0
    for row in layout:
        n += row
    return n


def cycle_ms(layout):
    """One round of burn-in: every colour, then each lamp and status lamp in turn."""
    return _COLOUR_MS * len(COLOURS) + _STEP_MS * (lamp_count(layout) + len(STATUS))
