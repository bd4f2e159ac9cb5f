# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""One collection a pass, and nothing heavy beside it (issue 27).

The finding, on a stock MacroPad (CircuitPython 9.2.8, emulated, with
``tools/emu_board.py --profile``): a ``SET``'s passes were 50-60 ms because
the controller's collection between games (``turns._room``, 23 ms there) and
the link's next step (a module's load, 30-36 ms) fell in the same pass, and
the link's own collection (``HostLink.load``) sometimes followed the
controller's in one pass: two collections. Each part kept "a pass of its
own" for its collections, unaware of the other's.

The kind, and the generator that covers it: every collection the firmware
asks for goes through ``nimatron.collect``, which marks the pass; the link
(last in the pass) leaves a command's step to the next pass when the pass
has collected. Here the main loop (controller, then link) runs under the
real MicroPython, precompiled as on a board, in a heap as low as a board's
(160-192 KB of 64-bit MicroPython: the controller then collects between
``SET``s), through a ``SET`` of every preset each board offers with
``MEMORY`` and ``EXPLAIN`` after each. No pass has two collections, none has
the machine's collection and the link's load or reply, none the link's
collection and a load. In 256 KB the controller never collects, which is why
tests/test_set_passes.py (256 KB) never saw it."""

import mpy_runner
import pytest
from nimatron.config import boards
from nimatron_sim.engine import playable_presets

BOARDS = [name for name in boards.names() if boards.board(name)["driver"] != "gpiozero"]


@pytest.fixture(scope="module")
def tree(firmware_tree):
    return firmware_tree  # compiled once a worker (conftest)


def commands(board):
    own = boards.board(board)["preset"]
    out = []
    for preset in [p for p in playable_presets(board) if p != own] + [own]:
        out += ["SET preset %s" % preset, "MEMORY", "EXPLAIN"]
    return out + ["SET difficulty teach", "NEW", "MEMORY", "SET difficulty perfect"]


# 64-bit MicroPython heaps as low as a board's: near the edge a run may end in
# "ERR busy out of memory" (the address layout decides: tests/mpy_runner.py), so
# each board runs in three and needs whole runs in at least one. The lowest
# is 8K above the 160K it was: the store now holds its 4 KB compaction
# buffer from the start (so that a fragmented heap never stops a save), and at
# 160K pi-neopixel's last SET of a whole preset sweep met a full heap whose
# collector ran twice in one pass. 4K more since: presses that allocate nothing
# before their lamps keep their lists and edges (2-3 KB of this port's heap), and
# at 168K, at CI's checkout path, the MacroPad's sweep met a low heap where the
# machine's collection between games and EXPLAIN's reply fell in one pass
HEAPS = ("172K", "180K", "192K")


@pytest.mark.micropython
@pytest.mark.parametrize("board", BOARDS)
def test_no_pass_has_two_collections_or_a_collection_and_a_load(tree, board):
    """Nor a lamp frame and a module's load: after its own collection's pass
    the link's step loaded a module beside a NeoPixel frame (51 ms, a fresh
    pico-grid's ``SET preset graph``)."""
    own = boards.board(board)["preset"]
    listed = commands(board)
    whole = left_alone = 0
    for heap in HEAPS:
        out = mpy_runner.run("mpy/run_one_collection.py", heap=heap, paths=(tree,), args=(board, own) + tuple(listed))
        lines = out.stdout.strip().splitlines()
        if "ERR busy out of memory" in out.stdout:
            continue  # too low for this board here: the collections of its recovery are not the finding
        assert out.returncode == 0, heap + "\n" + out.stdout + out.stderr
        assert lines[-1].startswith("ok "), out.stdout
        replies = lines[:-1]
        assert [line.split(None, 1)[0] for line in replies] == [c.split()[0] for c in listed]
        for line in replies:
            assert line.endswith("broke: []"), heap + ": " + line
        whole += 1
        left_alone += int(lines[-1].split()[1])
    assert whole, "%s: no heap of %s ran every command" % (board, ", ".join(HEAPS))
    # the heap was low enough for the machine to collect while commands waited: else this proves nothing
    assert left_alone >= 1


# (board, preset): the machine's searches of each kind, on the boards that play them
GAMES = [
    ("pico-grid", "graph"),
    ("pico-grid", "candy"),
    ("pico-ring", "circular"),
    ("macropad", "pad-moore"),
    ("pico-neopixel", "nimatron"),
]


@pytest.mark.micropython
@pytest.mark.parametrize("board, preset", GAMES)
def test_the_heap_is_read_once_a_pass(tree, board, preset):
    """On CircuitPython 9 each ``gc.mem_free()`` or ``gc.mem_alloc()`` walks
    the whole allocation table (``gc_info``): 5.2 ms of a stock MacroPad's
    6.2 ms pass in attract mode, 10.6 ms of a SET's load pass, where the
    controller and the link each read it (``tools/emu_board.py --profile``).
    Through attract mode, SET, EXPLAIN, MEMORY and the machine's searches, in
    heaps as low as a board's: a pass reads the figures once, and once more
    after each collection (MEMORY's too: one reading answers it)."""
    ran = 0
    for heap in ("144K", "160K", "176K"):
        out = mpy_runner.run(
            "mpy/run_heap_reads.py",
            heap=heap,
            paths=(tree,),
            args=(board, preset, "SET difficulty teach", "EXPLAIN", "MEMORY", "SET difficulty perfect"),
        )
        if "MemoryError" in out.stdout + out.stderr or "ERR busy" in out.stdout:
            continue  # too low for this board here (the address layout decides; the unix port
            # prints an uncaught MemoryError's traceback on stdout: a start that found no room)
        assert out.returncode == 0, heap + "\n" + out.stdout + out.stderr
        lines = out.stdout.strip().splitlines()
        assert lines[-1].startswith("ok ") and int(lines[-1].split()[1]) > 0, out.stdout
        for line in lines[:-1]:
            if line.startswith("    ->"):
                assert line.startswith("    -> OK"), heap + ": " + line
            else:
                assert line.endswith("[]"), heap + ": " + line
        ran += 1
    assert ran, "no heap ran the whole script"
