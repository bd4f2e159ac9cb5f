# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The garbage of a search the host asked for is collected before its answer.

A host that asks ``EXPLAIN`` gets its answer, and the visitor (or the
emulator's robot, as soon as the answer comes) presses next: the search's
garbage brought CircuitPython's automatic collection into the pass of that
press (DONE's lamp 36-45 ms after the press on pico-grid's 2-D Nim, traced in
the emulated Pico). Counted, never timed: ``gc`` replaced by a recorder that
says what the board's would (``mem_free``).
"""

import pytest

from kit_link import Machine


class Recorder:
    """``gc`` on a board: each collection noted with what the host had received by then."""

    def __init__(self, cable):
        self.cable = cable
        self.collections = []

    def mem_free(self):
        return 40 * 1024

    def collect(self):
        self.collections.append(self.cable.to_host)


@pytest.mark.parametrize("preset", ["nim2d", "graph", "allheaps"])
def test_explains_search_is_collected_before_its_answer(monkeypatch, preset):
    from nimatron.link import hostlink

    m = Machine("pico-grid", preset=preset)
    m.controller.press("new", m.now)
    m.run(2000)
    heap = Recorder(m.cable)
    monkeypatch.setattr(hostlink, "gc", heap)
    m.cable.lines()
    m.ok("STATE")
    assert heap.collections == []  # no search, nothing collected
    assert m.ok("EXPLAIN")
    assert len(heap.collections) == 1
    assert b"OK" not in heap.collections[0]  # collected before the answer was written


def test_cpython_collects_nothing_for_it(monkeypatch):
    """No ``mem_free``: a PC's collector is its own business."""
    from nimatron.link import hostlink

    m = Machine("pico-grid", preset="nim2d")
    m.controller.press("new", m.now)
    m.run(2000)

    class PC:
        collections = []

        def collect(self):
            self.collections.append(1)

    monkeypatch.setattr(hostlink, "gc", PC())
    m.ok("EXPLAIN")
    assert PC.collections == []
