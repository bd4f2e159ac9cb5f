# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron tables``: rebuild or check the firmware's exhibit-size tables.

Files built by exhaustive search on the PC so a board only looks up:
``tables.bin`` (the heap and splitting games without theory) and
``nim2d.bin`` (2-D Nim, every board of up to 4 x 4 cells: won or lost); and
for the PC's faces ``nim2d-values.bin`` (each such board's nim-value, for
the reasoning panel: searching it took seconds).
"""

import os
import sys


def _tables():
    from . import tables

    return tables.path(), tables.build


def _nim2d():
    from nimatron import resource
    from nimatron.games import nim2d

    return resource(nim2d.TABLE), nim2d.build_table


def _nim2d_values():
    from nimatron import resource
    from nimatron.games import nim2d

    return resource(nim2d.VALUES), nim2d.build_values


BUILDERS = (_tables, _nim2d, _nim2d_values)


def add_parser(sub):
    p = sub.add_parser(
        "tables", help="rebuild or check the firmware's game tables (tables.bin, nim2d.bin)", description=__doc__
    )
    p.add_argument("--check", action="store_true", help="only check that the shipped files are up to date")


def run(args):
    stale = 0
    for builder in BUILDERS:
        path, build = builder()
        data = build()
        try:
            with open(path, "rb") as f:
                current = f.read()
        except OSError:
            current = None
        if current == data:
            print("%s is up to date (%d bytes)" % (path, len(data)))
        elif args.check:
            print("%s is out of date: run nimatron tables" % path, file=sys.stderr)
            stale += 1
        else:
            tmp = path + ".tmp"
            with open(tmp, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
            print("wrote %s (%d bytes)" % (path, len(data)))
    return 1 if stale else 0
