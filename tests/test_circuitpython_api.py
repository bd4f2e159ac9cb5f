# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The firmware against CircuitPython's own API, not Blinka's stand-in.

Blinka (which the simulator runs the drivers on) has attributes a board
lacks, so an attribute only a PC has would pass every other test and stop a
museum's board. mypy reads the files that import CircuitPython's modules
with ``circuitpython-stubs`` (9.2.8, the version the emulator proves) and
fails on any name or attribute the board does not have. Only those error
codes count: the firmware is not annotated, and typing strictness is not
what this checks.
"""

import pathlib
import re

import pytest

api = pytest.importorskip("mypy.api")

FIRMWARE = pathlib.Path(__file__).resolve().parent.parent / "firmware"
BOARD_MODULES = (
    "board",
    "digitalio",
    "keypad",
    "microcontroller",
    "supervisor",
    "usb_cdc",
    "watchdog",
    "displayio",
    "pwmio",
    "audiocore",
    "audiopwmio",
    "rotaryio",
    "busio",
    "neopixel",
    "storage",
    "analogio",
    "touchio",
    "simpleio",
    "neopixel_write",
)
# Codes that mean "the board has no such thing"; the rest is typing strictness.
COUNTED = ("attr-defined", "name-defined", "call-arg", "import-not-found", "call-overload", "operator")


def board_files():
    """Every firmware file that imports one of CircuitPython's modules (the
    Raspberry Pi's gpiozero driver runs on CPython, not on a board)."""
    pattern = re.compile(r"^\s*(?:import|from)\s+(%s)\b" % "|".join(BOARD_MODULES), re.M)
    out = []
    for path in sorted(FIRMWARE.rglob("*.py")):
        if path.name != "gpiozero_io.py" and pattern.search(path.read_text()):
            out.append(str(path.relative_to(FIRMWARE)))
    return out


def stubs(version):
    """A folder for MYPYPATH holding ``circuitpython-stubs==version`` as plain
    modules (its ``board-stubs`` folders renamed ``board``, which MYPYPATH
    reads before the venv's own 9.2.8 stubs and Blinka); kept in the venv."""
    import os
    import subprocess
    import sys

    home = pathlib.Path(sys.prefix) / "circuitpython-stubs" / version
    plain = home / "plain"
    if not plain.is_dir():  # made aside, then renamed into place: test workers may race here
        work = home.parent / ("%s.%d" % (version, os.getpid()))
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "install",
                "-q",
                "--no-deps",
                "--target",
                str(work / "raw"),
                "circuitpython-stubs==" + version,
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
        if run.returncode:
            pytest.skip("cannot install circuitpython-stubs %s here: %s" % (version, run.stderr.strip()[-200:]))
        (work / "plain").mkdir()
        for folder in (work / "raw").glob("*-stubs"):
            (work / "plain" / folder.name[: -len("-stubs")]).symlink_to(home / "raw" / folder.name)
        try:
            os.rename(work, home)
        except OSError:
            import shutil

            shutil.rmtree(work, ignore_errors=True)  # another worker got there first
    return str(plain)


def check(files, cwd, path=None):
    import os
    import sys

    here = os.getcwd()
    limit = sys.getrecursionlimit()  # mypy raises it to 16384 and leaves it: the tests after it would inherit that
    os.chdir(cwd)
    if path:
        os.environ["MYPYPATH"] = path
    try:
        out, err, _ = api.run(
            [
                "--python-version",
                "3.11",
                "--no-incremental",
                "--check-untyped-defs",
                "--follow-imports=silent",
                "--no-error-summary",
                "--show-error-codes",
                "--cache-dir",
                os.devnull,
            ]
            + files
        )
    finally:
        os.chdir(here)
        os.environ.pop("MYPYPATH", None)
        sys.setrecursionlimit(limit)
    return [
        line
        for line in (out + err).splitlines()
        if "error:" in line
        and line.rstrip().endswith(tuple("[%s]" % c for c in COUNTED))
        and not line.startswith(path or "\0")
    ]


def test_the_stubs_are_circuitpythons():
    from importlib import metadata

    assert metadata.version("circuitpython-stubs") == "9.2.8"


def test_the_board_files_use_only_what_circuitpython_has():
    files = board_files()
    assert {"code.py", "boot.py", "safemode.py", "nimatron/drivers/tone.py"} <= set(files)
    assert check(files, FIRMWARE) == []


def test_the_board_files_use_only_what_circuitpython_8_has():
    """8.2 is the oldest CircuitPython deploy accepts (its stubs come from PyPI on first use)."""
    assert check(board_files(), FIRMWARE, stubs("8.2.9")) == []


def test_an_attribute_only_blinka_has_fails_on_8_too(tmp_path):
    (tmp_path / "probe.py").write_text(
        "import microcontroller\n\ndef f():\n    return microcontroller.cpu.no_such_thing\n"
    )
    errors = check(["probe.py"], tmp_path, stubs("8.2.9"))
    assert len(errors) == 1 and "no_such_thing" in errors[0], errors


def test_an_attribute_only_blinka_has_fails(tmp_path):
    """The check is alive: a name CircuitPython lacks is reported."""
    (tmp_path / "probe.py").write_text(
        "import microcontroller\nimport usb_cdc\n\n"
        "def f():\n    usb_cdc.data.write(b'x')\n    return microcontroller.cpu.no_such_thing\n"
    )
    errors = check(["probe.py"], tmp_path)
    assert len(errors) == 1 and '"Processor" has no attribute "no_such_thing"' in errors[0], errors
