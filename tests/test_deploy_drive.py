# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron deploy`` onto a drive that changes (the fault guide's "a drive
that changes" kind; figures in docs/reliability.md, "Deploy under faults").

- a fake drive that moves at each step of a deploy's writes: unmounted (its
  device becomes its parent folder's, the files gone from the path, or left
  in place), swapped for another board's drive, its boot_out.txt rewritten,
  a link planted where the step writes or in place of its folder; each
  before the step's check and just after it (a race the check cannot see).
  Invariant: nothing is written anywhere but the drive that was checked,
  that drive is as it was or fully deployed, and the stop is one line
  saying which.
- the bootloader drive (RPI-RP2): the same faults, and a link or a hard link
  at the UF2's name. Invariant: no host file written.
- bytes someone else wrote: Hypothesis over settings.toml's bytes (any
  encoding) and settings.json's shapes and depths. Invariant: the user's
  bytes kept exactly (settings.toml) or kept in a backup when deploy says it
  rewrites the file (settings.json); anything odd refused in one line.

Device ids need a real mount to change; here ``drive.device_id`` is the
seam a fake drive replaces (``tools/deploy_real_mount.py`` does it for real
with tmpfs, as root).
"""

import contextlib
import io
import json
import os
import shutil

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st
from kit_drive import one_line, snapshot
from nimatron_host import deploy, drive as drives, payload
from nimatron_host.cli import main

BOOT_OUT = "Adafruit CircuitPython 9.2.8 on 2025-05-28; Raspberry Pi Pico with rp2040\nBoard ID:raspberry_pi_pico\n"
OTHER_BOOT_OUT = (
    "Adafruit CircuitPython 9.2.8 on 2025-05-28; Adafruit Macropad RP2040 with rp2040\n"
    "Board ID:adafruit_macropad_rp2040\n"
)
USER_CODE = b"print('my own project')\n"
FULL = bool(os.environ.get("NIMATRON_DEPLOY_FULL"))
MOUNTED, OTHER = 1000, 1001  # the fake drive's device ids (its parent folder's is the real one)
CASES = {}


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["deploy", "--offline"] + list(args))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    monkeypatch.setattr(deploy, "online", lambda *a, **k: False)


@pytest.fixture
def devices(monkeypatch):
    """{real path: fake device id}: what ``drive.device_id`` says instead of
    ``os.stat``, as a mount would (a mount point's device differs from its parent's)."""
    fake = {}
    real = drives.device_id
    monkeypatch.setattr(drives, "device_id", lambda path: fake.get(os.path.realpath(path)) or real(path))
    return fake


@pytest.fixture
def small(monkeypatch):
    monkeypatch.setattr(drives, "_write_all", os.write)  # no fsync: hundreds of deploys
    """The whole firmware under NIMATRON_DEPLOY_FULL=1; else its entry files,
    the pin map three folders down and presets.json beside choices.txt (two
    files in one new folder; the same order of writes: folders, lib/, the
    rest, code.py last)."""
    if not FULL:
        whole = payload.firmware_files
        monkeypatch.setattr(
            payload,
            "firmware_files",
            lambda *a, **k: {
                p: d
                for p, d in whole(*a, **k).items()
                if "/" not in p
                or p.startswith("lib/nimatron/config/pinmaps/")
                or p == "lib/nimatron/config/presets.json"
            },
        )


def host(root):
    """The host's own files a link on the drive may point at: a file and a folder."""
    outside = os.path.join(root, "outside")
    os.makedirs(os.path.join(outside, "folder"))
    with open(os.path.join(outside, "victim.txt"), "wb") as f:
        f.write(b"the host's own file\n")
    return outside


def circuitpy(root, upgrade):
    """A mounted CIRCUITPY: the user's code.py and, for an upgrade, an older deploy."""
    drive = os.path.join(root, "mnt", "CIRCUITPY")
    os.makedirs(os.path.join(drive, "lib"))
    with open(os.path.join(drive, "boot_out.txt"), "w") as f:
        f.write(BOOT_OUT)
    if upgrade:
        assert run("--to", drive, "--board", "pico-grid")[0] == 0
        with open(os.path.join(drive, "lib", "nimatron", "config", "settings.py"), "ab") as f:
            f.write(b"# an older version\n")
    with open(os.path.join(drive, "code.py"), "wb") as f:
        f.write(USER_CODE)
    with open(os.path.join(drive, "settings.toml"), "wb") as f:
        f.write(b'CIRCUITPY_WIFI_SSID = "Caf\xe9"\r\n')
    return drive


