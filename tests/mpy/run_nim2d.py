# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# Two-dimensional Nim under MicroPython: a few boards, normal and misère; prints the answers.
import gc

from nimatron.games.strategy import solve

out = []
for pos in (
    [15, 15, 15, 15],
    [15, 9, 15],
    [7, 7, 7],
    [[1, 1, 1, 0], [0, 0, 0, 1]],
    [[1, 0, 1, 1], [1, 1, 0, 1], [0, 1, 1, 1], [1, 1, 1, 0]],
):
    for misere in (False, True):
        r = solve("nim2d", pos, misere)
        out.append((r["outcome"], r["after"]))
gc.collect()
print(out)
print("free", gc.mem_free())
