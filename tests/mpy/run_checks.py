# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# The games' cheap check (panels/playable.covered) against the engine's own
# answer, on MicroPython with a board's search limits (tests/test_checks.py
# runs it): every registered rule set, normal and misere, heaps of 1-6 in up
# to 3 rows and one heap of 1-30 (or lamp patterns of 3 x 3 and 8 x 8 ones
# of 1-20 lamps, seeded); the cheap answer spends no search unit. Prints one
# line per rule set and play, then "ok N" (N answers compared) or exits 3.
import sys

from checks_kit import answer, expensive
from nimatron.games import budget
from nimatron.games.registry import menu_specs
from nimatron.games.rules import REGISTRY, parse_rules
from nimatron.panels.playable import covered


def heap_starts(rules):
    low = 0 if rules.ordered else 1
    out = []
    for a in range(low, 7):
        for b in range(a, 7):
            for c in range(b, 7):
                out.append([c, b, a])
                out.append([c, b])
    out += [[n] for n in range(1, 31)]
    out = [s for s in out if sum(s)]
    if rules.has_ring:
        return [s for s in out if len(s) == 1]
    if rules.panel == "supply":
        return [s for s in out if len(s) > 1]
    return out


def grid_starts():
    out = []
    for mask in range(1, 1 << 9):
        out.append([(mask >> (3 * r)) & 7 for r in range(3)])
    seed = 27
    for lit in range(1, 21):
        for _ in range(3):
            cells = []
            while len(cells) < lit:
                seed = (seed * 1103515245 + 12345) % 2147483648
                cell = (seed >> 8) % 64
                if cell not in cells:
                    cells.append(cell)
            out.append([sum([1 << c for c in range(8) if r * 8 + c in cells]) for r in range(8)])
    return out


def main():
    compared = 0
    bad = 0
    for spec in menu_specs(REGISTRY):
        rules = parse_rules(spec)
        ring = rules.has_ring
        starts = grid_starts() if rules.panel == "cells" else heap_starts(rules)
        for misere in (False, True):
            differ = 0
            for shown in starts:
                start = rules.check(shown, ring)
                budget.start(1 << 30)
                cheap = answer(covered, rules, start, misere, ring)
                units = budget.spent()
                budget.stop()
                if units or cheap != answer(expensive, rules, start, misere, ring):
                    differ += 1
                    print("differs", spec, misere, shown, units)
                compared += 1
            print(spec, "misere" if misere else "normal", len(starts), "starts", differ, "differ")
            bad += differ
            from nimatron.link.hostlink import forget_searches

            forget_searches()
    if bad:
        sys.exit(3)
    print("ok", compared)


main()
