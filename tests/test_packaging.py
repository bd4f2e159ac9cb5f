# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Packaging: one version, the extras, and upper bounds where we lean on internals.

The simulator reaches into private parts of three libraries (named below,
each with the place that does it). A new major release of any of them may
move those parts, so pyproject.toml caps each below its next major version,
and this test fails if a cap goes missing or a place stops using them
(then the cap can go too).
"""
import pathlib
import re
import tomllib
from importlib import metadata

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]

# distribution -> (file, private name used there)
INTERNALS = {
    "adafruit-blinka": ("simulator/nimatron_sim/blinka_mock.py", "adafruit_blinka.microcontroller.generic_agnostic_board"),
    "gpiozero": ("simulator/nimatron_sim/bench.py", "MockPin._change_state"),
    "textual": ("simulator/nimatron_sim/tui.py", "self._bindings"),
    "adafruit-blinka-displayio": ("simulator/nimatron_sim/oled_mock.py", "displayio._constants"),
}


def requirements():
    reqs = list(PROJECT["dependencies"])
    for extra in PROJECT["optional-dependencies"].values():
        reqs += extra
    return {re.split(r"[<>=!;\[ ]", r, maxsplit=1)[0].lower(): r for r in reqs}


@pytest.mark.parametrize("dist", sorted(INTERNALS))
def test_private_internals_are_capped(dist):
    path, name = INTERNALS[dist]
    assert name in (ROOT / path).read_text(), "%s no longer uses %s: drop its cap" % (path, name)
    req = requirements()[dist]
    assert re.search(r"<\s*\d", req), "%s uses %s's internals (%s) but %r has no upper bound" % (path, dist, name, req)


def test_one_version_source():
    assert "version" in PROJECT.get("dynamic", []) and "version" not in PROJECT
    init = (ROOT / "firmware/nimatron/__init__.py").read_text()
    declared = re.search(r'__version__ = "([^"]+)"', init).group(1)
    assert metadata.version("nimatron") == declared


def test_extras():
    extras = PROJECT["optional-dependencies"]
    assert {"sim", "pi", "test"} <= set(extras)
    base = " ".join(PROJECT["dependencies"])
    assert "textual" not in base, "a Pi install must not pull in the terminal app's Textual"
    assert "textual" in " ".join(extras["sim"])


def test_the_wheel_ships_every_package_and_its_data(tmp_path):
    """Packages are found automatically: a wheel (what a Pi installs) holds every
    folder with an __init__.py and the data files the firmware reads."""
    import subprocess
    import sys
    import zipfile

    run = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                          "-q", "-w", str(tmp_path), str(ROOT)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    names = set(zipfile.ZipFile(next(tmp_path.glob("nimatron-*.whl"))).namelist())
    for where in ("firmware", "host", "simulator"):
        for path in (ROOT / where).rglob("*"):
            rel = path.relative_to(ROOT / where).as_posix()
            if not rel.startswith("nimatron") or "__pycache__" in rel or path.is_dir():
                continue
            if path.suffix in (".py", ".bin", ".json", ".js", ".css", ".html", ".svg"):
                assert rel in names, "the wheel lacks %s" % rel
