# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron deploy`` under faults: generators, one per kind (docs/reliability.md,
"Deploy under faults"; the kinds are those of /work/shared/guide/faults.md).

- input from someone else's device: manifests drawn by Hypothesis (``..``,
  absolute paths, links, backslashes, NUL, odd unicode, not a dict at all)
  and boot_out.txt variants. Invariant: nothing outside the drive is touched,
  no user file is lost, a refusal is one line.
- the file system refuses: ENOSPC at the k-th write and EIO at the k-th
  rename, for every k. Invariant: the drive is as it was or fully deployed,
  the user's code.py is never lost, one line and exit 1.
- repetition: deploys and edits in any order. Invariant: every version of the
  user's work is still on the drive.
"""

import contextlib
import errno
import hashlib
import io
import json
import os
import shutil
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from kit_drive import one_line, snapshot
from nimatron_host import deploy, payload
from nimatron_host.cli import main
from nimatron_host.drive import Drive

PICO = "Adafruit CircuitPython %s on 2025-05-28; Raspberry Pi Pico with rp2040\nBoard ID:raspberry_pi_pico\n"
BOOT_OUT = PICO % "9.2.8"
USER_CODE = b"print('my own project')\n"
CASES = {}  # kind -> examples run, for the figures in docs/reliability.md (pytest -s prints them)
# NIMATRON_DEPLOY_FULL=1: ten times the examples, and the every-k faults over the whole firmware
# instead of its entry files, config/ and libraries (docs/reliability.md has the figures).
FULL = bool(os.environ.get("NIMATRON_DEPLOY_FULL"))


def examples(n):
    return n * 10 if FULL else n


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    monkeypatch.setattr(deploy, "online", lambda *a, **k: False)


def run(drive, *args):
    """(exit status, stdout, stderr) of ``nimatron deploy --to drive``."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["deploy", "--to", str(drive), "--offline"] + list(args))
    return code, out.getvalue(), err.getvalue()


def kept(drive, path, data):
    """True if ``data`` is on the drive at ``path`` or one of its backup names."""
    names = [path] + [
        n
        for n in os.listdir(os.path.join(drive, os.path.dirname(path)) or drive)
        if n.startswith(os.path.basename(path) + ".") and n.endswith(".bak")
    ]
    for name in names:
        full = os.path.join(drive, os.path.dirname(path), os.path.basename(name))
        if os.path.isfile(full) and open(full, "rb").read() == data:
            return True
    return False


def new_drive(root, boot_out=BOOT_OUT):
    drive = os.path.join(root, "drive")
    os.makedirs(os.path.join(drive, "lib"))
    with open(os.path.join(drive, "boot_out.txt"), "w") as f:
        f.write(boot_out)
    return drive


# -- input from someone else's device: the manifest ---------------------------------------

SEGMENT = st.one_of(
    st.sampled_from(
        [
            "..",
            ".",
            "",
            "lib",
            "nimatron",
            "escape",
            "victim.txt",
            "code.py",
            "notes.txt",
            "user_lib.py",
            "x.py",
            "a\\..\\b",
            "a\0b",
            "\ud800",
        ]
    ),
    st.text(min_size=1, max_size=8),
)


def manifest_path(outside):
    """Paths a planted manifest may name: inside, outside, through a link, odd."""
    victim = os.path.join(outside, "victim.txt")
    return st.one_of(
        st.sampled_from(
            [
                "../outside/victim.txt",
                victim,
                "escape/victim.txt",
                "lib/nimatron/../../../outside/victim.txt",
                "..\\outside\\victim.txt",
                "lib/nimatron/escape/victim.txt",
                "notes.txt",
                "code.py",
                "lib/user_lib.py",
                "lib/nimatron/stale.py",
                "lib/nimatron",
                "lib/nimatron/",
                ".",
                "",
                "lib//nimatron/x.py",
                "/",
                "lib/neopixel.py",
                "lib/nimatron/\u00e9t\u00e9.py",
            ]
        ),
        st.lists(SEGMENT, min_size=1, max_size=4).map("/".join),
        st.lists(SEGMENT, min_size=1, max_size=3).map(lambda p: "lib/nimatron/" + "/".join(p)),
    )


