# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The core imports no hardware library.

Every module of the ``nimatron`` package (firmware/nimatron, found by
walking the folder; the ``drivers`` subpackage excepted, it adapts real
hardware libraries) is imported in a fresh interpreter in which ``board``,
``digitalio``, ``keypad``, ``neopixel``, ``gpiozero``, ``busio`` and
``microcontroller`` cannot be imported, as on a PC without them.
"""

import os
import subprocess
import sys

import pytest
from kit_core import core_modules

HERE = os.path.dirname(os.path.abspath(__file__))
FIRMWARE = os.path.join(os.path.dirname(HERE), "firmware")
PACKAGE = os.path.join(FIRMWARE, "nimatron")
HARDWARE = ("board", "digitalio", "keypad", "neopixel", "gpiozero", "busio", "microcontroller")

BLOCKER = """
import sys

HARDWARE = %r


class Blocked:
    \"\"\"Refuse hardware libraries and everything below them.\"\"\"

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in HARDWARE:
            raise ImportError("hardware library %%r imported by the core"
                              %% name)
        return None


for name in list(sys.modules):
    if name.split(".")[0] in HARDWARE:
        del sys.modules[name]
sys.meta_path.insert(0, Blocked())
sys.path.insert(0, %r)

import importlib
for module in sys.argv[1:]:
    importlib.import_module(module)
    print("imported", module)
leaked = [m for m in sys.modules if m.split(".")[0] in HARDWARE]
assert not leaked, leaked
"""


def run_blocked(modules):
    code = BLOCKER % (HARDWARE, FIRMWARE)
    return subprocess.run(
        [sys.executable, "-c", code] + modules, capture_output=True, text=True, timeout=120, cwd=os.path.dirname(HERE)
    )


def test_modules_found():
    modules = core_modules()
    assert "nimatron" in modules
    assert "nimatron.games.strategy" in modules and "nimatron.games.rules" in modules
    assert not [m for m in modules if m.startswith("nimatron.drivers")]


@pytest.mark.parametrize("module", core_modules())
def test_core_module_imports_without_hardware(module):
    done = run_blocked([module])
    assert done.returncode == 0, done.stderr[-3000:]
    assert "imported " + module in done.stdout


def test_whole_core_imports_together_without_hardware():
    done = run_blocked(core_modules())
    assert done.returncode == 0, done.stderr[-3000:]


def test_blocker_blocks():
    """The fence itself works: a hardware import fails inside it."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            BLOCKER % (HARDWARE, FIRMWARE) + "\ntry:\n    import gpiozero\nexcept ImportError:\n    print('blocked')\n",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "blocked" in done.stdout
