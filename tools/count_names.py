# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""How many names a deployed drive brings into CircuitPython's heap.

CircuitPython interns every name a module refers to when it loads it (its
qstrs: globals, functions, arguments, attributes, strings of up to 10
characters, the module's own file name) and never frees them, even after
``nimatron.forget`` dropped the module. The firmware's own names cost
nothing (they are in flash); the rest go into pools on the heap, 6 bytes a
name plus its text. Each new pool has room for twice as many names as the
last (py/qstr.c: 20, 40, ... 640): the 1,261st name of a run allocates a
pool of 1,280 names at once, 8.3 KB of heap (tools/emu_names.sh).

Reads the drive's ``.mpy`` files (CircuitPython's mpy-cross; ``.py`` files
are compiled here with it, as the board compiles code.py) and the
firmware's names (``genhdr/qstrdefs.generated.h`` of a CircuitPython build),
and prints the names the firmware lacks: all the drive's, and per module.
Figures: docs/board.md.

usage: tools/count_names.py DRIVE MPY_CROSS QSTRDEFS_H [MODULE ...]
  MODULE: a module path under lib/nimatron without .mpy (machine/controller):
  count only these (and code.py, boot.py and the libraries), not every module.
"""

import os
import re
import subprocess
import sys
import tempfile


def _uint(data, at):
    value = 0
    while True:
        byte = data[at]
        at += 1
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            return value, at


def mpy_names(data):
    """The names in a .mpy's qstr table (v6) that it carries as text: the
    ones the compiler's own static list does not already hold."""
    if len(data) < 4 or data[:1] not in (b"C", b"M") or data[1] != 6:
        raise ValueError("not a version 6 .mpy")
    n_qstr, at = _uint(data, 4)
    _n_obj, at = _uint(data, at)
    names = set()
    for _ in range(n_qstr):
        length, at = _uint(data, at)
        if length & 1:  # an index into the static list: in every firmware
            continue
        length >>= 1
        names.add(data[at : at + length].decode("utf-8"))
        at += length + 1  # and its NUL
    return names


def firmware_names(header):
    with open(header, encoding="utf-8") as f:
        found = re.findall(r'^QDEF[01]\(MP_QSTR_\S*, \d+, \d+, "(.*)"\)$', f.read(), re.M)
    return {name.encode("latin-1").decode("unicode_escape") for name in found}


def main(argv):
    if len(argv) < 3:
        print("usage: tools/count_names.py DRIVE MPY_CROSS QSTRDEFS_H [MODULE ...]", file=sys.stderr)
        return 2
    drive, cross, header, only = argv[0], argv[1], argv[2], argv[3:]
    if not os.path.isdir(os.path.join(drive, "lib", "nimatron")):
        print("count_names: %s has no lib/nimatron (deploy to it first)" % drive, file=sys.stderr)
        return 2
    try:
        firmware = firmware_names(header)
    except OSError as e:
        print("count_names: cannot read %s: %s" % (header, e.strerror), file=sys.stderr)
        return 2
    per = {}
    with tempfile.TemporaryDirectory() as tmp:
        for folder, _dirs, files in os.walk(drive):
            for name in sorted(files):
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, drive).replace(os.sep, "/")
                module = rel[len("lib/nimatron/") :].rsplit(".", 1)[0]
                if only and rel.startswith("lib/nimatron/") and module not in only:
                    continue
                if name.endswith(".py"):
                    out = os.path.join(tmp, "out.mpy")
                    try:
                        subprocess.run([cross, "-o", out, "-s", "/" + rel, path], check=True, capture_output=True)
                    except (OSError, subprocess.CalledProcessError) as e:
                        print("count_names: %s cannot compile %s: %s" % (cross, rel, e), file=sys.stderr)
                        return 2
                    path = out
                elif not name.endswith(".mpy"):
                    continue
                with open(path, "rb") as f:
                    per[rel] = mpy_names(f.read()) - firmware
                if rel.startswith("lib/nimatron/"):  # its dotted name, interned as it loads
                    per[rel].add("nimatron." + module.replace("/", ".").replace(".__init__", "").rstrip("."))
    union = set().union(*per.values())
    print(
        "%d names the firmware lacks, %d bytes of text, in %d modules"
        % (len(union), sum(len(n.encode()) + 1 for n in union), len(per))
    )
    for rel, names in sorted(per.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        print("%5d %s" % (len(names), rel))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:  # | head
        sys.exit(0)
