# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The ``.mpy`` builds the repository carries (``firmware/mpy/cpN/``, made by
``tools/build_mpy.py`` with CircuitPython's own mpy-cross) and ``nimatron
deploy``'s default path: the board's major gets its carried build; a board
whose major has none, a drive that does not say its version, a build older
than the sources or damaged gets ``.py``, said in one line. Needs no
mpy-cross: the digests in each manifest stand for the compiler's run."""

import json
import os
import shutil

import pytest
from hypothesis import given, settings, strategies as st
from nimatron_host import deploy, payload
from nimatron_host.cli import main

PICO = "Adafruit CircuitPython %s on 2025-05-28; Raspberry Pi Pico with rp2040\nBoard ID:raspberry_pi_pico\n"
# The majors deploy accepts (deploy.OLDEST to deploy.NEWEST): each has its carried build.
MAJORS = tuple(range(deploy.OLDEST[0], deploy.NEWEST[0] + 1))
# The first two bytes of a CircuitPython .mpy per major: 'C' and its mpy version (py/persistentcode.h).
HEADER = {8: b"C\x05", 9: b"C\x06"}


SOURCES = deploy.carried_sources()  # {path under lib/nimatron: bytes}, read once


def stale_message(major):
    why = deploy.carried_stale(major, SOURCES)
    return "firmware/mpy/cp%d: %s; rebuild it with one command: %s" % (major, why, deploy.REBUILD)


@pytest.mark.parametrize("major", MAJORS)
def test_the_carried_build_holds_todays_sources(major):
    """A source changed without a rebuild would put yesterday's bytecode on a
    maker's board (deploy notices and copies .py, slower): the suite fails first."""
    assert deploy.carried_stale(major, SOURCES) == "", stale_message(major)


@pytest.mark.parametrize("major", MAJORS)
def test_the_manifest_covers_every_module_deploy_would_copy(major):
    """Every board's drive: each module it gets is in the build, compiled for
    this major, its bytes the ones the manifest vouches for; and the build
    holds nothing else (a module deploy no longer copies is gone)."""
    from nimatron.config import boards

    manifest = deploy.carried_manifest(major)
    assert manifest is not None, "no firmware/mpy/cp%d/manifest.json: run %s" % (major, deploy.REBUILD)
    assert manifest["mpy_version"] == HEADER[major][1]
    copied = set()
    for name in boards.names():
        spec = boards.board(name)
        if spec["driver"] in payload.ONBOARD and not name.startswith("pi-"):
            copied.update(p[len(payload.LIB) :] for p in payload.firmware_files(name, spec) if deploy.compiled(p))
    assert copied and "machine/controller.py" in copied and "games/rules.py" in copied
    assert copied <= set(manifest["modules"]), stale_message(major)
    folder = deploy.carried_dir(major)
    on_disk = set()
    for root, _, names in os.walk(folder):
        on_disk.update(os.path.relpath(os.path.join(root, n), folder).replace(os.sep, "/") for n in names)
    assert on_disk == {"manifest.json"} | {p[:-3] + ".mpy" for p in manifest["modules"]}
    for path, entry in manifest["modules"].items():
        data = payload.read(os.path.join(folder, *(path[:-3] + ".mpy").split("/")))
        assert data[:2] == HEADER[major], path
        assert payload.digest(data) == entry["mpy"], path
        # the board's __file__ for it, as --mpy-cross names it: one interned name, not two
        assert ("/lib/nimatron/" + path[:-3] + ".mpy").encode() in data, path


@pytest.fixture
def drive(tmp_path, monkeypatch):
    monkeypatch.setattr(deploy, "online", lambda *a, **k: False)
    (tmp_path / "CIRCUITPY").mkdir()
    return tmp_path / "CIRCUITPY"


def deploy_to(drive, version, *args):
    if version:
        (drive / "boot_out.txt").write_text(PICO % version)
    return main(["deploy", "--to", str(drive), "--board", "pico-grid"] + list(args))


def modules(drive):
    lib = drive / "lib" / "nimatron"
    return {
        os.path.relpath(os.path.join(r, n), lib).replace(os.sep, "/")
        for r, _, names in os.walk(lib)
        for n in names
        if n.endswith((".py", ".mpy"))
    }


