# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""code.py and safemode.py, imported with stand-ins for CircuitPython's
``microcontroller``, ``supervisor`` and ``watchdog``: never dark, never a
reload loop, the watchdog armed in RESET mode and fed, nvm kept."""

import json
import os
import runpy
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
FIRMWARE = os.path.join(os.path.dirname(HERE), "firmware")
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "simulator", "nimatron_sim"))

from controller_scenarios import FakeIO  # noqa: E402
from flash import FlashNvm  # noqa: E402
from kit_board import HostChannel, fake_board  # noqa: E402 - the board's stand-ins
from nimatron.machine import app, power_on  # noqa: E402
from nimatron.machine.audits import Audits  # noqa: E402
from nimatron.machine.store import Store  # noqa: E402


class _Stop(BaseException):
    """Ends code.py's endless loop (BaseException: its `except Exception` must not catch it)."""


def load(name, **kw):
    return runpy.run_path(os.path.join(FIRMWARE, name), run_name=name[:-3], **kw)


def make(board, overrides, listener, now_ms, audits):
    return app.make_controller(board, overrides, io=FakeIO(), listener=listener, now_ms=now_ms, audits=audits)


@pytest.fixture(autouse=True)
def no_real_pins(request, monkeypatch):
    """code.py lights its first lamp through ``board``: on a PC that is
    Blinka's real one, which the simulator's pins can never replace after
    (every later bench in the worker fails). Written nowhere here, except in
    the real driver's test, whose bench mocks the pins first."""
    if request.node.name != "test_code_py_runs_as_main_on_the_real_driver":
        from nimatron.drivers import first_lamp

        monkeypatch.setattr(first_lamp, "_write", lambda pin, data: None)


