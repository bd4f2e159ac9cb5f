# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The first lamp: lit by code.py before the start compiles (issue 27:
the first lamp at 4.57 s from plain ``.py`` on an emulated Pico, 2.3 s of it
compiling), on every CircuitPython pin map, through Blinka's real
``neopixel_write`` on the simulator's pins; and never in the start's way."""

import json
import os
import sys

import pytest
from hypothesis import given, settings as examples, strategies as st

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "simulator", "nimatron_sim"))

from nimatron.config import STATUS, boards  # noqa: E402
from nimatron.drivers import first_lamp, lamp_pixels  # noqa: E402
from nimatron.machine import power_on  # noqa: E402
from nimatron.machine.ports import COLOURS, LIT, STATUS_COLOUR  # noqa: E402

CIRCUITPYTHON = [name for name in boards.names() if boards.board(name)["driver"] in ("circuitpython", "onboard")]


@pytest.fixture
def bench_for():
    made = []

    def make(name):
        from nimatron_sim.bench import BlinkaBench

        made.append(BlinkaBench(boards.board(name)))
        return made[-1]

    yield make
    for bench in made:
        bench.close()


def lit_pixels(bench, spec):
    data, bpp = bench._pixel_bytes()
    return {p: bench._pixel(data, bpp, p) for p in range(spec["lamps"]["pixels"]) if any(bench._pixel(data, bpp, p))}


@pytest.mark.parametrize("name", CIRCUITPYTHON)
def test_the_first_lamp_is_one_pixel_of_the_board_the_start_opens(name, bench_for, tmp_path):
    spec = boards.board(name)
    bench = bench_for(name)
    pixel = bench.open(lambda: first_lamp.light(name, str(tmp_path / "none.json")))
    lamps = spec["lamps"]
    if lamps.get("status"):
        assert pixel == lamps["status"][STATUS.index("machine")]
        colour = STATUS_COLOUR
    else:
        assert pixel == lamp_pixels(lamps, lamps["layout"])[0][0]
        colour = COLOURS[LIT]
    level = spec.get("brightness", 1.0)
    assert lit_pixels(bench, spec) == {pixel: tuple(int(c * level) for c in colour)}
    assert len(bench._frames[bench._id[lamps["pin"]]]) == 3 * lamps["pixels"]  # the whole strip: the others dark
    # the pin let go: the driver claims it next (a pin still claimed made every start fail "in use")
    import board
    import digitalio

    bench.open(lambda: digitalio.DigitalInOut(getattr(board, lamps["pin"])).deinit())


def test_the_settings_files_board_is_the_one_lit(bench_for, tmp_path):
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"board": "pico-grid", "preset": "graph"}))
    bench = bench_for("pico-grid")
    assert bench.open(lambda: first_lamp.light("pico-neopixel", str(settings))) == 65
    assert list(lit_pixels(bench, boards.board("pico-grid"))) == [65]


@pytest.mark.parametrize("text", ["{", "[1, 2]", '{"board": 7}', '{"board": ""}', "\x00\xff"])
def test_a_settings_file_that_names_no_board_lights_code_pys(text, bench_for, tmp_path):
    settings = tmp_path / "settings.json"
    settings.write_bytes(text.encode("latin-1"))
    bench = bench_for("pico-neopixel")
    assert bench.open(lambda: first_lamp.light("pico-neopixel", str(settings))) == 1


@pytest.mark.parametrize("board_name", ["no-such-board", "pi-leds", "../../../etc/passwd"])
def test_nothing_is_lit_and_nothing_raised_where_it_cannot_be(board_name, tmp_path):
    """An unknown pin map, discrete LEDs (dark once the pin is let go), no
    CircuitPython modules: None, and the start goes on to say what is wrong."""
    assert first_lamp.light(board_name, str(tmp_path / "none.json")) is None


def test_no_hardware_module_means_no_lamp_not_an_error(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "neopixel_write", None)  # import fails
    assert first_lamp.light("pico-neopixel", str(tmp_path / "none.json")) is None
    assert power_on.first_lamp("pico-neopixel", str(tmp_path / "none.json")) is None


def test_power_on_never_raises_even_when_the_module_cannot_load(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "nimatron.drivers.first_lamp", None)
    assert power_on.first_lamp("pico-neopixel", str(tmp_path / "none.json")) is None


@pytest.mark.parametrize("name", CIRCUITPYTHON)
def test_the_deploy_puts_it_on_every_circuitpython_board(name):
    from nimatron_host.payload import driver_files

    assert "first_lamp.py" in driver_files(boards.board(name))


# The first lamp's pixel is read from the lamp map by ``first_lamp.first_pixel``
# itself (``lamp_pixels``' refusals need ``config.boards``, which this lamp comes
# before): on every shape of lamp map without status pixels it is the pixel the
# driver gives lamp 0 of row 0 of the board's own layout.
@examples(max_examples=200, deadline=None)
@given(
    rows=st.lists(st.integers(1, 8), min_size=1, max_size=5),
    first=st.integers(0, 6),
    fixed=st.booleans(),
    mapped=st.booleans(),
    shift=st.integers(0, 40),
)
def test_the_first_pixel_is_the_drivers_lamp_0_of_row_0_on_any_lamp_map(rows, first, fixed, mapped, shift):
    lamps = {"kind": "neopixel", "first": first, "layout": rows, "status": [], "pixels": first + sum(rows)}
    if fixed:
        lamps["fixed"] = True
    if mapped:  # each lamp's own pixel, in some other order (a MacroPad's keys run by columns); read if fixed
        count = sum(rows)
        order = [(i * 7 + shift) % count for i in range(count)] if count % 7 else list(range(count))[::-1]
        at = iter(order)
        lamps["map"] = [[next(at) for _ in range(n)] for n in rows]
    assert first_lamp.first_pixel(lamps) == (lamp_pixels(lamps, rows)[0][0], COLOURS[LIT])