@pytest.mark.parametrize("version", ["9.2.8", "9.0.0", "8.2.9"])
def test_no_flags_puts_the_carried_build_for_the_boards_major(drive, version, capsys):
    assert deploy_to(drive, version) == 0
    major = int(version[0])
    got = modules(drive)
    assert "__init__.py" in got and "machine/controller.mpy" in got
    assert [m for m in got if m.endswith(".py")] == ["__init__.py"]
    for m in got - {"__init__.py"}:
        carried = payload.read(os.path.join(deploy.carried_dir(major), *m.split("/")))
        assert (drive / "lib" / "nimatron" / m).read_bytes() == carried, m
    out = capsys.readouterr().out
    assert "Modules: .mpy for CircuitPython %d.x, carried in firmware/mpy/cp%d" % (major, major) in out


def said_once(out, words):
    lines = [line for line in out.splitlines() if words in line]
    assert len(lines) == 1, out
    return lines[0]


def test_a_folder_without_boot_out_gets_py_and_says_why(drive, capsys):
    assert deploy_to(drive, None) == 0
    assert "machine/controller.py" in modules(drive) and "machine/controller.mpy" not in modules(drive)
    line = said_once(capsys.readouterr().out, "Modules: .py")
    assert "no boot_out.txt" in line and deploy.PY_COST in line


def test_a_major_with_no_carried_build_gets_py_and_says_why(drive, tmp_path, monkeypatch, capsys):
    """CircuitPython 10 writes the same mpy v6 as 9, but deploy vouches for
    no 10.x board: here a board whose major has no build carried."""
    real = deploy.carried_dir
    monkeypatch.setattr(deploy, "carried_dir", lambda major: str(tmp_path / "none") if major == 9 else real(major))
    assert deploy_to(drive, "9.2.8") == 0
    assert "machine/controller.py" in modules(drive)
    line = said_once(capsys.readouterr().out, "Modules: .py")
    assert "no .mpy build is carried for CircuitPython 9.x" in line and deploy.PY_COST in line


def copy_of_build(tmp_path, monkeypatch, major=9):
    copy = tmp_path / "cp"
    shutil.copytree(deploy.carried_dir(major), copy)
    monkeypatch.setattr(deploy, "carried_dir", lambda m: str(copy))
    return copy


@settings(max_examples=12, deadline=None)
@given(which=st.integers(min_value=0, max_value=10**6), what=st.sampled_from(["source", "mpy", "gone", "entry"]))
def test_a_stale_or_damaged_build_is_never_deployed(tmp_path_factory, which, what):
    """Any one module: its source changed since the build, its .mpy's bytes
    changed or gone, or its manifest entry gone: the drive gets .py, and
    the line names the rebuild command."""
    tmp_path = tmp_path_factory.mktemp("build")
    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(deploy, "online", lambda *a, **k: False)
        copy = copy_of_build(tmp_path, mp)
        manifest = json.loads((copy / "manifest.json").read_text())
        path = sorted(manifest["modules"])[which % len(manifest["modules"])]
        mpy = copy.joinpath(*(path[:-3] + ".mpy").split("/"))
        if what == "source":
            manifest["modules"][path]["source"] = payload.digest(b"yesterday's source")
        elif what == "entry":
            del manifest["modules"][path]
        elif what == "mpy":
            data = bytearray(mpy.read_bytes())
            data[which % len(data)] ^= 1 << (which % 8)
            mpy.write_bytes(bytes(data))
        else:
            mpy.unlink()
        (copy / "manifest.json").write_text(json.dumps(manifest))
        files = {payload.LIB + p: d for p, d in SOURCES.items()}
        line = deploy.carried_mpy(files, (9, 2, 8))
        assert deploy.REBUILD in line
        assert all(p.endswith(".py") for p in files)
    finally:
        mp.undo()


def test_a_stale_build_is_said_with_the_rebuild_command(drive, tmp_path, monkeypatch, capsys):
    copy = copy_of_build(tmp_path, monkeypatch)
    manifest = json.loads((copy / "manifest.json").read_text())
    manifest["modules"]["machine/controller.py"]["source"] = payload.digest(b"yesterday")
    (copy / "manifest.json").write_text(json.dumps(manifest))
    assert deploy_to(drive, "9.2.8") == 0
    assert "machine/controller.py" in modules(drive) and "games/rules.py" in modules(drive)
    line = said_once(capsys.readouterr().out, "Modules: .py")
    assert "machine/controller.py" in line and deploy.REBUILD in line and deploy.PY_COST in line


def test_py_asked_for_gets_py(drive, capsys):
    assert deploy_to(drive, "9.2.8", "--py") == 0
    assert [m for m in modules(drive) if m.endswith(".mpy")] == []
    said_once(capsys.readouterr().out, "Modules: .py")


def test_py_and_mpy_cross_together_is_a_usage_error(drive, capsys):
    assert deploy_to(drive, "9.2.8", "--py", "--mpy-cross", "/bin/true") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--py" in err


