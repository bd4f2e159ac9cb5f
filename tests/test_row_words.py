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

ROW_BOARDS = [name for name in boards.names() if boards.board(name).get("input", "rows") == "rows"
              and any(role.startswith("row") for role in boards.board(name).get("buttons", {}))]


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