class Moving:
    """The drive changes at the k-th check of deploy's writes (``Drive.check``):
    ``fault`` before the check (which must see it) or just after it ("race")."""

    def __init__(
        self, monkeypatch, devices, drive, outside, fault, k, race, marker=("boot_out.txt", BOOT_OUT, OTHER_BOOT_OUT)
    ):
        self.devices, self.drive, self.outside, self.marker = devices, os.path.realpath(drive), outside, marker
        self.fault, self.k, self.race = fault, k, race
        self.steps, self.undo, self.at, self.doing = 0, [], None, None
        real = drives.Drive.check

        def check(disk, doing, path=""):
            self.steps += 1
            if self.steps == self.k:
                self.doing = doing
            if self.steps == self.k and not self.race:
                self.move(path)
            real(disk, doing, path)
            if self.steps == self.k and self.race:
                self.move(path)

        monkeypatch.setattr(drives.Drive, "check", check)

    def move(self, path):
        drive, fault = self.drive, self.fault
        self.at = path
        if fault in ("unmount", "swap"):  # the drive's folder goes; the host's own folder is left
            os.rename(drive, drive + ".detached")  # what the held descriptor now reaches (lazy unmount)
            os.mkdir(drive)
            if fault == "swap":  # another board of the same kind: the same boot_out.txt
                with open(os.path.join(drive, self.marker[0]), "w") as f:
                    f.write(self.marker[1])
                self.devices[drive] = OTHER
            else:
                self.devices.pop(drive)
        elif fault == "unmount-in-place":  # only the device says so
            self.devices.pop(drive)
        elif fault == "reboard":  # the same device, another boot_out.txt
            with open(os.path.join(drive, self.marker[0]), "w") as f:
                f.write(self.marker[2])
            self.undo.append(("write", os.path.join(drive, self.marker[0]), self.marker[1]))
        elif fault in ("link", "folder-link", "code.py-link"):
            where = {"link": path, "code.py-link": "code.py"}.get(fault, "/".join(path.split("/")[:-1]))
            if not where:
                return
            full = os.path.join(drive, where)
            if os.path.lexists(full):
                os.rename(full, full + ".away")
                self.undo.append(("away", full))
            else:
                self.undo.append(("link", full))
            target = os.path.join(
                self.outside, "folder" if fault == "folder-link" or not os.path.splitext(where)[1] else "victim.txt"
            )
            os.symlink(target, full)

    def the_drive(self):
        """The drive that was checked (where the held descriptor leads), the fault undone."""
        if self.fault in ("unmount", "swap") and os.path.exists(self.drive + ".detached"):
            return self.drive + ".detached"
        for kind, *what in reversed(self.undo):
            if kind == "write":
                with open(what[0], "w") as f:
                    f.write(what[1])
            else:
                full = what[0]
                if os.path.islink(full):
                    os.unlink(full)
                if kind == "away" and not os.path.lexists(full):
                    os.rename(full + ".away", full)
        return self.drive


# a link: at the path the step writes, in place of its folder, or in place of the user's code.py
FAULTS = ["unmount", "unmount-in-place", "swap", "reboard", "link", "folder-link", "code.py-link"]
MOVED = ("unmount", "unmount-in-place", "swap", "reboard")  # what the check must see


def without_leftovers(snap):
    return {p: v for p, v in snap.items() if not os.path.basename(p).startswith(drives.TEMP_PREFIX + "old-")}


# Under NIMATRON_DEPLOY_FULL=1 every fault, before and after the check, on a fresh
# drive and on an upgrade (backups, files moved aside and removed). Here every
# fault before the check, and after it those whose next step differs (the
# drive's moves are all seen by the next check alike), on a fresh drive; two on an upgrade.
MOVES = [
    (fault, race, upgrade)
    for upgrade in (False, True)
    for fault in FAULTS
    for race in (False, True)
    if FULL
    or (not upgrade and (not race or fault in ("unmount", "link", "folder-link")))
    or (upgrade and (fault, race) in (("unmount", False), ("folder-link", True)))
]


