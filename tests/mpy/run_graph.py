# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# Graph Nim under MicroPython (and CPython, to compare): every preset start
# of pico-grid and the MacroPad, then each position down one line of play,
# normal and misère; prints the answers.
import gc

from nimatron.games.strategy import solve

STARTS = ([7, 7, 0, 15], [7, 5, 7, 0, 7], [11, 8, 14], [3, 0, 27, 0, 31], [3, 3, 12], [15, 0, 7])
for start in STARTS:
    for misere in (False, True):
        position = start
        while True:
            r = solve("graph:2", position, misere)
            print(start, misere, r["outcome"], r["nimber"], r["after"])
            if r["after"] is None:
                break
            position = r["after"]
        gc.collect()
print("free", gc.mem_free() if hasattr(gc, "mem_free") else -1)
