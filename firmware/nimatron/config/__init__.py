# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""What a machine is configured as: board pin maps (``pinmaps/``),
presets (``presets.json``), checked settings and the power budget.
"""


class SettingsError(ValueError):
    """A setting with a bad name or value (here, not in ``settings``: a board
    drops ``settings`` while games play, and the checks that raise this need
    not bring it back)."""


# The four status lamps, in a board's order (``boards.STATUS``): here, so that the
# operator menu names them without loading the pin maps' module again (a
# whole pass of its own on a stock Pico)
STATUS = ("visitor", "machine", "champ", "machine_wins")
SOURCE_MISSING = "missing"  # why a settings source gave nothing: there is no file (``startup.read_source``)
