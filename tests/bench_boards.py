# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The Circuit Playground build's smallest MicroPython heap.

    .venv/bin/python tests/bench_boards.py [--games 20]

Precompiles firmware/nimatron with mpy-cross, then runs tests/mpy/bench_board.py
(the controller, settings, the circuitplayground pin map, the engine, the
cursor model and the sound scheduler; only the pins are left out) under
`micropython -X heapsize=N` for the smallest N (KB, see smallest_heap)
that plays the games of Nim on arcs (2-3-5) and of circular Nim on ten, in
three builds: the game alone, the machine as code.py starts it (settings
source, audits, the store on nvm) and the machine with its host link.
Prints the figures, then what holds the heap up: the bytes each imported
module keeps resident (tests/mpy/resident.py). Nothing is asserted: the
figures go in the README.
"""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bench_firmware import setup, smallest_heap  # noqa: E402

MODES = ("game", "machine", "link")


def runs(exe, tree, heap_kb, *args):
    env = dict(os.environ, MICROPYPATH=tree)
    out = subprocess.run(
        [exe, "-X", "heapsize=%dK" % heap_kb, "-m"] + [str(a) for a in args],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    return out.stdout.split() if out.returncode == 0 else None


def leaves_first(exe, tree, modules):
    """``modules`` ordered so that each comes after every module it imports."""
    needs = {m: set(runs(exe, tree, 512, "resident", "--needs", m) or ()) - {m} for m in modules}
    order = []
    while len(order) < len(modules):
        ready = sorted(m for m in modules if m not in order and needs[m] <= set(order) | (needs[m] - set(modules)))
        order += ready or sorted(m for m in modules if m not in order)  # a cycle: take the rest as they come
    return order


def main():
    args, exe, tree = setup(__doc__, ("tests/mpy/bench_board", "tests/mpy/resident"))
    print("%-10s %-8s %6s %10s %14s" % ("preset", "build", "games", "min heap", "worst update"))
    imported = []
    for preset in ("arcs", "circle10"):
        for mode in MODES:
            best = smallest_heap(lambda kb: runs(exe, tree, kb, "bench_board", preset, args.games, mode))
            if not best:
                print("%-10s %-8s  did not run in 256 KB" % (preset, mode))
                continue
            print("%-10s %-8s %6s %8d KB %11s us" % (preset, mode, best[1][0], best[0], best[1][2]))
            imported += [m for m in best[1][4:] if m not in imported]
    sizes = runs(exe, tree, 512, "resident", *leaves_first(exe, tree, imported)) or []
    rows = [(int(sizes[i + 1]), sizes[i]) for i in range(0, len(sizes), 2)]
    print("\nresident after import (precompiled), largest first; %d KB in all:" % (sum(r[0] for r in rows) // 1024))
    for size, name in sorted(rows, reverse=True):
        print("  %-28s %5.1f KB" % (name, size / 1024))


if __name__ == "__main__":
    main()
