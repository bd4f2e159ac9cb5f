# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The drivers on mocked pins: gpiozero's MockFactory and Blinka's agnostic board.

Each test reads like the hardware: drive a pin low, a lamp's pin goes high,
a NeoPixel frame carries these bytes. The Blinka pins come from the
simulator's bench (``nimatron_sim.bench``), whose keypad scanners run when
the test calls ``bench.scan(t)``.
"""

import copy
import os
import subprocess
import sys
import threading

import pytest
from nimatron.config import boards
from nimatron.config.boards import DriverError
from nimatron.drivers import key_lamps, lamp_pixels, open_io
from nimatron.machine.ports import COLOURS, LIT, OFF, REFUSED, SELECTED, TAKING
from nimatron_sim.bench import BlinkaBench

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DARK = {"visitor": 0, "machine": 0, "champ": 0, "machine_wins": 0}


def rows(layout, lit=()):
    """Lamp states for ``layout`` with the (r, i) in ``lit`` LIT."""
    return [[LIT if (r, i) in lit else OFF for i in range(n)] for r, n in enumerate(layout)]


# -- the package ----------------------------------------------------------------


def test_importing_the_drivers_package_loads_no_hardware_library():
    code = (
        "import sys, nimatron.drivers, nimatron.drivers.gpiozero_io, nimatron.drivers.circuitpython_io\n"
        "bad = [m for m in ('gpiozero', 'board', 'digitalio', 'keypad', 'neopixel') if m in sys.modules]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_the_circuitpython_driver_imports_under_micropython():
    from mpy_runner import micropython

    env = dict(os.environ, MICROPYPATH=os.path.join(ROOT, "firmware"))
    done = subprocess.run(
        [micropython(), "-c", "import nimatron.drivers.circuitpython_io; print('ok')"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.stdout.strip() == "ok", done.stderr


def test_an_unknown_driver_is_a_driver_error():
    spec = dict(boards.board("pi-leds"), driver="smoke-signals")
    with pytest.raises(DriverError, match="unknown driver 'smoke-signals'"):
        open_io(spec, [1, 3, 5, 7])


def test_rows_follow_one_another_along_a_strip_after_the_status_pixels():
    lamps = boards.board("pico-neopixel")["lamps"]
    assert lamp_pixels(lamps, [7, 7, 7, 7])[1] == [11, 12, 13, 14, 15, 16, 17]
    assert lamp_pixels(lamps, [21]) == [list(range(4, 25))]  # one long row runs on through the holes
    with pytest.raises(DriverError, match="needs 29 pixels.*28 lamp holes"):
        lamp_pixels(lamps, [29])


def test_a_shorter_row_lights_its_own_panel_row_next_to_its_button():
    # marienbad 1-3-5-7 once lit row B's lamps in column A's holes (pixels 5-7)
    lamps = boards.board("pico-neopixel")["lamps"]
    assert lamp_pixels(lamps, [1, 3, 5, 7]) == [[10], [15, 16, 17], [20, 21, 22, 23, 24], list(range(25, 32))]
    with pytest.raises(DriverError, match="row 1 has 7 holes"):
        lamp_pixels(lamps, [8, 8])
    with pytest.raises(DriverError, match="more rows than the panel"):
        lamp_pixels(lamps, [2, 2, 2, 2, 2])


def test_a_fixed_matrix_keeps_each_row_in_its_place():
    lamps = boards.board("pico-grid")["lamps"]
    assert lamp_pixels(lamps, [3, 5])[1] == [8, 9, 10, 11, 12]
    with pytest.raises(DriverError, match="does not fit"):
        lamp_pixels(lamps, [9])
    # key n sits under the n-th lamp of the matrix; keys outside the game's layout are dead
    places = key_lamps(lamps, [3, 5], 64)
    assert places[:4] == [(0, 0), (0, 1), (0, 2), None]
    assert places[8 + 4] == (1, 4) and places[16] is None


# -- gpiozero -------------------------------------------------------------------


@pytest.fixture
def factory():
    from gpiozero.pins.mock import MockFactory

    f = MockFactory()
    yield f
    f.reset()


@pytest.fixture
def leds(factory):
    spec = boards.board("pi-leds")
    io = open_io(spec, boards.layout(spec), pin_factory=factory)
    yield spec, io
    io.close()


def test_gpiozero_lights_exactly_the_lamps_in_play(leds, factory):
    spec, io = leds
    io.show(rows([1, 3, 5, 7], {(0, 0), (3, 6)}), dict(DARK, visitor=1))
    assert factory.pin("GPIO9").state == 1  # row 0, lamp 0
    assert factory.pin("GPIO20").state == 1  # row 3, lamp 6
    assert factory.pin("GPIO18").state == 0  # row 3, lamp 0
    assert factory.pin("GPIO21").state == 1  # status: visitor
    assert factory.pin("GPIO14").state == 0  # status: machine


def test_gpiozero_shows_every_lamp_state_but_off_as_lit(leds, factory):
    spec, io = leds
    io.show([[SELECTED], [TAKING, REFUSED, OFF], [OFF] * 5, [OFF] * 7], DARK)
    assert [factory.pin(p).state for p in ("GPIO9", "GPIO17", "GPIO27", "GPIO22")] == [1, 1, 1, 0]


def test_gpiozero_buttons_are_active_low_and_queue_raw_edges(leds, factory):
    spec, io = leds
    assert not io.events()  # () on a quiet pass: no garbage
    factory.pin("GPIO6").drive_low()  # row3 pressed: shorted to ground
    factory.pin("GPIO6").drive_high()
    factory.pin("GPIO7").drive_low()  # done
    assert io.events() == [("row3", True), ("row3", False), ("done", True)]
    assert not io.events()  # () on a quiet pass: no garbage


def test_gpiozero_close_is_safe_twice_and_frees_the_pins(leds, factory):
    spec, io = leds
    io.close()
    io.close()
    again = open_io(spec, boards.layout(spec), pin_factory=factory)  # no GPIOPinInUse
    again.close()


def test_gpiozero_refuses_what_discrete_leds_cannot_show(factory):
    spec = boards.board("pi-leds")
    with pytest.raises(DriverError, match="wired as"):
        open_io(spec, [7, 7, 7, 7], pin_factory=factory)
    with pytest.raises(DriverError, match="not neopixel"):
        open_io(dict(boards.board("pi-neopixel"), driver="gpiozero"), [7, 7, 7, 7], pin_factory=factory)


# -- CircuitPython on Blinka --------------------------------------------------------


@pytest.fixture
def blinka():
    """open(board_name or spec, layout) -> (bench, io), all closed afterwards."""
    opened = []

    def open_(spec, layout=None):
        spec = boards.board(spec) if isinstance(spec, str) else spec
        bench = BlinkaBench(spec)
        io = bench.open(lambda: open_io(spec, layout or boards.layout(spec)))
        bench.layout = layout or boards.layout(spec)
        opened.append((bench, io))
        return bench, io

    yield open_
    for bench, io in opened:
        io.close()
        bench.close()


def pixel(bench, p):
    data = bench._frames[bench._id[bench.spec["lamps"]["pin"]]]
    return tuple(data[3 * p : 3 * p + 3])


def test_neopixel_frames_carry_the_state_colours_in_grb_capped_by_brightness(blinka):
    bench, io = blinka("pico-neopixel")  # brightness cap 0.2, status on pixels 0-3, rows from 4
    io.show([[LIT, SELECTED] + [OFF] * 5, [OFF] * 7, [OFF] * 7, [OFF] * 7], dict(DARK, machine=1))
    r, g, b = COLOURS[LIT]
    assert pixel(bench, 4) == (int(g * 0.2), int(r * 0.2), int(b * 0.2))  # GRB order on the wire
    r, g, b = COLOURS[SELECTED]
    assert pixel(bench, 5) == (int(g * 0.2), int(r * 0.2), int(b * 0.2))
    assert pixel(bench, 6) == (0, 0, 0)
    assert pixel(bench, 1) == (51, 51, 51)  # status: machine, white
    assert pixel(bench, 0) == (0, 0, 0)
    assert bench.read_lamps()[0] == [1, 1, 0, 0, 0, 0, 0]


def test_a_strip_shows_another_layout_that_fits(blinka):
    bench, io = blinka("pico-neopixel", [21])
    io.show([[LIT] * 20 + [OFF]], DARK)
    assert pixel(bench, 23) != (0, 0, 0) and pixel(bench, 24) == (0, 0, 0)
    assert bench.read_lamps() == [[1] * 20 + [0]]


def test_keys_turn_pin_levels_into_role_edges(blinka):
    bench, io = blinka("pico-neopixel")
    bench.scan(0)
    assert not io.events()  # () on a quiet pass: no garbage
    bench.set_switch("row2", True)  # GP4 shorted to ground
    bench.scan(20)
    bench.set_switch("row2", False)
    bench.set_switch("new", True)
    bench.scan(40)
    assert io.events() == [("row2", True), ("row2", False), ("new", True)]


def test_blinka_keys_are_sampled_only_when_scanned(blinka):
    bench, io = blinka("pico-neopixel")
    bench.scan(0)
    bench.set_switch("done", True)
    bench.set_switch("done", False)  # a blip between scans is never seen
    bench.scan(20)
    assert not io.events()  # () on a quiet pass: no garbage


@pytest.mark.parametrize("board", ["pico-neopixel", "pico-grid", "macropad", "circuitplayground"])
def test_every_keypad_scans_every_5_ms_not_every_20(blinka, board):
    """keypad's default interval (0.02 s) alone put up to 20 ms between a press and its lamp."""
    bench, io = blinka(board)
    assert io._scanners and [keys._interval for keys, roles in io._scanners] == [0.005] * len(io._scanners)


