# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Simulator benchmarks (not collected by pytest): run ``python tests/bench_sim.py``.

1. Button press -> lamp change latency, in virtual ms, through the whole
   chain (mock pin -> driver -> controller -> driver -> pin/NeoPixel bytes),
   the press landing at a random phase of the main loop and keypad scan.
   Target: within one loop tick, and never above 20 ms.
2. Headless speed: full games per second (a random robot visitor against the
   machine, pressing real mocked buttons), per driver, with the real pauses
   (think 1.5 s, show 1.6 s) and without them.
"""

import argparse
import random
import statistics
import time

from nimatron_sim import Simulator
from nimatron_sim.visitor import Visitor

BOARDS = [
    ("pi-leds", "gpiozero: MockFactory, input-device callbacks, LEDs"),
    ("pico-neopixel", "Blinka: keypad.Keys, NeoPixel bytes"),
    ("pico-grid", "Blinka: keypad.KeyMatrix 8x8, NeoPixel bytes"),
]


def latency(board, samples, tick_ms, seed=1):
    """Virtual ms from a button closing to the first change of the lamp outputs."""
    rng = random.Random(seed)
    sim = Simulator(board, tick_ms=tick_ms)
    key = "row3" if sim.spec["input"] == "rows" else "key 3 0"
    out = []
    try:
        for _ in range(samples):
            sim.tap("new")
            sim.advance(300 + rng.randrange(40))  # a steady visitor's turn, at a random phase
            version = sim.bench.version
            pressed_at = sim.now
            sim.press(key)
            while sim.bench.version == version:
                sim.advance(1)
                if sim.now - pressed_at > 1000:
                    raise AssertionError("no lamp change after pressing %s" % key)
            out.append(sim.now - pressed_at)
            sim.release(key)
            sim.advance(100)
    finally:
        sim.close()
    return out


def speed(board, games, overrides, seed=1):
    sim = Simulator(board, overrides, seed=seed)
    robot = Visitor(sim, "random", seed=seed)
    try:
        started = time.perf_counter()
        for _ in range(games):
            robot.play_game()
        wall = time.perf_counter() - started
    finally:
        sim.close()
    return games / wall, sim.now / 1000 / games, sim.now / 1000 / wall


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--samples", type=int, default=400)
    p.add_argument("--games", type=int, default=200)
    args = p.parse_args()

    print("Press -> lamp latency (virtual ms, %d presses at random phases)" % args.samples)
    for tick in (5, 10):
        for board, about in BOARDS:
            ms = sorted(latency(board, args.samples, tick))
            p95 = ms[int(len(ms) * 0.95) - 1]
            print(
                "  tick %2d ms  %-14s mean %5.1f  p95 %3d  max %3d   (%s)"
                % (tick, board, statistics.mean(ms), p95, ms[-1], about)
            )

    print("\nHeadless speed (random visitor, whole stack, %d games per line)" % args.games)
    for label, overrides in (("real pauses", {}), ("no pauses", {"think_ms": 0, "show_ms": 0})):
        for board, _about in BOARDS:
            rate, virtual, factor = speed(board, args.games, overrides)
            print(
                "  %-11s %-14s %7.1f games/s   %5.1f virtual s a game   %6.0fx real time"
                % (label, board, rate, virtual, factor)
            )


if __name__ == "__main__":
    main()
