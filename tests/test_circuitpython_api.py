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
BOARD_MODULES = ("board", "digitalio", "keypad", "microcontroller", "supervisor", "usb_cdc", "watchdog",
                 "displayio", "pwmio", "audiocore", "audiopwmio", "rotaryio", "busio", "neopixel", "storage",
                 "analogio", "touchio", "simpleio")
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


def check(files, cwd):
    import os

    here = os.getcwd()
    os.chdir(cwd)
    try:
        out, err, _ = api.run(["--python-version", "3.11", "--no-incremental", "--check-untyped-defs",
                               "--follow-imports=silent", "--no-error-summary", "--show-error-codes",
                               "--cache-dir", os.devnull] + files)
    finally:
        os.chdir(here)
    return [line for line in (out + err).splitlines()
            if "error:" in line and line.rstrip().endswith(tuple("[%s]" % c for c in COUNTED))]


def test_the_stubs_are_circuitpythons():
    from importlib import metadata

    assert metadata.version("circuitpython-stubs") == "9.2.8"


def test_the_board_files_use_only_what_circuitpython_has():
    files = board_files()
    assert {"code.py", "boot.py", "safemode.py", "nimatron/drivers/tone.py"} <= set(files)
    assert check(files, FIRMWARE) == []


def test_an_attribute_only_blinka_has_fails(tmp_path):
    """The check is alive: a name CircuitPython lacks is reported."""
    (tmp_path / "probe.py").write_text(
        "import microcontroller\nimport usb_cdc\n\n"
        "def f():\n    usb_cdc.data.write(b'x')\n    return microcontroller.cpu.no_such_thing\n")
    errors = check(["probe.py"], tmp_path)
    assert len(errors) == 1 and '"Processor" has no attribute "no_such_thing"' in errors[0], errors
