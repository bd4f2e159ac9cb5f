# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``hold_heap`` (``nimatron.machine.power_on``, run first by code.py) against a model of CircuitPython 9's split heap
(py/gc.c with MICROPY_GC_SPLIT_HEAP_AUTO, 9.2.8), block by block: the heap
starts as one 8 KB area; an allocation takes the first run of free 16-byte
blocks, area after area; a failed one collects first and only then adds an
area (at least doubling the heap, at most what the system heap has left);
a collection hands back every area but the first whose last used block is
block 0 (empty, or one block at its start).

The kind of fault: a collection the program asked for empties an area, and
the next load pays for a second collection (20 ms on an RP2040) and grows
the heap again. Generated heaps (garbage left by the boot) and generated
sequences of loads, drops and collections check that after ``hold_heap`` an
area is never handed back and a load collects by itself only when no area
has room for it. The real thing is measured in the emulator
(tools/emu_board.py; docs/board.md)."""

import os
import weakref

from hypothesis import given, settings, strategies as st
from nimatron.machine import power_on

HERE = os.path.dirname(os.path.abspath(__file__))
FIRMWARE = os.path.join(os.path.dirname(HERE), "firmware")
BLOCK = 16


class Obj:
    """A heap object of the model: alive while Python holds it."""

    def __init__(self, addr, size):
        self.addr = addr
        self.size = size


class Area:
    def __init__(self, base, size):
        tables = size * 3 // 128 + 64  # allocation and finaliser tables, the area's header
        self.size = size
        self.blocks = (size - tables) // BLOCK
        self.pool = base + tables
        self.held = []  # [first block, blocks, weak reference], by first block

    def run(self, n):
        """The first block of the first run of n free blocks, or None."""
        end = 0
        for first, count, _ in self.held:
            if first - end >= n:
                return end
            end = first + count
        return end if self.blocks - end >= n else None

    def last_used(self):
        return max((first + count - 1 for first, count, _ in self.held), default=0)

    def room(self):
        """The longest run of free blocks, in bytes."""
        end, best = 0, 0
        for first, count, _ in self.held:
            best = max(best, first - end)
            end = first + count
        return max(best, self.blocks - end) * BLOCK


class SplitHeap:
    """The gc module's face (collect, mem_free, mem_alloc) and ``new``."""

    FIRST = 8 * 1024  # CIRCUITPY_HEAP_START_SIZE

    def __init__(self, outer):
        self.outer = outer  # the system heap (TLSF) still free, in one piece
        self.base = 0x20000000
        self.areas = [self._area(self.FIRST)]
        self.auto = 0  # collections the allocator started by itself

    def _area(self, size):
        area = Area(self.base, size)
        self.base += size + 64  # the next one elsewhere in RAM
        return area

    def _fit(self, size):
        n = -(-size // BLOCK)
        for area in self.areas:
            first = area.run(n)
            if first is not None:
                obj = Obj(area.pool + first * BLOCK, size)
                area.held.append([first, n, weakref.ref(obj)])
                area.held.sort(key=lambda h: h[0])
                return obj
        return None

    def _add(self, size):
        """gc_try_add_heap: at least double the heap, at most what is left."""
        needed = size + max(2048, size * 13 // 512)
        if self.outer < needed:
            return False
        grow = min(self.outer, max(sum(a.size for a in self.areas), needed))
        self.outer -= grow
        self.areas.append(self._area(grow))
        return True

    def new(self, size):
        obj = self._fit(size)
        if obj is None:
            self.auto += 1
            self.collect()
            obj = self._fit(size)
        if obj is None and self._add(size):
            obj = self._fit(size)
        if obj is None:
            raise MemoryError("memory allocation failed, allocating %d bytes" % size)
        return obj

    def collect(self):
        for area in self.areas:
            area.held = [h for h in area.held if h[2]() is not None]
        kept = self.areas[:1]
        for area in self.areas[1:]:
            if area.last_used() == 0:  # gc_sweep: "free any empty area, aside from the first one"
                self.outer += area.size
            else:
                kept.append(area)
        self.areas = kept

    def mem_alloc(self):
        return sum(h[1] for a in self.areas for h in a.held if h[2]() is not None) * BLOCK

    def mem_free(self):
        return sum(a.blocks for a in self.areas) * BLOCK - self.mem_alloc() + self.outer


CODE = vars(power_on)  # code.py runs it at power-on (then drops it)
PICO = 180 * 1024  # about what a Pico's system heap has when code.py starts
TUPLE = 4 * CODE["_HEAP_CHUNK"] + 8  # a tuple of HEAP_CHUNK items on a 32-bit board
PIN = 20  # a tuple of 3


def hold(heap):
    return CODE["hold_heap"](heap, new=lambda: heap.new(TUPLE), where=lambda o: o.addr, pin=lambda: heap.new(PIN))


def boot(heap, sizes):
    """What code.py's imports leave: objects, every other one garbage."""
    kept = []
    for i, size in enumerate(sizes):
        obj = heap.new(size)
        if i % 2:
            kept.append(obj)
    return kept


def test_the_heap_grows_once_as_far_as_it_can_and_every_area_it_grew_by_is_pinned():
    heap = SplitHeap(PICO)
    pins = hold(heap)
    assert [a.size // 1024 for a in heap.areas][:5] == [8, 8, 16, 32, 64]  # each doubling, then the rest
    assert len(heap.areas) == 6 and all(a.held for a in heap.areas[1:])
    assert heap.outer < TUPLE + 2048  # as far as it can: as it would under load
    assert len(pins) <= len(heap.areas)
    assert all(p.size == PIN for p in pins)
    heap.collect()
    assert all(a.held for a in heap.areas[1:])


def test_every_area_is_pinned_after_a_boot_that_left_hundreds_of_holes():
    """code.py compiled from .py leaves hundreds of small holes, and a pin
    takes the first room that fits: on the emulated Pico 400 tries pinned 1
    to 3 areas of 4 before the pins reached the new areas."""
    heap = SplitHeap(PICO)
    resident = boot(heap, [32 + 16 * (i % 5) for i in range(3000)])  # 1,500 holes in four areas
    pins = hold(heap)
    assert heap.outer < TUPLE + 2048, "an area it grew by was handed back"
    assert len(heap.areas) >= 5 and all(a.held for a in heap.areas[1:])
    assert len(pins) <= len(heap.areas) and resident


def _churn(heap):
    """A program grown into its heap, scratch dropped, a collection asked
    for, then a load: how many collections the load started by itself."""
    resident = [heap.new(2000) for _ in range(20)]
    scratch = [heap.new(4000) for _ in range(10)]
    del scratch
    heap.collect()
    auto = heap.auto
    resident.append(heap.new(30000))
    return heap.auto - auto


def test_without_it_a_collection_asked_for_costs_a_second_one():
    """The finding itself, in the model: the load after a collection collects again."""
    assert _churn(SplitHeap(PICO)) == 1


def test_with_it_the_collection_asked_for_is_the_only_one():
    heap = SplitHeap(PICO)
    pins = hold(heap)
    assert _churn(heap) == 0
    assert pins


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(16, 3000), max_size=40),
    st.lists(st.tuples(st.sampled_from(["load", "drop", "collect"]), st.integers(16, 12000)), max_size=60),
)
def test_after_it_no_area_is_handed_back_and_a_load_collects_only_when_no_area_has_room(garbage, steps):
    heap = SplitHeap(PICO)
    resident = boot(heap, garbage)
    pins = hold(heap)
    areas = list(heap.areas)
    assert len(areas) >= 5 and all(a.held for a in areas[1:])
    assert all(p.size == PIN for p in pins) and len(pins) <= len(areas)
    live = []
    for op, size in steps:
        if op == "load":
            room = max(a.room() for a in heap.areas)
            auto = heap.auto
            try:
                live.append(heap.new(size))
            except MemoryError:
                assert room < size
                continue
            assert heap.auto == auto or room < size, "a load that fitted an area collected by itself"
        elif op == "drop" and live:
            live.pop(size % len(live))
        else:
            heap.collect()
        assert heap.areas[: len(areas)] == areas, "an area was handed back"
    assert resident is not None


def test_on_micropython_a_heap_that_does_not_grow_is_left_as_it_was():
    """MicroPython's unix port (and CircuitPython 8): one fixed heap. code.py
    holds only where the heap grows; run anyway, it gives its fill back."""
    assert not CODE["heap_grows"]()
    heap = SplitHeap(0)
    heap.areas = [Area(0x20000000, 64 * 1024)]
    free = heap.mem_free()
    pins = hold(heap)
    assert len(pins) <= 2
    assert heap.mem_free() >= free - 2 * TUPLE - BLOCK


def test_on_real_micropython_it_runs_and_gives_its_fill_back():
    """The real allocator and id(): tuples from one allocation each sit one
    stride apart. Run on a heap riddled with small holes (where its pins land
    first), it works in a heap it has filled: nothing it does then may
    allocate (a list growing there raised MemoryError on the emulated Pico)."""
    import subprocess

    import mpy_runner

    exe = mpy_runner.micropython()
    names = open(os.path.join(FIRMWARE, "nimatron", "machine", "power_on.py")).read()
    names = names.replace(
        "from .. import const\n", "from micropython import const\n"
    )  # run as a script, not in its package
    script = names + (
        "import gc, sys\n"
        "holes = int(sys.argv[-1])\n"
        "junk = [(i, i, i) for i in range(holes * 2)]\n"
        "kept = junk[::2]\n"
        "junk = None\n"
        "gc.collect()\n"
        "free = gc.mem_free()\n"
        "pins = hold_heap(gc)\n"
        "print(len(pins), free - gc.mem_free(), heap_grows(), len(kept))\n"
    )
    for holes in (0, 50, 2000):
        out = subprocess.run(
            [exe, "-X", "heapsize=512K", "-c", script, str(holes)], capture_output=True, text=True, timeout=60
        )
        assert out.returncode == 0, out.stdout + out.stderr
        pins, held, grows, kept = out.stdout.split()
        assert grows == "False" and int(kept) == holes
        assert int(pins) <= 2
        assert int(held) <= 8192  # its pins (and what the stack scan keeps), not the heap it filled


def test_the_heap_cost_bench_runs_on_micropython(tmp_path):
    """tests/mpy/bench_heapcost.py (tools/emu_heapcost.sh runs it on real
    CircuitPython): both rows, with every figure, under the unix port."""
    import re

    import mpy_runner

    tree = mpy_runner.tree(str(tmp_path), modules=())
    script = "import bench_heapcost\nbench_heapcost.main()\n"
    env = dict(os.environ, MICROPYPATH=tree + ":" + os.path.join(HERE, "mpy"))
    import subprocess

    done = subprocess.run(
        [mpy_runner.micropython(), "-X", "heapsize=1M", "-c", script],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    rows = re.findall(
        r"^(fresh|loaded) +str +(\d+) us +multi +(\d+) us +one +(\d+) us +collect +([\d.]+) ms"
        r" +reload +([\d.]+) ms +free (\d+)$",
        done.stdout,
        re.M,
    )
    assert [r[0] for r in rows] == ["fresh", "loaded"], done.stdout
    fresh, loaded = rows
    assert float(loaded[5]) > 0 and int(loaded[6]) < int(fresh[6])  # the modules took heap
    assert re.search(r"^modules \d+$", done.stdout, re.M)
