# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# Two checks of a hand-copied drive's config/names.txt (tests/test_py_sets.py).
#
# all LISTING: every name of the file interned, then compiling a .py module
# the drive carries interns no name the file lacks. Prints MicroPython's
# qstr_info line ("... n_qstr=N ...") once the file is in, then "module
# PATH" and the line again after each module's compile.
#   LISTING: lines "DRIVE_PATH FILE" (the module's name on the drive, its source here)
#
# grow: power_on.names(gc), as code.py calls it once the start has built the
# machine: the qstr_info line before and after it.
# MICROPYPATH=<tree with nimatron as .py> micropython run_names.py all LISTING | grow
import sys

import micropython
from nimatron import resource

if sys.argv[1] == "grow":
    import gc

    from nimatron.machine import power_on

    micropython.qstr_info()
    power_on.names(gc)
    micropython.qstr_info()
    sys.exit(0)
with open(resource("config/names.txt")) as f:
    for line in f:
        hasattr(None, line.rstrip("\r\n"))
with open(sys.argv[2]) as f:
    listing = [line.split() for line in f]
micropython.qstr_info()
for drive_path, source in listing:
    with open(source) as f:
        text = f.read()
    compile(text, drive_path, "exec")
    text = None
    print("module", drive_path)
    micropython.qstr_info()
