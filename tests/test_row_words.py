# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Every message names rows as the screen does: letters (A, B, ...), never an index.

A visitor pressing an empty row read "row 0 is empty" while the panel, the
terminal and the page label the rows A-D. The generator: on every board
with row buttons, every row emptied and pressed again.
"""

import re

import pytest
from nimatron.config import boards
from nimatron_sim.engine import Simulator

ROW_BOARDS = [
    name
    for name in boards.names()
    if boards.board(name).get("input", "rows") == "rows"
    and any(role.startswith("row") for role in boards.board(name).get("buttons", {}))
]


@pytest.mark.parametrize("board", ROW_BOARDS or ["pico-neopixel"])
def test_a_refusal_names_an_empty_row_by_its_letter(board):
    sim = Simulator(board, {"think_ms": 0, "show_ms": 0, "first": "visitor"}, 1)
    refused = []
    sim.listeners.append(lambda e: refused.append(e["reason"]) if e.get("event") == "refused" else None)
    sim.tap("new")
    c = sim.controller
    heaps = c.position()[0]
    for row in range(len(heaps)):
        if c.state != "visitor":
            break
        while c.panel.last_lit(row) is not None and c.state == "visitor" and c.turn_row in (None, row):
            sim.tap("row%d" % row)
        if c.turn_row == row:
            sim.tap("done")
            sim.advance(3000)
        if c.state == "visitor" and c.panel.last_lit(row) is None:
            sim.tap("row%d" % row)
    for reason in refused:
        assert not re.search(r"\brow \d", reason), reason
    assert any(re.match(r"row [A-Z] is empty$", r) for r in refused), refused


def test_no_message_in_the_firmware_counts_rows_or_lamps_from_zero():
    """The source scan behind the press above: a row is a letter, a lamp its place from 1
    ("lamp 0 3 is not in play" was the grid's refusal). What a visitor or operator
    reads comes from machine/, panels/, games/ and link/; the pin maps' own role
    names ("key R I", config/ and drivers/) are the maker's file format."""
    import ast
    import os

    root = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware", "nimatron")
    found = []
    for folder, _, files in [
        w for part in ("machine", "panels", "games", "link") for w in os.walk(os.path.join(root, part))
    ]:
        for name in files:
            if not name.endswith(".py"):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read())
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.BinOp)
                    and isinstance(node.op, ast.Mod)
                    and isinstance(node.left, ast.Constant)
                    and isinstance(node.left.value, str)
                    and re.search(r"\brow %d|\blamp %d %d", node.left.value)
                ):
                    found.append("%s:%d %r" % (os.path.relpath(path, root), node.lineno, node.left.value))
    assert not found, found
