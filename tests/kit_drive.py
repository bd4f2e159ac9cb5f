# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""What the deploy tests share: a drive's whole contents as a value, and
the house rule for a refusal (one line, never a traceback)."""

import os


def snapshot(root):
    """{relative path: bytes, "<dir>" or ("link", target)} of everything below ``root``."""
    out = {}
    for folder, dirs, names in os.walk(root):
        for name in dirs + names:
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            if os.path.islink(path):
                out[rel] = ("link", os.readlink(path))
            elif os.path.isdir(path):
                out[rel] = "<dir>"
            else:
                with open(path, "rb") as f:
                    out[rel] = f.read()
    return out


def one_line(err):
    return len(err.strip().splitlines()) == 1 and "Traceback" not in err
