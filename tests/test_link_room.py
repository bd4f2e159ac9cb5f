# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A host command's pass never has the collector in it (issue 27): on
pico-grid, EXPLAIN on Graph Nim took 48-54 ms a pass (emulated), its search
leaving about 5 KB of garbage a poll and the heap collecting itself (about
20 ms on a Pico) inside every third one. The link now collects in a poll of
its own when less than ``commands.LINK_HEAP`` is free before a command's pass, as the
machine's search does before its own (``turns.SEARCH_HEAP``).

Checked under the real MicroPython, precompiled as on a board: the main
loop polled (controller, then link) through NEW, EXPLAINs from cold
searches and STATE; a poll in which the heap's allocated bytes fell by over
a KB with no collection asked for is the heap collecting itself. Before
this, Graph Nim's EXPLAINs met it in 5 of 20 polls and candy's in 31 polls
of the run; now in none. (A NEW over the link can still meet it: on
21counter it allocates about 20 KB of 64-bit MicroPython's heap in one
pass, more than the room kept; that is NEW's own size, not the link's
timing, and is not asserted here.)
"""

import mpy_runner
import pytest

COMMANDS = ("NEW", "EXPLAIN", "EXPLAIN", "NEW", "EXPLAIN", "STATE", "NEW")


@pytest.fixture(scope="module")
def tree(firmware_tree):
    return firmware_tree  # compiled once a worker (conftest)


@pytest.mark.parametrize(
    "board, preset",
    [
        ("pico-grid", "graph"),
        ("pico-grid", "candy"),
        ("pico-grid", "moore"),
        ("pico-grid", "nim2d"),
        ("pico-ring", "circular"),
        ("pico-ring", "21counter"),
        ("macropad", "pad-moore"),
    ],
)
def test_no_command_pass_meets_the_collector(tree, board, preset):
    out = mpy_runner.run("mpy/run_link_room.py", heap="160K", paths=(tree,), args=(board, preset) + COMMANDS)
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines[-1].startswith("ok "), out.stdout
    replies = lines[:-1]
    assert [line.split()[0] for line in replies] == list(COMMANDS), out.stdout
    for line in replies:
        if not line.startswith("NEW"):
            assert line.endswith("in []"), "%s %s: %s" % (board, preset, line)


def test_the_room_is_collected_in_a_poll_of_its_own(monkeypatch):
    """The policy itself, on CPython with a stand-in heap: below LINK_HEAP a
    poll handles nothing and asks for a collection first in the next pass
    (``passes.collect_next``; a link polled alone makes it as its poll
    starts), which waits that pass out; the next handles the command even
    if the heap stays low (never two collections in a row); no collection
    while the machine searches, none where the interpreter cannot say."""
    import sys

    from kit_link import Machine
    from kit_sim import FAST
    from nimatron.link import commands

    m = Machine("pico-grid", preset="nimatron", first="visitor", **FAST)
    free = [commands.LINK_HEAP - 1]
    collected = []

    class Heap:
        def mem_free(self):
            return free[0]

        def mem_alloc(self):
            return 128 * 1024 - free[0]

        def collect(self):
            collected.append(m.now)

    monkeypatch.setitem(sys.modules, "gc", Heap())  # ``import gc`` finds it first

    def poll():
        m.now += 10
        m.link.poll(m.now)
        return m.cable.to_host

    m.cable.to_machine += b"STATE\n"
    assert poll() == b"" and len(collected) == 0  # low: this poll asks for a collection
    assert poll() == b"" and len(collected) == 1  # made as the next begins: that pass is its own
    assert poll().startswith(b"OK") and len(collected) == 1  # still low: the command goes on
    m.cable.to_host = b""
    free[0] = commands.LINK_HEAP
    m.cable.to_machine += b"STATE\n"
    assert poll().startswith(b"OK") and len(collected) == 1  # room enough: no collection
    m.cable.to_host = b""
    free[0] = 0
    m.controller.state = "thinking"
    m.cable.to_machine += b"STATE\n"
    assert poll().startswith(b"OK") and len(collected) == 1  # the machine's tick collects for its search
    m.cable.to_host = b""
    monkeypatch.setitem(sys.modules, "gc", object())  # CPython: no mem_free
    m.controller.state = "visitor"
    m.cable.to_machine += b"STATE\n"
    assert poll().startswith(b"OK") and len(collected) == 1


def test_a_command_waits_one_pass_after_a_collection_or_a_display_refresh():
    """A pass that has collected (the machine's own collection) or redrawn a
    line of the OLED (8-9 ms of a stock MacroPad's pass) leaves the
    command's step to the next pass: a module's load beside either made a
    MacroPad's SET passes 53-60 ms. It waits once: a pass busy every time
    still answers every other poll."""
    from kit_link import Machine
    from kit_sim import FAST
    from nimatron import passes

    m = Machine("pico-grid", preset="nimatron", first="visitor", **FAST)
    for heavy in (passes.mark, passes.collect):
        m.cable.to_host = b""
        m.cable.to_machine += b"STATE\n"
        heavy()
        m.now += 10
        m.link.poll(m.now)
        assert m.cable.to_host == b""  # this pass was spent: the command waits
        heavy()
        m.now += 10
        m.link.poll(m.now)
        assert m.cable.to_host.startswith(b"OK")  # busy again: it waited once, it goes on


def test_a_step_after_its_own_collection_still_waits_out_a_busy_pass():
    """A command's own collection (``passes.collect_next``) has the next pass
    to itself; the pass after it may be busy with a lamp frame, which the
    step waits out too: counted as its one wait, a module's load met a
    NeoPixel frame there (51 ms, a fresh pico-grid's ``SET preset graph``).
    A pass busy every time still lets it go on every other poll."""
    from kit_link import Machine
    from kit_sim import FAST
    from nimatron import passes

    m = Machine("pico-grid", preset="nimatron", first="visitor", **FAST)
    m.cable.to_machine += b"STATE\n"
    replies = []
    for heavy in (passes.collect_next, passes.mark, passes.mark):
        heavy()
        m.now += 10
        m.link.poll(m.now)  # polled alone: the collection asked for is made as it starts
        replies.append(m.cable.to_host)
    assert replies[:2] == [b"", b""]  # its collection's pass, then a lamp frame's
    assert replies[2].startswith(b"OK")  # busy again: it waited once for a busy pass, it goes on


def test_the_oled_marks_the_pass_it_draws_a_line_in(sims):
    """The MacroPad's OLED redraws one changed line a pass and says so
    (``passes.mark``): the link's step waits for the next pass."""
    from kit_sim import FAST
    from nimatron import passes

    sim = sims("macropad", FAST)
    oled = sim.controller.io.oled
    passes.begin()
    assert not passes.busy()
    oled.show(["CHANGED", "", "", "", ""])
    assert passes.busy()
    passes.begin()
    oled.show(list(oled.text))  # nothing changed: nothing drawn
    assert not passes.busy()


@pytest.mark.parametrize("board", ["pico-neopixel", "macropad"])
def test_a_lamp_frame_written_marks_its_pass(sims, board):
    """A NeoPixel frame is 2-3 ms of a Pico's pass (its bits through the
    PIO): with a module's load it made a fresh pico-grid's ``SET preset
    graph`` 51 ms. The driver marks the pass it writes a frame in; a frame
    that changes nothing is not written and marks nothing."""
    from kit_sim import FAST
    from nimatron import passes

    sim = sims(board, FAST)
    c = sim.controller
    lamps = [list(row) for row in c._shown_lamps]
    status = dict(c._shown_status)
    c.io.show(lamps, status)
    passes.begin()
    c.io.show([list(row) for row in lamps], dict(status))  # as shown: nothing written
    assert not passes.busy()
    lamps[0][0] = 1 if lamps[0][0] != 1 else 0
    c.io.show(lamps, status)
    assert passes.busy()
