# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The poll of a SET that applies new games does only that, on a board's
interpreter: it loads no module and drops none (issue 27: on the emulated
pico-grid ``SET preset graph`` applied in one pass of 903.6 ms, the games'
check searching; then 133 ms, the checker dropped and the old rules'
modules unloaded, two collections, with ``machine.unload`` loaded, in the
same pass). Under MicroPython, every grid preset in turn and a SET that
leaves the games alone (tests/mpy/run_set_apply.py).
"""

import pytest

import mpy_runner


@pytest.mark.micropython
def test_the_pass_that_applies_a_set_loads_and_drops_no_module(tmp_path):
    tree = mpy_runner.tree(str(tmp_path))
    commands = ["SET preset nim2d", "SET preset graph", "SET preset candy", "SET preset grundy",
                "SET preset building", "SET preset graph", "SET difficulty teach"]
    out = mpy_runner.run("mpy/run_set_apply.py", heap="256K", paths=(tree,), args=["pico-grid", "graph"] + commands)
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines[-1] == "ok %d" % len(commands), out.stdout
    assert len([line for line in lines if "applied: loaded [] dropped []" in line]) == len(commands)
