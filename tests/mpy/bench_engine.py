# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# MicroPython benchmark runner: one rule set and convention per process.
# usage: micropython -X heapsize=64K bench_engine.py SPEC MISERE(0|1)
import gc
import sys
import time

spec = sys.argv[1]
misere = sys.argv[2] == "1"
gc.collect()
base = gc.mem_alloc()
import array

from bench_engine_positions import positions
from nimatron.games.strategy import solve

# Warm up: the first decision imports the rule set's module and reads its
# table from flash, once per boot; the figures are for decisions after that.
for pos, ring in positions(spec):
    solve(spec, pos, misere, ring)
    break
gc.collect()
after_import = gc.mem_alloc()
# Times in buckets (5 us below 1 ms, 100 us above): a list of every time
# would not fit the heap being measured.
hist = array.array("H", [0] * 1200)
count = 0
worst = 0
peak = 0
for pos, ring in positions(spec):
    gc.collect()
    t0 = time.ticks_us()
    solve(spec, pos, misere, ring)
    dt = time.ticks_diff(time.ticks_us(), t0)
    used = gc.mem_alloc()
    if used > peak:
        peak = used
    count += 1
    if dt > worst:
        worst = dt
    b = dt // 5 if dt < 1000 else min(1199, 200 + dt // 100)
    hist[b] += 1
seen = 0
median = 0
for b in range(1200):
    seen += hist[b]
    if seen * 2 >= count:
        median = b * 5 if b < 200 else (b - 200) * 100
        break
print("%d %d %d %d %d" % (count, median, worst, after_import - base, peak - base))
