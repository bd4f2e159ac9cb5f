# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Issue 13 findings 6 (numbers), 4 (PIN values) and 12 (broken data files):
every way a setting or a data file can be wrong ends in a clear
SettingsError/BoardError naming it (exit 2 for the command lines), never a
traceback, never a silently changed value.
"""

import json
import os
import shutil
import subprocess
import sys

import pytest
from nimatron.config import boards, settings
from nimatron.config.boards import BoardError
from nimatron.config.settings import SettingsError, check_value, resolve
from nimatron_sim.engine import Simulator

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# -- finding 6: numbers -----------------------------------------------------------
@pytest.mark.parametrize(
    "value",
    [
        1.5,
        2.0,
        float("inf"),
        float("nan"),
        "Infinity",
        "1e999",
        "١٢",
        "²",
        "12.0",
        "+12",
        "",
        True,
        [12],
        {"a": 1},
        None,
        10**5000,
        "9" * 5000,
    ],
    ids=lambda v: repr(v)[:12] if not isinstance(v, int) or v < 10**9 else "huge",
)
def test_a_number_must_be_ascii_digits_or_a_whole_number(value):
    with pytest.raises(SettingsError) as e:
        check_value("think_ms", value)
    assert len(str(e.value)) < 120  # a 5,000-digit number is not echoed


@pytest.mark.parametrize("value, expected", [(800, 800), ("800", 800), (" 800 ", 800), ("0800", 800)])
def test_whole_numbers_are_taken(value, expected):
    assert check_value("think_ms", value) == expected


def test_rules_k_takes_ascii_digits_only():
    with pytest.raises(SettingsError):
        check_value("rules", "subtract:٣")
    assert check_value("rules", "subtract:3") == "subtract:3"


@pytest.mark.parametrize("how", ["sim", "python -m nimatron"])
@pytest.mark.parametrize("value", ["Infinity", "1.5"])
def test_command_lines_refuse_bad_numbers_with_exit_2(how, value):
    if how == "sim":
        argv = [sys.executable, "-m", "nimatron_host", "sim", "--headless", "--script", "-"]
    else:
        argv = [sys.executable, "-m", "nimatron", "--board", "pi-leds"]
    done = subprocess.run(
        argv + ["--set", "think_ms=" + value],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, GPIOZERO_PIN_FACTORY="mock"),
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "think_ms must be a whole number" in done.stderr


def test_set_over_the_link_refuses_infinity():
    from kit_link import Machine

    m = Machine()
    for raw in ("1e999", "Infinity", "1.5", '"1\u0662"'):
        kind, data = m.ask("SET think_ms " + raw) if raw.isascii() else ("ERR", ("encoding", ""))
        assert kind == "ERR" and data[0] in ("value", "encoding"), (raw, data)
    assert m.controller.settings["think_ms"] == 1500


def test_debounce_has_a_floor():
    with pytest.raises(SettingsError):
        resolve({"debounce_ms": 0})
    assert resolve({"debounce_ms": 10})["debounce_ms"] == 10


@pytest.mark.parametrize("seed", range(4))
def test_at_the_debounce_floor_a_bouncy_press_takes_one_lamp(seed):
    sim = Simulator("pico-neopixel", {"debounce_ms": 10}, seed=seed, bounce=True)
    try:
        sim.tap("new")
        before = sum(sim.read_lamps()[3])
        for _ in range(3):
            sim.tap("row3")
        assert sum(sim.read_lamps()[3]) == before - 3
    finally:
        sim.close()


# -- finding 4: the PIN's value ---------------------------------------------------------
@pytest.mark.parametrize("pin", ["1", "123", "²²²²", "١٢٣٤", "12 34", "1234567890123", "-1234", 12.0, True, [1234]])
def test_a_pin_is_4_to_12_ascii_digits(pin):
    with pytest.raises(SettingsError):
        resolve({"operator_pin": pin})


@pytest.mark.parametrize("pin, kept", [("", ""), ("0042", "0042"), (4711, "4711"), ("123456789012", "123456789012")])
def test_good_pins_are_kept(pin, kept):
    assert resolve({"operator_pin": pin})["operator_pin"] == kept


# -- finding 12: broken data files -------------------------------------------------------
GOOD = boards.board("pico-neopixel")


def broken(change):
    spec = json.loads(json.dumps(GOOD))
    change(spec)
    return spec


@pytest.mark.parametrize(
    "spec, words",
    [
        ([], "JSON object"),
        ({}, "driver"),
        (broken(lambda s: s.pop("lamps")), "lamps: missing"),
        (broken(lambda s: s["lamps"].update(layout=["7", "7"])), "lamps.layout"),
        (broken(lambda s: s["lamps"].update(pixels="32")), "lamps.pixels"),
        (broken(lambda s: s["lamps"].update(status=["0", 1])), "lamps.status"),
        (broken(lambda s: s["lamps"].update(status=[0, 99])), "lamps.status"),
        (broken(lambda s: s["lamps"].update(kind="laser")), "lamps.kind"),
        (broken(lambda s: s["buttons"].update(row0="GP99")), "GP99"),
        (broken(lambda s: s["buttons"].update(row0="D2")), "another family"),
        (broken(lambda s: s["buttons"].update(row0=7)), "buttons"),
        (broken(lambda s: s.update(brightness=5)), "brightness"),
        (broken(lambda s: s.update(brightness=True)), "brightness"),
        (broken(lambda s: s.update(input="keys")), "input"),
        (broken(lambda s: s.update(input="grid")), "matrix"),
    ],
)
def test_a_broken_pin_map_is_named(spec, words):
    with pytest.raises(BoardError) as e:
        boards.check("mine", spec)
    assert "pinmaps/mine.json" in str(e.value) and words in str(e.value)


def test_every_shipped_pin_map_passes():
    for name in boards.names():
        boards.board(name)


def test_pins_a_pi_lacks_are_refused():
    spec = boards.board("pi-leds")
    spec["buttons"]["new"] = "GPIO40"
    with pytest.raises(BoardError, match="GPIO0-GPIO27"):
        boards.check("pi-leds", spec)


@pytest.fixture
def package(tmp_path):
    """A copy of the firmware package, to break its data files."""
    shutil.copytree(
        os.path.join(ROOT, "firmware", "nimatron"),
        tmp_path / "nimatron",
        ignore=shutil.ignore_patterns("__pycache__", "tables.bin"),
    )
    os.symlink(
        os.path.join(ROOT, "firmware", "nimatron", "games", "tables.bin"),
        tmp_path / "nimatron" / "games" / "tables.bin",
    )
    return tmp_path


def run_machine(package, board="pi-leds"):
    return subprocess.run(
        [sys.executable, "-m", "nimatron", "--board", board],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=str(package),
        env=dict(os.environ, PYTHONPATH=str(package), GPIOZERO_PIN_FACTORY="mock"),
    )


@pytest.mark.parametrize(
    "text, words",
    [("[]", "JSON object"), ("{}", "driver"), ("{", "cannot read"), ("[" * 100000, "pinmaps/pi-leds.json")],
)
def test_a_broken_pin_map_file_exits_2_naming_it(package, text, words):
    (package / "nimatron" / "config" / "pinmaps" / "pi-leds.json").write_text(text)
    done = run_machine(package)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert words in done.stderr and "pi-leds.json" in done.stderr


@pytest.mark.parametrize(
    "text, words",
    [
        (None, "presets.json: cannot read it"),
        ("[]", "must hold an object"),
        ('{"marienbad": [1, 3, 5, 7]}', "preset marienbad must be an object"),
        ('{"marienbad": {"rules": "nim", "lamps": 3}}', "unknown setting lamps"),
    ],
)
def test_a_broken_presets_file_exits_2_naming_it(package, text, words):
    path = package / "nimatron" / "config" / "presets.json"
    if text is None:
        path.unlink()
    else:
        path.write_text(text)
    done = run_machine(package)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert words in done.stderr


@pytest.mark.parametrize(
    "error, words",
    [
        (
            RuntimeError("pystack exhausted"),
            "pystack exhausted while reading it (the start ran out of Python stack, not the file's fault)",
        ),
        (RecursionError("maximum recursion depth exceeded"), "nested too deeply"),
    ],
)
def test_a_pystack_exhausted_is_not_called_a_file_nested_too_deeply(monkeypatch, error, words):
    """CircuitPython's ``RuntimeError("pystack exhausted")`` (a start a little deeper than
    pico-neopixel's stack holds) was reported as "config/presets.json: nested too deeply"."""

    def load_json(name):
        raise error

    monkeypatch.setattr(settings, "load_json", load_json)
    monkeypatch.setattr(boards, "load_json", load_json)
    with pytest.raises(SettingsError) as got:
        settings.presets()
    assert str(got.value) == "config/presets.json: " + words
    with pytest.raises(BoardError) as got:
        boards.board("pico-neopixel")
    assert str(got.value) == "pin map config/pinmaps/pico-neopixel.json: " + words