@pytest.fixture
def drive(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_code_py_arms_the_watchdog_feeds_it_and_keeps_time_across_the_wrap(monkeypatch, drive):
    mc, sup, resets = fake_board(monkeypatch, FlashNvm())
    code = load("code.py")
    assert sup.runtime.autoreload is False
    ticks, readings = sup.ticks_ms, []

    def counted():
        readings.append(1)
        return ticks()

    sup.ticks_ms = counted
    machine = code["main"](mc, sup, make=make, loops=2000)
    assert mc.watchdog.mode is sys.modules["watchdog"].WatchDogMode.RESET and mc.watchdog.timeout <= 8
    assert mc.watchdog.feeds == 2001  # armed, then once per pass of the loop
    # one steady millisecond count through the wrap: every 7 ms the clock moved after its first reading
    # (the link's start reads it twice a pass: was the pass quiet enough for a step?)
    assert machine.controller.now == (len(readings) - 1) * 7
    assert machine.boot["restored"] == "factory" and machine.audits["power_on_resets"] == 1


@pytest.mark.parametrize(
    "text",
    [
        '{"think_ms": 1e999, "operator_pin": "1234"}',
        '{"board": "pico-neopxl", "operator_pin": "1234"}',
        "[" * 3000 + "]" * 3000,
        '{"operator_pin": "1234", "preset": "grundy"}',
        "x" * 10000,
    ],
)
def test_code_py_falls_back_on_any_bad_settings_file_and_plays(monkeypatch, drive, text, capsys):
    mc, sup, resets = fake_board(monkeypatch, FlashNvm())
    (drive / "settings.json").write_text(text)
    machine = load("code.py")["main"](mc, sup, make=make, loops=50)
    assert machine.settings_from == "defaults" and machine.controller.alarm == "settings"
    if "1234" in text:
        assert machine.controller.settings["operator_pin"] == "1234"
    else:
        assert machine.sealed
    out = capsys.readouterr().out
    boot = json.loads([line for line in out.splitlines() if line.startswith("{")][0])
    assert boot["event"] == "boot" and boot["why"]
    assert not resets


def test_code_py_keeps_audits_in_nvm_across_power_cuts(monkeypatch, drive):
    nvm = FlashNvm()
    mc, sup, resets = fake_board(monkeypatch, nvm)
    (drive / "settings.json").write_text('{"preset": "21", "think_ms": 0, "show_ms": 0}')
    code = load("code.py")
    machine = code["main"](mc, sup, make=make, loops=1)
    c = machine.controller
    c.press("new", 10)
    while c.state != "over":
        if c.state == "visitor":
            c.press("row0", c.now)
            c.press("done", c.now)
        machine.tick(c.now + 10)
    mc, sup, resets = fake_board(monkeypatch, FlashNvm(nvm.data), reason="WATCHDOG")
    machine = load("code.py")["main"](mc, sup, make=make, loops=1)
    assert machine.restored == "stored" and machine.settings_from == "stored"
    assert machine.audits["finished"] == 1 and machine.audits["watchdog_resets"] == 1


def test_code_py_survives_a_fault_in_the_loop_without_reloading(monkeypatch, drive):
    mc, sup, resets = fake_board(monkeypatch, FlashNvm())
    code = load("code.py")
    machine = code["main"](mc, sup, make=make, loops=1)
    first = machine.controller
    first.update = lambda now: [][1]  # noqa: PLE0643 - the fault in the loop, on purpose
    for _ in range(10):
        machine.tick(first.now + 100)
    assert machine.controller is not first and machine.audits["faults"] == 1


def test_code_py_without_nvm_on_a_read_only_drive_still_plays(monkeypatch, drive):
    mc, sup, resets = fake_board(monkeypatch, None)
    code = load("code.py")

    refusing = str(drive / "no-such-folder" / "state.bin")  # as a drive the host PC owns refuses
    assert power_on.open_store(mc, refusing) is None
    machine = code["main"](mc, sup, make=make, loops=5, state=refusing)
    assert machine.store is None and machine.controller.state == "attract"


def test_code_py_runs_as_main_on_the_real_driver(monkeypatch, drive):
    """The board's own start: code.py run as __main__, the real Blinka driver."""
    from nimatron.config import boards
    from nimatron_sim.bench import BlinkaBench

    bench = BlinkaBench(boards.board("pico-neopixel"))  # Blinka's own microcontroller module, then ours on it
    import microcontroller as blinka_mc

    mc, sup, resets = fake_board(monkeypatch, FlashNvm())
    for name in ("nvm", "watchdog", "ResetReason", "cpu", "reset"):
        monkeypatch.setattr(blinka_mc, name, getattr(mc, name), raising=False)
    monkeypatch.setitem(sys.modules, "microcontroller", blinka_mc)
    ticks = sup.ticks_ms
    calls = {"n": 0}

    def counted():
        calls["n"] += 1
        if calls["n"] > 500:
            raise _Stop
        return ticks()

    sup.ticks_ms = counted
    (drive / "settings.json").write_text(json.dumps({"board": "pico-neopixel", "preset": "drnim"}))
    made = []
    real = app.make_controller

    before = []  # the pixels lit when the controller is first made: the first lamp, lit by code.py

    def make_controller(*args, **kw):
        if not before:
            data, bpp = bench._pixel_bytes()
            before.append([p for p in range(32) if any(bench._pixel(data, bpp, p))])
        made.append(bench.open(lambda: real(*args, **kw)))
        return made[-1]

    monkeypatch.setattr(app, "make_controller", make_controller)
    try:
        with pytest.raises(_Stop):
            runpy.run_path(os.path.join(FIRMWARE, "code.py"), run_name="__main__")
    finally:
        for controller in made:
            controller.io.close()
        bench.close()
    assert made[0].settings["preset"] == "drnim" and made[0].layout == [15]
    assert before == [[1]]  # MACHINE, before the start compiled anything of the controller
    assert blinka_mc.watchdog.feeds > 400 and made[0].audits["power_on_resets"] == 1


class FakeLink:
    def __init__(self, now_ms, pass_no=None):
        self.opened_at = now_ms
        self.opened_in_pass = pass_no
        self.polls = 0

    def poll(self, now):
        self.polls += 1


def test_code_py_loads_the_host_link_only_when_the_host_first_speaks(monkeypatch, drive):
    """The link's modules compiled before the first tick, host or none (0.5 s on an RP2040)."""
    mc, sup, resets = fake_board(monkeypatch, FlashNvm())
    for name in [m for m in sys.modules if m.startswith("nimatron.link")]:
        monkeypatch.delitem(sys.modules, name)
    code = load("code.py")
    channel = HostChannel()
    machine = code["main"](mc, sup, make=make, loops=50, data=channel)
    assert machine.link is None and "nimatron.link.transports" not in sys.modules

    from nimatron.link import transports

    monkeypatch.setattr(
        transports, "usb_link", lambda controller, board, now_ms: FakeLink(now_ms, mc.watchdog.feeds)
    )  # fed once a pass
    passes = {"n": 0}
    spoke = code["main"].__globals__["host_spoke"]

    def host_spoke(data):  # the host's HELLO arrives on the 30th pass of the loop
        passes["n"] += 1
        channel.in_waiting = 5 if passes["n"] >= 30 else 0
        return spoke(data)

    monkeypatch.setitem(code["main"].__globals__, "host_spoke", host_spoke)
    fed = mc.watchdog.feeds  # then armed (+1), and fed at the end of each pass: pass k opens it at fed + k
    machine = code["main"](mc, sup, make=make, loops=60, data=channel)
    # a collection, then a module, a pass each (every pass here is quiet), then the link: no pass compiles them all
    steps = 2 * len(code["LINK_MODULES"])
    assert machine.link.opened_in_pass - fed == 30 + steps and machine.link.polls == 60 - (30 + steps)
    assert passes["n"] == 30


def test_code_py_loads_the_host_link_only_in_quiet_passes(monkeypatch, drive):
    """A link step (a collection or a module: 18-41 ms on an RP2040) never shares a
    pass with a busy tick (a frame of attract's wave, a search): the two added
    went past 50 ms (issue 27)."""
    mc, sup, resets = fake_board(monkeypatch, FlashNvm())
    for name in [m for m in sys.modules if m.startswith("nimatron.link")]:
        monkeypatch.delitem(sys.modules, name)
    code = load("code.py")
    from nimatron.link import transports
    from nimatron.machine.startup import Machine

    monkeypatch.setattr(transports, "usb_link", lambda controller, board, now_ms: FakeLink(now_ms))
    busy, steps = [], []
    tick, clock = Machine.tick, sup.ticks_ms

    def slow_tick(self, now):  # every third pass the machine's own work takes 30 ms
        tick(self, now)
        busy.append(len(busy) % 3 == 0)
        if busy[-1]:
            for _ in range(4):
                clock()

    monkeypatch.setattr(Machine, "tick", slow_tick)
    load_link = code["main"].__globals__["load_link"]

    def recorded(machine, step, now):
        steps.append(busy[-1])
        return load_link(machine, step, now)

    monkeypatch.setitem(code["main"].__globals__, "load_link", recorded)
    machine = code["main"](mc, sup, make=make, loops=60, data=HostChannel())  # in_waiting 0: spoken to? no
    assert machine.link is None and not steps
    channel = HostChannel()
    channel.in_waiting = 5
    busy.clear()
    machine = code["main"](mc, sup, make=make, loops=60, data=channel)
    assert machine.link is not None and len(steps) == 2 * len(code["LINK_MODULES"]) + 1
    assert not any(steps) and any(busy)


def test_code_py_plays_on_when_the_host_link_cannot_load(monkeypatch, drive, capsys):
    """Compiling the link when the host first speaks can run out of heap: the game goes on."""
    mc, sup, resets = fake_board(monkeypatch, FlashNvm())
    code = load("code.py")
    channel = HostChannel()
    channel.in_waiting = 5
    from nimatron.link import transports

    def usb_link(controller, board, now_ms):
        raise MemoryError("memory allocation failed, allocating 1024 bytes")

    monkeypatch.setattr(transports, "usb_link", usb_link)
    machine = code["main"](mc, sup, make=make, loops=50, data=channel)
    assert machine.link is None and machine.controller.state == "attract" and mc.watchdog.feeds == 51
    assert "host link off: MemoryError(" in capsys.readouterr().out


@pytest.mark.parametrize(
    "reason, restarts", [("WATCHDOG", True), ("BROWNOUT", True), ("HARD_FAULT", False), ("USER", False)]
)
def test_safemode_py_records_why_and_restarts_after_brownout_or_watchdog(monkeypatch, reason, restarts):
    nvm = FlashNvm()
    mc, sup, resets = fake_board(monkeypatch, nvm, safe=reason)
    load("safemode.py")["main"](mc, sup)
    assert resets == ([1] if restarts else [])
    found = Store(nvm=FlashNvm(nvm.data)).load()
    if restarts:
        audits = Audits(found["audits"])
        assert audits["safe_mode_restarts"] == 1 and audits["watchdog_resets"] == (reason == "WATCHDOG")
    else:
        assert found["audits"] is None  # nothing written: a crash loop must not wear the flash


def test_the_watchdog_is_fed_while_the_machine_is_built(monkeypatch, drive):
    """A start compiles modules for seconds on a board (2.6 s of the 7 s on
    CircuitPython 9.2.8 in the emulator): code.py's own make_controller feeds
    the dog between its steps, before the main loop does."""
    mc, sup, resets = fake_board(monkeypatch, FlashNvm())
    code = load("code.py")
    fed_at_build = []
    real = app.make_controller

    def watched(*args, **kwargs):
        assert kwargs.get("feed") == mc.watchdog.feed
        before = mc.watchdog.feeds
        kwargs["io"] = FakeIO()
        controller = real(*args, **kwargs)
        fed_at_build.append(mc.watchdog.feeds - before)
        return controller

    monkeypatch.setattr(app, "make_controller", watched)
    code["main"](mc, sup, loops=3)
    assert fed_at_build and fed_at_build[0] >= 4


def test_code_py_plays_on_when_the_heap_cannot_be_held(monkeypatch, drive, capsys):
    """hold_heap runs first of all, on CircuitPython 9: whatever it raises, the
    board starts and plays (a MemoryError there once kept a MacroPad dark)."""
    mc, sup, _resets = fake_board(monkeypatch, FlashNvm())
    code = load("code.py")
    monkeypatch.setattr(power_on, "heap_grows", lambda: True)

    def full(gc):
        raise MemoryError("memory allocation failed, allocating 2048 bytes")

    monkeypatch.setattr(power_on, "hold_heap", full)
    machine = code["main"](mc, sup, make=make, loops=50)
    assert machine.controller is not None and mc.watchdog.feeds == 51
    assert "heap not held: MemoryError('memory allocation failed, allocating 2048 bytes')" in capsys.readouterr().out
