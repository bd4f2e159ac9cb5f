# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A technician's visit leaves the heap as it found it (issue 27).

The finding, on a stock MacroPad (``tools/emu_board.py --service``):
after the operator menu was opened and closed over the link, least heap
free fell from 34.3 to 19.9 KB on pad-moore and from 39.5 to 32.4 KB on
pad-nim. The menu's own module (``machine.service``) imports
``config.boards``; closing the menu dropped the menu's modules by name and
``config.boards`` stayed, for good. Now the menu drops every settings module
it brought. And opening it over the link was one pass of 207-213 ms: its
five modules loaded together; now a pass each. Here, on every board, under
the real MicroPython precompiled as on a board: no poll loads more than one
module, and the firmware modules resident after a visit are the ones
resident before it."""

import mpy_runner
import pytest
from nimatron.config import boards

BOARDS = [name for name in boards.names() if boards.board(name)["driver"] != "gpiozero"]


@pytest.fixture(scope="module")
def tree(firmware_tree):
    return firmware_tree  # compiled once a worker (conftest)


@pytest.mark.micropython
@pytest.mark.parametrize("board", BOARDS)
def test_the_operator_menu_opens_a_module_a_pass_and_leaves_none_behind(tree, board):
    out = mpy_runner.run(
        "mpy/run_menu_visit.py", heap="256K", paths=(tree,), args=(board, boards.board(board)["preset"])
    )
    assert out.returncode == 0 and out.stdout.strip().endswith("ok"), out.stdout + out.stderr
