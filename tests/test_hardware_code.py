# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The hardware generator's own code stays as readable as the firmware: no
function longer than a reader holds in one screen, no code that nothing
calls, no parameter that nothing reads, and one typed design object whose
properties agree with the parts it lists."""

import ast
import dataclasses
import pathlib

import pytest
from nimatron_host import hardware
from nimatron_host.hardware.design import Design

PACKAGE = pathlib.Path(hardware.__file__).parent
ROOT = PACKAGE.parent.parent.parent
# statements, counted by the lines they start on (the ``def`` and its docstring count one each): what a
# reader follows, whatever the formatter does with a long call (60 lines, before `ruff format`)
LONGEST = 45
# Read only by the suite, each for its reason:
SUITE_ONLY = {
    "rules.checks": "the rules of function, which the suite runs over every design",
    "rules.ratings": "the parts' ratings, which the suite runs over every design",
    "panel.contrast": "the panel's ink against its face (WCAG), which the suite checks",
    "supply_sim.available": "whether ngspice is here: the suite skips the simulations without it",
    "circuit.expand_refs": "reads a BOM's reference column back, the inverse of ref_ranges",
    "keylevel.ngspice_volts": "the closed form run through ngspice, which the suite does where ngspice is installed",
}


def long_functions(source, longest=LONGEST):
    """[(qualified name, statements)] of every function in ``source`` longer than ``longest``."""
    out = []

    def visit(node, prefix):
        for child in ast.iter_child_nodes(node):
            name = prefix
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = prefix + child.name + "."
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                size = len({stmt.lineno for stmt in ast.walk(child) if isinstance(stmt, ast.stmt)})
                if size > longest:
                    out.append((name[:-1], size))
            visit(child, name)

    visit(ast.parse(source), "")
    return out


def test_the_walk_finds_a_long_function_a_nested_one_and_a_method():
    body = "".join("    x%d = %d\n" % (n, n) for n in range(LONGEST))
    source = (
        "def short():\n    return 1\n\n"
        "def long():\n" + body + "\n"
        "def outer():\n    def inner():\n" + body.replace("    ", "        ") + "    return inner\n\n"
        "class Drawing:\n    def method(self):\n" + body.replace("    ", "        ")
    )
    assert long_functions(source) == [
        ("long", LONGEST + 1),
        ("outer", LONGEST + 3),
        ("outer.inner", LONGEST + 1),
        ("Drawing.method", LONGEST + 1),
    ]


@pytest.mark.parametrize("path", sorted(PACKAGE.glob("*.py")), ids=lambda p: p.name)
def test_no_function_of_the_generator_is_longer_than_60_lines(path):
    found = long_functions(path.read_text(encoding="utf-8"))
    assert not found, "%s: %s (split it: at most %d statements)" % (
        path.name,
        ", ".join("%s is %d statements" % (name, size) for name, size in found),
        LONGEST,
    )


def top_level_names(source):
    """The functions, classes and constants a module defines at its top level."""
    out = []
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out.append(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                out += [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]
    return [name for name in out if not name.startswith("__")]


def names_read(source):
    """Every name and attribute ``source`` reads."""
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            out.add(node.id)
        elif isinstance(node, ast.Attribute):
            out.add(node.attr)
    return out


def test_everything_the_generator_defines_is_used_by_the_program():
    """Dead code (a helper nothing calls, a table nothing reads) fails here;
    a test alone using it does not count."""
    read = set()
    for folder in ("host", "simulator", "firmware"):
        for path in (ROOT / folder).rglob("*.py"):
            read |= names_read(path.read_text(encoding="utf-8"))
    unused = [
        "%s.%s" % (path.stem, name)
        for path in sorted(PACKAGE.glob("*.py"))
        for name in top_level_names(path.read_text(encoding="utf-8"))
        if name not in read
    ]
    assert sorted(set(unused) - set(SUITE_ONLY)) == [], "defined and never used: delete them"
    assert sorted(set(SUITE_ONLY) - set(unused)) == [], "used by the program now: take them off SUITE_ONLY"


def unread_parameters(source):
    """[(function, parameter)] for every parameter its function never reads."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = node.args
            names = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
            names += [a.arg for a in (args.vararg, args.kwarg) if a]
            read = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
            out += [
                (getattr(node, "name", "lambda"), name)
                for name in names
                if name not in read and name not in ("self", "cls") and not name.startswith("_")
            ]
    return out


@pytest.mark.parametrize("path", sorted(PACKAGE.glob("*.py")), ids=lambda p: p.name)
def test_every_parameter_of_the_generator_is_read(path):
    assert unread_parameters(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("design", hardware.designs(), ids=lambda d: d.name)
def test_the_design_says_what_its_parts_are(design):
    controller = [line[1] for line in design.parts.lines if design.controller in line[3]]
    assert design.pico == (controller == ["Raspberry Pi Pico"])
    assert design.onboard == (controller == [design.title]) == all(c.header is None for c in design.chains)
    assert design.neopixel == (design.pixels is not None or design.onboard)
    assert (design.lamp_fuse is not None) == bool(design.sinks)
    assert (design.dc_input is not None) == (design.jack is not None)
    assert (design.vsys_diode is not None) == design.pico
    refs = [ref for line in design.parts.lines for ref in line[3]]
    named = [design.controller, design.supply, design.pi_supply, design.jack, design.vsys_diode, *design.sinks]
    assert {r for r in named if r} <= set(refs)
    with pytest.raises(dataclasses.FrozenInstanceError):
        design.jack = "J9"
    assert isinstance(design, Design)
