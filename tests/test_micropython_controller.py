"""The game flow under the MicroPython unix port, with a fake driver.

The scenarios module and the firmware are compiled from source on the
interpreter, and the test rig keeps every event of every game, so this
runs with a 256 KB heap; the firmware's own footprint is measured by
tests/bench_firmware.py.
"""

import mpy_runner


def test_controller_scenarios_under_micropython():
    out = mpy_runner.run("mpy/run_controller.py", heap="256K")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 failed" in out.stdout


def test_service_scenarios_under_micropython():
    out = mpy_runner.run("mpy/run_controller.py", heap="256K", args=("service_scenarios",))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 failed" in out.stdout