def manifest_bytes(outside):
    """A manifest's bytes: a record of paths whose digests tempt deletion
    (the victim's, the stale file's), or something that is not a record at all."""
    victim = hashlib.sha256(b"victim\n").hexdigest()
    stale = hashlib.sha256(b"# stale\n").hexdigest()
    digests = st.one_of(st.sampled_from([victim, stale]), st.text(max_size=70), st.integers(), st.none())
    record = st.dictionaries(manifest_path(outside), digests, max_size=6).map(
        lambda files: json.dumps({"tool": "nimatron deploy", "files": files}).encode()
    )
    other = st.one_of(
        st.sampled_from(
            [
                b"[]",
                b'"files"',
                b"null",
                b"17",
                b'{"files": []}',
                b'{"files": {"x": 5}}',
                b"\xff\xfe not utf-8",
                b"{",
                b"[" * 100000,
                b"",
            ]
        ),
        st.recursive(
            st.none() | st.integers() | st.text(max_size=5),
            lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
        ).map(lambda v: json.dumps(v).encode()),
    )
    return st.one_of(record, record, other)


@st.composite
def planted(draw):
    """(manifest bytes, links): a drive someone else prepared."""
    outside = os.path.join(tempfile.gettempdir(), "OUTSIDE")  # replaced by the real folder below
    links = draw(
        st.sets(st.sampled_from(["escape", "lib/nimatron", "lib/nimatron/escape", "code.py", "notes.txt"]), max_size=2)
    )
    return draw(manifest_bytes(outside)), sorted(links)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(planted())
def test_a_planted_manifest_never_reaches_outside_the_drive(case):
    """input from someone else's device: 2 host files outside the drive were
    deleted by a manifest naming ``../x`` and ``/abs/x``. Now nothing outside
    is touched, whatever the manifest and whatever links sit on the drive."""
    data, links = case
    with tempfile.TemporaryDirectory() as root:
        outside = os.path.join(root, "outside")
        os.makedirs(os.path.join(outside, "nimatron"))
        for name in ("victim.txt", "nimatron/stale.py"):
            with open(os.path.join(outside, name), "wb") as f:
                f.write(b"victim\n" if name == "victim.txt" else b"# stale\n")
        drive = new_drive(root)
        user = {
            "code.py": USER_CODE,
            "notes.txt": b"my notes\n",
            "lib/user_lib.py": b"# mine\n",
            "lib/nimatron/stale.py": b"# stale\n",
        }
        for path, body in user.items():
            os.makedirs(os.path.dirname(os.path.join(drive, path)), exist_ok=True)
            with open(os.path.join(drive, path), "wb") as f:
                f.write(body)
        for link in links:
            full = os.path.join(drive, link)
            if os.path.lexists(full):
                shutil.rmtree(full) if os.path.isdir(full) and not os.path.islink(full) else os.unlink(full)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            os.symlink(
                os.path.join(outside, "victim.txt")
                if link.endswith(".txt") or link.endswith(".py")
                else (outside if link != "lib/nimatron" else os.path.join(outside, "nimatron")),
                full,
            )
        data = data.replace(os.path.join(tempfile.gettempdir(), "OUTSIDE").encode(), outside.encode())
        with open(os.path.join(drive, deploy.MANIFEST), "wb") as f:
            f.write(data)
        before = snapshot(outside)
        code, out, err = run(drive)
        assert snapshot(outside) == before  # nothing outside the drive touched
        assert code in (0, 1) and (code == 0 or one_line(err)), (code, err)
        if code == 1:
            assert "nothing written" in err
        for path, body in user.items():  # the user's files never lost
            if not any(path == link or path.startswith(link + "/") for link in links):
                assert path == "lib/nimatron/stale.py" or kept(drive, path, body), path
        if code == 0 and "lib/nimatron" not in links:
            # a deploy removes only what the manifest vouches for, in its own folders
            assert kept(drive, "lib/nimatron/stale.py", b"# stale\n") or payload.digest(b"# stale\n") in data.decode(
                "utf-8", "replace"
            )
    CASES["manifest"] = CASES.get("manifest", 0) + 1


