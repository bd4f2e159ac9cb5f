# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The machine: the game flow (``controller``), its buttons (debouncing,
stuck switches), the operator menu, audits, sound, storage and start-up.
"""


def identity(board):
    """Who the machine is: firmware version, board, pin map name and CRC
    (the boot event, ``HELLO``; ``nimatron deploy`` writes it beside the
    power levels it worked out, and ``limit`` checks it there)."""
    from .. import __version__, resource
    from .records import crc32

    crc = None
    try:
        with open(resource("config/pinmaps/" + board + ".json"), "rb") as f:
            crc = "%08x" % crc32(f.read())
    except Exception:  # an unknown board has no pin map to name
        pass
    return {"version": __version__, "board": board, "pinmap": board, "pinmap_crc": crc}
