# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The operator's side under CPython: every scenario of service_scenarios.py.

The same scenarios run under MicroPython in test_micropython_controller.
"""

import pytest
import service_scenarios

SCENARIOS = sorted(name for name in dir(service_scenarios) if name.startswith("scenario_"))


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario(name):
    getattr(service_scenarios, name)()
