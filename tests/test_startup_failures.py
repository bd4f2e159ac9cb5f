# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A start that fails gives back every pin it claimed and says why, first cause first.

On a real board a start-up that raised after the driver claimed its pins left
them claimed: every fallback and every 60 s retry then failed with "GP0 in
use", and the first error was never printed (found on CircuitPython 9.2.8 in
the emulator). Here a failure is injected at each step after the claim; the
next start must work, and the first error must be in the log and the audits.
"""

import sys

import nimatron.drivers as drivers
import pytest
from controller_scenarios import FakeIO
from nimatron.machine import app
from nimatron.machine.startup import Machine, read_source
from nimatron.machine.store import Store
from nimatron_sim.flash import FlashNvm

BOARD = "pico-neopixel"


class ClaimingIO(FakeIO):
    """A driver that claims GP0 as a board's does, and refuses a second claim."""

    claimed = set()

    def __init__(self, *args, **kwargs):
        if "GP0" in ClaimingIO.claimed:
            raise ValueError("GP0 in use")
        ClaimingIO.claimed.add("GP0")
        FakeIO.__init__(self)

    def close(self):
        ClaimingIO.claimed.discard("GP0")


@pytest.fixture
def board(monkeypatch):
    ClaimingIO.claimed = set()
    monkeypatch.setattr(drivers, "open_io", lambda spec, layout, **options: ClaimingIO())
    yield
    ClaimingIO.claimed = set()


def start(store, text=b'{"preset": "marienbad"}', log=None):
    lines = log if log is not None else []

    def make(board, overrides, listener, now_ms, audits):
        return app.make_controller(board, overrides, listener=listener, now_ms=now_ms, audits=audits)

    return Machine(BOARD, read_source(text), store, now_ms=0, reset_reason="power_on", make=make, log=lines.append)


class Once:
    """Raise ``error`` the first ``TIMES`` times, then behave as ``real``."""

    TIMES = 1

    def __init__(self, real, error):
        self.real, self.error, self.left = real, error, Once.TIMES

    def __call__(self, *args, **kwargs):
        if self.left:
            self.left -= 1
            raise self.error
        return self.real(*args, **kwargs)


def fail_forget(monkeypatch, error):
    monkeypatch.setattr(app, "forget", Once(app.forget, error))


def fail_import(monkeypatch, error):
    """The controller's modules fail to load (a MemoryError while compiling, on a board)."""
    import builtins

    real = builtins.__import__
    state = {"left": Once.TIMES}

    def importer(name, globals=None, locals=None, fromlist=(), level=0):
        if name == "controller" and level == 1 and state["left"]:
            state["left"] -= 1
            raise error
        return real(name, globals, locals, fromlist, level)

    monkeypatch.setattr(builtins, "__import__", importer)


def fail_controller(monkeypatch, error):
    from nimatron.machine import controller

    once = Once(controller.Controller.__init__, error)
    # a function, which binds self as a method (Once does not)
    monkeypatch.setattr(controller.Controller, "__init__", lambda self, *args, **kwargs: once(self, *args, **kwargs))  # noqa: PLW0108 - binds self


STEPS = {"forget": fail_forget, "import": fail_import, "controller": fail_controller}


@pytest.mark.parametrize("step", sorted(STEPS))
@pytest.mark.parametrize(
    "error", [MemoryError("memory allocation failed, allocating 2048 bytes"), ValueError("injected")]
)
def test_a_failure_after_the_pins_are_claimed_falls_back_and_says_why(board, monkeypatch, step, error):
    STEPS[step](monkeypatch, error)
    log = []
    m = start(Store(nvm=FlashNvm()), log=log)
    assert m.settings_from == "defaults", m.why  # the fallback really started...
    assert "GP0" in ClaimingIO.claimed  # ...on the pins the failed start gave back
    assert "settings file rejected: %s" % type(error).__name__ in m.why
    assert str(error) in m.why and "in use" not in m.why
    assert any(str(error) in line for line in log)


@pytest.mark.parametrize("step", sorted(STEPS))
def test_when_even_the_defaults_fail_the_first_error_is_printed_and_counted(board, monkeypatch, step):
    error = MemoryError("memory allocation failed, allocating 4096 bytes")
    monkeypatch.setattr(Once, "TIMES", 2)  # the settings file's try, then the defaults'
    STEPS[step](monkeypatch, error)
    nvm = FlashNvm()
    log = []
    with pytest.raises(MemoryError):
        start(Store(nvm=nvm), text=None, log=log)  # no settings file: the defaults are the only try
    assert ClaimingIO.claimed == set(), "a failed start kept the pins"
    rejected = [line for line in log if "rejected" in line]
    assert (
        rejected[0] == "nimatron: settings file rejected: MemoryError: memory allocation failed, allocating 4096 bytes"
    )
    assert rejected[1].startswith("nimatron: defaults settings rejected: MemoryError")
    again = start(Store(nvm=FlashNvm(nvm.data)), text=None)  # code.py's retry, or the next power-up
    assert again.controller is not None and "GP0" in ClaimingIO.claimed
    assert again.audits.lifetime["start_failures"] == 1  # the failure outlived the power cut


def test_forget_works_without_module_dict(monkeypatch):
    """CircuitPython 8 modules have no __dict__: forgetting uses delattr."""
    import nimatron.config as config
    import nimatron.config.power  # noqa: F401

    class Module:
        power = "loaded"

    monkeypatch.setattr(sys.implementation, "name", "circuitpython")
    monkeypatch.setitem(sys.modules, "nimatron.config", Module)
    app.forget(("config.power",))
    assert not hasattr(Module, "power") and "nimatron.config.power" not in sys.modules
    sys.modules["nimatron.config.power"] = config.power
