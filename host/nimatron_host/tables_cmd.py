"""``nimatron tables``: rebuild or check the firmware's exhibit-size tables."""

import sys

from . import tables


def add_parser(sub):
    p = sub.add_parser("tables", help="rebuild or check firmware/nimatron/tables.bin", description=__doc__)
    p.add_argument("--check", action="store_true", help="only check that the shipped file is up to date")


def run(args):
    data = tables.build()
    path = tables.path()
    try:
        with open(path, "rb") as f:
            current = f.read()
    except OSError:
        current = None
    if args.check:
        if current != data:
            print("%s is out of date: run nimatron tables" % path, file=sys.stderr)
            return 1
        print("%s is up to date (%d bytes)" % (path, len(data)))
        return 0
    if current == data:
        print("%s already up to date (%d bytes)" % (path, len(data)))
        return 0
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    import os

    os.replace(tmp, path)
    print("wrote %s (%d bytes)" % (path, len(data)))
    return 0
