# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The Nimatron's own firmware (``tools/build_firmware.sh``, ``nimatron_host.frozen``):
what is frozen, where the frozen code finds its data files, and ``nimatron
deploy --firmware`` onto fake bootloader (RPI-RP2) and CIRCUITPY drives."""

import json
import os
import struct

import nimatron
import pytest
from nimatron.config import boards
from nimatron_host import deploy, frozen, payload
from nimatron_host.cli import main

INFO_UF2 = "UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n"
BOOT_OUT = {
    frozen.PICO: "Adafruit CircuitPython 9.2.8 on 2026-11-25; Raspberry Pi Pico with rp2040\n"
    "Board ID:raspberry_pi_pico\n",
    "adafruit_macropad_rp2040": "Adafruit CircuitPython 9.2.8 on 2026-11-25; Adafruit Macropad RP2040 with "
    "rp2040\nBoard ID:adafruit_macropad_rp2040\n",
}
# every pin map a frozen firmware serves, with its CircuitPython board
SERVED = [(name, cp) for cp in frozen.RP2040_BOARDS for name in frozen.pin_maps(cp)]


def uf2_blocks(n=3, family=frozen.RP2040_FAMILY):
    out = b""
    for i in range(n):
        head = struct.pack(
            "<8I",
            frozen.UF2_MAGIC[0],
            frozen.UF2_MAGIC[1],
            frozen.UF2_FAMILY_FLAG,
            0x10000000 + 256 * i,
            256,
            i,
            n,
            family,
        )
        out += head + bytes([i]) * 476 + struct.pack("<I", frozen.UF2_MAGIC[2])
    return out


@pytest.fixture(scope="module")
def firmware(tmp_path_factory):
    """{CircuitPython board: UF2 path} of fake UF2s with real manifests beside them."""
    folder = tmp_path_factory.mktemp("firmware")
    out = {}
    for cp in frozen.RP2040_BOARDS:
        uf2 = folder / ("circuitpython-9.2.8-%s-nimatron.uf2" % cp)
        uf2.write_bytes(uf2_blocks(4 if cp == frozen.PICO else 5))
        record = frozen.manifest(cp, str(uf2), "9.2.8", "arm-none-eabi-gcc 12.2", "CircuitPython 9.2.8", "abc123")
        (folder / uf2.name.replace(".uf2", ".json")).write_text(json.dumps(record))
        out[cp] = str(uf2)
    return out


@pytest.fixture
def rpi_rp2(tmp_path):
    """An RP2040 in BOOTSEL mode: its bootloader drive."""
    drive = tmp_path / "RPI-RP2"
    drive.mkdir()
    (drive / "INFO_UF2.TXT").write_text(INFO_UF2)
    (drive / "INDEX.HTM").write_text("<html></html>")
    return drive


def circuitpy(tmp_path, cp, monkeypatch):
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    (drive / "boot_out.txt").write_text(BOOT_OUT[cp])
    (drive / "lib").mkdir()
    monkeypatch.setattr(deploy, "online", lambda *a, **k: False)
    return drive


def files(root):
    return sorted(
        os.path.relpath(os.path.join(f, n), root).replace(os.sep, "/") for f, _, names in os.walk(root) for n in names
    )


def one_line_error(capsys):
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


# ---- what is frozen, and the data left on the drive


def test_every_pico_and_macropad_pin_map_is_served():
    on_a_board = [n for n, s in boards.BOARDS.items() if s["driver"] in payload.ONBOARD and not n.startswith("pi-")]
    served = {n for n, _ in SERVED}
    assert {"pico-neopixel", "pico-grid", "pico-ring", "macropad"} <= served
    assert served == {n for n in on_a_board if frozen.board_id(n, boards.board(n)) in frozen.RP2040_BOARDS}


@pytest.mark.parametrize("cp", frozen.RP2040_BOARDS)
def test_frozen_is_python_only_and_covers_what_deploy_copies(cp):
    code = frozen.frozen_files(cp)
    assert all(p.endswith(".py") for p in code)
    assert frozen.CODE_MODULE + ".py" in code and "neopixel.py" in code
    for name in frozen.pin_maps(cp):
        spec = boards.board(name)
        wanted = [
            p[len("lib/") :] for p in payload.firmware_files(name, spec) if p.endswith(".py") and p.startswith("lib/")
        ]
        wanted += [p[len("lib/") :] for p in payload.library_files(spec) if p.endswith(".py")]
        assert set(wanted) <= set(code), name
    assert not any(p.startswith("nimatron/") and p[len("nimatron/") :] in payload.PC_ONLY for p in code)


def test_stage_writes_the_modules_and_refuses_an_unknown_board(tmp_path, capsys):
    assert frozen.main(["stage", frozen.PICO, str(tmp_path / "src")]) == 0
    assert (tmp_path / "src" / "nimatron" / "games" / "rules.py").is_file()
    assert frozen.main(["stage", "circuitplayground_bluefruit", str(tmp_path / "other")]) == 2
    assert "raspberry_pi_pico" in one_line_error(capsys)


@pytest.mark.parametrize("name,cp", SERVED)
def test_frozen_code_finds_every_data_file_it_opens(name, cp, firmware, tmp_path, monkeypatch):
    """On the board the frozen package reads its data from /lib/nimatron/ on the
    drive (its ``__path__`` is ".frozen/nimatron"): here that folder is the
    fake drive's. Every preset the board starts with, its pin map, presets,
    tables and 2-D Nim's table are opened from there, and every one is found
    (tables.py would quietly search instead if its file were missing)."""
    from nimatron.games import nim2d, tables
    from nimatron_host.machine import check

    drive = circuitpy(tmp_path, cp, monkeypatch)
    assert main(["deploy", "--firmware", firmware[cp], "--to", str(drive), "--board", name]) == 0
    asked = []

    class Data(str):
        def __add__(self, name):
            asked.append(name)
            return str(self) + name

    monkeypatch.setattr(nimatron, "FROZEN_DATA", Data(str(drive / "lib" / "nimatron") + "/"))
    monkeypatch.setattr(nimatron, "frozen", lambda path: True)
    monkeypatch.setattr(tables, "_loaded", {})
    monkeypatch.setattr(tables, "_index", [])
    monkeypatch.setattr(nim2d, "_file", None)
    spec = boards.board(name)
    from nimatron.config.settings import PRESETS

    started = 0
    for preset in sorted(PRESETS):
        try:
            check(name, {"preset": preset})
        except Exception:  # a preset this board cannot show; the checkout says the same
            continue
        started += 1
    assert started
    tables._table("no such table")  # reads the file's index, if it finds the file
    if spec["input"] == "grid":
        nim2d._bit(0, False)
    assert asked and "config/presets.json" in asked and "config/pinmaps/%s.json" % name in asked
    missing = [a for a in asked if not os.path.exists(str(drive / "lib" / "nimatron" / a))]
    assert not missing
    assert tables._index, "tables.bin not found under the frozen layout"


def _record(cp, firmware):
    return frozen.read_manifest(firmware[cp])[1]


def test_resource_of_a_frozen_package_is_on_the_drive():
    """CircuitPython gives a frozen package ``__path__`` ".frozen/nimatron" and
    ``__file__`` "nimatron/__init__.py"; run from a file, the folder of ``__file__``."""
    with open(nimatron.__file__) as f:
        source = f.read()
    frozen_globals = {"__name__": "nimatron", "__file__": "nimatron/__init__.py", "__path__": ".frozen/nimatron"}
    exec(compile(source, "nimatron/__init__.py", "exec"), frozen_globals)
    assert frozen_globals["resource"]("games/tables.bin") == "/lib/nimatron/games/tables.bin"
    from_file = {"__name__": "nimatron", "__file__": "firmware/nimatron/__init__.py", "__path__": "firmware/nimatron"}
    exec(compile(source, "nimatron/__init__.py", "exec"), from_file)
    assert from_file["resource"]("games/tables.bin") == "firmware/nimatron/games/tables.bin"
    assert nimatron.resource("games/tables.bin").endswith(os.path.join("nimatron", "games", "tables.bin"))
    assert os.path.isabs(nimatron.resource("games/tables.bin"))


# ---- nimatron deploy --firmware onto the bootloader drive


@pytest.mark.parametrize("name,cp", SERVED)
def test_the_uf2_goes_onto_the_bootloader_drive_of_its_board(name, cp, firmware, rpi_rp2, capsys):
    assert main(["deploy", "--firmware", firmware[cp], "--to", str(rpi_rp2), "--board", name]) == 0
    copied = rpi_rp2 / os.path.basename(firmware[cp])
    with open(firmware[cp], "rb") as f:
        assert copied.read_bytes() == f.read()
    said = capsys.readouterr().out
    assert "--to CIRCUITPY --board %s" % name in said and "restarts" in said


@pytest.mark.parametrize("name,cp", SERVED)
def test_a_uf2_for_another_board_is_refused(name, cp, firmware, rpi_rp2, capsys):
    """The MacroPad's UF2 never goes on a Pico, nor the Pico's on a MacroPad."""
    for other in frozen.RP2040_BOARDS:
        if other == cp:
            continue
        assert main(["deploy", "--firmware", firmware[other], "--to", str(rpi_rp2), "--board", name]) == 2
        err = one_line_error(capsys)
        assert other in err and cp in err
        assert files(rpi_rp2) == ["INDEX.HTM", "INFO_UF2.TXT"]


def test_a_bootloader_drive_needs_the_board_named(firmware, rpi_rp2, capsys):
    assert main(["deploy", "--firmware", firmware[frozen.PICO], "--to", str(rpi_rp2)]) == 2
    assert "--board" in one_line_error(capsys)
    assert files(rpi_rp2) == ["INDEX.HTM", "INFO_UF2.TXT"]


def test_a_dry_run_copies_nothing(firmware, rpi_rp2, capsys):
    assert (
        main(["deploy", "--firmware", firmware[frozen.PICO], "--to", str(rpi_rp2), "--board", "pico-grid", "--dry-run"])
        == 0
    )
    assert "dry run" in capsys.readouterr().out
    assert files(rpi_rp2) == ["INDEX.HTM", "INFO_UF2.TXT"]


@pytest.mark.parametrize(
    "info",
    [
        "UF2 Bootloader v1.0\nModel: Raspberry Pi RP2350\nBoard-ID: RP2350\n",
        "UF2 Bootloader v3.0\nModel: Adafruit Feather M4\nBoard-ID: SAMD51J19A-Feather\n",
        "nothing useful\n",
    ],
)
def test_a_bootloader_of_another_chip_is_refused(info, firmware, rpi_rp2, capsys):
    (rpi_rp2 / "INFO_UF2.TXT").write_text(info)
    assert main(["deploy", "--firmware", firmware[frozen.PICO], "--to", str(rpi_rp2), "--board", "pico-grid"]) == 2
    assert "RPI-RP2" in one_line_error(capsys)
    assert files(rpi_rp2) == ["INDEX.HTM", "INFO_UF2.TXT"]


def _bad_uf2(kind, path):
    good = uf2_blocks()
    if kind == "not UF2":
        path.write_bytes(b"hello" * 200)
    elif kind == "torn":
        path.write_bytes(good[:700])
    elif kind == "no magic":
        path.write_bytes(good[:512] + bytes(512))
    elif kind == "family":
        path.write_bytes(uf2_blocks(family=0xE48BFF59))
    return good


@pytest.mark.parametrize(
    "kind",
    [
        "not UF2",
        "torn",
        "no magic",
        "family",
        "changed",
        "no manifest",
        "manifest not JSON",
        "manifest incomplete",
        "missing",
    ],
)
def test_a_uf2_or_manifest_that_is_not_a_build_of_ours_is_refused(kind, tmp_path, firmware, rpi_rp2, capsys):
    uf2 = tmp_path / "fw.uf2"
    record = frozen.read_manifest(firmware[frozen.PICO])[1]
    if kind != "missing":
        uf2.write_bytes(uf2_blocks())
        (tmp_path / "fw.json").write_text(json.dumps(dict(record, uf2_sha256=frozen.digest(uf2_blocks()))))
    if kind in ("not UF2", "torn", "no magic", "family"):
        _bad_uf2(kind, uf2)
        (tmp_path / "fw.json").write_text(json.dumps(dict(record, uf2_sha256=frozen.digest(uf2.read_bytes()))))
    elif kind == "changed":
        uf2.write_bytes(uf2_blocks(5))
    elif kind == "no manifest":
        (tmp_path / "fw.json").unlink()
    elif kind == "manifest not JSON":
        (tmp_path / "fw.json").write_text("{")
    elif kind == "manifest incomplete":
        (tmp_path / "fw.json").write_text(json.dumps({"board": frozen.PICO}))
    assert main(["deploy", "--firmware", str(uf2), "--to", str(rpi_rp2), "--board", "pico-grid"]) == 2
    one_line_error(capsys)
    assert files(rpi_rp2) == ["INDEX.HTM", "INFO_UF2.TXT"]


def test_a_drive_that_will_not_take_the_uf2_says_so(firmware, rpi_rp2, capsys, monkeypatch):
    from nimatron_host import drive

    def full(self, name, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(drive.Drive, "write_file", full)
    assert main(["deploy", "--firmware", firmware[frozen.PICO], "--to", str(rpi_rp2), "--board", "pico-grid"]) == 1
    assert "keeps the firmware it had" in one_line_error(capsys)


# ---- then CIRCUITPY


@pytest.mark.parametrize("name,cp", SERVED)
def test_circuitpy_gets_code_settings_and_data_only(name, cp, firmware, tmp_path, monkeypatch, capsys):
    drive = circuitpy(tmp_path, cp, monkeypatch)
    # a stock deploy first (the carried .mpy): its modules and libraries go when the firmware takes over
    assert main(["deploy", "--to", str(drive), "--board", name, "--offline"]) == 0
    assert (drive / "lib" / "nimatron" / "games" / "rules.mpy").is_file()
    assert (
        main(
            [
                "deploy",
                "--firmware",
                firmware[cp],
                "--to",
                str(drive),
                "--board",
                name,
                "--preset",
                boards.board(name)["preset"],
            ]
        )
        == 0
    )
    got = files(drive)
    assert not [p for p in got if p.endswith((".py", ".mpy")) and p.startswith("lib/")]
    assert {
        "code.py",
        "boot.py",
        "safemode.py",
        "settings.json",
        "lib/nimatron/config/presets.json",
        "lib/nimatron/config/pinmaps/%s.json" % name,
        "lib/nimatron/games/tables.bin",
    } <= set(got)
    assert (drive / "code.py").read_bytes() == frozen.CODE_PY
    record = _record(cp, firmware)
    assert {p for p in got if p.startswith("lib/")} <= set(record["data"]) | {
        deploy.CHOICES
    }  # the menu's lists: per board and settings
    assert deploy.CHOICES in got
    assert json.loads((drive / "settings.json").read_text())["board"] == name
    assert "frozen in" in capsys.readouterr().out


def test_the_drive_code_py_runs_the_frozen_main():
    """code.py on the drive only calls the frozen module, whose main is code.py's."""
    tree = compile(frozen.CODE_PY, "code.py", "exec")
    assert frozen.CODE_MODULE in tree.co_names and "main" in tree.co_names
    assert (
        frozen.frozen_files(frozen.PICO)[frozen.CODE_MODULE + ".py"]
        == open(os.path.join(payload.firmware_dir()[0], "code.py"), "rb").read()
    )