@pytest.mark.slow  # about 25 deploys a case, 11 cases: 15 s on a loaded 2-core PC
@pytest.mark.parametrize(
    "fault, race, upgrade",
    MOVES,
    ids=["%s-%s-%s" % (f, "after-check" if r else "before-check", "upgrade" if u else "fresh") for f, r, u in MOVES],
)
def test_a_drive_that_moves_at_any_step_gets_nothing_written_elsewhere(
    tmp_path, monkeypatch, devices, small, fault, race, upgrade
):
    """a drive that changes: unmounted while deploy planned, the drive took 72
    files into the host's mount point and said it was done. Now, for each step
    k of the writes and each way the drive moves (before the step's check or
    just after it), nothing is written anywhere but the drive that was
    checked: the host's folder at the mount point and the host's files a link
    points at are untouched, the drive is as it was or fully deployed, and
    a drive that moved stops the deploy with one line saying its state."""
    base = tmp_path / "base"
    drive = circuitpy(str(base), upgrade)
    before = snapshot(drive)
    done = tmp_path / "done"
    shutil.copytree(base, done, symlinks=True)
    devices[os.path.realpath(done / "mnt" / "CIRCUITPY")] = MOUNTED
    assert run("--to", str(done / "mnt" / "CIRCUITPY"))[0] == 0
    deployed = snapshot(str(done / "mnt" / "CIRCUITPY"))
    k, stops = 0, 0
    while True:
        k += 1
        case = tmp_path / ("k%d" % k)
        shutil.copytree(base, case, symlinks=True)
        outside = host(str(case))
        there = os.path.join(str(case), "mnt", "CIRCUITPY")
        devices.clear()
        devices[os.path.realpath(there)] = MOUNTED
        host_before = snapshot(outside)
        with monkeypatch.context() as m:
            moving = Moving(m, devices, there, outside, fault, k, race)
            code, out, err = run("--to", there)
        if moving.steps < k:  # the deploy had fewer steps: every one was broken
            assert code == 0 and snapshot(there) == deployed
            break
        assert snapshot(outside) == host_before, (k, moving.at)  # no host file written
        if fault in ("unmount", "swap"):  # the host's own folder at the path
            assert snapshot(there) == ({} if fault == "unmount" else {"boot_out.txt": BOOT_OUT.encode()})
        left = without_leftovers(snapshot(moving.the_drive()))
        if fault in MOVED and race and code == 0:  # moved after the last check: the deploy was done
            assert moving.doing == "done" and moving.steps == k and left == deployed, (k, err)
        elif fault in MOVED:
            assert code == 1 and one_line(err) and "deploy stopped: the drive " in err, (k, err)
            assert ("was unmounted" in err) == fault.startswith("unmount"), err  # says which
            if "the Nimatron is deployed on it" in err:
                assert left == deployed, k
            else:
                assert "nothing on the drive changed" in err and left == before, (k, err)
        else:  # a link: never followed; refused in one line, or harmless (a rename replaces the link)
            assert code == 0 or (code == 1 and one_line(err) and "deploy stopped: " in err), (k, err)
            files = {
                p: v
                for p, v in left.items()
                if v != "<dir>"
                and not (  # a link in a new folder keeps it
                    "temporary file(s) could not be removed" in err
                    and p.endswith(".tmp")
                    and os.path.basename(p).startswith(drives.TEMP_PREFIX)
                )
            }
            links = [p for p, v in left.items() if isinstance(v, tuple)]  # none kept, as a backup or so
            assert not links or (race and links == ["code.py.bak"]), (k, err)  # (unless planted in the rename's
            #                                                                     microseconds after its check)
            wanted = [{p: v for p, v in snap.items() if v != "<dir>"} for snap in (before, deployed)]
            if code and "could not be put back" in err:  # the link kept deploy from a folder: named, and
                for path, data in files.items():  # each file there is the old one or the new one
                    assert data in (wanted[0].get(path), wanted[1].get(path)), (k, path, err)
            else:
                assert code == 0 or files in wanted, (k, err)
        stops += code != 0
    assert k > 10 and (stops >= k - 1 - race or fault not in MOVED)
    CASES[fault] = CASES.get(fault, 0) + k


