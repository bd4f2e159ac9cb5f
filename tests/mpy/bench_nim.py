# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# Nim alone in a small heap: micropython -X heapsize=16K bench_nim.py MISERE(0|1)
# Solves every position of up to 4 heaps of up to 7; prints count, worst us, peak heap.
import gc
import sys
import time

misere = sys.argv[1] == "1"
gc.collect()
base = gc.mem_alloc()
from nimatron.games.strategy import solve

count = 0
worst = 0
peak = 0
for n in range(1, 5):
    for code in range(8**n):
        pos = [(code >> (3 * i)) & 7 for i in range(n)]
        gc.collect()
        t0 = time.ticks_us()
        solve("nim", pos, misere)
        dt = time.ticks_diff(time.ticks_us(), t0)
        used = gc.mem_alloc() - base
        if used > peak:
            peak = used
        if dt > worst:
            worst = dt
        count += 1
print(count, worst, peak)
