# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Stand-ins for CircuitPython's ``microcontroller``, ``supervisor`` and
``watchdog`` modules and ``usb_cdc.data``, for running ``code.py`` on a PC
(tests/test_code_py.py, tests/names_day.py)."""

import sys
import types

import pytest


class Names:
    """An enum-like namespace: each name is a distinct object."""

    def __init__(self, *names):
        for name in names:
            setattr(self, name, object())


class Dog:
    def __init__(self):
        self.timeout = None
        self.mode = None
        self.feeds = 0

    def feed(self):
        self.feeds += 1


def fake_board(monkeypatch, nvm=None, reason="POWER_ON", safe="WATCHDOG"):
    reasons = Names("POWER_ON", "BROWNOUT", "SOFTWARE", "WATCHDOG", "RESET_PIN", "DEEP_SLEEP_ALARM", "UNKNOWN")
    safe_reasons = Names("BROWNOUT", "WATCHDOG", "HARD_FAULT", "USER", "PROGRAMMATIC")
    resets = []
    mc = types.SimpleNamespace(
        nvm=nvm,
        watchdog=Dog(),
        ResetReason=reasons,
        cpu=types.SimpleNamespace(reset_reason=getattr(reasons, reason)),
        reset=lambda: resets.append(1),
    )
    clock = {"ticks": (1 << 29) - 3000}

    def ticks_ms():
        clock["ticks"] = (clock["ticks"] + 7) % (1 << 29)  # wraps after ~430 calls
        return clock["ticks"]

    sup = types.SimpleNamespace(
        ticks_ms=ticks_ms,
        SafeModeReason=safe_reasons,
        runtime=types.SimpleNamespace(autoreload=True, safe_mode_reason=getattr(safe_reasons, safe)),
        reload=lambda: pytest.fail("reloaded"),
    )
    monkeypatch.setitem(sys.modules, "microcontroller", mc)
    monkeypatch.setitem(sys.modules, "supervisor", sup)
    monkeypatch.setitem(sys.modules, "watchdog", types.SimpleNamespace(WatchDogMode=Names("RAISE", "RESET")))
    return mc, sup, resets


class HostChannel:
    """A stand-in for ``usb_cdc.data``: how many bytes the host has sent."""

    in_waiting = 0