def test_the_reported_repro_deletes_nothing_outside(tmp_path, capsys):
    """input from someone else's device: the finding's own commands."""
    drive = new_drive(str(tmp_path))
    assert run(drive)[0] == 0
    (tmp_path / "victim.txt").write_text("victim\n")
    (tmp_path / "abs.txt").write_text("victim\n")
    path = os.path.join(drive, deploy.MANIFEST)
    record = json.load(open(path))
    record["files"]["../victim.txt"] = record["files"][str(tmp_path / "abs.txt")] = payload.digest(b"victim\n")
    json.dump(record, open(path, "w"))
    code, out, err = run(drive)
    assert code == 0 and "removed" not in out
    assert (tmp_path / "victim.txt").exists() and (tmp_path / "abs.txt").exists()
    assert "names 2 path(s) outside the drive" in out


@pytest.mark.parametrize(
    "path, inside",
    [
        ("lib/nimatron/x.py", True),
        ("code.py", True),
        ("lib/nimatron/\u00e9t\u00e9.py", True),
        ("../x", False),
        ("/etc/passwd", False),
        ("lib/../../x", False),
        ("lib\\x.py", False),
        ("a\0b", False),
        ("", False),
        (".", False),
        ("lib//x", False),
        ("lib/", False),
        ("\ud800", False),
        (5, False),
        (None, False),
    ],
)
def test_which_manifest_paths_are_inside(tmp_path, path, inside):
    assert deploy.Plan(str(tmp_path)).inside(path) is inside


def test_a_link_leading_out_is_not_inside(tmp_path):
    (tmp_path / "drive").mkdir()
    (tmp_path / "drive" / "escape").symlink_to(tmp_path)
    (tmp_path / "drive" / "inner").symlink_to(tmp_path / "drive")
    plan = deploy.Plan(str(tmp_path / "drive"))
    assert not plan.inside("escape/x") and plan.inside("inner/x")


def test_a_folder_of_ours_that_links_outside_refuses_before_writing(tmp_path):
    """input from someone else's device: ``lib/nimatron`` a link out of the drive."""
    drive = new_drive(str(tmp_path))
    (tmp_path / "outside").mkdir()
    os.symlink(str(tmp_path / "outside"), os.path.join(drive, "lib", "nimatron"))
    before = snapshot(str(tmp_path))
    code, _, err = run(drive)
    assert code == 1 and one_line(err) and "leads outside the drive" in err and "nothing written" in err
    assert snapshot(str(tmp_path)) == before


@pytest.mark.parametrize("what", ["folder", "link"])
def test_code_py_that_is_not_a_file_is_refused(tmp_path, what):
    drive = new_drive(str(tmp_path))
    target = os.path.join(drive, "code.py")
    os.mkdir(target) if what == "folder" else os.symlink(os.path.join(drive, "boot_out.txt"), target)
    before = snapshot(drive)
    code, _, err = run(drive)
    assert code == 1 and one_line(err) and "is not a plain file" in err
    assert snapshot(drive) == before


# -- repetition: the user's work through any number of deploys -------------------------------

OPS = st.lists(
    st.one_of(
        st.tuples(
            st.just("edit"),
            st.sampled_from(["code.py", "boot.py", "safemode.py", "lib/nimatron/machine/app.py", "lib/neopixel.py"]),
            st.binary(max_size=12),
        ),
        st.tuples(st.just("deploy"), st.sampled_from(["pico-neopixel", "pico-grid"]), st.none()),
    ),
    min_size=1,
    max_size=5,
)
BACKUPS = st.dictionaries(
    st.sampled_from(["code.py.bak", "code.py.1.bak", "code.py.3.bak", "boot.py.bak"]), st.binary(max_size=6), max_size=3
)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(BACKUPS, OPS)
def test_every_version_of_the_users_work_survives_any_deploys(backups, ops):
    """repetition: deploy over an existing ``code.py.bak``, or twice after
    editing code.py, destroyed the user's only copy. Every version the user
    wrote is still on the drive after any deploys and edits, in any order."""
    with tempfile.TemporaryDirectory() as root:
        drive = new_drive(root)
        current, seen = {}, set()  # the user's files now; every version a deploy saw
        for name, data in backups.items():  # backups of the user's own, already there
            with open(os.path.join(drive, name), "wb") as f:
                f.write(b"# user's backup: " + data)
            seen.add((name, b"# user's backup: " + data))
        for op, what, data in ops + [("deploy", "pico-neopixel", None)]:
            if op == "edit":
                path = os.path.join(drive, what)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "wb") as f:
                    f.write(b"# user: " + data)
                current[what] = b"# user: " + data
                continue
            seen.update(current.items())
            code, _, err = run(drive, "--board", what)
            assert code == 0, err
            for path, body in seen:
                base = path[: path.index(".py") + 3]
                assert kept(drive, base, body), (path, body, sorted(os.listdir(drive)))
    CASES["repetition"] = CASES.get("repetition", 0) + 1


