# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The power budget a running machine checks each new brightness against.

    limit = PowerLimit("pico-grid", spec)
    limit(settings)   # the level to drive the lamps at, or PowerError

``app.make_controller`` hands one to the ``Controller`` (``limit``): a
module of its own so that, on a board, ``app`` (which builds the machine)
can leave the heap once the machine has started (``startup.START_ONLY``)
while the controller keeps this small object.
"""

from .. import forget

STARTUP_ONLY = ("config.boards", "config.power")  # needed again only when settings change


class PowerLimit:
    """The power budget of one board: the brightness to drive at, or
    PowerError. A SET that keeps the brightness compiles nothing (``power``
    is 12 KB of heap and a tenth of a second on a board); one that changes
    it drops ``power`` again after."""

    def __init__(self, board_name, spec):
        self.board_name = board_name
        self.spec = spec
        self.checked = {}  # brightness -> level: the budget depends on nothing else

    def __call__(self, settings):
        brightness = settings["brightness"]
        checked = self.checked
        if brightness not in checked:
            from ..config import power

            try:
                level = power.check(self.board_name, self.spec, brightness)
            finally:
                if checked:  # a start forgets them itself, after its last use
                    forget(STARTUP_ONLY)
            checked.clear()
            checked[brightness] = level
        return checked[brightness]
