# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""What each rule set loads, derived from the imports and the registry.

A board loads a new rule set's modules one a main-loop pass, what each
module imports first (a module's load is most of a pass on a stock RP2040).
Which modules those are is read here from the firmware itself, never kept
by hand: for every line of ``REGISTRY`` (firmware/nimatron/games/rules.py)
the modules of ``games/`` its module imports at module level (and the
module that holds its class, where the line's module hands the class out
from another: ``heaps.Moore``), each after what it imports, leaving out
what a playing machine holds always (what ``machine/controller.py``
imports at module level). The result is one line of ``games/rules.py``,
``LOADS``: "name:module,module ..." for each rule set that loads more than
its registry module. ``machine/unload.py`` drops every module named there
(or in the registry) that the rules in play are not built on.

usage: tools/memory_table.py [--check]
  rewrites the LOADS line of firmware/nimatron/games/rules.py; --check only
  says whether it is current (exit 1 and what differs if not).
"""

import ast
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMMAND = "tools/memory_table.py"


def module_imports(root, name):
    """The ``nimatron`` modules that module ``name`` ("games.graph") imports
    at module level (not inside a function), as dotted names."""
    package = name.rpartition(".")[0]
    path = os.path.join(root, "firmware", "nimatron", *name.split(".")) + ".py"
    if not os.path.isfile(path):
        path = os.path.join(root, "firmware", "nimatron", *name.split("."), "__init__.py")
        package = name
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    out = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package.split(".") if package else []
            if node.level > 1:
                base = base[: len(base) - (node.level - 1)]
            where = ".".join(base + ([node.module] if node.module else []))
            if node.module:
                out.append(where)
            for alias in node.names:  # from . import grid, from ..games import budget: a module, if one
                sub = (where + "." if where else "") + alias.name
                if _exists(root, sub):
                    out.append(sub)
    return [m for m in out if m and _exists(root, m)]


def _exists(root, name):
    base = os.path.join(root, "firmware", "nimatron", *name.split("."))
    return os.path.isfile(base + ".py") or os.path.isfile(os.path.join(base, "__init__.py"))


def closure(root, names):
    """Every module ``names`` import at module level, themselves included."""
    seen = []
    todo = list(names)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.append(name)
            todo.extend(module_imports(root, name))
    return seen


def in_order(root, name, resident, out):
    """``name`` and what it imports at module level, each after its own
    imports, appended to ``out`` (leaving out ``resident`` and what is there)."""
    if name in resident or name in out:
        return
    for dep in module_imports(root, name):
        in_order(root, dep, resident, out)
    out.append(name)


def class_modules(root):
    """{rule set name: the module that holds its class}, asked of CPython in
    a fresh interpreter (a line's module may hand the class out from another)."""
    script = (
        "import json\nfrom nimatron.games.registry import entries\nfrom nimatron.games.rules import REGISTRY, rules_class\n"
        "print(json.dumps([(e[0], e[1], rules_class(e[0]).__module__) for e in entries(REGISTRY)]))"
    )
    env = dict(os.environ, PYTHONPATH=os.path.join(root, "firmware"))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=root)
    if done.returncode:
        raise SystemExit("memory_table: the registry does not read: " + done.stderr.strip().splitlines()[-1])
    import json

    return json.loads(done.stdout)


def loads(root=ROOT):
    """The LOADS table: "name:module,module ..." for each rule set whose
    modules are more than its registry line's one, in registry order."""
    resident = closure(root, ["machine.controller"])
    items = []
    for name, module, own in class_modules(root):
        out = []
        in_order(root, "games." + module, resident, out)
        in_order(root, own[len("nimatron.") :], resident, out)
        mods = [m[len("games.") :] for m in out]
        if mods != [module]:
            items.append("%s:%s" % (name, ",".join(mods)))
    return " ".join(items)


def line(table):
    return 'LOADS = "%s"' % table


def rules_path(root):
    return os.path.join(root, "firmware", "nimatron", "games", "rules.py")


def current(root=ROOT):
    """The LOADS line as games/rules.py has it, or None."""
    with open(rules_path(root), encoding="utf-8") as f:
        for text in f:
            if text.startswith("LOADS = "):
                return text.rstrip("\n")
    return None


def main(argv):
    if argv not in ([], ["--check"]):
        print("usage: tools/memory_table.py [--check]", file=sys.stderr)
        return 2
    want = line(loads())
    have = current()
    if argv == ["--check"]:
        if have == want:
            print("LOADS is current")
            return 0
        print("games/rules.py's LOADS is stale: run %s\n have: %s\n want: %s" % (COMMAND, have, want))
        return 1
    path = rules_path(ROOT)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if have is None:
        print("memory_table: %s has no LOADS line" % path, file=sys.stderr)
        return 2
    if have != want:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text.replace(have + "\n", want + "\n", 1))
    print(want)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
