# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Will a board start with these settings? The firmware's own start-up, dry.

``deploy`` and ``install-pi`` write settings that a machine reads later,
alone, in a museum. They are checked here by the code the machine starts
with (``nimatron.machine.app.make_controller``: pin map, settings, layout, the
controller's own checks), on a dry io that opens no hardware, so a board
or preset that cannot run is refused now, with the message the simulator
gives, not found out later as a dark exhibit.
"""

from .cli import UsageError


class DryIO:
    """The controller's io port with nothing behind it: no pins, no presses."""

    def show(self, lamps, status):
        pass

    def events(self):
        return ()

    def close(self):
        pass


def check(board, overrides=None):
    """UsageError (one line, as ``nimatron sim`` says it) unless the machine would start."""
    from nimatron.machine import app

    try:
        controller = app.make_controller(board, dict(overrides or {}), io=DryIO())
    except (ValueError, TypeError, OverflowError, RecursionError) as e:
        # BoardError, SettingsError, PanelError are ValueErrors; the rest is a value no check caught
        raise UsageError(str(e).split("\n")[0] or e.__class__.__name__) from e
    controller.io.close()