# -- the bootloader drive (RPI-RP2)

INFO_UF2 = "UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n"


@pytest.fixture
def uf2(tmp_path):
    """A UF2 and its manifest, as tools/build_firmware.sh leaves them (the data digests are not read here)."""
    import struct

    from nimatron_host import frozen

    blob = b""
    for i in range(2):
        blob += (
            struct.pack(
                "<8I",
                frozen.UF2_MAGIC[0],
                frozen.UF2_MAGIC[1],
                frozen.UF2_FAMILY_FLAG,
                0x10000000 + 256 * i,
                256,
                i,
                2,
                frozen.RP2040_FAMILY,
            )
            + bytes(476)
            + struct.pack("<I", frozen.UF2_MAGIC[2])
        )
    path = tmp_path / "fw.uf2"
    path.write_bytes(blob)
    record = dict.fromkeys(frozen.MANIFEST_KEYS, "x")
    record.update(board=frozen.PICO, circuitpython="9.2.8", uf2_sha256=frozen.digest(blob), data={}, frozen=[])
    (tmp_path / "fw.json").write_text(json.dumps(record))
    return str(path)


@pytest.mark.parametrize(
    "fault", ["unmount", "unmount-in-place", "swap", "reboard", "link", "hard link", "dangling link", None]
)
def test_the_uf2_goes_only_onto_the_bootloader_drive_that_was_checked(tmp_path, monkeypatch, devices, uf2, fault):
    """a drive that changes: ``deploy --firmware`` wrote RPI-RP2/NAME.uf2
    with a plain open(), through a link planted there onto a host file. Now a
    link or a hard link at that name is refused, and a bootloader drive
    unmounted or swapped before the write gets nothing; one line, exit 1."""
    rp2 = tmp_path / "mnt" / "RPI-RP2"
    rp2.mkdir(parents=True)
    (rp2 / "INFO_UF2.TXT").write_text(INFO_UF2)
    outside = host(str(tmp_path))
    devices[os.path.realpath(rp2)] = MOUNTED
    name = os.path.basename(uf2)
    if fault in ("link", "dangling link"):
        os.symlink(os.path.join(outside, "victim.txt" if fault == "link" else "new.txt"), rp2 / name)
    elif fault == "hard link":
        os.link(os.path.join(outside, "victim.txt"), rp2 / name)
    host_before = snapshot(outside)
    with monkeypatch.context() as m:
        Moving(
            m,
            devices,
            str(rp2),
            outside,
            fault if fault in MOVED else None,
            1,
            False,
            ("INFO_UF2.TXT", INFO_UF2, "UF2 Bootloader v3.0\nBoard-ID: RP2350\n"),
        )
        code, out, err = run("--firmware", uf2, "--to", str(rp2), "--board", "pico-grid")
    assert snapshot(outside) == host_before
    if fault is None:
        assert code == 0 and (rp2 / name).read_bytes() == open(uf2, "rb").read()
    else:
        assert code == 1 and one_line(err) and ("cannot copy %s" % name) in err, err
        if fault in ("unmount", "swap"):
            assert sorted(os.listdir(rp2)) == ([] if fault == "unmount" else ["INFO_UF2.TXT"])
            assert (rp2 / "INFO_UF2.TXT").read_text() == INFO_UF2 if fault == "swap" else True
    CASES["rpi-rp2"] = CASES.get("rpi-rp2", 0) + 1


def test_a_link_in_a_folder_on_the_way_is_refused_before_writing(tmp_path, devices):
    """never follows a link on a drive: ``lib`` a link to a folder inside the drive."""
    drive = circuitpy(str(tmp_path), False)
    shutil.rmtree(os.path.join(drive, "lib"))
    os.mkdir(os.path.join(drive, "elsewhere"))
    os.symlink(os.path.join(drive, "elsewhere"), os.path.join(drive, "lib"))
    before = snapshot(drive)
    code, _, err = run("--to", drive)
    assert code == 1 and one_line(err) and "lib on %s is a link" % drive in err and "nothing written" in err
    assert snapshot(drive) == before


