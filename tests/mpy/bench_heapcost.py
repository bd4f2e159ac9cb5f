# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# What one heap operation costs on a fresh interpreter and once the
# exhibit's modules are loaded: why a module load that takes 10 ms at a
# fresh REPL takes 40 ms in the running exhibit (issue 27). Per operation,
# in microseconds:
#   str   - a new short str (bytes.decode): MicroPython first looks the text
#           up among the interned names (qstrs), one by one through every
#           name the loaded modules brought;
#   multi - an object of several 16-byte blocks (bytearray(100)): the
#           allocator walks the heap from its first free block to the first
#           run long enough;
#   one   - a one-block object (a 1-tuple);
#   collect - a whole collection, in ms;
#   reload  - config.settings dropped and imported again, in ms.
# Rows: "fresh" (config.settings and what it needs imported, nothing else)
# and "loaded" (the modules below imported too).
# usage: tools/emu_heapcost.sh (real CircuitPython, emulated Pico), or
#   cd tests; MICROPYPATH=<compiled tree> micropython -X heapsize=256K -c "import bench_heapcost; bench_heapcost.main()"
import gc
import sys
import time

_ns = getattr(time, "monotonic_ns", None) or time.time_ns  # CircuitPython; MicroPython's unix port


def us():
    return _ns() // 1000


N = 50
MODULES = (
    "nimatron.machine.app",
    "nimatron.machine.controller",
    "nimatron.machine.startup",
    "nimatron.games.graph",
    "nimatron.games.nim2d",
    "nimatron.panels.cells",
    "nimatron.panels.playable",
    "nimatron.link.protocol",
    "nimatron.link.play",
    "nimatron.link.commands",
    "nimatron.link.hostlink",
    "nimatron.games.explain",
    "nimatron.config.boards",
    "nimatron.machine.service",
    "nimatron.link.setting",
)

_texts = [bytes([65 + i % 26, 66 + i // 26, 67]) for i in range(N)]
_out = [None] * N


def _str():
    for i in range(N):
        _out[i] = _texts[i].decode()


def _multi():
    for i in range(N):
        _out[i] = bytearray(100)


def _one():
    for i in range(N):
        _out[i] = (i,)


def _timed(f):
    gc.collect()
    start = us()
    f()
    took = us() - start
    for i in range(N):
        _out[i] = None
    return took


def _reload():
    import nimatron

    nimatron.forget(("config.settings",))
    start = us()
    __import__("nimatron.config.settings")
    return us() - start


def row(name):
    costs = [_timed(f) // N for f in (_str, _multi, _one)]
    start = us()
    gc.collect()
    took = us() - start
    print(
        "%-7s str %4d us  multi %4d us  one %4d us  collect %5.1f ms  reload %5.1f ms  free %d"
        % (name, costs[0], costs[1], costs[2], took / 1000, _reload() / 1000, gc.mem_free())
    )


def main():
    """One row fresh, then one with the exhibit's modules loaded."""
    __import__("nimatron.config.settings")  # and what it imports: a reload then loads it alone
    row("fresh")
    for name in MODULES:
        __import__(name)
    row("loaded")
    print("modules", len(sys.modules))