@pytest.mark.parametrize("board, key", [("pico-grid", "key 3 5"), ("pico-grid", "key 7 7"), ("pico-ring", "key 0 13")])
def test_a_key_matrix_names_the_lamp_over_each_key(blinka, board, key):
    bench, io = blinka(board)
    bench.scan(0)
    bench.set_switch(key, True)
    bench.set_switch("key 0 0", True)
    bench.scan(20)
    assert sorted(io.events()) == sorted([("key 0 0", True), (key, True)])
    bench.set_switch(key, False)
    bench.scan(40)
    assert io.events() == [(key, False)]


def test_an_overflowed_key_queue_releases_every_key_and_rescans(blinka):
    bench, io = blinka("pico-neopixel")
    bench.scan(0)
    t = 0
    for _ in range(40):  # 80 edges: the queue holds 64
        for closed in (True, False):
            bench.set_switch("row0", closed)
            t += 20
            bench.scan(t)
    bench.set_switch("row2", True)  # held down through the overflow
    bench.scan(t + 20)
    assert io.events() == [(role, False) for role in ("row0", "row1", "row2", "row3", "done", "new")]
    bench.scan(t + 40)
    assert io.events() == [("row2", True)]


def test_grid_done_and_new_are_separate_keys(blinka):
    bench, io = blinka("pico-grid")
    bench.scan(0)
    bench.set_switch("done", True)
    bench.scan(20)
    assert io.events() == [("done", True)]