# -- bytes someone else wrote: settings.toml and settings.json


def stack_line(size, end=b"\n"):
    return b"%s = %d%s" % (deploy.PYSTACK_KEY.encode(), size, end)


TOML_LINES = st.lists(
    st.one_of(
        st.binary(max_size=30).filter(lambda b: b"\n" not in b),
        st.sampled_from(
            [
                b'CIRCUITPY_WIFI_SSID = "Caf\xe9 M\xfcller"',
                b'CIRCUITPY_WIFI_SSID = "Caf\xc3\xa9"\r',
                b"\xef\xbb\xbfCIRCUITPY_WEB_API_PORT = 80",
                b"# \xff\xfe",
                b"",
                b"\r",
                b"\xff\xfeC\x00I\x00R\x00",
                b"a = \x00",
                stack_line(1536, b""),
                stack_line(16384, b"\r"),
                stack_line(4096, b""),
                deploy.PYSTACK_NOTE.encode() + b"\n" + stack_line(12288, b""),
                deploy.PYSTACK_NOTE.encode() + b"\r\n" + stack_line(4096, b"\r"),
            ]
        ),
    ),
    max_size=6,
)


@settings(max_examples=60 if not FULL else 600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TOML_LINES, st.booleans(), st.sampled_from(["pico-neopixel", "pico-grid"]))
@example([deploy.PYSTACK_NOTE.encode() + b"\r\n" + stack_line(4096, b"\r")], True, "pico-grid")  # own line, CRLF
@example([b'CIRCUITPY_WIFI_SSID = "Caf\xe9"\r'], True, "pico-grid")  # Notepad's: Latin-1, CRLF
@example([b"\xff\xfeC\x00I\x00"], False, "pico-grid")  # Notepad's "Unicode": UTF-16
def test_settings_toml_keeps_every_byte_but_deploys_own_line(lines, ends, board):
    """bytes someone else wrote: a Latin-1 settings.toml (Notepad's "ANSI")
    came back with U+FFFD for every byte >= 0x80, no backup. Now, whatever
    its bytes, every one of them is kept: the file is left as it was, or
    deploy's two lines are added after it, or only deploy's own line (under
    its note) changes; a file holding NUL is refused in one line."""
    old = b"\n".join(lines) + (b"\n" if ends and lines else b"")
    CASES["settings.toml"] = CASES.get("settings.toml", 0) + 1
    spec = {"input": "rows" if board == "pico-neopixel" else "grid"}
    size = deploy.pystack_size(board, spec)
    try:
        new, note = deploy.settings_toml("D", old, spec, board)
    except deploy.UsageError as e:
        assert b"\0" in old and "holds NUL bytes" in str(e)
        return
    assert b"\0" not in old  # UTF-16 or not text: refused, never appended to
    if new is None:
        return
    note_line = deploy.PYSTACK_NOTE.encode()
    if new.startswith(old):  # added: the old bytes, a line end, the note and the line
        tail = new[len(old) :]
        end = b"\r\n" if b"\r\n" in old else b"\n"
        assert tail in (note_line + end + stack_line(size, end), end + note_line + end + stack_line(size, end))
        assert not old or old.endswith(b"\n") or tail.startswith(end)
    else:  # one line changed: deploy's own, under its note
        a, b = old.split(b"\n"), new.split(b"\n")
        changed = [i for i in range(max(len(a), len(b))) if a[i : i + 1] != b[i : i + 1]]
        assert len(a) == len(b) and len(changed) == 1, (old, new)
        i = changed[0]
        assert a[i - 1].strip() == note_line and b[i].rstrip(b"\r") == stack_line(size, b"")
        assert b[i].endswith(b"\r") == a[i].endswith(b"\r")


def test_a_latin1_settings_toml_is_kept_byte_for_byte(tmp_path, devices):
    """The finding's own file, through the command."""
    drive = circuitpy(str(tmp_path), False)
    path = os.path.join(drive, "settings.toml")
    old = open(path, "rb").read()
    code, out, _ = run("--to", drive)
    new = open(path, "rb").read()
    assert code == 0 and new.startswith(old) and new[len(old) :].count(b"\r\n") == 2
    assert "settings.toml is not UTF-8" in out
    assert run("--to", drive)[0] == 0 and open(path, "rb").read() == new  # and left alone from then on


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=12,
)


