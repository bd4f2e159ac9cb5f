# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A board's built-in display on the bench: real displayio, pixels in memory.

The MacroPad's ``board.DISPLAY`` is a ``displayio`` display that
CircuitPython sets up. Here it is ``busdisplay.BusDisplay`` from
``adafruit-blinka-displayio`` (the same Group/Label/TileGrid rendering) on a
bus that, instead of SPI, decodes the column, row and RAM-write commands
into a 128x64 framebuffer: what the firmware drew, pixel by pixel, ready to
be checked by tests and saved as a PNG. Refreshed when the firmware changes
the text (``auto_refresh`` off and out of displayio's pool: no background
thread touches it, so runs are deterministic).
"""

import struct
import zlib

# Blinka's display modules ask Blinka which board this is when first loaded:
# the OS-agnostic board must be chosen before that, or a later bench finds
# a "real" PC board (``blinka_mock`` sets it at import).
from . import blinka_mock

SET_COLUMN, SET_ROW, WRITE_RAM = 0x2A, 0x2B, 0x2C


class _Unseen(list):
    """A display pool that takes a display but shows displayio's thread none."""

    def __iter__(self):
        return iter(())


class ExtrasMissing(ValueError):
    """The simulator's optional libraries (``nimatron[sim]``) are not installed:
    a ValueError, so every front end says it in one line, as a bad board."""


class TiledFont:
    """The terminal font as CircuitPython has it: every glyph a tile of one
    bitmap (``FONT.bitmap``, ``glyph.tile_index``), which a ``TileGrid`` of
    text draws from. Blinka's ``terminalio.FONT`` gives each glyph a bitmap
    of its own (``tile_index`` 0) and its ``bitmap`` is not a bitmap; the
    glyphs' sizes and offsets are kept, so a ``Label`` draws the same pixels."""

    def __init__(self, font):
        import displayio
        from fontio import Glyph

        self._font = font
        width, height = font.get_bounding_box()[:2]
        codes = [c for c in range(0x20, 0x7F) if font.get_glyph(c) is not None]
        self.bitmap = displayio.Bitmap(width * len(codes), height, 2)
        self._glyphs = {}
        for k, c in enumerate(codes):
            g = font.get_glyph(c)
            for y in range(min(height, g.bitmap.height)):
                for x in range(min(width, g.bitmap.width)):
                    self.bitmap[k * width + x, y] = g.bitmap[x, y]
            self._glyphs[c] = Glyph(self.bitmap, k, width, height, g.dx, g.dy, g.shift_x, g.shift_y)

    def get_bounding_box(self):
        return self._font.get_bounding_box()

    def get_glyph(self, codepoint):
        return self._glyphs.get(codepoint)


def make_display(width=128, height=64):
    """A displayio display whose panel is ``display.bus.pixels`` (rows of 0/1)."""
    try:
        import busdisplay
        import displayio  # the pool below
        import fourwire
        import terminalio
    except ImportError as e:
        raise ExtrasMissing(
            "a board with a display (the MacroPad's OLED) needs the simulator's extras (%s): "
            "pip install 'nimatron[sim]'" % (e.name or e)
        ) from e
    if not isinstance(terminalio.FONT, TiledFont):  # once: the board's font, a tile a glyph
        terminalio.FONT = TiledFont(terminalio.FONT)

    class BenchBus(fourwire.FourWire):
        """fourwire's interface with the wires replaced by a framebuffer."""

        def __init__(self):  # no SPI, no pins
            self.pixels = [[0] * width for _ in range(height)]
            self.frames = 0
            self._command = None
            self._columns = (0, 0)
            self._rows = (0, 0)

        def reset(self):
            pass

        def _free(self):
            return True

        def _begin_transaction(self):
            return True

        def _end_transaction(self):
            pass

        def _send(self, data_type, chip_select, data):
            from displayio._constants import DISPLAY_COMMAND

            if data_type == DISPLAY_COMMAND:
                self._command = data[0]
            elif self._command == SET_COLUMN:
                self._columns = struct.unpack(">HH", bytes(data))
            elif self._command == SET_ROW:
                self._rows = struct.unpack(">HH", bytes(data))
            elif self._command == WRITE_RAM:
                x0, y0 = self._columns[0], self._rows[0]
                across = self._columns[1] - x0 + 1
                for k in range(len(data) // 2):  # RGB565: any colour is a lit OLED pixel
                    y, x = y0 + k // across, x0 + k % across
                    if y < height and x < width:
                        self.pixels[y][x] = 1 if data[2 * k] | data[2 * k + 1] else 0
                self.frames += 1

    import displayio

    bus = BenchBus()
    # Never in displayio's pool (one display, like a board's limit, and a
    # background thread that refreshes what is there): each bench owns its
    # display. BusDisplay joins the pool in __init__, before it has set its
    # own attributes, where the thread could meet it half-built ('BusDisplay'
    # object has no attribute '_auto_refresh': the thread died, on a loaded
    # machine only). So it is built while the pool is a list of its own, and
    # one the thread (which reads the same module global) finds empty.
    pool, displayio.displays = displayio.displays, _Unseen()
    try:
        display = busdisplay.BusDisplay(bus, b"", width=width, height=height, color_depth=16, auto_refresh=False)
    finally:
        displayio.displays = pool
    display.bus_pixels = bus.pixels
    return display


def png(pixels, scale=2, on=(120, 200, 255), off=(0, 0, 0)):
    """PNG bytes of a framebuffer (rows of 0/1), each pixel ``scale`` square."""
    rows = []
    for row in pixels:
        line = bytearray([0])  # filter: none
        for p in row:
            line.extend(bytes(on if p else off) * scale)
        rows.extend([bytes(line)] * scale)
    height, width = len(pixels) * scale, (len(pixels[0]) if pixels else 0) * scale

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"".join(rows)))
        + chunk(b"IEND", b"")
    )


# (row, column, bit) of the eight dots of a braille cell, two across and four down
DOTS = ((0, 0, 0x01), (1, 0, 0x02), (2, 0, 0x04), (0, 1, 0x08), (1, 1, 0x10), (2, 1, 0x20), (3, 0, 0x40), (3, 1, 0x80))


def braille(pixels):
    """A framebuffer (rows of 0/1) as lines of braille: each character 2x4
    pixels, so 128x64 is 64 columns by 16 lines of a terminal."""
    height = len(pixels)
    width = len(pixels[0]) if pixels else 0
    out = []
    for y in range(0, height, 4):
        line = []
        for x in range(0, width, 2):
            bits = 0
            for dy, dx, bit in DOTS:
                if y + dy < height and x + dx < width and pixels[y + dy][x + dx]:
                    bits |= bit
            line.append(chr(0x2800 + bits))
        out.append("".join(line))
    return out


def new_display(bench, name):
    """A built-in display (``board.<name>``, ``board.DISPLAY``) on ``bench``'s board."""
    display = make_display()
    setattr(blinka_mock.install(), name, display)
    return display
