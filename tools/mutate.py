#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Break each fault handler in turn and run its tests: a handler whose
break no test notices is not tested, however many tests pass near it.

    .venv/bin/python tools/mutate.py               # every mutant in tools/mutants/*.toml
    .venv/bin/python tools/mutate.py store deploy  # the mutants of these areas (file names)
    .venv/bin/python tools/mutate.py lock-hardlink-check   # one mutant by name
    .venv/bin/python tools/mutate.py --list

A mutant is one exact text replaced in one file (``tools/mutants/*.toml``:
``name``, ``why``, ``file``, ``find``, ``replace``, ``tests``). Each runs in
a copy of this tree (the files git knows, committed or not), so the tree you
work in is never touched: the copy's packages come first on ``PYTHONPATH``,
ahead of the editable install.
Before its mutants, each set of tests must pass on the unbroken copy (a kill
by a test that fails anyway proves nothing). A mutant is *killed* when its
tests fail; one that survives, or whose ``find`` no longer occurs exactly
once (the code moved on: the mutant must follow), is a miss.

Prints one line per mutant and a summary; exit status 0 when every mutant
was killed, 1 if any was missed, 2 for a usage error.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MUTANTS = os.path.join(ROOT, "tools", "mutants")
FIELDS = ("name", "why", "file", "find", "replace", "tests")


class Usage(Exception):
    """A person's mistake: one line, exit status 2."""


def load(folder=MUTANTS):
    """Every mutant of every area, in file then entry order, each with its
    ``area`` (the file's name); a malformed file is a usage error naming it."""
    mutants = []
    names = set()
    for entry in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        if not entry.endswith(".toml"):
            continue
        path = os.path.join(folder, entry)
        try:
            with open(path, "rb") as file:
                table = tomllib.load(file)
        except (OSError, tomllib.TOMLDecodeError) as error:
            raise Usage("%s: %s" % (os.path.relpath(path, ROOT), error)) from None
        for index, mutant in enumerate(table.get("mutant", [])):
            where = "%s, mutant %d" % (os.path.relpath(path, ROOT), index + 1)
            missing = [field for field in FIELDS if field not in mutant]
            if missing:
                raise Usage("%s: no %s" % (where, ", ".join(missing)))
            if (
                not all(isinstance(mutant[field], str) for field in FIELDS[:5])
                or not isinstance(mutant["tests"], list)
                or not mutant["tests"]
                or not all(isinstance(test, str) for test in mutant["tests"])
            ):
                raise Usage("%s: name, why, file, find, replace are text; tests a list of pytest arguments" % where)
            if mutant["find"] == mutant["replace"]:
                raise Usage("%s (%s): replace is the same text as find" % (where, mutant["name"]))
            if mutant["name"] in names:
                raise Usage("%s: a second mutant named %s" % (where, mutant["name"]))
            names.add(mutant["name"])
            mutants.append(dict(mutant, area=entry[: -len(".toml")]))
    return mutants


def stale(mutant, root=ROOT):
    """Why the mutant cannot be applied to the tree at ``root``, or None."""
    path = os.path.join(root, mutant["file"])
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read()
    except OSError:
        return "no file %s" % mutant["file"]
    count = text.count(mutant["find"])
    if count != 1:
        return "its text occurs %d times in %s (once expected)" % (count, mutant["file"])
    return None


def choose(mutants, wanted):
    """The mutants named by area or by name (all when none is named)."""
    if not wanted:
        return mutants
    known = {m["area"] for m in mutants} | {m["name"] for m in mutants}
    unknown = [word for word in wanted if word not in known]
    if unknown:
        raise Usage("no area or mutant named %s (--list shows them)" % ", ".join(unknown))
    return [m for m in mutants if m["area"] in wanted or m["name"] in wanted]


def copy_tree(root, into):
    """The files git knows in ``root`` (tracked and untracked, not ignored), as they are now."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=root,
        capture_output=True,
        check=True,
    ).stdout
    for name in listed.decode("utf-8", "surrogateescape").split("\0"):
        source = os.path.join(root, name)
        if not name or not os.path.isfile(source):
            continue  # a file deleted but not yet committed
        target = os.path.join(into, name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(source, target, follow_symlinks=False)


def packages_path(copy):
    """A folder for ``PYTHONPATH`` whose ``sitecustomize`` puts the copy's
    ``firmware``, ``host`` and ``simulator`` at the END of ``sys.path``: found
    there before the editable install's finder (which comes after every path
    entry), so the copy's packages are the ones tested, with their real
    ``__file__`` (deploy finds ``code.py`` beside them); yet after the
    standard library, so ``firmware/code.py`` never hides its ``code``,
    which pytest imports."""
    path = os.path.join(copy, ".mutate-path")
    if not os.path.isdir(path):
        os.makedirs(path)
        with open(os.path.join(path, "sitecustomize.py"), "w", encoding="utf-8") as file:
            file.write(
                "import sys\nsys.path.extend(%r)\n"
                % [os.path.join(copy, part) for part in ("firmware", "host", "simulator")]
            )
    return path


def pytest(copy, tests, python=sys.executable):
    """(pytest's exit status, its last lines) for ``tests`` run in the copy."""
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(
            [packages_path(copy)] + ([os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else [])
        ),
        PYTHONDONTWRITEBYTECODE="1",
    )
    done = subprocess.run(
        [python, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
    )
    tail = (done.stdout + done.stderr).strip().splitlines()[-3:]
    return done.returncode, tail


def run(mutants, root=ROOT, out=sys.stdout, python=sys.executable):
    """Apply each mutant in a copy of ``root`` and run its tests; the misses, as lines."""
    misses = []
    with tempfile.TemporaryDirectory(prefix="nimatron-mutants-") as copy:
        copy_tree(root, copy)
        clean = {}
        for mutant in mutants:
            began = time.monotonic()
            problem = stale(mutant, copy)
            if problem is None:
                tests = tuple(mutant["tests"])
                if tests not in clean:
                    clean[tests] = pytest(copy, tests, python)
                status, tail = clean[tests]
                if status != 0:
                    problem = "its tests fail without it: %s" % (tail[-1] if tail else "exit %d" % status)
            if problem is None:
                path = os.path.join(copy, mutant["file"])
                with open(path, encoding="utf-8") as file:
                    original = file.read()
                try:
                    with open(path, "w", encoding="utf-8") as file:
                        file.write(original.replace(mutant["find"], mutant["replace"]))
                    status, tail = pytest(copy, mutant["tests"], python)
                finally:
                    with open(path, "w", encoding="utf-8") as file:
                        file.write(original)
                if status == 0:
                    problem = "SURVIVED: its tests pass with it (%s)" % mutant["why"]
                elif status != 1:  # 1: a test failed, the mutant is killed
                    problem = "its tests could not run (pytest exit %d: %s)" % (status, tail[-1] if tail else "")
            line = "%-8s %-12s %-40s %5.1f s" % (
                "killed" if problem is None else "MISSED",
                mutant["area"],
                mutant["name"],
                time.monotonic() - began,
            )
            print(line if problem is None else "%s  %s" % (line, problem), file=out, flush=True)
            if problem is not None:
                misses.append("%s: %s" % (mutant["name"], problem))
    return misses


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    try:
        if any(arg.startswith("-") and arg != "--list" for arg in args):
            raise Usage("usage: tools/mutate.py [--list] [AREA|NAME ...]")
        chosen = choose(load(), [arg for arg in args if arg != "--list"])
        if "--list" in args:
            for mutant in chosen:
                print("%-12s %-40s %s: %s" % (mutant["area"], mutant["name"], mutant["file"], mutant["why"]))
            return 0
        if not chosen:
            raise Usage("no mutants in %s" % os.path.relpath(MUTANTS, ROOT))
    except Usage as error:
        print("mutate: %s" % error, file=sys.stderr)
        return 2
    misses = run(chosen)
    print("%d mutants, %d killed, %d missed" % (len(chosen), len(chosen) - len(misses), len(misses)))
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
