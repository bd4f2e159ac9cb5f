# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""How fast ``nimatron solve --batch`` answers a mixed batch (prints figures, asserts nothing).

    .venv/bin/python tests/bench_solve_batch.py [LINES]

The batch alternates rule sets whose answers come from ``tables.bin``
(misère Moore's Nim, misère Grundy's game) with large Grundy heaps, whose
nim-values a batch learns once and reuses. Figures: docs/benchmarks.md.
"""

import io
import json
import random
import sys
import time

from nimatron_host.solve import batch


def lines(n, seed=1):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        kind = i % 3
        if kind == 0:
            out.append({"rules": "moore:2", "position": [rng.randint(0, 7) for _ in range(4)], "misere": True})
        elif kind == 1:
            out.append({"rules": "grundy", "position": [rng.randint(1, 8) for _ in range(3)], "misere": True})
        else:
            out.append({"rules": "grundy", "position": [rng.randint(500, 1500)]})
    return "".join(json.dumps(line) + "\n" for line in out)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 600
    text = lines(n)
    out = io.StringIO()
    started = time.perf_counter()
    batch(io.StringIO(text), out)
    spent = time.perf_counter() - started
    errors = sum(1 for line in out.getvalue().splitlines() if '"error"' in line)
    print(
        "%d lines (a third large Grundy heaps of 500-1500): %.2f s, %.2f ms a line, %d errors"
        % (n, spent, 1000 * spent / n, errors)
    )


if __name__ == "__main__":
    main()