def test_data_changed_since_the_build_is_refused(firmware, tmp_path, monkeypatch, capsys):
    drive = circuitpy(tmp_path, frozen.PICO, monkeypatch)
    uf2 = tmp_path / "old.uf2"
    uf2.write_bytes(open(firmware[frozen.PICO], "rb").read())
    record = _record(frozen.PICO, firmware)
    record["data"]["lib/nimatron/games/tables.bin"] = "0" * 64
    (tmp_path / "old.json").write_text(json.dumps(record))
    assert main(["deploy", "--firmware", str(uf2), "--to", str(drive), "--board", "pico-grid"]) == 2
    assert "games/tables.bin" in one_line_error(capsys)
    assert files(drive) == ["boot_out.txt"]


def test_circuitpy_of_another_board_or_version_is_refused(firmware, tmp_path, monkeypatch, capsys):
    drive = circuitpy(tmp_path, frozen.PICO, monkeypatch)
    assert main(["deploy", "--firmware", firmware["adafruit_macropad_rp2040"], "--to", str(drive)]) == 2
    one_line_error(capsys)
    (drive / "boot_out.txt").write_text(BOOT_OUT[frozen.PICO].replace("9.2.8", "9.0.0"))
    assert main(["deploy", "--firmware", firmware[frozen.PICO], "--to", str(drive), "--board", "pico-grid"]) == 2
    assert "9.0.0" in one_line_error(capsys)
    assert main(["deploy", "--firmware", firmware[frozen.PICO], "--to", str(drive), "--mpy-cross", "x"]) == 2
    one_line_error(capsys)
    assert main(["deploy", "--wait", str(drive), "--to", str(drive)]) == 2
    one_line_error(capsys)
    assert files(drive) == ["boot_out.txt"]


