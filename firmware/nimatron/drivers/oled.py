# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A small built-in display (the MacroPad's 128x64 OLED) as Nimrod's panel.

Five lines of the board's own terminal font through ``displayio``: the
status words, the rules, the position, and in ``explain`` presets the
reasoning in binary (each heap, then the nim-sum), as the Ferranti Nimrod
showed it in 1951. In attract mode: the game the encoder has chosen.

``lines(controller)`` is the text layer (pure, tested without a screen);
``Oled`` puts it on ``board.DISPLAY`` when it changes. CircuitPython
refreshes the display by itself; a display with ``auto_refresh`` off (the
simulator's) is refreshed here.
"""

WIDTH = 21        # characters of the 6x12 terminal font across 128 pixels
LINE_Y = (6, 19, 32, 45, 58)
WORDS = {"attract": "NIMATRON", "visitor": "YOUR TURN", "thinking": "MACHINE THINKING",
         "showing": "MACHINE MOVES"}


def _wrap(text, lines):
    out = []
    while text and len(out) < lines:
        cut = len(text) if len(text) <= WIDTH else text.rfind(" ", 0, WIDTH + 1)
        if cut <= 0:
            cut = WIDTH
        out.append(text[:cut])
        text = text[cut:].strip()
    return out


def lines(controller):
    """The five lines of text for the controller's state."""
    from ..games.explain import binary, label

    state = controller.state
    settings = controller.settings
    position = controller.position()
    if state == "attract" or position is None:
        from ..config.settings import load_preset

        about = load_preset(settings["preset"]).get("about", "")
        out = ["NIMATRON", "game: " + settings["preset"]] + _wrap(about, 2)
        out.append("press a key to play")
        return (out + [""] * 5)[:5]
    if state == "over":
        words = "NIM CHAMP!" if controller.winner == "visitor" else "MACHINE WINS"
    else:
        words = WORDS.get(state, state.upper())
    rules = controller.rules
    heaps, ring = position
    out = [words, rules.spec + (" misere" if controller.misere else "")]
    out.extend(_wrap(rules.position_words(heaps, ring), 2))   # the rule set's own words, as every face says them
    if settings["explain"] and rules.nim_sum and heaps:
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


class Oled:
    def __init__(self, display):
        import displayio
        import terminalio
        from adafruit_display_text import label

        self.display = display
        self.text = [""] * len(LINE_Y)
        self._labels = []
        group = displayio.Group()
        for y in LINE_Y:
            line = label.Label(terminalio.FONT, text="", color=0xFFFFFF, x=0, y=y)
            self._labels.append(line)
            group.append(line)
        display.root_group = group
        self._key = None

    def watch(self, controller, now):
        key = (controller.state, controller.position(), controller.settings["preset"], controller.winner,
               controller.misere)
        if key == self._key:
            return
        self._key = key
        self.show(lines(controller))

    def show(self, text):
        changed = False
        for k in range(len(self._labels)):
            if text[k] != self.text[k]:
                self.text[k] = text[k]
                self._labels[k].text = text[k]
                changed = True
        if changed and not getattr(self.display, "auto_refresh", True):
            self.display.refresh()

    def deinit(self):
        self.display.root_group = None
