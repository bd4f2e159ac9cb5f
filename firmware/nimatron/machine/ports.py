# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The two small ports between the game and the hardware.

The controller never touches a pin. A driver (``nimatron.drivers``) gives it
one object with two methods:

``io.show(lamps, status)``
    ``lamps``: one list per row of the current layout, one state per lamp
    (the constants below; the controller has already applied blinking, so
    a blinking lamp alternates between its state and OFF). ``status``: a
    dict of the four status lamps (``boards.STATUS``) to 0 or 1. Called
    only when something changed, with the same lists and dict each time,
    changed in place just before the call (no garbage per frame): a driver
    that keeps a frame to compare with the next copies it.

``io.events()``
    Every button edge since the last call, oldest first, as
    ``(role, pressed)``: ``role`` is ``"row0"``..., ``"done"``, ``"new"``,
    or ``"key R I"`` (the key under lamp I of row R, grid boards);
    ``pressed`` is True for a press, False for a release. Raw edges: the
    controller debounces. Any sequence; ``()`` on a quiet pass, so that a
    pass with no press makes no garbage.

and ``io.close()`` (safe to call twice). A fake for tests is a dozen lines.
"""

# The controller's states (``controller.state``), as front ends read them.
from .. import const

ATTRACT = "attract"
VISITOR = "visitor"
THINKING = "thinking"
SHOWING = "showing"
OVER = "over"
SERVICE = "service"  # the operator menu (nimatron.machine.service)

OFF = 0  # dark: taken, or not part of the game
LIT = 1  # in play
SELECTED = 2  # chosen by the visitor on a grid, not yet committed with DONE
HINT = 3  # teach mode: part of the winning move
TAKING = 4  # being taken by the machine (blinks, then goes OFF)
REFUSED = 5  # flashed briefly when a press or a selection is refused
CURSOR = 6  # the cursor where a pin map has one (drivers/cursor.py; its colour: drivers/presses.py)

# NeoPixel colours per state (R, G, B before the brightness cap). Meaning
# never rests on colour alone: the controller also blinks HINT slowly and
# TAKING quickly, and SELECTED lamps blink on discrete LEDs.
COLOURS = {
    OFF: (0, 0, 0),
    LIT: (255, 170, 60),  # warm white, like the 1940 lamps
    SELECTED: (0, 90, 255),  # blue
    HINT: (0, 255, 60),  # green
    TAKING: (255, 40, 0),  # orange-red
    REFUSED: (255, 0, 160),  # magenta
}
STATUS_COLOUR = (255, 255, 255)


# Blink rhythms, in ms, of attract mode and a game (a game's own periods are
# in ``game_lamps``). Each kind of lamp blinks in a rhythm of its own, so
# meaning never rests on colour alone (discrete LEDs have one colour), and none
# flashes more than 2.5 times a second: under the 3 a second that
# photosensitive-safety guidance allows.
SLOW_MS = 500  # half of 1 flash a second: the wave's step, the teaching hint, MACHINE WINS, "still playing?"
INVITE_MS = 1000  # attract mode's visitor lamp: 1 s on, 1 s off, a calm "press to play"
_WAVE_STEPS = const(4)  # attract's diagonal wave: each lamp lit one SLOW_MS step in four (0.5 s in every 2 s)


def blinks_on(t, half_ms):
    """True in the first half of each period of a blink (``t`` in ms from its start)."""
    return (t // half_ms) % 2 == 0


def attract_frame(layout, now):
    """Attract mode's lamps and status at ``now`` as a new frame (a board's
    start shows it as soon as its driver exists, ``app.make_controller``,
    while the controller's modules compile)."""
    lamps = [[OFF] * n for n in layout]
    status = {"visitor": 0, "machine": 0, "champ": 0, "machine_wins": 0}
    attract_lamps(lamps, status, now)
    return lamps, status


def attract_lamps(lamps, status, now):
    """Attract mode written into a frame, in place: a slow diagonal wave, each
    lamp lit 0.5 s in every 2 s, and the visitor's lamp blinking (INVITE_MS)."""
    step = now // SLOW_MS
    for r in range(len(lamps)):
        row = lamps[r]
        for i in range(len(row)):
            row[i] = LIT if (step + r + i) % _WAVE_STEPS == 0 else OFF
    status["visitor"] = 1 if blinks_on(now, INVITE_MS) else 0
    status["machine"] = status["champ"] = status["machine_wins"] = 0
