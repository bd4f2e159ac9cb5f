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
    is dear in heap and compile time on a board); one that changes
    it drops ``power`` again after."""

    def __init__(self, board_name, spec):
        self.board_name = board_name
        self.spec = spec
        self.checked = {}  # brightness -> level: the budget depends on nothing else

    def __call__(self, settings):
        brightness = settings["brightness"]
        checked = self.checked
        if brightness not in checked:
            own = self.spec.get("brightness", 1.0) if brightness is None else brightness  # None: the pin map's
            level = deployed_level(self.board_name, own)
            if level is None:  # not worked out by the deploy: here, and a refusal says why
                from ..config import power

                try:
                    level = power.check(self.board_name, self.spec, brightness)
                finally:
                    if checked:  # a start forgets them itself, after its last use
                        forget(STARTUP_ONLY)
            checked.clear()
            checked[brightness] = level
        return checked[brightness]


def deployed_level(board, brightness):
    """The level ``nimatron deploy`` worked out for ``brightness`` on this
    board (``config/choices.txt``'s ``power`` line, for the pin map with the
    CRC it names: an edited pin map is checked here), or None: not listed
    (refused there, or another value), another pin map, no file. Checked
    here, every start loaded ``config.power``: names CircuitPython never
    frees (a MacroPad's day of play came within a few names of its pool's
    next step) and its compiling from ``.py``."""
    from .. import resource

    try:
        with open(resource("config/choices.txt")) as f:
            for line in f:
                if line[:6] == "power ":
                    from . import identity  # the machine package's, resident on a board

                    words = line.split()
                    if words[1] != board or words[2] != identity(board)["pinmap_crc"]:
                        return None
                    for word in words[3:]:
                        pair = word.split("=")
                        if float(pair[0]) == brightness:
                            return float(pair[1])
                    return None
    except Exception:  # no file, or one that cannot be read: checked here
        pass
    return None
