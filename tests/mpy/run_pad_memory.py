# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# The MacroPad's driver keeps no module it only needed for a moment: the
# OLED's attract text and a turn of the encoder read the preset's words from
# config.settings and drop it again; the binary words (games.explain) load
# only for a preset that shows them; the cursor of a board with few buttons
# only where the pin map has one. Prints the modules resident after each.
# MICROPYPATH=<compiled tree with fake_io> micropython tests/mpy/run_pad_memory.py
import sys

from fake_io import FakeIO
from nimatron.drivers.choosing import choose_preset
from nimatron.drivers.oled import lines
from nimatron.machine.app import make_controller


def resident(name):
    return ("nimatron." + name) in sys.modules


c = make_controller("macropad", {"preset": "pad-nim"}, FakeIO())
assert not resident("config.settings"), "config.settings after the start"
text = lines(c)
assert text[1] == "game: pad-nim", text
print("attract", resident("config.settings"), resident("games.explain"))
c.update(10)
c.press("new", 20)
c.update(30)
text = lines(c)
assert text[1] == "nim" and c.state in ("visitor", "thinking"), text
print("nim", resident("config.settings"), resident("games.explain"))
assert choose_preset(c, ["pad-nim", "pad-nimrod"], 1) == "pad-nimrod"
assert c.settings["preset"] == "pad-nimrod" and c.settings["explain"]
print("encoder", resident("config.settings"), resident("drivers.choosing"))
import gc  # noqa: E402

from nimatron.config.boards import board  # noqa: E402

spec = board("macropad")
gc.collect()
before = gc.mem_alloc()
from nimatron.drivers.presses import Presses  # noqa: E402 - measured from here

keys = Presses(spec)  # a key under every lamp: no cursor
gc.collect()
print("cursor", resident("drivers.cursor"), gc.mem_alloc() - before, end=" ")
p = Presses(board("circuitplayground"))  # ten lamps, two buttons: a cursor
print(resident("drivers.cursor"), p.at is None)
