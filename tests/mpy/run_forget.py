# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# app.make_controller on a board drops the start-up-only modules (the pin
# map's checks, the power budget) and the settings' checks from memory; a
# settings change brings back what it needs, and drops it again after.
# MICROPYPATH=<compiled tree> micropython tests/mpy/run_forget.py
import gc
import sys

from fake_io import FakeIO
from nimatron.machine.app import PLAY_FREE, STARTUP_ONLY, make_controller

c = make_controller("circuitplayground", {"preset": "arcs"}, FakeIO())
for name in STARTUP_ONLY + PLAY_FREE + ("panels.playable",):
    assert "nimatron." + name not in sys.modules, name
gc.collect()
from nimatron.config.settings import resolve  # noqa: E402 - as SET brings it back

c.apply_settings(resolve({"brightness": 0.2}, "21counter"))  # the power budget is checked again, then dropped
assert "nimatron.config.power" not in sys.modules and "nimatron.panels.playable" not in sys.modules
assert c.settings["preset"] == "21counter"
try:
    c.apply_settings(resolve({"brightness": 1.0}, "arcs"))  # over the USB supply: refused
except ValueError as e:
    assert "mA" in str(e), e
else:
    raise AssertionError("brightness 1.0 accepted")
c.update(10)
c.press("new", 20)
assert c.position() == ([21], False)
print("ok")