def nested(depth, leaf):
    return ("[" * depth + leaf + "]" * depth).encode() if depth % 2 else ('{"a":' * depth + leaf + "}" * depth).encode()


SETTINGS_JSON = st.one_of(
    JSON.map(lambda v: json.dumps(v).encode()),
    st.dictionaries(st.sampled_from(["board", "preset", "volume", "rules", "x"]), JSON, max_size=3).map(
        lambda v: json.dumps(v).encode()
    ),
    st.builds(
        lambda d, leaf: b'{"volume": 3, "deep": ' + nested(d, leaf) + b"}",
        st.integers(0, 200),
        st.sampled_from(["1", '"x"', "null"]),
    ),
    st.builds(nested, st.sampled_from([10, 17, 1000, 100000]), st.sampled_from(["1", "{}"])),
    st.binary(max_size=20),
    st.sampled_from(
        [
            b"\xff\xfe{\x00}\x00",
            b'{"board": "pico-grid"',
            b"1" * 5000,
            b'{"a": NaN}',
            b"{}",
            b'{"board": 5}',
            b'{"volume": 1e999}',
            b'{"name": "\\ud800"}',
        ]
    ),
)


@settings(max_examples=40 if not FULL else 400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SETTINGS_JSON)
@example(b'{"volume": 3,  "brightness": 0.5}')  # someone's: rewritten with the board added, kept as a backup
@example(b'{"a":' * 100000 + b"1" + b"}" * 100000)
def test_any_settings_json_is_read_or_refused_in_one_line(data):
    """bytes someone else wrote: a settings.json nested 100,000 deep ended
    deploy in a RecursionError traceback. Any shape, any depth, any bytes:
    deployed (and the user's file kept as a backup if deploy rewrote it, said
    in its output), or refused in one line, exit 2, nothing written."""
    import tempfile

    with tempfile.TemporaryDirectory() as root:
        drive = os.path.join(root, "CIRCUITPY")
        os.makedirs(drive)
        with open(os.path.join(drive, "boot_out.txt"), "w") as f:
            f.write(BOOT_OUT)
        with open(os.path.join(drive, "settings.json"), "wb") as f:
            f.write(data)
        before = snapshot(drive)
        code, out, err = run("--to", drive, "--dry-run")
        assert code in (0, 2) and (code == 0 or one_line(err)), (data[:80], code, err[-300:])
        assert snapshot(drive) == before
        CASES["settings.json"] = CASES.get("settings.json", 0) + 1
        if code == 2:
            return
        code, out, err = run("--to", drive)
        assert code == 0, err
        now = open(os.path.join(drive, "settings.json"), "rb").read()
        if now != data:
            assert (
                "  backup     settings.json.bak" in out
                and open(os.path.join(drive, "settings.json.bak"), "rb").read() == data
            )


@pytest.mark.parametrize(
    "data, message",
    [
        (b'{"a":' * 100000 + b"1" + b"}" * 100000, "nested too deep to read"),
        (b'{"a":' * 17 + b"1" + b"}" * 17, "nested more than 16 deep"),
        (b"[1, 2]", "holds a JSON list, not an object"),
        (b"{", "is not valid JSON"),
        (b"\xff{}", "is not UTF-8 text"),
    ],
)
def test_an_odd_settings_json_is_refused_in_one_line(tmp_path, data, message):
    drive = circuitpy(str(tmp_path), False)
    open(os.path.join(drive, "settings.json"), "wb").write(data)
    before = snapshot(drive)
    code, _, err = run("--to", drive)
    assert code == 2 and one_line(err) and message in err and "nothing written" in err, err
    assert snapshot(drive) == before


def test_zz_figures(capsys):
    """The cases each generator ran (``pytest -s`` shows them; docs/reliability.md)."""
    with capsys.disabled():
        print("\ndeploy drive cases:", ", ".join("%s %d" % kv for kv in sorted(CASES.items())))
