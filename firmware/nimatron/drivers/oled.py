# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A small built-in display (the MacroPad's 128x64 OLED) as Nimrod's panel.

Five lines of the board's own terminal font through ``displayio``: the
status words, the rules, the position, and in ``explain`` presets the
reasoning in binary (each heap, then the nim-sum), as the Ferranti Nimrod
showed it in 1951. In attract mode: the game the encoder has chosen.

``lines(controller)`` is the text layer (pure, tested without a screen);
``Oled`` puts it on ``board.DISPLAY`` when it changes, one changed line a
pass, and refreshes the display itself (``auto_refresh`` off). Left to
CircuitPython, the refresh ran in a background task inside whichever pass
came next, the whole new text at once: most of a stock MacroPad's tick
(the SH1106 on a 1 MHz SPI bus, displayio rendering every pixel of the
changed area), added to a command's, a collection's or a press's pass. One
line's changed characters take a fraction of that.
"""

from .. import const
from ..passes import mark

_WIDTH = const(21)  # characters of the 6x12 terminal font across 128 pixels
LINE_Y = (6, 19, 32, 45, 58)  # the middle of each line's 12 pixels, as a text label's ``y``
TOP = 5  # from a line's y to the top of its tiles, where a label draws the font
WORDS = {"attract": "NIMATRON", "visitor": "YOUR TURN", "thinking": "MACHINE THINKING", "showing": "MACHINE MOVES"}


def _wrap(text, lines):
    out = []  # type: list[str]
    while text and len(out) < lines:
        cut = len(text) if len(text) <= _WIDTH else text.rfind(" ", 0, _WIDTH + 1)
        if cut <= 0:
            cut = _WIDTH
        out.append(text[:cut])
        text = text[cut:].strip()
    return out


def about(preset):
    """A preset's own words (its "about"), read from the presets file."""
    from .. import forget
    from ..config.settings import load_preset

    words = load_preset(preset).get("about", "")
    forget(("config.settings", "config.values"))  # its heap is for the games
    return words


def lines(controller, words=None):
    """The five lines of text for the controller's state (``words``: the
    preset's "about", if the caller has it already)."""
    state = controller.state
    settings = controller.settings
    position = controller.position()
    if state == "attract" or position is None:
        if words is None:
            words = about(settings["preset"])
        out = ["NIMATRON", "game: " + settings["preset"]] + _wrap(words, 2)
        out.append("press a key to play")
        return (out + [""] * 5)[:5]
    if state == "over":
        words = "NIM CHAMP!" if controller.winner == "visitor" else "MACHINE WINS"
    else:
        words = WORDS.get(state, state.upper())
    rules = controller.rules
    heaps, ring = position
    out = [words, rules.spec + (" misere" if controller.misere else "")]
    out.extend(_wrap(rules.position_words(heaps, ring), 2))  # the rule set's own words, as every face says them
    if settings["explain"] and rules.nim_sum and heaps:
        from ..games.explain import binary, label

        width = 1
        while (1 << width) <= max(heaps):
            width += 1
        out.append(" ".join(label(r) + binary(heaps[r], width) for r in range(len(heaps))))
        x = 0
        for h in heaps:
            x ^= h
        out.append("nim-sum %s%s" % (binary(x, width), " = 0" if not x else ""))
    elif settings["explain"] and state != "over":
        out.extend(_wrap(controller.explain(), 2))
    elif state == "visitor":
        out.extend(["keys: choose lamps", "then DONE (encoder)"])
    return (out + [""] * 5)[:5]


def _same(rows, lit):
    """The lamps ``lit`` (a panel's rows) are as ``rows`` copied them."""
    if rows is None or len(rows) != len(lit):
        return False
    for r in range(len(lit)):
        a, b = rows[r], lit[r]
        if len(a) != len(b):
            return False
        for i in range(len(b)):
            if a[i] != b[i]:
                return False
    return True