BOARD_IDS = {
    "pico-neopixel": "raspberry_pi_pico",
    "pico-grid": "raspberry_pi_pico",
    "pico-ring": "raspberry_pi_pico",
    "macropad": "adafruit_macropad_rp2040",
}
OTHER_LINES = st.lists(
    st.sampled_from(['CIRCUITPY_WIFI_SSID = "museum"', "# a note of mine", "", "CIRCUITPY_WEB_API_PORT = 8080"]),
    max_size=3,
)
STACK_LINE = st.one_of(  # at most one (TOML keys are unique): someone's own, or one under deploy's note
    st.none(),
    st.builds("CIRCUITPY_PYSTACK_SIZE = {}".format, st.sampled_from([1536, 4096, 6144, 8192, 12288, 16384])),
    st.builds(
        lambda n: deploy.PYSTACK_NOTE + "\nCIRCUITPY_PYSTACK_SIZE = %d" % n, st.sampled_from([4096, 6144, 12288, 16384])
    ),
)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(OTHER_LINES, STACK_LINE, st.integers(0, 3), st.lists(st.sampled_from(sorted(BOARD_IDS)), min_size=1, max_size=4))
def test_settings_toml_keeps_the_users_lines_through_any_deploys(other, stack, at, boards):
    """merged file: deploy adds or updates only its own Python stack line
    (under its note, with a size deploy gives: the MacroPad's 6,144 was
    pico-grid's 12,288 before); every other line of someone's survives any
    deploys to any boards, in order, and after each the stack is the
    board's size, or someone's own value stays (a lower one said)."""
    lines = list(other)
    if stack is not None:
        lines.insert(min(at, len(lines)), stack)
    ours = (
        stack is not None
        and stack.startswith(deploy.PYSTACK_NOTE)
        and int(stack.rsplit(" ", 1)[1]) in (deploy.PYSTACK_ROWS, deploy.PYSTACK_GRID, *deploy.PYSTACK_BOARDS.values())
    )
    user = [line for item in lines if not (ours and item == stack) for line in item.split("\n")]
    with tempfile.TemporaryDirectory() as root:
        drive = new_drive(root)
        with open(os.path.join(drive, "settings.toml"), "w") as f:
            f.write("\n".join(lines) + ("\n" if lines else ""))
        for board in boards:
            with open(os.path.join(drive, "boot_out.txt"), "w") as f:
                f.write(
                    "Adafruit CircuitPython 9.2.8 on 2025-05-28; a board with rp2040\nBoard ID:%s\n" % BOARD_IDS[board]
                )
            code, out, err = run(drive, "--board", board)
            assert code == 0, err
            text = open(os.path.join(drive, "settings.toml")).read().splitlines()
            want = deploy.pystack_size(board, {"input": "rows" if board == "pico-neopixel" else "grid"})
            stacks = [i for i, line in enumerate(text) if line.startswith("CIRCUITPY_PYSTACK_SIZE")]
            assert len(stacks) == 1, text
            size = int(text[stacks[0]].split("=")[1])
            if user == [line for line in text if line] or user == text:  # someone's line: kept as it was
                assert size >= want or "sets CIRCUITPY_PYSTACK_SIZE below %d" % want in out, (text, out)
            else:  # deploy's own line, under its note, at this board's size; the rest as it was
                assert size == want and text[stacks[0] - 1] == deploy.PYSTACK_NOTE, text
                rest = text[: stacks[0] - 1] + text[stacks[0] + 1 :]
                assert [line for line in rest if line] == [line for line in user if line], (text, user)
    CASES["merged"] = CASES.get("merged", 0) + 1


