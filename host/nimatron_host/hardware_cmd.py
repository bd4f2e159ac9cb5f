# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron hardware``: regenerate the hardware package from the pin maps.

    nimatron hardware                  # write what is stale in hardware/
    nimatron hardware --check          # list stale files, exit 1 if any
    nimatron hardware --out /tmp/hw --lang ru

Writes, per board, ``README.md`` (the build guide), ``bom.csv``,
``wiring.svg`` and ``panel.svg`` (and their PNGs, rendered with
``rsvg-convert``), and ``hardware/README.md``. Only files whose content
changes are rewritten, so a run on a current package writes nothing.
"""

import os
import sys

from .cli import Failure, UsageError

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(os.path.dirname(os.path.dirname(HERE)), "hardware")
LANGS = ("en", "es", "ru")


def add_parser(sub):
    p = sub.add_parser(
        "hardware", help="regenerate hardware/: build guides, BOMs, wiring, panels", description=__doc__.split("\n")[0]
    )
    p.add_argument("--out", default=DEFAULT_OUT, metavar="DIR", help="the folder to write (default: hardware/)")
    p.add_argument("--lang", default="en", help="the panels' language: en, es or ru (default en)")
    p.add_argument("--check", action="store_true", help="only list stale files; exit 1 if any")
    p.add_argument("--no-png", action="store_true", help="skip rendering PNGs")


def run(args):
    from . import hardware

    if args.lang not in LANGS:
        raise UsageError("--lang must be one of %s, not %r" % (", ".join(LANGS), args.lang))
    if args.check:
        stale = hardware.stale(args.out, args.lang)
        for path in stale:
            sys.stdout.write("stale: %s\n" % os.path.join(args.out, path))
        if stale:
            raise Failure(
                "%d stale file(s): run `nimatron hardware%s` to refresh them"
                % (len(stale), "" if args.out == DEFAULT_OUT else " --out " + args.out)
            )
        sys.stdout.write("%s is current\n" % args.out)
        return 0
    if os.path.exists(args.out) and not os.path.isdir(args.out):
        raise UsageError("--out %s is not a folder" % args.out)
    parent = os.path.dirname(os.path.abspath(args.out))
    if not os.path.isdir(parent):
        raise UsageError("--out %s: the folder %s does not exist" % (args.out, parent))
    try:
        written, left = hardware.write(args.out, args.lang, pngs=not args.no_png)
    except OSError as e:
        raise Failure("cannot write %s: %s" % (args.out, e.strerror or e)) from e
    for path in written:
        sys.stdout.write("wrote %s\n" % os.path.join(args.out, path))
    if not written:
        sys.stdout.write("%s is current\n" % args.out)
    if left and not args.no_png:
        raise Failure("no rsvg-convert: %d PNG(s) not rendered (apt-get install librsvg2-bin)" % len(left))
    return 0