def test_redeploy_from_py_to_carried_removes_the_py(drive):
    """The manifest on the drive lists what deploy put there: switching to the
    carried build removes each .py it replaces (a .py beside its .mpy would
    be loaded first by CircuitPython, the slow path again)."""
    assert deploy_to(drive, "9.2.8", "--py") == 0
    assert deploy_to(drive, "9.2.8") == 0
    got = modules(drive)
    assert "machine/controller.mpy" in got and [m for m in got if m.endswith(".py")] == ["__init__.py"]


def test_hand_copied_py_never_shadows_the_carried_mpy(drive, capsys):
    """another writer: CircuitPython loads ``X.py`` before ``X.mpy``. A maker
    who copied the package by hand (no deploy manifest), then deploys: every
    .py the deploy does not put is moved to a backup, so the board runs the
    .mpy; the backups keep the maker's bytes, nothing else is touched."""
    assert deploy_to(drive, "9.2.8", "--py") == 0
    (drive / ".nimatron-deploy.json").unlink()  # as if copied by hand
    hand = drive / "lib" / "nimatron" / "machine" / "controller.py"
    hand.write_bytes(hand.read_bytes() + b"# the maker's own line\n")
    mine = hand.read_bytes()
    (drive / "lib" / "nimatron" / "notes.txt").write_text("mine")
    capsys.readouterr()
    assert deploy_to(drive, "9.2.8") == 0
    got = modules(drive)
    assert [m for m in got if m.endswith(".py")] == ["__init__.py"], got
    assert (drive / "lib" / "nimatron" / "machine" / "controller.py.bak").read_bytes() == mine
    assert (drive / "lib" / "nimatron" / "notes.txt").read_text() == "mine"
    out = capsys.readouterr().out
    assert "lib/nimatron/machine/controller.py: moved aside" in out
    capsys.readouterr()
    assert deploy_to(drive, "9.2.8") == 0  # and the next deploy has nothing to do
    assert "\n0 change(s)" in capsys.readouterr().out
    assert modules(drive) == got


def test_moving_aside_is_put_back_when_the_deploy_stops(drive, monkeypatch, capsys):
    """the file system refuses: the third rename that moves a .py aside
    fails; the drive is as it was (the .py files in place, no .mpy left)."""
    from nimatron_host.drive import Drive

    assert deploy_to(drive, "9.2.8", "--py") == 0
    (drive / ".nimatron-deploy.json").unlink()
    before = {m: (drive / "lib" / "nimatron" / m).read_bytes() for m in modules(drive)}
    real = Drive.rename
    asides = []

    def rename(disk, src, dst, check=True, plain=False):
        if dst.endswith(".py.bak"):
            asides.append(src)
            if len(asides) == 3:  # two moved aside already: they go back
                raise OSError(5, "Input/output error")
        return real(disk, src, dst, check, plain)

    monkeypatch.setattr(Drive, "rename", rename)
    assert deploy_to(drive, "9.2.8") == 1
    assert {m: (drive / "lib" / "nimatron" / m).read_bytes() for m in modules(drive)} == before
    assert len(asides) == 3 and "nothing on the drive changed" in capsys.readouterr().err


@pytest.mark.parametrize("major", MAJORS)
def test_the_carried_build_is_what_circuitpythons_mpy_cross_writes(major, tmp_path):
    """Where the compiler is at hand (the emulator's cache; CI has none): a
    rebuild gives the same bytes, so the carried drive is the one
    ``--mpy-cross`` makes, figure for figure."""
    import subprocess
    import sys

    tools = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools")
    cache = os.environ.get("CP_EMU_CACHE") or os.path.expanduser("~/.cache/nimatron-cp-emu")
    tag = {8: "8.2.9", 9: "9.2.8"}[major]
    exe = os.path.join(cache, "mpy-cross-" + tag)
    if not os.access(exe, os.X_OK):
        pytest.skip("no CircuitPython mpy-cross %s here (%s)" % (tag, exe))
    sources = SOURCES
    files = {payload.LIB + p: d for p, d in sources.items()}
    payload.compile_mpy(files, exe)
    manifest = deploy.carried_manifest(major)
    assert {p: payload.digest(files[payload.LIB + p[:-3] + ".mpy"]) for p in sources} == {
        p: manifest["modules"][p]["mpy"] for p in sources
    }, stale_message(major)
    assert subprocess.run([sys.executable, os.path.join(tools, "build_mpy.py"), "--check"]).returncode == 0
