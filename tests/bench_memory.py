# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Simulator memory over a long run (not collected by pytest): ``python tests/bench_memory.py``.

A random visitor plays whole games on the real drivers with switch bounce
on; the resident set size is printed every few hundred games. A long
simulation or soak must stay flat (gpiozero's MockPin keeps every edge of
every pin unless the bench trims it).
"""

import argparse
import gc
import resource

from nimatron_sim import Simulator
from nimatron_sim.visitor import Visitor


def rss_mb():
    """The resident set size now, in MB (Linux: /proc/self/statm)."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
        return pages * resource.getpagesize() / 1e6
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--board", default="pi-leds")
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--every", type=int, default=250)
    args = p.parse_args()
    sim = Simulator(args.board, {"think_ms": 0, "show_ms": 0}, seed=1, bounce=True)
    robot = Visitor(sim, "random", seed=1)
    try:
        print("%s, bounce on: games, RSS (MB)" % args.board)
        for game in range(1, args.games + 1):
            robot.play_game()
            if game == 1 or game % args.every == 0:
                gc.collect()
                print("%6d  %5.1f" % (game, rss_mb()), flush=True)
    finally:
        sim.close()


if __name__ == "__main__":
    main()
