# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# app.make_controller on a board drops the start-up-only modules (the pin
# map's checks, the power budget) from memory, and a settings change brings
# them back. MICROPYPATH=<compiled tree> micropython tests/mpy/run_forget.py
import gc
import sys

from fake_io import FakeIO
from nimatron.machine.app import STARTUP_ONLY, make_controller
from nimatron.config.settings import resolve

c = make_controller("circuitplayground", {"preset": "arcs"}, FakeIO())
for name in STARTUP_ONLY:
    assert "nimatron." + name not in sys.modules, name
gc.collect()
c.apply_settings(resolve({"brightness": 0.2}, "21counter"))  # the power budget is checked again
assert "nimatron.config.power" in sys.modules and c.settings["preset"] == "21counter"
try:
    c.apply_settings(resolve({"brightness": 1.0}, "arcs"))       # over the USB supply: refused
except ValueError as e:
    assert "mA" in str(e), e
else:
    raise AssertionError("brightness 1.0 accepted")
c.update(10)
c.press("new", 20)
assert c.position() == ([21], False)
print("ok")
