# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""tools/count_names.py: the names a drive brings into CircuitPython's heap,
read from .mpy files as the board reads them."""

import os
import subprocess
import sys

import mpy_runner
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, "tools", "count_names.py")
sys.path.insert(0, os.path.join(ROOT, "tools"))

import count_names  # noqa: E402  (a tool, not a package)


def run(*args):
    return subprocess.run([sys.executable, TOOL] + list(args), capture_output=True, text=True, timeout=120)


def test_a_modules_names_are_its_globals_functions_arguments_and_short_strings(tmp_path):
    """What a real mpy-cross puts in the qstr table: a local variable's name
    is not there (bytecode numbers locals), an argument's is (keywords)."""
    cross = mpy_runner.find("mpy-cross") or pytest.skip("no mpy-cross")
    source = tmp_path / "lamps.py"
    source.write_text(
        "LAMP_ROWS = 4\n\ndef light_row(row_number):\n    lit_count_here = row_number + 1\n"
        "    return {'lit': lit_count_here, 'a sentence longer than ten': 1}\n"
    )
    out = tmp_path / "lamps.mpy"
    subprocess.run([cross, "-o", str(out), "-s", "/lib/lamps.mpy", str(source)], check=True)
    names = count_names.mpy_names(out.read_bytes())
    assert {"LAMP_ROWS", "light_row", "row_number", "/lib/lamps.mpy"} <= names
    assert "lit_count_here" not in names and "a sentence longer than ten" not in names


def test_the_firmwares_names_are_read_from_its_generated_header(tmp_path):
    header = tmp_path / "qstrdefs.generated.h"
    header.write_text(
        'QDEF0(MP_QSTR_NULL, 0, 0, "")\nQDEF1(MP_QSTR_keypad, 209, 6, "keypad")\nQDEF1(MP_QSTR__0x0a_, 175, 1, "\\n")\n'
    )
    assert count_names.firmware_names(str(header)) == {"", "keypad", "\n"}


@pytest.mark.parametrize(
    "args, message",
    [
        ((), "usage: tools/count_names.py"),
        (("/nonexistent", "mpy-cross", "h"), "has no lib/nimatron (deploy to it first)"),
    ],
)
def test_bad_input_is_a_message_and_exit_2(args, message):
    done = run(*args)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


def test_not_an_mpy_is_a_value_error():
    with pytest.raises(ValueError):
        count_names.mpy_names(b"#!/usr/bin/env python\n")


def test_a_missing_firmware_header_is_a_message_and_exit_2(tmp_path):
    (tmp_path / "lib" / "nimatron").mkdir(parents=True)
    done = run(str(tmp_path), "mpy-cross", str(tmp_path / "missing.h"))
    assert done.returncode == 2 and "cannot read" in done.stderr and "Traceback" not in done.stderr
