# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The hardware generator's own code stays as readable as the firmware: no
function longer than a reader holds in one screen, and one typed design
object whose properties agree with the parts it lists."""

import ast
import dataclasses
import pathlib

import pytest

from nimatron_host import hardware
from nimatron_host.hardware.design import Design

PACKAGE = pathlib.Path(hardware.__file__).parent
LONGEST = 60   # lines, from ``def`` to the function's last line, its docstring included


def long_functions(source, longest=LONGEST):
    """[(qualified name, lines)] of every function in ``source`` longer than ``longest``."""
    out = []

    def visit(node, prefix):
        for child in ast.iter_child_nodes(node):
            name = prefix
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = prefix + child.name + "."
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = child.end_lineno - child.lineno + 1
                if lines > longest:
                    out.append((name[:-1], lines))
            visit(child, name)

    visit(ast.parse(source), "")
    return out


def test_the_walk_finds_a_long_function_a_nested_one_and_a_method():
    body = "".join("    x%d = %d\n" % (n, n) for n in range(LONGEST))
    source = ("def short():\n    return 1\n\n"
              "def long():\n" + body + "\n"
              "def outer():\n    def inner():\n" + body.replace("    ", "        ") + "    return inner\n\n"
              "class Drawing:\n    def method(self):\n" + body.replace("    ", "        "))
    assert long_functions(source) == [("long", LONGEST + 1), ("outer", LONGEST + 3), ("outer.inner", LONGEST + 1),
                                      ("Drawing.method", LONGEST + 1)]


@pytest.mark.parametrize("path", sorted(PACKAGE.glob("*.py")), ids=lambda p: p.name)
def test_no_function_of_the_generator_is_longer_than_60_lines(path):
    found = long_functions(path.read_text(encoding="utf-8"))
    assert not found, "%s: %s (split it: at most %d lines)" % (
        path.name, ", ".join("%s is %d lines" % (name, lines) for name, lines in found), LONGEST)


@pytest.mark.parametrize("design", hardware.designs(), ids=lambda d: d.name)
def test_the_design_says_what_its_parts_are(design):
    controller = [line[1] for line in design.parts.lines if design.controller in line[3]]
    assert design.pico == (controller == ["Raspberry Pi Pico"])
    assert design.onboard == (controller == [design.title]) == all(c["header"] is None for c in design.chains)
    assert design.neopixel == (design.pixels is not None or design.onboard)
    assert (design.lamp_fuse is not None) == bool(design.sinks)
    assert (design.dc_input is not None) == (design.jack is not None)
    assert (design.vsys_diode is not None) == design.pico
    refs = [ref for line in design.parts.lines for ref in line[3]]
    named = [design.controller, design.supply, design.pi_supply, design.jack, design.vsys_diode, *design.sinks]
    assert set(r for r in named if r) <= set(refs)
    with pytest.raises(dataclasses.FrozenInstanceError):
        design.jack = "J9"
    assert isinstance(design, Design)