def test_backups_are_numbered_and_never_overwritten(tmp_path):
    """repetition: the finding's case, step by step."""
    drive = new_drive(str(tmp_path))
    code_py = os.path.join(drive, "code.py")
    open(os.path.join(drive, "code.py.bak"), "w").write("mine v1\n")
    open(code_py, "w").write("mine v2\n")
    assert run(drive)[1].count("  backup     code.py.1.bak\n") == 1
    open(code_py, "w").write("mine v3\n")
    assert "  backup     code.py.2.bak\n  updated    code.py\n" in run(drive)[1]
    assert [open(os.path.join(drive, n)).read() for n in ("code.py.bak", "code.py.1.bak", "code.py.2.bak")] == [
        "mine v1\n",
        "mine v2\n",
        "mine v3\n",
    ]
    edited = os.path.join(drive, "lib", "nimatron", "machine", "app.mpy")  # one of ours, edited: the user's now
    open(edited, "ab").write(b"# my change\n")
    mine = open(edited, "rb").read()
    assert "  backup     lib/nimatron/machine/app.mpy.bak\n" in run(drive)[1]
    assert open(edited + ".bak", "rb").read() == mine
    open(code_py, "w").write("mine v3\n")  # the same bytes again: kept once
    code, out, _ = run(drive)
    assert code == 0 and "code.py: already kept as code.py.2.bak" in out and not os.path.exists(code_py + ".3.bak")


# -- the file system refuses: a fault at every write and every rename ------------------------


class Faults:
    """Breaks deploy's k-th write (ENOSPC, and every write after it: a full
    drive stays full) or its k-th rename (EIO, once or from then on)."""

    def __init__(self, monkeypatch, kind, k):
        self.kind, self.k, self.writes, self.renames = kind, k, 0, 0
        real_stage, real_rename = Drive.stage, Drive.rename

        def stage(disk, folder, data):
            self.writes += 1
            if kind == "write" and self.writes >= k:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            return real_stage(disk, folder, data)

        def rename(disk, src, dst, check=True, plain=False):
            self.renames += 1
            if (kind == "rename" and self.renames == k) or (kind == "renames" and self.renames >= k):
                raise OSError(errno.EIO, os.strerror(errno.EIO))
            return real_rename(disk, src, dst, check, plain)

        monkeypatch.setattr(Drive, "stage", stage)
        monkeypatch.setattr(Drive, "rename", rename)


def upgrade_drive(root):
    """A drive an older Nimatron was deployed on, then the user edited code.py
    and one module: an upgrade renames, backs up, moves aside and removes."""
    drive = new_drive(root)
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["deploy", "--to", drive, "--offline", "--board", "pico-grid"]) == 0
    path = os.path.join(drive, deploy.MANIFEST)
    record = json.load(open(path))
    for name in ("lib/nimatron/config/settings.py", "boot.py", "lib/nimatron/config/power.py"):  # an older version
        body = b"# older " + name.encode() + b"\n"
        open(os.path.join(drive, name), "wb").write(body)
        record["files"][name] = payload.digest(body)
    json.dump(record, open(path, "w"))
    open(os.path.join(drive, "code.py"), "wb").write(USER_CODE)
    open(os.path.join(drive, "lib", "nimatron", "config", "boards.py"), "a").write("# my change\n")
    return drive


def fresh_drive(root):
    drive = new_drive(root)
    open(os.path.join(drive, "code.py"), "wb").write(USER_CODE)
    open(os.path.join(drive, "lib", "user_lib.py"), "wb").write(b"# mine\n")
    return drive


