# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The firmware's own modules, listed from its folders: the import fence
and the MicroPython import tests walk the same list."""

import os

HERE = os.path.dirname(os.path.abspath(__file__))
FIRMWARE = os.path.join(os.path.dirname(HERE), "firmware")
PACKAGE = os.path.join(FIRMWARE, "nimatron")


def core_modules():
    """nimatron, nimatron.x, nimatron.sub.y ... for every .py but drivers."""
    names = []
    for folder, dirs, files in os.walk(PACKAGE):
        rel = os.path.relpath(folder, FIRMWARE).replace(os.sep, ".")
        dirs[:] = sorted(d for d in dirs if not (folder == PACKAGE and d == "drivers") and d != "__pycache__")
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            names.append(rel if name == "__init__.py" else rel + "." + name[:-3])
    return names
