# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Marks in a deployed drive's start (tools/emu_start.sh): a line
``mark STEP [WHAT] TICKS`` after each step of ``code.py``'s start and of
``app.make_controller``, where they are ``.py``. The checkout is untouched.

usage: emu_start_marks.py DRIVE"""

import os
import sys


def mark(step, indent, what=None):
    value = ", %s" % what if what else ""
    return '%sprint("mark %s"%s, __import__("supervisor").ticks_ms())\n' % (indent, step, value)


def patch(path, pairs):
    with open(path) as f:
        text = f.read()
    for old, new in pairs:
        if old not in text:
            raise SystemExit("emu_start_marks: %s has changed (no %r): update the marks" % (path, old.strip()[:60]))
        text = text.replace(old, new, 1)
    with open(path, "w") as f:
        f.write(text)


def main(drive):
    code = os.path.join(drive, "code.py")
    patch(
        code,
        [
            (
                "    import gc\n\n    from nimatron import forget\n",
                mark("main", "    ") + "    import gc\n\n    from nimatron import forget\n" + mark("nimatron", "    "),
            ),
            ("    pins = once.hold(gc)", mark("power_on", "    ") + "    pins = once.hold(gc)"),
            (
                "    once.first_lamp(BOARD, SETTINGS)",
                "    lamp = once.first_lamp(BOARD, SETTINGS)\n" + mark("lamp", "    ", "lamp"),
            ),
            ("    dog = once.arm_watchdog", mark("startup", "    ") + "    dog = once.arm_watchdog"),
        ],
    )
    app = os.path.join(drive, "lib", "nimatron", "machine", "app.py")
    if os.path.exists(app):  # compiled to .mpy: code.py's marks only
        patch(
            app,
            [
                (
                    "    spec, settings = make_settings(board_name, overrides)\n",
                    mark("start", "    ")
                    + "    spec, settings = make_settings(board_name, overrides)\n"
                    + mark("settings", "    "),
                ),
                (
                    "    limit = PowerLimit(board_name, spec)\n",
                    mark("layout", "    ") + "    limit = PowerLimit(board_name, spec)\n",
                ),
                (
                    "        io = open_io(spec, layout, **options)\n",
                    mark("power", "        ") + "        io = open_io(spec, layout, **options)\n",
                ),
                (
                    "            io.show(*attract_frame(layout, now_ms))\n",
                    "            io.show(*attract_frame(layout, now_ms))\n" + mark("attract", "            "),
                ),
            ],
        )


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1])