def test_wait_deploys_to_circuitpy_once_it_appears(firmware, rpi_rp2, tmp_path, monkeypatch, capsys):
    """The board restarts into CircuitPython: the drive appears a few polls later."""
    later = tmp_path / "CIRCUITPY"
    polls = []

    def sleep(s):
        polls.append(s)
        if len(polls) == 3:
            circuitpy(tmp_path, frozen.PICO, monkeypatch)

    import time

    monkeypatch.setattr(time, "sleep", sleep)
    monkeypatch.setattr(deploy, "online", lambda *a, **k: False)
    assert (
        main(
            [
                "deploy",
                "--firmware",
                firmware[frozen.PICO],
                "--to",
                str(rpi_rp2),
                "--board",
                "pico-ring",
                "--wait",
                str(later),
            ]
        )
        == 0
    )
    assert (rpi_rp2 / os.path.basename(firmware[frozen.PICO])).is_file()
    assert (later / "code.py").read_bytes() == frozen.CODE_PY
    assert "Waiting" in capsys.readouterr().out


def test_wait_gives_up_in_one_line(firmware, rpi_rp2, tmp_path, monkeypatch, capsys):
    import time

    monkeypatch.setattr(time, "sleep", lambda s: None)
    assert (
        main(
            [
                "deploy",
                "--firmware",
                firmware[frozen.PICO],
                "--to",
                str(rpi_rp2),
                "--board",
                "pico-ring",
                "--wait",
                str(tmp_path / "never"),
            ]
        )
        == 1
    )
    assert "no CIRCUITPY drive" in one_line_error(capsys)


def test_a_stock_deploy_after_the_firmware_says_the_frozen_code_would_run(firmware, tmp_path, monkeypatch, capsys):
    """The frozen package comes first on sys.path: .py files on the drive would not run."""
    drive = circuitpy(tmp_path, frozen.PICO, monkeypatch)
    assert main(["deploy", "--firmware", firmware[frozen.PICO], "--to", str(drive), "--board", "pico-grid"]) == 0
    assert "abc123" in json.loads((drive / deploy.MANIFEST).read_text())["firmware"]
    capsys.readouterr()
    assert main(["deploy", "--to", str(drive), "--board", "pico-grid", "--offline"]) == 0
    assert "frozen modules run, not these .py files" in capsys.readouterr().out
    assert "firmware" not in json.loads((drive / deploy.MANIFEST).read_text())
    assert main(["deploy", "--to", str(drive), "--board", "pico-grid", "--offline"]) == 0
    assert "frozen modules" not in capsys.readouterr().out
