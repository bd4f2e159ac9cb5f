# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Every press's lamps before its work (issue 27: press to lamp at most 20 ms).

On the emulated pico-grid DONE's press took 32.6 / 36.0 ms to its lamp
(median / max, Graph Nim): between the press and the lamps going out its
pass checked the move and committed it (its event line, the game's end or
the machine's turn), and the garbage that made brought an automatic
collection (18-20 ms on an RP2040) before the lamps. Now the lamps go out
first and the move is committed once they show; the selection's check is
made after the last key's lamp. The same kind on a row board: a row's press
checked its take by listing the rule set's moves (2-2.7 KB), DONE committed
before its lamp, and a key, a stone, a game's first press of a button each
made a little (a split, a tuple, a grown list or dict): pico-neopixel's row
press took 28.9 ms to its lamp, a collection inside it. Counted under
MicroPython, never timed: the bytes allocated between the controller
reading a press and the frame that shows it, in that very pass, over whole
games on every board with buttons and every preset it plays."""

import os
import sys

import mpy_runner
import pytest

# The ring's Grundy's game: a split moves every arc after it round the ring,
# worked out as its lamps change (224 bytes before DONE's lamp).
MOVES_ITS_LAMPS = {("pico-ring", "grundy")}


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    return mpy_runner.tree(str(tmp_path_factory.mktemp("mpy")), ("tests/fake_io", "tests/controller_kit"))


def _presets(board):
    sys.path.insert(0, os.path.join(mpy_runner.ROOT, "simulator"))
    from nimatron_sim.engine import playable_presets

    return playable_presets(board)


@pytest.mark.parametrize("board", ["pico-grid", "pico-ring", "macropad", "circuitplayground", "pico-neopixel"])
def test_no_press_allocates_before_its_lamps(tree, board):
    presets = _presets(board)
    out = mpy_runner.run("mpy/run_press_lamp.py", heap="1M", paths=(tree,), args=[board] + presets)
    assert out.returncode == 0, out.stdout + out.stderr
    rows = [line.split() for line in out.stdout.splitlines()]
    assert [row[0] for row in rows] == presets, out.stdout
    for row in rows:
        assert row[1] != "error", " ".join(row)
        preset, dones, most_done, presses, most, turns = (
            row[0],
            int(row[1]),
            int(row[2]),
            int(row[3]),
            int(row[4]),
            int(row[5]),
        )
        assert dones >= 2 and presses >= 2 and turns >= 4, " ".join(row)
        assert most == 0, "%s %s: %d bytes allocated before a press's lamps" % (board, preset, most)
        if (board, preset) not in MOVES_ITS_LAMPS:
            assert most_done == 0, "%s %s: %d bytes allocated before DONE's lamps" % (board, preset, most_done)


class LowHeap:
    """``gc`` as a board has it: free + used stays the heap's size, what the
    test allocates is garbage that a collection gives back, and each
    collection is counted."""

    def __init__(self, free, used):
        self.free, self.used, self.garbage, self.collections = free, used, 0, 0

    def allocate(self, size):
        self.free, self.used, self.garbage = self.free - size, self.used + size, self.garbage + size

    def mem_free(self):
        return self.free

    def mem_alloc(self):
        return self.used

    def collect(self):
        self.collections += 1
        self.free, self.used, self.garbage = self.free + self.garbage, self.used - self.garbage, 0


def test_between_games_a_low_heap_is_collected_once_before_new(monkeypatch):
    """A new game allocates 3.3-8 KB before its lamps (its panel, its turn,
    its event): between games a heap with less than NEW_ROOM free is collected
    in a pass of its own, once, so NEW's pass meets no collection; a heap that
    stays low makes no collection pass after pass."""
    from controller_kit import Rig
    from nimatron.machine import turns

    rig = Rig("pico-grid", preset="nimatron", first="visitor", over_ms=60000)
    heap = LowHeap(free=14 * 1024, used=114 * 1024)
    monkeypatch.setattr(turns, "gc", heap)
    rig.press("new")
    rig.until("visitor")
    assert heap.collections == 0  # none while a game is played (the visitor's turn)
    rig.c._finish("visitor", rig.t)
    rig.run(2000)
    assert heap.collections == 1  # low, and never collected here: once (it stays low: live data)
    heap.allocate(4 * 1024)  # a little garbage: not worth another
    rig.run(2000)
    assert heap.collections == 1
    heap.allocate(turns.NEW_ROOM // 2)  # more: collected again, in attract too
    rig.c.panel = None
    rig.c._enter("attract", rig.t)
    rig.run(2000)
    assert heap.collections == 2 and heap.free == 14 * 1024


@pytest.mark.parametrize("preset", ["graph", "nimatron", "candy"])
def test_done_and_new_show_their_lamps_before_they_tell(preset):
    """In the main loop's pass, DONE's lamps and a new game's lamps are shown
    before the move's or the game's event is told (the event line, the
    audits, the next state's work come after them)."""
    from controller_kit import Rig

    rig = Rig("pico-grid", preset=preset, first="visitor")
    told = []
    rig.c.listener = lambda event: told.append((event["event"], rig.io.shows))
    shows = rig.io.shows
    rig.io.queue.append(("new", True))
    rig.run(10)  # NEW's own pass
    assert told[0][0] == "new_game" and told[0][1] > shows, told
    rig.io.queue.append(("new", False))
    rig.until("visitor")
    heaps, ring = rig.c.panel.position()
    after = next(iter(rig.c.rules.moves(heaps, ring)))
    for r, i in rig.c.panel.lamps_for(after)[0]:
        rig.press("key %d %d" % (r, i))
    told.clear()
    shows = rig.io.shows
    rig.io.queue.append(("done", True))
    rig.run(10)  # DONE's own pass
    assert told and told[0][0] == "move" and told[0][1] > shows, told
