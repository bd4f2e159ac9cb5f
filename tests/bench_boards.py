"""The Circuit Playground build's smallest MicroPython heap.

    .venv/bin/python tests/bench_boards.py [--games 20]

Precompiles firmware/nimatron with mpy-cross, then runs tests/mpy/bench_board.py
(the controller, settings, the circuitplayground pin map, the engine, the
cursor model and the sound scheduler; only the pins are left out) under
`micropython -X heapsize=N`, halving the interval to the smallest N (KB)
that plays the games of Nim on arcs (2-3-5) and of circular Nim on ten.
Prints the figures and, for the smallest heap, the modules it imported.
Nothing is asserted: the figures go in the README.
"""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bench_firmware import setup, smallest_heap  # noqa: E402


def runs(exe, tree, heap_kb, preset, games):
    env = dict(os.environ, MICROPYPATH=tree)
    out = subprocess.run([exe, "-X", "heapsize=%dK" % heap_kb, "-m", "bench_board", preset, str(games)],
                         capture_output=True, text=True, env=env, timeout=600)
    return out.stdout.split() if out.returncode == 0 else None


def main():
    args, exe, tree = setup(__doc__, ("tests/mpy/bench_board",))
    print("%-10s %8s %10s %14s" % ("preset", "games", "min heap", "worst update"))
    for preset in ("arcs", "circle10"):
        best = smallest_heap(lambda kb: runs(exe, tree, kb, preset, args.games))
        if best:
            print("%-10s %8s %8d KB %11s us" % (preset, best[1][0], best[0], best[1][2]))
        else:
            print("%-10s  did not run in 256 KB" % preset)
        if best:
            print("  imports: %s" % " ".join(best[1][3:]))


if __name__ == "__main__":
    main()
