# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The game's lamps are drawn from a read-only view of the controller.

``machine/game_lamps.py`` is handed the controller (``c``) each frame, typed
as ``LampsView`` (a mypy-only Protocol of read-only properties: a board never
compiles it): it reads that public state and writes only the frame it is given.
A drawing that reads a private attribute (``c._moved``, as it once did) ties
the lamps to how the turns keep their state; one that assigns to the
controller changes the game while drawing it. Read from the source with
``ast``, so each form is caught: ``c._x``, ``c.x = ...``, ``c.x += ...``,
``c.x[i] = ...``, ``del c.x``, ``setattr(c, ...)``.
"""

import ast
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DRAWING = os.path.join(ROOT, "firmware", "nimatron", "machine", "game_lamps.py")


def _root_name(node):
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def misuses(text, view="c"):
    """(line, what) of each private read or write of ``view`` in ``text``."""
    out = []
    for node in ast.walk(ast.parse(text)):
        if (
            isinstance(node, ast.Attribute)
            and _root_name(node) == view
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
        ):
            out.append((node.lineno, "reads %s.%s" % (view, node.attr)))
        targets = []
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            if isinstance(target, (ast.Attribute, ast.Subscript)) and _root_name(target) == view:
                out.append((node.lineno, "writes %s" % ast.unparse(target)))
        if (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", None) in ("setattr", "delattr")
            and node.args
            and _root_name(node.args[0]) == view
        ):
            out.append((node.lineno, "writes %s through %s" % (view, node.func.id)))
    return sorted(set(out))


def test_the_game_lamps_read_the_controller_as_a_view():
    with open(DRAWING, encoding="utf-8") as f:
        found = misuses(f.read())
    assert not found, "machine/game_lamps.py: %s" % found


@pytest.mark.parametrize(
    "line",
    [
        "def f(c):\n    return c._moved\n",
        "def f(c):\n    c.moved = False\n",
        "def f(c):\n    c.seen += 1\n",
        "def f(c):\n    c.panel.lit[0] = 1\n",
        "def f(c):\n    del c.hint\n",
        "def f(c):\n    setattr(c, 'moved', 1)\n",
        "def f(c):\n    return c.panel._cells\n",
    ],
)
def test_a_planted_misuse_is_found(line):
    assert len(misuses(line)) == 1, misuses(line)


def test_reading_public_state_and_writing_the_frame_pass():
    assert misuses("def f(c, lamps):\n    lamps[0][1] = c.moved\n    return c.panel.lit, c.seconds_left(0)\n") == []


def view_members(tree, name="LampsView"):
    """The names the view class ``name`` declares (its properties and methods)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == name:
            return {f.name for f in node.body if isinstance(f, ast.FunctionDef)}
    return None


def read_of(tree, view="c"):
    """The names read directly off ``view`` (``c.panel``, ``c.seconds_left``) in ``tree``."""
    return {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == view
    }


def test_the_view_declares_what_the_lamps_read_and_no_more():
    """``LampsView`` (mypy-only) is the whole of what the drawing reads: a
    read it lacks is a mypy error; a member nobody reads is taken off."""
    with open(DRAWING, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    declared = view_members(tree)
    assert declared is not None, "machine/game_lamps.py declares no LampsView"
    assert read_of(tree) == declared, "read, not declared: %s; declared, not read: %s" % (
        sorted(read_of(tree) - declared),
        sorted(declared - read_of(tree)),
    )


def test_a_view_out_of_step_is_seen():
    tree = ast.parse(
        "class LampsView:\n    def state(self): ...\n    def hint(self): ...\n\n\n"
        "def f(c):\n    return c.state, c.panel\n"
    )
    assert view_members(tree) == {"state", "hint"} and read_of(tree) == {"state", "panel"}