@pytest.mark.parametrize("start", [fresh_drive, upgrade_drive])
@pytest.mark.parametrize("kind", ["write", "rename", "renames"])
def test_a_fault_at_every_step_leaves_the_drive_as_it_was_or_deployed(tmp_path, monkeypatch, start, kind):
    """the file system refuses: a nearly full drive was left half-deployed, the
    user's code.py replaced, "No space left on device" after listing every
    file as written. Now, for every k, a fault at the k-th write or rename
    leaves the drive as it was (all put back) or fully deployed; if putting
    back fails too ("renames": every rename from k on fails), the user's
    code.py is still on the drive and the line says what could not be put back."""
    if not FULL:  # the same order (lib/, the others, the manifest, code.py last) over fewer files
        whole = payload.firmware_files
        monkeypatch.setattr(
            payload,
            "firmware_files",
            lambda *a, **k: {
                p: d for p, d in whole(*a, **k).items() if "/" not in p or p.startswith("lib/nimatron/config/")
            },
        )
    base = str(tmp_path / "base")
    drive = start(base)
    before = snapshot(drive)
    done = str(tmp_path / "done")
    shutil.copytree(base, done, symlinks=True)
    assert run(os.path.join(done, "drive"))[0] == 0
    deployed = snapshot(os.path.join(done, "drive"))
    user_code = before["code.py"]
    k, failures = 0, 0
    while True:
        k += 1
        case = str(tmp_path / ("k%d" % k))
        shutil.copytree(base, case, symlinks=True)
        with monkeypatch.context() as m:
            faults = Faults(m, kind, k)
            code, out, err = run(os.path.join(case, "drive"))
        after = snapshot(os.path.join(case, "drive"))
        if code == 0:
            assert after == deployed
            break
        failures += 1
        assert code == 1 and one_line(err) and err.startswith("nimatron deploy: deploy stopped: "), err
        if kind != "renames":
            assert after == before, k
            assert "nothing on the drive changed (it still runs the code.py it had)" in err
        else:
            assert after == before or kept(os.path.join(case, "drive"), "code.py", user_code), (k, err)
            assert after == before or "could not be put back" in err, err
        shutil.rmtree(case)
    steps = faults.writes if kind == "write" else faults.renames
    assert failures == steps and failures > 2  # every step was broken once
    CASES[kind] = CASES.get(kind, 0) + failures + 1


def test_a_drive_too_full_is_refused_before_anything_is_written(tmp_path, monkeypatch):
    """the file system refuses: the space is checked first, in one line with both figures."""
    drive = fresh_drive(str(tmp_path))
    before = snapshot(drive)
    real = shutil.disk_usage(drive)
    monkeypatch.setattr(deploy.shutil, "disk_usage", lambda path: real._replace(free=200 * 1024))
    code, out, err = run(drive)
    assert code == 1 and one_line(err) and snapshot(drive) == before
    assert "not enough space on %s: the deploy needs " % drive in err and "200 KB is free; nothing written" in err
    assert "  new " not in out  # nothing listed as written


def test_an_unchanged_drive_needs_no_space(tmp_path, monkeypatch):
    drive = fresh_drive(str(tmp_path))
    assert run(drive)[0] == 0
    real = shutil.disk_usage(drive)
    monkeypatch.setattr(deploy.shutil, "disk_usage", lambda path: real._replace(free=8192))
    assert run(drive)[0] == 0


# -- input from someone else's device: boot_out.txt ------------------------------------------


@pytest.mark.parametrize(
    "boot_out, status, message",
    [
        (
            b"Adafruit CircuitPython 9.2.8 on 2025-05-28; Adafruit Feather RP2040 with rp2040\n"
            b"Board ID:adafruit_feather_rp2040\n",
            2,
            "pin map pico-neopixel wires pins by their GPn names (GP0, GP2, GP3...); the drive's board "
            "adafruit_feather_rp2040 is not a Raspberry Pi Pico",
        ),
        (
            b"Adafruit CircuitPython 9.2.8 on 2025-05-28; Raspberry Pi Pico 2 with rp2350a\nBoard ID:raspberry_pi_pico2\n",
            2,
            "board raspberry_pi_pico2 has an RP2350A; the Nimatron is tested only on the RP2040",
        ),
        (b"Adafruit CircuitPython 9.2.8 on 2025-05-28; Raspberry Pi Pico 2 with rp2350a\n", 2, "has an RP2350A"),
        (
            b"Adafruit CircuitPython 9.2.8 on 2025-05-28; Raspberry Pi Pico W with rp2040\nBoard ID:raspberry_pi_pico_w\n",
            2,
            "the drive's board raspberry_pi_pico_w is not a Raspberry Pi Pico",
        ),
        (PICO.encode() % b"10.0.0", 2, "runs CircuitPython 10.0.0; the Nimatron is tested up to 9.2.8"),
        (PICO.encode() % b"10.0.0-beta.2", 2, "runs CircuitPython 10.0.0; the Nimatron is tested up to 9.2.8"),
        (b"garbage\n", 1, "boot_out.txt is not CircuitPython's (it reads 'garbage')"),
        (b"", 1, "boot_out.txt is empty"),
        (b"\n\n", 1, "boot_out.txt is empty"),
        (b"Adafruit CircuitPython \xff\xfe on 2025; Raspberry Pi Pico with rp2040\n", 1, "boot_out.txt is not text"),
        (
            b"Adafruit CircuitPython 9.2.8 on 2025-05-28; Some Board Nobody Makes with esp32s3\n",
            2,
            "boot_out.txt names a board deploy does not know",
        ),
        (
            b"Adafruit CircuitPython x.y on 2025; \x1b[2J\n",
            1,
            "boot_out.txt is not CircuitPython's (it reads 'Adafruit CircuitPython x.y on 2025; ?[2J')",
        ),
    ],
)
def test_a_board_or_version_deploy_cannot_vouch_for_is_refused(tmp_path, boot_out, status, message):
    """input from someone else's device: a Feather RP2040, a Pico 2,
    CircuitPython 10 and a boot_out.txt reading "garbage" were accepted
    without a word. Each is refused in one line; nothing is written."""
    drive = new_drive(str(tmp_path))
    open(os.path.join(drive, "boot_out.txt"), "wb").write(boot_out)
    code, out, err = run(drive)
    assert code == status and one_line(err) and message in err, err
    assert set(snapshot(drive)) == {"boot_out.txt", "lib"}
    CASES["boot_out"] = CASES.get("boot_out", 0) + 1


