# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Packaging: one version, the extras, and ranges that mean something.

Every requirement has a floor and a cap, and the versions installed here (the
ones the suite ran on) lie inside them: a range is what was tested, not a
wish. The simulator and one driver reach into private parts of Textual,
gpiozero, Blinka and Blinka's displayio, named one by one in ``INTERNALS``:
a release that drops one fails here with the name and the place that needs
it, before a visitor meets a traceback. A private name used anywhere in the
simulator or the drivers that is neither listed there nor the project's own
(``OWN``) fails too, so the list cannot fall behind the code.
"""

import ast
import importlib.util
import pathlib
import re
import sys
import tomllib
from importlib import metadata

import pytest
from packaging.requirements import Requirement

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]

BLINKA_MOCK = "simulator/nimatron_sim/blinka_mock.py"
BENCH = "simulator/nimatron_sim/bench.py"
CP_IO = "firmware/nimatron/drivers/strip_io.py"  # the keypad scanners, the wired boards' and the MacroPad's
OLED = "simulator/nimatron_sim/oled_mock.py"
# (distribution, the library's module that defines the name, the private name, the files that rely on it)
INTERNALS = [
    # the key bar in the visitor's language: App._bindings replaced by a worded BindingsMap
    ("textual", "textual.dom", "_bindings", ["simulator/nimatron_sim/tui.py"]),
    # a lamp changed: the bench counts versions from MockPin's state changes
    ("gpiozero", "gpiozero.pins.mock", "_change_state", [BENCH]),
    ("gpiozero", "gpiozero.pins.mock", "_function", [BENCH]),
    # the OS-agnostic board (Blinka's test fixture, not its API): its pins, NeoPixel and PWM wired to the bench
    ("adafruit-blinka", "adafruit_blinka.agnostic", "board_id", [BLINKA_MOCK]),
    ("adafruit-blinka", "adafruit_blinka.microcontroller.generic_agnostic_board.pin", "Pin", [BLINKA_MOCK]),
    (
        "adafruit-blinka",
        "adafruit_blinka.microcontroller.generic_agnostic_board.neopixel",
        "neopixel_write",
        [BLINKA_MOCK],
    ),
    ("adafruit-blinka", "adafruit_blinka.microcontroller.generic_agnostic_board.PWMOut", "PWMOut", [BLINKA_MOCK]),
    # its private parts: a pin's pull (a button read), a NeoPixel frame's pin
    ("adafruit-blinka", "adafruit_blinka.microcontroller.generic_agnostic_board.pin", "_pull", [BLINKA_MOCK]),
    ("adafruit-blinka", "digitalio", "_pin", [BLINKA_MOCK]),
    # Blinka's keypad scans in a thread: the bench scans it on the simulated clock instead
    ("adafruit-blinka", "keypad", "_KeysBase", [BLINKA_MOCK]),
    ("adafruit-blinka", "keypad", "_interval", [BLINKA_MOCK, BENCH, CP_IO]),
    ("adafruit-blinka", "keypad", "_last_scan", [BLINKA_MOCK, BENCH]),
    ("adafruit-blinka", "keypad", "_events", [BLINKA_MOCK]),
    ("adafruit-blinka", "keypad", "_scanning_function", [BLINKA_MOCK, BENCH, CP_IO]),
    ("adafruit-blinka", "keypad", "_scan_thread", [BLINKA_MOCK, CP_IO]),
    ("adafruit-blinka", "keypad", "_digitalinouts", [BLINKA_MOCK, CP_IO]),
    ("adafruit-blinka", "keypad", "_row_digitalinouts", [BLINKA_MOCK, CP_IO]),
    ("adafruit-blinka", "keypad", "_column_digitalinouts", [CP_IO]),
    ("adafruit-blinka", "keypad", "_currently_pressed", [CP_IO]),
    ("adafruit-blinka", "keypad", "_previously_pressed", [CP_IO]),
    # the MacroPad's OLED: a framebuffer behind fourwire's bus methods, which displayio calls
    ("adafruit-blinka-displayio", "displayio._constants", "DISPLAY_COMMAND", [OLED]),
    ("adafruit-blinka-displayio", "displayio", "displays", [OLED]),  # the refresh thread's pool
    ("adafruit-blinka-displayio", "fourwire", "_free", [OLED]),
    ("adafruit-blinka-displayio", "fourwire", "_begin_transaction", [OLED]),
    ("adafruit-blinka-displayio", "fourwire", "_end_transaction", [OLED]),
    ("adafruit-blinka-displayio", "fourwire", "_send", [OLED]),
]
# Private names the sweep meets that are the project's own (defined in firmware/, host/ or simulator/)
OWN = [
    "_building",  # Controller._building(): the faces ask it (issue 28: a flag a rule set should answer)
    "_encoders",  # the bench's rotary encoders
    "_event",  # a soak robot's listener
    "_open_lamps",  # CircuitPythonIO._open_lamps: a strip opens as StripIO's (drivers/strip_io.py), LEDs its own
    "_note",  # Face._note: the message under the lamps, set by the terminal's mute key
    "_press",  # Presses._press: drivers.cursor presses the key under the cursor as a press would
    # Controller's: nimatron class leaves a machine unrun while nothing but a hand can change it
    # (classroom/room.py resting: no redraw due, no frame owed, no game or move waiting to be told)
    "_redraw_at",
    "_dirty",
    "_begun",
]
SWEPT = ("simulator", "firmware/nimatron/drivers")
# Requirements without a cap, and why.
UNCAPPED = {
    "lgpio": "the Raspberry Pi OS's GPIO back end, through gpiozero's and Blinka's public API only",
}


def requirements():
    """name -> Requirement of every dependency and extra (the test extra's own ``nimatron[sim]`` left out)."""
    reqs = list(PROJECT["dependencies"])
    for extra in PROJECT["optional-dependencies"].values():
        reqs += extra
    return {Requirement(r).name.lower(): Requirement(r) for r in reqs if Requirement(r).name != "nimatron"}


def library_source(module):
    """The text of a library's module, found without importing it (Blinka's need a board)."""
    try:
        spec = importlib.util.find_spec(module)
    except ModuleNotFoundError:
        spec = None
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    return pathlib.Path(spec.origin).read_text(encoding="utf-8")


@pytest.mark.parametrize("dist, module, name, users", INTERNALS, ids=[i[2] for i in INTERNALS])
def test_each_private_internal_is_still_there(dist, module, name, users):
    source = library_source(module)
    assert source is not None, "%s %s has no module %s any more: %s rely on its %s" % (
        dist,
        metadata.version(dist),
        module,
        ", ".join(users),
        name,
    )
    assert re.search(r"\b%s\b" % re.escape(name), source), (
        "%s %s no longer has %s in %s: %s rely on it; adapt them, then move the cap in pyproject.toml"
        % (dist, metadata.version(dist), name, module, ", ".join(users))
    )


@pytest.mark.parametrize("dist, module, name, users", INTERNALS, ids=[i[2] for i in INTERNALS])
def test_each_private_internal_is_still_used(dist, module, name, users):
    for path in users:
        assert re.search(r"\b%s\b" % re.escape(name), (ROOT / path).read_text()), (
            "%s no longer uses %s's %s: take it off INTERNALS" % (path, dist, name)
        )


@pytest.mark.parametrize("dist", sorted({i[0] for i in INTERNALS}))
def test_private_internals_are_capped(dist):
    """A library whose internals we use is capped below its next major release at most."""
    req = requirements()[dist]
    caps = [s for s in req.specifier if s.operator in ("<", "<=", "==", "~=")]
    assert caps, "the simulator uses %s's internals but %r has no upper bound" % (dist, str(req))


def private_names(path):
    """(line, name) of each private name ``path`` takes from an object not its own:
    ``obj._name`` (not ``self``), ``getattr(obj, "_name")`` and kin, ``import lib._module``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and re.match(r"_[A-Za-z]", node.attr)
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
        ):
            yield node.lineno, node.attr
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", None) in ("getattr", "hasattr", "setattr")
            and len(node.args) > 1
            and isinstance(node.args[1], ast.Constant)
            and re.match(r"_[A-Za-z]", str(node.args[1].value))
            and not (isinstance(node.args[0], ast.Name) and node.args[0].id == "self")
        ):
            yield node.lineno, node.args[1].value
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for part in node.module.split(".")[1:]:
                if re.match(r"_[A-Za-z]", part):
                    yield node.lineno, part


def test_every_private_name_used_is_listed():
    listed = {i[2] for i in INTERNALS} | set(OWN) | {i[1].rsplit(".", 1)[1] for i in INTERNALS if "._" in i[1]}
    wrong = []
    for base in SWEPT:
        for path in sorted((ROOT / base).rglob("*.py")):
            for line, name in private_names(path):
                if name not in listed:
                    wrong.append("%s:%d: %s" % (path.relative_to(ROOT), line, name))
    assert not wrong, (
        "private names used but not listed in tests/test_packaging.py (INTERNALS for a "
        "library's, OWN for the project's):\n" + "\n".join(wrong)
    )


@pytest.mark.parametrize("name", OWN)
def test_the_projects_own_private_names_are_its_own(name):
    defined = re.compile(r"(def |self\.)%s\b" % re.escape(name))
    assert any(
        defined.search(p.read_text()) for base in ("firmware", "host", "simulator") for p in (ROOT / base).rglob("*.py")
    ), "the project defines no %s: is it a library's? list it in INTERNALS" % name
    met = {n for base in SWEPT for p in (ROOT / base).rglob("*.py") for _, n in private_names(p)}
    assert name in met, "nothing takes %s from outside any more: take it off OWN" % name


@pytest.mark.parametrize("name", sorted(requirements()))
def test_every_range_has_a_floor_and_a_cap(name):
    req = requirements()[name]
    ops = {s.operator for s in req.specifier}
    assert ops & {">=", ">", "==", "~="}, "%r has no lower bound: name the oldest version it was tried with" % str(req)
    if name not in UNCAPPED:
        assert ops & {"<", "<=", "==", "~="}, (
            "%r has no upper bound: cap it below the next major release "
            "tried (or list it in UNCAPPED with the reason)" % str(req)
        )


@pytest.mark.parametrize("name", sorted(requirements()))
def test_the_installed_version_is_inside_its_range(name):
    """The suite runs on what is installed: a range that excludes it claims what nobody tried."""
    req = requirements()[name]
    if req.marker is not None and not req.marker.evaluate():
        pytest.skip("%s is not for this platform (%s)" % (name, req.marker))
    try:
        installed = metadata.version(name)
    except metadata.PackageNotFoundError:
        pytest.fail("%s is not installed: pip install -e '.[test]' (tools/setup.sh)" % name)
    assert req.specifier.contains(installed, prereleases=True), "%s %s is installed, outside %r" % (
        name,
        installed,
        str(req),
    )


def third_party_imports():
    """(file, top-level module) of every import in the packages that is neither the standard library nor ours."""
    for base in ("firmware", "host", "simulator"):
        for path in sorted((ROOT / base).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = (
                    [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module]
                    if isinstance(node, ast.ImportFrom) and not node.level and node.module
                    else []
                )
                for name in names:
                    top = name.split(".")[0]
                    if top not in sys.stdlib_module_names and not top.startswith("nimatron"):
                        yield path.relative_to(ROOT).as_posix(), top


def test_every_library_imported_is_required():
    """A library the code imports is named in pyproject.toml, not merely pulled in by another
    (tui.py imported rich, which only Textual required). The firmware's board modules are
    CircuitPython's own (circuitpython-stubs knows them; test_circuitpython_api checks them)."""
    provides = metadata.packages_distributions()
    required = set(requirements())
    board = {
        str(f).split("/")[0][: -len("-stubs")]
        for f in metadata.distribution("circuitpython-stubs").files
        if str(f).split("/")[0].endswith("-stubs")
    }
    wrong = []
    for path, top in third_party_imports():
        if path.startswith("firmware/") and top in board:
            continue
        dists = {d.lower() for d in provides.get(top, ())}
        if not dists & required:
            wrong.append(
                "%s imports %s (from %s), which pyproject.toml does not require"
                % (path, top, ", ".join(sorted(dists)) or "nowhere installed")
            )
    assert not wrong, "\n".join(sorted(set(wrong)))


def test_one_version_source():
    assert "version" in PROJECT.get("dynamic", []) and "version" not in PROJECT
    init = (ROOT / "firmware/nimatron/__init__.py").read_text()
    declared = re.search(r'__version__ = "([^"]+)"', init).group(1)
    assert metadata.version("nimatron") == declared


def test_extras():
    extras = PROJECT["optional-dependencies"]
    assert {"sim", "pi", "test"} <= set(extras)
    base = " ".join(PROJECT["dependencies"])
    assert "textual" not in base, "a Pi install must not pull in the terminal app's Textual"
    assert "textual" in " ".join(extras["sim"])


def test_the_wheel_ships_every_package_and_its_data(tmp_path):
    """Packages are found automatically: a wheel (what a Pi installs) holds every
    folder with an __init__.py and the data files the firmware reads."""
    import subprocess
    import sys
    import zipfile

    run = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    names = set(zipfile.ZipFile(next(tmp_path.glob("nimatron-*.whl"))).namelist())
    for where in ("firmware", "host", "simulator"):
        for path in (ROOT / where).rglob("*"):
            rel = path.relative_to(ROOT / where).as_posix()
            if not rel.startswith("nimatron") or "__pycache__" in rel or path.is_dir():
                continue
            if path.suffix in (".py", ".bin", ".json", ".js", ".css", ".html", ".svg"):
                assert rel in names, "the wheel lacks %s" % rel


@pytest.mark.parametrize(
    "text, found",
    [
        ("keys._last_scan = now\n", ["_last_scan"]),
        ("x = getattr(keys, '_interval', 0.02)\n", ["_interval"]),
        ("from displayio._constants import DISPLAY_COMMAND\n", ["_constants"]),
        ("self._pull = 1\nx = self._pull\ny = getattr(self, '_squeeze', 0)\n", []),
        ("x = obj.__class__\n", []),
    ],
)
def test_the_sweep_sees_each_form_of_private_use(tmp_path, text, found):
    (tmp_path / "probe.py").write_text(text)
    assert [name for _, name in private_names(tmp_path / "probe.py")] == found
