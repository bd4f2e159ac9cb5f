# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The cursor of a board with few buttons (``presses``: ``"cursor": {"move":
..., "select": ...}``, the Circuit Playground): *move* steps it to the next
lamp in play, *select* presses the key under it. It shows only on the
visitor's turn, blinking slowly (``CURSOR_MS`` on, the same off) in a dim,
cooler light than a lamp. A module of its own, loaded only where a pin map
has a cursor: the MacroPad, a key under every lamp, kept it for nothing.
"""

from ..machine.ports import CURSOR

CURSOR_MS = 600


class Cursor:
    def __init__(self, presses):
        self.presses = presses  # its ``now``, ``_press`` (a plain press out of the visitor's turn)
        self.lamps = []  # lamps in play, in order
        self.at = None  # the cursor's lamp
        self.moved = 0  # when the cursor last moved (it shows at once)
        self.active = False  # the visitor's turn: the cursor shows

    def watch(self, controller, now):
        """Follow the game: which lamps are in play, whose turn it is."""
        panel = controller.panel
        lamps = []
        pick = getattr(panel, "selectable", None)  # a counter: its choice lamps only
        if pick is not None:
            lamps = pick()
        elif panel is not None:
            lit = panel.lit
            for r in range(len(lit)):
                for i in range(len(lit[r])):
                    if lit[r][i]:
                        lamps.append((r, i))
        self.lamps = lamps
        active = controller.state == "visitor" and bool(lamps)
        if active and not self.active:
            self.moved = now
        self.active = active
        if lamps and self.at not in lamps:
            self.at = self._after(self.at)

    def _after(self, at):
        """The next lamp in play after ``at`` (round the end), or None."""
        lamps = self.lamps
        if not lamps:
            return None
        for lamp in lamps:
            if at is None or lamp > at:
                return lamp
        return lamps[0]

    def move(self):
        if not self.active:
            self.presses._press("done")  # out of the visitor's turn: any button plays
            return
        self.at = self._after(self.at)
        self.moved = self.presses.now

    def select(self):
        if not self.active or self.at is None:
            self.presses._press("done")
            return
        self.presses._press("key %d %d" % self.at)
        self.moved = self.presses.now

    def shown(self, now):
        """The cursor's lamp if it shows at ``now`` (the on half of its blink), else None."""
        if not self.active or self.at is None:
            return None
        if (now - self.moved) // CURSOR_MS % 2:
            return None
        return self.at

    def overlay(self, lamps, now):
        """The lamp states with the cursor drawn in (a new list)."""
        at = self.shown(now)
        if at is None or at[0] >= len(lamps) or at[1] >= len(lamps[at[0]]):
            return lamps
        out = [list(row) for row in lamps]
        out[at[0]][at[1]] = CURSOR
        return out
