# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The first lamp, lit the moment code.py runs: the machine is alive.

Before the first frame of attract mode a board's start reads its store and
compiles the start-up, the settings, the pin map and the driver: 2.3 s from
plain ``.py`` on an RP2040 (emulated, issue 27), a dark machine all that
time. This lights one lamp first, as a pinball machine lights its lamps at
power-on: the MACHINE status lamp (white: the machine is busy), or on a board
without status lamps the panel's first lamp (attract mode's colour; the wave
starts there). The driver's first frame takes over from it.

NeoPixels only: a pixel keeps its colour once the pin is let go, so the
driver can claim the pin again. A discrete LED goes dark when its pin is
let go, so those boards wait for the driver. Written with CircuitPython's
``neopixel_write``, not the neopixel library (its compile from ``.py`` is
part of what this lamp comes before). Never raises: whatever fails here,
the start goes on and says what is wrong itself.
"""

import json

from .. import load_json
from ..config import STATUS
from ..machine.ports import COLOURS, LIT, STATUS_COLOUR


def light(board_name, settings_path):
    """Light the first lamp of the board the start will open: the settings
    file's ``"board"``, else ``board_name`` (code.py's ``BOARD``). Returns
    the pixel lit, or None (nothing lit: not NeoPixels, or anything failed)."""
    try:
        spec = load_json("config/pinmaps/%s.json" % _board(board_name, settings_path))
        lamps = spec["lamps"]
        if lamps.get("kind") != "neopixel":
            return None
        pixel, colour = first_pixel(lamps)
        order = lamps.get("order", "GRB")
        level = spec.get("brightness", 1.0)
        data = bytearray(len(order) * lamps["pixels"])  # the others dark (a reload's last frame cleared)
        at = len(order) * pixel
        for i in range(len(order)):
            k = "RGB".find(order[i])
            data[at + i] = int(colour[k] * level) if k >= 0 else 0  # W (RGBW): not used
        _write(lamps["pin"], data)
        return pixel
    except Exception:  # never in the start's way
        return None


def first_pixel(lamps):
    """(pixel, colour) of the first lamp a NeoPixel lamp map lights: its
    MACHINE status pixel, else the panel's first lamp (row 0, lamp 0 of the
    board's own layout, where ``drivers.lamp_pixels`` places it: the ``map``'s
    first pixel on a fixed board that has one, else ``first``; read here,
    not with ``lamp_pixels``, whose refusals need ``config.boards``)."""
    status = lamps.get("status") or ()
    if len(status) == len(STATUS):
        return status[STATUS.index("machine")], STATUS_COLOUR
    places = lamps.get("map") if lamps.get("fixed") else None
    return places[0][0] if places else lamps["first"], COLOURS[LIT]


def _board(board_name, settings_path):
    """The settings file's board if it names one, as the start chooses it
    (``machine.starting``); its other checks are the start's."""
    try:
        with open(settings_path) as f:
            named = json.load(f).get("board")
        if isinstance(named, str) and named:
            return named
    except Exception:  # no file, bad JSON, not an object: code.py's BOARD
        pass
    return board_name


def _write(pin_name, data):
    """``data`` out on the pin, which is then let go (the pixels hold it)."""
    import neopixel_write  # first: a machine without it never touches ``board``
    import board
    import digitalio

    pin = digitalio.DigitalInOut(getattr(board, pin_name))
    try:
        pin.direction = digitalio.Direction.OUTPUT
        neopixel_write.neopixel_write(pin, data)
    finally:
        pin.deinit()
