# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# Building Nim under MicroPython (and CPython, to compare): every position
# of the building halves of the preset starts, normal and misère; prints the answers.
import gc

from bench_engine_positions import sorted_heaps
from nimatron.games.strategy import solve

for n, s in ((8, 3), (6, 3), (8, 5), (7, 3), (4, 3)):
    for misere in (False, True):
        for placed in range(n):
            for heaps in sorted_heaps(placed, s, placed):
                r = solve("building", heaps + [n - placed], misere)
                print(n, s, misere, heaps, r["outcome"], r["after"])
        gc.collect()
print("free", gc.mem_free() if hasattr(gc, "mem_free") else -1)