# -- one preset a line: a SET parses the preset it needs, not the file ------------
def test_every_preset_is_found_on_its_own_line_as_the_whole_file_reads_it():
    whole = settings.presets()
    for name in whole:
        assert settings._preset_line(name) == whole[name], "presets.json: keep %s on one line of its own" % name
        assert settings.load_preset(name) == whole[name]
    assert settings._preset_line("nosuch") is None and settings._preset_line('nimatron": {"x') is None


def test_a_presets_file_laid_out_otherwise_is_read_whole(tmp_path, monkeypatch):
    data = settings.presets()
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "presets.json").write_text(json.dumps(data, indent=4))  # no line holds a preset
    monkeypatch.setattr(settings, "resource", lambda name: str(tmp_path / name))
    monkeypatch.setattr(settings, "load_json", lambda name: json.loads((tmp_path / name).read_text()))
    assert settings._preset_line("drnim") is None
    assert settings.load_preset("drnim") == data["drnim"]
    assert resolve({}, "drnim")["rules"] == data["drnim"]["rules"]
    with pytest.raises(SettingsError, match="unknown preset 'nosuch'"):
        check_value("preset", "nosuch")


def test_a_preset_named_by_a_number_is_chosen_over_the_link():
    """'SET preset 21' answered 'unknown preset 21': the link reads a bare 21 as JSON, a number."""
    from kit_link import Machine

    assert check_value("preset", 21) == "21" and check_value("preset", "100") == "100"
    m = Machine("pico-neopixel")  # a row of 21 runs on through its rows of holes, from a start
    assert m.err("SET preset 21") == "value"
    kind, data = m.ask("SET preset 21")
    assert (
        "lays out its lamps as [21], not as this machine's [7, 7, 7, 7]: put it in settings.json and restart" in data[1]
    ), data
    assert m.controller.settings["preset"] == "nimatron"  # nothing changed
