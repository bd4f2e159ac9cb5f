# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A simulator's virtual clock kept in step with the wall clock.

The terminal app asks every 30 ms, the web server whenever a page asks:
both run the machine for the time that has passed since, less what presses
already spent (a tap runs the machine through its hold and release), never
more than a second at once (after a stall, such as a suspended laptop, the
machine does not race ahead).

    wall = WallClock()
    face.advance(wall.due())          # whole virtual ms to run now
    wall.spent(face.tap("done"))      # a press ran ahead of the wall clock
"""

import time

MAX_STEP_MS = 1000


class WallClock:
    def __init__(self, clock=time.monotonic, max_step_ms=MAX_STEP_MS):
        self.clock = clock  # seconds
        self.max_step_ms = max_step_ms
        self.last = clock()
        self.carry = 0.0  # fractions of a ms, kept for the next call
        self.ahead = 0.0  # virtual ms already spent by presses

    def due(self):
        """Whole virtual milliseconds to run the machine for, now."""
        now = self.clock()
        ms = min(self.max_step_ms, (now - self.last) * 1000.0) + self.carry
        self.last = now
        if self.ahead:
            used = min(self.ahead, ms)
            self.ahead -= used
            ms -= used
        whole = int(ms)
        self.carry = ms - whole
        return whole

    def spent(self, ms):
        """A press ran the machine ``ms`` ahead of the wall clock."""
        self.ahead += ms
