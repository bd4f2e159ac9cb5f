# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The power budget: the maths on known cases, the firmware refusing a board or
a brightness its supply cannot carry, and ``nimatron power``.
"""

import copy
import os
import subprocess

import pytest
from nimatron.config import boards, power
from nimatron.config.settings import SettingsError, resolve
from nimatron.machine.app import make_controller
from nimatron_host.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class FakeIO:
    def __init__(self):
        self.levels = []

    def show(self, lamps, status):
        pass

    def events(self):
        return []

    def set_brightness(self, level):
        self.levels.append(level)

    def close(self):
        pass


@pytest.mark.parametrize(
    "volts, vf, ma, ohms",
    [
        (3.3, 1.9, 2, 750),  # (3.3-1.9)/2 mA = 700 ohm -> E24 750
        (3.3, 2.0, 10, 130),  # exactly 130: an E24 value
        (5.0, 2.0, 20, 150),  # exactly 150
        (5.0, 3.1, 15, 130),  # 126.7 -> 130
        (3.3, 1.8, 0.5, 3000),  # 3000: E24 30 x 100
    ],
)
def test_led_resistor_is_the_e24_value_at_or_above(volts, vf, ma, ohms):
    assert power.resistor_ohms(volts, vf, ma) == ohms
    assert power.led_ma(volts, vf, ohms) <= ma + 1e-9


def test_an_led_that_cannot_light_is_refused():
    with pytest.raises(power.PowerError, match="cannot light"):
        power.resistor_ohms(3.3, 3.4, 2)


def test_neopixel_budget_known_case():
    f = power.budget(boards.board("pico-neopixel"))
    # 2 A at 80 % = 1600 mA; 50 mA Pico + 32 mA dark leaves 1518 for 32 x 60 mA
    assert (f["allowed_ma"], f["board_ma"], f["dark_ma"], f["full_ma"]) == (1600, 50, 32, 1920)
    assert f["cap"] == 0.79  # 1518 / 1920 = 0.7906, rounded down
    assert power.worst_ma(f, 0.2) == pytest.approx(50 + 32 + 384)
    assert power.budget(boards.board("pi-neopixel"))["cap"] == 0.81  # (1600 - 32) / 1920
    assert power.budget(boards.board("pico-ring"))["cap"] == 1.0  # never above full


def test_led_budget_known_case():
    f = power.budget(boards.board("pi-leds"))
    # ULN2803A sink drivers: (5 - 2.0 Vf - 0.9 Vce) / 15 mA = 140 ohm -> E24 150 -> 14 mA from +5 V
    assert f["ohms"] == 150 and f["lamps"] == 20 and f["led_ma"] == pytest.approx(14)
    assert f["leds_ma"] == pytest.approx(280) and f["worst_ma"] == pytest.approx(1500 + 280)
    assert f["pins_ma"] == pytest.approx(20 * 1.35)  # the drivers' inputs, under the pins' 50 mA
    assert power.check("pi-leds", boards.board("pi-leds")) == 1.0


def test_leds_straight_from_the_pins_are_still_budgeted_against_the_pins():
    spec = copy.deepcopy(boards.board("pi-leds"))
    spec["led"] = {"vf": 1.9, "ma": 2}
    f = power.budget(spec)
    assert f["ohms"] == 750 and f["pins_ma"] == f["leds_ma"] == pytest.approx(20 * 1.4 / 0.75)  # 37.3 mA
    assert power.check("pi-leds", spec) == 1.0


def test_every_board_fits_its_own_supply_at_its_own_brightness():
    for name in boards.names():
        spec = boards.board(name)
        level = power.check(name, spec)
        assert 0 < level <= power.budget(spec)["cap"]


def test_a_brightness_over_the_cap_is_refused_naming_the_figures():
    with pytest.raises(power.PowerError) as e:
        make_controller("pi-neopixel", {"brightness": 0.9}, io=FakeIO())
    msg = str(e.value)
    for figure in ("pi-neopixel", "brightness 0.90", "1760 mA", "32 pixels", "5 V 2 A", "1600 mA", "at most 0.81"):
        assert figure in msg, msg
    make_controller("pi-neopixel", {"brightness": 0.81}, io=FakeIO())  # the cap itself is fine


def test_a_board_over_its_supply_is_refused_at_start_up(monkeypatch):
    spec = copy.deepcopy(boards.board("pico-grid"))
    spec["supply"]["amps"] = 0.5  # 400 mA usable: not even the dark pixels and the Pico at 0.15
    monkeypatch.setattr(boards, "board", lambda name: spec)
    with pytest.raises(
        power.PowerError, match=r"pico-grid: brightness 0.15 needs up to 730 mA .* 5 V 0.5 A supply allows 400 mA"
    ):
        make_controller("pico-grid", {}, io=FakeIO())


def test_too_many_leds_for_the_pins_is_refused(monkeypatch):
    spec = copy.deepcopy(boards.board("pi-leds"))
    spec["led"] = {"vf": 1.9, "ma": 10}  # no sink driver: 20 LEDs x ~10 mA, far over the pins' 50 mA
    monkeypatch.setattr(boards, "board", lambda name: spec)
    with pytest.raises(power.PowerError, match=r"20 LEDs at 9.3 mA draw 187 mA from the pins, over their 50 mA"):
        make_controller("pi-leds", {}, io=FakeIO())


def test_discrete_leds_refuse_a_dimming_setting():
    with pytest.raises(power.PowerError, match="discrete LEDs"):
        make_controller("pi-leds", {"brightness": 0.5}, io=FakeIO())


@pytest.mark.parametrize("value", [0, -0.1, 1.5, "bright", True, float("nan")])
def test_brightness_setting_is_checked(value):
    with pytest.raises(SettingsError, match="brightness"):
        resolve({"brightness": value})


def test_brightness_default_is_the_pin_maps_and_a_change_reaches_the_strip():
    io = FakeIO()
    c = make_controller("pico-neopixel", {}, io=io)
    assert resolve({})["brightness"] is None
    c.apply_settings(resolve({"brightness": "0.5"}))
    assert io.levels == [0.5]
    with pytest.raises(power.PowerError, match="at most 0.79"):
        c.apply_settings(resolve({"brightness": 0.9}))
    assert io.levels == [0.5] and c.settings["brightness"] == 0.5  # refused: nothing changed


def test_set_brightness_over_the_link_is_refused_above_the_cap():
    from kit_link import Machine

    m = Machine("pico-neopixel")
    assert m.ok("SET brightness 0.3")["value"] == 0.3
    kind, data = m.ask("SET brightness 0.95")
    assert kind == "ERR" and data[0] == "value" and "at most 0.79" in " ".join(str(d) for d in data)
    assert m.ok("CONFIG brightness") == {"brightness": 0.3}


def test_the_simulated_strip_is_driven_at_the_set_brightness():
    from nimatron_sim.engine import Simulator

    def brightest(sim):
        sim.tap("new")
        return max(max(rgb) for rgb in sum(sim.read_colours(), []))

    with Simulator("pico-neopixel") as dim, Simulator("pico-neopixel", {"brightness": 0.6}) as bright:
        low, high = brightest(dim), brightest(bright)
    assert low == int(255 * 0.2) and high == int(255 * 0.6)


def test_power_runs_under_micropython():
    from mpy_runner import micropython

    code = (
        "import json\nfrom nimatron.config import power\n"
        "spec = json.load(open('firmware/nimatron/config/pinmaps/pi-neopixel.json'))\n"
        "print('%.2f' % power.budget(spec)['cap'], power.resistor_ohms(3.3, 1.9, 2))\n"
        "try:\n    power.check('pi-neopixel', spec, 0.9)\nexcept power.PowerError as e:\n    print(e)\n"
    )
    env = dict(os.environ, MICROPYPATH=os.path.join(ROOT, "firmware"))
    done = subprocess.run([micropython(), "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    lines = done.stdout.splitlines()
    assert lines[0] == "0.81 750", done.stderr
    assert "brightness 0.90 needs up to 1760 mA" in lines[1] and "5 V 2 A supply" in lines[1]


def test_power_command(capsys):
    assert main(["power", "--board", "pico-neopixel"]) == 0
    out = capsys.readouterr().out
    assert "cap 0.79" in out and "466 mA of 1600 mA" in out and "fits" in out
    assert main(["power", "--board", "pi-neopixel", "--supply-amps", "0.5"]) == 1  # 0.25 needs 512 of 400 mA
    captured = capsys.readouterr()
    assert "OVER BUDGET" in captured.out and "at most 0.19" in captured.err
    # the sentence is said once, not on both streams
    assert "at most 0.19" not in captured.out and captured.err.count("at most 0.19") == 1
    assert main(["power", "--board", "pi-leds"]) == 0
    out = capsys.readouterr().out
    assert "150 ohm" in out and "280 mA all lit" in out and "27.0 mA of the 50 mA" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["power", "--board", "toaster"], "unknown board 'toaster'"),
        (["power", "--board", "pico-ring", "--supply-amps", "0"], "--supply-amps must be above 0"),
        (["power", "--board", "pico-ring", "--supply-amps", "nan"], "--supply-amps must be above 0"),
        (["power", "--board", "pico-ring", "--brightness", "2"], "--brightness must be above 0"),
        (["power"], "give --board BOARD"),
    ],
)
def test_power_command_bad_input(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "args, words",
    [
        (["power", "--board", "nosuch"], "nimatron power: error: unknown board 'nosuch'"),
        (
            ["power", "--board", "pico-neopixel", "--brightness", "7"],
            "--brightness must be above 0 and at most 1, not 7",
        ),
        (["power", "--board", "pico-neopixel", "--supply-amps", "-1"], "--supply-amps must be above 0 (amps), not -1"),
        (["power", "--board", "pico-neopixel", "--supply-amps", "abc"], "invalid float value: 'abc'"),
        (["hardware", "--out", "FILE"], "is not a folder"),
        (["hardware", "--out", "MISSING/x"], "does not exist"),
        (["hardware", "--lang", "xx"], "--lang must be one of en, es, ru, not 'xx'"),
    ],
)
def test_bad_input_to_hardware_and_power_is_one_line_and_exit_2(tmp_path, capsys, args, words):
    from nimatron_host.cli import main as nimatron

    (tmp_path / "FILE").write_text("a maker's notes")
    args = [str(tmp_path / a) if a in ("FILE", "MISSING/x") else a for a in args]
    assert nimatron(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0] and "Traceback" not in err[0], err
    assert (tmp_path / "FILE").read_text() == "a maker's notes"  # left as it was
