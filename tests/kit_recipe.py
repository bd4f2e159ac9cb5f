# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The contributor's recipe for a rule set (docs/contributing.md), followed
as written in a copy of the tree: tests/test_registry.py (every menu and
panel) and tests/test_memory_table.py (it plays, and leaves the heap)."""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RECIPE = re.compile(r"<!-- recipe: (\S+) -->\n```\w+\n(.*?)```", re.S)
LANG = "simulator/nimatron_sim/web/static/lang/"


def follow_recipe(root):
    """Do what docs/contributing.md says, in the copy at ``root``; the files touched."""
    with open(os.path.join(ROOT, "docs", "contributing.md"), encoding="utf-8") as f:
        steps = RECIPE.findall(f.read())
    assert [where for where, _ in steps] == [
        "firmware/nimatron/games/odd.py",
        "REGISTRY",
        "lang/en.json",
        "lang/es.json",
        "lang/ru.json",
        "run",
    ], "the recipe's steps moved"
    touched = []
    for where, text in steps:
        if where == "run":
            assert text.split() == [".venv/bin/python", "tools/memory_table.py"], text
            derive(root)
            continue
        if where == "REGISTRY":  # one line, inside the tuple
            path = "firmware/nimatron/games/rules.py"
            source = (root / path).read_text(encoding="utf-8")
            start = source.index("REGISTRY = (")
            end = source.index("\n)\n", start) + 1
            source = source[:end] + text + source[end:]
        elif where.startswith("lang/"):  # into "phrases"
            path = LANG + where[5:]
            source = (root / path).read_text(encoding="utf-8")
            at = source.index('"phrases": {\n') + len('"phrases": {\n')
            source = source[:at] + text + source[at:]
        else:
            path = where
            assert not (root / path).exists()
            source = text
        (root / path).write_text(source, encoding="utf-8")
        touched.append(path)
    return touched


def derive(root):
    """The recipe's last step: the derived table of what each rule set loads
    (``tools/memory_table.py``, run in the copy: it rewrites ``LOADS`` in games/rules.py)."""
    import shutil

    os.makedirs(os.path.join(str(root), "tools"), exist_ok=True)
    shutil.copy(os.path.join(ROOT, "tools", "memory_table.py"), os.path.join(str(root), "tools"))
    done = subprocess.run(
        [sys.executable, os.path.join(str(root), "tools", "memory_table.py")],
        capture_output=True,
        text=True,
        cwd=str(root),
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def changed_files(a, b, below=""):
    import filecmp

    out = []
    cmp = filecmp.dircmp(a, b, ignore=["__pycache__"])
    out += [os.path.join(below, n) for n in cmp.left_only + cmp.right_only + cmp.diff_files]
    for sub in cmp.common_dirs:
        out += changed_files(os.path.join(a, sub), os.path.join(b, sub), os.path.join(below, sub))
    return out
