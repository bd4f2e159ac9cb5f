# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""No save waits for a block the heap may not have (issue 43).

A long run on a stock pico-grid (emulated, 8 presets switched between games)
fragmented its heap until every save failed: 22,368 bytes free, but the
largest free block 1,248 bytes, and each compaction of the nvm sector asked
for 3.6-4 KB at once. The sector's image is now laid out in a buffer the
store takes at its start. Here, under the real MicroPython, the heap is left
half free in holes of a few sizes, and dozens of saves (each sector filled and
compacted many times over) must all be written and read back."""

import mpy_runner
import pytest


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    return mpy_runner.tree(str(tmp_path_factory.mktemp("fragmented")))


@pytest.mark.parametrize("grain", [400, 1248])
def test_every_save_is_written_in_a_heap_of_small_holes(tree, grain):
    out = mpy_runner.run("mpy/run_store_fragmented.py", heap="96K", paths=(tree,), args=(str(grain), "60"))
    assert out.returncode == 0, out.stdout + out.stderr
    last = out.stdout.strip().splitlines()[-1]
    assert last.startswith("ok "), last
    erases = int(last.split()[1])
    assert erases >= 3, "the sector must have been compacted again and again: " + last


@pytest.mark.parametrize("grain", [400, 1248])
def test_memory_finds_the_largest_free_block(tree, grain):
    """``MEMORY``'s ``block``: what the heap could give at once, never more,
    and not half of it, where half the heap is free in small holes. (Each
    try that fails leaves its exception's few bytes behind, which may land
    in the largest hole: the answer is a lower bound, about an eighth under.)"""
    out = mpy_runner.run("mpy/run_store_fragmented.py", heap="96K", paths=(tree,), args=(str(grain), "probe"))
    assert out.returncode == 0, out.stdout + out.stderr
    free, block, fits, over, enabled = out.stdout.split()
    assert (fits, over, enabled) == ("True", "False", "True"), out.stdout
    assert grain * 7 // 8 - 64 <= int(block) < int(free) // 4, out.stdout
