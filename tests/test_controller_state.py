# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The controller's shape, read from its source: a reader finds its whole
state in ``Controller.__init__``, and every blink on a named period.

``Controller`` is one class in two files (``machine/controller.py`` and the
turns' mixins in ``machine/turns.py``): an attribute first assigned in a
mixin's method was state a reader of ``__init__`` never saw (``machine_out``
and ``_slip`` were). A blink on a bare ``// 200`` or ``% 2000`` said neither
what it was nor why that long.
"""

import ast
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MACHINE = os.path.join(ROOT, "firmware", "nimatron", "machine")
CONTROLLER_FILES = ("controller.py", "turns.py")
FRAME_FILES = ("controller.py", "turns.py", "ports.py", "game_lamps.py")  # the lamps' frames, the timers behind them


def parse(name):
    with open(os.path.join(MACHINE, name), encoding="utf-8") as f:
        return ast.parse(f.read(), name)


def assigned_attributes(tree):
    """(owner, name, line) of every ``owner.name`` a tree assigns (``x.a = ``,
    ``x.a, x.b = ``, ``x.a += ``, ``x.a: T = ``, ``for x.a in``, ``with ... as x.a``)."""
    found = []

    def targets(node):
        if isinstance(node, (ast.Tuple, ast.List)):
            for item in node.elts:
                targets(item)
        elif isinstance(node, ast.Starred):
            targets(node.value)
        elif isinstance(node, ast.Attribute):
            found.append((ast.unparse(node.value), node.attr, node.lineno))

    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                targets(target)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For)):
            targets(node.target)
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            targets(node.optional_vars)
    return found


def self_attributes(function):
    """(name, line) of every ``self.X`` a function assigns."""
    return [(attr, line) for owner, attr, line in assigned_attributes(function) if owner == "self"]


def late_attributes(sources, cls="Controller"):
    """Attributes of ``cls`` first assigned outside its ``__init__``: in its
    other methods or in its bases' (mixins') methods, as 'file:line Class.method: self.X'.
    ``sources``: {file name: source text}."""
    classes = {}
    for name, text in sources.items():
        for node in ast.parse(text, name).body:
            if isinstance(node, ast.ClassDef):
                classes[node.name] = (name, node)
    path, main = classes[cls]
    family = [(path, main)] + [classes[b.id] for b in main.bases if isinstance(b, ast.Name) and b.id in classes]
    init = [f for f in main.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"]
    assert init, "%s has no __init__" % cls
    born = {attr for attr, _ in self_attributes(init[0])}
    late = []
    for path, node in family:
        for function in node.body:
            if not isinstance(function, ast.FunctionDef) or function is init[0]:
                continue
            for attr, line in self_attributes(function):
                if attr not in born:
                    late.append("%s:%d %s.%s: self.%s" % (path, line, node.name, function.name, attr))
    return late


def bare_periods(source, name):
    """'file:line function: N' for each int literal other than 0, 1 and 2 that a
    function divides (``//``), takes modulo (``%``) or compares by: a period or
    a time that wants a name (halving, ``// 2``, and parity, ``% 2``, need none)."""
    found = []

    def bare(node):
        return isinstance(node, ast.Constant) and type(node.value) is int and node.value not in (0, 1, 2)

    for function in ast.walk(ast.parse(source, name)):
        if not isinstance(function, ast.FunctionDef):
            continue
        for node in ast.walk(function):
            suspects = []
            if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.FloorDiv, ast.Mod)):
                suspects = [node.right]
            elif isinstance(node, ast.Compare):
                suspects = [node.left] + node.comparators
            for suspect in suspects:
                if bare(suspect):
                    found.append("%s:%d %s: %r" % (name, suspect.lineno, function.name, suspect.value))
    return found


def read(name):
    with open(os.path.join(MACHINE, name), encoding="utf-8") as f:
        return f.read()


def test_every_controller_attribute_is_born_in_init():
    late = late_attributes({name: read(name) for name in CONTROLLER_FILES})
    assert not late, "first assigned outside Controller.__init__ (give each a line there):\n" + "\n".join(late)


def test_the_game_frame_changes_only_the_frame():
    """game_lamps reads the controller and writes lamps into the frame it is
    given: an attribute assigned there would be controller state born outside
    ``__init__`` (or the driver's frame changed behind its back)."""
    assigned = [
        "game_lamps.py:%d %s.%s" % (line, owner, attr)
        for owner, attr, line in assigned_attributes(ast.parse(read("game_lamps.py")))
    ]
    assert not assigned, "\n".join(assigned)


@pytest.mark.parametrize("name", FRAME_FILES)
def test_frames_blink_on_named_periods(name):
    found = bare_periods(read(name), name)
    assert not found, "name these periods (as ports and game_lamps do):\n" + "\n".join(found)


def test_the_scans_see_what_they_look_for():
    """Each scan finds a planted case of its kind, in every form it claims to see."""
    planted = """
class Turn:
    def _think(self):
        self.out, (self.light, self.after) = [], ([], None)
        self.count += 1
        for self.row in ():
            pass

class Controller(Turn):
    def __init__(self):
        self.count = 0

    def later(self):
        self.slip: bool = True
        with open("x") as self.file:
            pass
"""
    late = late_attributes({"planted.py": planted})
    assert sorted(entry.split(": self.")[1] for entry in late) == ["after", "file", "light", "out", "row", "slip"]
    frame = ast.parse("def fill(c, lamps):\n    lamps[c.row][0] = 1\n    c.shown, x = lamps, 0\n")
    assert assigned_attributes(frame) == [("c", "shown", 3)]
    blinks = """
def frame(now, since):
    on = (now - since) // 200 % 2 == 0
    alarm = now % 2000 < 250
    half = now // 2
"""
    assert sorted(entry.split(": ")[1] for entry in bare_periods(blinks, "planted.py")) == ["200", "2000", "250"]