def test_a_missing_pin_is_named(blinka):
    spec = copy.deepcopy(boards.board("pico-neopixel"))
    spec["buttons"]["done"] = "GP99"
    bench = BlinkaBench(boards.board("pico-neopixel"))
    try:
        with pytest.raises(DriverError, match="no pin GP99"):
            bench.open(lambda: open_io(spec, [7, 7, 7, 7]))
    finally:
        bench.close()


def test_circuitpython_drives_discrete_leds_through_digitalio(blinka):
    spec = dict(boards.board("pi-leds"), driver="circuitpython")
    bench, io = blinka(spec)
    io.show(rows([1, 3, 5, 7], {(1, 2)}), dict(DARK, champ=1))
    assert bench.read_lamps() == [[0], [0, 0, 1], [0] * 5, [0] * 7]
    assert bench.read_status() == dict(DARK, champ=1)
    bench.set_switch("row1", True)
    bench.scan(0)
    assert io.events() == [("row1", True)]


def test_close_darkens_the_strip_and_is_safe_twice(blinka):
    bench, io = blinka("pico-neopixel")
    io.show(rows([7, 7, 7, 7], {(0, 0)}), dict(DARK, visitor=1))
    io.close()
    io.close()
    assert bench.read_lamps() == [[0] * 7] * 4 and bench.read_status() == DARK


def test_closing_a_threaded_blinka_keypad_does_not_hang():
    """Blinka's Keys.deinit() joins an endless scan thread; the driver's close must not."""
    from nimatron_sim import blinka_mock

    board = blinka_mock.install()
    import keypad
    from nimatron.drivers.strip_io import _stop

    keys = keypad.Keys([board.Dx_INPUT_TRUE_PULL_UP], value_when_pressed=False, pull=True)  # canned pin: real thread
    assert keys._scan_thread.is_alive()
    done = threading.Event()
    stopper = threading.Thread(target=lambda: (_stop(keys), done.set()), daemon=True)
    stopper.start()
    assert done.wait(30), "close hung on Blinka's keypad thread"
    assert keys._digitalinouts[0]._pin is None  # pins released


def test_a_board_lights_attract_mode_before_the_controller_is_built(monkeypatch):
    """The first lamp no longer waits for the controller's modules to compile (1.5 s on an RP2040)."""
    from nimatron.machine import app, controller

    bench = BlinkaBench(boards.board("pico-neopixel"))
    bench.layout = [7, 7, 7, 7]
    seen = []
    real = controller.Controller.__init__

    def init(self, *args, **kw):
        seen.append(bench.read_lamps())
        real(self, *args, **kw)

    monkeypatch.setattr(controller.Controller, "__init__", init)
    made = bench.open(lambda: app.make_controller("pico-neopixel", now_ms=0))
    try:
        assert seen == [[[1, 0, 0, 0, 1, 0, 0], [0, 0, 0, 1, 0, 0, 0], [0, 0, 1, 0, 0, 0, 1], [0, 1, 0, 0, 0, 1, 0]]]
    finally:
        made.io.close()
        bench.close()
