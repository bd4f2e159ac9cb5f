# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""One owner, companion files written without following links, and files of
ours that are damaged never darkening the exhibit (``--state``, ``--nvm``).

Kinds (docs/reliability.md, "Another writer and damage at rest"):

- another writer: two processes on one ``--state`` or ``--nvm`` (last
  writer won: 13 of 24 games lost); a link planted at any companion path
  (``.lock``, ``.run``, ``.run.tmp``, ``.tmp``, ``.damaged-1``,
  ``.other-1``) had a foreign file overwritten (3 of them on main);
- damage at rest: a zeroed state file (what ext4 can leave after a power
  cut), a flipped byte 0, garbage after a record refused the start ("not a
  Nimatron's state"): under systemd a restart loop, a dark exhibit; an
  8 KB ``--nvm`` image was cut to 4 KB in silence.
"""

import json
import os
import signal
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "simulator", "nimatron_sim"))

from controller_scenarios import FakeIO  # noqa: E402
from nimatron.__main__ import RunMarker, open_state  # noqa: E402
from nimatron.machine import app, statefile  # noqa: E402
from nimatron.machine.files import OsFiles  # noqa: E402
from nimatron.machine.startup import Machine, overrides_source  # noqa: E402
from nimatron.machine.store import AUDITS, SETTINGS, Store, encode  # noqa: E402
from nimatron_sim.flash import FlashNvm  # noqa: E402

EXE = os.path.join(os.path.dirname(sys.executable), "nimatron")
VICTIM = b"someone else's file: never written\n"


def env():
    out = dict(os.environ, GPIOZERO_PIN_FACTORY="mock", PYTHONUNBUFFERED="1")
    for key in ("INVOCATION_ID", "STATE_DIRECTORY", "NOTIFY_SOCKET"):
        out.pop(key, None)
    return out


def pi(*args):
    return subprocess.Popen(
        [sys.executable, "-m", "nimatron", "--board", "pi-leds"] + list(args),
        cwd=ROOT,
        env=env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )


def sim(*args, until_killed=False):
    argv = [EXE, "sim", "--headless", "--board", "pi-leds", "--script", os.devnull] + list(args)
    return subprocess.Popen(
        argv + (["--until-killed"] if until_killed else []),
        env=env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )


def boot_then_stop(proc):
    """The boot event; then SIGTERM, a clean stop (exit 0)."""
    line = proc.stdout.readline()
    assert line, proc.communicate(timeout=60)[1]
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    return json.loads(line), err


def refused(proc):
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def files_in(folder):
    out = {}
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        st_ = os.lstat(path)
        data = os.readlink(path) if os.path.islink(path) else open(path, "rb").read()
        out[name] = (st_.st_ino, st_.st_mtime_ns, data)
    return out


def record(kind, seq, payload):
    return encode(kind, seq, payload)


_STATE = []


def state_bytes():
    """A Pi's state file as a machine's first start writes it (audits:
    one power-up; settings), made once."""
    if not _STATE:
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "state.bin")
            start_machine(Store(path=path)).controller.io.close()
            _STATE.append(open(path, "rb").read())
    return _STATE[0]


def make(board, overrides, listener, now_ms, audits):
    return app.make_controller(board, overrides, io=FakeIO(), listener=listener, now_ms=now_ms, audits=audits)


def start_machine(store, lines=None):
    return Machine(
        "pico-neopixel",
        overrides_source({}),
        store,
        now_ms=0,
        reset_reason="power_on",
        make=make,
        log=(lines.append if lines is not None else (lambda line: None)),
    )


# -- one owner ---------------------------------------------------------------
def test_one_owner_in_process(tmp_path):
    """Another writer: a second hold on the same file is refused, in one sentence naming it."""
    path = str(tmp_path / "state.bin")
    first = statefile.Owner(path)
    assert first.take() is None
    second = statefile.Owner(path)
    why = second.take()
    assert why == "%s: another Nimatron is using it (process %d); one file, one machine" % (path, os.getpid())
    assert open_state(path, err=open(os.devnull, "w")) is None
    first.close()
    assert second.take() is None  # the first let go: the file is free again
    second.close()


SECOND = {  # program: (how to start it on a file, the option naming it, its file)
    "pi": (lambda path, **kw: pi("--state", path), "--state", "state.bin"),
    "sim": (lambda path, **kw: sim("--nvm", path, **kw), "--nvm", "nvm.bin"),
}


@pytest.mark.parametrize("program", sorted(SECOND))
def test_a_second_process_on_one_file_is_refused_before_touching_anything(tmp_path, program):
    """Another writer: two ``python -m nimatron --state F`` (24 games, 13 lost
    on main), two ``nimatron sim --nvm F`` (798 games, 399 lost)."""
    start, option, name = SECOND[program]
    path = str(tmp_path / name)
    first = start(path, until_killed=True)
    try:
        assert json.loads(first.stdout.readline())["event"] == "boot"
        before = files_in(tmp_path)
        err = refused(start(path))
        assert "%s %s: another Nimatron is using it (process %d)" % (option, path, first.pid) in err
        assert files_in(tmp_path) == before
    finally:
        first.send_signal(signal.SIGTERM)
        first.communicate(timeout=60)
    assert first.returncode == 0


# -- companion paths never followed -------------------------------------------
STATE_COMPANIONS = (".lock", ".run", ".run.tmp", ".tmp", ".damaged-1")
NVM_COMPANIONS = (".lock", ".tmp", ".other-1")


def plant(folder, name):
    """A link at ``folder/name`` to a victim file outside the folder."""
    victim = folder.parent / ("victim-of-" + name)
    victim.write_bytes(VICTIM)
    os.symlink(str(victim), str(folder / name))
    return victim


def pi_run(path, saves=3):
    """What a Pi's start does to the folder, in-process: the lock, the
    damaged file kept aside, the run marker, a few saves, a clean stop."""
    devnull = open(os.devnull, "w")
    store = open_state(path, err=devnull)
    devnull.close()
    if store is None:
        return "refused"
    marker = RunMarker(path + ".run")
    marker.start()
    for n in range(saves):
        assert store.save_audits({"l": [n]})
    marker.stop()
    store.owner.close()
    return "started"


def nvm_run(path, saves=3):
    from nimatron_pc.errors import UsageError
    from nimatron_sim.cli import _open_nvm

    try:
        nvm, store, owner = _open_nvm(path)
    except UsageError:
        return "refused"
    for n in range(saves):
        assert store.save_audits({"l": [n]})
    owner.close()
    return "started"


@pytest.mark.parametrize("name", STATE_COMPANIONS)
@pytest.mark.parametrize("damaged", [False, True])
def test_a_link_at_any_companion_of_the_state_file_never_writes_its_target(tmp_path, name, damaged):
    """Another writer: a link planted beside ``--state`` (every companion path,
    on a fresh file and on a damaged one, which is kept aside)."""
    folder = tmp_path / "st"
    folder.mkdir()
    path = str(folder / "state.bin")
    if damaged:
        (folder / "state.bin").write_bytes(bytes(4096))
    victim = plant(folder, "state.bin" + name)
    outcome = pi_run(path)
    assert victim.read_bytes() == VICTIM
    assert outcome == ("refused" if name == ".lock" else "started")
    if outcome == "started":
        assert Store(path=path).load()["audits"] == {"l": [2]}
        if damaged:  # kept aside beside the link, never through it
            aside = "state.bin.damaged-2" if name == ".damaged-1" else "state.bin.damaged-1"
            assert (folder / aside).read_bytes() == bytes(4096)


@pytest.mark.parametrize("name", NVM_COMPANIONS)
@pytest.mark.parametrize("size", [0, 4096, 8192])
def test_a_link_at_any_companion_of_the_nvm_never_writes_its_target(tmp_path, name, size):
    """Another writer: a link planted beside ``--nvm`` (a new file, a sector,
    another version's 8 KB image, which is kept aside)."""
    folder = tmp_path / "sim"
    folder.mkdir()
    path = str(folder / "nvm.bin")
    if size:
        (folder / "nvm.bin").write_bytes(b"\xff" * size)
    victim = plant(folder, "nvm.bin" + name)
    outcome = nvm_run(path)
    assert victim.read_bytes() == VICTIM
    assert outcome == ("refused" if name == ".lock" else "started")
    if outcome == "started":
        assert os.path.getsize(path) == 4096
        assert Store(nvm=FlashNvm.open(path)).load()["audits"] == {"l": [2]}


def test_links_at_every_companion_path_end_to_end(tmp_path):
    """The same through the real programs: links everywhere but the lock; two
    starts and stops of a Pi on a zeroed file, a simulator on an 8 KB image."""
    folder = tmp_path / "st"
    folder.mkdir()
    (folder / "state.bin").write_bytes(bytes(4096))
    victims = [plant(folder, "state.bin" + name) for name in STATE_COMPANIONS if name != ".lock"]
    for _ in range(2):
        boot, err = boot_then_stop(pi("--state", str(folder / "state.bin")))
    nvm = tmp_path / "sim"
    nvm.mkdir()
    (nvm / "nvm.bin").write_bytes(b"\xff" * 8192)
    victims += [plant(nvm, "nvm.bin" + name) for name in NVM_COMPANIONS if name != ".lock"]
    out, err = sim("--nvm", str(nvm / "nvm.bin")).communicate(timeout=60)
    assert json.loads(out.splitlines()[0])["event"] == "boot"
    for victim in victims:
        assert victim.read_bytes() == VICTIM, victim


def test_a_hard_link_at_the_lock_is_refused_untouched(tmp_path):
    """Another writer: ``STATE.lock`` is truncated to hold the owner's pid, so
    a hard link to a foreign file is refused (a lock file of any *bytes* is
    ours: tests/test_start_faults.py)."""
    victim = tmp_path / "victim"
    victim.write_bytes(VICTIM)
    lock = tmp_path / "state.bin.lock"
    os.link(str(victim), str(lock))
    why = statefile.Owner(str(tmp_path / "state.bin")).take()
    assert "has other names (a hard link to another file)" in why
    assert victim.read_bytes() == VICTIM and lock.read_bytes() == VICTIM


def test_a_lock_that_cannot_be_made_is_a_warning_not_a_dark_exhibit(tmp_path, monkeypatch):
    """The file system refuses: a read-only state folder, or no ``flock`` at
    all, must not stop the machine (its saves say their own failures)."""
    import errno

    real_open = os.open

    def read_only(path, flags, *mode):
        if flags & os.O_CREAT:
            raise OSError(errno.EROFS, "Read-only file system")
        return real_open(path, flags, *mode)

    owner = statefile.Owner(str(tmp_path / "state.bin"))
    monkeypatch.setattr(os, "open", read_only)
    assert owner.take() is None and "cannot be made (Read-only file system)" in owner.note
    monkeypatch.undo()
    monkeypatch.setitem(sys.modules, "fcntl", None)
    owner = statefile.Owner(str(tmp_path / "state.bin"))
    assert owner.take() is None and "no flock" in owner.note


def test_os_files_on_a_board_without_os_open_writes_with_plain_open(tmp_path):
    """MicroPython and CircuitPython have no ``os.open``: ``create`` falls back
    (a board's drive has no links, and one program writes it)."""

    class BoardOs:
        remove = staticmethod(os.remove)
        rename = staticmethod(os.rename)

    files = OsFiles(BoardOs)
    path = str(tmp_path / "state.bin.tmp")
    files.create(path, b"records")
    assert open(path, "rb").read() == b"records"


def test_a_stale_temporary_file_is_replaced_not_written_into(tmp_path):
    """Another writer: a ``.tmp`` left by a crash (or hard-linked to a foreign
    file) is removed, never written through."""
    victim = tmp_path / "victim"
    victim.write_bytes(VICTIM)
    os.link(str(victim), str(tmp_path / "state.bin.tmp"))
    store = Store(path=str(tmp_path / "state.bin"))
    assert store.save_audits({"l": [1]})
    assert victim.read_bytes() == VICTIM


# -- damage at rest: ours, kept aside, still playing --------------------------
def flipped(data, at):
    out = bytearray(data)
    out[at] ^= 0xFF
    return bytes(out)


ONE = record(AUDITS, 3, {"l": [5]})
DAMAGED = {
    "zeroed (ext4 after a power cut)": (bytes(4096), None),
    "blank (0xFF)": (b"\xff" * 4096, None),
    "byte 1 (the magic) flipped": (flipped(state_bytes(), 1), "settings"),
    "byte 1 of a lone record flipped": (flipped(ONE, 1), None),
    "truncated mid-record": (state_bytes()[:-9], "audits"),
    "garbage after a record": (state_bytes() + b"\x00\x17garbage\xff", "both"),
    "a header with no whole record": (ONE[:20], None),
    "mostly zeros and blanks": (bytes(3000) + b"\xff" * 1000 + b"Nimatron", None),
}


@pytest.mark.parametrize("case", sorted(DAMAGED))
def test_a_damaged_state_file_of_ours_is_kept_aside_and_the_machine_plays(tmp_path, case):
    """Damage at rest: the file is copied aside (numbered, exclusively), the
    machine starts from what could be read and says so at boot."""
    data, kept = DAMAGED[case]
    path = tmp_path / "state.bin"
    path.write_bytes(data)
    assert statefile.problem(str(path)) is None
    store = open_state(str(path), err=open(os.devnull, "w"))
    lines = []
    m = start_machine(store, lines)
    assert (tmp_path / "state.bin.damaged-1").read_bytes() == data
    assert "kept aside as state.bin.damaged-1" in m.boot["why"]
    assert sum("kept aside as state.bin.damaged-1" in line for line in lines) == 1
    assert m.audits.snapshot()["lifetime"]["data_losses"] == 1
    if kept in ("audits", "both"):
        assert m.audits.snapshot()["lifetime"]["power_ups"] == 2  # the one before survived
    assert m.restored == ("stored" if kept else "factory")
    store.owner.close()
    again = start_machine(open_state(str(path)))  # replaced by the first save: nothing more to say
    assert "why" not in again.boot or "kept aside" not in again.boot["why"]
    assert sorted(os.listdir(tmp_path)) == ["state.bin", "state.bin.damaged-1", "state.bin.lock"]


def test_kept_aside_never_overwrites_and_is_not_repeated(tmp_path):
    path = str(tmp_path / "state.bin")
    (tmp_path / "state.bin.damaged-1").write_bytes(b"an older loss")
    assert statefile.keep_aside(path, bytes(10)) == path + ".damaged-2"
    assert statefile.keep_aside(path, bytes(10)) == path + ".damaged-2"  # the same bytes: one copy
    assert statefile.keep_aside(path, bytes(11)) == path + ".damaged-3"
    assert (tmp_path / "state.bin.damaged-1").read_bytes() == b"an older loss"


def test_an_empty_state_file_is_a_loss_said_at_boot(tmp_path):
    (tmp_path / "state.bin").write_bytes(b"")
    m = start_machine(open_state(str(tmp_path / "state.bin")))
    assert "state.bin was empty" in m.boot["why"]


def test_a_zeroed_state_file_under_systemd_starts_and_stops_cleanly(tmp_path):
    """Damage at rest: the repro of the restart loop (a dark exhibit on main)."""
    folder = tmp_path / "st"
    folder.mkdir()
    (folder / "state.bin").write_bytes(bytes(4096))
    boot, err = boot_then_stop(pi("--state", str(folder / "state.bin")))
    assert boot["event"] == "boot" and "kept aside as state.bin.damaged-1" in boot["why"]
    assert sum("kept aside as state.bin.damaged-1" in line for line in err.splitlines()) == 1
    assert (folder / "state.bin.damaged-1").read_bytes() == bytes(4096)


def test_foreign_files_are_still_refused_in_one_line(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("opening hours\n" * 10)
    big = tmp_path / "big.bin"
    big.write_bytes(state_bytes() + bytes(statefile.LIMIT))
    for path in (text, big):
        before = files_in(tmp_path)
        err = refused(pi("--state", str(path)))
        assert "that are not a Nimatron's state" in err
        assert files_in(tmp_path) == before


# -- which bytes are ours: a generator ------------------------------------------
def xor(data, at, mask):
    out = bytearray(data)
    out[at] ^= mask
    return bytes(out)


# Sequence numbers below 2**24 (a record per game: 16 million games), so a
# header's last byte is 0 and a torn header is never mistaken for text.
RECORDS = st.builds(
    record,
    st.sampled_from([AUDITS, SETTINGS]),
    st.integers(0, 2**24 - 1),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=4),
)
JUNK = st.binary(max_size=300)
OURS = st.one_of(
    st.tuples(JUNK, RECORDS, JUNK).map(lambda t: t[0] + t[1] + t[2]),  # one of our records, anywhere
    st.integers(1, statefile.LIMIT).map(bytes),  # zeroed
    st.integers(1, statefile.LIMIT).map(lambda n: b"\xff" * n),  # blank
    st.tuples(RECORDS, st.integers(0, 3), st.integers(1, 255), st.integers(8, 4000)).map(
        lambda t: xor(t[0], t[1], t[2])[: t[3]]
    ),  # a header hit, maybe torn
)
TEXT = st.characters(exclude_categories=("C", "Z"), include_characters=" \n\t")
FOREIGN = st.one_of(
    st.text(TEXT, min_size=1).map(str.encode),  # someone's text
    st.tuples(RECORDS, st.binary(min_size=1, max_size=100)).map(lambda t: t[0] + bytes(statefile.LIMIT) + t[1]),
)


# The suite runs a few hundred examples in seconds; STATE_EXAMPLES=20000 is the long run (docs/reliability.md).
EXAMPLES = int(os.environ.get("STATE_EXAMPLES", "300"))
BOUNDED = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize="STATE_EXAMPLES" not in os.environ,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
)


@BOUNDED
@given(OURS)
def test_anything_holding_our_bytes_starts(data):
    """Damage at rest: a record anywhere, all zeros, all blank, a header at
    byte 0 (one byte of its first four flipped, or torn): never refused."""
    kind, words = statefile.verdict(data)
    assert kind in ("ours", "damaged"), (kind, words)


@BOUNDED
@given(FOREIGN)
def test_text_and_oversized_files_are_refused(data):
    assert statefile.verdict(data)[0] == "foreign"


@settings(BOUNDED, max_examples=max(60, EXAMPLES // 5))
@given(st.one_of(OURS, FOREIGN, st.binary(max_size=5000)))
def test_a_start_on_any_file_either_refuses_it_untouched_or_keeps_it_whole(tmp_path_factory, data):
    """Any bytes at all: refused (the file as it was, nothing created beside
    it), or started with everything that was not a clean state kept aside
    byte for byte."""
    folder = tmp_path_factory.mktemp("any")
    path = folder / "state.bin"
    path.write_bytes(data)
    devnull = open(os.devnull, "w")
    store = open_state(str(path), err=devnull)
    devnull.close()
    if store is None:
        assert statefile.verdict(data)[0] == "foreign"
        assert os.listdir(folder) == ["state.bin"] and path.read_bytes() == data
        return
    store.owner.close()
    kind = statefile.verdict(data)[0]
    if kind == "damaged" and data:
        assert (folder / "state.bin.damaged-1").read_bytes() == data
        assert "kept aside" in store.files.notes[0]
    elif kind == "damaged":
        assert "was empty" in store.files.notes[0]  # nothing to keep aside: the loss is said
    else:
        assert kind == "ours" and not store.files.notes


# -- another version's nvm image ----------------------------------------------
def test_another_versions_nvm_image_is_kept_aside_and_its_records_carried_over(tmp_path):
    """Damage at rest: an 8 KB ``--nvm`` (another version's size) was cut to
    4 KB in silence, reported as a power cut."""
    path = tmp_path / "nvm.bin"
    old = record(AUDITS, 4, {"l": [1]}) + record(SETTINGS, 5, {"board": "pi-leds", "set": {}})
    old += record(AUDITS, 6, {"l": [2]})
    path.write_bytes(old + b"\xff" * (8192 - len(old)))
    nvm = FlashNvm.open(str(path))
    note = (
        "nvm.bin held 8192 bytes, not 4096 (cut short, or another version's image): kept aside as "
        "nvm.bin.other-1, its newest readable records carried over; the newest audits and settings may be lost"
    )
    assert nvm.notes == [note]
    assert os.path.getsize(path) == 4096
    assert (tmp_path / "nvm.bin.other-1").read_bytes() == old + b"\xff" * (8192 - len(old))
    found = Store(nvm=nvm).load()
    assert found["audits"] == {"l": [2]} and found["settings"]["board"] == "pi-leds"
    assert found["problems"] == [note]
    assert sorted(found["lost"]) == ["audits", "settings"]  # an image cut short: the newest may be past its end
    nvm = FlashNvm.open(str(path))  # now a sector of ours: nothing more to say
    assert nvm.notes == [] and Store(nvm=nvm).load()["problems"] == []


def test_another_versions_nvm_image_end_to_end(tmp_path):
    path = tmp_path / "nvm.bin"
    path.write_bytes(bytes(2048))
    out, err = sim("--nvm", str(path)).communicate(timeout=60)
    boot = json.loads(out.splitlines()[0])
    assert "nvm.bin held 2048 bytes, not 4096" in boot["why"] and "kept aside as nvm.bin.other-1" in boot["why"]
    assert err.count("kept aside") == 1
    assert (tmp_path / "nvm.bin.other-1").read_bytes() == bytes(2048)
