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
    only when something changed.

``io.events()``
    Every button edge since the last call, oldest first, as
    ``(role, pressed)``: ``role`` is ``"row0"``..., ``"done"``, ``"new"``,
    or ``"key R I"`` (the key under lamp I of row R, grid boards);
    ``pressed`` is True for a press, False for a release. Raw edges: the
    controller debounces.

and ``io.close()`` (safe to call twice). A fake for tests is a dozen lines.
"""

# The controller's states (``controller.state``), as front ends read them.
ATTRACT = "attract"
VISITOR = "visitor"
THINKING = "thinking"
SHOWING = "showing"
OVER = "over"
SERVICE = "service"  # the operator menu (nimatron.machine.service)

OFF = 0        # dark: taken, or not part of the game
LIT = 1        # in play
SELECTED = 2   # chosen by the visitor on a grid, not yet committed with DONE
HINT = 3       # teach mode: part of the winning move
TAKING = 4     # being taken by the machine (blinks, then goes OFF)
REFUSED = 5    # flashed briefly when a press or a selection is refused

# NeoPixel colours per state (R, G, B before the brightness cap). Meaning
# never rests on colour alone: the controller also blinks HINT slowly and
# TAKING quickly, and SELECTED lamps blink on discrete LEDs.
COLOURS = {
    OFF: (0, 0, 0),
    LIT: (255, 170, 60),      # warm white, like the 1940 lamps
    SELECTED: (0, 90, 255),   # blue
    HINT: (0, 255, 60),       # green
    TAKING: (255, 40, 0),     # orange-red
    REFUSED: (255, 0, 160),   # magenta
}
STATUS_COLOUR = (255, 255, 255)


def attract_frame(layout, now):
    """Attract mode's lamps and status at ``now``: a slow diagonal wave, each
    lamp lit 0.5 s in every 2 s, and the visitor's lamp blinking once a second.
    The controller shows it; so does a board's start, as soon as its driver
    exists (``app.make_controller``), while the controller's modules compile."""
    step = now // 500
    lamps = []
    for r in range(len(layout)):
        lamps.append([LIT if (step + r + i) % 4 == 0 else OFF for i in range(layout[r])])
    return lamps, {"visitor": 1 if (now // 1000) % 2 == 0 else 0, "machine": 0, "champ": 0, "machine_wins": 0}