class Oled:
    """The text on the display: one ``TileGrid`` a line over the built-in
    font's bitmap, a tile per character. No object per letter and no
    library: ``adafruit_display_text``'s ``Label`` builds a ``TileGrid`` for
    every glyph, and its two modules (900 lines) compiled from ``.py`` on the
    board, which left the stock MacroPad too little heap to play."""

    def __init__(self, display, font=None):
        import displayio

        if font is None:
            import terminalio

            font = terminalio.FONT
        width, height = font.get_bounding_box()[:2]
        blank = font.get_glyph(32).tile_index
        tiles = bytearray(96)  # the tile of each printable ASCII character; else "?"
        for c in range(32, 127):
            glyph = font.get_glyph(c)
            tiles[c - 32] = glyph.tile_index if glyph is not None else blank
        tiles[95] = tiles[ord("?") - 32]
        self._tiles = tiles
        palette = displayio.Palette(2)
        palette[0] = 0x000000
        palette[1] = 0xFFFFFF
        self.display = display
        self.text = [""] * len(LINE_Y)
        self._rows = []
        group = displayio.Group()
        for y in LINE_Y:
            row = displayio.TileGrid(
                font.bitmap,
                pixel_shader=palette,
                width=_WIDTH,
                height=1,
                tile_width=width,
                tile_height=height,
                default_tile=blank,
                x=0,
                y=y - TOP,
            )
            self._rows.append(row)
            group.append(row)
        display.root_group = group
        self._refreshing = getattr(display, "auto_refresh", False)
        if self._refreshing:
            display.auto_refresh = False  # refreshed here, a line at a time (``show``)
        self._drawn = [bytearray(b" " * _WIDTH) for _ in LINE_Y]  # the characters on each line's tiles
        self._wanted = None  # the text being drawn, a line a pass
        # what the text last shown says: state, preset, winner, misere, the lamps lit (copied)
        self._state = self._preset = self._winner = self._misere = None
        self._lit = None
        self._about = (None, None)  # (preset, its words): read once a preset, not at every return to attract

    def watch(self, controller, now):
        """New text when what it says may have changed: compared in place, so
        a quiet pass builds nothing (no position, no key) and leaves no garbage."""
        panel = controller.panel
        lit = panel.lit if panel is not None else ()
        if (
            self._state == controller.state
            and self._preset == controller.settings["preset"]
            and self._winner == controller.winner
            and self._misere == controller.misere
            and _same(self._lit, lit)
        ):
            if self._wanted is not None:
                self._draw_line()  # the next line of text still to draw
            return
        self._state = controller.state
        self._preset = controller.settings["preset"]
        self._winner = controller.winner
        self._misere = controller.misere
        self._lit = [list(row) for row in lit]
        words = None
        if controller.state == "attract" or panel is None:
            if self._about[0] != self._preset:
                self._about = (self._preset, about(self._preset))
            words = self._about[1]
        self.show(lines(controller, words))

    def show(self, text):
        """Show ``text`` (five lines): its first changed line now, the rest
        one a call of ``watch`` (a pass each)."""
        self._wanted = text
        self._draw_line()

    def _draw_line(self):
        """Draw one line of ``_wanted`` that differs from what is shown (only
        its changed characters' tiles: the display renders just those), and
        refresh; None left to draw once all are shown."""
        wanted = self._wanted  # type: list[str]  # type: ignore[assignment]  # set by show; watch draws only while it is
        for k in range(len(self._rows)):
            if wanted[k] != self.text[k]:
                self.text[k] = wanted[k]
                data = wanted[k].encode()
                drawn = self._drawn[k]
                row = self._rows[k]
                tiles = self._tiles
                for x in range(_WIDTH):
                    c = data[x] if x < len(data) else 32
                    if c != drawn[x]:
                        drawn[x] = c
                        c -= 32
                        row[x] = tiles[c if 0 <= c < 95 else 95]
                if not getattr(self.display, "auto_refresh", True):
                    self.display.refresh()
                mark()  # a line's refresh is a heavy thing in a stock MacroPad's pass: the link's step waits for the next
                return
        self._wanted = None

    def deinit(self):
        self.display.root_group = None
        if self._refreshing:
            self.display.auto_refresh = True  # CircuitPython's own terminal again
