# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The game flow under CPython: every scenario of controller_scenarios.py.

The same scenarios run under MicroPython in test_micropython_controller.
"""

import controller_scenarios
import pytest

SCENARIOS = sorted(name for name in dir(controller_scenarios) if name.startswith("scenario_"))


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario(name):
    getattr(controller_scenarios, name)()
