# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""No name a board compiling ``.py`` must intern in the middle of a game.

MicroPython's parser interns a string literal only if it is at most 10
characters long (``MICROPY_ALLOC_PARSE_INTERN_STRING_LEN``); a longer one
passed to ``getattr``/``hasattr``/``setattr`` is interned when the call first
runs. CircuitPython's names table grows in steps of 1,280 entries in one
allocation (``py/qstr.c``), and on a long-running board's heap that
allocation can fail every time: on pico-grid from hand-copied ``.py`` every
``PLAY PRESS`` of a key answered ``ERR busy out of memory`` after ``SET
preset graph`` (``getattr(panel, "choice_lamps", None)``: 377 refusals, no game
played; emulated CircuitPython 9.2.8, the firmware printing the exception).
So a longer name there must already be interned: an identifier in the same
module (the parser interns every identifier), or one of CircuitPython's own
names (tests/data/circuitpython-9.2.8-macropad-names.txt)."""

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware", "nimatron")
NAMES = os.path.join(ROOT, "tests", "data", "circuitpython-9.2.8-macropad-names.txt")
INTERNED_LITERAL = 10  # MICROPY_ALLOC_PARSE_INTERN_STRING_LEN: longer literals are not interned by the parser


def identifiers(tree):
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            out.add(node.id)
        elif isinstance(node, ast.Attribute):
            out.add(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.arg):
            out.add(node.arg)
        elif isinstance(node, ast.alias):
            out.add((node.asname or node.name).split(".")[0])
    return out


def late_names(source, name):
    """'file:line NAME' for each attribute name given as a long literal that
    compiling ``source`` from ``.py`` would not intern."""
    with open(NAMES, encoding="utf-8") as f:
        firmware = set(f.read().split())
    tree = ast.parse(source, name)
    known = identifiers(tree) | firmware
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        if node.func.id not in ("getattr", "hasattr", "setattr") or len(node.args) < 2:
            continue
        literal = node.args[1]
        if isinstance(literal, ast.Constant) and isinstance(literal.value, str):
            text = literal.value
            if len(text) > INTERNED_LITERAL and text not in known:
                found.append("%s:%d %s" % (name, node.lineno, text))
    return found


def test_every_attribute_name_asked_for_is_interned_by_the_compile():
    found = []
    for folder, _dirs, files in os.walk(FIRMWARE):
        for file in sorted(files):
            if file.endswith(".py"):
                path = os.path.join(folder, file)
                with open(path, encoding="utf-8") as f:
                    found += late_names(f.read(), os.path.relpath(path, ROOT))
    assert not found, (
        "names a .py board would intern mid-game (use the attribute, or a name of 10 letters or fewer):\n"
        + "\n".join(found)
    )


def test_the_check_sees_a_long_literal_and_not_an_identifier():
    assert late_names('def f(p):\n    return getattr(p, "choice_lamps", None)\n', "m.py") == ["m.py:2 choice_lamps"]
    assert late_names('def f(p):\n    return getattr(p, "selectable", None)\n', "m.py") == []
    assert late_names('def f(p):\n    p.choice_lamps = 1\n    return getattr(p, "choice_lamps", None)\n', "m.py") == []