def test_a_boot_out_that_is_a_folder_is_refused(tmp_path):
    drive = str(tmp_path)
    os.mkdir(os.path.join(drive, "boot_out.txt"))
    code, _, err = run(drive)
    assert code == 1 and one_line(err) and "cannot read boot_out.txt" in err


@pytest.mark.parametrize("version", ["8.2.9", "9.0.0", "9.2.8", "9.2.1", "9.3.0-alpha.1"])
def test_the_tested_versions_on_a_pico_are_accepted(tmp_path, version):
    drive = new_drive(str(tmp_path), PICO % version)
    assert run(drive, "--dry-run")[0] == 0


@settings(max_examples=examples(60), deadline=None)
@given(
    st.one_of(
        st.binary(max_size=80),
        st.builds(
            lambda v, name, chip, bid: (
                "Adafruit CircuitPython %s on 2025-05-28; %s with %s\n%s" % (v, name, chip, bid)
            ).encode("utf-8", "surrogatepass"),
            st.sampled_from(["8.2.9", "9.2.8", "10.0.0", "7.3.3", "9", "x", ""]),
            st.sampled_from(["Raspberry Pi Pico", "Adafruit Feather RP2040", "Raspberry Pi Pico 2", ""]),
            st.sampled_from(["rp2040", "rp2350a", "nRF52840", ""]),
            st.sampled_from(
                [
                    "",
                    "Board ID:raspberry_pi_pico\n",
                    "Board ID:adafruit_feather_rp2040\n",
                    "Board ID:\n",
                    "Board ID:raspberry_pi_pico2\n",
                ]
            ),
        ),
    )
)
def test_any_boot_out_is_accepted_only_for_a_tested_pico_or_refused_in_one_line(boot_out):
    """input from someone else's device: any bytes in boot_out.txt."""
    with tempfile.TemporaryDirectory() as root:
        drive = new_drive(root)
        open(os.path.join(drive, "boot_out.txt"), "wb").write(boot_out)
        code, out, err = run(drive, "--dry-run")
        if code == 0:
            version, board_id, chip = deploy._boot_out(boot_out.decode("utf-8").splitlines())
            assert board_id == "raspberry_pi_pico" and chip in ("rp2040", None) and (8, 2) <= version[:2] <= (9, 99)
        else:
            assert code in (1, 2) and one_line(err), err
    CASES["boot_out"] = CASES.get("boot_out", 0) + 1


def test_a_folder_without_boot_out_takes_any_board(tmp_path):
    """``--to ./build`` works as before: no drive to read, nothing to refuse."""
    for board in ("pico-neopixel", "pico-grid", "pico-ring", "macropad", "circuitplayground"):
        assert run(str(tmp_path / board), "--board", board)[0] == 2  # not a folder yet
        (tmp_path / board).mkdir()
        assert run(str(tmp_path / board), "--board", board)[0] == 0


def test_zz_figures(capsys):
    """The cases each generator ran (``pytest -s`` shows them; docs/reliability.md)."""
    with capsys.disabled():
        print("\ndeploy fault cases:", ", ".join("%s %d" % kv for kv in sorted(CASES.items())))
